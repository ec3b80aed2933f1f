"""``manage.py create_club NAME --owner USER``: a new installation's first club and its owner,
without the admin site (docs/operations.md, "First club and its owner")."""

from __future__ import annotations

import getpass
import sys
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from clubs import services
from clubs.models import Club


class Command(BaseCommand):
    help = "Gründet einen Verein mit dem Zugang USER als Vorstand (legt den Zugang an, wenn es ihn nicht gibt)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name", help="Name des Vereins")
        parser.add_argument("--owner", required=True, help="Benutzername des Vorstands")
        parser.add_argument("--password", help="Passwort eines neuen Zugangs (sonst wird gefragt)")

    def handle(self, *args: Any, name: str, owner: str, password: str | None, **options: Any) -> None:
        name, owner = name.strip(), owner.strip()
        max_name = Club._meta.get_field("name").max_length
        if not name or len(name) > max_name:
            raise CommandError(f"Der Name des Vereins muss 1 bis {max_name} Zeichen lang sein.")
        if not owner:
            raise CommandError("--owner braucht einen Benutzernamen.")
        User = get_user_model()
        user = User.objects.filter(username=owner).first()
        with transaction.atomic():
            if user is None:
                password = password or self._ask_password()
                candidate = User(username=owner)
                try:
                    User._meta.get_field("username").run_validators(owner)
                    validate_password(password, candidate)
                except ValidationError as error:
                    raise CommandError(" ".join(error.messages)) from None
                user = User.objects.create_user(username=owner, password=password)
                self.stdout.write(f"Zugang „{owner}“ angelegt.")
            elif password:
                raise CommandError(f"Den Zugang „{owner}“ gibt es schon; --password gilt nur für einen neuen.")
            club = services.club_create(name=name, owner=user)
        self.stdout.write(
            self.style.SUCCESS(f"Verein „{club.name}“ gegründet (Kürzel {club.slug}), Vorstand: {owner}.")
        )
        self.stdout.write(f"Anmelden und loslegen: /clubs/{club.slug}/ – Spieler anlegen, dann den ersten Abend.")

    def _ask_password(self) -> str:
        if not sys.stdin.isatty():
            raise CommandError("Ein neuer Zugang braucht ein Passwort: --password angeben.")
        first = getpass.getpass("Passwort für den neuen Zugang: ")
        if first != getpass.getpass("Noch einmal: "):
            raise CommandError("Die Passwörter stimmen nicht überein.")
        return first
