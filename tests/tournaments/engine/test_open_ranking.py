"""The open tournament's ranking (spec §5 ``rank_open``): tables by hands and by totals, the
tie-breaks soli, best_round and lot, shared places, round winners and prizes; a property test
recounts random tournaments given by totals. No database."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.core import EngineError
from tests.properties import examples
from tests.tournaments.open_recount import assert_recounted
from tournaments.engine.open_ranking import rank_open_document
from tournaments.engine.plan import plan_document

NAMES = ["Anna", "Bert", "Cilli", "Done", "Emil", "Franz", "Gabi", "Hans"]


def players(count: int = 8) -> list[dict[str, Any]]:
    return [{"number": n, "name": NAMES[n - 1] if n <= len(NAMES) else f"Spieler {n}"} for n in range(1, count + 1)]


def sheet(totals: dict[int, int], soli: dict[int, int] | None = None) -> dict[str, Any]:
    """A table given by the sheet's final figures."""
    soli = soli or {}
    return {
        "players": list(totals),
        "totals": {str(n): v for n, v in totals.items()},
        "soli": {str(n): soli.get(n, 0) for n in totals},
    }


def doc(*rounds: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"ruleset": "standard", "players": players(), "rounds": [{"tables": t} for t in rounds], **extra}


def rows(result: dict[str, Any]) -> list[tuple[int, int, str | None]]:
    return [(row["place"], row["number"], row["decided_by"]) for row in result["ranking"]]


def test_a_hands_table_and_a_totals_table_in_one_round() -> None:
    """The hands table is scored like score_session (standard: Solo 50 from each, Rufspiel 20),
    the first player dealing first; its soli are the games declared alone, won or lost."""
    hands = {
        "players": [1, 2, 3, 4],
        "hands": [
            {"game": "solo", "declarer": "Anna", "suit": "herz", "augen": 70},  # +150 / −50 each
            {"game": "wenz", "declarer": "Bert", "augen": 40},  # lost: −150 / +50 each
            {"game": "rufspiel", "declarer": "Cilli", "partner": "Done", "called": "eichel", "augen": 80},
        ],
    }
    result = rank_open_document(doc([hands, sheet({5: 30, 6: -10, 7: -10, 8: -10}, {5: 2})]))
    by_number = {row["number"]: row for row in result["ranking"]}
    assert result["unit"] == "cent"
    assert {n: by_number[n]["points"] for n in range(1, 9)} == {
        1: 150 + 50 - 20,
        2: -50 - 150 - 20,
        3: -50 + 50 + 20,
        4: -50 + 50 + 20,
        5: 30,
        6: -10,
        7: -10,
        8: -10,
    }
    assert {n: by_number[n]["soli"] for n in range(1, 9)} == {1: 1, 2: 1, 3: 0, 4: 0, 5: 2, 6: 0, 7: 0, 8: 0}
    assert by_number[1]["rounds"] == [180]


def test_equal_points_are_decided_by_soli_then_best_round() -> None:
    round_1 = [sheet({1: 20, 2: 20, 3: -20, 4: -20}, {1: 1, 2: 2}), sheet({5: 40, 6: 0, 7: -20, 8: -20})]
    round_2 = [sheet({1: 10, 2: 10, 5: -30, 6: 10}), sheet({3: 0, 4: 0, 7: 0, 8: 0})]
    result = rank_open_document(doc(round_1, round_2, tie_breaks=["soli", "best_round"]))
    # 2 and 1 on 30 points: 2 has more soli. 5 and 6 on 10 with no soli: 5's best round is 40.
    assert rows(result)[:4] == [(1, 2, None), (2, 1, "soli"), (3, 5, None), (4, 6, "best_round")]


def test_lot_decides_reproducibly_from_the_seed() -> None:
    """All eight on 0 with nothing else apart: the seeded shuffle of the start numbers orders them."""
    tables = [sheet({1: 0, 2: 0, 3: 0, 4: 0}), sheet({5: 0, 6: 0, 7: 0, 8: 0})]
    result = rank_open_document(doc(tables, seed=7))
    drawn = list(range(1, 9))
    random.Random(7).shuffle(drawn)  # the documented procedure
    assert [row["number"] for row in result["ranking"]] == drawn
    assert [row["decided_by"] for row in result["ranking"]] == [None] + ["lot"] * 7
    assert [row["place"] for row in result["ranking"]] == list(range(1, 9))
    assert result["seed"] == 7 and rank_open_document(doc(tables, seed=7)) == result


