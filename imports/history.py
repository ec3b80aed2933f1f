"""A club's old evenings from paper or a spreadsheet: read, check every row, then store through
the same services as typed hands (docs/import.md).

Two inputs make the same document, spec §3's ``score_session`` input
(``{"ruleset", "players", "first_dealer", "hands"}``):

- the JSON document itself (``.json``);
- the spreadsheet template (``.csv`` or ``.xlsx``): one row per hand or event, a header row naming
  the columns (``TEMPLATE_COLUMNS``, German or the spec's names); rules, players in seat order and
  the first dealer come from the upload form or the command's options.

``preview`` folds the rows with the engine as the score sheet would, row by row, and reports per
row its payouts or its error (a row in error is left out and the rows after it are checked
against the state without it, so one upload shows as many errors as it can). ``history_import``
stores the evening only when every row is valid: one transaction through
``scoring.services`` (``session_create``, ``table_start``, ``entries_append`` for the rows, so
fold, ledger and audit are exactly those of typed hands, then ``session_close``); a refused file
stores nothing.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubs import services as club_services
from clubs.models import Club, Member
from clubs.plaintext import bad_character, text_problem
from imports import sheets
from imports.sheets import MAX_CELL_CHARS, excerpt
from scoring import hooks, safejson, selectors, services
from scoring.engine import registry
from scoring.engine.core import EngineError, RuleSet
from scoring.engine.entry_facts import with_last_kontra
from scoring.engine.session import EntryError, TableState, advance, start
from scoring.engine.session_rules import TableRules
from scoring.models import Entry, Session, Table

MAX_ROWS = 2000  # an evening has a few hundred entries at most; a bigger file is a mistake
MAX_BYTES = 2_000_000  # the file as uploaded; what a spreadsheet may unpack: imports.sheets
SOURCE_CHARS = 100  # of the file's name, in the evening's note
MESSAGE_CHARS = 200  # of an error the engine found in a row (it may quote the row)

# Column header (lower case) → the spec's field; the spec's own names are accepted as well.
COLUMN_ALIASES = {
    "spiel": "game",
    "spieler": "declarer",
    "mitspieler": "partner",
    "ruf": "called",
    "gerufen": "called",
    "farbe": "suit",
    "augen": "augen",
    "stiche": "tricks",
    "ergebnis": "result",
    "laufende": "laufende",
    "kontra": "kontra",
    "stöße": "kontra",
    "letzter kontra": "last_kontra",
    "tout": "tout",
    "deckel": "deckel",
    "ereignis": "event",
    "von": "by",
    "wahl": "choice",
    "runde": "kind",
    "gekauft von": "bought_by",
    "gebot": "bid",
    "weitere angaben": "extra",
}
SPEC_FIELDS = {
    "game", "declarer", "partner", "called", "suit", "augen", "tricks", "result", "laufende", "kontra",
    "last_kontra", "tout", "deckel", "event", "by", "choice", "kind", "bought_by", "bid", "extra",
}  # fmt: skip
INTEGER_FIELDS = {"augen", "tricks", "laufende", "kontra", "deckel", "bid"}
BOOLEAN_FIELDS = {"tout"}
TRUE = {"1", "ja", "j", "x", "yes", "true", "wahr"}
FALSE = {"0", "nein", "n", "no", "false", "falsch"}
# Common spellings of a paper list → the spec's codes.
VALUE_ALIASES = {
    "game": {"sauspiel": "rufspiel", "ruf": "rufspiel", "farbsolo": "solo"},
    "result": {
        "gewonnen": "won",
        "gewonnen schneider": "won_schneider",
        "gewonnen schwarz": "won_schwarz",
        "verloren": "lost",
        "verloren schneider": "lost_schneider",
        "verloren schwarz": "lost_schwarz",
    },
    "called": {"grün": "gras", "laub": "gras", "blatt": "gras"},
    "suit": {"grün": "gras", "laub": "gras", "blatt": "gras"},
    "last_kontra": {"spieler": "declarer", "gegner": "opponents", "gegenspieler": "opponents"},
}
LOWERCASE_FIELDS = {"game", "result", "called", "suit", "last_kontra", "event", "choice", "kind"}
# The template's header and two example rows (an Allgäu evening of four).
TEMPLATE_COLUMNS = ["Spiel", "Spieler", "Mitspieler", "Ruf", "Farbe", "Augen", "Ergebnis", "Laufende", "Kontra",
                    "Letzter Kontra", "Deckel", "Tout", "Ereignis", "Von", "Weitere Angaben"]  # fmt: skip
TEMPLATE_EXAMPLES = [
    ["rufspiel", "Anna", "Bert", "eichel", "", "75", "", "3", "", "", "1", "", "", "", ""],
    ["solo", "Cilli", "", "", "herz", "", "verloren", "", "1", "gegner", "1", "", "", "", ""],
    ["", "", "", "", "", "", "", "", "", "", "", "", "zusammengeworfen", "", ""],
]


class HistoryFileError(Exception):
    """The file as a whole cannot be read (format, header, size); nothing was stored."""


@dataclass
class Row:
    """One hand or event of the file: where it came from, its facts, and what the check found."""

    label: str  # "Zeile 3" (spreadsheet) or "hands[2]" (JSON)
    data: dict[str, Any] | None
    error: str = ""
    field: str = ""
    payouts: dict[str, int] = dataclasses.field(default_factory=dict)
    lines: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    kind: str = ""  # once checked: "hand", or the event's name (a redeal is no game)


@dataclass
class Preview:
    ruleset: Any
    players: list[str]
    first_dealer: str
    rows: list[Row]
    new_players: list[str]
    errors: list[str]  # about the whole file (rules, players)
    unit: str = ""
    rows_checked: bool = False  # every row was folded (its payouts or its error are known)
    first_number: int = 1  # the number the first row gets on its table's sheet

    @property
    def valid(self) -> bool:
        return not self.errors and bool(self.rows) and all(not row.error for row in self.rows)

    @property
    def row_errors(self) -> list[Row]:
        return [row for row in self.rows if row.error]

    @property
    def hands(self) -> int:
        """The rows that are games (checked ones only; an event such as a redeal is none)."""
        return sum(1 for row in self.rows if row.kind == "hand")

    @property
    def shown(self) -> list[dict[str, Any]]:
        """The rows as the preview page shows them: each with its amount per player."""
        return [
            {"row": row, "described": isinstance(row.data, dict), "cells": [row.payouts.get(n) for n in self.players]}
            for row in self.rows
        ]

    @property
    def totals(self) -> dict[str, int]:
        totals = dict.fromkeys(self.players, 0)
        for row in self.rows:
            for name, amount in row.payouts.items():
                totals[name] = totals.get(name, 0) + amount
        return totals

    def document(self) -> dict[str, Any]:
        """The spec §3 document of the rows (``score_session``'s input)."""
        return {
            "ruleset": self.ruleset,
            "players": self.players,
            "first_dealer": self.first_dealer,
            "hands": [row.data for row in self.rows],
        }


# --- reading ------------------------------------------------------------------------------------


def read_file(name: str, content: bytes) -> tuple[dict[str, Any] | None, list[Row]]:
    """A JSON document (returned whole) or a spreadsheet's rows, by the file's ending. Every
    format is held to the same bounds (``MAX_BYTES``, ``MAX_ROWS``; a spreadsheet to those of
    ``imports.sheets`` as well): a file past one is refused here, saying which."""
    if len(content) > MAX_BYTES:
        raise HistoryFileError(_("Die Datei ist größer als 2 MB; ein Spielabend ist viel kleiner."))
    ending = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    if ending == "json":
        try:
            doc = safejson.loads(content)  # deep nesting, huge numbers, NUL: refused, not a crash
        except EngineError as error:
            where = f"{error.field}: " if error.field else ""
            raise HistoryFileError(
                _("Kein gültiges JSON: %(error)s") % {"error": excerpt(where + error.message, MESSAGE_CHARS)}
            ) from None
        if not isinstance(doc, dict) or not isinstance(doc.get("hands"), list):
            raise HistoryFileError(_("Erwartet ein score_session-Dokument mit „hands“ (Spezifikation §3)."))
        _check_row_count(len(doc["hands"]))
        return doc, [Row(f"hands[{i}]", hand) for i, hand in enumerate(doc["hands"])]
    try:
        if ending == "csv":
            return None, table_rows(sheets.csv_rows(content, max_rows=MAX_ROWS))
        if ending == "xlsx":
            return None, table_rows(sheets.xlsx_rows(content, max_rows=MAX_ROWS))
    except sheets.SheetError as error:
        raise HistoryFileError(str(error)) from None
    raise HistoryFileError(_("Erwartet eine .csv-, .xlsx- oder .json-Datei."))


def _row_count_problem(count: int) -> str | None:
    if count <= MAX_ROWS:
        return None
    return _("%(count)s Zeilen; erlaubt sind höchstens %(max)s, ein Spielabend hat weniger.") % {
        "count": sheets.thousands(count),
        "max": sheets.thousands(MAX_ROWS),
    }


def _check_row_count(count: int) -> None:
    if problem := _row_count_problem(count):
        raise HistoryFileError(problem)


def carry(checked: Preview, source: str) -> str:
    """The checked rows as the preview page carries them to the confirmation (only a valid
    preview is carried: a refused file is never echoed back whole)."""
    document = checked.document() | {"labels": [row.label for row in checked.rows], "source": source}
    return json.dumps(document | {"first_number": checked.first_number})


def carried_document(text: str) -> tuple[dict[str, Any], list[Row]]:
    """(the setup: ``ruleset``, ``players``, ``first_dealer``, ``source``, ``first_number``; the
    rows) of a document ``carry`` made, as the browser sent it back, read like any input (its
    rows are checked again). ``HistoryFileError`` where it is not what the preview made."""
    lost = HistoryFileError(_("Die Vorschau ist verloren gegangen; bitte die Datei noch einmal hochladen."))
    try:
        doc = safejson.loads(text)
    except EngineError:
        raise lost from None
    if not isinstance(doc, dict) or any(key not in doc for key in ("ruleset", "players", "first_dealer", "source")):
        raise lost
    labels, hands = doc.get("labels"), doc.get("hands")
    if not isinstance(labels, list) or not isinstance(hands, list) or len(labels) != len(hands):
        raise lost
    if not isinstance(doc["players"], list) or not all(isinstance(label, str) for label in labels):
        raise lost
    first_number = doc.get("first_number", 1)
    if not isinstance(first_number, int) or isinstance(first_number, bool):
        raise lost
    rows = [Row(excerpt(label, 20), hand) for label, hand in zip(labels, hands, strict=True)]
    setup = {key: doc[key] for key in ("ruleset", "players", "first_dealer")}
    return setup | {"source": source_name(doc["source"]), "first_number": first_number}, rows


def source_name(name: Any) -> str:
    """A file's name as the evening's note may hold it: plain text, at most ``SOURCE_CHARS``
    characters (the name of an upload is the browser's to choose)."""
    text = "".join("?" if bad_character(char) else char for char in str(name)[: SOURCE_CHARS + 1])
    return excerpt(text.strip(), SOURCE_CHARS)


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def table_rows(cells: Sequence[Sequence[Any]]) -> list[Row]:
    """The template's rows (header first) as hands; an empty row is skipped."""
    if not cells:
        raise HistoryFileError(_("Die Datei ist leer."))
    header = [_text(value).lower() for value in cells[0]]
    columns = [COLUMN_ALIASES.get(name, name) if name else "" for name in header]
    unknown = [cells[0][i] for i, name in enumerate(columns) if name and name not in SPEC_FIELDS]
    if unknown:
        named = ", ".join(excerpt(name) for name in unknown[:5]) + (", …" if len(unknown) > 5 else "")
        message = _("Unbekannte Spalten: %(columns)s. Die Vorlage nennt die erlaubten.")
        raise HistoryFileError(message % {"columns": named})
    if "game" not in columns and "event" not in columns:
        raise HistoryFileError(_("Die erste Zeile muss die Spaltennamen der Vorlage enthalten (mindestens „Spiel“)."))
    _check_row_count(len(cells) - 1)
    rows = []
    for number, line in enumerate(cells[1:], start=2):
        values = {name: _text(value) for name, value in zip(columns, line, strict=False) if name}
        if not any(values.values()):
            continue
        rows.append(_row(f"Zeile {number}", values))
    return rows


def _row(label: str, values: Mapping[str, str]) -> Row:
    data: dict[str, Any] = {}
    for name, value in values.items():
        if not value:
            continue
        if name in LOWERCASE_FIELDS:
            value = value.lower()
            value = VALUE_ALIASES.get(name, {}).get(value, value)
        if name in INTEGER_FIELDS:
            try:
                data[name] = int(value)
            except ValueError:
                return Row(label, None, _("„%(value)s“ ist keine ganze Zahl.") % {"value": excerpt(value)}, name)
        elif name in BOOLEAN_FIELDS:
            if value.lower() not in TRUE | FALSE:
                return Row(label, None, _("„%(value)s“: ja oder nein erwartet.") % {"value": excerpt(value)}, name)
            data[name] = value.lower() in TRUE
        elif name == "extra":
            try:
                extra = safejson.loads(value)
            except EngineError:
                extra = None
            if not isinstance(extra, dict):
                return Row(label, None, _("„Weitere Angaben“ muss ein JSON-Objekt sein."), name)
            data.update(extra)
        else:
            data[name] = value
    if "event" in data and "game" in data:
        return Row(label, None, _("Eine Zeile ist ein Spiel oder ein Ereignis, nicht beides."), "event")
    if "game" not in data and "event" not in data:
        return Row(label, None, _("Spiel oder Ereignis fehlt."), "game")
    return Row(label, data)


# --- checking -----------------------------------------------------------------------------------


def preview(*, club: Club, ruleset: Any, players: Sequence[str], first_dealer: str, rows: list[Row]) -> Preview:
    """Fold the rows as the score sheet would; each row gets its payouts or its error."""
    problem = _row_count_problem(len(rows)) or _names_problem(players, first_dealer)
    players = [str(name).strip() for name in players]
    first_dealer = str(first_dealer or (players[0] if players else "")).strip()
    result = Preview(ruleset, players, first_dealer, rows, [], [])
    if problem:
        result.errors.append(problem)
        return result
    try:
        rules, table_rules = registry.load_with_table(ruleset)
        state = start(rules, table_rules, players, first_dealer)
    except EngineError as error:
        result.errors.append(error.message)
        return result
    result.unit = rules.unit()
    result.new_players, spelling = _players_in_club(club, players)
    result.errors += spelling
    if not rows:
        result.errors.append(_("Die Datei enthält keine Spiele."))
    _check_rows(rules, table_rules, state, result)
    return result


def _check_rows(rules: RuleSet, table_rules: TableRules, state: TableState, result: Preview) -> None:
    """Fold ``result``'s rows from ``state``, each row getting its payouts or its error. Where
    the number of Stöße decides who gave the last, the row gets ``last_kontra`` as the tap form
    gives it (``entry_facts.with_last_kontra``)."""
    for row in result.rows:
        if row.error:
            continue
        try:
            safejson.check(row.data)  # the store's own check (scoring.services), here per row
            _check_text_lengths(row.data)
            if table_rules.family == "schafkopf" and isinstance(row.data, dict):
                row.data = with_last_kontra(row.data)
            entry, state = advance(rules, table_rules, state, row.data)
        except EngineError as error:
            row.error = excerpt(error.message, MESSAGE_CHARS)
            row.field = excerpt(error.field or "")
            if error.code == "too_long":
                row.data = None  # not carried back to the browser
        else:
            row.payouts = dict(entry.payouts)
            row.lines = [line.as_dict() for line in entry.lines]
            row.kind = entry.kind
    result.rows_checked = True


def _names_problem(players: Sequence[Any], first_dealer: Any) -> str | None:
    """Why a name cannot be a player of the club (German), or None: text in one line, at most
    as long as a member's name may be (``Member.display_name``), as the member form checks."""
    longest = Member._meta.get_field("display_name").max_length
    for name in [*players, first_dealer or ""]:
        if not isinstance(name, str):
            return _("Jeder Spieler braucht einen Namen aus Text.")
        problem = text_problem(name, multiline=False)
        if problem:
            return _("Spieler „%(name)s“: %(problem)s") % {"name": excerpt(name), "problem": problem}
        if len(name.strip()) > longest:
            return _("Spieler „%(name)s“: der Name ist länger als %(max)s Zeichen.") % {
                "name": excerpt(name),
                "max": longest,
            }
    return None


def _check_text_lengths(value: Any, path: str = "") -> None:
    """Every text of a row (keys too) is at most ``MAX_CELL_CHARS`` long, as a spreadsheet's cell."""
    texts: list[tuple[str, Any]] = []
    if isinstance(value, dict):
        texts = [(f"{path}.{key}" if path else str(key), key) for key in value]
        for key, item in value.items():
            _check_text_lengths(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check_text_lengths(item, f"{path}[{index}]")
    elif isinstance(value, str):
        texts = [(path, value)]
    for where, text in texts:
        if isinstance(text, str) and len(text) > MAX_CELL_CHARS:
            raise EngineError(
                "too_long", _("Ein Text ist länger als %(max)s Zeichen.") % {"max": MAX_CELL_CHARS}, where or None
            )


def _players_in_club(club: Club, players: Sequence[str]) -> tuple[list[str], list[str]]:
    """(names that are new to the club, errors for names the club spells differently)."""
    known = {name.casefold(): name for name in Member.objects.filter(club=club).values_list("display_name", flat=True)}
    new, errors = [], []
    for name in players:
        spelled = known.get(name.casefold())
        if spelled is None:
            new.append(name)
        elif spelled != name:
            errors.append(
                _("„%(name)s“ heißt im Verein „%(spelled)s“; bitte so schreiben.") % {"name": name, "spelled": spelled}
            )
    return new, errors


# --- storing ------------------------------------------------------------------------------------


class HistoryRefused(Exception):  # noqa: N818 - says what happened to the import
    def __init__(self, checked: Preview) -> None:
        super().__init__(_("Nicht eingespielt: die Datei hat Fehler."))
        self.preview = checked


def history_import(
    *,
    club: Club,
    ruleset: Any,
    players: Sequence[str],
    first_dealer: str,
    rows: list[Row],
    date: datetime.date,
    place: str = "",
    table_name: str = "Tisch 1",
    source: str = "",
    user: AbstractBaseUser | None,
) -> Session:
    """Store the evening if every row is valid (``HistoryRefused`` otherwise, nothing stored):
    new players, the evening, its table, the rows through ``entries_append``, then closed.

    The rows are checked before the transaction begins: on SQLite a writing transaction holds
    the database's one write lock from its start, and every other club's save waits for it, so
    it holds only the storing (2,000 rows: about two seconds, docs/import.md)."""
    checked = preview(club=club, ruleset=ruleset, players=players, first_dealer=first_dealer, rows=rows)
    if not checked.valid:
        raise HistoryRefused(checked)
    with transaction.atomic():
        return _store(club, checked, date=date, place=place, table_name=table_name, source=source, user=user)


def _store(
    club: Club,
    checked: Preview,
    *,
    date: datetime.date,
    place: str,
    table_name: str,
    source: str,
    user: AbstractBaseUser | None,
) -> Session:
    # The players again inside the transaction: a name the club gained since the check is not new.
    new_players, spelling = _players_in_club(club, checked.players)
    if spelling:
        checked.errors += spelling
        raise HistoryRefused(checked)
    for name in new_players:
        club_services.member_create(club=club, display_name=name)
    by_name = {m.display_name: m for m in Member.objects.filter(club=club, display_name__in=checked.players)}
    members = [by_name[name] for name in checked.players]
    session = services.session_create(club=club, date=date, place=place, user=user)
    note = _("Nachgetragen aus %(source)s.") % {"source": source} if source else _("Nachgetragen.")
    Session.objects.filter(pk=session.pk).update(note=note)
    try:
        table = services.table_start(
            session=session,
            members=members,
            first_dealer=by_name[checked.first_dealer],
            name=table_name,
            rules=checked.ruleset,
            user=user,
        )
        services.entries_append(table=table, log=[row.data or {} for row in checked.rows], user=user)
    except (EngineError, ValidationError) as error:  # the check above makes this unreachable; never half an evening
        raise HistoryRefused(checked) from error
    services.session_close(session=session, user=user)
    return session


# --- a table that went to paper -----------------------------------------------------------------

# The fields of a hand or an event that name players (spec §2, §3): a name that is not seated at
# the table is refused up front, naming who does sit there.
NAME_FIELDS = ("declarer", "partner", "by", "bought_by", "dealer")
NAME_LIST_FIELDS = ("kontra_by", "re")
NAME_KEY_FIELDS = (
    "augen_by_player", "tricks_by_player", "trumps_by_player", "top_trump_by_player", "low_trump_by_player",
)  # fmt: skip


def _names_in(data: Any) -> set[str]:
    """The players a row names (as far as the spec's fields go; the engine checks the rest)."""
    if not isinstance(data, dict):
        return set()
    names = {data[key] for key in NAME_FIELDS if isinstance(data.get(key), str)}
    for key in NAME_LIST_FIELDS:
        if isinstance(data.get(key), list):
            names.update(name for name in data[key] if isinstance(name, str))
    for key in NAME_KEY_FIELDS:
        if isinstance(data.get(key), dict):
            names.update(data[key])
    if isinstance(data.get("augen_order"), list):
        names.update(n for group in data["augen_order"] if isinstance(group, list) for n in group if isinstance(n, str))
    if isinstance(data.get("fehler"), dict) and isinstance(data["fehler"].get("by"), str):
        names.add(data["fehler"]["by"])
    return names


def _seating_problems(seated: Sequence[str], rows: Sequence[Row], players: Any) -> list[str]:
    """Why the sheet is not this table's (German): a JSON document's players, or names in the
    rows, that are not the players seated there. The message lists the seated names."""
    expected = ", ".join(seated)
    if players is not None and (not isinstance(players, list) or sorted(map(str, players)) != sorted(seated)):
        named = ", ".join(excerpt(name) for name in players[:8]) if isinstance(players, list) else "–"
        return [
            _("Das Dokument nennt die Spieler %(named)s; an diesem Tisch sitzen %(expected)s.")
            % {"named": named, "expected": expected}
        ]
    where: dict[str, list[str]] = {}
    for row in rows:
        for name in sorted(_names_in(row.data) - set(seated)):
            where.setdefault(name, []).append(row.label)
    if not where:
        return []
    unknown = "; ".join(
        f"„{excerpt(name)}“ ({', '.join(labels[:3])}{', …' if len(labels) > 3 else ''})"
        for name, labels in list(where.items())[:5]
    )
    return [
        _(
            "Diese Namen sitzen nicht an diesem Tisch: %(unknown)s. An diesem Tisch sitzen %(expected)s; "
            "bitte die Namen genau so schreiben."
        )
        % {"unknown": unknown, "expected": expected}
    ]


def table_preview(*, table: Table, rows: list[Row], players: Any = None) -> Preview:
    """Check ``rows`` as the rest of ``table``'s sheet (a table that went on on paper): folded
    from the state after the hands it already holds, under its own rules and seat order, each
    row with its payouts or its error. ``players``: the names a JSON document gives (CSV and
    Excel name none); they, and every name in the rows, must be the players seated at the
    table. The table must take the rows: open, not refused by a ``hooks.entry_append_checks``,
    and no more games than ``hooks.hands_left`` allows."""
    setup = selectors.table_setup(table)
    log = selectors.table_log(table)
    result = Preview(table.ruleset_spec, list(setup.players), setup.first_dealer, rows, [], [])
    result.unit = setup.ruleset.unit()
    result.first_number = len(log) + 1
    if problem := _row_count_problem(len(rows)):
        result.errors.append(problem)
        return result
    if table.session.is_closed:
        result.errors.append(_("Der Abend dieses Tisches ist abgeschlossen; erst wieder öffnen, dann hochladen."))
    refusals: list[str] = []
    for check in hooks.entry_append_checks:  # what would refuse the first entry (they only read)
        try:
            check(table)
        except ValidationError as error:
            refusals += error.messages
    result.errors += refusals
    result.errors += _seating_problems(setup.players, rows, players)
    if not rows:
        result.errors.append(_("Die Datei enthält keine Spiele."))
    _check_rows(setup.ruleset, setup.rules, selectors.fold_log(setup, log).state, result)
    left = hooks.hands_left(table)
    if left is not None and not refusals and result.hands > left:
        result.errors.append(
            _(
                "Die Datei hat %(hands)s Spiele, der Tisch nimmt nur noch %(left)s (%(played)s sind schon "
                "eingetragen). Stehen die schon eingetragenen Spiele auch in der Datei? Dann nur die "
                "fehlenden hochladen."
            )
            % {"hands": result.hands, "left": left, "played": _hands_played(table)}
        )
    return result


def _hands_played(table: Table) -> int:
    return Entry.objects.filter(table=table, kind="hand").count()


def table_import(
    *,
    table: Table,
    rows: list[Row],
    players: Sequence[Any] | None = None,
    user: AbstractBaseUser | None,
    expected_number: int | None = None,
) -> list[Entry]:
    """Append the rows to ``table``'s sheet if every row is valid (``HistoryRefused``
    otherwise, nothing stored): one ``entries_append``, so fold, ledger and audit ("eingetragen"
    by ``user``) are those of typed hands. ``expected_number``: the number the preview showed
    for the first row; if the table gained or lost an entry since, nothing is stored."""
    checked = table_preview(table=table, rows=rows, players=players)
    if expected_number is not None and expected_number != checked.first_number:
        checked.errors.append(_stale_message())
    if not checked.valid:
        raise HistoryRefused(checked)
    try:
        return services.entries_append(
            table=table, log=[row.data or {} for row in rows], user=user, expected_number=checked.first_number
        )
    except services.StaleEntry:
        checked.errors.append(_stale_message())
    except ValidationError as error:
        checked.errors += error.messages
    except EntryError as error:  # the check above makes this unreachable; a row at a time, never
        checked.errors.append(excerpt(error.message, MESSAGE_CHARS))
    raise HistoryRefused(checked)


def _stale_message() -> str:
    return _("Seit der Vorschau hat sich der Spielzettel dieses Tisches geändert; bitte noch einmal prüfen.")
