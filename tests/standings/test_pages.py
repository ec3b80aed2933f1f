"""The standings, statistics and evening pages for a club member (who gets what is the access
matrix's business: tests/clubs/test_access_matrix.py walks these URLs too)."""

import re

from django.test import Client
from django.urls import reverse

from clubs.models import Club
from scoring.models import Session
from tests.factories import MemberFactory, World
from tools.synthetic import History


def page(client: Client, name: str, query: str = "", **kwargs) -> str:
    response = client.get(reverse(name, kwargs={"slug": "test", **kwargs}) + ("?" + query if query else ""))
    assert response.status_code == 200
    return response.content.decode()


def test_standings_page(history: History, points_history: History, client_as) -> None:
    html = page(client_as("member"), "stats:standings", "period=all")
    for member in history.members:
        assert member.display_name in html
    assert "Gesamt" in html and "Geld" in html and "Punkte" in html
    assert "\u00a0€" in html  # money in euros
    assert reverse("stats:standings_pdf", kwargs={"slug": "test"}) + "?period=all" in html
    assert reverse("stats:standings_xlsx", kwargs={"slug": "test"}) + "?period=all" in html
    assert reverse("stats:chart_running", kwargs={"slug": "test"}) + "?period=all&amp;unit=cent" in html
    assert "Saison 2026" in html and "Saison 2025" in html  # the period links


def test_standings_sort_by_name(history: History, client_as) -> None:
    html = page(client_as("member"), "stats:standings", "period=all&cent-sort=name")
    names = sorted(m.display_name for m in history.members)
    positions = [html.index(f">{name}</a>") for name in names]
    assert positions == sorted(positions)


def test_standings_page_count_queries(history: History, client_as, django_assert_max_num_queries) -> None:
    client = client_as("member")
    with django_assert_max_num_queries(10):
        client.get(reverse("stats:standings", kwargs={"slug": "test"}) + "?period=all")


def test_empty_period(history: History, client_as) -> None:
    html = page(client_as("member"), "stats:standings", "period=season&year=2019")
    assert "In diesem Zeitraum wurde nicht gespielt." in html


def test_member_page(history: History, client_as) -> None:
    member = history.members[0]
    html = page(client_as("member"), "stats:member", "period=all", member_id=member.pk)
    assert member.display_name in html
    for words in ("Anwesenheit", "Als Spieler", "Rufspiel", "Schneider", "höchster Gewinn", "bester Abend"):
        assert words in html


def test_member_who_never_played(world: World, client_as) -> None:
    member = MemberFactory(club=world.club)
    html = page(client_as("member"), "stats:member", member_id=member.pk)
    assert "In diesem Zeitraum hat dieser Spieler nicht gespielt." in html


def test_evening_page(history: History, client_as) -> None:
    session = Session.objects.filter(club=history.club).order_by("date").last()
    html = page(client_as("member"), "stats:evening", session_id=session.pk)
    assert "Spielabend 20.01.2026" in html
    assert reverse("stats:evening_pdf", kwargs={"slug": "test", "session_id": session.pk}) in html


def test_charts_are_svg(history: History, client_as) -> None:
    client = client_as("member")
    session = Session.objects.filter(club=history.club).first()
    member = history.members[0]
    for url in (
        reverse("stats:chart_running", kwargs={"slug": "test"}) + "?period=all&unit=cent",
        reverse("stats:chart_running", kwargs={"slug": "test"}) + f"?period=all&member={member.pk}",
        reverse("stats:chart_games", kwargs={"slug": "test"}) + f"?period=all&member={member.pk}",
        reverse("stats:evening_chart", kwargs={"slug": "test", "session_id": session.pk}),
    ):
        response = client.get(url)
        assert response.status_code == 200
        assert response["Content-Type"].startswith("image/svg+xml")
        assert response.content.startswith(b"<svg")


def test_a_chart_of_another_clubs_member_is_not_found(history: History, world: World, client_as) -> None:
    stranger = MemberFactory(club=world.other_club)
    client = client_as("member")
    url = reverse("stats:chart_games", kwargs={"slug": "test"})
    assert client.get(url + f"?member={stranger.pk}").status_code == 404
    assert client.get(url + "?member=abc").status_code == 404


def test_english(history: History, client_as) -> None:
    client = client_as("member")
    Club.objects.filter(slug="test").update(language="en")  # the club's language wins over the browser's
    response = client.get(
        reverse("stats:standings", kwargs={"slug": "test"}) + "?period=all", HTTP_ACCEPT_LANGUAGE="en"
    )
    html = response.content.decode()
    assert "Standings" in html and "All time" in html


def test_the_picker_shows_the_chosen_period(history: History, client_as) -> None:
    client = client_as("member")
    html = page(client, "stats:standings", "period=month&month=2025-12")
    assert '<option value="month" selected>' in html and 'value="2025-12"' in html
    html = page(client, "stats:standings", "period=range&from=2025-12-28&to=2026-01-09")
    assert 'name="from" value="2025-12-28"' in html and 'name="to" value="2026-01-09"' in html
    session = Session.objects.filter(club=history.club).order_by("date").last()
    html = page(client, "stats:standings", f"period=evening&session={session.pk}")
    assert f'<option value="{session.pk}" selected>' in html


GERMAN_DATE = re.compile(r"\b\d\d\.\d\d\.\d{4}\b")
ENGLISH_DATE = re.compile(r"\b\d{1,2}/\d{1,2}/\d{4}\b")


def test_an_english_club_writes_its_dates_one_way(history: History, client_as) -> None:
    """The evening list, an evening, the standings' evening picker and a player's best and worst
    evening: in German 30.10.2026, in English 10/30/2026 - never the German form in English."""
    client = client_as("owner")
    session = Session.objects.filter(club=history.club).order_by("date").last()
    member = history.club.members.first()
    pages = [
        ("scoring:session_list", "", {}),
        ("scoring:session", "", {"session_id": session.pk}),
        ("stats:standings", "period=season", {}),
        ("stats:member", "period=all", {"member_id": member.pk}),
    ]
    for name, query, kwargs in pages:
        html = page(client, name, query, **kwargs)
        assert GERMAN_DATE.search(html), name
    Club.objects.filter(slug="test").update(language="en")
    for name, query, kwargs in pages:
        html = page(client, name, query, **kwargs)
        assert not GERMAN_DATE.search(html), (name, GERMAN_DATE.findall(html)[:3])
        assert ENGLISH_DATE.search(html), name