def test_without_lot_equal_players_share_a_place_and_the_next_skips() -> None:
    tables = [sheet({1: 30, 2: 10, 3: 10, 4: -50}), sheet({5: 0, 6: 0, 7: 0, 8: 0})]
    result = rank_open_document(doc(tables, tie_breaks=["soli"]))
    assert rows(result) == [
        (1, 1, None),
        (2, 2, None),
        (2, 3, "geteilt"),
        (4, 5, None),
        (4, 6, "geteilt"),
        (4, 7, "geteilt"),
        (4, 8, "geteilt"),
        (8, 4, None),
    ]


def test_round_winners_list_every_player_tied_on_top_and_only_those_who_played() -> None:
    round_1 = [sheet({1: 40, 2: -40, 3: 0, 4: 0}), sheet({5: 40, 6: -40, 7: 0, 8: 0})]
    round_2 = [sheet({1: -10, 3: 10, 5: 0, 7: 0})]  # 2, 4, 6 and 8 sit out: they score nothing
    result = rank_open_document(doc(round_1, round_2))
    assert [(w["round"], w["number"], w["points"]) for w in result["round_winners"]] == [
        (1, 1, 40),
        (1, 5, 40),
        (2, 3, 10),
    ]
    assert {row["number"]: row["rounds"] for row in result["ranking"]}[2] == [-40, None]


def test_a_round_not_played_is_null_and_the_best_round_is_among_those_played() -> None:
    """Spec §5, additions of 2026-11-28 (issue 31 §5): 9 arrives late (−15, −7) and ties 8 on
    −22; 8's best round is the 0 of round 1, 9's the −7 of the rounds he played, so 8 ranks
    higher (before, 9's absent round counted 0 and they shared the place). 10 registered and never
    sat: nothing in every round, below everyone on 0 who played a round."""
    round_1 = [sheet({1: 10, 2: -10, 3: 0, 4: 0}), sheet({5: 0, 6: 0, 7: 0, 8: 0})]
    round_2 = [sheet({1: 5, 2: 5, 3: 5, 9: -15}), sheet({4: 15, 5: 0, 6: 0, 7: 0, 8: -15})]
    round_3 = [sheet({1: 7, 2: 0, 3: 0, 9: -7}), sheet({4: 7, 5: 0, 6: 0, 7: 0, 8: -7})]
    result = rank_open_document({**doc(round_1, round_2, round_3, tie_breaks=["best_round"]), "players": players(10)})
    by_number = {row["number"]: row for row in result["ranking"]}
    assert by_number[9]["rounds"] == [None, -15, -7] and by_number[9]["points"] == -22
    assert by_number[10]["rounds"] == [None, None, None] and by_number[10]["points"] == 0
    assert rows(result) == [
        (1, 4, None),
        (2, 1, "best_round"),
        (3, 3, None),
        (4, 5, None),
        (4, 6, "geteilt"),
        (4, 7, "geteilt"),
        (7, 10, "best_round"),
        (8, 2, None),
        (9, 8, None),
        (10, 9, "best_round"),
    ]
    assert [(w["round"], w["number"]) for w in result["round_winners"]] == [(1, 1), (2, 4), (3, 1), (3, 4)]


HANDS = {
    "players": [1, 2, 3, 4],
    "hands": [
        {"game": "solo", "declarer": "Anna", "suit": "herz", "augen": 70},  # won
        {"game": "wenz", "declarer": "Bert", "augen": 40},  # lost
        {"game": "solo", "declarer": "Anna", "suit": "gras", "augen": 30},  # lost
    ],
}


@pytest.mark.parametrize(("soli_count", "soli"), [(None, [2, 1, 5]), ("declared", [2, 1, 5]), ("won", [1, 0, 5])])
def test_soli_count_counts_the_solos_declared_or_only_those_won(soli_count: str | None, soli: list[int]) -> None:
    """Spec §5 ``soli_count``: a hands table counts every game declared alone (the default) or
    only the won ones; a totals table's Soli are the sheet's figures either way."""
    extra = {} if soli_count is None else {"soli_count": soli_count}
    result = rank_open_document(doc([HANDS, sheet({5: 30, 6: -10, 7: -10, 8: -10}, {5: 5})], **extra))
    by_number = {row["number"]: row for row in result["ranking"]}
    assert [by_number[n]["soli"] for n in (1, 2, 5)] == soli
    assert by_number[1]["points"] == 150 + 50 - 180  # the lost Solo is Schneider (60 to each); Soli change no points


