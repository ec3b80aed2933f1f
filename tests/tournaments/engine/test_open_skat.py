"""The Preisskat's ranking (spec §5 additions, skat.md §6): ``rank_open`` with ``skat-seeger``,
tables of three and four given by ``hands`` or by the list's figures, the Seeger-Fabian score,
the tie-breaks won, lost, best_round and lot, rounds not played, prizes, and every refusal with
its field; a property test ranks random Skat tables by their hands and again by the figures their
lists show, and gets the same. No database."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import registry
from scoring.engine.core import EngineError
from scoring.engine.presets.skat_samples import skat_hand
from scoring.engine.session import advance, score_session_document, start
from tests.properties import examples
from tournaments.engine.open_rank import rank_open_document

NAMES = ["Anna", "Bert", "Cilli", "Done", "Emil", "Franz", "Gabi"]


def players(count: int = 7) -> list[dict[str, Any]]:
    return [{"number": n, "name": NAMES[n - 1]} for n in range(1, count + 1)]


def figures(points: dict[int, int], won: dict[int, int], lost: dict[int, int]) -> dict[str, Any]:
    """A table given by its list's figures: Spielpunkte, won and lost games per start number."""
    return {
        "players": list(points),
        "points": {str(n): v for n, v in points.items()},
        "won": {str(n): won[n] for n in points},
        "lost": {str(n): lost[n] for n in points},
    }


def doc(*rounds: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"ruleset": "skat-seeger", "players": players(), "rounds": [{"tables": t} for t in rounds], **extra}


def rows(result: dict[str, Any]) -> list[tuple[int, int, str | None]]:
    return [(row["place"], row["number"], row["decided_by"]) for row in result["ranking"]]


def test_preisskat_figures_at_four_and_at_three() -> None:
    four = figures({1: 300, 2: -50, 3: 120, 4: 0}, {1: 6, 2: 1, 3: 4, 4: 0}, {1: 1, 2: 3, 3: 0, 4: 2})
    three = figures({5: 200, 6: -100, 7: 40}, {5: 5, 6: 2, 7: 3}, {5: 1, 6: 3, 7: 0})
    result = rank_open_document(doc([four, three]))
    by_number = {row["number"]: row for row in result["ranking"]}
    # points + 50 × (won − lost) + 30 (four) or 40 (three) × the others' lost games
    assert {n: by_number[n]["points"] for n in range(1, 8)} == {
        1: 300 + 50 * 5 + 30 * 5,
        2: -50 - 100 + 30 * 3,
        3: 120 + 200 + 30 * 6,
        4: 0 - 100 + 30 * 4,
        5: 200 + 200 + 40 * 3,
        6: -100 - 50 + 40 * 1,
        7: 40 + 150 + 40 * 4,
    }
    assert {n: (by_number[n]["won"], by_number[n]["lost"]) for n in (1, 6)} == {1: (6, 1), 6: (2, 3)}
    assert all("soli" not in row for row in result["ranking"])
    assert result["tie_breaks"] == ["won", "lost", "lot"] and result["unit"] == "point"
    assert result["round_winners"] == [{"round": 1, "number": 1, "name": "Anna", "points": 700}]


def test_preisskat_a_table_by_hands_is_scored_like_score_session() -> None:
    hands = [
        {"game": "kreuz", "declarer": "Bert", "spitzen": 2, "augen": 75},  # Anna deals and sits out
        {"game": "karo", "declarer": "Cilli", "spitzen": 2, "ohne": True, "augen": 50},  # Bert sits out
    ]
    three = [
        {"game": "grand", "declarer": "Emil", "spitzen": 1, "augen": 80},
        {"game": "null", "declarer": "Franz", "result": "lost"},
    ]
    result = rank_open_document(
        doc([{"players": [1, 2, 3, 4], "hands": hands}, {"players": [5, 6, 7], "hands": three}])
    )
    by_number = {row["number"]: row for row in result["ranking"]}
    assert {n: by_number[n]["points"] for n in range(1, 8)} == {
        1: 30,
        2: 36 + 50 + 30,
        3: -54 - 50,
        4: 30,
        5: 48 + 50 + 40,
        6: -46 - 50,
        7: 40,
    }
    assert (by_number[3]["won"], by_number[3]["lost"]) == (0, 1)


