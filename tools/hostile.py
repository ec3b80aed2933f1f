"""Hostile history files, built without ever holding them whole in memory: the bombs the import's
reader must refuse (tests/imports/test_hostile_files.py) and whose refusal ``manage.py bench``
times (``import_refusal_ms``). No request imports this module."""

from __future__ import annotations

import io
import json
import struct
import zipfile
from collections.abc import Iterable

MB = 1_000_000
NS = b'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
REL = b"http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def xlsx(sheet: bytes | Iterable[bytes], strings: bytes | Iterable[bytes] | None = None, **others: bytes) -> bytes:
    """A workbook of one sheet from its XML (pieces streamed into the zip, so a bomb of 200 MB is
    never whole in the test's memory either); ``others`` are more members (``name=content``)."""
    rels = b'<Relationship Id="rId1" Type="' + REL + b'/worksheet" Target="worksheets/sheet1.xml"/>'
    if strings is not None:
        rels += b'<Relationship Id="rId2" Type="' + REL + b'/sharedStrings" Target="sharedStrings.xml"/>'
    types = b"application/vnd.openxmlformats-officedocument.spreadsheetml"
    parts: dict[str, bytes | Iterable[bytes]] = {
        "[Content_Types].xml": b'<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        b'<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        b'<Override PartName="/xl/workbook.xml" ContentType="' + types + b'.sheet.main+xml"/>'
        b'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="'
        + types
        + b'.worksheet+xml"/>'
        + (
            b""
            if strings is None
            else b'<Override PartName="/xl/sharedStrings.xml" ContentType="' + types + b'.sharedStrings+xml"/>'
        )
        + b"</Types>",
        "_rels/.rels": b'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        b'<Relationship Id="rId1" Type="' + REL + b'/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": b"<workbook " + NS + b' xmlns:r="' + REL + b'"><sheets>'
        b'<sheet name="Spiele" sheetId="1" r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": b'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
        b'relationships">' + rels + b"</Relationships>",
        "xl/worksheets/sheet1.xml": sheet,
    }
    if strings is not None:
        parts["xl/sharedStrings.xml"] = strings
    parts.update(others)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        for name, content in parts.items():
            with archive.open(name, "w") as member:
                for piece in [content] if isinstance(content, bytes) else content:
                    member.write(piece)
    return buffer.getvalue()


def sheet_xml(rows: bytes | Iterable[bytes]) -> Iterable[bytes]:
    yield b"<worksheet " + NS + b"><sheetData>"
    yield from [rows] if isinstance(rows, bytes) else rows
    yield b"</sheetData></worksheet>"


HEADER_ROW = b'<row r="1"><c r="A1" t="inlineStr"><is><t>Spiel</t></is></c></row>'


def repeated(piece: bytes, size: int) -> Iterable[bytes]:
    """``piece`` repeated to about ``size`` bytes, a megabyte at a time."""
    block = piece * max(1, (1 << 20) // len(piece))
    for _ in range(max(1, size // len(block))):
        yield block


def giant_text_cell(size: int) -> bytes:
    return xlsx(
        sheet_xml(
            [HEADER_ROW, b'<row r="2"><c r="A2" t="inlineStr"><is><t>', *repeated(b"x", size), b"</t></is></c></row>"]
        )
    )


def giant_shared_string(size: int) -> bytes:
    strings = [b"<sst " + NS + b"><si><t>Spiel</t></si><si><t>", *repeated(b"x", size), b"</t></si></sst>"]
    cells = b'<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" t="s"><v>1</v></c></row>'
    return xlsx(sheet_xml(cells), strings)


def lying_about_its_size() -> bytes:
    """A sheet of 50 MB whose entry in the zip's central directory claims 2 KB."""
    content = bytearray(giant_text_cell(50 * MB))
    entry = content.index(b"PK\x01\x02")
    while True:
        name_length, extra_length, comment_length = struct.unpack_from("<HHH", content, entry + 28)
        if content[entry + 46 : entry + 46 + name_length] == b"xl/worksheets/sheet1.xml":
            struct.pack_into("<I", content, entry + 24, 2_000)  # its uncompressed size
            return bytes(content)
        entry += 46 + name_length + extra_length + comment_length


def json_evening(hands: int) -> bytes:
    """An evening of misdeals, as short as a hand gets (60,000 of them fit into 2 MB)."""
    doc = {
        "ruleset": "allgaeu",
        "players": ["Anna", "Bert", "Cilli", "Done"],
        "hands": [{"event": "zusammengeworfen"}] * hands,
    }
    return json.dumps(doc, separators=(",", ":")).encode()
