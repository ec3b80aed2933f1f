"""Invariants of the evening fold (hypothesis): random valid evenings — hands, wrong deals, every
table event, votes, special rounds — are zero-sum once the Stock is counted, the totals are the
sum of the entries, every entry names every player (0 for whoever sat out a hand), and folding the
whole log gives exactly what appending entry by entry gives (the page and the command agree)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import registry
from scoring.engine.core import RuleSet
from scoring.engine.presets.schafkopf import ROUNDS, SchafkopfRules
from scoring.engine.samples import seated_hand
from scoring.engine.session import EntryError, TableState, advance, fold, start
from scoring.engine.session_rules import TableRules
from tests.properties import examples

NAMES = ("Anna", "Bert", "Cilli", "Done", "Emil", "Fritz")
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("allgaeu", {}),
    ("allgaeu", {"bock_overlap": "stack", "bock_triggers": ["6060", "3090", "schwarz", "four_deckel"]}),
    ("standard", {"stock": "anhang_c", "bock_triggers": ["6060", "kontra_lost", "herz_solo_lost", "schwarz"]}),
    ("reiner-schafkopf", {"stock": "anhang_c", "bock_triggers": ["kontra_lost"], "bock_overlap": "stack"}),
    ("allgaeu-meisterschaft", {"stock": "anhang_c"}),
    ("doppelkopf", {}),
    ("doppelkopf", {"bock_triggers": ["120120", "kontra_lost", "schwarz"], "bock_overlap": "stack"}),
]


def doppelkopf_hand(rng: random.Random, seats: tuple[str, ...]) -> dict[str, Any]:
    augen = rng.choice((120, 0, 240, *(rng.randint(0, 240) for _ in range(5))))
    if rng.random() < 0.2:
        hand: dict[str, Any] = {"game": "trumpfsolo", "re": [rng.choice(seats)], "augen": augen}
    else:
        hand = {"game": "normal", "re": rng.sample(seats, 2), "augen": augen}
    if rng.random() < 0.3:
        side = rng.choice(("re", "contra"))
        hand["announcements"] = {side: [side]}
    return hand


def random_entry(rules: RuleSet, table: TableRules, state: TableState, rng: random.Random) -> dict[str, Any]:
    if state.vote_pending:
        return {"event": "vote", "choice": rng.choice(("mungorunde", "bockrunde"))}
    roll = rng.random()
    if roll < 0.04:
        return {"event": rng.choice(("vergeben", "verabhebt"))}
    if roll < 0.06 and state.must_play is None:  # 001 §5.4: in a Stöcklesrunde somebody must play
        return {"event": "zusammengeworfen"}
    if roll < 0.08 and table.special_kinds:
        return {"event": "special_round", "kind": rng.choice(table.special_kinds)}
    if roll < 0.09 and state.current is not None:
        return {"event": "end_round"}
    if roll < 0.11 and table.schmeissen:
        return {"event": "schmeissen"}
    dealer = state.dealer
    if roll < 0.14:
        dealer = rng.choice(state.players)
    probe = start(rules, table, state.players, dealer)
    seats = probe.seats
    bockspiel = dealer != state.dealer and table.wrong_dealer == "bockspiel"
    if isinstance(rules, SchafkopfRules):
        round_name = "bockspiel" if bockspiel else state.round
        stoeckle = None if bockspiel else dict(state.stoeckle)
        hand = seated_hand(rules, rng, seats, probe.buyers, round_name, stoeckle)
    else:
        hand = doppelkopf_hand(rng, seats)
    if dealer != state.dealer:
        hand["dealer"] = dealer
    return hand


def random_evening(config: int, players: int, seed: int, length: int) -> tuple[Any, ...]:
    preset, options = CONFIGS[config]
    rules, table = registry.load_with_table({"preset": preset, "options": options})
    names = list(NAMES[:players])
    rng = random.Random(seed)
    first = rng.choice(names)
    state = start(rules, table, names, first)
    log: list[dict[str, Any]] = []
    entries = []
    for _ in range(length):
        raw = random_entry(rules, table, state, rng)
        entry, state = advance(rules, table, state, raw)
        log.append(raw)
        entries.append(entry)
    return rules, table, names, first, log, entries, state


evenings = st.tuples(st.integers(0, len(CONFIGS) - 1), st.integers(4, 6), st.integers(0, 2**32), st.integers(0, 90))


@settings(max_examples=examples(150), deadline=None)
@given(evening=evenings)
def test_random_evenings_are_zero_sum_with_the_stock_and_totals_sum_the_entries(evening: tuple[int, ...]) -> None:
    rules, table, names, first, log, _, _ = random_evening(*evening)
    result = fold(rules, table, names, first, log)
    stock = 0
    for entry in result.entries:
        assert set(entry.payouts) == set(names)
        assert sum(entry.payouts.values()) + entry.stock == 0
        stock += entry.stock
        assert stock >= 0
        if entry.kind == "hand":
            assert set(entry.seats) | set(entry.sitting_out) == set(names)
            assert len(entry.seats) == 4
            usual_out = start(rules, table, names, entry.dealer).sitting_out
            # Whoever sits out gets 0 — except the one who sold his cards, who gets their price.
            sold = set(entry.sitting_out) - set(usual_out)
            assert len(sold) == (1 if entry.bought_by else 0)
            for name in entry.sitting_out:
                assert entry.payouts[name] == (table.buy_price if name in sold else 0)
            assert entry.bought_by is None or entry.bought_by in usual_out
            assert entry.dealer in entry.sitting_out or len(names) == 4 or entry.bought_by == entry.dealer
            assert entry.round in ROUNDS
    assert stock == result.stock
    for name in names:
        assert result.totals[name] == sum(entry.payouts[name] for entry in result.entries)
    assert sum(result.totals.values()) + result.stock == 0
    doc = result.as_dict()
    assert len(doc["hands"]) == len(log)
    assert [hand["number"] for hand in doc["hands"]] == list(range(1, len(log) + 1))


@settings(max_examples=80, deadline=None)
@given(evening=evenings)
def test_folding_the_log_equals_appending_entry_by_entry(evening: tuple[int, ...]) -> None:
    rules, table, names, first, log, entries, state = random_evening(*evening)
    result = fold(rules, table, names, first, log)
    assert list(result.entries) == entries
    assert result.state == state


@settings(max_examples=80, deadline=None)
@given(evening=evenings, cut=st.integers(0, 90))
def test_refolding_after_deleting_an_entry_is_a_fold_of_the_rest(evening: tuple[int, ...], cut: int) -> None:
    # What the web service does after deleting entry k: the entries before k are unchanged.
    rules, table, names, first, log, entries, _ = random_evening(*evening)
    if not log:
        return
    k = cut % len(log)
    try:
        result = fold(rules, table, names, first, log[:k] + log[k + 1 :])
    except EntryError as exc:  # the rest may have become invalid: then it names an entry from k on
        assert exc.index >= k
        return
    assert list(result.entries[:k]) == entries[:k]
