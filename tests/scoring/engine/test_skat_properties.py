"""Skat invariants over random hands (hypothesis): the ``skat`` settlement sums to zero and names
every seat (the one sitting out too), Seeger-Fabian is the list entry + 50 or − 50 and 40/30 for
the others of a lost game, a lost game is −2 × its value, Kontra/Re and Bock double exactly (and
never the Seeger bonus), the lines work out to the entry, a corrupted field is refused naming that
field, random JSON gives a result or the error object, and the sampler only makes valid hands."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.api import score_hand_document
from scoring.engine.core import EngineError
from scoring.engine.presets.skat import (
    GRUNDWERTE,
    NULL_VALUES,
    REIZWERTE,
    SKAT_MOST_AUGEN,
    SUIT_GAMES,
    read_play,
    result_name,
)
from scoring.engine.presets.skat_samples import skat_hand
from scoring.engine.registry import load
from tests.hostile import hostile_text, huge_integers
from tests.properties import examples

SEATS = ["Anna", "Bert", "Cilli"]
OUT = "Done"
HOUSE = {"kontra_re": True, "ramsch": True, "schieberamsch": True, "bock": True}


@st.composite
def declared(draw: st.DrawFn, *, kontra: bool = True) -> dict[str, Any]:
    """A valid suit, Grand or Null game of Anna's (Kontra/Re only where ``kontra``)."""
    game = draw(st.sampled_from([*SUIT_GAMES, "grand", "null"]))
    hand: dict[str, Any] = {"game": game, "declarer": draw(st.sampled_from(SEATS))}
    if kontra:
        hand["kontra"] = draw(st.integers(0, 2))
    played_hand = draw(st.booleans())
    hand["hand"] = played_hand
    if game == "null":
        ouvert = draw(st.booleans())
        hand |= {"ouvert": ouvert, "result": draw(st.sampled_from(("won", "lost")))}
        if draw(st.booleans()):
            hand["bid"] = draw(st.sampled_from([v for v in REIZWERTE if v <= NULL_VALUES[(played_hand, ouvert)]]))
        return hand
    hand["spitzen"] = draw(st.integers(1, 4 if game == "grand" else 11))
    hand["ohne"] = draw(st.booleans())
    announced = None
    if played_hand:
        pick = draw(st.sampled_from((None, None, "schneider", "schwarz", "ouvert")))
        if pick == "ouvert":
            hand["ouvert"] = True
            announced = "schwarz"
        elif pick:
            announced = hand["announced"] = pick
    augen = draw(st.integers(0, 120))
    schwarz = None
    if augen == 120 and draw(st.booleans()):
        schwarz = "opponents"
    elif augen <= SKAT_MOST_AUGEN and draw(st.booleans()):
        schwarz = "declarer"
    if schwarz:
        hand["schwarz"] = schwarz
    if announced is None and draw(st.booleans()):
        won = augen >= 61
        hand["result"] = result_name(won, augen >= 90 if won else augen <= 30, schwarz is not None)
        hand.pop("schwarz", None)
    else:
        hand["augen"] = augen
    if draw(st.booleans()):
        hand["bid"] = draw(st.sampled_from(REIZWERTE))
    return hand


def score(
    hand: dict[str, Any], preset: str = "skat", table: int = 3, options: dict[str, Any] | None = None, bock: int = 0
) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "ruleset": {"preset": preset, "options": {**HOUSE, **(options or {})}},
        "seats": SEATS,
        "context": {"bock": bock},
        **hand,
    }
    if table == 4:
        doc["sitting_out"] = OUT
    return score_hand_document(doc)


def worked_out(result: dict[str, Any]) -> int:
    total = 0
    for line in result["lines"]:
        total = total * line["factor"] if "factor" in line else total + line.get("amount", 0)
    return total


TABLES = st.sampled_from((3, 4))


