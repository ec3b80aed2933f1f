"""Property (hypothesis): every evening is zero-sum and equals the sum of its hands.

Random evenings are entered through the services as a Schreiber would — hands of the engine's
realistic mix for the round in force, table events, votes, wrong deals, some refused hands,
hostile values (``tests.hostile``: lone surrogates, NUL, huge numbers, deep nesting) in a field or
a key, corrections and deletions that replay the log — at one or two tables. Then:

- every entry's ledger rows plus what it moved into or out of the Stock sum to zero, and the
  evening's balances (players and the Stock) sum to zero;
- each player's ledger total equals the sum of their payouts when the stored log is folded
  afresh (``score_session`` on the same log), entry by entry;
- the settlement's transfers pay every balance exactly.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

import pytest
from django.db.models import Sum
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs.models import Club, Member
from scoring import selectors, services
from scoring.engine.core import EngineError
from scoring.engine.presets.schafkopf import SchafkopfRules
from scoring.engine.samples import random_hand, schafkopf_hand
from scoring.engine.session import score_session_document, start
from scoring.models import Entry, LedgerEntry, Session, Table
from tests.factories import ClubFactory, MemberFactory
from tests.hostile import hostile_values

pytestmark = pytest.mark.django_db

RULES: list[Any] = [
    "allgaeu",
    {"preset": "allgaeu", "options": {"bock_overlap": "stack", "bock_triggers": ["6060", "3090", "schwarz"]}},
    {"preset": "standard", "options": {"stock": "anhang_c", "bock_triggers": ["6060", "kontra_lost"]}},
    "reiner-schafkopf",
]


def _nested(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


deep_values = st.sampled_from([65, 1_000, 100_000]).map(_nested)


def next_entry(table: Table, rng: random.Random) -> dict[str, Any]:
    setup = selectors.table_setup(table)
    state = selectors.table_state(table, setup).state
    if state.vote_pending:
        return {"event": "vote", "choice": rng.choice(("mungorunde", "bockrunde"))}
    roll = rng.random()
    if roll < 0.05:
        return {"event": rng.choice(("vergeben", "verabhebt", "zusammengeworfen"))}
    if not isinstance(setup.ruleset, SchafkopfRules):
        return random_hand(setup.ruleset, rng, state.seats)
    if roll < 0.08:
        # A deal out of turn (001 §8.4): seated from that dealer, a Bockspiel where the rules say so.
        dealer = rng.choice([p for p in setup.players if p != state.dealer])
        seats = start(setup.ruleset, setup.rules, setup.players, dealer).seats
        bockspiel = setup.rules.wrong_dealer == "bockspiel"
        hand = schafkopf_hand(setup.ruleset, rng, seats, "bockspiel" if bockspiel else state.round)
        return {**hand, "dealer": dealer}
    return schafkopf_hand(setup.ruleset, rng, state.seats, state.round)


def ledger_snapshot(table: Table) -> list[tuple[int, int, int]]:
    return sorted(LedgerEntry.objects.filter(table=table).values_list("entry__number", "member_id", "amount"))


def play(table: Table, rng: random.Random, length: int, hostile: list[Any]) -> None:
    for _ in range(length):
        data = next_entry(table, rng)
        if hostile and rng.random() < 0.15:
            # Issue 17: a hostile value (a lone surrogate, NUL, a huge number, deep nesting) in
            # a field or an extra key: refused, the sheet unchanged (or stored as it came).
            data = {**data, rng.choice(("note", "declarer", "augen", "x\x00", "\ud800")): hostile.pop()}
        before = ledger_snapshot(table)
        try:
            services.entry_append(table=table, data=data, user=None)
        except EngineError:
            # A refused hand leaves the sheet exactly as it was.
            assert ledger_snapshot(table) == before
        count = Entry.objects.filter(table=table).count()
        if count > 2 and rng.random() < 0.12:
            _change_one(table, rng, count)


def _change_one(table: Table, rng: random.Random, count: int) -> None:
    """Correct or delete an earlier entry; a refusal (a later entry would become invalid)
    changes nothing."""
    entry = Entry.objects.get(table=table, number=rng.randint(1, count - 1))
    before = ledger_snapshot(table)
    try:
        if rng.random() < 0.5 or entry.kind != "hand":
            services.entry_delete(entry=entry, user=None, reason="property")
        else:
            data = dict(entry.data)
            if "augen" in data and "tricks" not in data:
                data["augen"] = rng.randint(0, 120)
            services.entry_correct(entry=entry, data=data, user=None, reason="property")
    except EngineError:
        assert ledger_snapshot(table) == before


def check_table(table: Table) -> None:
    setup = selectors.table_setup(table)
    log = selectors.table_log(table)
    doc = {
        "ruleset": table.ruleset_spec,
        "players": list(setup.players),
        "first_dealer": setup.first_dealer,
        "hands": log,
    }
    folded = score_session_document(doc)
    names = {member_id: name for name, member_id in setup.members.items()}
    entries = list(Entry.objects.filter(table=table).order_by("number"))
    assert [e.number for e in entries] == list(range(1, len(entries) + 1))
    by_entry: dict[int, dict[str, int]] = defaultdict(dict)
    for number, member, amount in ledger_snapshot(table):
        by_entry[number][names[member]] = amount
    stock_before = 0
    for entry, hand in zip(entries, folded["hands"], strict=True):
        amounts = by_entry[entry.number]
        assert amounts == hand["payouts"], entry.number  # every player, every entry
        assert sum(amounts.values()) + (entry.stock_after - stock_before) == 0
        assert (entry.dealer, entry.round, entry.multiplier) == (hand["dealer"], hand["round"], hand["multiplier"])
        stock_before = entry.stock_after
    totals = {
        names[row["member_id"]]: row["total"]
        for row in LedgerEntry.objects.filter(table=table).values("member_id").annotate(total=Sum("amount"))
    }
    assert totals == {name: value for name, value in folded["totals"].items() if name in totals}
    assert sum(folded["totals"].values()) + folded["stock"] == 0
    sheet = selectors.table_sheet(table)
    assert sheet.stock == folded["stock"]
    assert dict(sheet.final) == folded["totals"]
    for row, hand in zip(sheet.rows, folded["hands"], strict=True):
        assert {cell.name: cell.amount or 0 for cell in row.cells} == hand["payouts"]


def check_session(session: Session) -> None:
    balances = selectors.session_balances(session)
    for unit in {b.unit for b in balances}:
        assert sum(b.amount for b in balances if b.unit == unit) == 0
    paid: dict[tuple[str, str], int] = defaultdict(int)
    for transfer in selectors.session_settlement(session):
        assert transfer.amount > 0
        paid[(transfer.payer_name, transfer.unit)] -= transfer.amount
        paid[(transfer.payee_name, transfer.unit)] += transfer.amount
    assert {key: value for key, value in paid.items() if value} == {
        (b.name, b.unit): b.amount for b in balances if b.amount
    }


@settings(max_examples=12, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seed=st.integers(0, 10**6),
    rules=st.integers(0, len(RULES) - 1),
    players=st.integers(4, 6),
    tables=st.integers(1, 2),
    length=st.integers(1, 18),
    hostile=st.lists(hostile_values | deep_values, max_size=4),
)
def test_every_evening_is_zero_sum_and_equals_the_sum_of_its_hands(
    seed: int, rules: int, players: int, tables: int, length: int, hostile: list[Any]
) -> None:
    rng = random.Random(seed)
    club: Club = ClubFactory()
    session = services.session_create(club=club, date="2026-11-20", user=None)
    for t in range(tables):
        members: list[Member] = MemberFactory.create_batch(players, club=club)
        table = services.table_start(
            session=session,
            members=members,
            first_dealer=rng.choice(members),
            name=f"Tisch {t + 1}",
            rules=RULES[(rules + t) % len(RULES)],
            user=None,
        )
        play(table, rng, length, hostile)
        check_table(table)
    check_session(session)
