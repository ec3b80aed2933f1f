"""Reports as rows; Excel and PDF are two renderings of the same rows.

A report (``StandingsReport``, ``HandsReport``, ``PlayersReport``, ``ScoreSheet``) says what its
columns are and yields its rows: plain values, with ``Amount`` for money and points so a renderer
knows the unit. ``workbook_bytes`` writes reports as sheets of one workbook (openpyxl, numbers
stay numbers: euros as exact decimals in a euro format, points as integers); ``pdf_bytes`` renders
a template of ``templates/standings/pdf/`` with WeasyPrint, static files read from disk by
django-weasyprint's fetcher and nothing fetched from the network.

The data come from ``standings.selectors`` (aggregates) or, for the hand-by-hand sheets, from
one ordered query over the entries and one over their ledger rows, streamed.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from io import BytesIO
from typing import Any, NamedTuple, Protocol

from django.db.models import Count, Max, Min, Q, Sum
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.utils.formats import date_format
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter

from clubs.models import Club, Member
from clubs.words import Words, words_for
from scoring.amounts import CENT, amount_formatter, euros, rounded, unit_label
from scoring.labels import EVENT_LABELS, game_label
from scoring.models import Entry, LedgerEntry, Role, Session, Table
from standings import charts
from standings import selectors as stats
from standings.selectors import BlockKind, Period, UnitStandings
from standings.spreadsheet import safe_cell

# WeasyPrint logs every rendering step at INFO: noise in a server log, not news.
logging.getLogger("weasyprint.progress").setLevel(logging.WARNING)

EURO_FORMAT = '#,##0.00 "€";-#,##0.00 "€"'
POINTS_FORMAT = "#,##0"
AVERAGE_POINTS_FORMAT = "#,##0.0"
PERCENT_FORMAT = "0%"
DATE_FORMAT = "DD.MM.YYYY"


class Amount(NamedTuple):
    """Money (cents) or points with their unit; ``value`` may be a ``Fraction`` for an average."""

    value: int | Fraction | None
    unit: str


XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"  # the content type
PDF = "application/pdf"


@dataclass(frozen=True)
class Column:
    title: str
    kind: str = "text"  # text | int | amount | date | percent
    width: int = 12


class Report(Protocol):
    sheet: str

    def columns(self) -> list[Column]: ...

    def rows(self) -> Iterator[list[Any]]: ...


# --- reports -------------------------------------------------------------------------------------


def block_label(block: UnitStandings) -> str:
    """A block's heading: the ranking it is (Seeger-Fabian) or its unit."""
    return _("Seeger-Fabian") if block.kind == BlockKind.SEEGER else unit_label(block.unit)


class StandingsReport:
    """The standings of a period: one row per member and unit, best first within each unit
    (a Seeger-Fabian ranking is its own sheet, ``SeegerReport``)."""

    def __init__(self, standings: Sequence[UnitStandings], words: Words | None = None) -> None:
        self.standings = [block for block in standings if block.kind != BlockKind.SEEGER]
        self.words = words or words_for(None)
        self.sheet = _("Tabelle")

    def columns(self) -> list[Column]:
        return [
            Column(_("Einheit"), width=13),
            Column(pgettext("rank", "Platz"), "int", 7),
            Column(_("Name"), width=22),
            Column(_("Summe"), "amount", 14),
            Column(_("Spiele"), "int", 9),
            Column(_("als Spieler"), "int", 11),
            Column(_("gewonnen"), "int", 11),
            Column(_("Quote"), "percent", 9),
            Column(_("%(declarer)s gewonnen") % {"declarer": self.words.declarer}, "int", 13),
            Column(_("%(declarer)s verloren") % {"declarer": self.words.declarer}, "int", 13),
            Column(_("je Spiel"), "amount", 11),
        ]

    def rows(self) -> Iterator[list[Any]]:
        for block in self.standings:
            label = unit_label(block.unit)
            for r in block.rows:
                yield [
                    label,
                    r.rank,
                    r.name,
                    Amount(r.total, block.unit),
                    r.games,
                    r.declared,
                    r.won,
                    r.win_rate,
                    r.declarer_won,
                    r.declarer_lost,
                    Amount(r.average, block.unit),
                ]


