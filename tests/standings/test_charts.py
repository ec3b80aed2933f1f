"""Charts are valid, self-contained SVG, and their lines end where the standings are."""

import datetime
import xml.etree.ElementTree as ET

from clubs.models import Member
from scoring.models import Session
from standings import charts
from standings.selectors import (
    Period,
    RunningTotals,
    Series,
    evening_running_totals,
    games_by_type,
    period_running_totals,
    standings,
)
from tests.factories import MemberFactory, World
from tools.synthetic import History, build_history

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox") and root.get("width") == "100%"
    assert root.find(f"{SVG}title").text
    assert "<script" not in svg and "http://" not in svg.replace("http://www.w3.org/2000/svg", "")
    return root


def test_running_totals_over_the_period_end_at_the_standings(history: History) -> None:
    period = Period.all_time()
    (chart,) = period_running_totals(club=history.club, period=period)
    totals = {row.name: row.total for row in standings(club=history.club, period=period)[0].rows}
    assert {s.name: s.values[-1] for s in chart.series} == totals
    assert all(s.values[0] == 0 and len(s.values) == len(chart.x_labels) for s in chart.series)
    root = parse(charts.running_totals_svg(chart, title="Verlauf"))
    assert len(root.findall(f"{SVG}polyline")) == len(totals)


def test_running_totals_over_an_evening_end_at_its_totals(history: History) -> None:
    session = Session.objects.filter(club=history.club).order_by("date").last()
    (chart,) = evening_running_totals(session=session)
    totals = {row.name: row.total for row in standings(club=history.club, period=Period.evening(session))[0].rows}
    assert {s.name: s.values[-1] for s in chart.series} == totals
    parse(charts.running_totals_svg(chart, title="Abend"))


def test_long_stretches_step_by_month_then_year(world: World) -> None:
    """More than 80 evenings: months on the x axis; more than 80 months: years."""
    last = datetime.date(2026, 1, 1)
    for club, days, step, label in ((world.club, 7, "Monat", "%m/%Y"), (world.other_club, 30, "Jahr", "%Y")):
        members = MemberFactory.create_batch(4, club=club)
        build_history(club=club, members=members, hands=900, evening_hands=10, days_between=days, last_date=last)
        (chart,) = period_running_totals(club=club, period=Period.all_time())
        first = Session.objects.filter(club=club).earliest("date").date
        assert chart.x_title == step
        assert chart.x_labels[1] == first.strftime(label) and chart.x_labels[-1] == last.strftime(label)
        totals = {row.name: row.total for row in standings(club=club, period=Period.all_time())[0].rows}
        assert {s.name: s.values[-1] for s in chart.series} == totals
    # A season of the same club is drawn evening by evening again.
    (by_evening,) = period_running_totals(club=world.club, period=Period.season(2025))
    assert len(by_evening.x_labels) == 1 + Session.objects.filter(club=world.club, date__year=2025).count()


def test_games_by_type_as_bars(history: History) -> None:
    games = games_by_type(club=history.club, period=Period.all_time())
    assert games[0].played >= games[-1].played
    root = parse(charts.games_svg(games, title="Spiele"))
    assert len(root.findall(f"{SVG}rect")) == 1 + 2 * len(games) + 2  # background, bars, legend


def test_names_are_escaped(world: World) -> None:
    chart = RunningTotals("cent", ["", "1"], [Series('<b>Sepp & "Zenzi"</b>', [0, 150])], "Spiel")
    svg = charts.running_totals_svg(chart, title="A <title> & more")
    root = parse(svg)
    assert '<b>Sepp & "Zenzi"</b>: +1,50' in "".join(root.itertext())


def test_empty_charts_say_so() -> None:
    assert "Noch keine Spiele" in charts.running_totals_svg(RunningTotals("cent", [], []), title="leer")
    parse(charts.games_svg([], title="leer"))


def test_one_member_has_one_line(history: History) -> None:
    member: Member = history.members[1]
    (chart,) = period_running_totals(club=history.club, period=Period.all_time(), member=member)
    assert [s.name for s in chart.series] == [member.display_name]


def test_two_evenings_of_one_day_have_two_labels(world: World) -> None:
    """Issue 29: two Partien of a championship day were both labelled with the day's date."""
    members = MemberFactory.create_batch(4, club=world.club)
    day = datetime.date(2026, 3, 7)
    build_history(club=world.club, members=members, hands=20, evening_hands=10, days_between=0, last_date=day)
    assert Session.objects.filter(club=world.club, date=day).count() == 2
    (chart,) = period_running_totals(club=world.club, period=Period.all_time())
    assert chart.x_labels == ["", "07.03.2026 (1)", "07.03.2026 (2)"]
