"""A Partie table that went on on paper (issue 20): the owner uploads its sheet into the table
(the history import's template as CSV, or spec JSON), sees a preview with every row's amounts or
error, and confirms; the rows come after the hands the table holds, through the same services,
all or none. ``manage.py import_session --table ID`` does the same."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from scoring import selectors, services
from scoring.engine.entry_facts import hand_facts, with_last_kontra
from scoring.models import AuditEntry, Entry, LedgerEntry, Table
from tests.commands import manage
from tests.factories import World, make_partie_table, make_tournament
from tournaments.models import PartieTable

HEADER = "Spiel;Spieler;Mitspieler;Ruf;Farbe;Augen;Kontra;Deckel"


def ruf(players: Sequence[str], augen: int = 75) -> dict[str, Any]:
    hand = {"game": "rufspiel", "declarer": players[0], "partner": players[1], "called": "eichel"}
    return hand | {"augen": augen, "deckel": 1}


@pytest.fixture
def paper(world: World) -> PartieTable:
    """Table 1 of a started Partie 1 (8 players, tables of four, 40 games each), one hand typed."""
    partie_table = make_partie_table(make_tournament(world.club, players=8))
    services.entries_append(table=partie_table.table, log=[ruf(players(partie_table.table))], user=None)
    return partie_table


def players(table: Table) -> tuple[str, ...]:
    return selectors.table_setup(table).players


def url(partie_table: PartieTable) -> str:
    tournament = partie_table.partie.tournament
    return reverse(
        "tournaments:partie_paper",
        kwargs={
            "slug": tournament.club.slug,
            "tournament_id": tournament.pk,
            "partie_index": partie_table.partie.index,
            "table_number": partie_table.number,
        },
    )


def sheet(table: Table) -> tuple[int, int, int]:
    return (
        Entry.objects.filter(table=table).count(),
        LedgerEntry.objects.filter(table=table).count(),
        AuditEntry.objects.filter(table=table).count(),
    )


def upload(client: Client, partie_table: PartieTable, name: str, content: str) -> Any:
    return client.post(url(partie_table), {"file": SimpleUploadedFile(name, content.encode())})


def test_a_csv_sheet_is_previewed_then_appended_after_the_typed_hand(
    world: World, client: Client, paper: PartieTable
) -> None:
    table = paper.table
    a, b, c, _d = players(table)
    csv = "\n".join(
        [
            HEADER + ";Ereignis",
            f"rufspiel;{a};{b};eichel;;75;;1;",
            f"solo;{c};;;herz;50;2;1;",
            ";;;;;;;;zusammengeworfen",
        ]
    )
    client.force_login(world.users["owner"])
    before = sheet(table)
    page = upload(client, paper, "tisch1.csv", csv)
    text = page.content.decode()
    assert page.status_code == 200 and "Alle Einträge gültig (3)" in text and "ab Nr. 2 angehängt" in text
    assert sheet(table) == before  # a preview stores nothing
    carried = page.context["form"].initial["document"]
    done = client.post(url(paper), {"document": carried, "confirm": "1"})
    assert done.status_code == 302
    entries = list(Entry.objects.filter(table=table).order_by("number"))
    assert [(e.number, e.kind) for e in entries] == [(1, "hand"), (2, "hand"), (3, "hand"), (4, "zusammengeworfen")]
    # Two Stöße: the declarer's side gave the last (the template's column left empty).
    assert entries[2].data["last_kontra"] == "declarer" and entries[2].kontra == 2
    assert AuditEntry.objects.filter(table=table, number=3).get().user == world.users["owner"]


def test_a_json_sheet_with_a_bad_row_shows_row_and_field_and_stores_nothing(
    world: World, client: Client, paper: PartieTable
) -> None:
    table = paper.table
    seated = list(players(table))
    doc = {"ruleset": "allgaeu-meisterschaft", "players": seated, "hands": [ruf(seated), ruf(seated, augen=130)]}
    client.force_login(world.users["owner"])
    before = sheet(table)
    page = upload(client, paper, "tisch1.json", json.dumps(doc))
    checked = page.context["preview"]
    assert not checked.valid and [(row.label, row.field) for row in checked.row_errors] == [("hands[1]", "augen")]
    assert "Nichts gespeichert" in page.content.decode() and page.context["form"].initial["document"] == ""
    # A confirmation the browser made up is checked again: refused, the sheet as it was.
    forged = json.dumps({**checked.document(), "labels": ["hands[0]", "hands[1]"], "source": "x", "first_number": 2})
    again = client.post(url(paper), {"document": forged, "confirm": "1"})
    assert again.status_code == 200 and not again.context["preview"].valid
    assert sheet(table) == before


def test_names_not_seated_at_the_table_are_refused_with_the_seated_ones(
    world: World, client: Client, paper: PartieTable
) -> None:
    table = paper.table
    a, b, c, d = players(table)
    client.force_login(world.users["owner"])
    page = upload(client, paper, "tisch1.csv", f"{HEADER}\nrufspiel;Sepp;{b};eichel;;75;;1\n")
    errors = page.context["preview"].errors
    assert len(errors) == 1 and "„Sepp“ (Zeile 2)" in errors[0] and f"{a}, {b}, {c}, {d}" in errors[0]
    doc = {"players": [a, b, c, "Sepp"], "hands": [ruf([a, b])]}
    page = upload(client, paper, "tisch1.json", json.dumps(doc))
    assert "an diesem Tisch sitzen" in page.context["preview"].errors[0] and sheet(table)[0] == 1


def test_more_games_than_the_table_has_left_are_refused(world: World, client: Client, paper: PartieTable) -> None:
    table = paper.table
    seated = players(table)
    services.entries_append(table=table, log=[ruf(seated)] * 38, user=None)  # 39 of 40 played
    client.force_login(world.users["owner"])
    csv = f"{HEADER}\n" + f"rufspiel;{seated[0]};{seated[1]};eichel;;75;;1\n" * 2
    checked = upload(client, paper, "tisch1.csv", csv).context["preview"]
    assert checked.rows_checked and not checked.row_errors
    assert any("nimmt nur noch 1" in error and "39 sind schon" in error for error in checked.errors)
    assert sheet(table)[0] == 39


def test_a_scorer_sees_no_upload(world: World, client: Client, paper: PartieTable) -> None:
    client.force_login(world.users["scorer"])
    assert client.get(url(paper)).status_code == 403


def test_import_session_appends_to_a_table_by_its_id(world: World, paper: PartieTable, tmp_path: Path) -> None:
    table = paper.table
    a, b, c, _d = players(table)
    path = tmp_path / "tisch1.csv"
    path.write_text(f"{HEADER}\nsolo;{c};;;herz;80;1;1\nrufspiel;{a};{b};eichel;;130;;1\n", encoding="utf-8")
    refused = manage("import_session", str(path), "--club", "test", "--table", str(table.pk))
    assert refused.returncode == 2 and json.loads(refused.stdout.splitlines()[-1])["error"]["field"] == "Zeile 3.augen"
    assert sheet(table)[0] == 1
    path.write_text(f"{HEADER}\nsolo;{c};;;herz;80;1;1\n", encoding="utf-8")
    done = manage("import_session", str(path), "--club", "test", "--table", str(table.pk))
    assert done.returncode == 0 and "1 Einträge, Nr. 2–2" in done.stdout
    assert Entry.objects.get(table=table, number=2).data["last_kontra"] == "opponents"
    old = manage("import_session", str(path), "--club", "test", "--table", "Tisch 1")
    assert old.returncode == 2 and "--table-name" in json.loads(old.stdout)["error"]["message"]


def test_last_kontra_is_inferred_as_the_tap_form_infers_it() -> None:
    players = ("Anna", "Bert", "Cilli", "Done")
    for kontra in (1, 2, 3):
        tapped = hand_facts(
            {"game": "solo", "declarer": "Anna", "suit": "herz", "augen": 70, "kontra": kontra},
            players=players,
            dealer="Done",
            deckel=False,
            bid=False,
        )
        imported = with_last_kontra({"game": "solo", "declarer": "Anna", "suit": "herz", "augen": 70, "kontra": kontra})
        assert imported == tapped and imported["last_kontra"] == ("opponents" if kontra % 2 else "declarer")
    given = {"game": "rufspiel", "kontra": 1, "last_kontra": "declarer"}
    assert with_last_kontra(given) == given  # the engine refuses it, naming the field
    assert "last_kontra" not in with_last_kontra({"game": "mungo", "kontra": 1})