class SeegerReport:
    """The Seeger-Fabian ranking of a period (skat.md §6): one row per player, as ranked."""

    def __init__(self, standings: Sequence[UnitStandings]) -> None:
        self.blocks = [block for block in standings if block.kind == BlockKind.SEEGER]
        self.sheet = _("Seeger-Fabian")

    def columns(self) -> list[Column]:
        return [
            Column(pgettext("rank", "Platz"), "int", 7),
            Column(_("Name"), width=22),
            Column(_("Wertung"), "amount", 11),
            Column(_("Spielpunkte"), "amount", 12),
            Column(_("gewonnen"), "int", 10),
            Column(_("verloren"), "int", 10),
            Column(_("Listen"), "int", 8),
            Column(_("je Liste"), "amount", 10),
        ]

    def rows(self) -> Iterator[list[Any]]:
        for block in self.blocks:
            for r in block.rows:
                yield [
                    r.rank,
                    r.name,
                    Amount(r.total, block.unit),
                    Amount(r.points, block.unit),
                    r.declarer_won,
                    r.declarer_lost,
                    r.lists,
                    Amount(r.per_list, block.unit),
                ]


def _members_of(standings: Sequence[UnitStandings]) -> list[tuple[int, str]]:
    """Everyone with a ledger row in the period (they all have a line in the standings), by name."""
    names = {row.member_id: row.name for block in standings for row in block.rows}
    return sorted(names.items(), key=lambda item: item[1].lower())


def _explanation(lines: list[dict[str, Any]], fmt: Any) -> str:
    """The lines as a table reads them out; a factor's label already says it ("Bock ×2")."""
    parts = []
    for line in lines:
        label = line.get("label", "")
        if line.get("amount") is not None and line.get("factor") is None:
            parts.append(f"{label} {fmt(line['amount'])}")
        else:
            parts.append(label)
    return " · ".join(parts)


def event_label(kind: str) -> str:
    return str(EVENT_LABELS.get(kind, kind))


def _won_text(value: bool | None) -> str | None:
    return None if value is None else _("ja") if value else _("nein")


