"""On a phone: "Karten gekauft von" at a table of five (001 §7.1), the Stöckle each player still
has to play with who must play (001 §5.4), and a Gardareiz bid refused at its field (001 §5.3).
Set SHOTS_DIR to keep a screenshot of each page."""

from __future__ import annotations

import os
import re

import pytest
from django.test import Client
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scoring import selectors, services
from scoring.models import Table
from tests.factories import World, make_table

# Not run again on PostgreSQL: what the form offers and refuses in the browser; what is stored is
# tested on both databases in tests/scoring.
pytestmark = pytest.mark.no_db_variance


def open_table(page: Page, live_server: LiveServer, world: World, table: Table) -> None:
    client = Client()
    client.force_login(world.users["scorer"])
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page.goto(live_server.url + table.get_absolute_url())


def shot(page: Page, name: str) -> None:
    """A phone screenshot and a desktop one, when SHOTS_DIR is set."""
    folder = os.environ.get("SHOTS_DIR")
    if folder:
        page.screenshot(path=os.path.join(folder, f"{name}-390.png"), full_page=True)
        page.set_viewport_size({"width": 1280, "height": 900})
        page.screenshot(path=os.path.join(folder, f"{name}-desktop.png"), full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})


def test_a_table_of_five_offers_gekauft_von(live_server: LiveServer, page: Page, world: World) -> None:
    session = services.session_create(club=world.club, date="2026-11-20", user=None)
    table = make_table(session, players=5)
    dealer = selectors.table_state(table).state.dealer
    open_table(page, live_server, world, table)
    form = page.locator("#entry-form")
    bought = form.locator("fieldset", has_text="Karten gekauft von")
    expect(bought).to_be_visible()
    expect(bought.locator("label", has_text=dealer)).to_be_visible()
    shot(page, "five-gekauft-von")
    # Issue 21: once the dealer bought, the buttons dim the seller (dealt last) and offer the buyer.
    seller = selectors.table_state(table).state.seats[-1]
    form.locator("label", has_text="Rufspiel").first.click()
    declarer = form.locator("fieldset", has=page.locator("legend", has_text="Spieler")).first
    out = re.compile(r"\bout\b")
    expect(declarer.locator("label", has_text=dealer)).to_have_class(out)
    bought.locator("label", has_text=dealer).click()
    expect(declarer.locator("label", has_text=dealer)).not_to_have_class(out)
    expect(declarer.locator("label", has_text=seller)).to_have_class(out)
    bought.locator("label", has_text="niemand").click()
    expect(declarer.locator("label", has_text=dealer)).to_have_class(out)
    expect(declarer.locator("label", has_text=seller)).not_to_have_class(out)


def test_the_stoecklesrunde_shows_the_stoeckle_and_who_must_play(
    live_server: LiveServer, page: Page, world: World
) -> None:
    session = services.session_create(club=world.club, date="2026-11-20", user=None)
    table = make_table(session)
    services.entry_append(table=table, data={"event": "special_round", "kind": "stoecklesrunde"}, user=None)
    state = selectors.table_state(table).state
    wenz = {"game": "wenz", "declarer": state.seats[0], "augen": 80}
    services.entry_append(table=table, data=wenz, user=None)
    must = selectors.table_state(table).state.must_play
    open_table(page, live_server, world, table)
    expect(page.locator(".stoeckle")).to_contain_text(f"Will keiner spielen, muss {must} spielen")
    summary = page.locator(".stoeckle summary")  # issue 21: one line, the table a tap away
    expect(summary).to_contain_text("Stöckle noch zu spielen")
    summary.click()
    expect(page.locator(".stoeckle-table")).to_contain_text("Wenz")
    shot(page, "stoecklesrunde")


def test_a_gardareiz_bid_is_refused_at_its_field(live_server: LiveServer, page: Page, world: World) -> None:
    session = services.session_create(club=world.club, date="2026-11-20", user=None)
    table = make_table(session)
    services.entry_append(table=table, data={"event": "special_round", "kind": "gardareizrunde"}, user=None)
    declarer = selectors.table_state(table).state.seats[0]
    open_table(page, live_server, world, table)
    form = page.locator("#entry-form")
    form.locator("label", has_text="Solo").first.click()
    form.locator("fieldset").filter(has_text="Spieler").nth(0).locator("label", has_text=declarer).click()
    form.locator("fieldset", has_text="Trumpf").locator("label", has_text="Eichel").click()
    page.get_by_text("Augen gezählt?").click()  # issue 13: typed Augen sit behind the result buttons
    page.get_by_label("Augen der Spieler").fill("70")
    page.get_by_label("Gebot (Augen)").fill("65")
    page.locator("button.save").click()
    expect(page.locator("#error-bid")).to_contain_text("Gereizt wird ab 62 in Schritten von 2 Augen")
    expect(page.locator("#entry-form").get_by_text("Mitspieler")).to_be_hidden()
    shot(page, "gardareiz-bid-error")
