"""Issue 22 ("Hostile files and shared phones"), the history import's reading side: a file of a
few kilobytes that unpacks to gigabytes, a row of a million cells, a sheet claiming the whole
grid, broken workbooks, control characters and names longer than the database takes. Each is
refused at its field, saying which bound, within 100 MB (measured here with ``tracemalloc``,
which sees the allocations of expat and zlib as well), and nothing is stored. How long a refusal
takes is ``manage.py bench``'s ``import_refusal_ms`` (the bombs are built by ``tools.hostile``),
not an assertion here: a busy machine is slow, not wrong (issue 29)."""

from __future__ import annotations

import codecs
import io
import json
import re
import tracemalloc
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from openpyxl import Workbook

from imports.history import MAX_ROWS, HistoryFileError, read_file
from scoring.models import Session
from tests.factories import World
from tests.imports.test_history import CSV_EVENING, HEADER, PLAYERS, run, stored, upload
from tools.hostile import (
    HEADER_ROW,
    MB,
    giant_shared_string,
    giant_text_cell,
    json_evening,
    lying_about_its_size,
    repeated,
    sheet_xml,
    xlsx,
)

MEGABYTES = 100


def with_peak(call: Callable[[], Any]) -> tuple[Any, float]:
    """(what ``call`` returned or raised, its peak of allocated MB under ``tracemalloc``)."""
    tracemalloc.start()
    try:
        result = call()
    except Exception as error:  # noqa: BLE001 - the refusal is the result
        result = error
    finally:
        peak = tracemalloc.get_traced_memory()[1] / MB
        tracemalloc.stop()
    return result, peak


def refused_within_bounds(name: str, content: bytes, fragment: str) -> str:
    """``read_file`` refuses ``content`` saying ``fragment``, within the memory bound; the message."""
    result, peak = with_peak(lambda: read_file(name, content))
    assert isinstance(result, HistoryFileError), result
    message = str(result)
    assert fragment in message
    assert len(message) < 300 and "xxxxxxxxxx" not in message  # a short excerpt at most
    assert peak < MEGABYTES, f"{peak:.0f} MB"
    return message


# --- building workbooks by hand -----------------------------------------------------------------


@pytest.fixture(scope="module")
def bombs() -> dict[str, bytes]:
    """Built once: the 200 MB ones take a second to pack."""
    return {"text": giant_text_cell(200 * MB), "strings": giant_shared_string(200 * MB)}


def test_a_text_cell_of_200_mb_is_refused_before_it_is_unpacked(bombs: dict[str, bytes]) -> None:
    assert len(bombs["text"]) < 2 * MB
    refused_within_bounds(
        "abend.xlsx", bombs["text"], "Die Arbeitsmappe entpackt sich zu 200 MB; erlaubt sind höchstens 30"
    )