def test_prizes_split_a_shared_place_and_round_down() -> None:
    """Pot 100.01 €: 50 % → 5000, 30 % → 3000, 20 % → 2000 (rounded down from 2000.2). Places 2
    and 3 are shared by two: (3000 + 2000) / 2 each; place 4 gets nothing and is not listed."""
    tables = [sheet({1: 30, 2: 10, 3: 10, 4: -50}), sheet({5: 0, 6: 0, 7: 0, 8: 0})]
    result = rank_open_document(doc(tables, tie_breaks=[], prizes={"pot": 10001, "shares": [50, 30, 20]}))
    assert result["prizes"] == [
        {"place": 1, "number": 1, "amount": 5000},
        {"place": 2, "number": 2, "amount": 2500},
        {"place": 2, "number": 3, "amount": 2500},
    ]
    three = [sheet({1: 0, 2: 0, 3: 0, 4: 0}), sheet({5: 10, 6: -10, 7: 0, 8: 0})]
    result = rank_open_document(doc(three, tie_breaks=[], prizes={"pot": 1000, "shares": [10, 10, 5]}))
    # 5 alone first (100); 1, 2, 3, 4, 7, 8 share place 2: (100 + 50 + 0 …) / 6 = 25 each.
    assert [(p["place"], p["amount"]) for p in result["prizes"]] == [(1, 100)] + [(2, 25)] * 6


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        ({"rounds": None}, "missing_field", "rounds"),
        ({"ruleset": "tarock"}, "unknown_preset", "ruleset"),
        (
            {"players": [{"number": 1, "name": "Anna"}, {"number": 1, "name": "Bert"}]},
            "invalid_value",
            "players[1].number",
        ),
        ({"tie_breaks": ["soli", "alter"]}, "invalid_value", "tie_breaks[1]"),
        ({"seed": -1}, "out_of_range", "seed"),
        ({"soli_count": "angesagt"}, "invalid_value", "soli_count"),
        ({"prizes": {"pot": 100, "shares": [60, 50]}}, "invalid_value", "prizes.shares"),
        ({"rounds": [{"tables": [sheet({1: 10, 2: 0, 3: 0, 4: 0})]}]}, "inconsistent", "rounds[0].tables[0].totals"),
        (
            {"rounds": [{"tables": [{"players": [1, 2, 3, 4], "totals": {"1": 0, "2": 0, "3": 0, "5": 0}}]}]},
            "invalid_value",
            "rounds[0].tables[0].totals.5",
        ),
        (
            {"rounds": [{"tables": [{"players": [1, 2, 3, 4], "totals": {"1": 0, "2": 0, "3": 0, "4": 0}}]}]},
            "missing_field",
            "rounds[0].tables[0].soli",
        ),
        (
            {"rounds": [{"tables": [sheet({1: 0, 2: 0, 3: 0, 4: 0}), sheet({4: 0, 5: 0, 6: 0, 7: 0})]}]},
            "invalid_value",
            "rounds[0].tables[1].players[0]",
        ),
        ({"rounds": [{"tables": [sheet({1: 0, 2: 0, 3: 0})]}]}, "invalid_value", "rounds[0].tables[0].players"),
        (
            {"rounds": [{"tables": [{"players": [1, 2, 3, 4], "hands": [{"game": "solo", "declarer": "Emil"}]}]}]},
            "invalid_value",
            "rounds[0].tables[0].hands[0].declarer",
        ),
    ],
)
def test_invalid_input_names_its_field(change: dict[str, Any], code: str, field: str) -> None:
    with pytest.raises(EngineError) as caught:
        rank_open_document({**doc([sheet({1: 0, 2: 0, 3: 0, 4: 0})]), **change})
    assert (caught.value.code, caught.value.field) == (code, field)


def test_a_stock_makes_the_totals_no_longer_zero_sum() -> None:
    stock = {"preset": "standard", "options": {"stock": "anhang_c"}}
    result = rank_open_document({**doc([sheet({1: 10, 2: 0, 3: 0, 4: -50})]), "ruleset": stock})
    assert result["ranking"][0]["points"] == 10


def test_a_drawn_tournament_of_300_players_ranks_by_totals() -> None:
    """plan_tournament's 300 × 3 draw (everyone once per round) feeds rank_open."""
    plan = plan_document(300, 3, seed=1)  # what plan_tournament --players 300 --partien 3 prints
    for partie in plan["partien"]:
        assert sorted(n for table in partie for n in table) == list(range(1, 301))
        assert {len(table) for table in partie} == {4}
    rng = random.Random(3)
    rounds = []
    for partie in plan["partien"]:
        tables = []
        for table in partie:
            values = [rng.randrange(-100, 100) for _ in table[1:]]
            tables.append(sheet(dict(zip(table, [-sum(values), *values], strict=True))))
        rounds.append(tables)
    result = rank_open_document({**doc(*rounds), "players": players(300)})
    assert len(result["ranking"]) == 300 and result["ranking"][0]["place"] == 1


