"""Played evenings for the demo club (``manage.py seed_demo``): three evenings of about forty
hands under the Allgäu rules, with a Bockrunde, a Mungorunde and a table of five. Entered through
the services like a Schreiber would, from a fixed seed, so every run gives the same evenings.
Idempotent: a club that has its demo evenings gets nothing new."""

from __future__ import annotations

import datetime
import random
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from clubs.models import Club, Member
from scoring import selectors, services
from scoring.engine.presets.schafkopf import SchafkopfRules
from scoring.engine.samples import schafkopf_hand
from scoring.engine.session import TableState, advance
from scoring.models import ClubRules, Session, Table

DEMO_NOTE = "Demo-Abend"
HANDS = 40
# date, place, players in seat order; the last evening stays open for trying the entry form.
EVENINGS = [
    (datetime.date(2026, 10, 2), "Gasthof Krone", ["Sepp Huber", "Zenzi Mayr", "Girgl Lechner", "Vroni Brandl"]),
    (
        datetime.date(2026, 10, 16),
        "Gasthof Krone",
        ["Hias Gruber", "Kati Stadler", "Wastl Reiter", "Resi Kainz", "Sepp Huber"],
    ),
    (datetime.date(2026, 10, 30), "Schützenheim", ["Zenzi Mayr", "Vroni Brandl", "Resi Kainz", "Girgl Lechner"]),
]


@transaction.atomic
def seed_demo_evenings(club: Club, user: AbstractBaseUser | None = None) -> int:
    """Create the demo evenings unless the club has them; returns how many were created."""
    if Session.objects.filter(club=club, note=DEMO_NOTE).exists():
        return 0
    ClubRules.objects.get_or_create(club=club, defaults={"preset": "allgaeu", "winnings_to_kasse": True})
    for index, (date, place, names) in enumerate(EVENINGS):
        session = services.session_create(club=club, date=date, place=place, user=user)
        Session.objects.filter(pk=session.pk).update(note=DEMO_NOTE)
        members = [Member.objects.get(club=club, display_name=name) for name in names]
        table = services.table_start(session=session, members=members, rules="allgaeu", user=user)
        _play(table, random.Random(index + 1), user)
        if index < len(EVENINGS) - 1:
            services.session_close(session=session, user=user, book_to_kasse=True)
    return len(EVENINGS)


def _play(table: Table, rng: random.Random, user: AbstractBaseUser | None) -> None:
    """About forty entries: the engine's realistic mix, a 60:60 early on (a Bockrunde) and a
    Schwarz a little later (the evening's Mungorunde); votes where the table must vote."""
    setup = selectors.table_setup(table)
    rules = setup.ruleset
    assert isinstance(rules, SchafkopfRules)
    state = selectors.table_state(table, setup).state
    bock_done = mungo_done = False
    log: list[dict[str, Any]] = []
    for number in range(1, HANDS + 1):
        data: dict[str, Any]
        if state.vote_pending:
            data = {"event": "vote", "choice": "bockrunde"}
        elif not bock_done and number >= 3 and "rufspiel" in (state.games or ()):
            data = _rufspiel(state, augen=60)
            bock_done = True
        elif not mungo_done and number >= 12 and state.round == "normal":
            data = {"game": "solo", "suit": "eichel", "declarer": state.seats[1], "augen": 120, "tricks": 8}
            data["deckel"] = 1
            mungo_done = True
        else:
            data = as_entered(schafkopf_hand(rules, rng, state.seats, state.round))
        log.append(data)
        state = advance(rules, setup.rules, state, data)[1]
    # In bulk, as an imported sheet is stored: the same rows as one by one, in a fraction of the time.
    services.entries_append(table=table, log=log, user=user)


def as_entered(hand: dict[str, Any]) -> dict[str, Any]:
    """A sampled hand as the phone form records it: Bettel and Tout as won or lost, Stiche only
    for a Schwarz, no Stiche per player in a Mungo (the sampler fills in more than a Schreiber)."""
    hand = dict(hand)
    hand.pop("tricks_by_player", None)
    tricks = hand.pop("tricks", None)
    if hand["game"] == "bettel" or hand.get("tout"):
        hand.pop("augen", None)
        won = tricks == 0 if hand["game"] == "bettel" else tricks == 8
        hand["result"] = "won" if won else "lost"
    elif tricks in (0, 8) and hand.get("augen") in (0, 120):
        hand["tricks"] = tricks
    return hand


def _rufspiel(state: TableState, augen: int) -> dict[str, Any]:
    hand: dict[str, Any] = {
        "game": "rufspiel",
        "declarer": state.seats[0],
        "partner": state.seats[2],
        "called": "gras",
        "augen": augen,
    }
    if state.deckel_required:
        hand["deckel"] = 1
    return hand
