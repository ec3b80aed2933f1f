"""The Preisskat draw (tournaments.engine.skat_plan): tables of four and of three, never five or
two; the same seed the same tables; players meet earlier opponents as little as possible."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.core import EngineError
from tournaments.engine.skat_plan import plan_skat_round, skat_table_sizes


@given(st.integers(min_value=3, max_value=200).filter(lambda n: n != 5))
def test_sizes_are_fours_and_the_fewest_threes(players: int) -> None:
    sizes = skat_table_sizes(players)
    assert sum(sizes) == players
    assert set(sizes) <= {3, 4}
    threes = sizes.count(3)
    assert threes <= 3  # a fourth table of three would be three tables of four
    assert list(sizes) == sorted(sizes, reverse=True)


@pytest.mark.parametrize(
    ("players", "fours", "threes"), [(37, 7, 3), (27, 6, 1), (3, 0, 1), (6, 0, 2), (9, 0, 3), (10, 1, 2), (200, 50, 0)]
)
def test_sizes_of_the_issue(players: int, fours: int, threes: int) -> None:
    assert skat_table_sizes(players) == (4,) * fours + (3,) * threes


@pytest.mark.parametrize("players", [0, 1, 2, 5, 401])
def test_sizes_refused(players: int) -> None:
    with pytest.raises(EngineError) as error:
        skat_table_sizes(players)
    assert error.value.field == "players"


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=3, max_value=200).filter(lambda n: n != 5), st.integers(0, 2**32 - 1))
def test_a_round_seats_everyone_once(players: int, seed: int) -> None:
    numbers = list(range(7, 7 + players))
    first = plan_skat_round([], numbers, seed)
    second = plan_skat_round([first], numbers, seed)
    for tables in (first, second):
        assert sorted(n for table in tables for n in table) == numbers
        assert sorted((len(t) for t in tables), reverse=True) == list(skat_table_sizes(players))


def test_same_seed_same_tables() -> None:
    numbers = list(range(1, 38))
    first = plan_skat_round([], numbers, 11)
    assert plan_skat_round([], numbers, 11) == first
    assert plan_skat_round([first], numbers, 12) == plan_skat_round([first], numbers, 12)


def test_later_rounds_avoid_earlier_opponents() -> None:
    numbers = list(range(1, 38))
    played: list[list[list[int]]] = []
    for seed in range(3):
        played.append(plan_skat_round(played, numbers, seed))
    pairs = [pair for round_ in played for table in round_ for pair in combinations(table, 2)]
    assert len(pairs) == len(set(pairs))  # 37 players, three rounds: nobody meets anyone twice
    threes = [n for round_ in played for table in round_ if len(table) == 3 for n in table]
    assert len(threes) == len(set(threes))  # and nobody sits at a table of three twice


def test_bad_input_refused() -> None:
    with pytest.raises(EngineError):
        plan_skat_round([], [1, 1, 2, 3], 0)
    with pytest.raises(EngineError):
        plan_skat_round([], [1, 2, 3, 4, 5], 0)
    with pytest.raises(EngineError):
        plan_skat_round([], [1, 2, 3], -1)