class HandsReport:
    """Every entry of the period with every player's amount, the Stock and the explanation.

    A row's amounts and its Stock add up to zero (the engine books it so), except at an open
    tournament's phone table that counts for the club: its guests are in no standings, so they
    have no column (``selectors.ledger_q``)."""

    def __init__(self, *, club: Club, period: Period, standings: Sequence[UnitStandings] | None = None) -> None:
        self.club = club
        self.period = period
        self.sheet = _("Spiele")
        self.members = _members_of(stats.standings(club=club, period=period) if standings is None else standings)
        self.words = words_for(club.game)
        # The columns the club's game has no use for (a Skat club: no Mitspieler, no Stock), by
        # their place in the full row; ``rows`` leaves the same places out.
        width = len(self.members)
        self.dropped = {5} if not self.words.partner else set()
        self.dropped |= {8 + width} if not self.words.stock else set()

    def _kept(self, row: list[Any]) -> list[Any]:
        return [value for i, value in enumerate(row) if i not in self.dropped] if self.dropped else row

    def columns(self) -> list[Column]:
        return self._kept(
            [
                Column(_("Datum"), "date", 11),
                Column(_("Tisch"), width=9),
                Column(_("Nr."), "int", 6),
                Column(_("Spiel"), width=14),
                Column(str(self.words.declarer), width=16),
                Column(_("Mitspieler"), width=16),
                Column(_("gewonnen"), width=10),
                Column(_("Einheit"), width=13),
                *(Column(name, "amount", max(11, min(len(name) + 2, 18))) for _, name in self.members),
                Column(_("Stock"), "amount", 11),
                Column(_("Erklärung"), width=60),
            ]
        )

    def rows(self) -> Iterator[list[Any]]:
        entries = (
            Entry.objects.filter(
                stats.session_q(self.period, self.club.pk, "table__session__"), table__session__club=self.club
            )
            .order_by("table__session__date", "table__session_id", "table_id", "number")
            .values_list(
                "id",
                "table__session__date",
                "table__name",
                "number",
                "kind",
                "game",
                "declarer__display_name",
                "partner__display_name",
                "declarer_won",
                "table__unit",
                "lines",
                "stock_after",
                "table_id",
            )
        )
        ledger = (
            LedgerEntry.objects.filter(stats.ledger_q(self.period, self.club.pk), club=self.club)
            .order_by("date", "session_id", "table_id", "entry__number")
            .values_list("entry_id", "member_id", "amount")
            .iterator(chunk_size=5000)
        )
        column = {pk: i for i, (pk, _) in enumerate(self.members)}
        width = len(self.members)
        formatters = {unit: amount_formatter(unit) for unit in ("cent", "point", "unit")}
        labels = {unit: unit_label(unit) for unit in formatters}
        pending = next(ledger, None)
        table_id, stock = None, 0
        for (
            pk,
            date,
            table,
            number,
            kind,
            game,
            declarer,
            partner,
            won,
            unit,
            lines,
            after,
            tid,
        ) in entries.iterator(chunk_size=2000):
            amounts: list[Amount | None] = [None] * width
            while pending is not None and pending[0] == pk:
                amounts[column[pending[1]]] = Amount(pending[2], unit)
                pending = next(ledger, None)
            if tid != table_id:
                table_id, stock = tid, 0
            moved, stock = after - stock, after
            yield self._kept(
                [
                    date,
                    table,
                    number,
                    game_label(game) if kind == "hand" else event_label(kind),
                    declarer,
                    partner,
                    _won_text(won),
                    labels.get(unit, unit),
                    *amounts,
                    Amount(moved, unit) if moved else None,  # blank where the Stock did not move
                    _explanation(lines, formatters.get(unit, formatters["point"])),
                ]
            )


class PlayersReport:
    """Per member and unit: evenings, games, wins, Solos, biggest win and loss, total."""

    def __init__(self, *, club: Club, period: Period) -> None:
        self.club = club
        self.period = period
        self.sheet = _("Spieler")
        self.words = words_for(club.game)

    def columns(self) -> list[Column]:
        solos = [Column(_("Solos"), "int", 8), Column(_("Tout"), "int", 7)] if self.words.solos else []
        return [
            Column(_("Name"), width=22),
            Column(_("Einheit"), width=13),
            Column(_("Abende"), "int", 9),
            Column(_("Spiele"), "int", 9),
            Column(str(self.words.as_declarer), "int", 16 if not self.words.solos else 11),
            Column(_("gewonnen"), "int", 11),
            Column(_("Quote"), "percent", 9),
            *solos,
            Column(_("höchster Gewinn"), "amount", 15),
            Column(_("höchster Verlust"), "amount", 15),
            Column(_("Summe"), "amount", 14),
        ]

    def rows(self) -> Iterator[list[Any]]:
        played = Q(won__isnull=False)
        grouped = (
            LedgerEntry.objects.filter(stats.ledger_q(self.period, self.club.pk), club=self.club)
            .values("member__display_name", "unit")
            .annotate(
                evenings=Count("session_id", distinct=True),
                games=Count("id", filter=played),
                declared=Count("id", filter=Q(role=Role.DECLARER)),
                won_count=Count("id", filter=Q(won=True)),
                solos=Count("id", filter=Q(role=Role.DECLARER, entry__solo=True)),
                tout=Count("id", filter=Q(role=Role.DECLARER, entry__tout=True)),
                best=Max("amount", filter=played),
                worst=Min("amount", filter=played),
                total=Sum("amount"),
            )
            .order_by("member__display_name", "unit")
        )
        for r in grouped:
            unit = r["unit"]
            yield [
                r["member__display_name"],
                unit_label(unit),
                r["evenings"],
                r["games"],
                r["declared"],
                r["won_count"],
                r["won_count"] / r["games"] if r["games"] else None,
                *((r["solos"], r["tout"]) if self.words.solos else ()),
                Amount(r["best"] if r["best"] and r["best"] > 0 else None, unit),
                Amount(r["worst"] if r["worst"] and r["worst"] < 0 else None, unit),
                Amount(r["total"], unit),
            ]


