"""``manage.py import_club FILE``: restores a club from ``export_club``'s JSON, into an empty
database or beside other clubs; refuses a slug already in use (``clubs.backup``)."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubs.backup import BackupError, import_club


class Command(BaseCommand):
    help = "Spielt die Sicherung eines Vereins (export_club) ein; ein schon vergebenes Kürzel wird abgelehnt."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="die Sicherungsdatei (JSON)")
        parser.add_argument("--slug", help="unter diesem Kürzel einspielen statt unter dem gesicherten")
        parser.add_argument("--name", help="unter diesem Namen einspielen statt unter dem gesicherten")

    def handle(self, *args: Any, file: str, slug: str | None, name: str | None, **options: Any) -> None:
        try:
            with open(file, encoding="utf-8") as handle:
                doc = json.load(handle)
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror}") from None
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise CommandError(f"{file}: kein gültiges JSON ({error}).") from None
        try:
            restored = import_club(doc, slug=slug, name=name)
        except BackupError as error:
            raise CommandError(str(error)) from None
        club = restored.club
        self.stdout.write(
            self.style.SUCCESS(f"Verein „{club.name}“ eingespielt (Kürzel {club.slug}, {restored.rows} Datensätze).")
        )
        if restored.new_logins:
            self.stdout.write(f"Zugänge angelegt (mit ihren Passwörtern): {', '.join(restored.new_logins)}")
        if restored.existing_logins:
            self.stdout.write(
                f"Zugänge schon vorhanden, unverändert übernommen: {', '.join(restored.existing_logins)}"
            )