def test_preisskat_ties_are_decided_by_won_then_lost_then_lot() -> None:
    rest = figures({5: 0, 6: 0, 7: 0}, {5: 0, 6: 0, 7: 0}, {5: 0, 6: 0, 7: 0})
    by_won = figures({1: 160, 2: 60, 3: 0, 4: 0}, {1: 2, 2: 4, 3: 0, 4: 0}, {1: 0, 2: 0, 3: 1, 4: 0})
    # 1: 160 + 100 + 30 = 290; 2: 60 + 200 + 30 = 290 → 2 has more won games.
    assert rows(rank_open_document(doc([by_won, rest])))[:2] == [(1, 2, None), (2, 1, "won")]
    by_lost = figures({1: 0, 2: 80, 3: 0, 4: 0}, {1: 3, 2: 3, 3: 0, 4: 0}, {1: 0, 2: 1, 3: 0, 4: 0})
    # 1: 0 + 150 + 30 = 180; 2: 80 + 100 = 180; both won 3 → 1 lost fewer.
    assert rows(rank_open_document(doc([by_lost, rest])))[:2] == [(1, 1, None), (2, 2, "lost")]
    by_lot = figures({1: 0, 2: 0, 3: 50, 4: 50}, {1: 0, 2: 0, 3: 1, 4: 1}, {1: 0, 2: 0, 3: 0, 4: 0})
    result = rank_open_document(doc([by_lot, rest], seed=3))
    assert [row["decided_by"] for row in result["ranking"][:2]] == [None, "lot"]
    assert {row["number"] for row in result["ranking"][:2]} == {3, 4}
    assert rank_open_document(doc([by_lot, rest], seed=3)) == result  # the same seed, the same lot


def test_preisskat_shared_place_without_lot_and_prizes() -> None:
    round_1 = [
        figures({1: 100, 2: 100, 3: 0, 4: 0}, {1: 2, 2: 2, 3: 0, 4: 0}, {1: 0, 2: 0, 3: 0, 4: 0}),
        figures({5: 0, 6: 0, 7: 0}, {5: 0, 6: 0, 7: 0}, {5: 0, 6: 0, 7: 0}),
    ]
    result = rank_open_document(doc(round_1, tie_breaks=["won", "lost"], prizes={"pot": 10001, "shares": [50, 30, 20]}))
    assert rows(result)[:3] == [(1, 1, None), (1, 2, "geteilt"), (3, 3, None)]
    assert result["prizes"][:2] == [
        {"place": 1, "number": 1, "amount": 4000},
        {"place": 1, "number": 2, "amount": 4000},
    ]


def test_preisskat_a_round_not_played_is_null() -> None:
    round_1 = [figures({1: 50, 2: 0, 3: 0}, {1: 1, 2: 0, 3: 0}, {1: 0, 2: 0, 3: 0})]
    round_2 = [figures({2: 10, 3: 0, 4: 0}, {2: 0, 3: 0, 4: 0}, {2: 0, 3: 0, 4: 0})]
    result = rank_open_document(doc(round_1, round_2, tie_breaks=["best_round", "lot"]))
    by_number = {row["number"]: row for row in result["ranking"]}
    assert by_number[1]["rounds"] == [100, None]
    assert by_number[4]["rounds"] == [None, 0]
    assert by_number[5]["rounds"] == [None, None] and by_number[5]["points"] == 0
    # 3, 4, 5 … on 0: 3 and 4 have a best round of 0, 5 to 7 none: they rank below.
    zero = [row["number"] for row in result["ranking"] if row["points"] == 0]
    assert set(zero[:2]) == {3, 4} and set(zero[2:]) == {5, 6, 7}
    assert result["round_winners"] == [
        {"round": 1, "number": 1, "name": "Anna", "points": 100},
        {"round": 2, "number": 2, "name": "Bert", "points": 10},
    ]