@dataclass(frozen=True)
class SheetTable:
    """One table of an evening: its players (the amount columns) and its rows, with totals."""

    table: Table
    players: list[str]
    rows: list[list[Any]]  # Nr., Geber, Spiel, Spieler, Mitspieler, *amounts, Stock, Erklärung
    totals: list[int]
    stock: int


class ScoreSheet:
    """An evening's score sheet: every table's log with each player's amounts and running totals."""

    def __init__(self, *, session: Session) -> None:
        self.session = session

    def tables(self) -> list[SheetTable]:
        out = []
        tables = self.session.tables.prefetch_related("seats").order_by("id")
        for table in tables:
            players = [seat.name for seat in table.seats.all()]
            member_column = {seat.member_id: i for i, seat in enumerate(table.seats.all())}
            amounts: dict[int, list[int]] = {}
            for entry_id, member_id, amount in LedgerEntry.objects.filter(table=table).values_list(
                "entry_id", "member_id", "amount"
            ):
                amounts.setdefault(entry_id, [0] * len(players))[member_column[member_id]] = amount
            fmt = amount_formatter(table.unit)
            rows = []
            stock = 0
            entries = table.entries.order_by("number").values_list(
                "id",
                "number",
                "dealer",
                "kind",
                "game",
                "declarer__display_name",
                "partner__display_name",
                "lines",
                "stock_after",
            )
            for pk, number, dealer, kind, game, declarer, partner, lines, after in entries:
                moved, stock = after - stock, after
                rows.append(
                    [
                        number,
                        dealer,
                        game_label(game) if kind == "hand" else event_label(kind),
                        declarer or "",
                        partner or "",
                        *(Amount(a, table.unit) for a in amounts.get(pk, [0] * len(players))),
                        Amount(moved, table.unit),
                        _explanation(lines, fmt),
                    ]
                )
            totals_q = LedgerEntry.objects.filter(table=table).values("member_id").annotate(total=Sum("amount"))
            totals = [0] * len(players)
            for t in totals_q.order_by():
                totals[member_column[t["member_id"]]] = t["total"]
            out.append(SheetTable(table, players, rows, totals, stock))
        return out


# --- Excel ---------------------------------------------------------------------------------------


