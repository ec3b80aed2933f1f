"""Open tournament pages: one small test per page (the access per role is the access matrix's,
tests/clubs/test_access_matrix.py, and the hostile sweep's, tests/test_hostile_requests.py)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from opentournaments import selectors, services
from opentournaments.models import OpenTournament, TableScore
from tests.factories import World, make_open_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(world: World) -> OpenTournament:
    return make_open_tournament(world.club, players=9)


def url(name: str, tournament: OpenTournament, **kwargs: object) -> str:
    return reverse(f"opentournaments:{name}", kwargs={"slug": tournament.club.slug, "open_id": tournament.pk, **kwargs})


def test_the_list_shows_the_tournaments_to_a_member(client_as, tournament: OpenTournament) -> None:
    page = client_as("member").get(reverse("opentournaments:list", kwargs={"slug": tournament.club.slug}))
    assert "Preisschafkopf" in page.content.decode()
    assert "Neues Turnier" not in page.content.decode()  # an owner's


def test_an_owner_creates_a_tournament_and_lands_at_the_desk(client_as, world: World) -> None:
    client: Client = client_as("owner")
    data = {
        "name": "Schafkopfrennen",
        "starts_on": "2026-12-05",
        "rounds": "3",
        "games_per_round": "36",
        "tariff": "preisschafkopf",
        "tie_breaks": "soli,best_round,lot",
        "entry_fee": "12,50",
        "prize_shares": "30 20 10",
        "prize_items": "Geräuchertes\nBrotzeitkorb",
    }
    response = client.post(reverse("opentournaments:create", kwargs={"slug": world.club.slug}), data)
    tournament = OpenTournament.objects.get()
    assert response.url == url("desk", tournament)
    assert (tournament.entry_fee_cents, tournament.prize_shares, tournament.prize_items) == (
        1250,
        [30, 20, 10],
        ["Geräuchertes", "Brotzeitkorb"],
    )
    data["prize_amounts"] = "100 50"
    page = client.post(reverse("opentournaments:create", kwargs={"slug": world.club.slug}), data)
    assert "nicht beides" in page.content.decode()
    assert OpenTournament.objects.count() == 1


def test_the_desk_registers_with_the_next_number_and_finds_a_returning_guest(
    client_as, tournament: OpenTournament
) -> None:
    client: Client = client_as("scorer")
    page = client.get(url("desk", tournament))
    assert re.search(r"<strong>10</strong>", page.content.decode())
    response = client.post(url("desk", tournament), {"name": "Vroni Brandl", "residence": "Kempten", "paid": "on"})
    assert response.status_code == 302
    assert tournament.registrations.get(start_number=10).paid
    page = client.get(url("desk", tournament), {"q": "vron"})
    assert "Vroni Brandl" in page.content.decode()  # the club's member of that name, to link
    assert "<strong>11</strong>" in page.content.decode()
    refused = client.post(url("desk", tournament), {"name": "", "residence": "x"})
    assert refused.status_code == 200 and "Dieses Feld ist zwingend erforderlich" in refused.content.decode()


def test_startgeld_and_withdrawal_from_the_list(client_as, tournament: OpenTournament) -> None:
    client: Client = client_as("scorer")
    gast = tournament.registrations.get(start_number=2)
    client.post(url("paid", tournament, registration_id=gast.pk), {"paid": "1", "back": "desk"})
    client.post(url("withdraw", tournament, registration_id=gast.pk), {})
    gast.refresh_from_db()
    assert gast.paid and gast.withdrawn_before == 1
    page = client.get(url("detail", tournament))
    assert "abgemeldet ab Runde 1" in page.content.decode()
    assert "90,00" in page.content.decode()  # six paid at 15 €


def test_an_owner_draws_a_round_and_everyone_reads_the_seating(client_as, tournament: OpenTournament) -> None:
    owner = client_as("owner")
    assert 'name="round" value="1"' in owner.get(url("detail", tournament)).content.decode()
    response = owner.post(url("draw", tournament), {"round": "1"})
    assert response.url == url("round", tournament, round_number=1)
    # The same form again (a double click, the browser's resend): round 1 again, nothing drawn.
    again = owner.post(url("draw", tournament), {"round": "1"}, follow=True)
    assert again.redirect_chain[-1][0] == url("round", tournament, round_number=1)
    assert "Runde 1 ist schon ausgelost" in again.content.decode()
    stale = owner.post(url("draw", tournament), {}, follow=True)  # a page from before the form named it
    assert "bitte neu laden" in stale.content.decode()
    assert tournament.round_set.count() == 1
    page = client_as("member").get(response.url).content.decode()
    assert "Tisch 2" in page and "gibt zuerst" in page
    assert page.count("Gast 00") == 2 * 9  # by table and by name


def test_the_quick_entry_saves_a_table_and_focuses_the_next(client_as, tournament: OpenTournament) -> None:
    round_ = services.round_draw(tournament=tournament, seed=1, user=None)
    first = round_.tables.get(number=1)
    client: Client = client_as("scorer")
    page = client.get(url("entry", tournament, round_number=1)).content.decode()
    assert re.search(r'name="t1-points_\d+"[^>]*autofocus|autofocus[^>]*name="t1-points_\d+"', page)
    data = {}
    for i, n in enumerate(first.seats):
        data[f"t1-points_{n}"] = str([30, -10, -15, -5, 0][i])
        data[f"t1-soli_{n}"] = "1"
    response = client.post(url("table_entry", tournament, round_number=1, table_no=1), data)
    assert response.url.endswith("?focus=2")  # no fragment: it would keep the browser from autofocus
    page = client.get(response.url).content.decode()
    assert re.search(r'autofocus[^>]*name="t2-points_\d+"|name="t2-points_\d+"[^>]*autofocus', page)
    data[f"t1-points_{first.seats[0]}"] = "31"
    page = client.post(url("table_entry", tournament, round_number=1, table_no=1), data)
    assert "ergeben zusammen 1 statt 0" in page.content.decode()
    assert sorted(TableScore.objects.values_list("points", flat=True)) == sorted(
        [30, -10, -15, -5, 0][: len(first.seats)]
    )


def test_the_seating_list_prints_as_a_pdf(client_as, tournament: OpenTournament) -> None:
    services.round_draw(tournament=tournament, seed=1, user=None)
    response = client_as("member").get(url("round_pdf", tournament, round_number=1))
    assert response["Content-Type"] == "application/pdf" and response.content.startswith(b"%PDF")


def test_the_score_sheets_name_the_dealer_of_every_game(client_as, tournament: OpenTournament) -> None:
    round_ = services.round_draw(tournament=tournament, seed=1, user=None)
    sheets = selectors.score_sheets(round_)
    five = next(s for s in sheets if len(s.table.seats) == 5)
    assert len(five.rows) == 40  # 32 games per player: the five deal 5/4 of them
    seats = five.table.table.seats
    assert [row.dealer.number for row in five.rows[:6]] == [*seats, seats[0]]
    assert [row.out for row in five.rows[:2]] == [{seats[0]}, {seats[1]}]  # the dealer sits out, shaded
    response = client_as("member").get(url("sheets_pdf", tournament, round_number=1))
    assert response.content.startswith(b"%PDF")
