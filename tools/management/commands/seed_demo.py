from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from tools.demo.clubs import DEMO_PASSWORD, seed_demo_clubs
from tools.demo.evenings import seed_demo_evenings
from tools.demo.opentournament import seed_demo_open_tournament
from tools.demo.skat import seed_demo_skat_lists
from tools.demo.tournaments import seed_demo_tournaments


class Command(BaseCommand):
    help = "Creates (or refreshes) the demo clubs and their logins. Safe to run repeatedly."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--force",
            action="store_true",
            help="Run even with DJANGO_DEBUG off (the demo logins have the password 'demo').",
        )

    def handle(self, *args: object, force: bool, **options: object) -> None:
        if not settings.DEBUG and not force:
            raise CommandError(
                "Refusing to create demo logins with password 'demo' while DJANGO_DEBUG is off. "
                "Use --force if this really is a demo server."
            )
        seeded = seed_demo_clubs()
        self.stdout.write(self.style.SUCCESS(f"Demo club '{seeded.demo.slug}' ready: {seeded.demo.name}"))
        scorer = get_user_model().objects.filter(username="demo-scorer").first()
        if seed_demo_evenings(seeded.demo, user=scorer):
            self.stdout.write("Demo evenings played: three, about 40 hands each (allgaeu).")
        owner = get_user_model().objects.filter(username="demo-owner").first()
        if seed_demo_tournaments(seeded.demo, user=owner):
            self.stdout.write("Demo championships: last year's finished, this year's in its second Partie.")
        if seed_demo_open_tournament(seeded.demo, user=owner):
            self.stdout.write("Demo Preisschafkopf: twelve players, the first of three rounds played.")
        if seed_demo_skat_lists(seeded.skat):
            self.stdout.write(f"Demo Skat club '{seeded.skat.slug}': two lists (skat, a cent per point).")
        self.stdout.write(f"Demo logins (password '{DEMO_PASSWORD}'):")
        for username, role, slug in seeded.logins:
            self.stdout.write(f"  {username:<12} {role:<7} in club {slug!r}")
