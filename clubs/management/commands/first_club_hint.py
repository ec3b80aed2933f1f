"""``manage.py first_club_hint``: one line saying how to create the first club, printed only while
no club exists (``make serve`` prints it before the server starts; clubs/firstrun.py)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from clubs.firstrun import create_club_command, no_club_yet


class Command(BaseCommand):
    help = "Sagt, wie der erste Verein angelegt wird – nur solange es keinen gibt."

    def handle(self, *args: Any, **options: Any) -> None:
        if no_club_yet():
            self.stdout.write(f"No club yet? Create the first one and its owner: {create_club_command()}")
