"""A championship Partie's evening is named as such in the evening list, and an evening scored
in points offers no money settlement and no Kasse booking (issue 13 §11)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from clubs.models import Member
from scoring import services
from tests.factories import World, make_tournament, rufspiel
from tests.scoring.test_pages import PLAYERS
from tournaments.services import partie_start

pytestmark = pytest.mark.django_db


def test_a_partie_is_named_in_the_evening_list_and_settles_no_money(client_as: Any, world: World) -> None:
    tournament = make_tournament(world.club, players=8, year=2027)
    with translation.override("de"):  # the championship names the evening in the active language
        partie = partie_start(tournament=tournament, index=1, user=None)
    table = partie.tables.first().table
    seats = services.selectors.table_state(table).state.seats
    hand = {"game": "rufspiel", "declarer": seats[0], "partner": seats[1], "augen": 75, "deckel": 1}
    services.entry_append(table=table, data=hand, user=None)
    listing = client_as("member").get(reverse("scoring:session_list", kwargs={"slug": "test"})).content.decode()
    assert "Zockmeisterschaft 2027, 1. Partie" in listing
    detail = client_as("scorer").get(partie.session.get_absolute_url()).content.decode()
    assert "Zockmeisterschaft 2027, 1. Partie" in detail
    assert "Punkte je Spieler" in detail
    assert "Wer wem zahlt" not in detail and "Vereinskasse" not in detail and 'name="book_to_kasse"' not in detail
    assert "Abend abschließen" in detail


def test_a_money_evening_keeps_its_settlement_and_kasse(client_as: Any, world: World) -> None:
    session = services.session_create(club=world.club, date="2026-11-20", user=None)
    members = [Member.objects.get(club=world.club, display_name=name) for name in PLAYERS]
    table = services.table_start(session=session, members=members, rules="allgaeu", user=None)
    services.entry_append(table=table, data=rufspiel(table), user=None)
    detail = client_as("scorer").get(session.get_absolute_url()).content.decode()
    assert "Wer wem zahlt" in detail and 'name="book_to_kasse"' in detail
