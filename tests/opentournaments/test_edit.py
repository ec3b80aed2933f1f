"""Editing an open tournament (issue 31 §1): what a draw or an entered figure depends on is
locked with the reason, prizes until the prize list is final, Sachpreise for any place and the
last, the payout helper in whole euros, a shared place's Sachpreis listed once."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from opentournaments import selectors, services
from opentournaments.forms import PrizeItemsField
from opentournaments.models import OpenTournament
from tests.factories import World, make_open_tournament, open_round_played

pytestmark = pytest.mark.django_db


def url(name: str, tournament: OpenTournament, **kwargs: object) -> str:
    return reverse(f"opentournaments:{name}", kwargs={"slug": tournament.club.slug, "open_id": tournament.pk, **kwargs})


@pytest.mark.parametrize(
    ("text", "items", "last"),
    [
        ("Geräuchertes\nBrotzeitkorb", ["Geräuchertes", "Brotzeitkorb"], ""),
        ("1: Korb\n11: Brotzeit\nletzter: Trostpreis", ["Korb", *[""] * 9, "Brotzeit"], "Trostpreis"),
        ("3. Schinken\nWurst\n\n", ["", "", "Schinken", "Wurst"], ""),
        # A prize whose word begins like "last"/"letzte" is a prize, not the last place's.
        ("Lastenrad\nLetzterer Korb", ["Lastenrad", "Letzterer Korb"], ""),
        ("letzter Platz: Trostpreis", [], "Trostpreis"),
        ("Letzte: Ölung", [], "Ölung"),
    ],
)
def test_sachpreise_name_their_place_or_follow_the_line_above(text: str, items: list[str], last: str) -> None:
    assert PrizeItemsField().clean(text) == (items, last)


@pytest.mark.parametrize("text", ["0: Nichts", "401: Zu weit", "2: A\n2: B", "letzter:", "5:"])
def test_sachpreise_out_of_bounds_are_refused(text: str) -> None:
    with pytest.raises(ValidationError):
        PrizeItemsField().clean(text)


def test_the_payout_helper_shares_70_percent_over_10_places() -> None:
    shares = selectors.payout_shares(70, 10)
    assert shares == sorted(shares, reverse=True) and sum(shares) == 70 and len(shares) == 10
    assert selectors.payout_shares(10, 20) == []  # less than 1 % a place


@given(percent=st.integers(1, 100), places=st.integers(1, 100))
def test_payout_shares_sum_to_the_percent_and_fall(percent: int, places: int) -> None:
    shares = selectors.payout_shares(percent, places)
    if shares:
        assert sum(shares) == percent and shares == sorted(shares, reverse=True) and min(shares) >= 1


def test_what_the_draw_and_the_figures_depend_on_is_locked_with_the_reason(world: World) -> None:
    tournament = make_open_tournament(world.club, players=8, rounds=2)
    services.open_tournament_update(tournament=tournament, name="Preisschafkopf Dorfen", rounds=3, user=None)
    round1 = services.round_draw(tournament=tournament, seed=1, user=None)
    with pytest.raises(ValidationError) as error:
        services.open_tournament_update(tournament=tournament, rounds=4, user=None)
    assert "ausgelost" in error.value.message_dict["rounds"][0]
    services.open_tournament_update(tournament=tournament, games_per_round=36, user=None)
    open_round_played(round1)
    assert set(selectors.edit_locks(tournament)) == {"rounds", "games_per_round", "soli_count"}
    with pytest.raises(ValidationError):
        services.open_tournament_update(tournament=tournament, games_per_round=32, user=None)
    services.open_tournament_update(tournament=tournament, entry_fee_cents=1200, prize_shares=[50, 20], user=None)
    tournament.refresh_from_db()
    assert (tournament.name, tournament.rounds, tournament.entry_fee_cents) == ("Preisschafkopf Dorfen", 3, 1200)
    with pytest.raises(ValidationError):  # the days bounded as on creation
        services.open_tournament_update(tournament=tournament, ends_on=datetime.date(2026, 12, 30), user=None)


def test_prizes_lock_once_the_prize_list_is_final(world: World) -> None:
    tournament = make_open_tournament(world.club, players=8, rounds=1)
    open_round_played(services.round_draw(tournament=tournament, seed=1, user=None))
    assert selectors.prize_list(tournament).final
    with pytest.raises(ValidationError) as error:
        services.open_tournament_update(tournament=tournament, prize_shares=[50], user=None)
    assert "endgültig" in error.value.message_dict["prize_shares"][0]
    services.open_tournament_update(tournament=tournament, name="Neu", user=None)  # the name, always


def test_the_startgeld_stays_once_the_prize_list_is_final(world: World, client_as) -> None:
    """The pot is the Startgeld taken: a tick at the desk after the prizes were read out would
    change them. The tick, the edit form and the service all keep it; the name may still change."""
    tournament = make_open_tournament(world.club, players=8, rounds=1)
    late = tournament.registrations.get(start_number=3)
    services.registration_set_paid(registration=late, paid=False, user=None)  # while open, freely
    open_round_played(services.round_draw(tournament=tournament, seed=1, user=None))
    pot = selectors.prize_list(tournament).kasse.total_cents
    with pytest.raises(ValidationError) as error:
        services.registration_set_paid(registration=late, paid=True, user=None)
    assert "endgültig" in error.value.message_dict["paid"][0]
    client = client_as("scorer")
    page = client.post(url("paid", tournament, registration_id=late.pk), {"paid": "1"}, follow=True)
    assert "endgültig" in page.content.decode()
    assert "kassieren" not in client.get(url("detail", tournament)).content.decode()
    edit = url("registration", tournament, registration_id=late.pk)
    assert 'name="paid"' in client.get(edit).content.decode() and "endgültig" in client.get(edit).content.decode()
    client.post(edit, {"name": "Neuer Name", "residence": "", "paid": "on"})
    late.refresh_from_db()
    assert (late.name, late.paid) == ("Neuer Name", False)
    assert selectors.prize_list(tournament).kasse.total_cents == pot


def test_sachpreise_for_place_11_and_the_last_and_a_shared_place_listed_once(world: World) -> None:
    tournament = make_open_tournament(world.club, players=12, rounds=1)
    items = [*[""] * 6, "Korb A", "Korb B", "", "", "Brotzeit"]
    tournament = services.open_tournament_update(
        tournament=tournament, prize_items=items, prize_item_last="Trostpreis", tie_breaks=["soli"], user=None
    )
    round1 = services.round_draw(tournament=tournament, seed=1, user=None)
    tables = list(round1.tables.all())
    # Everyone 0 at the first table: its four share place 7 (30 30 20 20 10 10 above, -60 -60 below).
    services.table_figures_enter(
        table=tables[0], points=dict.fromkeys(tables[0].seats, 0), soli=dict.fromkeys(tables[0].seats, 0), user=None
    )
    for table in tables[1:]:
        points = {n: 10 * (i + 1) for i, n in enumerate(table.seats[1:])}
        points[table.seats[0]] = -sum(points.values())
        services.table_figures_enter(table=table, points=points, soli=dict.fromkeys(table.seats, 0), user=None)
    rows = selectors.open_ranking(tournament).rows
    assert [row.place for row in rows] == [1, 1, 3, 3, 5, 5, 7, 7, 7, 7, 11, 11]
    listed = [(row.place, row.prize_item, row.item_span) for row in rows]
    assert listed[6:] == [
        (7, "Korb A / Korb B", 4),
        (7, "", 0),
        (7, "", 0),
        (7, "", 0),
        (11, "Brotzeit / Trostpreis", 2),  # place 11 is the last here
        (11, "", 0),
    ]
    prizes = selectors.prize_list(tournament)
    assert [row.place for row in prizes.rows] == [7, 7, 7, 7, 11, 11]


def test_whole_euros_round_each_prize_down_and_the_rest_stays(world: World) -> None:
    tournament = make_open_tournament(world.club, players=9, rounds=1)  # 5 paid × 15 € = 75 €
    tournament = services.open_tournament_update(
        tournament=tournament, prize_shares=selectors.payout_shares(70, 3), prize_whole_euros=True, user=None
    )
    open_round_played(services.round_draw(tournament=tournament, seed=1, user=None))
    prizes = selectors.prize_list(tournament)
    assert prizes.rows and all(row.prize_cents % 100 == 0 for row in prizes.rows if row.prize_cents)
    assert prizes.stays_cents == 7500 - prizes.paid_out_cents >= 7500 * 30 // 100


def test_the_edit_page_saves_shows_locks_and_computes_the_payout(client_as, world: World) -> None:
    tournament = make_open_tournament(world.club, players=8, rounds=2)
    services.round_draw(tournament=tournament, seed=1, user=None)
    client = client_as("owner")
    page = client.get(url("edit", tournament)).content.decode()
    assert "Runde 1 ist ausgelost" in page
    # Said in words: an emoji lock is an empty box where the laptop has no emoji font (Debian's Chromium).
    assert "gesperrt:" in page and "\N{LOCK}" not in page
    data = {
        "name": "Preisschafkopf",
        "starts_on": "2026-11-28",
        "games_per_round": "32",
        "tie_breaks": "soli,best_round,lot",
        "soli_count": "won",
        "entry_fee": "12",
        "payout_percent": "70",
        "payout_places": "10",
        "prize_items": "11: Brotzeit\nletzter: Trostpreis",
        "payout": "1",
    }
    page = client.post(url("edit", tournament), data).content.decode()
    assert "noch nicht gespeichert" in page
    tournament.refresh_from_db()
    assert tournament.prize_shares == []
    del data["payout"]
    data["prize_shares"] = " ".join(map(str, selectors.payout_shares(70, 10)))
    data["prize_whole_euros"] = "on"
    assert client.post(url("edit", tournament), {**data, "rounds": "5"}).status_code == 302
    tournament.refresh_from_db()
    assert tournament.rounds == 2  # locked: the disabled field keeps its value
    assert (tournament.entry_fee_cents, sum(tournament.prize_shares), tournament.prize_whole_euros) == (1200, 70, True)
    assert (tournament.prize_items[10], tournament.prize_item_last) == ("Brotzeit", "Trostpreis")


def test_a_create_form_sent_twice_creates_one_tournament(client_as, world: World) -> None:
    client = client_as("owner")
    create = reverse("opentournaments:create", kwargs={"slug": world.club.slug})
    key = client.get(create).content.decode().split('name="key" value="')[1].split('"')[0]
    data = {
        "name": "Rennen",
        "starts_on": "2026-12-05",
        "rounds": "3",
        "games_per_round": "32",
        "tariff": "preisschafkopf",
        "entry_fee": "10",
        "key": key,
    }
    first = client.post(create, data)
    assert first.status_code == 302, re.findall(r'class="errorlist[^>]*>(.*?)</ul>', first.content.decode())
    assert client.post(create, data).status_code == 302
    assert OpenTournament.objects.filter(club=world.club, name="Rennen").count() == 1
