"""``manage.py export_club SLUG --output FILE``: everything of one club as versioned JSON
(``clubs.backup``; docs/operations.md, Backups).

The file holds the logins' password hashes, so it (and the ``.partial`` it is written as) is
created 0600 whatever the umask, as ``deploy/backup.py`` writes the nightly backups."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubs.backup import export_club
from clubs.models import Club

PRIVATE = 0o600  # the server's user only: the file holds password hashes


class Command(BaseCommand):
    help = "Sichert einen Verein mit allem (Spieler, Zugänge, Regeln, Abende, Turniere …) als JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="Kürzel des Vereins")
        parser.add_argument("--output", "-o", required=True, help="Datei, in die gesichert wird ('-': Standardausgabe)")

    def handle(self, *args: Any, slug: str, output: str, **options: Any) -> None:
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            raise CommandError(f"Einen Verein mit dem Kürzel „{slug}“ gibt es nicht.")
        text = json.dumps(export_club(club), ensure_ascii=False, indent=1) + "\n"
        if output == "-":
            sys.stdout.write(text)
            return
        # Written beside the target and renamed: a failed run never leaves half a backup.
        partial = f"{output}.partial"
        try:
            # 0600 from the first byte (the umask can only narrow it); fchmod also narrows a
            # .partial left by an earlier run. The rename gives the target this very file's mode.
            descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE)
            with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                os.fchmod(handle.fileno(), PRIVATE)
                handle.write(text)
            os.replace(partial, output)
        except OSError as error:
            raise CommandError(f"{output}: {error.strerror}") from None
        self.stderr.write(f"Verein „{club.name}“ gesichert in {output}.")
