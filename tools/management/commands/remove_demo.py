"""``manage.py remove_demo``: the demo clubs of ``seed_demo`` and their logins (password ``demo``)
out of this database; ``--check`` only says whether any demo login would still let someone in.

``make run`` keeps the demo in a database of its own (``demo.sqlite3``), so a club's database
never holds it; a database that got it before that (or by ``seed_demo --force``) is refused by
``make serve`` until this command has run (issue 29: a club must not go live with a known
password)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.db.models import ProtectedError

from clubs.models import Club
from opentournaments.models import OpenTournament, TableScore
from scoring.models import Session
from tools.demo.clubs import DEMO_CLUB, DEMO_LOGINS, DEMO_PASSWORD, OTHER_CLUB, OTHER_LOGINS, SKAT_CLUB, SKAT_LOGINS
from tournaments.models import Tournament

DEMO_USERNAMES = [username for username, _role, _player in (*DEMO_LOGINS, *OTHER_LOGINS, *SKAT_LOGINS)]
DEMO_SLUGS = [DEMO_CLUB[0], OTHER_CLUB[0], SKAT_CLUB[0]]


def demo_logins() -> list[str]:
    """The demo logins on this database that still open with the demo password."""
    users = get_user_model().objects.filter(username__in=DEMO_USERNAMES, is_active=True)
    return sorted(user.get_username() for user in users if user.check_password(DEMO_PASSWORD))


class Command(BaseCommand):
    help = "Removes the demo clubs and their logins (password 'demo'); --check only reports them."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true", help="exit 1 if a demo login with its password exists")

    def handle(self, *args: Any, check: bool, **options: Any) -> None:
        logins = demo_logins()
        if check:
            if logins:
                raise CommandError(
                    f"This database holds the demo logins {', '.join(logins)} with the password "
                    f"'{DEMO_PASSWORD}'. Remove the demo clubs and their logins with: "
                    ".venv/bin/python manage.py remove_demo"
                )
            if options["verbosity"]:
                self.stdout.write("No demo login on this database.")
            return
        with transaction.atomic():
            # Children first: the ledger protects a club's players while its rows exist.
            clubs = Club.objects.filter(slug__in=DEMO_SLUGS)
            # A table's figures protect its registrations: they go first.
            TableScore.objects.filter(table__round__tournament__club__in=clubs).delete()
            OpenTournament.objects.filter(club__in=clubs).delete()
            Tournament.objects.filter(club__in=clubs).delete()
            Session.objects.filter(club__in=clubs).delete()
            names = sorted(clubs.values_list("name", flat=True))
            clubs.delete()
            # A demo login that another club has since taken in (or whose name is in its history)
            # stays, without a password that opens it.
            for user in get_user_model().objects.filter(username__in=DEMO_USERNAMES):
                if not user.club_memberships.exists():
                    try:
                        with transaction.atomic():
                            user.delete()
                        continue
                    except ProtectedError:
                        pass
                user.set_unusable_password()
                user.save(update_fields=["password"])
        self.stdout.write(f"Removed the demo clubs ({', '.join(names) or 'none'}) and the demo logins.")
