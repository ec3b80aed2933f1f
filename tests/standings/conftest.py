"""A small synthetic club history for the standings and statistics tests (the bench's builder,
a few hundred entries: hands, votes, Vergeben, sitting out at tables of five)."""

import datetime
from collections.abc import Iterator

import pytest
from django.utils import translation

from tests.factories import MemberFactory, World
from tools.synthetic import History, build_history

# Evenings every three days up to this date: they span two years and several months.
LAST = datetime.date(2026, 1, 20)


@pytest.fixture(autouse=True)
def german() -> Iterator[None]:
    """Every test here starts in German and leaves the language as it found it (a request with
    Accept-Language: en leaves English active in the thread otherwise)."""
    with translation.override("de"):
        yield


@pytest.fixture
def history(world: World) -> History:
    members = list(world.club.members.all()) + MemberFactory.create_batch(5, club=world.club)
    return build_history(club=world.club, members=members, hands=400, seed=3, last_date=LAST, evening_hands=40)


@pytest.fixture
def points_history(world: World, history: History) -> History:
    """The same club also plays the championship for points on some evenings."""
    return build_history(
        club=world.club,
        members=history.members[:6],
        hands=120,
        seed=4,
        preset="allgaeu-meisterschaft",
        last_date=LAST - datetime.timedelta(days=1),
        evening_hands=40,
    )
