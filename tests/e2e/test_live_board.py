"""Issue 20: the Großbild shows every participant. 60 players (the most a championship plans for
on the big screen) after four begun Partien, one table broken off: at 1920×1080 and at 1280×720
every row of the ranking lies inside the window (bounding boxes), in type still readable, also
after htmx swaps in a fresh board, and the Content-Security-Policy reports no violation."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page
from pytest_django.live_server_helper import LiveServer

from scoring import services as scoring_services
from tests.e2e.test_csp import WATCH, violations
from tests.e2e.test_score_sheet import login
from tests.factories import MemberFactory, World
from tournaments import services
from tournaments.models import Tournament

SHOTS = Path("/tmp/shots-i20")
PLAYERS = 60
FIRST = ["Sepp", "Zenzi", "Maximilian", "Kreszenz", "Girgl", "Vroni", "Hias", "Walburga", "Wastl", "Resi"]
LAST = ["Huber", "Obermaier-Gschwendtner", "Lechner", "Brandl", "Stadler", "Kainz"]


def championship(world: World) -> Tournament:
    """60 players, all four Partien begun with a few hands at every table (through the services)."""
    tournament = services.tournament_create(club=world.club, year=2026, user=None)
    members = [
        MemberFactory(club=world.club, display_name=f"{FIRST[i % 10]} {LAST[i % 6]} {i}") for i in range(PLAYERS)
    ]
    services.participants_set(tournament=tournament, members=members, user=None)
    services.draw_run(tournament=tournament, seed=1, user=None)
    for index in range(1, 5):
        partie = services.partie_start(tournament=tournament, index=index, seed=index, user=None)
        for row in partie.tables.select_related("table"):
            seats = list(row.table.seats.order_by("position").values_list("name", flat=True))
            log = [
                {
                    "game": "rufspiel",
                    "declarer": seats[(row.number + k) % 4],
                    "partner": seats[(row.number + k + 1) % 4],
                    "called": "eichel",
                    "augen": 40 + 20 * ((row.number + k) % 3),
                    "deckel": 1,
                }
                for k in range(3)
            ]
            scoring_services.entries_append(table=row.table, log=log, user=None)
    services.table_abort(tournament=tournament, partie=4, table=7, reason="Stromausfall", user=None)
    return tournament


def row_boxes(page: Page) -> list[list[float]]:
    return page.locator("#live-board tbody tr").evaluate_all(
        "rows => rows.map(r => { const b = r.getBoundingClientRect();"
        " return [b.left, b.top, b.right, b.bottom, parseFloat(getComputedStyle(r).fontSize)]; })"
    )


def assert_all_in_view(page: Page, width: int, height: int) -> None:
    boxes = row_boxes(page)
    assert len(boxes) == PLAYERS
    for left, top, right, bottom, size in boxes:
        assert 0 <= left < right <= width and 0 <= top < bottom <= height, (width, left, top, right, bottom)
        assert size >= 12  # still read from a few metres


@pytest.mark.no_db_variance  # layout at two sizes; the board's figures: tests/opentournaments
def test_every_participant_is_on_the_big_screen_at_both_sizes(
    live_server: LiveServer, browser: Browser, world: World
) -> None:
    tournament = championship(world)
    path = reverse("tournaments:live", kwargs={"slug": world.club.slug, "tournament_id": tournament.pk})
    SHOTS.mkdir(exist_ok=True)
    for width, height in ((1920, 1080), (1280, 720)):
        context = browser.new_context(locale="de-DE", viewport={"width": width, "height": height})
        page = context.new_page()
        page.set_default_timeout(20_000)
        console: list[str] = []
        page.on("console", lambda message: console.append(message.text))  # noqa: B023 (one page per loop)
        page.add_init_script(WATCH)
        login(page, live_server, world, "member")
        page.goto(live_server.url + path)
        page.wait_for_selector("body[data-fitted]")
        page.screenshot(path=str(SHOTS / f"live-{width}x{height}.png"))
        assert_all_in_view(page, width, height)
        # The board htmx swaps in every 20 s fits as well (and copies no inline style).
        page.evaluate("document.body.removeAttribute('data-fitted')")
        page.evaluate("htmx.ajax('GET', location.pathname, {target: '#live-board', swap: 'outerHTML'})")
        page.wait_for_selector("body[data-fitted]")
        assert_all_in_view(page, width, height)
        assert violations(page, console) == []
        context.close()


def test_after_the_finish_the_big_screen_reads_the_final_result_and_marks_the_roster(
    live_server: LiveServer, browser: Browser, world: World
) -> None:
    """Issue 30 item 8: 12 players over 3 Partien, one withdrawn after Partie 1, one late from
    Partie 2, finished. At both sizes the head reads "Endstand" (not the last Partie's tables),
    the Partien not played read "–", both players are marked and no name is cut."""
    from tests.tournaments.test_roster import finished_with_roster_changes

    tournament, leaving, late = finished_with_roster_changes(world)
    path = reverse("tournaments:live", kwargs={"slug": world.club.slug, "tournament_id": tournament.pk})
    SHOTS.mkdir(exist_ok=True)
    for width, height in ((1920, 1080), (1280, 720)):
        context = browser.new_context(locale="de-DE", viewport={"width": width, "height": height})
        page = context.new_page()
        page.set_default_timeout(20_000)
        login(page, live_server, world, "member")
        page.goto(live_server.url + path)
        page.wait_for_selector("body[data-fitted]")
        page.screenshot(path=str(SHOTS / f"live-final-{width}x{height}.png"))
        head = page.locator(".live-head").inner_text()
        assert "Endstand" in head and "Tisch 1 ·" not in head
        for member, note in ((leaving, "zurückgezogen nach P1"), (late, "nachgemeldet ab P2")):
            row = page.locator("#live-board tbody tr", has_text=member.display_name)
            assert note in row.inner_text() and "–" in row.locator("td.partie-points").all_inner_texts()
        names = page.locator("#live-board td.name")
        assert names.evaluate_all("cells => cells.filter(c => c.scrollWidth > c.clientWidth).length") == 0
        boxes = row_boxes(page)
        assert len(boxes) == 13 and all(0 <= b[0] < b[2] <= width and 0 <= b[1] < b[3] <= height for b in boxes)
        context.close()
