"""``manage.py import_session FILE --club SLUG --date YYYY-MM-DD``: one past evening at one table
from spec §3's JSON or the spreadsheet template (CSV, Excel), checked row by row and stored only
when every row is valid (``imports.history``; docs/import.md).

``manage.py import_session FILE --club SLUG --table ID``: the same file appended to the sheet of
an existing table of the club (``ID``: the scoring table's id, as in its address and on the
upload page of a Partie table), after the hands it holds: a table that went on on paper.

Prints each row with its payouts (or its error), then the totals. On any error: the rows in error
on standard error, the spec's error object on standard output, exit 2, nothing stored."""

from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path
from typing import Any, NoReturn

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser

from clubs.ids import parse_id
from clubs.models import Club
from clubs.plaintext import text_problem
from imports.history import (
    MAX_BYTES,
    HistoryFileError,
    HistoryRefused,
    Preview,
    Row,
    history_import,
    preview,
    read_file,
    source_name,
    table_import,
    table_preview,
)
from scoring import selectors
from scoring.engine.core import EngineError
from scoring.jsoncommand import fail
from scoring.models import Session, Table


def refuse(code: str, message: str, field: str | None = None) -> NoReturn:
    fail(EngineError(code, message, field))


class Command(BaseCommand):
    help = "Trägt einen vergangenen Spielabend aus JSON (spec §3), CSV oder Excel nach; nur wenn jede Zeile gültig ist."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help=".json (score_session-Dokument), .csv oder .xlsx (Vorlage)")
        parser.add_argument("--club", required=True, help="Kürzel des Vereins")
        parser.add_argument("--date", help="neuer Abend: Datum, JJJJ-MM-TT")
        parser.add_argument("--players", help="CSV/Excel: Spieler in Sitzordnung, durch Kommas getrennt")
        parser.add_argument("--first-dealer", default="", help="CSV/Excel: wer zuerst gibt (sonst der erste Spieler)")
        parser.add_argument("--rules", help="CSV/Excel: Preset (sonst die Regeln des Vereins)")
        parser.add_argument("--place", default="", help="Ort")
        parser.add_argument("--table-name", default="Tisch 1", help="neuer Abend: Name des Tischs")
        parser.add_argument("--table", help="statt eines neuen Abends: Nummer (id) des Tischs, an den angehängt wird")
        parser.add_argument("--user", help="Zugang, der als Schreiber eingetragen wird")
        parser.add_argument("--dry-run", action="store_true", help="nur prüfen, nichts speichern")

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["club"]).first()
        if club is None:
            refuse("unknown_club", f"Einen Verein mit dem Kürzel „{options['club']}“ gibt es nicht.", "club")
        user = None
        if options["user"]:
            user = get_user_model().objects.filter(username=options["user"]).first()
            if user is None:
                refuse("unknown_user", f"Den Zugang „{options['user']}“ gibt es nicht.", "user")
        table = self.table(club, options) if options["table"] is not None else None
        if table is None:
            try:
                date = datetime.date.fromisoformat(options["date"] or "")
            except ValueError:
                refuse(
                    "invalid_value", "Datum als JJJJ-MM-TT angeben (oder --table für einen bestehenden Tisch).", "date"
                )
        place, table_name = options["place"].strip(), options["table_name"].strip()
        for field, value, longest in (
            ("place", place, Session._meta.get_field("place").max_length),
            ("table_name", table_name, Table._meta.get_field("name").max_length),
        ):
            problem = text_problem(value, multiline=False)
            if problem:
                refuse("invalid_value", problem, field)
            if len(value) > longest or (field == "table_name" and not value):
                refuse("invalid_value", f"Höchstens {longest} Zeichen (angegeben: {len(value)}).", field)
        path = Path(options["file"])
        try:
            if path.stat().st_size > MAX_BYTES:  # refused before it is read
                raise HistoryFileError("Die Datei ist größer als 2 MB; ein Spielabend ist viel kleiner.")
            doc, rows = read_file(path.name, path.read_bytes())
        except OSError as error:
            refuse("unreadable_input", f"{path}: {error.strerror}", "file")
        except HistoryFileError as error:
            refuse("invalid_file", str(error), "file")
        if table is not None:
            self.append(table, doc, rows, user=user, dry_run=options["dry_run"])
            return
        if doc is not None:
            ruleset, players, first = doc.get("ruleset"), doc.get("players"), doc.get("first_dealer", "")
            if not isinstance(players, list):
                refuse("invalid_type", "Erwartet die Liste der Spieler in Sitzordnung.", "players")
        else:
            if not options["players"]:
                refuse("missing_field", "CSV/Excel: --players in Sitzordnung angeben.", "players")
            ruleset = options["rules"] or selectors.club_rules_spec(club)
            players = [name.strip() for name in options["players"].split(",") if name.strip()]
            first = options["first_dealer"]
        kwargs = {"club": club, "ruleset": ruleset, "players": players, "first_dealer": first or "", "rows": rows}
        checked = preview(**kwargs)
        self.show(checked)
        if not checked.valid:
            self.refused(checked)
        if options["dry_run"]:
            self.stdout.write("Geprüft, alles gültig; nichts gespeichert (--dry-run).")
            return
        try:
            session = history_import(
                **kwargs, date=date, place=place, table_name=table_name, source=source_name(path.name), user=user
            )
        except HistoryRefused as refused:
            self.refused(refused.preview)
        self.stdout.write(f"Eingetragen: Spielabend {session.date:%d.%m.%Y}, {len(rows)} Einträge, abgeschlossen.")

    def table(self, club: Club, options: dict[str, Any]) -> Table:
        """The existing table ``--table`` names: one of ``club``'s; the new evening's options
        do not go with it."""
        given = str(options["table"]).strip()
        table_id = parse_id(given)
        if table_id is None:
            refuse(
                "invalid_value",
                f"--table nennt die Nummer (id) eines bestehenden Tischs, nicht „{given[:40]}“; "
                "den Namen des Tischs eines neuen Abends gibt --table-name.",
                "table",
            )
        table = Table.objects.select_related("session").filter(session__club=club, pk=table_id).first()
        if table is None:
            refuse("unknown_table", f"Der Verein „{club.slug}“ hat keinen Tisch mit der Nummer {given}.", "table")
        for option in ("date", "players", "rules", "first_dealer"):
            if options[option]:
                name = "--" + option.replace("_", "-")
                refuse(
                    "invalid_arguments", f"{name} gilt nur für einen neuen Abend; der Tisch hat seine eigenen.", option
                )
        return table

    def append(self, table: Table, doc: dict[str, Any] | None, rows: list[Row], *, user: Any, dry_run: bool) -> None:
        """The file's rows after the hands ``table`` holds (``imports.history.table_import``)."""
        players = None
        if doc is not None and "players" in doc:
            players = doc["players"]
            if not isinstance(players, list):
                refuse("invalid_type", "Erwartet die Liste der Spieler in Sitzordnung.", "players")
        checked = table_preview(table=table, rows=rows, players=players)
        self.show(checked)
        if not checked.valid:
            self.refused(checked)
        if dry_run:
            self.stdout.write("Geprüft, alles gültig; nichts gespeichert (--dry-run).")
            return
        try:
            entries = table_import(
                table=table, rows=rows, players=players, user=user, expected_number=checked.first_number
            )
        except HistoryRefused as refused:
            self.refused(refused.preview)
        numbers = f"Nr. {entries[0].number}–{entries[-1].number}" if entries else "keine"
        self.stdout.write(
            f"Angehängt an {table.name} ({table.session.date:%d.%m.%Y}): {len(entries)} Einträge, {numbers}."
        )

    def show(self, checked: Preview) -> None:
        if not checked.rows_checked:
            return  # the rules or the players are wrong: no row was checked
        for row in checked.rows:
            if row.error:
                self.stdout.write(f"{row.label}: FEHLER ({row.field or '-'}): {row.error}")
            else:
                amounts = ", ".join(f"{name} {amount:+d}" for name, amount in row.payouts.items())
                self.stdout.write(f"{row.label}: {json.dumps(row.data, ensure_ascii=False)} → {amounts}")
        if checked.valid:
            totals = ", ".join(f"{name} {amount:+d}" for name, amount in checked.totals.items())
            self.stdout.write(f"Summe ({checked.unit}): {totals}")
        if checked.new_players:
            self.stdout.write(f"Neue Spieler im Verein: {', '.join(checked.new_players)}")

    def refused(self, checked: Preview) -> NoReturn:
        for message in checked.errors:
            sys.stderr.write(f"Fehler: {message}\n")
        for row in checked.row_errors:
            sys.stderr.write(f"{row.label} ({row.field or '-'}): {row.error}\n")
        if checked.errors:
            refuse("invalid_input", checked.errors[0], None)
        first = checked.row_errors[0]
        count = len(checked.row_errors)
        message = f"{count} Zeile(n) ungültig, nichts gespeichert; zuerst {first.label}: {first.error}"
        refuse("invalid_rows", message, f"{first.label}.{first.field}" if first.field else first.label)
