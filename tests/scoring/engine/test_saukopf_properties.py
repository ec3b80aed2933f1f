"""Saukopf invariants over random hands (hypothesis): zero-sum, every seat named, the lines add up
to what each opponent pays or gets, the partner never pays penalties, a mirrored hand pays the
same with the other sign, a Huftritt adds exactly 2, and random JSON never crashes the engine."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.api import score_hand_document
from scoring.engine.core import EngineError
from scoring.engine.presets.saukopf import CALL_GAMES, GAMES, MAST_GAMES, PAARHUFER, RAMSCH_GAMES, SOLOS
from scoring.engine.presets.saukopf_samples import saukopf_hand
from scoring.engine.presets.saukopf_trumps import RANKS, SUITS, TRUMP_COUNT
from tests.hostile import hostile_text, huge_integers
from tests.properties import examples

NAMES = ("Anna", "Bert", "Cilli", "Done")
SIDES = ("declarer", "opponents")
CARDS = [f"{suit}_{rank}" for suit in SUITS for rank in RANKS]


def _split(draw: st.DrawFn, total: int, parts: int) -> list[int]:
    """``total`` split into ``parts`` non-negative integers."""
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=parts - 1, max_size=parts - 1)))
    bounds = [0, *cuts, total]
    return [bounds[i + 1] - bounds[i] for i in range(parts)]


@st.composite
def valid_hands(draw: st.DrawFn) -> tuple[list[str], dict[str, Any]]:
    n = draw(st.sampled_from((4, 3)))
    seats = list(NAMES[:n])
    game = draw(st.sampled_from(GAMES if n == 4 else SOLOS))
    declarer = draw(st.sampled_from(seats))
    others = [p for p in seats if p != declarer]
    hand: dict[str, Any] = {"game": game, "declarer": declarer}
    partner = None
    if game in MAST_GAMES:
        partner = draw(st.sampled_from(others))
        bid = draw(st.integers(1, 119))
        hand["mast_bid"] = draw(st.integers(bid + 1, 120) | st.just("schwarz"))
    else:
        if game in CALL_GAMES:
            partner = draw(st.sampled_from([None, *others]))
        bid = draw(st.integers(1, 120) | st.just("schwarz"))
    hand["bid"] = bid
    hand["partner"] = partner
    suit = schlag = None
    if game in ("zucht", "hauer", "keiler"):
        suit = hand["suit"] = draw(st.sampled_from(SUITS))
    if game == "keiler":
        schlag = hand["schlagtrumpf"] = draw(st.sampled_from(RANKS))
    if game == "knorpel":
        hand["knorpel"] = draw(st.sampled_from(CARDS))
    if game == "sauerei":
        hand["called"] = draw(st.sampled_from(["eichel", "gras_sau", "schellen"]))
    elif game == "grosskopferter":
        hand["called"] = draw(st.sampled_from(SUITS)) + draw(st.sampled_from(["", "_ober"]))
    alone = partner is None
    hand["spiess"] = draw(st.booleans())
    hand["haxnspalter"] = draw(st.sampled_from([None, "aufschlag", "hinterhalt"]))
    hand["offen"] = alone and draw(st.booleans())
    hand["huftritt"] = draw(st.booleans())
    hand["gegenhieb"] = hand["huftritt"] and draw(st.booleans())
    trog = n == 3 and draw(st.booleans())
    hand["trog"] = trog

    # Tricks per player first; then the Augen in play go to players who took a trick.
    tricks_total = 8 if n == 4 else 10
    tricks = _split(draw, tricks_total, n)
    out_of_play = 0 if n == 4 or trog else draw(st.integers(0, 22))
    takers = [i for i in range(n) if tricks[i] > 0]
    augen = [0] * n
    for i, share in zip(takers, _split(draw, 120 - out_of_play, len(takers)), strict=True):
        augen[i] = share
    side = {declarer} if alone else {declarer, partner}
    if game in RAMSCH_GAMES:
        hand["augen_by_player"] = dict(zip(seats, augen, strict=True))
        hand["tricks_by_player"] = dict(zip(seats, tricks, strict=True))
    else:
        hand["augen"] = sum(a for p, a in zip(seats, augen, strict=True) if p in side)
        hand["augen_opponents"] = 120 - out_of_play - hand["augen"]
        hand["tricks"] = sum(t for p, t in zip(seats, tricks, strict=True) if p in side)
        if game == "knorpel":
            hand["laufende"], hand["laufende_side"] = 1, "opponents"
        else:
            key = (game, suit, schlag) if game in ("zucht", "hauer", "keiler") else (game, None, None)
            hand["laufende"] = draw(st.integers(1, TRUMP_COUNT[key]))
            hand["laufende_side"] = draw(st.sampled_from(SIDES))
    if game in PAARHUFER and game != "feiges_mastschwein":
        hand["saukopf"] = draw(st.sampled_from([None, "opponents"] if game == "unreine_sauerei" else [None, *SIDES]))
        hand["mueller"] = draw(st.sampled_from([None, *SIDES]))
    return seats, hand


def score(seats: list[str], hand: dict[str, Any]) -> dict[str, Any]:
    return score_hand_document({"ruleset": "saukopf", "seats": seats, **hand})


@settings(max_examples=examples(600))
@given(valid_hands())
def test_saukopf_zero_sum_every_seat_and_lines_add_up(case: tuple[list[str], dict[str, Any]]) -> None:
    seats, hand = case
    result = score(seats, hand)
    payouts = result["payouts"]
    assert list(payouts) == seats
    assert all(type(v) is int for v in payouts.values())
    assert sum(payouts.values()) == 0
    assert result["winner"] in SIDES
    assert result["unit"] == "point"
    price = result["price"]
    assert price >= 0
    # The table checks the sum: all lines together are what each opponent gets or pays.
    total = sum(line["amount"] for line in result["lines"])
    side = {hand["declarer"], hand.get("partner")}
    for player in seats:
        if player not in side:
            assert payouts[player] == (total if result["winner"] == "opponents" else -total)
    # Grobschlächterstrafpunkte are the declarer's alone.
    if hand.get("partner"):
        assert payouts[hand["partner"]] == (price if result["winner"] == "declarer" else -price)
    if result["winner"] == "declarer":
        assert not any(line["label"].startswith("Strafpunkt") for line in result["lines"])


@settings(max_examples=examples(200))
@given(st.integers(0, 2**32), st.sampled_from((4, 3)))
def test_saukopf_sampler_hands_are_valid_and_balance(seed: int, n: int) -> None:
    # The benchmark's hands (a club evening's mix) must all pass validation.
    seats = list(NAMES[:n])
    result = score(seats, saukopf_hand(random.Random(seed), tuple(seats)))
    assert sum(result["payouts"].values()) == 0


@st.composite
def mirrored_pairs(draw: st.DrawFn) -> tuple[list[str], dict[str, Any], dict[str, Any]]:
    """A won hand and its mirror: lost by one Auge, with every side-bound fact swapped.

    Only games whose defeat brings no Grobschlächterstrafpunkte: those are one-sided by design.
    """
    n = draw(st.sampled_from((4, 3)))
    seats = list(NAMES[:n])
    games = ["zucht", "eber", "wutz", "hauer", "hybridschwein", "ferkelparade", "keiler"]
    game = draw(st.sampled_from(games + ["sauerei"] if n == 4 else games))
    declarer = draw(st.sampled_from(seats))
    hand: dict[str, Any] = {"game": game, "declarer": declarer}
    if game in ("zucht", "hauer", "keiler"):
        hand["suit"] = draw(st.sampled_from(SUITS))
    if game == "keiler":
        hand["schlagtrumpf"] = draw(st.sampled_from(RANKS))
    alone = True
    # Augen off the Schneider lines on both sides, and an echte Sauerei below Rauborstigkeit.
    augen = draw(st.integers(30, 90))
    if game == "sauerei":
        hand["called"] = "gras"
        hand["partner"] = draw(st.sampled_from([None, *[p for p in seats if p != declarer]]))
        alone = hand["partner"] is None
        augen = draw(st.integers(30, 73))
        hand["saukopf"] = draw(st.sampled_from([None, *SIDES]))
        hand["mueller"] = draw(st.sampled_from([None, *SIDES]))
    hand["augen"] = augen
    hand["offen"] = alone and draw(st.booleans())
    hand["huftritt"] = draw(st.booleans())
    hand["gegenhieb"] = hand["huftritt"] and draw(st.booleans())
    hand["laufende"] = draw(st.integers(1, 4))
    hand["laufende_side"] = draw(st.sampled_from(SIDES))
    won = {**hand, "bid": draw(st.integers(1, augen))}
    flip = {"declarer": "opponents", "opponents": "declarer", None: None}
    lost = {
        **hand,
        "bid": augen + 1,
        "laufende_side": flip[hand["laufende_side"]],
        "saukopf": flip[hand.get("saukopf")],
        "mueller": flip[hand.get("mueller")],
    }
    return seats, won, lost


@settings(max_examples=examples(300))
@given(mirrored_pairs())
def test_saukopf_mirrored_win_and_loss_differ_only_in_sign(case: tuple[list[str], dict, dict]) -> None:
    seats, won, lost = case
    a, b = score(seats, won), score(seats, lost)
    assert (a["winner"], b["winner"]) == ("declarer", "opponents")
    assert b["payouts"] == {p: -v for p, v in a["payouts"].items()}
    assert [line["amount"] for line in a["lines"]] == [line["amount"] for line in b["lines"]]


@settings(max_examples=examples(300))
@given(valid_hands())
def test_saukopf_huftritt_adds_exactly_two(case: tuple[list[str], dict[str, Any]]) -> None:
    seats, hand = case
    calm = score(seats, {**hand, "huftritt": False, "gegenhieb": False})
    kicked = score(seats, {**hand, "huftritt": True, "gegenhieb": False})
    assert calm["winner"] == kicked["winner"]
    if not any(line["label"] == "Negatives Kopfgeld verfällt" for line in calm["lines"]):
        assert kicked["price"] == calm["price"] + 2


JSON_LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(-3, 125)
    | st.text(max_size=6)
    | hostile_text
    | huge_integers
    | st.sampled_from(["schwarz", "declarer", "opponents", "herz", "gras", "gras_ober", "herz_sau", "ober", *NAMES])
)
JSON = st.recursive(
    JSON_LEAVES,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(NAMES) | st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=8,
)
FIELDS = (
    "game",
    "declarer",
    "partner",
    "bid",
    "mast_bid",
    "suit",
    "called",
    "knorpel",
    "schlagtrumpf",
    "spiess",
    "haxnspalter",
    "offen",
    "trog",
    "huftritt",
    "gegenhieb",
    "augen",
    "augen_opponents",
    "augen_by_player",
    "tricks",
    "tricks_by_player",
    "laufende",
    "laufende_side",
    "saukopf",
    "mueller",
)


def _result_or_engine_error(doc: Any) -> None:
    try:
        result = score_hand_document(doc)
    except EngineError as err:
        assert err.code and err.message
        return
    assert sum(result["payouts"].values()) == 0


@settings(max_examples=examples(500))
@given(st.sampled_from((3, 4)), st.dictionaries(st.sampled_from(FIELDS), JSON, max_size=10))
def test_saukopf_random_json_gives_result_or_engine_error(n: int, hand: dict[str, Any]) -> None:
    _result_or_engine_error({"ruleset": "saukopf", "seats": list(NAMES[:n]), **hand})


@settings(max_examples=examples(500))
@given(valid_hands(), st.sampled_from(FIELDS), JSON)
def test_saukopf_one_broken_field_gives_result_or_engine_error(
    case: tuple[list[str], dict[str, Any]], name: str, value: Any
) -> None:
    seats, hand = case
    _result_or_engine_error({"ruleset": "saukopf", "seats": seats, **hand, name: value})
