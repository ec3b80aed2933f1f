"""The number draw and the seat draw of 001 §11.2."""

from __future__ import annotations

import pytest

from scoring.engine.core import EngineError
from tournaments.engine.draw import check_numbers, draw_numbers, draw_order, draw_seats

LAST_YEAR = ["Sepp", "Zenzi", "Girgl", "Vroni"]  # best first: Sepp was Zock-König


def test_last_place_draws_first_and_the_winner_last() -> None:
    assert draw_order(["Sepp", "Vroni", "Girgl", "Zenzi"], LAST_YEAR) == ("Vroni", "Girgl", "Zenzi", "Sepp")


def test_players_new_this_year_draw_first_in_the_order_given() -> None:
    order = draw_order(["Hias", "Sepp", "Vroni", "Kati", "Zenzi"], LAST_YEAR)
    assert order == ("Hias", "Kati", "Vroni", "Zenzi", "Sepp")


def test_last_years_players_who_do_not_play_are_skipped() -> None:
    assert draw_order(["Zenzi", "Girgl"], LAST_YEAR) == ("Girgl", "Zenzi")


def test_without_a_previous_championship_everyone_is_new() -> None:
    assert draw_order(["Anna", "Bert"], []) == ("Anna", "Bert")


def test_the_draw_gives_every_number_once_and_the_last_drawer_the_remaining_one() -> None:
    order = ("Hias", "Vroni", "Girgl", "Zenzi", "Sepp")
    draw = draw_numbers(order, seed=2026)
    assert sorted(draw.numbers) == [1, 2, 3, 4, 5]
    assert draw.order == order
    assert set(draw.by_player()) == set(order)


def test_the_draw_is_reproducible_from_its_seed() -> None:
    order = tuple(f"P{i}" for i in range(16))
    assert draw_numbers(order, 7) == draw_numbers(order, 7)
    assert draw_numbers(order, 7).numbers != draw_numbers(order, 8).numbers
    # Pinned: a seed recorded in the draw log gives the same slips on every machine.
    assert draw_numbers(tuple("ABCDEFGH"), 2026).numbers == (7, 8, 4, 1, 6, 5, 3, 2)


@pytest.mark.parametrize("seed", [-1, 2**32, "1", True, 1.5])
def test_a_seed_out_of_range_is_refused(seed: object) -> None:
    with pytest.raises(EngineError) as error:
        draw_numbers(("A", "B"), seed)  # type: ignore[arg-type]
    assert error.value.field == "seed"


def test_a_paper_draw_is_checked() -> None:
    assert check_numbers(["A", "B", "C"], {"A": 3, "B": 1, "C": 2}) == {"A": 3, "B": 1, "C": 2}
    for numbers, field in [
        ({"A": 1, "B": 2}, "C"),
        ({"A": 1, "B": 2, "C": 2}, "C"),
        ({"A": 1, "B": 2, "C": 4}, "C"),
        ({"A": 1, "B": 2, "C": 3, "D": 4}, "D"),
    ]:
        with pytest.raises(EngineError) as error:
            check_numbers(["A", "B", "C"], numbers)
        assert error.value.field == field


def test_the_seat_draw_puts_the_schreiber_first_and_the_others_clockwise_in_drawn_order() -> None:
    draw = draw_seats(["Anna", "Bert", "Cilli", "Done"], seed="2026:1:1")
    assert sorted(draw.seats) == ["Anna", "Bert", "Cilli", "Done"]
    assert draw.schreiber == draw.seats[0]
    assert draw.seats == ("Anna", "Cilli", "Bert", "Done")  # pinned, as the number draw


def test_the_seat_draw_is_reproducible_whatever_order_the_players_come_in() -> None:
    a = draw_seats(["Anna", "Bert", "Cilli", "Done", "Emil"], seed=99)
    b = draw_seats(["Emil", "Done", "Cilli", "Bert", "Anna"], seed=99)
    assert a == b
    seats = {draw_seats(["Anna", "Bert", "Cilli", "Done"], seed=s).seats for s in range(40)}
    assert len(seats) > 10  # it does shuffle
