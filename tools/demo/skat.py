"""The lists of the demo's Skat club (``manage.py seed_demo``; the club: ``tools.demo.clubs``;
issue 32 §3): two closed evenings of one list each give it standings, a list of three and a
list of four, in money at a cent per point (skat.md §5). Entered through the services from a
fixed seed; idempotent like the other demo data."""

from __future__ import annotations

import datetime
import random

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from clubs.models import Club, Member
from scoring import selectors, services
from scoring.engine.presets.skat import SkatRules
from scoring.engine.presets.skat_samples import skat_hand
from scoring.models import ClubRules, Session
from tools.demo.clubs import SKAT_PLAYERS

SKAT_RULES = {"preset": "skat", "options": {"cents_per_point": 1}}
NOTE = "Demo-Liste"
HANDS = 12
LISTS = [(datetime.date(2026, 10, 9), SKAT_PLAYERS[:3]), (datetime.date(2026, 10, 23), SKAT_PLAYERS)]


@transaction.atomic
def seed_demo_skat_lists(club: Club, user: AbstractBaseUser | None = None) -> int:
    """Play the demo lists unless the club has them; returns how many were played."""
    ClubRules.objects.get_or_create(club=club, defaults=SKAT_RULES)
    if Session.objects.filter(club=club, note=NOTE).exists():
        return 0
    for index, (date, names) in enumerate(LISTS):
        session = services.session_create(club=club, date=date, place="Vereinsheim", user=user)
        Session.objects.filter(pk=session.pk).update(note=NOTE)
        members = [Member.objects.get(club=club, display_name=name) for name in names]
        table = services.table_start(session=session, members=members, rules=SKAT_RULES, user=user)
        rng = random.Random(32 + index)
        setup = selectors.table_setup(table)
        assert isinstance(setup.ruleset, SkatRules)
        for _ in range(HANDS):
            seats = selectors.table_state(table).state.seats  # the three who play the next game
            services.entry_append(table=table, data=skat_hand(setup.ruleset, rng, seats), user=user)
        services.session_close(session=session, user=user)
    return len(LISTS)
