"""The period picker: every way of naming a period, and what falls back to the current season."""

import datetime

import pytest
from django.http import QueryDict
from django.utils import translation

from scoring.models import Session
from standings.forms import PeriodForm
from standings.selectors import Period, PeriodKind
from tests.factories import SessionFactory, World

THIS_YEAR = datetime.date.today().year


@pytest.mark.parametrize(
    ("query", "kind", "start", "end"),
    [
        ("", PeriodKind.SEASON, datetime.date(THIS_YEAR, 1, 1), datetime.date(THIS_YEAR, 12, 31)),
        ("period=season&year=2024", PeriodKind.SEASON, datetime.date(2024, 1, 1), datetime.date(2024, 12, 31)),
        ("period=season", PeriodKind.SEASON, datetime.date(THIS_YEAR, 1, 1), datetime.date(THIS_YEAR, 12, 31)),
        ("period=month&month=2024-02", PeriodKind.MONTH, datetime.date(2024, 2, 1), datetime.date(2024, 2, 29)),
        ("period=month&month=2025-12", PeriodKind.MONTH, datetime.date(2025, 12, 1), datetime.date(2025, 12, 31)),
        (
            "period=range&from=2025-03-01&to=2025-04-15",
            PeriodKind.RANGE,
            datetime.date(2025, 3, 1),
            datetime.date(2025, 4, 15),
        ),
        ("period=range&from=2025-03-01", PeriodKind.RANGE, datetime.date(2025, 3, 1), None),
        ("period=range", PeriodKind.ALL, None, None),
        ("period=all", PeriodKind.ALL, None, None),
        # Nonsense falls back to the current season.
        (
            "period=month&month=März",
            PeriodKind.SEASON,
            datetime.date(THIS_YEAR, 1, 1),
            datetime.date(THIS_YEAR, 12, 31),
        ),
        ("period=decade", PeriodKind.SEASON, datetime.date(THIS_YEAR, 1, 1), datetime.date(THIS_YEAR, 12, 31)),
        (
            "period=range&from=gestern",
            PeriodKind.SEASON,
            datetime.date(THIS_YEAR, 1, 1),
            datetime.date(THIS_YEAR, 12, 31),
        ),
    ],
)
def test_period_from_the_query(world: World, query: str, kind: PeriodKind, start, end) -> None:
    period = PeriodForm(QueryDict(query) if query else None, club=world.club).chosen()
    assert (period.kind, period.start, period.end) == (kind, start, end)


def test_an_evening_of_the_club(world: World) -> None:
    session = SessionFactory(club=world.club, date=datetime.date(2025, 11, 7), place="Post")
    period = PeriodForm(QueryDict(f"period=evening&session={session.pk}"), club=world.club).chosen()
    assert period.kind == PeriodKind.EVENING
    assert period.session == session
    assert period.params() == {"period": "evening", "session": str(session.pk)}


def test_an_evening_of_another_club_is_not_taken(world: World) -> None:
    session = SessionFactory(club=world.other_club)
    form = PeriodForm(QueryDict(f"period=evening&session={session.pk}"), club=world.club)
    assert form.chosen().kind == PeriodKind.SEASON
    assert "session" in form.errors


@pytest.mark.parametrize(
    "period",
    [
        Period.season(2025),
        Period.month(2025, 3),
        Period.between(datetime.date(2025, 1, 5), datetime.date(2025, 2, 1)),
        Period.between(None, datetime.date(2025, 2, 1)),
        Period.all_time(),
    ],
    ids=["season", "month", "range", "open range", "all"],
)
def test_params_round_trip(world: World, period: Period) -> None:
    assert PeriodForm(QueryDict(period.query), club=world.club).chosen() == period


def test_labels(world: World) -> None:
    session: Session = SessionFactory(club=world.club, date=datetime.date(2025, 11, 7), place="Gasthof Post")
    with translation.override("de"):
        assert Period.season(2025).label == "Saison 2025"
        assert Period.month(2025, 3).label == "März 2025"
        assert Period.all_time().label == "Gesamt"
        assert Period.between(datetime.date(2025, 1, 5), None).label == "05.01.2025 – …"
        assert Period.evening(session).label == "Spielabend 07.11.2025, Gasthof Post"
    with translation.override("en"):
        assert Period.season(2025).label == "Season 2025"
        assert Period.all_time().label == "All time"


def test_slugs_for_file_names() -> None:
    assert Period.season(2025).slug == "2025"
    assert Period.month(2025, 3).slug == "2025-03"
    assert Period.all_time().slug == "all"
    assert Period.between(datetime.date(2025, 1, 5), datetime.date(2025, 2, 1)).slug == "2025-01-05_2025-02-01"
