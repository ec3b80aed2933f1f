"""Invariants of the Schafkopf family (hypothesis): every hand is zero-sum and names every seat,
each doubling doubles exactly, the Meisterschaft ignores Deckel, a win and the mirrored loss
differ only in sign, and arbitrary JSON yields a result or the error object, never a crash."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import registry
from scoring.engine.api import score_hand_document
from scoring.engine.core import Context, EngineError
from scoring.engine.samples import schafkopf_hand
from tests.hostile import hostile_text, huge_integers
from tests.properties import examples

SEATS = ("Anna", "Bert", "Cilli", "Done")
PRESETS = ("standard", "allgaeu", "allgaeu-meisterschaft", "reiner-schafkopf")
ANHANG_C = {
    "games": [
        "rufspiel",
        "solo",
        "wenz",
        "geier",
        "farbwenz",
        "bettel",
        "mungo",
        "leasters",
        "wenz_koenig",
        "koenigssolo",
    ],
    "steigern": True,
}

seeds = st.integers(min_value=0, max_value=2**32)


def _hand(
    preset: str, seed: int, options: dict[str, Any] | None = None, round_name: str = "normal"
) -> tuple[Any, dict[str, Any]]:
    rules = registry.load({"preset": preset, "options": options or {}})
    return rules, schafkopf_hand(rules, random.Random(seed), SEATS, round_name)


def _three_way_mungo_tie(result: Any) -> bool:
    return any(line.label.startswith("Gleichstand dreier") for line in result.lines)


@settings(max_examples=examples(400))
@given(preset=st.sampled_from(PRESETS), seed=seeds, anhang_c=st.booleans())
def test_every_hand_is_zero_sum_and_names_every_seat(preset: str, seed: int, anhang_c: bool) -> None:
    options = ANHANG_C if anhang_c and preset != "reiner-schafkopf" else {}
    rules, hand = _hand(preset, seed, options)
    result = rules.score(hand, SEATS, Context())
    assert set(result.payouts) == set(SEATS)
    assert sum(result.payouts.values()) == 0
    assert result.lines


@settings(max_examples=examples(200))
@given(preset=st.sampled_from(["allgaeu-meisterschaft", "reiner-schafkopf"]), seed=seeds, anhang_c=st.booleans())
def test_plus_points_only_is_the_zero_sum_hand_without_its_minus(preset: str, seed: int, anhang_c: bool) -> None:
    # The one option exempt from zero-sum (``NON_ZERO_SUM_OPTIONS``): the winners keep exactly
    # what the zero-sum tariff gives them, the losers are written 0, and someone always wins.
    options = ANHANG_C if anhang_c and preset != "reiner-schafkopf" else {}
    rules, hand = _hand(preset, seed, options)
    plus = registry.load({"preset": preset, "options": {**options, "plus_points_only": True}})
    assert not plus.is_zero_sum() and rules.is_zero_sum()
    zero_sum = rules.score(hand, SEATS, Context())
    result = plus.score(hand, SEATS, Context())
    assert dict(result.payouts) == {seat: max(amount, 0) for seat, amount in zero_sum.payouts.items()}
    assert min(result.payouts.values()) >= 0
    assert sum(result.payouts.values()) > 0 or all(v == 0 for v in zero_sum.payouts.values())


@given(seed=seeds, round_name=st.sampled_from(["mungorunde", "rimini", "stoecklesrunde", "bockrunde", "bockspiel"]))
def test_allgaeu_special_rounds_stay_zero_sum(seed: int, round_name: str) -> None:
    rules, hand = _hand("allgaeu", seed, round_name=round_name)
    result = rules.score(hand, SEATS, Context(round=round_name))
    assert sum(result.payouts.values()) == 0


@given(preset=st.sampled_from(["standard", "allgaeu"]), seed=seeds)
def test_one_more_deckel_doubles_exactly(preset: str, seed: int) -> None:
    rules, hand = _hand(preset, seed)
    if hand.get("deckel", 0) >= rules.opt("max_deckel"):
        return
    base = rules.score(hand, SEATS, Context())
    more = rules.score({**hand, "deckel": hand.get("deckel", 0) + 1}, SEATS, Context())
    if _three_way_mungo_tie(more):
        # A three-way Mungo tie rounds shares up to 0,10 €: only the price doubles exactly.
        assert more.price == 2 * base.price
        return
    assert {s: 2 * v for s, v in base.payouts.items()} == dict(more.payouts)


@given(preset=st.sampled_from(PRESETS), seed=seeds)
def test_one_more_kontra_doubles_exactly(preset: str, seed: int) -> None:
    rules, hand = _hand(preset, seed)
    if hand["game"] in ("mungo", "sie", "leasters") or hand.get("kontra", 0) >= rules.opt("max_kontra"):
        return
    kontra = hand.get("kontra", 0) + 1
    more = {**hand, "kontra": kontra, "last_kontra": "opponents" if kontra % 2 else "declarer"}
    if rules.opt("spritze_uebernimmt") and hand.get("augen") in (30, 60, 90):
        return  # the last Spritze moves the tie lines (001 §6.2): not a plain doubling
    base = rules.score(hand, SEATS, Context())
    doubled = rules.score(more, SEATS, Context())
    assert {s: 2 * v for s, v in base.payouts.items()} == dict(doubled.payouts)


@given(seed=seeds)
def test_bock_doubles_exactly(seed: int) -> None:
    rules, hand = _hand("allgaeu", seed)
    base = rules.score(hand, SEATS, Context())
    bock = rules.score(hand, SEATS, Context(bock=1, round="bockrunde"))
    if _three_way_mungo_tie(bock):
        # Shares are rounded up to 0,10 € (001 §4.3.2): only the price doubles exactly.
        assert bock.price == 2 * base.price
        return
    assert {s: 2 * v for s, v in base.payouts.items()} == dict(bock.payouts)
    assert bock.multiplier == 2


@given(seed=seeds, deckel=st.integers(min_value=1, max_value=4))
def test_meisterschaft_ignores_deckel(seed: int, deckel: int) -> None:
    rules, hand = _hand("allgaeu-meisterschaft", seed)
    if "deckel" not in hand:
        return
    one = rules.score(hand, SEATS, Context())
    other = rules.score({**hand, "deckel": deckel}, SEATS, Context())
    assert one.payouts == other.payouts


@given(
    preset=st.sampled_from(PRESETS),
    game=st.sampled_from(["rufspiel", "solo", "wenz"]),
    outcome=st.sampled_from(["", "_schneider", "_schwarz"]),
    laufende=st.integers(min_value=0, max_value=4),
    kontra=st.integers(min_value=0, max_value=2),
)
def test_win_and_mirrored_loss_differ_only_in_sign(
    preset: str, game: str, outcome: str, laufende: int, kontra: int
) -> None:
    hand: dict[str, Any] = {
        "ruleset": preset,
        "seats": list(SEATS),
        "game": game,
        "declarer": "Anna",
        "laufende": laufende,
    }
    if game == "rufspiel":
        hand["partner"] = "Cilli"
    if game == "solo":
        hand["suit"] = "herz"
    if preset.startswith("allgaeu"):
        hand["deckel"] = 1
    if kontra:
        hand.update(kontra=kontra, last_kontra="opponents" if kontra % 2 else "declarer")
    won = score_hand_document({**hand, "result": "won" + outcome})
    lost = score_hand_document({**hand, "result": "lost" + outcome})
    assert won["payouts"] == {s: -v for s, v in lost["payouts"].items()}


# Hostile leaves and keys too (issue 17): lone surrogates, NUL, integers of thousands of digits.
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-200, 200) | st.text(max_size=12) | hostile_text | huge_integers,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(hostile_text, children, max_size=5),
    max_leaves=20,
)
fields = st.sampled_from(
    [
        "game",
        "declarer",
        "partner",
        "augen",
        "tricks",
        "laufende",
        "kontra",
        "last_kontra",
        "deckel",
        "tout",
        "suit",
        "called",
        "result",
        "augen_by_player",
        "tricks_by_player",
        "kontra_by",
        "bid",
        "fehler",
        "context",
        "seats",
    ]
)


@settings(max_examples=examples(500))
@given(
    preset=st.sampled_from([*PRESETS, "nope", 7]),
    mutations=st.dictionaries(fields, json_values, max_size=6),
    seed=seeds,
)
def test_random_json_gives_a_result_or_the_error_object(preset: Any, mutations: dict[str, Any], seed: int) -> None:
    base: dict[str, Any] = {"ruleset": preset, "seats": list(SEATS)}
    if preset in PRESETS:
        base.update(_hand(preset, seed)[1])
    doc = {**base, **mutations}
    try:
        result = score_hand_document(doc)
    except EngineError as exc:
        assert exc.code and exc.message
        return
    assert sum(result["payouts"].values()) == 0


@given(
    low=st.integers(min_value=1, max_value=29),  # 0 would give the fourth all 120: a Durchmarsch
    clean=st.sampled_from(SEATS[:3]),
    deckel=st.integers(min_value=0, max_value=3),
)
def test_mungo_three_tied_low_lone_non_spritzer_wins_and_doublings_stay_exact(
    low: int, clean: str, deckel: int
) -> None:
    # 001 §4.3.2: three tied below the fourth, two of them Spritzer: the non-Spritzer wins alone,
    # each of the three others pays him the price; one more Deckel doubles every amount.
    rules = registry.load("allgaeu")
    augen = {**dict.fromkeys(SEATS[:3], low), "Done": 120 - 3 * low}
    hand = {"game": "mungo", "augen_by_player": augen, "kontra_by": [s for s in SEATS[:3] if s != clean]}
    if deckel:
        hand["deckel"] = deckel
    result = rules.score(hand, SEATS, Context())
    assert sum(result.payouts.values()) == 0
    assert result.winner == (clean,)
    assert result.payouts[clean] == 3 * result.price
    more = rules.score({**hand, "deckel": deckel + 1}, SEATS, Context())
    assert {s: 2 * v for s, v in result.payouts.items()} == dict(more.payouts)
