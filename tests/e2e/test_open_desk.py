"""Issue 31 items 1–4 at the desk, in the browser (Debian Chromium, a 390 px phone-sized window
as a small desk laptop would be narrower still): a Preisschafkopf of 12 players. At the door a
double Enter stores once, the same name and Wohnort again is asked about, "weiss" finds Weiß, a
Wohnort is corrected and a registration made by mistake removed (its number not given again).
The owner edits the tournament: Zweiterfassung on, Sachpreise for place 11 and the last, the
payout helper's 70 % on 10 places in whole euros. Every table is typed twice; one second typing
slips, the Zettel-Übersicht and the table show the mismatch, the paper settles it. The ranking
shows the points as typed and the Sachpreise on places 11 and 12. Screenshots: /tmp/shots-open-desk."""

from __future__ import annotations

import datetime
from pathlib import Path

from django.urls import reverse
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from opentournaments import selectors, services
from opentournaments.models import OpenTournament, RoundTable
from tests.e2e.test_open_tournament import draw
from tests.e2e.test_score_sheet import login
from tests.factories import World

SHOTS = Path("/tmp/shots-open-desk")


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def url(world: World, tournament: OpenTournament, name: str, **kwargs: object) -> str:
    return reverse(f"opentournaments:{name}", kwargs={"slug": world.club.slug, "open_id": tournament.pk, **kwargs})


def no_sideways_scroll(page: Page) -> None:
    wide = page.evaluate(
        "[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)"
        ".map(e => e.tagName + '.' + e.className).slice(0, 8)"
    )
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), wide


def register(page: Page, name: str, residence: str) -> None:
    page.locator("#id_name").fill(name)
    page.locator("#id_residence").fill(residence)
    page.get_by_role("button", name="Anmelden als Nr.").click()


def type_table(page: Page, table: RoundTable, points: list[int]) -> None:
    article = page.locator(f"#t{table.number}")
    for number, value in zip(table.seats, points, strict=True):
        article.locator(f"#id_t{table.number}-points_{number}").fill(str(value))
        article.locator(f"#id_t{table.number}-soli_{number}").fill("0")
    article.get_by_role("button", name="Speichern").click()