TABLE = figures({1: 0, 2: 0, 3: 0}, {1: 0, 2: 0, 3: 0}, {1: 0, 2: 0, 3: 0})


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        ({"ruleset": "skat"}, "not_allowed", "ruleset"),
        ({"tie_breaks": ["soli"]}, "invalid_value", "tie_breaks[0]"),
        ({"tie_breaks": ["won", "won"]}, "invalid_value", "tie_breaks"),
        ({"soli_count": "won"}, "unexpected_field", "soli_count"),
        (
            {"rounds": [{"tables": [{**TABLE, "totals": {"1": 0, "2": 0, "3": 0}}]}]},
            "unexpected_field",
            "rounds[0].tables[0].totals",
        ),
        (
            {"rounds": [{"tables": [{**TABLE, "soli": {"1": 0, "2": 0, "3": 0}}]}]},
            "unexpected_field",
            "rounds[0].tables[0].soli",
        ),
        (
            {"rounds": [{"tables": [{k: v for k, v in TABLE.items() if k != "lost"}]}]},
            "missing_field",
            "rounds[0].tables[0].lost",
        ),
        ({"rounds": [{"tables": [{"players": [1, 2, 3]}]}]}, "missing_field", "rounds[0].tables[0].points"),
        (
            {"rounds": [{"tables": [{**TABLE, "won": {"1": -1, "2": 0, "3": 0}}]}]},
            "out_of_range",
            "rounds[0].tables[0].won.1",
        ),
        (
            {"rounds": [{"tables": [{**TABLE, "lost": {"1": 0, "2": 0}}]}]},
            "missing_field",
            "rounds[0].tables[0].lost.3",
        ),
        (
            {"rounds": [{"tables": [{**TABLE, "points": {"1": 0, "2": 0, "3": 0, "4": 0}}]}]},
            "invalid_value",
            "rounds[0].tables[0].points.4",
        ),
        ({"rounds": [{"tables": [{**TABLE, "hands": []}]}]}, "unexpected_field", "rounds[0].tables[0].points"),
        (
            {
                "rounds": [
                    {
                        "tables": [
                            figures(
                                dict.fromkeys([1, 2, 3, 4, 5], 0),
                                dict.fromkeys([1, 2, 3, 4, 5], 0),
                                dict.fromkeys([1, 2, 3, 4, 5], 0),
                            )
                        ]
                    }
                ]
            },
            "invalid_value",
            "rounds[0].tables[0].players",
        ),
        (
            {
                "rounds": [
                    {
                        "tables": [
                            {
                                "players": [1, 2, 3],
                                "hands": [{"game": "kreuz", "declarer": "Anna", "spitzen": 12, "augen": 70}],
                            }
                        ]
                    }
                ]
            },
            "out_of_range",
            "rounds[0].tables[0].hands[0].spitzen",
        ),
    ],
)
def test_preisskat_invalid_input_names_its_field(change: dict[str, Any], code: str, field: str) -> None:
    with pytest.raises(EngineError) as caught:
        rank_open_document({**doc([TABLE]), **change})
    assert (caught.value.code, caught.value.field) == (code, field)


def _table_hands(players: list[str], games: int, rng: random.Random) -> list[dict[str, Any]]:
    ruleset, table = registry.load_with_table("skat-seeger")
    state = start(ruleset, table, players, players[0])
    hands = []
    for _ in range(games):
        hand = skat_hand(ruleset, rng, state.seats)  # type: ignore[arg-type]
        hands.append(hand)
        _result, state = advance(ruleset, table, state, hand)
    return hands


@settings(max_examples=examples(100), deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(([3, 4], [4, 3], [3, 3], [4])), st.integers(0, 48))
def test_preisskat_tables_by_hands_rank_as_by_the_figures_of_their_lists(
    seed: int, sizes: list[int], games: int
) -> None:
    rng = random.Random(seed)
    numbers = list(range(1, sum(sizes) + 1))
    rng.shuffle(numbers)
    by_hands, by_figures = [], []
    for size in sizes:
        seated, numbers = numbers[:size], numbers[size:]
        names = [NAMES[n - 1] for n in seated]
        hands = _table_hands(names, games, rng)
        by_hands.append({"players": seated, "hands": hands})
        listed = score_session_document({"ruleset": "skat-seeger", "players": names, "hands": hands})
        number_of = dict(zip(names, seated, strict=True))
        by_figures.append(
            figures(
                {number_of[p]: v for p, v in listed["list"].items()},
                {number_of[p]: g["won"] for p, g in listed["games"].items()},
                {number_of[p]: g["lost"] for p, g in listed["games"].items()},
            )
        )
    assert rank_open_document(doc(by_hands, seed=seed)) == rank_open_document(doc(by_figures, seed=seed))