def test_a_shared_string_of_200_mb_is_refused_before_it_is_unpacked(bombs: dict[str, bytes]) -> None:
    assert len(bombs["strings"]) < 2 * MB
    refused_within_bounds(
        "abend.xlsx", bombs["strings"], "Die Arbeitsmappe entpackt sich zu 200 MB; erlaubt sind höchstens 30"
    )


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (lambda: giant_text_cell(9 * MB), "Zeile 2, Spalte A: ein Feld ist länger als 1.000 Zeichen"),
        (lambda: giant_shared_string(9 * MB), "Zeile 2, Spalte A: ein Feld ist länger als 1.000 Zeichen"),
        (lambda: lying_about_its_size(), "nicht lesbar: die Zip-Datei ist beschädigt"),
        (lambda: xlsx(sheet_xml([HEADER_ROW, b"<row>", *repeated(b"<c><v>1</v></c>", 1_000_000 * 15), b"</row>"])),
         "entpackt sich zu 15 MB; erlaubt sind höchstens 10 MB"),
        (lambda: xlsx(sheet_xml([HEADER_ROW, b"<row>", *repeated(b"<c><v>1</v></c>", 200_000 * 15), b"</row>"])),
         "mehr als 250.000 XML-Tags"),
        (lambda: xlsx(sheet_xml([HEADER_ROW, b"<row>", b"<c><v>1</v></c>" * 60, b"</row>"])),
         "Zeile 2, Spalte AY: mehr als 50 Spalten"),
        (lambda: xlsx(sheet_xml([HEADER_ROW, b"<row>", b"<c/>" * 100_000, b"</row>"])), "mehr als 60.000 Zellen"),
        (lambda: xlsx(sheet_xml([HEADER_ROW, *repeated(b"<row/>", 9 * MB)])), "mehr als 250.000 XML-Tags"),
        (lambda: xlsx(sheet_xml([HEADER_ROW, *repeated(b"<row><c><v>1</v></c></row>", 2 * MB)])),
         "Zeile 2.002: mehr als 2.000 Zeilen"),
        (lambda: xlsx(sheet_xml(HEADER_ROW), **{f"docProps/extra{i}.xml": b"" for i in range(1_001)}),
         "aus 1.006 Dateien; erlaubt sind höchstens 1.000"),
        (lambda: xlsx(sheet_xml(HEADER_ROW), **{f"xl/media/image{i}.bin": repeated(b"\0", 9 * MB) for i in range(4)}),
         "entpackt sich zu 34 MB; erlaubt sind höchstens 30 MB"),
        (lambda: xlsx([b'<?xml version="1.0"?><!DOCTYPE lol [<!ENTITY lol "lol">]><worksheet/>']),
         "sie enthält eine DTD"),
    ],
    ids=["text-cell-9mb", "shared-string-9mb", "zip-lies-about-size", "million-cell-row", "row-of-200k-values",
         "row-of-60-values", "100k-empty-cells", "million-empty-rows", "2001-rows", "1001-members", "34mb-unpacked",
         "entities"],
)  # fmt: skip
def test_a_spreadsheet_bomb_is_refused_within_100_mb(content: Callable[[], bytes], fragment: str) -> None:
    data = content()
    assert len(data) < 2 * MB
    refused_within_bounds("abend.xlsx", data, fragment)


def test_a_sheet_claiming_the_whole_grid_costs_nothing() -> None:
    """The dimension a sheet claims (A1:XFD1048576) is not read, and an empty row far down is no
    row: the rows are what the sheet has (openpyxl padded 2,000 rows to 16,384 columns: 244 MB)."""
    book = Workbook()
    book.active.append(["Spiel", "Spieler", "Augen"])
    book.active.append(["rufspiel", "Anna", 75])
    buffer = io.BytesIO()
    book.save(buffer)
    original = zipfile.ZipFile(buffer)
    patched = io.BytesIO()
    with zipfile.ZipFile(patched, "w", zipfile.ZIP_DEFLATED) as archive:
        for info in original.infolist():
            content = original.read(info)
            if info.filename == "xl/worksheets/sheet1.xml":
                content = re.sub(rb'<dimension ref="[^"]*"/>', b'<dimension ref="A1:XFD1048576"/>', content)
                content = content.replace(b"</sheetData>", b'<row r="1048576"/></sheetData>')  # empty, far down
                assert b"XFD1048576" in content and b"1048576" in content
            archive.writestr(info.filename, content)
    result, peak = with_peak(lambda: read_file("abend.xlsx", patched.getvalue()))
    assert not isinstance(result, Exception), result
    assert [row.data for row in result[1]] == [{"game": "rufspiel", "declarer": "Anna", "augen": 75}]
    assert peak < 10, f"{peak:.0f} MB"


# --- broken workbooks (finding 6) ---------------------------------------------------------------

BROKEN = {
    "not-a-zip": b"PK\x03\x04 this is no workbook" + bytes(range(256)),
    "zip-without-workbook": xlsx(sheet_xml(HEADER_ROW)).replace(b"xl/workbook.xml", b"xl/workbook.xmX"),
    "broken-xml": xlsx([b"<worksheet><sheetData><row><c>"]),
    "truncated": xlsx(sheet_xml(HEADER_ROW))[:-200],
    "missing-shared-string": xlsx(sheet_xml(b'<row r="1"><c r="A1" t="s"><v>7</v></c></row>'), b"<sst/>"),
    "number-that-is-none": xlsx(sheet_xml(b'<row r="1"><c r="A1"><v>zwei</v></c></row>')),
    "bad-cell-reference": xlsx(sheet_xml(b'<row r="1"><c r="1A"><v>1</v></c></row>')),
    "no-sheet": xlsx(sheet_xml(HEADER_ROW), **{"xl/workbook.xml": b"<workbook><sheets/></workbook>"}),
}


