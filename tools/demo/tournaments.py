"""The demo club's championships for ``manage.py seed_demo``: last year's, finished, and this
year's, in its second Partie. Idempotent: a year that already has a championship is left alone.

Every hand is a random valid hand of the championship's rules (``scoring.engine.samples``, seeded
per table, so every run plays the same hands) entered through the score-sheet service, exactly as
a Schreiber would enter it.
"""

from __future__ import annotations

import datetime
import random

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from clubs.models import Club, Member
from scoring import selectors as scoring_selectors
from scoring import services as scoring_services
from scoring.engine.presets.schafkopf import SchafkopfRules
from scoring.engine.samples import schafkopf_hand
from scoring.engine.session import advance
from tournaments import services
from tournaments.models import Partie, Tournament

PLACE = "Zockausflug Oberstdorf"


def _play(partie: Partie, hands: int, user: AbstractBaseUser | None) -> None:
    for row in partie.tables.select_related("table").order_by("number"):
        table = row.table
        setup = scoring_selectors.table_setup(table)
        assert isinstance(setup.ruleset, SchafkopfRules)
        rng = random.Random(f"{partie.tournament.year}:{partie.index}:{row.number}")
        state = scoring_selectors.table_state(table, setup).state
        log = []
        for _ in range(hands * len(setup.players) // 4 - state.entries):
            hand = schafkopf_hand(setup.ruleset, rng, state.seats, state.round)
            log.append(hand)
            state = advance(setup.ruleset, setup.rules, state, hand)[1]
        # In bulk, as an imported sheet is stored: the same rows as one by one, in a fraction of the time.
        scoring_services.entries_append(table=table, log=log, user=user)


def _championship(
    club: Club, year: int, members: list[Member], user: AbstractBaseUser | None, partien_played: int, last_hands: int
) -> Tournament:
    tournament = services.tournament_create(club=club, year=year, place=PLACE, user=user)
    tournament = services.participants_set(tournament=tournament, members=members, user=user)
    tournament = services.draw_run(tournament=tournament, seed=year, user=user)
    first_day = datetime.date(year, 9, 18)
    for index in range(1, partien_played + 1):
        day = first_day + datetime.timedelta(days=(index - 1) // 2)
        partie = services.partie_start(tournament=tournament, index=index, seed=year * 10 + index, date=day, user=user)
        _play(partie, tournament.games_per_partie if index < partien_played else last_hands, user)
    return tournament


@transaction.atomic
def seed_demo_tournaments(club: Club, *, user: AbstractBaseUser | None, today: datetime.date | None = None) -> bool:
    """Last year's finished championship and this year's in progress; False when both exist."""
    this_year = (today or datetime.date.today()).year
    members = list(Member.objects.filter(club=club, is_active=True).order_by("display_name"))
    created = False
    if not Tournament.objects.filter(club=club, year=this_year - 1).exists():
        last = _championship(club, this_year - 1, members, user, partien_played=4, last_hands=40)
        services.tournament_finish(tournament=last, user=user)
        created = True
    if not Tournament.objects.filter(club=club, year=this_year).exists():
        _championship(club, this_year, members, user, partien_played=2, last_hands=17)
        created = True
    return created
