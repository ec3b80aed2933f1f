"""``manage.py import_club FILE``: restores a club from ``export_club``'s JSON, into an empty
database or beside other clubs; refuses a slug already in use. The file is checked like typed
input and every table re-folded (``scoring.restore``); a refusal prints the spec's error object
and exits 2, and nothing is stored (docs/operations.md, Backups)."""

from __future__ import annotations

from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandParser

from clubs.backup import pending_migrations
from scoring import safejson
from scoring.engine.core import EngineError
from scoring.jsoncommand import fail
from scoring.restore import club_restore


class Command(BaseCommand):
    help = "Spielt die Sicherung eines Vereins (export_club) ein; ein schon vergebenes Kürzel wird abgelehnt."

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)

        def error(message: str) -> NoReturn:
            fail(EngineError("invalid_arguments", f"Ungültige Argumente: {message}", None))

        parser.error = error  # type: ignore[method-assign]
        return parser

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="die Sicherungsdatei (JSON)")
        parser.add_argument("--slug", help="unter diesem Kürzel einspielen statt unter dem gesicherten")
        parser.add_argument("--name", help="unter diesem Namen einspielen statt unter dem gesicherten")

    def handle(self, *args: Any, file: str, slug: str | None, name: str | None, **options: Any) -> None:
        if pending_migrations():
            fail(
                EngineError(
                    "not_migrated",
                    "Die Datenbank ist noch nicht eingerichtet: zuerst „.venv/bin/python manage.py migrate“, "
                    "dann noch einmal einspielen. Nichts eingespielt.",
                    None,
                )
            )
        try:
            with open(file, "rb") as handle:
                data = handle.read(safejson.MAX_JSON_BYTES + 1)
        except OSError as error:
            fail(EngineError("unreadable_input", f"{file}: {error.strerror}", "file"))
        try:
            restored = club_restore(data=data, slug=slug, name=name)
        except EngineError as error:
            fail(error)
        except Exception as error:  # noqa: BLE001 - the contract forbids tracebacks
            fail(
                EngineError("internal_error", f"Interner Fehler: {type(error).__name__}; nichts eingespielt.", None), 1
            )
        club = restored.club
        self.stdout.write(
            self.style.SUCCESS(f"Verein „{club.name}“ eingespielt (Kürzel {club.slug}, {restored.rows} Datensätze).")
        )
        if restored.new_logins:
            self.stdout.write(f"Zugänge angelegt (mit ihren Passwörtern): {', '.join(restored.new_logins)}")
        if restored.existing_logins:
            self.stdout.write(f"Zugänge schon vorhanden, unverändert übernommen: {', '.join(restored.existing_logins)}")