@pytest.mark.parametrize("name", list(BROKEN))
def test_a_broken_workbook_is_refused_at_the_file_field_as_unreadable(world: World, client_as: Any, name: str) -> None:
    """Finding 6: never a 500, never "Vorschau verloren" (that is for a tampered carried preview)."""
    refused_within_bounds("abend.xlsx", BROKEN[name], "Die Excel-Arbeitsmappe ist nicht lesbar")
    response = upload(client_as("scorer"), BROKEN[name], "abend.xlsx")
    assert response.status_code == 200
    (error,) = response.context["form"].errors["file"]
    assert "nicht lesbar" in error and "Vorschau" not in error
    assert not Session.objects.exists()


def test_a_posted_clear_tick_instead_of_a_file_asks_for_a_file(world: World, client_as: Any) -> None:
    """The file input's "clear" tick makes the field False, not a file (found by the sweep of
    tests/test_hostile_requests.py: its size was read, a 500)."""
    data = {"date": "2024-05-03", "table_name": "Tisch 1", "players": PLAYERS, "file-clear": "on"}
    response = client_as("scorer").post(reverse("scoring:history_import", kwargs={"slug": world.club.slug}), data)
    assert response.status_code == 200
    assert response.context["form"].errors["file"] == ["Bitte eine Datei wählen."]
    assert not Session.objects.exists()


def test_a_missing_shared_string_names_the_cell() -> None:
    message = refused_within_bounds("abend.xlsx", BROKEN["missing-shared-string"], "Zeile 1, Spalte A")
    assert "Text Nr. 7" in message


def test_the_page_never_echoes_a_bomb(world: World, client_as: Any, bombs: dict[str, bytes]) -> None:
    client = client_as("scorer")
    for content in (bombs["text"], giant_text_cell(9 * MB)):
        response = upload(client, content, "abend.xlsx")
        assert response.status_code == 200 and response.context["form"].errors["file"]
        assert len(response.content) < 50_000 and b"xxxxxxxxxx" not in response.content
    assert not Session.objects.exists()


# --- CSV ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (HEADER.encode() + b"\nrufspiel;" + b"x" * 200_000 + b"\n", "Zeile 2: ein Feld ist länger als 1.000 Zeichen"),
        (HEADER.encode() + b"\nrufspiel;" + b"x" * 2_000 + b"\n", "Zeile 2, Spalte B: ein Feld ist länger als 1.000"),
        (HEADER.encode() + b"\n" + b"x;" * 100_000 + b"\n", "Zeile 2, Spalte AY: mehr als 50 Spalten"),
        (HEADER.encode() + b"\nrufspiel;Se\0pp\n", "Zeile 2, Spalte B: Das Steuerzeichen U+0000"),
        (HEADER.encode() + b"\nrufspiel;Sepp\x1b[31m\n", "Zeile 2, Spalte B: Das Steuerzeichen U+001B"),
        (codecs.BOM_UTF16_LE + HEADER.encode("utf-16-le"), "als UTF-16 gespeichert"),
        (HEADER.encode() + b"\nrufspiel;J\xfcrgen\nrufspiel;\x81\n", "Zeile 3: das Byte 0x81 ist weder UTF-8 noch"),
        (HEADER.encode() + b"\nrufspiel;J\xc3\xbcrgen\nrufspiel;J\xfcrgen\n", "Zeile 3: das Byte 0xFC mischt UTF-8"),
        ((HEADER + "\n" + "rufspiel\n" * 2_001).encode(), "Zeile 2.002: mehr als 2.000 Zeilen"),
    ],
    ids=["field-over-128kb", "field-of-2000", "100k-columns", "nul", "escape", "utf-16", "undefined-byte",
         "mixed-encodings", "2001-rows"],
)  # fmt: skip
def test_a_hostile_csv_is_refused_at_its_row_with_the_reason(content: bytes, fragment: str) -> None:
    refused_within_bounds("abend.csv", content, fragment)


def test_a_windows_1252_csv_is_still_read() -> None:
    _doc, rows = read_file("abend.csv", CSV_EVENING.replace("Sepp", "Jürgen").encode("cp1252"))
    assert rows[0].data and rows[0].data["declarer"] == "Jürgen Huber"


# --- the same row limit for every format (finding 2) --------------------------------------------


def csv_evening(rows: int) -> bytes:
    return (HEADER + "\n" + "rufspiel;Sepp Huber;Zenzi Mayr;eichel;;75\n" * rows).encode()


