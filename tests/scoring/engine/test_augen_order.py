"""Spec §2.1 ``augen_order`` (issue 21): a Mungo, Ramsch or Leasters entered by the order of the
players' Augen instead of the numbers. The spec's example, the refusals it names, and the property
that matters: wherever the order is accepted it pays exactly what the counted Augen pay."""

from __future__ import annotations

import random
from typing import Any

import pytest

from scoring.engine import registry
from scoring.engine.api import score_hand_document
from scoring.engine.core import EngineError
from scoring.engine.presets.schafkopf import augen_groups
from scoring.engine.samples import schafkopf_hand
from tests.properties import examples

SEATS = ["Anna", "Bert", "Cilli", "Done"]
RAMSCH = {"preset": "standard", "options": {"mungo_mode": "ramsch", "games": ["rufspiel", "solo", "wenz", "mungo"]}}
LEASTERS = {"preset": "standard", "options": {"games": ["rufspiel", "solo", "wenz", "leasters"]}}


def score(ruleset: Any, **hand: Any) -> dict[str, Any]:
    return score_hand_document({"ruleset": ruleset, "seats": SEATS, **hand})


def refused(ruleset: Any, **hand: Any) -> EngineError:
    with pytest.raises(EngineError) as info:
        score(ruleset, **hand)
    return info.value


def test_spec_example_anna_fewest_bert_and_cilli_equal_done_most() -> None:
    """[["Anna"], ["Bert", "Cilli"], ["Done"]] is 001 §4.3.2's tie of two: Anna wins, Done
    loses, Bert and Cilli settle nothing between them — as with Augen 10, 30, 30, 50."""
    order = [["Anna"], ["Bert", "Cilli"], ["Done"]]
    by_order = score("allgaeu", game="mungo", augen_order=order)
    counted = score("allgaeu", game="mungo", augen_by_player={"Anna": 10, "Bert": 30, "Cilli": 30, "Done": 50})
    assert by_order["payouts"] == counted["payouts"] == {"Anna": 10, "Bert": 0, "Cilli": 0, "Done": -10}


def test_mungo_two_fewest_win_by_order() -> None:
    out = score("allgaeu", game="mungo", augen_order=[["Cilli"], ["Anna"], ["Done"], ["Bert"]])
    assert out["payouts"] == {"Anna": 10, "Bert": -10, "Cilli": 10, "Done": -10}


def test_ramsch_most_augen_loses_by_order_and_leasters_fewest_win() -> None:
    assert score(RAMSCH, game="ramsch", augen_order=[["Anna"], ["Bert"], ["Cilli"], ["Done"]])["payouts"]["Done"] < 0
    out = score(LEASTERS, game="leasters", augen_order=[["Bert"], ["Anna", "Cilli"], ["Done"]])
    assert out["payouts"]["Bert"] > 0 and out["payouts"]["Done"] < 0


def test_order_and_augen_given_together_must_agree() -> None:
    augen = {"Anna": 10, "Bert": 30, "Cilli": 30, "Done": 50}
    agreed = score("allgaeu", game="mungo", augen_by_player=augen, augen_order=[["Anna"], ["Cilli", "Bert"], ["Done"]])
    assert agreed["payouts"]["Anna"] == 10
    error = refused("allgaeu", game="mungo", augen_by_player=augen, augen_order=[["Anna"], ["Bert"], ["Cilli", "Done"]])
    assert (error.code, error.field) == ("inconsistent", "augen_order")


@pytest.mark.parametrize(
    ("order", "code", "field"),
    [
        ([["Anna"], ["Bert"], ["Cilli"]], "missing_field", "augen_order"),
        ([["Anna"], ["Bert", "Anna"], ["Cilli", "Done"]], "invalid_value", "augen_order"),
        ([["Anna"], ["Bert"], ["Cilli"], ["Emil", "Done"]], "invalid_value", "augen_order"),
        ([["Anna"], [], ["Bert", "Cilli", "Done"]], "invalid_type", "augen_order"),
        ("Anna<Bert", "invalid_type", "augen_order"),
        # Three equal at the bottom: 0 each and a Durchmarsch, or 20 each? Only the numbers say.
        ([["Anna", "Bert", "Cilli"], ["Done"]], "missing_field", "augen_by_player"),
    ],
)
def test_refused_orders_name_their_field(order: Any, code: str, field: str) -> None:
    error = refused("allgaeu", game="mungo", augen_order=order)
    assert (error.code, error.field) == (code, field)


def test_three_equal_at_the_bottom_with_tricks_is_a_durchmarsch_or_not() -> None:
    order = [["Anna", "Bert", "Cilli"], ["Done"]]
    sweep = score(
        "allgaeu", game="mungo", augen_order=order, tricks_by_player={"Anna": 0, "Bert": 0, "Cilli": 0, "Done": 8}
    )
    assert sweep["payouts"] == {"Anna": 10, "Bert": 10, "Cilli": 10, "Done": -30}
    error = refused("allgaeu", game="mungo", augen_order=[["Anna"], ["Bert", "Cilli", "Done"]],
                    tricks_by_player={"Anna": 2, "Bert": 0, "Cilli": 3, "Done": 3})  # fmt: skip
    assert (error.code, error.field) == ("inconsistent", "augen_order")


def test_a_tie_the_order_cannot_break_asks_for_the_next_criterion() -> None:
    error = refused(RAMSCH, game="ramsch", augen_order=[["Anna"], ["Bert"], ["Cilli", "Done"]])
    assert (error.code, error.field) == ("missing_field", "tricks_by_player")


def test_order_pays_what_the_augen_pay() -> None:
    """Every sampled Mungo, Ramsch and Leasters, its Augen replaced by their order: the same
    payouts, or refused naming ``augen_by_player`` where only the numbers decide."""
    rng = random.Random(21)
    cases = 0
    for spec in ("allgaeu", RAMSCH, LEASTERS):
        ruleset = registry.load(spec)
        games = [g for g in ruleset.games_for_round() if g in ("mungo", "leasters")]
        for _ in range(examples(200)):
            hand = schafkopf_hand(ruleset, rng, tuple(SEATS))
            while hand["game"] not in games:
                hand = schafkopf_hand(ruleset, rng, tuple(SEATS))
            try:
                counted = score(spec, **hand)
            except EngineError:
                continue
            by_order = dict(hand, augen_order=augen_groups(hand.pop("augen_by_player")))
            by_order.pop("augen_by_player", None)
            without_tricks = {k: v for k, v in by_order.items() if k != "tricks_by_player"}
            for variant in (by_order, without_tricks):
                try:
                    out = score(spec, **variant)
                except EngineError as error:
                    assert error.field in ("augen_by_player", "tricks_by_player"), (variant, error)
                    continue
                assert out["payouts"] == counted["payouts"], variant
                cases += 1
    assert cases > 300
