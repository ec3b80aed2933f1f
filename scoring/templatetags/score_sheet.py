"""Template filters of the score sheet."""

from __future__ import annotations

import math
from collections.abc import Sequence

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext

from scoring.amounts import EURO, format_amount
from scoring.engine.session import TableState
from scoring.forms.table_rules import StoeckleRow, stoeckle_rows
from scoring.labels import describe, describe_short, game_label, round_label
from scoring.option_labels import preset_label
from scoring.selectors import Sheet, SheetRow

register = template.Library()


@register.filter
def amount(value: int | None, unit: str) -> str:
    """``20|amount:"cent"`` → ``+0,20 €``; None (sat out) → ``–``."""
    return format_amount(value, unit, signed=True)


@register.filter
def total(value: int | None, unit: str) -> str:
    return format_amount(value, unit)


@register.filter
def bare(text: str) -> str:
    """An amount without its currency sign, for a narrow column headed with the unit."""
    return text.replace(EURO, "")


@register.filter
def bock_factor(doublings: int) -> int:
    """The Bock doublings as the factor the explanation lines multiply to: 1 → 2, 2 → 4."""
    return 2 ** int(doublings or 0)


@register.filter(name="describe_short")
def describe_short_filter(data: dict, short: dict) -> str:
    return describe_short(data, short) if isinstance(data, dict) else ""


@register.filter(name="stoeckle_rows")
def stoeckle_rows_filter(state: TableState) -> list[StoeckleRow]:
    return stoeckle_rows(state)


@register.filter(name="round_label")
def round_label_filter(name: str) -> str:
    return round_label(name)


@register.filter(name="preset_label")
def preset_label_filter(name: str) -> str:
    """A rule set's name in words: ``allgaeu`` → ``Schafkopf um Geld (Bock, Mungo)``."""
    return preset_label(name)


@register.filter(name="game_label")
def game_label_filter(name: str) -> str:
    return game_label(name)


@register.filter(name="describe")
def describe_filter(data: dict) -> str:
    return describe(data) if isinstance(data, dict) else ""


@register.filter
def item(mapping: dict, key: str) -> object:
    return mapping.get(key) if hasattr(mapping, "get") else None


@register.filter
def sheet_badges(row: SheetRow) -> str:
    """The marks of a Liste row: its Bock factor (as the explanation multiplies it) and the
    special round it was played in."""
    parts = []
    if row.bock:
        parts.append(format_html('<span class="badge bock">Bock ×{}</span>', bock_factor(max(row.entry.bock, 1))))
    if row.mungo:
        parts.append(format_html('<span class="badge mungo">{}</span>', round_label(row.entry.round)))
    elif row.entry.round != "normal" and not row.bock:
        parts.append(format_html('<span class="badge">{}</span>', round_label(row.entry.round)))
    return format_html_join("", "{}", ((part,) for part in parts))


@register.filter
def index(sequence: Sequence[object], position: int) -> object:
    """``row.totals|index:forloop.counter0``: the item at ``position`` (None past the end)."""
    try:
        return sequence[int(position)]
    except (IndexError, TypeError, ValueError):
        return None


@register.filter
def zip_with(first: Sequence[object], second: Sequence[object]) -> list[tuple[object, object]]:
    """Pairs of two sequences of the same length, for one loop over both."""
    return list(zip(first, second, strict=True))


# The Liste in blocks of rows that the browser skips while they are off the screen
# (``content-visibility: auto``, issue 33): on a phone at CPU ÷ 4 the page's 200 rows cost a
# second of style, layout and paint on every tap. Each block is a table of its own with the same
# fixed columns, so they line up without measuring each other.
SHEET_CHUNK = 20
NARROWEST, WIDEST = 4, 48  # the column classes of score-sheet.css (.cw4 … .cw48), in quarters of a character
# A glyph's width in ``ch`` (the width of a digit), as wide as the widest of the phones' usual
# fonts has it (DejaVu Sans; Roboto and San Francisco are narrower): the separators and a minus
# narrower than a digit, a plus wider; the letters of a name in the head.
GLYPHS = {",": 0.5, ".": 0.6, "-": 0.6, "–": 0.8, " ": 0.55, "+": 1.3}
LETTERS = {"i": 0.45, "j": 0.45, "l": 0.45, "I": 0.5, "f": 0.65, "t": 0.65, "r": 0.65, "s": 0.85, "z": 0.85}
LETTERS |= {"m": 1.5, "w": 1.3, "M": 1.4, "W": 1.6}
BOLD = 1.1  # a bold digit (the totals), in regular ones


@register.filter
def sheet_chunks(rows: Sequence[SheetRow], size: int = SHEET_CHUNK) -> list[Sequence[SheetRow]]:
    """The rows, newest first, in blocks of ``size``."""
    newest = list(reversed(rows))
    return [newest[start : start + int(size)] for start in range(0, len(newest), int(size))]


def _width(text: str, scale: float = 1.0) -> float:
    return sum(GLYPHS.get(char, 1.0) for char in text.strip()) * scale


def _name_width(name: str) -> float:
    def letter(char: str) -> float:
        if char in LETTERS:
            return LETTERS[char]
        if char.isalpha():
            return 1.2 if char.isupper() else 1.0
        return GLYPHS.get(char, 1.0)

    return sum(letter(char) for char in name.strip()) + 0.1


@register.filter
def sheet_columns(sheet: Sheet) -> dict[str, object]:
    """The widths of the Liste's fixed columns in quarters of a character (``ch``, a digit with
    tabular figures): the number's and each player's, who gets as much room as his widest
    amount, running total (smaller), bold total or short name needs — what the table's automatic
    layout gave."""
    short = sheet.short
    widths = []
    for column, name in enumerate(sheet.players):
        needs = [_name_width(short.get(name, "")), _width(bare(total(sheet.totals[column], sheet.unit)), BOLD)]
        for row in sheet.rows:
            cell = row.cells[column]
            needs.append(_width(bare(amount(cell.amount, sheet.unit))))
            needs.append(_width(bare(total(cell.total, sheet.unit)), 0.9))
        widths.append(min(max(math.ceil(4 * max(needs)), NARROWEST), WIDEST))
    nr = max([_width(row.label) + 0.25 for row in sheet.rows] + [_name_width(gettext("Nr."))])
    return {"nr": min(max(math.ceil(4 * nr), NARROWEST), WIDEST), "players": widths}
