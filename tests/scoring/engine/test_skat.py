"""Skat (``../shared/rules/skat.md``, spec §2.4): every worked example of the rules page's §8 as a
named case under both presets at a table of three and of four, the readings of §2–§4 (Schneider
and Schwarz of either side, announcements, overbid games), the house rules of §7 (Kontra/Re, Bock,
Ramsch, only Buben as Spitzen), money per point, and every refusal with its field. The readings
are recorded in docs/rules/skat.md."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from scoring.engine.api import score_hand_document
from scoring.engine.core import EngineError
from scoring.engine.presets.skat import REIZWERTE

SEATS = ["Anna", "Bert", "Cilli"]
OUT = "Done"  # the dealer who sits out at a table of four


def score(
    hand: dict[str, Any],
    preset: str = "skat",
    options: dict[str, Any] | None = None,
    table: int = 3,
    bock: int = 0,
) -> dict[str, Any]:
    ruleset: Any = {"preset": preset, "options": options} if options else preset
    doc: dict[str, Any] = {"ruleset": ruleset, "seats": SEATS, **hand}
    if table == 4:
        doc["sitting_out"] = OUT
    if bock:
        doc["context"] = {"bock": bock}
    return score_hand_document(doc)


def refused(hand: dict[str, Any], preset: str = "skat", options: dict[str, Any] | None = None) -> EngineError:
    with pytest.raises(EngineError) as caught:
        score(hand, preset, options)
    return caught.value


def lines(result: dict[str, Any]) -> list[tuple[str, int | None]]:
    return [(line["label"], line.get("amount", line.get("factor"))) for line in result["lines"]]


def computed(result: dict[str, Any]) -> int:
    """The lines worked out: amounts add, factors multiply the sum so far."""
    total = 0
    for line in result["lines"]:
        if "factor" in line:
            total *= line["factor"]
        else:
            total += line.get("amount", 0)
    return total


# --- skat.md §8: the worked examples ----------------------------------------------------------


@dataclass(frozen=True)
class Example:
    name: str
    hand: dict[str, Any]
    value: int
    entry: int  # the list entry of the declarer (Anna)
    seeger: int  # her Seeger-Fabian points (the others get +40 / +30 when she lost)


EXAMPLES = [
    Example("kreuz_mit_2_won", dict(game="kreuz", spitzen=2, augen=75), 36, 36, 86),
    Example("kreuz_mit_2_hand_won", dict(game="kreuz", spitzen=2, hand=True, augen=75), 48, 48, 98),
    Example("grand_mit_4_won_schneider", dict(game="grand", spitzen=4, augen=95), 144, 144, 194),
    Example("karo_ohne_2_lost", dict(game="karo", spitzen=2, ohne=True, augen=50), 27, -54, -104),
    Example("null_ouvert_won", dict(game="null", ouvert=True, result="won"), 46, 46, 96),
    Example("null_ouvert_lost", dict(game="null", ouvert=True, result="lost"), 46, -92, -142),
    Example("null_ouvert_hand_lost", dict(game="null", ouvert=True, hand=True, result="lost"), 59, -118, -168),
    Example("bid_23_pik_ohne_1_overbid", dict(game="pik", spitzen=1, ohne=True, augen=80, bid=23), 33, -66, -116),
    Example(
        "grand_hand_schneider_angesagt_mit_4_opponents_reach_31",
        dict(game="grand", spitzen=4, hand=True, announced="schneider", augen=89),
        192,
        -384,
        -434,
    ),
    Example(
        "kreuz_ouvert_mit_2_won",
        dict(game="kreuz", spitzen=2, hand=True, ouvert=True, augen=120, schwarz="opponents"),
        108,
        108,
        158,
    ),
]


@pytest.mark.parametrize("table", [3, 4], ids=["table_of_3", "table_of_4"])
@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_skat_rules_page_example(example: Example, table: int) -> None:
    hand = {"declarer": "Anna", **example.hand}
    others = [p for p in [*SEATS, OUT][:table] if p != "Anna"]
    won = example.entry > 0

    listed = score(hand, "skat", table=table)
    assert (listed["value"], listed["list"], listed["won"]) == (example.value, {"Anna": example.entry}, won)
    assert listed["winner"] == ("declarer" if won else "opponents")
    # skat.md §5: the declarer receives the entry from each other player at the table.
    assert listed["payouts"] == {"Anna": (table - 1) * example.entry, **dict.fromkeys(others, -example.entry)}
    assert computed(listed) == example.entry  # every term of the entry is a line

    seeger = score(hand, "skat-seeger", table=table)
    assert (seeger["value"], seeger["list"]) == (example.value, {"Anna": example.entry})
    bonus = 0 if won else {3: 40, 4: 30}[table]
    assert seeger["payouts"] == {"Anna": example.seeger, **dict.fromkeys(others, bonus)}
    assert computed(seeger) == example.seeger


def test_skat_rules_page_example_lines_read_like_the_list() -> None:
    result = score({"game": "kreuz", "declarer": "Anna", "spitzen": 2, "hand": True, "augen": 91})
    assert lines(result) == [
        ("Grundwert Kreuz 12", None),
        ("mit 2", 24),
        ("Spiel", 12),
        ("Hand", 12),
        ("Schneider", 12),
    ]
    lost = score({"game": "karo", "declarer": "Anna", "spitzen": 2, "ohne": True, "augen": 50}, "skat-seeger")
    assert lines(lost) == [
        ("Grundwert Karo 9", None),
        ("ohne 2", 18),
        ("Spiel", 9),
        ("verloren ×2", -2),
        ("Seeger −50", -50),
        ("Gegenspieler je +40", None),
    ]
    won = score({"game": "grand", "declarer": "Anna", "spitzen": 1, "augen": 70}, "skat-seeger")
    assert lines(won)[-1] == ("Seeger +50", 50)
    overbid = score({"game": "pik", "declarer": "Anna", "spitzen": 1, "ohne": True, "augen": 80, "bid": 23})
    assert ("überreizt", 11) in lines(overbid) and overbid["overbid"] is True
    ouvert = score(
        {
            "game": "kreuz",
            "declarer": "Anna",
            "spitzen": 2,
            "hand": True,
            "ouvert": True,
            "augen": 120,
            "schwarz": "opponents",
        }
    )
    assert [label for label, _ in lines(ouvert)][2:] == [
        "Spiel",
        "Hand",
        "Schneider",
        "Schneider angesagt",
        "Schwarz",
        "Schwarz angesagt",
        "Ouvert",
    ]


# --- skat.md §2–§4: the readings --------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    name: str
    hand: dict[str, Any]
    value: int
    entry: int
    options: dict[str, Any] = field(default_factory=dict)
    bock: int = 0


CASES = [
    Case("60_augen_lose", dict(game="herz", spitzen=1, augen=60), 20, -40),
    Case("61_augen_win", dict(game="herz", spitzen=1, augen=61), 20, 20),
    Case("opponents_with_30_are_schneider", dict(game="herz", spitzen=1, augen=90), 30, 30),
    Case("opponents_with_31_are_not", dict(game="herz", spitzen=1, augen=89), 20, 20),
    Case("opponents_without_a_trick_schwarz", dict(game="herz", spitzen=1, augen=120, schwarz="opponents"), 40, 40),
    Case("120_augen_without_schwarz_is_schneider_only", dict(game="herz", spitzen=1, augen=120), 30, 30),
    # skat.md §2: "A declarer who is Schneider or Schwarz himself loses with those stages added."
    Case("declarer_schneider_himself", dict(game="kreuz", spitzen=1, augen=30), 36, -72),
    Case("declarer_schwarz_himself", dict(game="kreuz", spitzen=1, augen=10, schwarz="declarer"), 48, -96),
    Case("result_instead_of_augen_won", dict(game="pik", spitzen=3, result="won"), 44, 44),
    Case("result_won_schneider", dict(game="pik", spitzen=3, result="won_schneider"), 55, 55),
    Case("result_won_schwarz", dict(game="pik", spitzen=3, result="won_schwarz"), 66, 66),
    Case("result_lost_schneider", dict(game="pik", spitzen=3, result="lost_schneider"), 55, -110),
    Case("result_lost_schwarz", dict(game="pik", spitzen=3, result="lost_schwarz"), 66, -132),
    Case("augen_and_the_same_result", dict(game="pik", spitzen=3, augen=95, result="won_schneider"), 55, 55),
    Case(
        "the_result_tells_the_schwarz_beside_120_augen",
        dict(game="pik", spitzen=3, augen=120, result="won_schwarz"),
        66,
        66,
    ),
    Case(
        "the_result_tells_the_declarer_schwarz", dict(game="pik", spitzen=3, augen=0, result="lost_schwarz"), 66, -132
    ),
    Case("grand_ohne_4", dict(game="grand", spitzen=4, ohne=True, augen=70), 120, 120),
    # ISkO 5.2.5: an announced stage not reached loses the game in at least that stage.
    Case(
        "schneider_angesagt_reached", dict(game="herz", spitzen=1, hand=True, announced="schneider", augen=95), 50, 50
    ),
    Case(
        "schwarz_angesagt_only_schneider_reached",
        dict(game="herz", spitzen=1, hand=True, announced="schwarz", augen=100),
        70,
        -140,
    ),
    Case(
        "schneider_angesagt_and_schwarz_reached",
        dict(game="herz", spitzen=1, hand=True, announced="schneider", augen=120, schwarz="opponents"),
        60,
        60,
    ),
    Case("grand_ouvert_mit_4", dict(game="grand", spitzen=4, hand=True, ouvert=True, result="won_schwarz"), 264, 264),
    Case(
        "ouvert_not_schwarz_is_lost",
        dict(game="grand", spitzen=1, hand=True, ouvert=True, augen=119),
        192,
        -384,
    ),
    # skat.md §4: "A Herz game that reaches 30 on a bid of 36 is lost at 40, and on a bid of 40 at 40 too."
    Case("herz_30_on_a_bid_of_36_lost_at_40", dict(game="herz", spitzen=2, augen=80, bid=36), 40, -80),
    Case("herz_30_on_a_bid_of_40_lost_at_40", dict(game="herz", spitzen=2, augen=80, bid=40), 40, -80),
    Case("bid_reached_is_no_overbid", dict(game="herz", spitzen=2, augen=80, bid=30), 30, 30),
    Case("overbid_and_lost_on_augen", dict(game="herz", spitzen=2, augen=40, bid=36), 40, -80),
    Case("schneider_reached_covers_the_bid", dict(game="kreuz", spitzen=1, augen=91, bid=36), 36, 36),
    Case("null", dict(game="null", result="won"), 23, 23),
    Case("null_hand", dict(game="null", hand=True, result="lost"), 35, -70),
    Case("null_on_a_bid_it_reaches", dict(game="null", hand=True, result="won", bid=35), 35, 35),
    # skat.md §7: Kontra and Re double the value and so the list entry.
    Case("kontra", dict(game="herz", spitzen=1, augen=70, kontra=1), 40, 40, {"kontra_re": True}),
    Case("re", dict(game="herz", spitzen=1, augen=50, kontra=2), 80, -160, {"kontra_re": True}),
    Case("kontra_on_a_null", dict(game="null", result="lost", kontra=1), 46, -92, {"kontra_re": True}),
    Case("bock", dict(game="herz", spitzen=1, augen=70), 40, 40, {"bock": True}, bock=1),
    Case(
        "two_bock_and_re",
        dict(game="herz", spitzen=1, augen=70, kontra=2),
        320,
        320,
        {"bock": ["6060"], "kontra_re": True},
        bock=2,
    ),
    Case("only_buben_as_spitzen", dict(game="kreuz", spitzen=4, augen=70), 60, 60, {"spitzen_only_buben": True}),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_skat_rule(case: Case) -> None:
    result = score({"declarer": "Anna", **case.hand}, options=case.options, bock=case.bock)
    assert (result["value"], result["list"]) == (case.value, {"Anna": case.entry})
    assert result["payouts"] == {"Anna": 2 * case.entry, "Bert": -case.entry, "Cilli": -case.entry}
    assert computed(result) == case.entry


def test_kontra_and_bock_leave_the_seeger_bonus_alone() -> None:
    hand = {"game": "herz", "declarer": "Anna", "spitzen": 1, "augen": 50, "kontra": 2}
    result = score(hand, "skat-seeger", {"kontra_re": True, "bock": True}, bock=1)
    assert result["list"] == {"Anna": -2 * 20 * 8}
    assert result["payouts"] == {"Anna": -320 - 50, "Bert": 40, "Cilli": 40}
    assert lines(result)[-5:] == [
        ("Re ×2", 2),
        ("Bock ×2", 2),
        ("verloren ×2", -2),
        ("Seeger −50", -50),
        ("Gegenspieler je +40", None),
    ]


def test_money_per_point_multiplies_the_payouts_only() -> None:
    hand = {"game": "kreuz", "declarer": "Anna", "spitzen": 2, "augen": 75}
    result = score(hand, options={"cents_per_point": 10}, table=4)
    assert result["unit"] == "cent"
    assert (result["value"], result["list"]) == (36, {"Anna": 36})
    assert result["payouts"] == {"Anna": 1080, "Bert": -360, "Cilli": -360, "Done": -360}
    assert score(hand)["unit"] == "point"
    assert score(hand, options={"cents_per_point": None})["unit"] == "point"


def test_a_hand_under_a_bockrunde_counts_double() -> None:
    doc = {
        "ruleset": {"preset": "skat", "options": {"bock": ["hundred"]}},
        "seats": SEATS,
        "game": "grand",
        "declarer": "Anna",
        "spitzen": 1,
        "augen": 70,
        "context": {"round": "bockrunde"},
    }
    assert score_hand_document(doc)["list"] == {"Anna": 96}


# --- skat.md §7: Ramsch ---------------------------------------------------------------------

RAMSCH = {"ramsch": True}


def ramsch(augen: list[int], tricks: list[int] | None = None, **more: Any) -> dict[str, Any]:
    hand: dict[str, Any] = {"game": "ramsch", "augen_by_player": dict(zip(SEATS, augen, strict=True)), **more}
    if tricks is not None:
        hand["tricks_by_player"] = dict(zip(SEATS, tricks, strict=True))
    return hand


@pytest.mark.parametrize(
    ("name", "hand", "options", "written", "winner"),
    [
        ("most_augen_written_minus", ramsch([50, 40, 30], [4, 3, 3]), RAMSCH, {"Anna": -50}, ["Bert", "Cilli"]),
        ("equal_most_both_written", ramsch([50, 50, 20], [4, 4, 2]), RAMSCH, {"Anna": -50, "Bert": -50}, ["Cilli"]),
        ("jungfrau_doubles", ramsch([70, 50, 0], [6, 4, 0]), RAMSCH, {"Anna": -140}, ["Bert", "Cilli"]),
        (
            "jungfrau_option_off",
            ramsch([70, 50, 0], [6, 4, 0]),
            {**RAMSCH, "ramsch_jungfrau": False},
            {"Anna": -70},
            ["Bert", "Cilli"],
        ),
        ("durchmarsch", ramsch([120, 0, 0], [10, 0, 0]), RAMSCH, {"Anna": 120}, ["Anna"]),
        (
            "durchmarsch_option_off_two_jungfrauen",
            ramsch([120, 0, 0], [10, 0, 0]),
            {**RAMSCH, "ramsch_durchmarsch": False},
            {"Anna": -480},
            ["Bert", "Cilli"],
        ),
        ("without_tricks_no_augen_is_no_trick", ramsch([70, 50, 0]), RAMSCH, {"Anna": -140}, ["Bert", "Cilli"]),
        ("without_tricks_120_is_durchmarsch", ramsch([0, 120, 0]), RAMSCH, {"Bert": 120}, ["Bert"]),
        (
            "schieberamsch_doubles_per_pass",
            ramsch([50, 40, 30], geschoben=2),
            {**RAMSCH, "schieberamsch": True},
            {"Anna": -200},
            ["Bert", "Cilli"],
        ),
    ],
)
def test_skat_ramsch(name: str, hand: dict[str, Any], options: dict[str, Any], written: dict, winner: list) -> None:
    result = score(hand, options=options)
    assert result["list"] == written and result["winner"] == winner
    assert result["won"] is (winner == list(written))  # only a Durchmarsch writes its winner
    total = sum(written.values())
    assert result["payouts"] == {p: 3 * written.get(p, 0) - total for p in SEATS}  # skat.md §5
    assert computed(result) == next(iter(written.values()))
    seeger = score(hand, "skat-seeger", options)
    assert seeger["payouts"] == {p: written.get(p, 0) for p in SEATS}  # nobody declared it: no 50/40


# --- refusals, each naming its field -----------------------------------------------------------

KREUZ = {"game": "kreuz", "declarer": "Anna", "spitzen": 2, "augen": 70}


@pytest.mark.parametrize(
    ("name", "hand", "options", "field"),
    [
        ("announcement_without_hand", {**KREUZ, "announced": "schneider"}, None, "announced"),
        ("ouvert_suit_game_without_hand", {**KREUZ, "ouvert": True}, None, "ouvert"),
        ("ouvert_grand_without_hand", {**KREUZ, "game": "grand", "ouvert": True}, None, "ouvert"),
        (
            "ouvert_with_schneider_announced",
            {**KREUZ, "hand": True, "ouvert": True, "announced": "schneider"},
            None,
            "announced",
        ),
        ("null_below_the_bid", {"game": "null", "declarer": "Anna", "result": "won", "bid": 24}, None, "bid"),
        (
            "null_ouvert_below_the_bid",
            {"game": "null", "declarer": "Anna", "ouvert": True, "result": "won", "bid": 48},
            None,
            "bid",
        ),
        ("twelve_spitzen", {**KREUZ, "spitzen": 12}, None, "spitzen"),
        ("five_spitzen_in_a_grand", {**KREUZ, "game": "grand", "spitzen": 5}, None, "spitzen"),
        ("five_spitzen_with_only_buben", {**KREUZ, "spitzen": 5}, {"spitzen_only_buben": True}, "spitzen"),
        ("no_spitzen", {**KREUZ, "spitzen": 0}, None, "spitzen"),
        ("spitzen_missing", {"game": "kreuz", "declarer": "Anna", "augen": 70}, None, "spitzen"),
        ("121_augen", {**KREUZ, "augen": 121}, None, "augen"),
        ("neither_augen_nor_result", {"game": "kreuz", "declarer": "Anna", "spitzen": 2}, None, "augen"),
        ("bid_of_17", {**KREUZ, "bid": 17}, None, "bid"),
        ("bid_not_a_reizwert", {**KREUZ, "bid": 19}, None, "bid"),
        ("bid_above_264", {**KREUZ, "bid": 270}, None, "bid"),
        ("result_and_augen_disagree", {**KREUZ, "result": "lost"}, None, "result"),
        ("result_misses_the_schneider", {**KREUZ, "augen": 95, "result": "won"}, None, "result"),
        ("result_schwarz_with_augen_left", {**KREUZ, "augen": 110, "result": "won_schwarz"}, None, "result"),
        (
            "result_won_against_an_announcement",
            {**KREUZ, "augen": None, "hand": True, "announced": "schneider", "result": "won"},
            None,
            "result",
        ),
        ("schwarz_with_augen_left", {**KREUZ, "augen": 100, "schwarz": "opponents"}, None, "schwarz"),
        ("declarer_schwarz_with_many_augen", {**KREUZ, "augen": 40, "schwarz": "declarer"}, None, "schwarz"),
        (
            "schwarz_beside_a_result_without_it",
            {**KREUZ, "augen": None, "result": "won", "schwarz": "opponents"},
            None,
            "schwarz",
        ),
        ("spitzen_for_null", {"game": "null", "declarer": "Anna", "spitzen": 2, "result": "won"}, None, "spitzen"),
        ("augen_for_null", {"game": "null", "declarer": "Anna", "augen": 70, "result": "won"}, None, "augen"),
        (
            "announcement_for_null",
            {"game": "null", "declarer": "Anna", "announced": "schneider", "result": "won"},
            None,
            "announced",
        ),
        ("null_result_with_schneider", {"game": "null", "declarer": "Anna", "result": "won_schneider"}, None, "result"),
        ("laufende_of_schafkopf", {**KREUZ, "laufende": 3}, None, "laufende"),
        ("partner_of_schafkopf", {**KREUZ, "partner": "Bert"}, None, "partner"),
        ("suit_of_schafkopf", {**KREUZ, "suit": "eichel"}, None, "suit"),
        ("re_side_of_doppelkopf", {**KREUZ, "re": ["Anna"]}, None, "re"),
        ("tricks_instead_of_schwarz", {**KREUZ, "tricks": 10}, None, "tricks"),
        ("unknown_game", {**KREUZ, "game": "eichel"}, None, "game"),
        ("declarer_missing", {"game": "kreuz", "spitzen": 2, "augen": 70}, None, "declarer"),
        ("declarer_not_seated", {**KREUZ, "declarer": "Done"}, None, "declarer"),
        ("ramsch_without_the_option", ramsch([50, 40, 30]), None, "game"),
        ("ramsch_augen_not_120", ramsch([50, 40, 29]), RAMSCH, "augen_by_player"),
        ("ramsch_augen_without_a_trick", ramsch([50, 40, 30], [5, 5, 0]), RAMSCH, "augen_by_player.Cilli"),
        ("ramsch_with_a_declarer", {**ramsch([50, 40, 30]), "declarer": "Anna"}, RAMSCH, "declarer"),
        ("geschoben_without_schieberamsch", ramsch([50, 40, 30], geschoben=1), RAMSCH, "geschoben"),
        ("kontra_without_the_option", {**KREUZ, "kontra": 1}, None, "kontra"),
        ("kontra_beyond_re", {**KREUZ, "kontra": 3}, {"kontra_re": True}, "kontra"),
        ("sitting_out_plays", {**KREUZ, "sitting_out": "Bert"}, None, "sitting_out"),
    ],
)
def test_skat_refuses(name: str, hand: dict[str, Any], options: dict[str, Any] | None, field: str) -> None:
    hand = {key: value for key, value in hand.items() if value is not None}
    for preset in ("skat", "skat-seeger"):
        error = refused(hand, preset, options)
        assert error.field == field, (preset, error.message)
        assert error.message and error.code


@pytest.mark.parametrize(
    ("doc", "field"),
    [
        ({"seats": ["Anna", "Bert", "Cilli", "Done"]}, "seats"),
        ({"context": {"bock": 1}}, "context.bock"),
        ({"context": {"round": "mungorunde"}}, "context.round"),
        ({"ruleset": {"preset": "skat", "options": {"cents_per_point": 0}}}, "ruleset.options.cents_per_point"),
        ({"ruleset": {"preset": "skat", "options": {"cents_per_point": 101}}}, "ruleset.options.cents_per_point"),
        ({"ruleset": {"preset": "skat-seeger", "options": {"cents_per_point": 10}}}, "ruleset.options.cents_per_point"),
        ({"ruleset": {"preset": "skat", "options": {"bock": ["3090"]}}}, "ruleset.options.bock"),
        ({"ruleset": {"preset": "skat", "options": {"bock_triggers": ["6060"]}}}, "ruleset.options.bock_triggers"),
    ],
)
def test_skat_refuses_a_document_naming_its_field(doc: dict[str, Any], field: str) -> None:
    with pytest.raises(EngineError) as caught:
        score_hand_document({"ruleset": "skat", "seats": SEATS, **KREUZ, **doc})
    assert caught.value.field == field


def test_reizwerte_are_every_value_a_game_can_have() -> None:
    assert REIZWERTE[:20] == (18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46, 48, 50, 54, 55, 59, 60)
    assert REIZWERTE[-1] == 264 and 17 not in REIZWERTE and 19 not in REIZWERTE
    for bid in (18, 23, 59, 216, 264):
        assert "error" not in score({**KREUZ, "bid": bid, "augen": 120, "schwarz": "opponents"})