@st.composite
def tournaments(draw: st.DrawFn) -> dict[str, Any]:
    count = draw(st.sampled_from([8, 9, 12]))
    rounds = draw(st.integers(1, 3))
    rng = random.Random(draw(st.integers(0, 1000)))
    small = st.integers(-3, 3)  # few values: many ties for the tie-breaks to decide
    out = []
    for _ in range(rounds):
        numbers = list(range(1, count + 1))
        rng.shuffle(numbers)
        tables = []  # with 9 players the last one drawn sits out the round
        for start in range(0, len(numbers) - len(numbers) % 4, 4):
            table = numbers[start : start + 4]
            values = [draw(small) * 10 for _ in table[1:]]
            totals = dict(zip(table, [-sum(values), *values], strict=True))
            tables.append(sheet(totals, {n: draw(st.integers(0, 2)) for n in table}))
        out.append({"tables": tables})
    tie_breaks = draw(
        st.permutations(["soli", "best_round", "lot"]).flatmap(lambda p: st.integers(0, 3).map(lambda k: p[:k]))
    )
    return {
        "ruleset": "standard",
        "players": players(count),
        "rounds": out,
        "tie_breaks": list(tie_breaks),
        "seed": draw(st.integers(0, 99)),
    }


@settings(max_examples=examples(400), deadline=None)
@given(tournaments())
def test_the_ranking_recounts_from_the_totals(tournament: dict[str, Any]) -> None:
    result = rank_open_document(tournament)
    points: dict[int, list[int | None]] = {
        p["number"]: [None] * len(tournament["rounds"]) for p in tournament["players"]
    }
    soli = dict.fromkeys(points, 0)
    for r, round_ in enumerate(tournament["rounds"]):
        for table in round_["tables"]:
            assert sum(table["totals"].values()) == 0  # zero-sum, as the engine demands
            for key, value in table["totals"].items():
                points[int(key)][r] = value
                soli[int(key)] += table["soli"][key]
    ranking = result["ranking"]
    assert sum(row["points"] for row in ranking) == 0
    assert_recounted(ranking, points, soli, tournament["tie_breaks"], tournament["seed"])


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**15), 10**15) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=6,
)
PATHS = [
    ("ruleset",),
    ("players",),
    ("players", 0),
    ("players", 0, "number"),
    ("players", 1, "name"),
    ("rounds",),
    ("rounds", 0),
    ("rounds", 0, "tables"),
    ("rounds", 0, "tables", 0),
    ("rounds", 0, "tables", 0, "players"),
    ("rounds", 0, "tables", 0, "players", 2),
    ("rounds", 0, "tables", 0, "hands"),
    ("rounds", 0, "tables", 0, "hands", 0),
    ("rounds", 0, "tables", 0, "hands", 0, "declarer"),
    ("rounds", 0, "tables", 1, "totals"),
    ("rounds", 0, "tables", 1, "totals", "5"),
    ("rounds", 0, "tables", 1, "soli"),
    ("rounds", 0, "tables", 1, "soli", "6"),
    ("tie_breaks",),
    ("tie_breaks", 0),
    ("seed",),
    ("prizes",),
    ("prizes", "pot"),
    ("prizes", "shares"),
    ("prizes", "shares", 0),
]


@settings(max_examples=examples(200), deadline=None)
@given(path=st.sampled_from(PATHS), value=JSON)
def test_any_value_anywhere_is_ranked_or_refused_with_its_field(path: tuple[Any, ...], value: Any) -> None:
    """Never anything but a result or EngineError (the command turns that into exit 2)."""
    hands = {"players": [1, 2, 3, 4], "hands": [{"game": "solo", "declarer": "Anna", "suit": "herz", "augen": 70}]}
    tournament = doc([hands, sheet({5: 30, 6: -10, 7: -10, 8: -10})], prizes={"pot": 1000, "shares": [50, 30]}, seed=1)
    tournament["tie_breaks"] = ["soli", "lot"]
    node: Any = tournament
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    try:
        result = rank_open_document(tournament)
    except EngineError as error:
        assert error.message and error.code
    else:
        assert len(result["ranking"]) == len(tournament["players"])
