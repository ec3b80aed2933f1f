"""Issue 30 item 5: two phones at one table. When another phone saved while this one was typing,
the page shows what the other phone entered (game, player, amounts) and offers "the same game
(discard)" or "another game (save as Nr. N)", never the plain save that would double the hand."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from clubs.models import Member
from scoring import selectors, services
from scoring.models import Entry, Table
from tests.factories import World
from tests.scoring.test_pages import PLAYERS, hand_post, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(world: World) -> Table:
    session = services.session_create(club=world.club, date="2026-11-20", user=None)
    members = [Member.objects.get(club=world.club, display_name=name) for name in PLAYERS]
    return services.table_start(session=session, members=members, rules="allgaeu", user=None)


def collide(client: Client, table: Table) -> tuple[dict[str, Any], str]:
    """This phone's form is for Nr. 1; the other phone saves its Nr. 1 first; this one saves."""
    mine = hand_post(table, augen="45", idempotency_key="mine")
    services.entry_append(table=table, data={**_facts(table), "augen": 80}, user=None, expected_number=1)
    body = client.post(url("entry_add", table), mine, HTTP_HX_REQUEST="true").content.decode()
    return mine, body


def _facts(table: Table) -> dict[str, Any]:
    seats = selectors.table_state(table).state.seats
    return {"game": "rufspiel", "declarer": seats[0], "partner": seats[1], "called": "eichel", "deckel": 1}


def test_the_other_phones_hand_is_shown_with_two_choices_and_no_plain_save(client_as: Any, table: Table) -> None:
    _mine, body = collide(client_as("scorer"), table)
    block = body.split('id="two-phones"')[1].split("</section>")[0].replace("\xa0", " ")
    other = Entry.objects.get(table=table, number=1)
    assert "Nr. 1" in block and "Rufspiel" in block and other.data["declarer"] in block  # game, player
    assert "+0,20 €" in block and "-0,20 €" in block  # what it booked, each player
    assert "Das war dasselbe Spiel (verwerfen)" in block and "Ein anderes Spiel (als Nr. 2 speichern)" in block
    assert re.search(r'<button type="submit" class="save" hidden>', body)  # no plain save
    assert 'name="augen" value="45"' in body or re.search(r'name="augen"[^>]*value="45"', body)  # kept
    assert Entry.objects.filter(table=table).count() == 1


def test_the_same_game_discards_this_phones_input(client_as: Any, table: Table) -> None:
    client = client_as("scorer")
    mine, _body = collide(client, table)
    body = client.post(url("entry_add", table), {**mine, "two_phones": "discard"}, HTTP_HX_REQUEST="true")
    assert "Verworfen" in body.content.decode() and 'id="two-phones"' not in body.content.decode()
    assert list(Entry.objects.filter(table=table).values_list("data__augen", flat=True)) == [80]


def test_another_game_is_saved_after_the_other_phones(client_as: Any, table: Table) -> None:
    client = client_as("scorer")
    mine, body = collide(client, table)
    kept = re.search(r'name="expected_number" value="(\d+)"', body)
    assert kept and kept.group(1) == "2"
    dealer = selectors.table_state(table).state.dealer
    assert re.search(rf'<option value="{dealer}" selected>', body)  # dealt in turn: the next dealer now
    again = {**mine, "expected_number": "2", "dealer": dealer, "two_phones": "another"}
    client.post(url("entry_add", table), again)
    second = Entry.objects.get(table=table, number=2)
    assert second.data["augen"] == 45 and "dealer" not in second.data and second.dealer == dealer


def test_a_hand_typed_as_json_gets_the_same_choice(client_as: Any, table: Table) -> None:
    client = client_as("scorer")
    mine = {"data": '{"game": "rufspiel", "declarer": "Sepp Huber", "partner": "Vroni Brandl", "augen": 70}',
            "expected_number": "1", "idempotency_key": "json"}  # fmt: skip
    services.entry_append(table=table, data={**_facts(table), "augen": 80}, user=None, expected_number=1)
    body = client.post(url("entry_add", table), mine, HTTP_HX_REQUEST="true").content.decode()
    json_form = body.split('<details class="as-json" open>')[1].split("</details>")[0]
    assert 'id="two-phones"' in json_form and "Ein anderes Spiel (als Nr. 2 speichern)" in json_form
    assert "Vroni Brandl" in json_form  # the JSON typed is kept
    assert 'class="save" hidden' not in body  # the tap form above is a fresh one, its save as always


