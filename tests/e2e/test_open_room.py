"""Issue 24 §6: the Großbild of an open tournament shows every player. 300 players after three
played rounds: at 1920×1080 and at 1280×720 the board pages by itself ("Seite 2/4"), every player
stands on some page, every row of a page lies inside the window in readable type, also after htmx
swaps in fresh data, and the Content-Security-Policy reports no violation. The seating mode and
the public link at 390 px are photographed (/tmp/shots-i24-room)."""

from __future__ import annotations

import datetime
import re
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from opentournaments import links, services
from opentournaments.models import OpenTournament
from tests.e2e.test_csp import WATCH, violations
from tests.e2e.test_score_sheet import login
from tests.factories import World, open_round_played

# Not run again on PostgreSQL: the layout is the browser's, and the data come through the services
# and selectors that tests/opentournaments runs on both databases.
pytestmark = pytest.mark.no_db_variance

SHOTS = Path("/tmp/shots-i24-room")
PLAYERS = 300
ROUNDS = 3
FIRST = ["Sepp", "Zenzi", "Maximilian", "Kreszenz", "Girgl", "Vroni", "Hias", "Walburga", "Wastl", "Resi"]
LAST = ["Huber", "Obermaier-Gschwendtner", "Lechner", "Brandl", "Stadler", "Kainz"]


def big_tournament(world: World) -> OpenTournament:
    """300 players, three rounds drawn and played (through the services: about a second)."""
    tournament = services.open_tournament_create(
        club=world.club,
        name="Preisschafkopf Kirchweih",
        starts_on=datetime.date(2026, 11, 28),
        rounds=ROUNDS,
        games_per_round=32,
        user=None,
    )
    for i in range(PLAYERS):
        name = f"{FIRST[i % 10]} {LAST[i % 6]} {i}"
        services.registration_create(tournament=tournament, name=name, residence="Kempten", user=None)
    for seed in range(1, ROUNDS + 1):
        open_round_played(services.round_draw(tournament=tournament, seed=seed, user=None))
    return tournament


def page_rows(page: Page) -> list[list[float]]:
    """The rows of the page shown: start number, bounding box, font size."""
    return page.locator("#room-board .room-rows > .room-row.on").evaluate_all(
        "rows => rows.map(r => { const b = r.getBoundingClientRect();"
        " return [Number(r.dataset.number), b.left, b.top, b.right, b.bottom,"
        " parseFloat(getComputedStyle(r).fontSize)]; })"
    )


def assert_page_in_view(page: Page, width: int, height: int) -> set[int]:
    """Every row of the page shown lies inside the window, in readable type; their start numbers."""
    rows = page_rows(page)
    assert rows
    for start_number, left, top, right, bottom, size in rows:
        assert 0 <= left < right <= width and 0 <= top < bottom <= height, (width, start_number, top, bottom)
        assert size >= 14  # read from the back of the room
    return {int(row[0]) for row in rows}


def walk_pages(page: Page, width: int, height: int, shot: str) -> int:
    """Follow the board through all its pages as they turn by themselves. The number of pages."""
    board = page.locator("#room-board")
    pages = int(board.get_attribute("data-pages") or "1")
    seen: set[int] = set()
    for _ in range(pages):
        number = int(board.get_attribute("data-page") or "1")
        assert page.locator(".room-page").inner_text() == (f"Seite {number}/{pages}" if pages > 1 else "")
        if number == 1:
            page.screenshot(path=str(SHOTS / f"{shot}-{width}x{height}.png"))
        seen |= assert_page_in_view(page, width, height)
        page.wait_for_selector(f"#room-board:not([data-page='{number}'])")
    assert seen == set(range(1, PLAYERS + 1))
    return pages


def test_every_player_is_on_some_page_of_the_big_screen_at_both_sizes(
    live_server: LiveServer, browser: Browser, world: World
) -> None:
    tournament = big_tournament(world)
    kwargs = {"slug": world.club.slug, "open_id": tournament.pk}
    SHOTS.mkdir(exist_ok=True)
    for width, height in ((1920, 1080), (1280, 720)):
        context = browser.new_context(locale="de-DE", viewport={"width": width, "height": height})
        page = context.new_page()
        page.set_default_timeout(20_000)
        console: list[str] = []
        page.on("console", lambda message: console.append(message.text))  # noqa: B023 (one page per loop)
        page.add_init_script(WATCH)
        login(page, live_server, world, "member")
        page.goto(
            live_server.url + reverse("opentournaments:room", kwargs=kwargs) + "?turn=2"
        )  # 2 s a page: time to look at each on a busy machine
        page.wait_for_selector("body[data-laid-out]")
        pages = walk_pages(page, width, height, "room")
        assert pages > 1
        # The board htmx swaps in every half minute is laid out again, on the page it showed.
        page.evaluate("document.body.removeAttribute('data-laid-out')")
        page.evaluate(
            "htmx.ajax('GET', location.pathname + location.search, {target: '#room-board', swap: 'outerHTML'})"
        )
        page.wait_for_selector("body[data-laid-out]")
        assert int(page.locator("#room-board").get_attribute("data-pages") or "0") == pages
        assert_page_in_view(page, width, height)
        # The seating by name, paged alike.
        page.goto(live_server.url + reverse("opentournaments:room_seating", kwargs=kwargs))
        page.wait_for_selector("body[data-laid-out]")
        page.screenshot(path=str(SHOTS / f"seating-{width}x{height}.png"))
        assert_page_in_view(page, width, height)
        assert violations(page, console) == []
        context.close()


def test_the_public_link_on_a_phone(live_server: LiveServer, page: Page, world: World) -> None:
    tournament = big_tournament(world)
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    page.add_init_script(WATCH)
    SHOTS.mkdir(exist_ok=True)
    page.goto(live_server.url + links.public_path(tournament))
    page.get_by_placeholder("Name oder Startnummer").fill("Vroni Kainz 5")
    page.get_by_role("button", name="Suchen").click()
    card = page.locator(".player-card")
    expect(card).to_have_count(1)
    assert re.search(r"Runde 3: Tisch \d+, Platz \d", card.inner_text())
    page.screenshot(path=str(SHOTS / "public-390.png"), full_page=False)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert violations(page, console) == []