def xlsx_evening(rows: int) -> bytes:
    book = Workbook()
    book.active.append(["Spiel", "Spieler", "Mitspieler", "Ruf", "Augen"])
    for _ in range(rows):
        book.active.append(["rufspiel", "Sepp Huber", "Zenzi Mayr", "eichel", 75])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("name", "make"), [("abend.json", json_evening), ("abend.csv", csv_evening), ("abend.xlsx", xlsx_evening)]
)
def test_every_format_has_the_same_row_limit(name: str, make: Callable[[int], bytes]) -> None:
    assert len(read_file(name, make(MAX_ROWS))[1]) == MAX_ROWS
    refused_within_bounds(name, make(MAX_ROWS + 1), "2.000")


def test_the_json_upload_and_its_carried_preview_keep_the_row_limit(world: World, client_as: Any) -> None:
    """Finding 2: 60,000 hands were previewed (16.6 s a request) and 2,100 stored."""
    client = client_as("scorer")
    response = upload(client, json_evening(60_000), "abend.json")  # was 16.6 s; bench: import_refusal_ms
    assert "erlaubt sind höchstens 2.000" in response.context["form"].errors["file"][0]
    doc = json.loads(json_evening(MAX_ROWS + 100)) | {"first_dealer": "Anna", "source": "abend.json"}
    doc["labels"] = [f"hands[{i}]" for i in range(len(doc["hands"]))]
    url = reverse("scoring:history_import", kwargs={"slug": "test"})
    carried = {"date": "2024-05-03", "table_name": "Tisch 1", "document": json.dumps(doc), "confirm": "1"}
    response = client.post(url, carried)
    assert response.status_code == 200 and "erlaubt sind höchstens 2.000" in response.content.decode()
    assert not Session.objects.exists()


def test_import_session_keeps_the_row_limit(world: World, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "abend.json"
    path.write_bytes(json_evening(MAX_ROWS + 100))
    code, out, _err = run(capsys, str(path), "--club", "test", "--date", "2024-03-01")
    assert code == 2
    error = json.loads(out.strip().splitlines()[-1])["error"]
    assert error["code"] == "invalid_file" and "2.100 Zeilen" in error["message"]
    assert not Session.objects.exists()


# --- plain text and the database's lengths on every path (finding 5) ----------------------------


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"place": "Gasthof\x1b[2J\x07 Post"}, "place"),
        ({"table_name": "Tisch\x01"}, "table_name"),
        ({"players": "S" * 300 + ",Zenzi Mayr,Girgl Lechner,Vroni Brandl"}, "players"),
        ({"players": "Sepp\x07,Zenzi Mayr,Girgl Lechner,Vroni Brandl"}, "players"),
        ({"first_dealer": "Sepp\x1b"}, "first_dealer"),
    ],
    ids=["place-escape-bell", "table-control", "player-300", "player-bell", "dealer-escape"],
)
def test_the_upload_form_refuses_control_characters_and_long_names(
    world: World, client_as: Any, fields: dict[str, str], field: str
) -> None:
    before = stored()
    response = upload(client_as("scorer"), CSV_EVENING.encode(), "abend.csv", **fields)
    assert response.status_code == 200 and response.context["form"].errors.get(field), response.context["form"].errors
    assert stored() == before


def test_a_json_player_longer_than_a_member_name_is_refused(world: World, client_as: Any) -> None:
    """The JSON names its own players; SQLite stored 300 characters, PostgreSQL answered 500."""
    doc = json.loads(json_evening(1))
    doc["players"][0] = "A" * 300
    before = stored()
    response = upload(client_as("scorer"), json.dumps(doc).encode(), "abend.json")
    page = response.content.decode()
    assert "der Name ist länger als 60 Zeichen" in page and "A" * 100 not in page
    assert "Jetzt eintragen" not in page
    assert stored() == before


def test_a_long_text_inside_a_row_is_refused_and_not_echoed(world: World, client_as: Any) -> None:
    doc = json.loads(json_evening(2))
    doc["hands"][1] = doc["hands"][1] | {"note": "x" * 100_000}
    response = upload(client_as("scorer"), json.dumps(doc).encode(), "abend.json")
    page = response.content.decode()
    assert "hands[1]</strong> (note): Ein Text ist länger als 1000 Zeichen" in page
    assert "x" * 100 not in page and not Session.objects.exists()


