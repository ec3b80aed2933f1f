"""The table page says what changed and what was not paid (issue 13 §5, §6): a hand that starts
a Bockrunde says so at once, the state badge and the explanation use one Bock factor, the preview
names unpaid Laufende and what the hand would set off, the description says Tout and Schwarz."""

from __future__ import annotations

import re
from typing import Any

import pytest

from clubs.models import Member
from scoring import services
from scoring.labels import describe, explain_lines, suit_names
from scoring.models import Table
from tests.factories import World
from tests.scoring.test_pages import PLAYERS, hand_post, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(world: World) -> Table:
    session = services.session_create(club=world.club, date="2026-11-20", user=None)
    members = [Member.objects.get(club=world.club, display_name=name) for name in PLAYERS]
    return services.table_start(session=session, members=members, rules="allgaeu", user=None)


def test_a_hand_that_starts_a_bockrunde_says_so_and_the_badge_names_the_factor(client_as: Any, table: Table) -> None:
    client = client_as("scorer")
    body = client.post(url("entry_add", table), hand_post(table, augen="60"), HTTP_HX_REQUEST="true").content.decode()
    assert "Bockrunde: die nächsten 4 Spiele doppelt." in body  # 001 §5.1: 60:60
    assert "Bockrunde · Bock ×2" in body  # the badge, as the lines say it
    preview = client.post(url("entry_preview", table), hand_post(table)).content.decode()
    assert "Bock ×2" in preview


def test_the_preview_names_what_would_be_set_off(client_as: Any, table: Table) -> None:
    body = client_as("scorer").post(url("entry_preview", table), hand_post(table, augen="60")).content.decode()
    assert "Löst aus: Bockrunde" in body


def test_the_preview_names_laufende_that_are_not_paid_and_why(client_as: Any, table: Table) -> None:
    post = hand_post(table, game="solo", suit="herz", partner=None, augen=None, result="won", laufende="2")
    body = client_as("scorer").post(url("entry_preview", table), post).content.decode()
    assert "2 Laufende – beim Solo erst ab 3" in body  # allgaeu: laufende_from 3
    wenz = hand_post(table, game="wenz", partner=None, augen=None, result="won", laufende="2")
    body = client_as("scorer").post(url("entry_preview", table), wenz).content.decode()
    assert "2 Laufende" in body and "Nicht bezahlt" not in body  # the Wenz pays from 2


def test_the_description_says_tout_and_schwarz() -> None:
    tout = {"game": "solo", "suit": "gras", "tout": True, "declarer": "Sepp", "result": "won"}
    assert describe(tout) == "Solo Gras Tout, Sepp, gewonnen"
    counted = {"game": "rufspiel", "declarer": "Sepp", "partner": "Zenzi", "augen": 120, "tricks": 8}
    assert "120 Augen, Schwarz" in describe(counted)


def test_an_allgaeu_table_names_its_suits_laub_and_schell(client_as: Any, table: Table) -> None:
    seats = services.selectors.table_state(table).state.seats
    hand = {"game": "solo", "suit": "gras", "declarer": seats[0], "result": "won", "deckel": 1}
    services.entry_append(table=table, data=hand, user=None)
    page = client_as("member").get(table.get_absolute_url()).content.decode()
    assert "Solo Laub" in page and "Solo Gras" not in page
    preview = (
        client_as("scorer")
        .post(url("entry_preview", table), hand_post(table, game="solo", suit="schellen", partner=None))
        .content.decode()
    )
    assert "Solo Schell " in preview and "Schellen" not in preview.split('class="lines"')[1]


def test_a_refused_deletion_names_the_later_entry_by_its_number_today(client_as: Any, table: Table) -> None:
    seats = services.selectors.table_state(table).state.seats
    schwarz = {"game": "rufspiel", "declarer": seats[0], "partner": seats[1], "result": "won_schwarz", "deckel": 1}
    first = services.entry_append(table=table, data=schwarz, user=None)
    # Nr. 2 is a Solo without Deckel in the Mungorunde Nr. 1 started (001 §5.2); without Nr. 1
    # it would be a normal hand without Deckel under Dauerdeckel.
    seats = services.selectors.table_state(table).state.seats
    services.entry_append(
        table=table, data={"game": "solo", "suit": "herz", "declarer": seats[0], "result": "won"}, user=None
    )
    client = client_as("scorer")
    response = client.post(url("entry_edit", table, entry_id=first.pk) + "loeschen/", {"delete-reason": "falsch"})
    assert response.url.endswith("?blocked=2")
    page = client.get(response.url).content.decode()
    assert "Nicht gelöscht. Nr. 2 würde dadurch ungültig" in page
    second = services.selectors.table_log(table)[1]
    assert "Nr. 2 korrigieren oder löschen" in page and second["game"] == "solo"


def test_a_correction_says_the_change_and_the_new_totals(client_as: Any, table: Table) -> None:
    entry = services.entry_append(table=table, data=hand_facts(table), user=None)
    facts = entry.data
    post = {**hand_post(table, augen="50"), "reason": "verzählt", "dealer": entry.dealer}
    post.update(declarer=facts["declarer"], partner=facts["partner"], expected_number="1")
    page = client_as("scorer").post(url("entry_edit", table, entry_id=entry.pk), post, follow=True).content.decode()
    message = re.search(r"Nr. 1 korrigiert\.[^<]*", page)
    assert message, page
    # Zenzi Mayr and Girgl Lechner lose the Rufspiel now: each side moves by 2 × 0,20 €.
    text = message.group(0).replace("\xa0", " ")
    assert "Änderung: Sepp Huber +0,40 €, Zenzi Mayr -0,40 €, Girgl Lechner -0,40 €, Vroni Brandl +0,40 €" in text
    assert "Neue Summen: Sepp Huber 0,20 €, Zenzi Mayr -0,20 €, Girgl Lechner -0,20 €, Vroni Brandl 0,20 €." in text


def hand_facts(table: Table) -> dict[str, Any]:
    seats = services.selectors.table_state(table).state.seats
    return {"game": "rufspiel", "declarer": seats[0], "partner": seats[1], "augen": 75, "deckel": 1}


def test_the_explanation_reads_in_one_line_in_the_tables_suit_words() -> None:
    lines = [{"label": "Solo Gras", "amount": 25}, {"label": "Deckel ×2", "factor": 2}]
    assert explain_lines(lines, suit_names("allgaeu")) == "Solo Laub 25 · Deckel ×2"
    assert explain_lines(lines) == "Solo Gras 25 · Deckel ×2"
