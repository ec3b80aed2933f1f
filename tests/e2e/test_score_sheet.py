"""On a phone-sized screen the Schreiber taps a hand in, sees every payout before saving, saves
with Enter and sees the sheet update; a wrong value is flagged at its field."""

from __future__ import annotations

from django.test import Client
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from clubs.models import Member
from scoring import services
from scoring.models import Entry
from tests.factories import World

PLAYERS = ["Sepp Huber", "Zenzi Mayr", "Girgl Lechner", "Vroni Brandl"]


def login(page: Page, live_server: LiveServer, world: World, role: str) -> None:
    client = Client()
    client.force_login(world.users[role])
    cookie = client.cookies["sessionid"]
    page.context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])


def test_a_hand_is_entered_on_a_phone_and_the_sheet_updates(live_server: LiveServer, page: Page, world: World) -> None:
    session = services.session_create(club=world.club, date="2026-11-20", place="Krone", user=None)
    members = [Member.objects.get(club=world.club, display_name=name) for name in PLAYERS]
    table = services.table_start(session=session, members=members, rules="allgaeu", user=None)
    login(page, live_server, world, "scorer")
    page.goto(live_server.url + table.get_absolute_url())

    form = page.locator("#entry-form")
    expect(form.get_by_text("Mitspieler")).to_be_hidden()  # only what the chosen game needs
    form.locator("label", has_text="Rufspiel").click()
    expect(form.get_by_text("Mitspieler")).to_be_visible()
    form.locator("fieldset").nth(1).locator("label", has_text="Zenzi Mayr").click()
    form.locator("fieldset").nth(2).locator("label", has_text="Girgl Lechner").click()
    page.get_by_text("Augen gezählt?").click()  # counted: the Augen decide, not a result button
    augen = page.get_by_label("Augen der Spieler")
    augen.fill("130")
    expect(page.locator("#error-augen")).to_contain_text("kleiner oder gleich 120")
    augen.fill("72")
    preview = page.locator("#preview")
    expect(preview).to_contain_text("+0,20")  # Rufspiel 10, one Deckel: 20 each
    expect(preview).to_contain_text("Deckel ×2")
    expect(page.locator("#error-augen")).to_be_empty()

    augen.press("Enter")
    expect(page.get_by_text("Nr. 1 gespeichert")).to_be_visible()
    row = page.locator("#entry-1")
    expect(row).to_contain_text("Rufspiel, Zenzi Mayr mit Girgl Lechner, 72 Augen")
    expect(row).to_contain_text("+0,20")
    expect(page.get_by_role("button", name="Nr. 2 speichern")).to_be_visible()
    expect(page.get_by_text("Es gibt: Zenzi Mayr")).to_be_visible()
    assert Entry.objects.filter(table=table).count() == 1
