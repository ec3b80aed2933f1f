"""Standings: the aggregate queries agree with a brute-force sum over every ledger row, for every
kind of period; units are never mixed; ranks share places on equal totals."""

import datetime
from collections import defaultdict

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs.models import Club
from scoring.models import LedgerEntry, Session
from standings.selectors import Period, standings
from tests.standings.conftest import LAST
from tools.synthetic import History


def brute_force(club: Club, keep) -> dict[tuple[str, int], tuple[int, int, int, int]]:
    """(unit, member) → (total, games, as declarer, won), summed in Python row by row."""
    out: dict[tuple[str, int], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for row in LedgerEntry.objects.filter(club=club):
        if not keep(row):
            continue
        figures = out[(row.unit, row.member_id)]
        figures[0] += row.amount
        figures[1] += row.won is not None
        figures[2] += row.role == "declarer"
        figures[3] += row.won is True
    return {key: tuple(value) for key, value in out.items()}


def from_standings(club: Club, period: Period) -> dict[tuple[str, int], tuple[int, int, int, int]]:
    return {
        (block.unit, row.member_id): (row.total, row.games, row.declared, row.won)
        for block in standings(club=club, period=period)
        for row in block.rows
    }


def _evening(history: History) -> Session:
    return Session.objects.filter(club=history.club).order_by("date", "id")[3]


PERIODS = {
    "all time": (lambda h: Period.all_time(), lambda h: lambda row: True),
    "season 2025": (lambda h: Period.season(2025), lambda h: lambda row: row.date.year == 2025),
    "season 2026": (lambda h: Period.season(2026), lambda h: lambda row: row.date.year == 2026),
    "month": (lambda h: Period.month(2025, 12), lambda h: lambda row: (row.date.year, row.date.month) == (2025, 12)),
    "range": (
        lambda h: Period.between(datetime.date(2025, 12, 28), datetime.date(2026, 1, 9)),
        lambda h: lambda row: datetime.date(2025, 12, 28) <= row.date <= datetime.date(2026, 1, 9),
    ),
    "open range": (
        lambda h: Period.between(datetime.date(2026, 1, 10), None),
        lambda h: lambda row: row.date >= datetime.date(2026, 1, 10),
    ),
    "evening": (lambda h: Period.evening(_evening(h)), lambda h: lambda row: row.session_id == _evening(h).pk),
}


@pytest.mark.parametrize("name", PERIODS)
def test_standings_equal_the_brute_force_sum(name: str, history: History, points_history: History) -> None:
    make_period, make_keep = PERIODS[name]
    expected = brute_force(history.club, make_keep(history))
    assert expected, "the period has rows"
    assert from_standings(history.club, make_period(history)) == expected


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    start=st.dates(datetime.date(2025, 12, 1), datetime.date(2026, 1, 25)),
    days=st.integers(0, 40),
)
def test_any_date_range_equals_the_brute_force_sum(history: History, start: datetime.date, days: int) -> None:
    end = start + datetime.timedelta(days=days)
    expected = brute_force(history.club, lambda row: start <= row.date <= end)
    assert from_standings(history.club, Period.between(start, end)) == expected


def test_units_are_never_mixed(history: History, points_history: History) -> None:
    blocks = standings(club=history.club, period=Period.all_time())
    assert [block.unit for block in blocks] == ["cent", "point"]
    for block in blocks:
        for row in block.rows:
            rows = LedgerEntry.objects.filter(club=history.club, member_id=row.member_id, unit=block.unit)
            assert row.total == sum(r.amount for r in rows)
    # A player of both (the championship players) has a line in each, each in its own unit.
    both = {r.member_id for r in blocks[0].rows} & {r.member_id for r in blocks[1].rows}
    assert both


def test_best_first_and_equal_totals_share_a_place(history: History) -> None:
    for block in standings(club=history.club, period=Period.all_time()):
        totals = [row.total for row in block.rows]
        assert totals == sorted(totals, reverse=True)
        for row in block.rows:
            assert row.rank == 1 + sum(total > row.total for total in totals)


def test_a_period_without_hands_has_no_standings(history: History) -> None:
    assert standings(club=history.club, period=Period.season(2020)) == []


def test_another_clubs_rows_are_not_counted(history: History, world) -> None:
    assert standings(club=world.other_club, period=Period.all_time()) == []


def test_one_group_by_and_the_names(history: History, django_assert_num_queries) -> None:
    """The GROUP BY over the ledger, the names, and the presets of the period's tables (a few
    rows: a Seeger-Fabian list is ranked apart, a Spielliste shows won and lost games)."""
    with django_assert_num_queries(3):
        standings(club=history.club, period=Period.all_time())


def test_average_and_rate_per_hand(history: History) -> None:
    row = standings(club=history.club, period=Period.all_time())[0].rows[0]
    assert row.average == pytest.approx(row.total / row.games)
    assert row.win_rate == pytest.approx(row.won / row.games)


def test_history_reaches_the_last_date(history: History) -> None:
    assert Session.objects.filter(club=history.club).latest("date").date == LAST