class _Styled:
    """Styled cells for one column of a write-only sheet, one per number format, reused row
    after row: openpyxl writes a row out when it is appended, so a cell can carry the next row's
    value afterwards, and a 10,000-row sheet does not register 10,000 styles."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.cells: dict[str, WriteOnlyCell] = {}

    def __call__(self, value: Any, number_format: str) -> WriteOnlyCell:
        cell = self.cells.get(number_format)
        if cell is None:
            cell = self.cells[number_format] = WriteOnlyCell(self.ws)
            cell.number_format = number_format
        cell.value = value
        return cell


def _converter(ws: Any, column: Column) -> Any:
    """How a column's values become Excel cells: amounts as numbers with the unit's format (euros
    as exact decimals, points as integers), never as text; ``None`` for text and whole numbers,
    which go in as they are."""
    styled = _Styled(ws)
    if column.kind == "amount":

        def amount(value: Amount | None) -> Any:
            if value is None or value.value is None:
                return None
            if value.unit == CENT:  # an average to the cent, rounded as the page and the PDF round it
                return styled(euros(int(rounded(value.value))), EURO_FORMAT)
            if isinstance(value.value, int):
                return styled(value.value, POINTS_FORMAT)
            return styled(rounded(value.value, 1), AVERAGE_POINTS_FORMAT)

        return amount
    if column.kind == "date":
        return lambda value: styled(value, DATE_FORMAT) if isinstance(value, dt.date) else value
    if column.kind == "percent":
        return lambda value: None if value is None else styled(round(value, 4), PERCENT_FORMAT)
    return None


def workbook_bytes(reports: Sequence[Report], *, title: str | None) -> bytes:
    """The reports as the sheets of one workbook: a title row (club, period, date of printing;
    none for a form to fill in, whose first row must be its header), the header row frozen below
    it with an autofilter, sensible column widths. Every workbook the app writes is written here,
    so every user text passes ``safe_cell``."""
    wb = Workbook(write_only=True)
    bold = Font(bold=True)
    top = 1 if title is None else 2  # the header's row
    for report in reports:
        ws = wb.create_sheet(report.sheet[:31])
        columns = report.columns()
        for index, column in enumerate(columns, start=1):
            ws.column_dimensions[get_column_letter(index)].width = column.width
        ws.freeze_panes = f"A{top + 1}"
        if title is not None:
            heading = WriteOnlyCell(ws, value=safe_cell(title))
            heading.font = Font(bold=True, size=13)
            ws.append([heading])
        header = []
        for column in columns:
            cell = WriteOnlyCell(ws, value=safe_cell(column.title))
            cell.font = bold
            cell.alignment = Alignment(wrap_text=True, vertical="top")
            header.append(cell)
        ws.append(header)
        count = 0
        converters = [(index, convert) for index, column in enumerate(columns) if (convert := _converter(ws, column))]
        for row in report.rows():
            for index, convert in converters:
                if row[index] is not None:
                    row[index] = convert(row[index])
            ws.append([safe_cell(value) for value in row])  # names, notes: user text, never a formula
            count += 1
        ws.auto_filter.ref = f"A{top}:{get_column_letter(len(columns))}{count + top}"
    buffer = BytesIO()
    wb.save(buffer)
    return buffer.getvalue()


def standings_workbook(*, club: Club, period: Period, standings: Sequence[UnitStandings]) -> bytes:
    """Sheets Standings, Hands, Players (in German: Tabelle, Spiele, Spieler)."""
    reports: list[Report] = [
        *([SeegerReport(standings)] if any(block.kind == BlockKind.SEEGER for block in standings) else []),
        StandingsReport(standings, words_for(club.game)),
        HandsReport(club=club, period=period, standings=standings),
        PlayersReport(club=club, period=period),
    ]
    return workbook_bytes(reports, title=document_title(club, period))


def document_title(club: Club, period: Period) -> str:
    printed = date_format(timezone.localdate(), "SHORT_DATE_FORMAT")
    return _("%(club)s · %(period)s · Stand %(date)s") % {"club": club.name, "period": period.label, "date": printed}


# --- PDF -----------------------------------------------------------------------------------------


GERMAN_ASCII = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss"})


def download_name(*parts: object, extension: str) -> str:
    """A download's file name after its club, its tournament or period and its content, each part
    in ASCII (``ä`` → ``ae``) and joined by hyphens: ``demo-meisterschaft-2026-rangliste.pdf``
    (issue 29: every tournament printout was ``rangliste.pdf``, one overwriting the other)."""
    words = [slugify(str(part).translate(GERMAN_ASCII)) for part in parts]
    return "-".join(word for word in words if word) + f".{extension}"


def file_response(content: bytes | str, content_type: str, filename: str, *, inline: bool = False) -> HttpResponse:
    """A file for the browser: downloaded, or shown in it (``inline``: a printout to print or save).
    Never stored on the way (``no-store``): a club's figures, names and Wohnorte stay out of shared
    and browser caches, and a printout asked for again is made again, never an old one shown."""
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'{"inline" if inline else "attachment"}; filename="{filename}"'
    add_never_cache_headers(response)  # as config.nostore does for the pages: no-store among others
    return response


def pdf_response(template: str, context: dict[str, Any], filename: str) -> HttpResponse:
    """An A4 printout from ``template``, shown in the browser."""
    return file_response(pdf_bytes(template, context), PDF, filename, inline=True)


def pdf_bytes(template: str, context: dict[str, Any]) -> bytes:
    """Render ``template`` (a page of ``templates/standings/pdf/``) to PDF. Static files (the print
    stylesheet, fonts) are read from disk; no other protocol than file: and data: is allowed."""
    # Imported here: WeasyPrint loads its fonts and stylesheets on import, which only PDFs need.
    import weasyprint
    from django_weasyprint.utils import DjangoURLFetcher

    # A printout speaks the club's game as its pages do (clubs.words; no request, no context processor).
    words = words_for(getattr(context.get("club"), "game", None))
    context = {"printed": timezone.localtime(), "words": words, **context}
    html = render_to_string(template, context)
    fetcher = DjangoURLFetcher(allowed_protocols=("file", "data"))
    return weasyprint.HTML(string=html, base_url="file:///", url_fetcher=fetcher).write_pdf()


@dataclass(frozen=True)
class PrintedChart:
    """A running-totals chart for a PDF: the SVG without its legend, and the legend for HTML."""

    svg: str
    legend: list[charts.LegendEntry]


def _printed(chart: stats.RunningTotals, title: str) -> PrintedChart:
    svg = charts.running_totals_svg(chart, title=title, chart_id=f"running-{chart.unit}", with_legend=False)
    return PrintedChart(svg, charts.legend(chart))


def running_charts(*, club: Club, period: Period, member: Member | None = None) -> list[PrintedChart]:
    """The running-total charts of a period, one per unit."""
    return [
        _printed(chart, _("Verlauf %(unit)s · %(period)s") % {"unit": unit_label(chart.unit), "period": period.label})
        for chart in stats.period_running_totals(club=club, period=period, member=member)
    ]


def standings_pdf(*, club: Club, period: Period, standings: Sequence[UnitStandings]) -> bytes:
    """The standings of a period on A4: a table per unit, the running totals, the games."""
    games = stats.games_by_type(club=club, period=period)
    context = {
        "club": club,
        "period": period,
        "blocks": standings,
        "charts": running_charts(club=club, period=period),
        "games_chart": charts.games_svg(games, title=_("Spiele nach Art · %s") % period.label),
    }
    return pdf_bytes("standings/pdf/standings.html", context)


def member_pdf(*, member: Member, period: Period) -> bytes:
    """A member's statistics on A4, with their running total and their games as declarer."""
    club = member.club
    games = stats.games_by_type(club=club, period=period, member=member)
    context = {
        "club": club,
        "member": member,
        "period": period,
        "stats": stats.member_statistics(member=member, period=period),
        "charts": running_charts(club=club, period=period, member=member),
        "games_chart": charts.games_svg(games, title=_("Als Spieler · %s") % period.label),
    }
    return pdf_bytes("standings/pdf/member.html", context)


def evening_pdf(*, session: Session) -> bytes:
    """An evening's score sheet (A4 landscape): every table's log, the evening's standings and
    every player's running total."""
    period = Period.evening(session)
    running = [
        _printed(chart, _("Verlauf %(unit)s") % {"unit": unit_label(chart.unit)})
        for chart in stats.evening_running_totals(session=session)
    ]
    context = {
        "club": session.club,
        "session": session,
        "period": period,
        "sheets": ScoreSheet(session=session).tables(),
        "blocks": stats.standings(club=session.club, period=period),
        "charts": running,
    }
    return pdf_bytes("standings/pdf/score_sheet.html", context)
