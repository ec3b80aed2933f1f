"""Issue 29's "Done when" for the volunteer's pages: the demo (``seed_demo``: evenings, two
championships, a Preisschafkopf) walked page by page on a 390×844 phone (``pagewalk``).

No page scrolls sideways, no element runs off the screen, no table scrolls, no select cuts its
text; no option key, rule set key or rule book section ("§") stands outside a "Details"
disclosure; a page writes its dates one way; and with the club's language set to English, no
German word but the game's own terms and the club's own data (names, places) is left on a page.
As owner, scorer and member; the Preisschafkopf's public link too.

The hall's room board (``/open/<id>/room/``, laid out for a projector: tests/e2e/test_open_room.py)
is checked here at a phone's width too.
"""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from playwright.sync_api import Browser, Page
from pytest_django.live_server_helper import LiveServer

from clubs.models import Club, Member
from opentournaments.links import public_path
from opentournaments.models import OpenTournament, Registration
from scoring.engine import registry
from scoring.engine.session_rules import table_option_specs
from scoring.models import KasseBooking, Session
from tests.e2e import pagewalk
from tournaments.models import Tournament

# Serving pages only: the database is incidental (not run again on PostgreSQL).
pytestmark = pytest.mark.no_db_variance


def _specs() -> list:
    rule_sets = [cls.build() for cls in registry.all_presets().values()]
    return [spec for rules in rule_sets for spec in [*rules.option_specs(), *table_option_specs(rules)]]


def option_keys() -> set[str]:
    return {spec.name for spec in _specs()} | set(registry.all_presets())


def option_values() -> set[str]:
    return {str(choice) for spec in _specs() for choice in spec.choices}


def club_data() -> list[str]:
    """What the club typed itself (names, places, notes): not text to translate."""
    data = [*Member.objects.values_list("display_name", flat=True), *Club.objects.values_list("name", flat=True)]
    data += [text for row in Session.objects.values_list("place", "note") for text in row]
    data += [text for row in Registration.objects.values_list("name", "residence") for text in row]
    data += [*Tournament.objects.values_list("place", flat=True), *Tournament.objects.values_list("title", flat=True)]
    # A Kasse booking's text is written once, in the language of the page that booked it.
    data += KasseBooking.objects.values_list("text", flat=True)
    for tournament in OpenTournament.objects.all():
        data += [tournament.name, *tournament.prize_items]
    return data


@pytest.fixture
def demo(live_server: LiveServer) -> Iterator[LiveServer]:
    call_command("seed_demo", "--force", stdout=io.StringIO())
    yield live_server


def _walk_club(
    page: Page, live_server: LiveServer, data: list[str] | None = None, english: bool = False
) -> pagewalk.Walk:
    """The club's pages from its home, then the Preisschafkopf's public link (no login, but in the
    club's language too)."""
    options = {"keys": option_keys(), "values": option_values(), "data": data or [], "english": english}
    walked = pagewalk.walk(page, live_server.url, "/clubs/demo/", **options)
    public = public_path(OpenTournament.objects.get(club__slug="demo"))
    more = pagewalk.walk(page, live_server.url, public + "?q=Hansi", **options)
    return pagewalk.Walk(pages=walked.pages + more.pages, problems=walked.problems + more.problems)


def _phone(browser: Browser, live_server: LiveServer, username: str) -> Page:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    context = browser.new_context(locale="de-DE", viewport={"width": 390, "height": 844})
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(20_000)
    return page


@pytest.mark.long(60)
def test_every_page_fits_a_phone_and_speaks_words(demo: LiveServer, browser: Browser) -> None:
    owner = _phone(browser, demo, "demo-owner")
    walked = _walk_club(owner, demo)
    owner.context.close()
    assert len(walked.pages) > 35, walked.pages  # evenings, tables, championships, the Preisschafkopf, standings
    assert walked.problems == []
    # A scorer and a member see fewer pages, some of them differently (no buttons to manage):
    # each walked anew.
    for username, least in (("demo-scorer", 25), ("demo-member", 20)):
        phone = _phone(browser, demo, username)
        walked = _walk_club(phone, demo)
        phone.context.close()
        assert len(walked.pages) > least, (username, walked.pages)
        assert walked.problems == [], username


def test_every_page_in_english_has_no_german_but_the_games_words(demo: LiveServer, browser: Browser) -> None:
    Club.objects.filter(slug="demo").update(language="en")
    owner = _phone(browser, demo, "demo-owner")  # the browser asks for German: the club's language wins
    walked = _walk_club(owner, demo, data=club_data(), english=True)
    owner.context.close()
    assert len(walked.pages) > 35, walked.pages
    assert walked.problems == []


# The settings page offers every game to choose from, Schafkopf too.
GAME_CHOICE = "/clubs/skat/settings/: says 'Schafkopf': 'Schafkopf'"


def test_a_skat_clubs_pages_fit_a_phone_and_speak_skat(demo: LiveServer, browser: Browser) -> None:
    """Issue 32 §3: a Skat club's pages (its home, players, evenings and their Spiellisten, Regeln,
    settings, standings, statistics, its open tournaments: a Preisskat) never offer Schafkopf's
    words, and fit a phone as every page does."""
    owner = _phone(browser, demo, "skat-owner")
    options = {"keys": option_keys(), "values": option_values(), "data": club_data()}
    walked = pagewalk.walk(owner, demo.url, "/clubs/skat/", foreign=pagewalk.SCHAFKOPF_WORDS, **options)
    owner.context.close()
    assert len(walked.pages) > 10, walked.pages
    problems = [problem for problem in walked.problems if problem != GAME_CHOICE]
    assert problems == [], "\n".join(problems)