def test_an_entry_deleted_meanwhile_is_no_other_phones_hand_to_discard_against(client_as: Any, table: Table) -> None:
    """This phone's form is for Nr. 4; another phone deletes Nr. 2 (nothing new was saved). The
    page must not say "another phone saved" over an empty list and offer to throw this hand
    away as "the same game": it says what happened and saves it as Nr. 3 with the plain save."""
    client = client_as("scorer")
    for number in range(1, 4):
        services.entry_append(table=table, data={**_facts(table), "augen": 70}, user=None, expected_number=number)
    mine = hand_post(table, augen="45", idempotency_key="mine")
    services.entry_delete(entry=Entry.objects.get(table=table, number=2), user=None, reason="doppelt")
    body = client.post(url("entry_add", table), mine, HTTP_HX_REQUEST="true").content.decode()
    assert "Das war dasselbe Spiel" not in body and "hat inzwischen gespeichert" not in body
    block = body.split('id="two-phones"')[1].split("</section>")[0]
    assert "gelöscht" in block and "Nr. 3" in block
    assert 'class="save" hidden' not in body  # the plain save, for Nr. 3
    assert re.search(r'name="expected_number" value="3"', body)
    dealer = selectors.table_state(table).state.dealer
    assert re.search(rf'<option value="{dealer}" selected>', body)  # dealt in turn where it lands now
    again = {**mine, "expected_number": "3", "dealer": selectors.table_state(table).state.dealer}
    client.post(url("entry_add", table), again)
    assert list(Entry.objects.filter(table=table).values_list("number", "data__augen")) == [(1, 70), (2, 70), (3, 45)]


def test_an_event_tapped_after_a_deletion_meanwhile_says_why_it_was_not_saved(client_as: Any, table: Table) -> None:
    client = client_as("scorer")
    for number in range(1, 3):
        services.entry_append(table=table, data={**_facts(table), "augen": 70}, user=None, expected_number=number)
    services.entry_delete(entry=Entry.objects.get(table=table, number=1), user=None, reason="doppelt")
    post = {"prefix": "vergeben", "vergeben-event": "vergeben", "vergeben-by": "", "vergeben-expected_number": "3"}
    body = client.post(url("event_add", table), post, HTTP_HX_REQUEST="true").content.decode()
    assert "Nicht gespeichert: inzwischen wurde an diesem Tisch ein Eintrag gelöscht" in body
    assert Entry.objects.filter(table=table).count() == 1


def test_undo_takes_back_only_the_entry_its_button_named(client_as: Any, table: Table) -> None:
    """The button read "Nr. 1 rückgängig"; meanwhile another phone saved Nr. 2 (or the tap came
    twice). The undo must not take back Nr. 2, which nobody here asked for: it says so instead."""
    client = client_as("scorer")
    services.entry_append(table=table, data={**_facts(table), "augen": 70}, user=None, expected_number=1)
    page = client.get(table.get_absolute_url()).content.decode()
    form = page.split('action="' + url("entry_undo", table) + '"')[1].split("</form>")[0]
    number = re.search(r'name="number" value="(\d+)"', form)
    assert number and number.group(1) == "1"  # the entry the button names
    services.entry_append(table=table, data={**_facts(table), "augen": 80}, user=None, expected_number=2)
    body = client.post(url("entry_undo", table), {"number": "1"}, HTTP_HX_REQUEST="true").content.decode()
    assert list(Entry.objects.filter(table=table).values_list("number", flat=True)) == [1, 2]
    assert "Nicht rückgängig gemacht" in body and "Nr. 2" in body
    client.post(url("entry_undo", table), {"number": "2"}, HTTP_HX_REQUEST="true")  # the one named now
    client.post(url("entry_undo", table), {"number": "2"}, HTTP_HX_REQUEST="true")  # tapped twice
    assert list(Entry.objects.filter(table=table).values_list("number", flat=True)) == [1]


def test_a_save_sent_again_after_another_phones_entry_names_its_own_number(client_as: Any, table: Table) -> None:
    """Hunt 30: this phone's Nr. 1 is stored; the other phone saves Nr. 2; this phone's save
    arrives again (a double tap, a resent form). Stored once, and the page says Nr. 1, not Nr. 2."""
    client = client_as("scorer")
    mine = hand_post(table, augen="45", idempotency_key="mine")
    client.post(url("entry_add", table), mine, HTTP_HX_REQUEST="true")
    services.entry_append(table=table, data={**_facts(table), "augen": 80}, user=None, expected_number=2)
    body = client.post(url("entry_add", table), mine, HTTP_HX_REQUEST="true").content.decode()
    assert list(Entry.objects.filter(table=table).values_list("number", "data__augen")) == [(1, 45), (2, 80)]
    assert "Nr. 1 gespeichert" in body and "Nr. 2 gespeichert" not in body
