"""Charts as SVG, drawn on the server: no script, no CDN, printable by WeasyPrint.

Two kinds are enough for the club: running totals (one line per player) and games by type
(horizontal bars, readable on a phone because the labels sit in their own column). Each function
takes the selector's result and returns a self-contained ``<svg>`` document as a string: a
``viewBox`` and ``width="100%"`` so it scales to the screen, a white background so it reads in
dark mode and on paper, a ``<title>`` for screen readers.

Nothing here queries the database.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from django.utils.translation import gettext as _

from scoring.amounts import format_amount
from standings.selectors import GameLine, RunningTotals

WIDTH = 480
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
# Tableau's ten, then the same colours dashed: twenty players stay apart.
COLOURS = (
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#ff7f0e",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
)
DASHES = ("", "6 3", "2 3", "8 3 2 3")


def _attr(value: object) -> str:
    return escape(str(value), quote=True)


def _nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering [low, high] (steps of 1, 2 or 5 × 10^n)."""
    if high == low:
        high = low + 1
    raw = (high - low) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    first = math.floor(low / step) * step
    ticks = []
    value = first
    while value <= high + step * 0.001:
        ticks.append(value)
        value += step
    if ticks[-1] < high:
        ticks.append(ticks[-1] + step)
    return ticks


def _label_positions(count: int, most: int = 5) -> list[int]:
    """Up to ``most`` evenly spread x positions to label, the last one included; position 0 is
    the start (no label)."""
    if count <= 1:
        return []
    last = count - 1
    shown = min(most, last)
    return sorted({round(last * k / shown) for k in range(1, shown + 1)})


def _open(height: float, title: str, label_id: str) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height:.0f}" width="100%" '
        f'role="img" aria-labelledby="{label_id}" font-family="{_attr(FONT)}" font-size="12">',
        f'<title id="{label_id}">{escape(title)}</title>',
        f'<rect width="{WIDTH}" height="{height:.0f}" fill="#fff"/>',
        f'<text x="{WIDTH / 2:.0f}" y="18" text-anchor="middle" font-size="14" font-weight="bold" '
        f'fill="#222">{escape(title)}</text>',
    ]


@dataclass(frozen=True)
class LegendEntry:
    name: str
    colour: str
    dash: str
    final: str  # the final total, signed, in the unit