@settings(max_examples=examples(600), deadline=None)
@given(declared(), TABLES, st.integers(0, 3), st.sampled_from((None, 1, 10, 100)))
def test_skat_money_settlement_sums_to_zero_and_names_every_seat(
    hand: dict[str, Any], table: int, bock: int, cents: int | None
) -> None:
    result = score(hand, "skat", table, {"cents_per_point": cents}, bock)
    players = [*SEATS, OUT][:table]
    assert list(result["payouts"]) == players
    assert sum(result["payouts"].values()) == 0
    entry = result["list"][hand["declarer"]]
    per = cents or 1
    for player in players:
        expected = (table - 1) * entry if player == hand["declarer"] else -entry
        assert result["payouts"][player] == expected * per
    assert worked_out(result) == entry  # every term of the entry is a line


@settings(max_examples=examples(600), deadline=None)
@given(declared(), TABLES, st.integers(0, 3))
def test_skat_seeger_is_the_entry_plus_50_or_minus_50_and_40_or_30_for_the_others(
    hand: dict[str, Any], table: int, bock: int
) -> None:
    result = score(hand, "skat-seeger", table, bock=bock)
    declarer = hand["declarer"]
    entry = result["list"][declarer]
    won = result["won"]
    assert result["payouts"][declarer] == entry + (50 if won else -50)
    bonus = 0 if won else {3: 40, 4: 30}[table]
    assert all(amount == bonus for player, amount in result["payouts"].items() if player != declarer)
    assert len(result["payouts"]) == table
    assert worked_out(result) == result["payouts"][declarer]


@settings(max_examples=examples(600), deadline=None)
@given(declared(), st.sampled_from(("skat", "skat-seeger")))
def test_skat_a_lost_game_is_minus_twice_its_value(hand: dict[str, Any], preset: str) -> None:
    result = score(hand, preset)
    entry = result["list"][hand["declarer"]]
    assert entry == (result["value"] if result["won"] else -2 * result["value"])
    assert result["value"] > 0
    if result["overbid"]:
        assert not result["won"] and result["value"] >= hand["bid"]
    assert result["winner"] == ("declarer" if result["won"] else "opponents")


@settings(max_examples=examples(400), deadline=None)
@given(declared(kontra=False), st.integers(1, 2), st.integers(0, 2), st.sampled_from(("skat", "skat-seeger")))
def test_skat_kontra_re_and_bock_double_exactly(hand: dict[str, Any], kontra: int, bock: int, preset: str) -> None:
    plain = score(hand, preset)
    doubled = score({**hand, "kontra": kontra}, preset, bock=bock)
    factor = 2 ** (kontra + bock)
    assert doubled["value"] == factor * plain["value"]
    assert doubled["list"] == {name: factor * entry for name, entry in plain["list"].items()}
    assert (doubled["won"], doubled["overbid"], doubled["winner"]) == (plain["won"], plain["overbid"], plain["winner"])
    if preset == "skat-seeger":
        # skat.md §7: the 50/40/30 are never doubled.
        declarer = hand["declarer"]
        bonus = {name: plain["payouts"][name] - plain["list"].get(name, 0) for name in plain["payouts"]}
        assert bonus == {name: doubled["payouts"][name] - doubled["list"].get(name, 0) for name in doubled["payouts"]}
        assert abs(bonus[declarer]) == 50


def _corruptions(hand: dict[str, Any]) -> list[tuple[str, Any, str]]:
    """(field, bad value, the field the refusal names) that make this valid hand invalid."""
    out: list[tuple[str, Any, str]] = [
        ("declarer", "Emil", "declarer"),
        ("game", "eichel", "game"),
        ("bid", 17, "bid"),
        ("bid", 19, "bid"),
        ("kontra", 3, "kontra"),
        ("laufende", 2, "laufende"),
        ("partner", "Bert", "partner"),
    ]
    if hand["game"] == "null":
        out += [("spitzen", 2, "spitzen"), ("augen", 70, "augen"), ("result", "won_schneider", "result")]
        if NULL_VALUES[(hand["hand"], bool(hand.get("ouvert")))] < 264:
            out.append(("bid", 264, "bid"))
        return out
    most = 4 if hand["game"] == "grand" else 11
    out += [("spitzen", most + 1, "spitzen"), ("spitzen", 0, "spitzen"), ("augen", 121, "augen")]
    if not hand["hand"]:
        out += [("announced", "schneider", "announced"), ("ouvert", True, "ouvert")]
    if "augen" in hand:
        announced = "schwarz" if hand.get("ouvert") else hand.get("announced")
        for wrong in ("won_schwarz", "lost_schwarz"):
            try:
                read_play(hand["augen"], hand.get("schwarz"), wrong, announced)
            except EngineError:
                out.append(("result", wrong, "result"))  # not what these Augen give
    return out


