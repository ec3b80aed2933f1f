"""Issue 14 end to end in the browser: a championship of 13 players from the number draw to one
Zock-König, through every guard — the tick before drawing again and before starting a Partie, the
refused table outside the plan, the refused hand after a table's last game, the refused finish
while two players share first place, the playoff, the confirmed finish, reopening and the
trophies."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from clubs.models import Member
from scoring import services as scoring_services
from scoring.models import Entry, Table
from tests.factories import MemberFactory, World, abort_short_tables
from tournaments.models import Partie, Status, Tournament

EXTRA = ["Hias Gruber", "Kati Stadler", "Wastl Reiter", "Resi Kainz", "Beni Moser", "Loisl Wagner"]
EXTRA += ["Traudl Maier", "Gustl Hofer", "Burgi Lang"]


def login(page: Page, live_server: LiveServer, world: World, role: str) -> None:
    client = Client()
    client.force_login(world.users[role])
    cookie = client.cookies["sessionid"]
    page.context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])


def seats(table: Table) -> list[str]:
    return list(table.seats.order_by("position").values_list("name", flat=True))


def rufspiel(declarer: str, partner: str) -> dict[str, object]:
    return {"game": "rufspiel", "declarer": declarer, "partner": partner, "called": "eichel", "augen": 70, "deckel": 1}


@pytest.mark.long(52)
@pytest.mark.no_db_variance  # the browser's side; on PostgreSQL: tests/tournaments/test_championship.py
def test_thirteen_players_from_the_draw_to_one_zock_koenig(live_server: LiveServer, page: Page, world: World) -> None:
    for name in EXTRA:
        MemberFactory(club=world.club, display_name=name)
    players = list(Member.objects.filter(club=world.club).order_by("display_name"))
    assert len(players) >= 13
    page.set_viewport_size({"width": 1280, "height": 900})
    # Saving the participants plans the seating (and its alternative): about a second of work,
    # several on a busy machine. Wait for it rather than fail.
    page.set_default_timeout(60_000)
    login(page, live_server, world, "owner")
    base = live_server.url + "/clubs/test/tournaments/"

    # Set up: 4 Partien of 8 games each (10 at the table of five), 13 members.
    page.goto(base + "new/")
    page.get_by_label("Jahr").fill("2026")
    page.get_by_label("Partien").fill("4")
    page.get_by_label("Spiele je Spieler und Partie").fill("8")
    page.get_by_role("button", name="Anlegen").click()
    tournament = Tournament.objects.get(year=2026)
    for member in players[:13]:
        page.get_by_label(member.display_name, exact=True).check()
    page.get_by_role("button", name="Teilnehmer speichern").click()
    expect(page.get_by_text("13 Teilnehmer gespeichert.")).to_be_visible(timeout=60_000)
    tournament.refresh_from_db()
    assert tournament.plan["players"] == 13 and tournament.plan["alternatives"]  # a pair in every Partie

    # The plan page offers the alternative side by side; the default stays.
    page.goto(base + f"{tournament.pk}/plan/")
    expect(page.locator("table.plan-variants")).to_contain_text("höchstens zweimal dasselbe Paar")

    # The number draw; drawing again needs the tick.
    page.goto(base + f"{tournament.pk}/draw/")
    page.get_by_role("button", name="Nummern ziehen").click()
    expect(page.get_by_text("Die Nummern sind gezogen.")).to_be_visible()
    numbers = dict(tournament.participants.values_list("member_id", "number"))
    page.get_by_role("button", name="Neu ziehen").click()  # the browser holds the form back: tick missing
    expect(page.locator("form:has(button:text('Neu ziehen')) input[name=confirm]:invalid")).to_have_count(1)
    assert dict(tournament.participants.values_list("member_id", "number")) == numbers

    # Partie 1 starts only with the tick; then all four.
    for index in (1, 2, 3, 4):
        page.goto(base + f"{tournament.pk}/partie/{index}/")
        start = page.get_by_role("button", name="Partie beginnen und Sitzordnung ziehen")
        if index == 1:
            start.click()
            expect(page.locator("input[name=confirm]:invalid")).to_have_count(1)
            assert not Partie.objects.filter(tournament=tournament).exists()
        page.get_by_label(re.compile("Ja, diese Partie jetzt beginnen")).check()
        page.get_by_role("button", name="Partie beginnen und Sitzordnung ziehen").click()
        expect(page.get_by_text(f"Die {index}. Partie beginnt")).to_be_visible()
    partien = {p.index: p for p in Partie.objects.filter(tournament=tournament)}

    # A fourth table on Partie 1's evening, with players already seated: refused with the reason.
    first_table = partien[1].tables.select_related("table").first().table
    page.goto(live_server.url + f"/clubs/test/abende/{partien[1].session_id}/tische/neu/")
    for seat, name in enumerate(seats(first_table)[:4]):
        page.locator(f"select[name=seat_{seat}]").select_option(label=name)
    page.get_by_role("button", name="Tisch starten").click()
    expect(page.locator(".form-errors")).to_contain_text("nur die Tische des Spielplans")
    assert partien[1].session.tables.count() == 3

    # Two players win the only hand of Partie 1 together: they share first place on every criterion.
    a, b = seats(first_table)[1], seats(first_table)[2]
    scoring_services.entry_append(table=first_table, data=rufspiel(a, b), user=None)

    # A table of four of a later Partie without them plays its 8 games (zero-sum pairs) ...
    table = next(
        row.table
        for index in (2, 3, 4)
        for row in partien[index].tables.select_related("table")
        if row.table.seats.count() == 4 and not {a, b} & set(seats(row.table))
    )
    s = seats(table)
    for k in range(7):
        scoring_services.entry_append(table=table, data=rufspiel(*(s[:2] if k % 2 == 0 else s[2:])), user=None)
    page.goto(live_server.url + table.get_absolute_url())
    expect(page.get_by_text("Das nächste Spiel (Nr. 8) ist das letzte dieses Tisches.")).to_be_visible()
    # The table page reads its offline.json in the background; on the in-memory SQLite test
    # database that read locks the table against a write from this thread, so let it finish.
    page.wait_for_load_state("networkidle")
    scoring_services.entry_append(table=table, data=rufspiel(s[2], s[3]), user=None)
    # ... and refuses a ninth, typed on the phone form.
    page.goto(live_server.url + table.get_absolute_url())
    expect(page.get_by_text("Alle 8 Spiele gespielt")).to_be_visible()
    form = page.locator("#entry-form")
    form.locator("label", has_text="Rufspiel").click()
    form.locator("fieldset").nth(1).locator("label", has_text=s[0]).click()
    form.locator("fieldset").nth(2).locator("label", has_text=s[1]).click()
    form.locator("fieldset", has=page.locator("legend", has_text="Gerufen")).locator("label", has_text="Eichel").click()
    page.get_by_text("Augen gezählt?").click()  # issue 13: typed Augen sit behind the result buttons
    page.get_by_label("Augen der Spieler").fill("72")
    page.get_by_label("Augen der Spieler").press("Enter")
    expect(page.get_by_text("alle 8 Spiele dieser Partie gespielt")).to_be_visible(timeout=15_000)
    assert Entry.objects.filter(table=table).count() == 8

    # The Partie page shows that table done.
    index = table.partie_table.partie.index
    page.goto(base + f"{tournament.pk}/partie/{index}/")
    expect(page.locator("mark.table-done")).to_have_count(1)

    # Finishing: what is missing is listed, and first place shared refuses it.
    page.goto(base + f"{tournament.pk}/")
    page.get_by_role("button", name="Meisterschaft abschließen …").click()
    expect(page.locator(".finish-check")).to_contain_text("1. Partie, Tisch 1: 1 von")
    expect(page.locator(".refusal")).to_contain_text("teilen sich den ersten Platz")
    expect(page.get_by_role("button", name="Meisterschaft abschließen")).to_have_count(0)

    # The playoff decides first place.
    page.goto(base + f"{tournament.pk}/ranking/")
    expect(page.locator("table.ranking tbody tr").nth(1)).to_contain_text("geteilt")
    page.get_by_text("Stechen eintragen").click()
    playoff = page.locator("form[action$='/playoffs/']")
    playoff.get_by_label(a, exact=True).check()
    playoff.get_by_label(b, exact=True).check()
    playoff.get_by_label("Sieger").select_option(label=a)
    playoff.get_by_role("button", name="Eintragen").click()
    expect(page.get_by_text("Stechen eingetragen.")).to_be_visible()

    # The tables short of their games are broken off (issue 20), then finishing asks for the tick.
    abort_short_tables(tournament)
    page.goto(base + f"{tournament.pk}/finish/")
    page.get_by_role("button", name="Meisterschaft abschließen").click()
    assert Tournament.objects.get(pk=tournament.pk).status == Status.RUNNING
    page.get_by_label("Ja, die Meisterschaft abschließen.").check()
    page.get_by_role("button", name="Meisterschaft abschließen").click()
    expect(page.get_by_text("Die Meisterschaft ist abgeschlossen.", exact=True)).to_be_visible()
    assert all(p.session.is_closed for p in Partie.objects.filter(tournament=tournament))

    # Reopening (the owner, with a reason) puts the evenings back; finishing again ends with one
    # Zock-König.
    page.get_by_role("link", name="Wieder öffnen …").click()
    page.get_by_label("Grund", exact=True).fill("Spiel nachgetragen")
    page.get_by_label("Ja, die Meisterschaft wieder öffnen").check()
    page.get_by_role("button", name="Meisterschaft wieder öffnen").click()
    expect(page.get_by_text("Die Meisterschaft ist wieder offen")).to_be_visible()
    page.goto(live_server.url + table.get_absolute_url())
    expect(page.get_by_text("Der Abend ist abgeschlossen.")).to_have_count(0)
    page.goto(base + f"{tournament.pk}/finish/")
    page.get_by_label("Ja, die Meisterschaft abschließen.").check()
    page.get_by_role("button", name="Meisterschaft abschließen").click()
    page.goto(base + "trophies/")
    kings = page.locator("table").first.locator("tbody tr").first
    expect(kings).to_contain_text(a)
    expect(kings).not_to_contain_text(b)
    expect(page.locator(".podium-list .medal", has_text="Gold")).to_have_count(1)