def _style(n: int) -> tuple[str, str]:
    return COLOURS[n % len(COLOURS)], DASHES[(n // len(COLOURS)) % len(DASHES)]


def legend(chart: RunningTotals) -> list[LegendEntry]:
    """The players of a running-totals chart with their colour and final total, best first (the
    PDFs print it as HTML under a chart drawn with ``legend=False``: text drawn inside an SVG
    costs WeasyPrint far more than the same text in the page)."""
    out = []
    for n, s in enumerate(chart.series):
        colour, dash = _style(n)
        out.append(LegendEntry(s.name, colour, dash, format_amount(s.values[-1], chart.unit, signed=True)))
    return out


def running_totals_svg(chart: RunningTotals, *, title: str, chart_id: str = "running", with_legend: bool = True) -> str:
    """One line per player, the running total after each step; the legend lists the players
    with their final totals, best first."""
    series = chart.series
    left, right, top, plot_h = 74, 12, 30, 220
    plot_w = WIDTH - left - right
    legend_cols = 2
    legend_rows = math.ceil(len(series) / legend_cols) if with_legend else 0
    height = top + plot_h + 40 + legend_rows * 17 + 8
    out = _open(height, title, f"{chart_id}-title")
    if not series:
        out.append(f'<text x="{WIDTH / 2:.0f}" y="{top + plot_h / 2:.0f}" text-anchor="middle" fill="#555">')
        out.append(escape(_("Noch keine Spiele.")) + "</text></svg>")
        return "".join(out)
    values = [v for s in series for v in s.values]
    ticks = _nice_ticks(min(0, *values), max(0, *values))
    low, high = ticks[0], ticks[-1]
    steps = max(len(chart.x_labels) - 1, 1)

    def x(i: int) -> float:
        return left + plot_w * i / steps

    def y(v: float) -> float:
        return top + plot_h - plot_h * (v - low) / (high - low)

    for tick in ticks:
        colour, width = ("#444", 1.2) if tick == 0 else ("#ddd", 0.8)
        out.append(
            f'<line x1="{left}" x2="{left + plot_w}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
            f'stroke="{colour}" stroke-width="{width}"/>'
        )
        label = format_amount(int(tick) if chart.unit == "cent" else round(tick), chart.unit)
        out.append(
            f'<text x="{left - 4}" y="{y(tick) + 4:.1f}" text-anchor="end" fill="#333" font-size="11">'
            f"{escape(label)}</text>"
        )
    kept: list[int] = []
    for i in reversed(_label_positions(len(chart.x_labels))):
        if not kept or x(kept[-1]) - x(i) >= 80:  # a date is about 55 units wide
            kept.append(i)
    for i in kept:
        anchor = "end" if i == steps else "middle"
        out.append(
            f'<text x="{x(i):.1f}" y="{top + plot_h + 15}" text-anchor="{anchor}" fill="#333" '
            f'font-size="10">{escape(chart.x_labels[i])}</text>'
        )
    if chart.x_title:
        out.append(
            f'<text x="{left + plot_w / 2:.0f}" y="{top + plot_h + 31}" text-anchor="middle" '
            f'fill="#555" font-size="11">{escape(chart.x_title)}</text>'
        )
    legend_top = top + plot_h + 44
    col_w = (WIDTH - 2 * 8) / legend_cols
    for n, s in enumerate(series):
        colour, dash = _style(n)
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(s.values))
        out.append(
            f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="1.8" '
            f'stroke-linejoin="round"{dash_attr}><title>{escape(s.name)}</title></polyline>'
        )
        if not with_legend:
            continue
        lx = 8 + (n % legend_cols) * col_w
        ly = legend_top + (n // legend_cols) * 17
        out.append(
            f'<line x1="{lx:.0f}" x2="{lx + 18:.0f}" y1="{ly:.0f}" y2="{ly:.0f}" stroke="{colour}" '
            f'stroke-width="3"{dash_attr}/>'
        )
        final = format_amount(s.values[-1], chart.unit, signed=True)
        out.append(f'<text x="{lx + 23:.0f}" y="{ly + 4:.0f}" fill="#222">{escape(s.name)}: {escape(final)}</text>')
    out.append("</svg>")
    return "".join(out)


def games_svg(games: Sequence[GameLine], *, title: str, chart_id: str = "games") -> str:
    """Horizontal bars: how often each game was played, the part won darker."""
    label_w, right, top, row_h = 118, 56, 34, 22
    bar_w = WIDTH - label_w - right
    height = top + max(len(games), 1) * row_h + 30
    out = _open(height, title, f"{chart_id}-title")
    if not games:
        out.append(f'<text x="{WIDTH / 2:.0f}" y="{top + 16}" text-anchor="middle" fill="#555">')
        out.append(escape(_("Noch keine Spiele.")) + "</text></svg>")
        return "".join(out)
    most = max(g.played for g in games) or 1
    for n, g in enumerate(games):
        y = top + n * row_h
        played_w = bar_w * g.played / most
        won_w = bar_w * g.won / most
        out.append(f'<text x="{label_w - 6}" y="{y + 15}" text-anchor="end" fill="#222">{escape(g.label)}</text>')
        out.append(
            f'<rect x="{label_w}" y="{y + 3}" width="{played_w:.1f}" height="{row_h - 6}" fill="#9ecae1">'
            f"<title>{escape(g.label)}: {g.played}</title></rect>"
        )
        out.append(f'<rect x="{label_w}" y="{y + 3}" width="{won_w:.1f}" height="{row_h - 6}" fill="#1f77b4"/>')
        out.append(f'<text x="{label_w + played_w + 4:.1f}" y="{y + 15}" fill="#222" font-size="11">{g.played}</text>')
    legend_y = top + len(games) * row_h + 16
    out.append(f'<rect x="{label_w}" y="{legend_y - 9}" width="12" height="10" fill="#9ecae1"/>')
    played, won = escape(_("gespielt")), escape(_("davon gewonnen"))  # outside the f-strings: xgettext
    out.append(f'<text x="{label_w + 16}" y="{legend_y}" fill="#333" font-size="11">{played}</text>')
    out.append(f'<rect x="{label_w + 110}" y="{legend_y - 9}" width="12" height="10" fill="#1f77b4"/>')
    out.append(f'<text x="{label_w + 126}" y="{legend_y}" fill="#333" font-size="11">{won}</text>')
    out.append("</svg>")
    return "".join(out)
