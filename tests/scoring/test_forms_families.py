"""The tap forms of Doppelkopf and Saukopf tables: a hand posted field by field is saved as the
facts of spec §2.3 / §2.2 with its ledger, a refusal lands at its field in German with the input
kept, the preview shows the payouts, and the JSON fallback stays at hand."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from clubs.models import Member
from scoring import services
from scoring.models import Entry, LedgerEntry, Table
from tests.factories import World

pytestmark = pytest.mark.django_db

PLAYERS = ["Sepp Huber", "Zenzi Mayr", "Girgl Lechner", "Vroni Brandl"]


def start(world: World, rules: str, seats: int = 4) -> Table:
    session = services.session_create(club=world.club, date="2026-11-20", place="Krone", user=None)
    members = [Member.objects.get(club=world.club, display_name=name) for name in PLAYERS[:seats]]
    return services.table_start(session=session, members=members, rules=rules, user=None)


def url(name: str, table: Table) -> str:
    kwargs = {"slug": table.session.club.slug, "session_id": table.session_id, "table_id": table.pk}
    return reverse(f"scoring:{name}", kwargs=kwargs)


def post(table: Table, **fields: Any) -> dict[str, Any]:
    number = Entry.objects.filter(table=table).count() + 1
    data = {"expected_number": str(number), "idempotency_key": f"key-{number}", **fields}
    return {key: value for key, value in data.items() if value is not None}


def ledger(entry: Entry) -> dict[str, int]:
    return {row.member.display_name: row.amount for row in LedgerEntry.objects.filter(entry=entry)}


# --- Doppelkopf -----------------------------------------------------------------------------------


def dk_hand(table: Table, **fields: Any) -> dict[str, Any]:
    hand = {
        "game": "normal",
        "re": ["Sepp Huber", "Zenzi Mayr"],
        "augen": "150",
        "ann_re": ["re"],
        "re_fuchs_gefangen": "1",
        "contra_doppelkopf": "1",
        "re_doppelkopf": "0",
    }
    hand.update(fields)
    return post(table, **hand)


def test_the_doppelkopf_page_shows_the_tap_form_and_the_json_fallback(client_as: Any, world: World) -> None:
    table = start(world, "doppelkopf")
    page = client_as("scorer").get(table.get_absolute_url()).content.decode()
    assert 'id="entry-form"' in page and 'value="stille_hochzeit"' in page and "Fleischloser" in page
    assert "Sonderpunkte Contra" in page and "Charlie gefangen" in page
    assert "Als JSON eingeben" in page and "Angaben (JSON)" in page


def test_a_doppelkopf_hand_is_saved_from_taps(client_as: Any, world: World) -> None:
    table = start(world, "doppelkopf")
    response = client_as("scorer").post(url("entry_add", table), dk_hand(table), HTTP_HX_REQUEST="true")
    assert "Nr. 1 gespeichert" in response.content.decode()
    entry = Entry.objects.get(table=table)
    assert entry.data == {
        "game": "normal",
        "re": ["Sepp Huber", "Zenzi Mayr"],
        "augen": 150,
        "announcements": {"re": ["re"]},
        "extras": [{"side": "re", "kind": "fuchs_gefangen"}, {"side": "contra", "kind": "doppelkopf"}],
    }
    # Gewonnen 1, Re angesagt 2, Fuchs gefangen (Re) 1, Doppelkopf (Contra) −1.
    assert ledger(entry) == {"Sepp Huber": 3, "Zenzi Mayr": 3, "Girgl Lechner": -3, "Vroni Brandl": -3}


def test_a_farbsolo_sends_its_suit_and_only_the_doppelkopf_sonderpunkt(client_as: Any, world: World) -> None:
    table = start(world, "doppelkopf")
    hand = dk_hand(table, game="farbsolo", suit="pik", re=["Girgl Lechner"], ann_re=[], contra_doppelkopf="0")
    client_as("scorer").post(url("entry_add", table), hand)
    entry = Entry.objects.get(table=table)
    assert entry.data == {"game": "farbsolo", "suit": "pik", "re": ["Girgl Lechner"], "augen": 150}
    assert sum(ledger(entry).values()) == 0 and ledger(entry)["Girgl Lechner"] > 0


def test_a_refused_doppelkopf_hand_shows_the_error_at_the_re_field(client_as: Any, world: World) -> None:
    table = start(world, "doppelkopf")
    body = client_as("scorer").post(url("entry_add", table), dk_hand(table, re=["Sepp Huber"], augen="171"))
    body = body.content.decode()
    assert not Entry.objects.exists()
    error = re.search(r'id="error-re">(.*?)</div>', body, re.S)
    assert error and "zwei Namen" in error.group(1)
    assert 'value="171"' in body
    assert re.search(r'value="normal"[^>]*checked', body)


def test_an_impossible_sonderpunkt_is_flagged_at_its_counter(client_as: Any, world: World) -> None:
    table = start(world, "doppelkopf")
    hand = dk_hand(table, contra_doppelkopf="3", augen="150")  # 3 × 40 Augen, Contra has only 90
    body = client_as("scorer").post(url("entry_add", table), hand).content.decode()
    assert not Entry.objects.exists()
    assert "mindestens 120 Augen" in body


def test_the_doppelkopf_preview_shows_the_payouts(client_as: Any, world: World) -> None:
    table = start(world, "doppelkopf")
    body = client_as("scorer").post(url("entry_preview", table), dk_hand(table)).content.decode()
    assert "Fuchs gefangen (Re)" in body and 'class="payouts"' in body
    assert not Entry.objects.exists()
    body = client_as("scorer").post(url("entry_preview", table), dk_hand(table, re=None)).content.decode()
    assert "Noch offen: Re-Partei" in body


def test_the_json_fallback_still_saves(client_as: Any, world: World) -> None:
    table = start(world, "doppelkopf")
    hand = '{"game": "normal", "re": ["Sepp Huber", "Zenzi Mayr"], "augen": 150}'
    client_as("scorer").post(url("entry_add", table), {"data": hand, "expected_number": "1"})
    assert Entry.objects.get(table=table).data["augen"] == 150


# --- Saukopf --------------------------------------------------------------------------------------


def sk_hand(table: Table, **fields: Any) -> dict[str, Any]:
    hand = {
        "game": "sauerei",
        "declarer": "Sepp Huber",
        "partner": "Zenzi Mayr",
        "called": "eichel",
        "suit": "herz",  # tapped before switching game: not sent
        "bid": "61",
        "augen": "70",
        "laufende": "2",
        "laufende_side": "opponents",
        "saukopf": "declarer",
        "mueller": "",
        "haxnspalter": "",
    }
    hand.update(fields)
    return post(table, **hand)


def test_a_saukopf_hand_is_saved_from_taps(client_as: Any, world: World) -> None:
    table = start(world, "saukopf")
    client = client_as("scorer")
    page = client.get(table.get_absolute_url()).content.decode()
    assert 'value="grosskopferter"' in page and "Feiges Mastschwein" in page
    client.post(url("entry_add", table), sk_hand(table))
    entry = Entry.objects.get(table=table)
    assert entry.data == {
        "game": "sauerei",
        "declarer": "Sepp Huber",
        "partner": "Zenzi Mayr",
        "bid": 61,
        "called": "eichel",
        "augen": 70,
        "laufende": 2,
        "laufende_side": "opponents",
        "saukopf": "declarer",
    }
    # Sieg 2 + Ohne 2 Laufende 2 + Saukopf 1 = 5 for each winner.
    assert ledger(entry) == {"Sepp Huber": 5, "Zenzi Mayr": 5, "Girgl Lechner": -5, "Vroni Brandl": -5}


def test_a_feige_sau_sends_the_augen_of_each_player(client_as: Any, world: World) -> None:
    table = start(world, "saukopf")
    augen = {"augen_0": "10", "augen_1": "40", "augen_2": "35", "augen_3": "35"}
    hand = sk_hand(table, game="feige_sau", bid="90", augen="", laufende="", saukopf="", **augen)
    client_as("scorer").post(url("entry_add", table), hand)
    entry = Entry.objects.get(table=table)
    assert entry.data == {
        "game": "feige_sau",
        "declarer": "Sepp Huber",
        "bid": 90,
        "augen_by_player": {"Sepp Huber": 10, "Zenzi Mayr": 40, "Girgl Lechner": 35, "Vroni Brandl": 35},
    }
    assert ledger(entry)["Sepp Huber"] > 0 and sum(ledger(entry).values()) == 0


def test_a_refused_saukopf_hand_shows_the_error_at_the_field(client_as: Any, world: World) -> None:
    table = start(world, "saukopf")
    body = client_as("scorer").post(url("entry_add", table), sk_hand(table, gegenhieb="on", augen="83"))
    body = body.content.decode()
    assert not Entry.objects.exists()
    error = re.search(r'id="error-gegenhieb">(.*?)</div>', body, re.S)
    assert error and "Gegenhieb ist nur nach einem Huftritt" in error.group(1)
    assert 'value="83"' in body
    assert re.search(r'value="sauerei"[^>]*checked', body)


def test_the_saukopf_preview_shows_the_payouts(client_as: Any, world: World) -> None:
    table = start(world, "saukopf")
    body = client_as("scorer").post(url("entry_preview", table), sk_hand(table)).content.decode()
    assert "Ohne 2 Laufende" in body and 'class="payouts"' in body
    body = client_as("scorer").post(url("entry_preview", table), sk_hand(table, bid="")).content.decode()
    assert "Noch offen: Gebot (Grunzer)" in body


def test_three_seats_offer_no_paarhufer_but_the_trog(client_as: Any, world: World) -> None:
    table = start(world, "saukopf", seats=3)
    page = client_as("scorer").get(table.get_absolute_url()).content.decode()
    assert 'value="sauerei"' not in page and 'value="zucht"' in page
    assert "Trog genommen" in page and "Augen der Nichtspieler" in page
