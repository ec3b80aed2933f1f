"""The table page on a 390×844 touch phone, as a Schreiber uses it through an evening (issue 13):
the screen keeps the Schreiber's place after a save or a refusal, the defaults follow the game, a
plain hand is tapped without the keyboard, the whole Liste fits the screen, a refused correction
leads to the later entry, and a Doppelkopf hand is corrected with the tap form."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

from clubs.models import Member
from scoring import services
from scoring.models import Entry, Table
from tests.e2e.test_score_sheet import login
from tests.factories import MemberFactory, World, rufspiel

SHOTS = Path("/tmp/shots-i13")
WIDTH, HEIGHT = 390, 844
NAMES = ["Sepp Huber", "Zenzi Mayr", "Girgl Lechner", "Vroni Brandl", "Resi Gruber", "Wast Kögl"]


def start_table(world: World, players: int = 4, rules: Any = "allgaeu", hands: int = 0) -> Table:
    session = services.session_create(club=world.club, date="2026-11-20", place="Krone", user=None)
    for name in NAMES[4:players]:
        MemberFactory(club=world.club, display_name=name)
    members = [Member.objects.get(club=world.club, display_name=name) for name in NAMES[:players]]
    table = services.table_start(session=session, members=members, rules=rules, user=None)
    for _ in range(hands):
        services.entry_append(table=table, data=rufspiel(table), user=None)
    return table


def open_table(page: Page, live_server: LiveServer, world: World, table: Table) -> Locator:
    login(page, live_server, world, "scorer")
    page.goto(live_server.url + table.get_absolute_url())
    return page.locator("#entry-form")


def in_viewport(locator: Locator) -> bool:
    box = locator.bounding_box()
    assert box is not None, "not rendered"
    return box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= WIDTH and box["y"] + box["height"] <= HEIGHT


def shot(page: Page, name: str, full: bool = False) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def tap(form: Locator, legend: str, label: str) -> None:
    """Tap the button ``label`` in the group headed ``legend``."""
    group = form.locator("fieldset", has=form.page.locator("legend", has_text=legend)).first
    group.locator("label", has_text=label).first.tap()


def save(page: Page, number: int) -> None:
    """Tap "Nr. n speichern" and wait until the page has settled on the answer."""
    with page.expect_response(lambda response: "/eintragen/" in response.url):
        page.get_by_role("button", name=f"Nr. {number} speichern").tap()
    page.wait_for_function("!document.querySelector('.htmx-settling, .htmx-swapping, .htmx-request')")


# --- 1. the screen keeps the Schreiber's place ---------------------------------------------------


def test_after_a_save_the_game_buttons_are_under_the_thumb(live_server: LiveServer, phone: Page, world: World) -> None:
    table = start_table(world, hands=12)
    form = open_table(phone, live_server, world, table)
    seats = services.selectors.table_state(table).state.seats
    tap(form, "Spiel", "Rufspiel")
    tap(form, "Spieler", seats[0])
    tap(form, "Mitspieler", seats[1])
    phone.get_by_label("Augen der Spieler").fill("75")
    save(phone, 13)
    expect(phone.get_by_text("Nr. 13 gespeichert")).to_be_visible()
    games = phone.locator("#entry-form fieldset.games")
    expect(games).to_be_in_viewport(ratio=1)
    assert phone.evaluate("document.activeElement.closest('fieldset.games') !== null")
    shot(phone, "01-after-save")
    assert Entry.objects.filter(table=table).count() == 13


def test_a_refused_save_shows_its_error_in_view(live_server: LiveServer, phone: Page, world: World) -> None:
    table = start_table(world, hands=12)
    form = open_table(phone, live_server, world, table)
    seats = services.selectors.table_state(table).state.seats
    tap(form, "Spiel", "Rufspiel")
    tap(form, "Spieler", seats[0])
    tap(form, "Mitspieler", seats[0])  # the same player twice: the engine refuses
    phone.get_by_label("Augen der Spieler").fill("75")
    save(phone, 13)
    error = phone.locator("#error-partner")
    expect(error).to_contain_text("verschieden")
    expect(error).to_be_in_viewport(ratio=1)
    assert phone.evaluate("document.activeElement.name") == "partner"
    shot(phone, "02-refused")
    assert Entry.objects.filter(table=table).count() == 12
