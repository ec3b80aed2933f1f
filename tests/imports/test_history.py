"""Bringing old evenings in (`imports.history`): spec §3 JSON and the spreadsheet template (CSV,
Excel) through the services, a preview with per-row errors first, nothing stored unless every row
is valid (`manage.py import_session` and the upload page)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from openpyxl import Workbook, load_workbook

from clubs.models import Member
from imports.history import TEMPLATE_COLUMNS, TEMPLATE_EXAMPLES
from scoring.engine.session import score_session_document
from scoring.models import AuditEntry, Entry, LedgerEntry, Session
from tests.factories import World
from tests.scoring.test_score_session_command import EVENING

pytestmark = pytest.mark.django_db

HEADER = "Spiel;Spieler;Mitspieler;Ruf;Farbe;Augen;Ergebnis;Laufende;Kontra;Letzter Kontra;Deckel;Tout;Ereignis;Von"
CSV_EVENING = "\n".join(
    [
        HEADER,
        "Sauspiel;Sepp Huber;Zenzi Mayr;eichel;;75;;3;;;1;;;",
        "solo;Girgl Lechner;;;herz;;verloren;;1;gegner;1;;;",
        ";;;;;;;;;;;;zusammengeworfen;",
        "wenz;Vroni Brandl;;;;;gewonnen schneider;;;;1;;;",
        "",
    ]
)
PLAYERS = "Sepp Huber,Zenzi Mayr,Girgl Lechner,Vroni Brandl"


def stored() -> tuple[int, int, int, int, int]:
    return (
        Session.objects.count(),
        Entry.objects.count(),
        LedgerEntry.objects.count(),
        AuditEntry.objects.count(),
        Member.objects.count(),
    )


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """import_session as an admin runs it: (exit code, standard output, standard error)."""
    capsys.readouterr()
    try:
        call_command("import_session", *args)
        code = 0
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def check_zero_sum_and_audit(session: Session, entries: int) -> None:
    table = session.tables.get()
    assert Entry.objects.filter(table=table).count() == entries
    stock = 0
    for entry in Entry.objects.filter(table=table).order_by("number"):
        # Zero-sum with the Stock: what a misdeal pays in is in the Stock.
        assert sum(entry.ledger.values_list("amount", flat=True)) + entry.stock_after - stock == 0
        stock = entry.stock_after
    assert AuditEntry.objects.filter(table=table, action="create").count() == entries
    assert session.is_closed


def test_a_csv_evening_comes_in_through_the_services(world: World, tmp_path: Path) -> None:
    path = tmp_path / "abend.csv"
    path.write_text(CSV_EVENING, encoding="cp1252")  # as the German Excel saves CSV
    call_command("import_session", str(path), club="test", date="2024-03-01", players=PLAYERS)
    session = Session.objects.get(club=world.club)
    assert session.date.isoformat() == "2024-03-01"
    check_zero_sum_and_audit(session, 4)
    document = {
        "ruleset": "allgaeu",
        "players": PLAYERS.split(","),
        "first_dealer": "Sepp Huber",
        "hands": list(Entry.objects.filter(table__session=session).order_by("number").values_list("data", flat=True)),
    }
    assert document["hands"][0] == {
        "game": "rufspiel",
        "declarer": "Sepp Huber",
        "partner": "Zenzi Mayr",
        "called": "eichel",
        "augen": 75,
        "laufende": 3,
        "deckel": 1,
    }
    totals = score_session_document(document)["totals"]
    ledger = {name: 0 for name in totals}
    for name, amount in LedgerEntry.objects.filter(session=session).values_list("member__display_name", "amount"):
        ledger[name] += amount
    assert ledger == totals and any(totals.values())


def test_the_spec_json_evening_comes_in_with_the_same_totals(
    world: World, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "abend.json"
    path.write_text(json.dumps(EVENING))
    code, out, err = run(capsys, str(path), "--club", "test", "--date", "2023-11-10", "--user", "test-scorer")
    assert code == 0, out + err
    assert "Neue Spieler im Verein: Anna, Bert, Cilli, Done, Emil" in out
    session = Session.objects.get(club=world.club)
    check_zero_sum_and_audit(session, len(EVENING["hands"]))
    expected = score_session_document(EVENING)["totals"]
    got = {name: 0 for name in expected}
    for name, amount in LedgerEntry.objects.filter(session=session).values_list("member__display_name", "amount"):
        got[name] += amount
    assert got == expected
    assert set(AuditEntry.objects.filter(session=session).values_list("user__username", flat=True)) == {"test-scorer"}


def test_a_refused_file_stores_nothing_and_names_every_bad_row(
    world: World, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = CSV_EVENING.replace("75;;3", "175;;3").replace("wenz;Vroni", "wenz;Niemand")
    path = tmp_path / "abend.csv"
    path.write_text(bad)
    before = stored()
    code, out, err = run(capsys, str(path), "--club", "test", "--date", "2024-03-01", "--players", PLAYERS)
    assert code == 2
    error = json.loads(out.strip().splitlines()[-1])["error"]
    assert error["code"] == "invalid_rows" and error["field"] == "Zeile 2.augen"
    assert "Zeile 2 (augen)" in err and "Zeile 5 (declarer)" in err
    assert stored() == before


def test_an_unreadable_file_is_refused_with_the_error_object(
    world: World, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "abend.csv"
    path.write_text("Name;Betrag\nSepp;5\n")
    code, out, err = run(capsys, str(path), "--club", "test", "--date", "2024-03-01", "--players", PLAYERS)
    assert code == 2
    assert json.loads(out)["error"]["field"] == "file"
    assert "Unbekannte Spalten: Name, Betrag" in err


def workbook(rows: list[list[Any]]) -> bytes:
    book = Workbook()
    for row in rows:
        book.active.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def upload(client: Client, content: bytes, name: str, **fields: str) -> Any:
    url = reverse("scoring:history_import", kwargs={"slug": "test"})
    data = {"date": "2024-05-03", "table_name": "Tisch 1", "players": PLAYERS}
    data["file"] = SimpleUploadedFile(name, content)
    return client.post(url, data | fields)


def test_the_upload_page_previews_an_excel_file_then_stores_it(world: World, client_as: Any) -> None:
    client = client_as("scorer")
    rows = [line.split(";") for line in CSV_EVENING.strip().splitlines()]
    rows = [[int(cell) if cell.isdigit() else (cell or None) for cell in row] for row in rows]  # Excel's numbers
    response = upload(client, workbook(rows), "abend.xlsx")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Alle Einträge gültig (4)." in page and "Jetzt eintragen" in page
    assert not Session.objects.exists()  # the preview stores nothing
    form = response.context["form"]
    confirm = {name: form.initial.get(name) or "" for name in form.fields if name != "file"} | {"confirm": "1"}
    confirm["date"] = "2024-05-03"
    response = client.post(reverse("scoring:history_import", kwargs={"slug": "test"}), confirm)
    session = Session.objects.get(club=world.club)
    assert response.status_code == 302 and response["Location"] == session.get_absolute_url()
    check_zero_sum_and_audit(session, 4)


def test_the_upload_page_shows_each_bad_row_and_stores_nothing(world: World, client_as: Any) -> None:
    client = client_as("scorer")
    bad = CSV_EVENING.replace("75;;3", "75;;x").replace("wenz;Vroni", "wenz;Niemand").encode()
    before = stored()
    response = upload(client, bad, "abend.csv")
    page = response.content.decode()
    assert "Nichts gespeichert" in page
    assert "Zeile 2</strong> (laufende)" in page and "Zeile 5</strong> (declarer)" in page
    assert "Jetzt eintragen" not in page
    assert stored() == before


def test_a_tampered_confirmation_is_checked_again_and_stores_nothing(world: World, client_as: Any) -> None:
    client = client_as("scorer")
    document = {
        "ruleset": "allgaeu",
        "players": PLAYERS.split(","),
        "first_dealer": "Sepp Huber",
        "hands": [{"game": "rufspiel", "declarer": "Sepp Huber", "partner": "Zenzi Mayr", "augen": 999, "deckel": 1}],
        "labels": ["Zeile 2"],
        "source": "abend.csv",
    }
    before = stored()
    url = reverse("scoring:history_import", kwargs={"slug": "test"})
    response = client.post(
        url, {"date": "2024-05-03", "table_name": "Tisch 1", "document": json.dumps(document), "confirm": "1"}
    )
    assert response.status_code == 200 and "Nichts gespeichert" in response.content.decode()
    assert stored() == before


def test_the_template_downloads_and_its_examples_import(world: World, client_as: Any) -> None:
    client = client_as("member")
    response = client.get(reverse("scoring:history_template_xlsx", kwargs={"slug": "test"}))
    assert response.status_code == 200
    rows = list(load_workbook(io.BytesIO(response.content)).active.iter_rows(values_only=True))
    assert list(rows[0]) == TEMPLATE_COLUMNS and len(rows) == 1 + len(TEMPLATE_EXAMPLES)
    csv_text = client.get(reverse("scoring:history_template_csv", kwargs={"slug": "test"})).content
    assert csv_text.decode("utf-8-sig").splitlines()[0] == ";".join(TEMPLATE_COLUMNS)
    scorer = client_as("scorer")
    page = upload(scorer, response.content, "vorlage.xlsx", players="Anna,Bert,Cilli,Done").content.decode()
    assert "Alle Einträge gültig (3)." in page


def test_only_scorers_import_and_outsiders_see_nothing(world: World, client_as: Any) -> None:
    url = reverse("scoring:history_import", kwargs={"slug": "test"})
    assert client_as("member").get(url).status_code == 403
    assert client_as("outsider").get(url).status_code == 404


def test_a_malformed_json_document_is_refused_row_by_row(
    world: World, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "abend.json"
    doc = {"ruleset": "allgaeu", "players": ["A", "B", "C", "D"], "first_dealer": 7, "hands": [1, "x", {"game": 3}]}
    path.write_text(json.dumps(doc))
    before = stored()
    code, out, err = run(capsys, str(path), "--club", "test", "--date", "2024-03-01")
    assert code == 2 and "Traceback" not in err
    assert json.loads(out.strip().splitlines()[-1])["error"]["code"] == "invalid_input"  # the first dealer
    doc["first_dealer"] = "A"
    path.write_text(json.dumps(doc))
    code, out, err = run(capsys, str(path), "--club", "test", "--date", "2024-03-01")
    assert code == 2
    assert "hands[0]" in err and "hands[1]" in err and "hands[2] (game)" in err
    assert stored() == before


@pytest.mark.parametrize(
    "content",
    [
        b"[" * 100_000 + b"]" * 100_000,
        b'{"hands": [{"game": "rufspiel", "augen": ' + b"9" * 5_000 + b"}]}",
        b'{"ruleset": "allgaeu", "players": ["\\u0000"], "hands": []}',
    ],
    ids=["deep", "huge", "nul"],
)
def test_a_hostile_json_file_or_carried_preview_is_refused_at_the_field(
    world: World, client_as: Any, content: bytes
) -> None:
    """Issue 17: the upload and the preview carried back by the browser are read by the one safe
    reader; refused at the field, nothing stored, never a 500."""
    client = client_as("scorer")
    response = upload(client, content, "abend.json")
    assert response.status_code == 200 and response.context["form"].errors.get("file")
    carried = {"date": "2024-05-03", "table_name": "Tisch 1", "confirm": "1", "document": content.decode()}
    response = client.post(reverse("scoring:history_import", kwargs={"slug": "test"}), carried)
    assert response.status_code == 200 and response.context["form"].errors.get("file")
    assert not Session.objects.exists()
