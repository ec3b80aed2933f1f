"""``manage.py create_club NAME --owner USER``: a new installation's first club and its owner,
without the admin site (docs/operations.md, "First club and its owner").

The password of a new owner login is asked on the terminal, or, for an unattended install, read
from the first line of standard input with ``--password-stdin``
(``printf '%s\\n' "$PASSWORD" | … create_club … --password-stdin``). It is never an argument:
the command line of a running process is readable by every user of the machine (``ps``) and lands
in the shell's history."""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from clubs import services
from clubs.backup import pending_migrations
from clubs.logins import find_login, username_problem
from clubs.models import Club
from clubs.plaintext import text_problem


class Command(BaseCommand):
    help = "Gründet einen Verein mit dem Zugang USER als Vorstand (legt den Zugang an, wenn es ihn nicht gibt)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name", help="Name des Vereins")
        parser.add_argument("--owner", required=True, help="Benutzername des Vorstands")
        parser.add_argument(
            "--password-stdin",
            action="store_true",
            help="das Passwort eines neuen Zugangs aus der ersten Zeile der Standardeingabe lesen (sonst wird gefragt)",
        )
        # Named only to be refused with the reason (and not taken as an abbreviation of the above).
        parser.add_argument("--password", help=argparse.SUPPRESS)

    def handle(
        self, *args: Any, name: str, owner: str, password_stdin: bool, password: str | None = None, **options: Any
    ) -> None:
        if password is not None:
            raise CommandError(
                "Ein Passwort wird nicht als Argument angenommen (jeder auf dem Rechner sieht es mit ps, und es "
                "steht in der Shell-History): --password-stdin und das Passwort als erste Zeile der Standardeingabe."
            )
        if pending_migrations():
            raise CommandError(
                "Die Datenbank ist noch nicht eingerichtet: zuerst „.venv/bin/python manage.py migrate“."
            )
        name, owner = name.strip(), owner.strip()
        max_name = Club._meta.get_field("name").max_length
        if not name or len(name) > max_name:
            raise CommandError(f"Der Name des Vereins muss 1 bis {max_name} Zeichen lang sein.")
        if not owner:
            raise CommandError("--owner braucht einen Benutzernamen.")
        problem = text_problem(owner, multiline=False)  # before any query: PostgreSQL cannot even look NUL up
        if problem:
            raise CommandError(f"--owner: {problem}")
        User = get_user_model()
        user = find_login(owner)  # Sepp, sepp and ｓepp are one login (clubs/logins.py)
        with transaction.atomic():
            if user is None:
                problem = username_problem(owner)
                if problem:
                    raise CommandError(problem)
                password = self._read_password() if password_stdin else self._ask_password()
                try:
                    validate_password(password, User(username=owner))
                except ValidationError as error:
                    raise CommandError(" ".join(error.messages)) from None
                user = User.objects.create_user(username=owner, password=password)
                self.stdout.write(f"Zugang „{user.get_username()}“ angelegt.")
            elif password_stdin:
                raise CommandError(
                    f"Den Zugang „{user.get_username()}“ gibt es schon; --password-stdin gilt nur für einen neuen."
                )
            try:
                club = services.club_create(name=name, owner=user)
            except ValidationError as error:
                raise CommandError(" ".join(error.messages)) from None
        self.stdout.write(
            self.style.SUCCESS(f"Verein „{club.name}“ gegründet (Kürzel {club.slug}), Vorstand: {user.get_username()}.")
        )
        self.stdout.write(f"Anmelden und loslegen: /clubs/{club.slug}/ – Spieler anlegen, dann den ersten Abend.")

    def _read_password(self) -> str:
        line = sys.stdin.readline()
        password = line.rstrip("\r\n")
        if not password:
            raise CommandError("--password-stdin: die erste Zeile der Standardeingabe ist leer.")
        return password

    def _ask_password(self) -> str:
        if not sys.stdin.isatty():
            raise CommandError(
                "Ein neuer Zugang braucht ein Passwort: im Terminal aufrufen, oder --password-stdin und das "
                "Passwort als erste Zeile der Standardeingabe."
            )
        first = getpass.getpass("Passwort für den neuen Zugang: ")
        if first != getpass.getpass("Noch einmal: "):
            raise CommandError("Die Passwörter stimmen nicht überein.")
        return first
