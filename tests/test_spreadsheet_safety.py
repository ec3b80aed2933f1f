"""Every workbook the app writes carries user text as text: a player named
``=HYPERLINK("http://x","y")`` never becomes a live formula (standings.spreadsheet.safe_cell)."""

from __future__ import annotations

import datetime
import io
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from clubs.models import Member
from scoring.services import entry_append, session_create, table_start
from standings.spreadsheet import DANGEROUS_START, safe_cell
from tests.factories import MemberFactory, World, make_open_tournament, make_tournament, rufspiel

pytestmark = pytest.mark.django_db

HOSTILE = ['=HYPERLINK("http://x","y")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)", "\t=1+1", "\r=1+1"]


@pytest.mark.parametrize("text", HOSTILE)
def test_a_formula_start_is_neutralised(text: str) -> None:
    assert safe_cell(text) == "'" + text


@pytest.mark.parametrize("value", ["Sepp Huber", "Gewinn 01.02.2026", "", 5, -5, None, 1.5])
def test_everything_else_is_left_as_it_is(value: Any) -> None:
    assert safe_cell(value) == value


def assert_no_formula(content: bytes, expected: list[str]) -> None:
    """No cell of any sheet is a formula or starts with a formula character; every hostile name
    arrived, neutralised."""
    book = load_workbook(io.BytesIO(content))
    texts = []
    for sheet in book.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                assert cell.data_type != "f", (sheet.title, cell.coordinate, cell.value)
                if isinstance(cell.value, str):
                    assert not cell.value.startswith(DANGEROUS_START), (sheet.title, cell.coordinate, cell.value)
                    texts.append(cell.value)
    joined = "\n".join(texts)
    for name in expected:
        assert "'" + name in joined, name


def hostile_members(world: World) -> list[Member]:
    return [MemberFactory(club=world.club, display_name=name) for name in HOSTILE[:4]]


def test_the_standings_workbook_writes_names_as_text(world: World, client_as: Any) -> None:
    world.club.name = "=1+2 Schafkopf"
    world.club.save()
    members = hostile_members(world)
    session = session_create(club=world.club, date=datetime.date(2026, 1, 10), user=None)
    table = table_start(session=session, members=members, rules="allgaeu", user=None)
    for _ in range(3):
        entry_append(table=table, data=rufspiel(table), user=None)
    client: Client = client_as("member")
    response = client.get(reverse("stats:standings_xlsx", kwargs={"slug": "test"}) + "?period=all")
    assert response.status_code == 200
    book = load_workbook(io.BytesIO(response.content))
    assert book.sheetnames == ["Tabelle", "Spiele", "Spieler"]
    assert_no_formula(response.content, [*HOSTILE[:4], "=1+2 Schafkopf"])


def test_the_ranking_workbook_writes_names_as_text(world: World, client_as: Any) -> None:
    tournament = make_tournament(world.club, players=8)
    for participant, name in zip(tournament.participants.select_related("member"), HOSTILE[:4], strict=False):
        Member.objects.filter(pk=participant.member_id).update(display_name=name)
    tournament.title = "=Zockmeisterschaft"
    tournament.save()
    client: Client = client_as("owner")
    url = reverse("tournaments:ranking_xlsx", kwargs={"slug": "test", "tournament_id": tournament.pk})
    response = client.get(url)
    assert response.status_code == 200
    assert_no_formula(response.content, [*HOSTILE[:4], "=Zockmeisterschaft"])


def test_the_open_tournament_workbook_writes_names_as_text(world: World, client_as: Any) -> None:
    tournament = make_open_tournament(world.club, players=8, rounds=1)
    tournament.name = "=Preisschafkopf"
    tournament.prize_items = [HOSTILE[3]]
    tournament.save()
    for number, name in enumerate(HOSTILE[:3], start=1):
        tournament.registrations.filter(start_number=number).update(name=name, residence=HOSTILE[3])
    url = reverse("opentournaments:ranking_xlsx", kwargs={"slug": "test", "open_id": tournament.pk})
    response = client_as("member").get(url)
    assert response.status_code == 200
    assert_no_formula(response.content, [*HOSTILE[:4], "=Preisschafkopf"])


def test_the_import_template_has_no_formula(world: World, client_as: Any) -> None:
    response = client_as("member").get(reverse("scoring:history_template_xlsx", kwargs={"slug": "test"}))
    assert response.status_code == 200
    assert_no_formula(response.content, [])