@settings(max_examples=examples(600), deadline=None)
@given(declared(), st.data())
def test_skat_a_corrupted_field_is_refused_naming_it(hand: dict[str, Any], data: st.DataObject) -> None:
    name, value, field = data.draw(st.sampled_from(_corruptions(hand)))
    for preset in ("skat", "skat-seeger"):
        try:
            score({**hand, name: value}, preset)
        except EngineError as error:
            assert error.field == field, (name, value, error.message)
            assert error.message and error.code
        else:
            raise AssertionError(f"{name}={value!r} was accepted in {hand}")


def test_skat_kontra_and_ramsch_are_refused_without_their_options() -> None:
    for hand, field in (
        ({"game": "herz", "declarer": "Anna", "spitzen": 1, "augen": 70, "kontra": 1}, "kontra"),
        ({"game": "ramsch", "augen_by_player": {"Anna": 60, "Bert": 40, "Cilli": 20}}, "game"),
    ):
        try:
            score_hand_document({"ruleset": "skat", "seats": SEATS, **hand})
        except EngineError as error:
            assert error.field == field
        else:
            raise AssertionError(hand)


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-300, 300)
    | st.sampled_from(["kreuz", "grand", "null", "won", "Anna", "schwarz", ""])
    | hostile_text
    | huge_integers,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["Anna", "Bert", "x"]), inner),
    max_leaves=10,
)
FIELDS = st.fixed_dictionaries(
    {},
    optional={
        "game": st.sampled_from([*GRUNDWERTE, "null", "ramsch", "solo"]) | JSON,
        "declarer": st.sampled_from([*SEATS, OUT]) | JSON,
        "spitzen": st.integers(-1, 13) | JSON,
        "hand": st.booleans() | JSON,
        "ouvert": st.booleans() | JSON,
        "announced": st.sampled_from(["schneider", "schwarz", "x"]) | JSON,
        "augen": st.integers(-5, 125) | JSON,
        "schwarz": st.sampled_from(["declarer", "opponents", "x"]) | JSON,
        "result": st.sampled_from(["won", "won_schneider", "won_schwarz", "lost", "lost_schwarz", "x"]) | JSON,
        "bid": st.sampled_from([17, 18, 19, 23, 264, 265]) | JSON,
        "kontra": st.integers(-1, 3) | JSON,
        "augen_by_player": st.dictionaries(st.sampled_from(SEATS), st.integers(0, 120)) | JSON,
        "tricks_by_player": st.dictionaries(st.sampled_from(SEATS), st.integers(0, 10)) | JSON,
        "geschoben": st.integers(-1, 4) | JSON,
        "sitting_out": st.sampled_from([OUT, "Anna", ""]) | JSON,
        "extra_field": JSON,
    },
)


@settings(max_examples=examples(400), deadline=None)
@given(FIELDS, st.sampled_from(("skat", "skat-seeger")), st.integers(0, 2))
def test_skat_random_json_gives_a_result_or_the_error_object(raw: dict[str, Any], preset: str, bock: int) -> None:
    doc = {"ruleset": {"preset": preset, "options": HOUSE}, "seats": SEATS, "context": {"bock": bock}, **raw}
    try:
        result = score_hand_document(doc)
    except EngineError as error:
        assert error.message and error.code
        return
    assert set(SEATS) <= set(result["payouts"])
    if preset == "skat":
        assert sum(result["payouts"].values()) == 0


def test_skat_sampled_hands_are_valid() -> None:
    for options in ({}, HOUSE, {"spitzen_only_buben": True}):
        for preset in ("skat", "skat-seeger"):
            rules = load({"preset": preset, "options": options})
            rng = random.Random(f"{preset}{options}")
            for _ in range(2000):
                hand = skat_hand(rules, rng, tuple(SEATS))
                result = score_hand_document(
                    {"ruleset": {"preset": preset, "options": options}, "seats": SEATS, **hand}
                )
                assert list(result["payouts"]) == SEATS
