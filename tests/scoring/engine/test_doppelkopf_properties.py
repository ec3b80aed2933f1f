"""Doppelkopf invariants over random hands (hypothesis): zero-sum, every seat named, the lines add up
to what each player gets, a solo's three opponents pay alike, a Bock doubles exactly, the order of
the announcements does not matter, more Augen never cost the Re side, random JSON never crashes the
engine, and the benchmark's sampler only makes valid hands."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.engine.api import score_hand_document
from scoring.engine.core import Context, EngineError
from scoring.engine.presets.doppelkopf import (
    ABSAGEN,
    DOPPELKOPF_ONLY,
    EXTRA_KINDS,
    GAMES,
    MAX_AUGEN,
    SOLOS,
    SUITS,
)
from scoring.engine.presets.doppelkopf_samples import SEATS, doppelkopf_hand
from scoring.engine.registry import load
from tests.hostile import hostile_text, huge_integers
from tests.properties import examples

NAMES = ["Anna", "Bert", "Cilli", "Done"]


@st.composite
def hands(draw: st.DrawFn, *, extras: bool = True, tricks: bool = True) -> dict[str, Any]:
    game = draw(st.sampled_from(GAMES))
    if game in SOLOS or game == "stille_hochzeit":
        size = 1
    elif game == "hochzeit":
        size = draw(st.sampled_from((1, 2)))
    else:
        size = 2
    re = draw(st.permutations(NAMES))[:size]
    hand: dict[str, Any] = {"game": game, "re": re}
    if game == "farbsolo":
        hand["suit"] = draw(st.sampled_from(SUITS))
    if tricks and draw(st.booleans()):
        n = draw(st.integers(0, 12))
        hand["tricks"] = n
        hand["augen"] = draw(st.integers(240 - MAX_AUGEN[12 - n], MAX_AUGEN[n]))
    else:
        hand["augen"] = draw(st.integers(0, 240))
    hand["announcements"] = {side: [side, *ABSAGEN][: draw(st.integers(0, 5))] for side in ("re", "contra")}
    if extras:
        kinds = ("doppelkopf",) if game in DOPPELKOPF_ONLY else EXTRA_KINDS
        hand["extras"] = draw(
            st.lists(
                st.fixed_dictionaries({"side": st.sampled_from(("re", "contra")), "kind": st.sampled_from(kinds)}),
                max_size=4,
            )
        )
    return hand


OPTIONS = st.fixed_dictionaries(
    {
        "both_fail": st.sampled_from(("net", "void")),
        "versaeumte_ansage": st.booleans(),
        "offene_hochzeit_unter_30": st.sampled_from(("opponents_simple", "wedding_simple", "as_solo")),
    }
)


def score(hand: dict[str, Any], options: dict[str, Any] | None = None, bock: int = 0) -> dict[str, Any]:
    doc = {
        "ruleset": {"preset": "doppelkopf", "options": options or {}},
        "seats": NAMES,
        "context": {"bock": bock},
        **hand,
    }
    try:
        return score_hand_document(doc)
    except EngineError as err:
        # Random Sonderpunkte may contradict the hand (two Charlies, a Doppelkopf without 40
        # Augen); everything else the strategy draws is valid.
        assert err.field == "extras", (err.code, err.field, err.message)
        assume(False)
        raise


@settings(max_examples=examples(400), deadline=None)
@given(hands(), OPTIONS, st.integers(0, 3))
def test_doppelkopf_zero_sum_every_seat_named_lines_add_up(
    hand: dict[str, Any], options: dict[str, Any], bock: int
) -> None:
    result = score(hand, options, bock)
    payouts = result["payouts"]
    assert list(payouts) == NAMES
    assert sum(payouts.values()) == 0
    amount = sum(line.get("amount", 0) for line in result["lines"])
    factors = [line["factor"] for line in result["lines"] if "factor" in line]
    solo = len(hand["re"]) == 1
    value = amount * 2**bock
    # Lines speak for the winner, or for Re when nobody won.
    re_value = -value if result["winner"] == "opponents" else value
    for name in NAMES:
        if name in hand["re"]:
            assert payouts[name] == re_value * (3 if solo else 1)
        else:
            assert payouts[name] == -re_value
    product = 1
    for factor in factors:
        product *= factor
    assert abs(payouts[hand["re"][0]]) == abs(amount) * product
    assert result["price"] == abs(value)


@settings(max_examples=examples(200), deadline=None)
@given(hands(), OPTIONS)
def test_doppelkopf_bock_doubles_exactly(hand: dict[str, Any], options: dict[str, Any]) -> None:
    plain = score(hand, options)
    bocked = score(hand, options, bock=1)
    assert bocked["payouts"] == {name: 2 * value for name, value in plain["payouts"].items()}
    assert bocked["winner"] == plain["winner"]


@settings(max_examples=examples(300), deadline=None)
@given(hands(extras=False, tricks=False), st.integers(0, 240), st.sampled_from(("net", "void")))
def test_doppelkopf_more_augen_never_cost_re(hand: dict[str, Any], other: int, both_fail: str) -> None:
    # Without the two rules that punish a side for its own lead (004 §8 missed announcements,
    # 004 §7 the Offene Hochzeit under 30), the value is monotone in the Re side's Augen.
    options = {"versaeumte_ansage": False, "offene_hochzeit_unter_30": "as_solo", "both_fail": both_fail}
    low, high = sorted((hand["augen"], other))
    first = hand["re"][0]
    assert (
        score({**hand, "augen": low}, options)["payouts"][first]
        <= score({**hand, "augen": high}, options)["payouts"][first]
    )


@settings(max_examples=examples(200), deadline=None)
@given(hands(), st.randoms(use_true_random=False))
def test_doppelkopf_announcement_order_does_not_matter(hand: dict[str, Any], rnd: random.Random) -> None:
    shuffled = {side: rnd.sample(made, len(made)) for side, made in hand["announcements"].items()}
    assert score({**hand, "announcements": shuffled}) == score(hand)


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-300, 300)
    | st.sampled_from(["re", "contra", "keine90", "Anna", ""])
    | hostile_text
    | huge_integers,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(["side", "kind", "re", "x"]) | hostile_text, inner)
    ),
    max_leaves=12,
)
FIELDS = st.fixed_dictionaries(
    {},
    optional={
        "game": st.sampled_from([*GAMES, "solo"]) | JSON,
        "suit": st.sampled_from([*SUITS, "karo"]) | JSON,
        "re": st.lists(st.sampled_from([*NAMES, "Emil"]), max_size=3) | JSON,
        "augen": st.integers(-5, 245) | JSON,
        "tricks": st.integers(-1, 13) | JSON,
        "announcements": st.fixed_dictionaries(
            {},
            optional={
                "re": st.lists(st.sampled_from(["re", "contra", *ABSAGEN]), max_size=6) | JSON,
                "contra": st.lists(st.sampled_from(["re", "contra", *ABSAGEN]), max_size=6) | JSON,
            },
        )
        | JSON,
        "extras": st.lists(
            st.fixed_dictionaries(
                {"side": st.sampled_from(["re", "contra", "x"]), "kind": st.sampled_from([*EXTRA_KINDS, "y"])}
            )
            | JSON,
            max_size=4,
        )
        | JSON,
        "extra_field": JSON,
    },
)


@settings(max_examples=examples(600), deadline=None)
@given(FIELDS, st.integers(0, 2))
def test_doppelkopf_random_json_gives_result_or_engine_error(raw: dict[str, Any], bock: int) -> None:
    doc = {"ruleset": "doppelkopf", "seats": NAMES, "context": {"bock": bock}, **raw}
    try:
        result = score_hand_document(doc)
    except EngineError as err:
        assert err.message and err.code
        return
    assert sum(result["payouts"].values()) == 0
    assert list(result["payouts"]) == NAMES


def test_doppelkopf_sampled_hands_are_valid_and_balance() -> None:
    # The benchmark's sampler (a club evening's mix) must only make hands the engine accepts.
    rng = random.Random(7)
    rules = load("doppelkopf")
    for _ in range(3000):
        result = rules.score(doppelkopf_hand(rng), SEATS, Context(bock=rng.randint(0, 1)))
        assert sum(result.payouts.values()) == 0
