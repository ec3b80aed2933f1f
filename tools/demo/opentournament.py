"""The demo club's Preisschafkopf for ``manage.py seed_demo``: twelve players at the door (four of
them the club's), the first round played and entered from its Wertungszettel, the second drawn.
Idempotent: a club that already has an open tournament is left alone. The points of a table are
drawn from a seeded generator so every run writes the same figures, and sum to zero as the
tariff's do."""

from __future__ import annotations

import datetime
import random

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from clubs.models import Club, Member
from opentournaments import services
from opentournaments.models import OpenTournament

GUESTS = [
    ("Franz Obermaier", "Kempten"),
    ("Loisl Haslach", "Sonthofen"),
    ("Traudl Wimmer", "Immenstadt"),
    ("Kathi Berghofer", "Füssen"),
    ("Done Ettl", "Kaufbeuren"),
    ("Hansi Zeller", "Oberstdorf"),
    ("Rosl Angerer", "Kempten"),
    ("Beni Moosbrugger", "Lindau"),
]


def _figures(seats: list[int], games: int, rng: random.Random) -> tuple[dict[int, int], dict[int, int]]:
    points = {n: rng.randint(-12, 12) * 5 for n in seats[:-1]}
    points[seats[-1]] = -sum(points.values())
    soli = {n: rng.randint(0, 3) for n in seats}
    return points, soli


@transaction.atomic
def seed_demo_open_tournament(club: Club, *, user: AbstractBaseUser | None, today: datetime.date | None = None) -> bool:
    """A Preisschafkopf of three rounds, the first played, the second drawn; False when the club has one."""
    if OpenTournament.objects.filter(club=club).exists():
        return False
    day = today or datetime.date.today()
    tournament = services.open_tournament_create(
        club=club,
        name="Preisschafkopf am Kirchweihsonntag",
        starts_on=day,
        rounds=3,
        games_per_round=32,
        entry_fee_cents=1500,
        prize_shares=[50, 30, 20],
        prize_items=["Geräucherter Schinken", "Brotzeitbrett"],
        user=user,
    )
    members = list(Member.objects.filter(club=club, is_active=True).order_by("display_name")[:4])
    for member in members:
        services.registration_create(
            tournament=tournament, name=member.display_name, member=member, paid=True, user=user
        )
    for index, (name, residence) in enumerate(GUESTS):
        services.registration_create(
            tournament=tournament, name=name, residence=residence, paid=index % 3 != 2, user=user
        )
    rng = random.Random(2026)
    first = services.round_draw(tournament=tournament, seed=1153521202, user=user)
    for table in first.tables.order_by("number"):
        points, soli = _figures(list(table.seats), tournament.games_per_round, rng)
        services.table_figures_enter(table=table, points=points, soli=soli, user=user)
    services.round_draw(tournament=tournament, seed=2026, user=user)
    return True