def test_the_files_name_in_the_evenings_note_is_plain_text(world: World, client_as: Any) -> None:
    client = client_as("scorer")
    response = upload(client, CSV_EVENING.encode(), "abend\x1b[31m" + "x" * 300 + ".csv")
    form = response.context["form"]
    confirm = {name: form.initial.get(name) or "" for name in form.fields if name != "file"} | {"confirm": "1"}
    response = client.post(reverse("scoring:history_import", kwargs={"slug": "test"}), confirm | {"date": "2024-05-03"})
    assert response.status_code == 302
    note = Session.objects.get().note
    assert "\x1b" not in note and len(note) < 150 and "abend" in note


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["--place", "Gasthof\x1b[2J\x07"], "place"),
        (["--table-name", "Tisch\x01"], "table_name"),
        (["--table-name", "T" * 41], "table_name"),
        (["--players", "S" * 300 + ",Zenzi Mayr,Girgl Lechner,Vroni Brandl"], None),
        (["--players", "Sepp\x07,Zenzi Mayr,Girgl Lechner,Vroni Brandl"], None),
    ],
    ids=["place-escape-bell", "table-control", "table-41", "player-300", "player-bell"],
)
def test_import_session_refuses_control_characters_and_long_names(
    world: World, tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], field: str | None
) -> None:
    path = tmp_path / "abend.csv"
    path.write_text(CSV_EVENING)
    before = stored()
    defaults = ["--players", PLAYERS] if "--players" not in args else []
    code, out, err = run(capsys, str(path), "--club", "test", "--date", "2024-03-01", *defaults, *args)
    assert code == 2 and "Traceback" not in err
    assert json.loads(out.strip().splitlines()[-1])["error"]["field"] == field
    assert stored() == before


def test_import_session_refuses_a_file_over_2_mb_before_reading_it(
    world: World, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "abend.csv"
    with path.open("wb") as file:
        file.truncate(3 * MB)
    code, out, _err = run(capsys, str(path), "--club", "test", "--date", "2024-03-01", "--players", PLAYERS)
    assert code == 2 and "größer als 2 MB" in json.loads(out)["error"]["message"]


def test_sheets_bounds_are_documented() -> None:
    from imports import sheets

    docs = (Path(__file__).parents[2] / "docs" / "import.md").read_text()
    for bound in (sheets.MAX_COLUMNS, sheets.MAX_CELL_CHARS, sheets.MAX_CELLS, sheets.MAX_TAGS, sheets.MAX_MEMBERS):
        assert f"{bound:,}" in docs, bound
    for megabytes in (sheets.MAX_UNPACKED_BYTES // MB, sheets.MAX_PART_BYTES // MB, MAX_ROWS):
        assert f"{megabytes:,}" in docs


def test_the_reader_takes_what_spreadsheets_write() -> None:
    """The bounded reader is not openpyxl: rich text runs joined (phonetic hints left out), inline
    strings, numbers as numbers, booleans, a namespace prefix (the Open XML SDK writes ``x:``),
    cells without references, a formula's saved value."""
    strings = (
        b'<x:sst xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        b"<x:si><x:t>Spiel</x:t></x:si><x:si><x:r><x:t>Ruf</x:t></x:r><x:r><x:t>spiel</x:t></x:r>"
        b"<x:rPh><x:t>ruf</x:t></x:rPh></x:si></x:sst>"
    )
    sheet = (
        b'<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData>'
        b'<x:row r="1"><x:c r="A1" t="s"><x:v>0</x:v></x:c><x:c r="B1" t="inlineStr"><x:is><x:t>Augen</x:t>'
        b'</x:is></x:c><x:c r="C1" t="str"><x:f>"Tout"</x:f><x:v>Tout</x:v></x:c></x:row>'
        b'<x:row r="3"><x:c r="A3" t="s"><x:v>1</x:v></x:c><x:c><x:v>75.0</x:v></x:c><x:c t="b"><x:v>1</x:v></x:c>'
        b"</x:row></x:sheetData></x:worksheet>"
    )
    _doc, result = read_file("abend.xlsx", xlsx([sheet], strings))
    assert [(row.label, row.data) for row in result] == [("Zeile 3", {"game": "rufspiel", "augen": 75, "tout": True})]