def test_the_desk_catches_its_own_mishaps(live_server: LiveServer, page: Page, world: World) -> None:
    earlier = services.open_tournament_create(
        club=world.club, name="Herbstrennen", starts_on=datetime.date(2026, 10, 3), user=None
    )
    services.registration_create(tournament=earlier, name="Monika Weiß", residence="Übersee", user=None)
    tournament = services.open_tournament_create(
        club=world.club,
        name="Preisschafkopf",
        starts_on=datetime.date(2026, 11, 28),
        rounds=1,
        games_per_round=8,
        entry_fee_cents=1000,
        user=None,
    )
    for n in range(1, 10):
        services.registration_create(tournament=tournament, name=f"Gast {n:02d}", paid=True, user=None)
    login(page, live_server, world, "owner")
    desk = live_server.url + url(world, tournament, "desk")

    # "weiss" finds Monika Weiß of an earlier tournament: registered with a tap, as Nr. 10.
    page.goto(desk + "?q=weiss")
    page.get_by_role("button", name="Monika Weiß, Übersee").click()
    expect(page.get_by_text("Startnummer 10: Monika Weiß")).to_be_visible()

    # A double Enter at the door: Xaver Bründl once (Nr. 11), 10 € once in the Kasse.
    page.locator("#id_name").fill("Xaver Bründl")
    page.locator("#id_residence").fill("Dorfen")
    page.locator("#id_residence").press("Enter")
    page.locator("#id_residence").press("Enter", no_wait_after=True)
    expect(page.get_by_text("Startnummer 11: Xaver Bründl")).to_be_visible()
    assert tournament.registrations.filter(name="Xaver Bründl").count() == 1
    # The same name and Wohnort again asks first; "Nein" stores nothing.
    register(page, "Xaver Bründl", "Dorfen")
    expect(page.get_by_text("ist schon angemeldet als Nr. 11")).to_be_visible()
    no_sideways_scroll(page)
    shot(page, "desk-duplicate-390")
    page.get_by_role("button", name="Nein, abbrechen").click()
    assert tournament.registrations.filter(name="Xaver Bründl").count() == 1

    # A Wohnort typed wrong is corrected; a registration made by mistake is removed.
    register(page, "Sepp Gruber", "Dorfn")
    register(page, "Falsch Angemeldet", "Nirgends")
    expect(page.get_by_role("button", name="Anmelden als Nr. 14")).to_be_visible()
    page.get_by_role("link", name="Sepp Gruber").click()
    page.locator("#id_residence").fill("Dorfen")
    shot(page, "registration-390")
    no_sideways_scroll(page)
    page.get_by_role("button", name="Speichern").click()
    expect(page.get_by_role("cell", name="Dorfen", exact=True).first).to_be_visible()
    page.get_by_role("link", name="Falsch Angemeldet").click()
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Anmeldung entfernen").click()
    expect(page.get_by_role("button", name="Anmelden als Nr. 14")).to_be_visible()  # 13 is not given again
    assert tournament.registrations.get(name="Sepp Gruber").residence == "Dorfen"
    assert tournament.registrations.count() == 12
    page.goto(desk + "?q=bruendl")
    expect(page.get_by_text("schon angemeldet als Nr. 11: Xaver Bründl")).to_be_visible()
    no_sideways_scroll(page)
    shot(page, "desk-search-390")

    # The owner edits the tournament: Zweiterfassung, Sachpreise for place 11 and the last, 70 %
    # on 10 places in whole euros by the helper.
    page.goto(live_server.url + url(world, tournament, "edit"))
    page.locator("#id_double_entry").check()
    page.locator("#id_prize_items").fill("1: Geräuchertes\n11: Brotzeitkorb\nletzter: Trostpreis")
    page.get_by_role("button", name="Anteile ausrechnen").click()
    expect(page.get_by_text("noch nicht gespeichert")).to_be_visible()
    shares = selectors.payout_shares(70, 10)
    expect(page.locator("#id_prize_shares")).to_have_value(" ".join(map(str, shares)))
    no_sideways_scroll(page)
    shot(page, "edit-390")
    page.get_by_role("button", name="Speichern", exact=True).last.click()
    expect(page.get_by_text("Turnier gespeichert.")).to_be_visible()
    tournament.refresh_from_db()
    assert tournament.double_entry and tournament.prize_whole_euros and tournament.prize_shares == shares

    draw(page, live_server, world, tournament, 1)
    tables = list(tournament.round_set.get().tables.all())
    assert len(tables) == 3
    typed = {t.number: [30 - 20 * t.number, -10, -5, 20 * t.number - 15] for t in tables}
    entry = live_server.url + url(world, tournament, "entry", round_number=1)
    page.goto(entry)
    expect(page.locator(".tile.waiting")).to_have_count(3)
    for table in tables:  # the first typing of every sheet
        type_table(page, table, typed[table.number])
    expect(page.locator(".tile.typed-once")).to_have_count(3)
    slip = [typed[1][0], -1, -14, typed[1][3]]  # -10 and -5 typed as -1 and -14
    type_table(page, tables[0], slip)
    expect(page.locator("#t1 div.mismatch")).to_contain_text("Die Erfassungen weichen ab")
    expect(page.locator(".tile.mismatch")).to_have_count(1)
    expect(page.locator("#t1 tr.differs")).to_have_count(2)
    shot(page, "entry-mismatch-390")
    no_sideways_scroll(page)
    page.set_viewport_size({"width": 1280, "height": 900})
    shot(page, "entry-mismatch-1280")
    page.set_viewport_size({"width": 390, "height": 844})
    for table in tables:  # the paper settles table 1; tables 2 and 3 agree
        type_table(page, table, typed[table.number])
    expect(page.locator(".tile.confirmed")).to_have_count(3)
    shot(page, "entry-confirmed-390")

    page.goto(live_server.url + url(world, tournament, "ranking"))
    rows = page.locator("table.ranking tbody tr")
    expect(rows).to_have_count(12)
    expect(rows.nth(10)).to_contain_text("Brotzeitkorb")
    expect(rows.nth(11)).to_contain_text("Trostpreis")
    expect(rows.nth(0)).to_contain_text("Geräuchertes")
    # The points as typed, recounted here from what the desk typed (not from rank_open).
    points = {n: p for t in tables for n, p in zip(t.seats, typed[t.number], strict=True)}
    shown = {
        int(row.locator("td").nth(1).inner_text()): int(row.locator("td").nth(4).inner_text()) for row in rows.all()
    }
    assert shown == points
    for row in rows.all():  # whole euros: 70 % of 120 € over 10 places, each rounded down
        prize = row.locator("td").nth(7).inner_text()
        assert not prize or ",00" in prize or "€" not in prize
    no_sideways_scroll(page)
    shot(page, "ranking-390")
    for name, path in (
        ("round-390", url(world, tournament, "round", round_number=1)),
        ("detail-390", url(world, tournament, "detail")),
        ("create-390", reverse("opentournaments:create", kwargs={"slug": world.club.slug})),
    ):
        page.goto(live_server.url + path)
        no_sideways_scroll(page)
        shot(page, name)
    expect(page.get_by_role("button", name="Anteile ausrechnen")).to_be_visible()
