"""An uploaded spreadsheet, CSV or Excel (.xlsx), as rows of cell values, read within bounds
(docs/import.md, "Bounds").

A file of 2 MB can unpack to gigabytes: a zip holds a 200 MB text in 200 KB, a row can hold a
million cells, a sheet can claim the size of the whole grid. Nothing a file says about itself is
trusted. Every bound below is checked as the reader goes, before the next piece is unpacked, so
a hostile file is refused within a fraction of a second and a few megabytes of memory, with a
message (German) that names the bound and where it was crossed and quotes no more than a short
excerpt of what the file holds.

The Excel reader is not openpyxl: openpyxl reads the shared strings and each row whole, pads
every row to the sheet's claimed dimension and makes an object of every cell, so a bound checked
on its result comes too late. Here expat streams the two parts a table needs, the first
worksheet and the shared strings, piece by piece out of the zip. The reader does not read
formats, formulas (it takes the value the spreadsheet saved), dates as dates (no column of the
template holds one), merged cells or any sheet but the first; a document type declaration (the
door to entity expansion) is refused.
"""

from __future__ import annotations

import codecs
import csv
import io
import posixpath
import re
import zipfile
import zlib
from collections.abc import Callable
from typing import Any
from xml.parsers import expat

from django.utils.translation import gettext as _

from clubs.plaintext import text_problem

MAX_COLUMNS = 50  # columns that may hold a value; the template has 15
MAX_CELL_CHARS = 1_000  # one cell's text; "Weitere Angaben" of a Mungo needs about a hundred
MAX_TEXT_CHARS = 1_000_000  # the text of all cells (the preview carries it back to the browser)
MAX_CELLS = 60_000  # cell elements of the sheet, empty ones too (2,000 rows × 30 columns)
MAX_TAGS = 250_000  # XML tags of the parts read, together (a cell has 2 to 6); counted before parsing
MAX_MEMBERS = 1_000  # files in the zip
MAX_UNPACKED_BYTES = 30_000_000  # all files of the zip together, unpacked, as the zip declares them
MAX_PART_BYTES = 10_000_000  # the sheet, or its shared strings, unpacked
MAX_SMALL_PART_BYTES = 1_000_000  # the workbook and its relationships, unpacked
EXCERPT_CHARS = 40  # the most of a file's text a message quotes
_CHUNK = 64 * 1024


class SheetError(Exception):
    """The file cannot be read or crosses a bound; the message says which, and where."""


def excerpt(text: Any, limit: int = EXCERPT_CHARS) -> str:
    """The start of ``text`` for a message: never the whole of what a file holds."""
    text = str(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def thousands(value: int) -> str:
    """12345 → 12.345, as German writes it."""
    return f"{value:,}".replace(",", ".")


def _megabytes(size: int) -> str:
    return thousands(-(-size // 1_000_000))  # rounded up: 10.5 MB is more than 10


def column_letters(column: int) -> str:
    """1 → A, 27 → AA."""
    letters = ""
    while column > 0:
        column, rest = divmod(column - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def _where(row: int, column: int) -> str:
    return _("Zeile %(row)s, Spalte %(column)s") % {"row": row, "column": column_letters(column)}


def _too_long(row: int, column: int | None = None) -> SheetError:
    where = _where(row, column) if column else _("Zeile %(row)s") % {"row": row}
    return SheetError(
        _("%(where)s: ein Feld ist länger als %(max)s Zeichen.") % {"where": where, "max": thousands(MAX_CELL_CHARS)}
    )


class _Table:
    """The cells taken so far, each checked against the bounds as it comes."""

    def __init__(self, max_rows: int) -> None:
        self.max_rows = max_rows
        self.text = 0
        self.rows: dict[int, list[Any]] = {}

    def add(self, row: int, column: int, value: Any) -> None:
        if isinstance(value, str):
            if len(value) > MAX_CELL_CHARS:
                raise _too_long(row, column)
            if not value.strip():
                return
        elif value is None:
            return
        if row > self.max_rows + 1:
            raise SheetError(
                _("Zeile %(row)s: mehr als %(max)s Zeilen unter der Kopfzeile; ein Spielabend hat weniger.")
                % {"row": thousands(row), "max": thousands(self.max_rows)}
            )
        if column > MAX_COLUMNS:
            raise SheetError(
                _("%(where)s: mehr als %(max)s Spalten; die Vorlage hat %(template)s.")
                % {"where": _where(row, column), "max": MAX_COLUMNS, "template": 15}
            )
        if isinstance(value, str):
            problem = text_problem(value)
            if problem:
                raise SheetError(f"{_where(row, column)}: {problem}")
            self.text += len(value)
            if self.text > MAX_TEXT_CHARS:
                raise SheetError(
                    _("%(where)s: die Zellen enthalten zusammen mehr als %(max)s Zeichen Text.")
                    % {"where": _where(row, column), "max": thousands(MAX_TEXT_CHARS)}
                )
        cells = self.rows.setdefault(row, [])
        if len(cells) < column:
            cells.extend([None] * (column - len(cells)))
        cells[column - 1] = value

    def lines(self) -> list[list[Any]]:
        """Row 1 first; a row without a value is an empty list."""
        return [self.rows.get(number, []) for number in range(1, max(self.rows, default=0) + 1)]


# --- CSV ----------------------------------------------------------------------------------------


def csv_rows(content: bytes, *, max_rows: int) -> list[list[Any]]:
    """The rows of a CSV file (``;`` or ``,``; UTF-8 or Windows-1252, as spreadsheets save it)."""
    text = _decode(content)
    first = text.split("\n", 1)[0]
    delimiter = ";" if first.count(";") >= first.count(",") else ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    table = _Table(max_rows)
    try:
        for number, line in enumerate(reader, start=1):
            for column, value in enumerate(line, start=1):
                table.add(number, column, value)
    except csv.Error as error:  # the csv module's own bound on a field (128 KB) or a broken quote
        if "field larger than field limit" in str(error):
            raise _too_long(reader.line_num) from None
        raise SheetError(
            _("Zeile %(row)s: kein lesbares CSV (%(error)s).") % {"row": reader.line_num, "error": excerpt(error, 80)}
        ) from None
    return table.lines()


def _decode(content: bytes) -> str:
    if content.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise SheetError(
            _(
                "Die Datei ist als UTF-16 gespeichert; bitte als „CSV UTF-8“ oder "
                "„CSV (Trennzeichen-getrennt)“ speichern."
            )
        )
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        utf8 = error
    if any(byte >= 0x80 for byte in content[: utf8.start]):  # UTF-8 before, something else here
        raise _bad_byte(content, utf8.start, _("mischt UTF-8 mit einer anderen Kodierung"))
    try:
        return content.decode("cp1252")  # German Excel's "CSV (Trennzeichen-getrennt)"
    except UnicodeDecodeError as error:
        raise _bad_byte(content, error.start, _("ist weder UTF-8 noch Windows-1252")) from None


def _bad_byte(content: bytes, at: int, why: str) -> SheetError:
    return SheetError(
        _("Zeile %(row)s: das Byte 0x%(byte)02X %(why)s; bitte als „CSV UTF-8“ speichern.")
        % {"row": content.count(b"\n", 0, at) + 1, "byte": content[at], "why": why}
    )


# --- Excel --------------------------------------------------------------------------------------

_CELL_REFERENCE = re.compile(r"([A-Z]{1,3})([0-9]{1,7})")
_INTEGER = re.compile(r"[+-]?[0-9]+")
_GRID_ROWS, _GRID_COLUMNS = 1_048_576, 16_384  # the largest sheet Excel has


def _unreadable(reason: str) -> SheetError:
    return SheetError(_("Die Excel-Arbeitsmappe ist nicht lesbar: %(reason)s.") % {"reason": reason})


def xlsx_rows(content: bytes, *, max_rows: int) -> list[list[Any]]:
    """The rows of the first worksheet of an Excel workbook (.xlsx), the values as saved."""
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            book = _Book(archive)
            sheet, strings_part = book.first_sheet()
            strings = _SharedStrings(book).read(strings_part) if strings_part else []
            return _Sheet(book, strings, max_rows).read(sheet)
    except SheetError:
        raise
    except zipfile.BadZipFile as error:
        reason = _("keine Zip-Datei") if "not a zip" in str(error).lower() else _("die Zip-Datei ist beschädigt")
        raise _unreadable(reason) from None
    except expat.ExpatError as error:
        raise _unreadable(_("kein gültiges XML (%(error)s)") % {"error": excerpt(error, 80)}) from None
    except (OSError, EOFError, ValueError, RuntimeError, NotImplementedError, zlib.error, zipfile.LargeZipFile):
        raise _unreadable(_("die Zip-Datei ist beschädigt")) from None


class _Book:
    """The zip's table of contents, checked, and the parts read through bounded expat."""

    def __init__(self, archive: zipfile.ZipFile) -> None:
        infos = archive.infolist()
        if len(infos) > MAX_MEMBERS:
            raise SheetError(
                _("Die Arbeitsmappe besteht aus %(count)s Dateien; erlaubt sind höchstens %(max)s.")
                % {"count": thousands(len(infos)), "max": thousands(MAX_MEMBERS)}
            )
        unpacked = sum(info.file_size for info in infos)
        if unpacked > MAX_UNPACKED_BYTES:
            raise SheetError(
                _("Die Arbeitsmappe entpackt sich zu %(size)s MB; erlaubt sind höchstens %(max)s MB.")
                % {"size": _megabytes(unpacked), "max": _megabytes(MAX_UNPACKED_BYTES)}
            )
        self.archive = archive
        self.members = {info.filename: info for info in infos}
        self.tags = 0

    def parse(self, name: str, limit: int, handler: _Handler) -> None:
        """Stream the part ``name`` through ``handler``. Counted first, without parsing: the part
        may unpack to ``limit`` bytes, and the parts read together hold ``MAX_TAGS`` tags."""
        info = self.members.get(name)
        if info is None:
            raise _unreadable(_("der Teil „%(name)s“ fehlt") % {"name": excerpt(name)})
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED) or info.flag_bits & 0x1:
            raise _unreadable(_("„%(name)s“ ist verschlüsselt oder ungewöhnlich gepackt") % {"name": excerpt(name)})
        if info.file_size > limit:  # zipfile unpacks no more than the zip declares (else its CRC check fails)
            raise SheetError(
                _("„%(name)s“ der Arbeitsmappe entpackt sich zu %(size)s MB; erlaubt sind höchstens %(max)s MB.")
                % {"name": excerpt(name), "size": _megabytes(info.file_size), "max": _megabytes(limit)}
            )
        with self.archive.open(info) as stream:
            while chunk := stream.read(_CHUNK):
                self.tags += chunk.count(b"<")  # in XML text "<" stands only as "&lt;"
                if self.tags > MAX_TAGS:
                    raise SheetError(
                        _("Die Arbeitsmappe hat mehr als %(max)s XML-Tags; ein Spielabend braucht viel weniger.")
                        % {"max": thousands(MAX_TAGS)}
                    )
        parser = expat.ParserCreate()
        parser.buffer_text = True
        parser.StartDoctypeDeclHandler = self._no_doctype
        parser.StartElementHandler = handler.start
        parser.EndElementHandler = handler.end
        parser.CharacterDataHandler = handler.text
        with self.archive.open(info) as stream:
            while chunk := stream.read(_CHUNK):
                parser.Parse(chunk, False)
        parser.Parse(b"", True)

    @staticmethod
    def _no_doctype(*args: Any) -> None:
        raise _unreadable(_("sie enthält eine DTD"))

    def relationships(self, part: str) -> list[tuple[str, str, str]]:
        """(id, type, target part) of ``part``'s relationships, targets resolved to zip names."""
        folder, name = posixpath.split(part)
        rels = posixpath.join(folder, "_rels", name + ".rels")
        if rels not in self.members:
            return []
        found: list[tuple[str, str, str]] = []

        def take(attrs: dict[str, str]) -> None:
            target = attrs.get("Target", "")
            if attrs.get("TargetMode") == "External" or not target:
                return
            path = target[1:] if target.startswith("/") else posixpath.normpath(posixpath.join(folder, target))
            found.append((attrs.get("Id", ""), attrs.get("Type", ""), path))

        self.parse(rels, MAX_SMALL_PART_BYTES, _Handler(on_start={"Relationship": take}))
        return found

    def first_sheet(self) -> tuple[str, str | None]:
        """(the first worksheet's part, the shared strings' part or None)."""
        book = next((path for _id, kind, path in self.relationships("") if kind.endswith("/officeDocument")), None)
        if book is None:
            raise _unreadable(_("sie nennt keine Arbeitsmappe"))
        rels = self.relationships(book)
        sheet_ids: list[str] = []

        def take(attrs: dict[str, str]) -> None:
            sheet_ids.extend(value for key, value in attrs.items() if key.endswith(":id"))

        self.parse(book, MAX_SMALL_PART_BYTES, _Handler(on_start={"sheet": take}))
        by_id = {rel_id: (kind, path) for rel_id, kind, path in rels}
        worksheets = [by_id[i][1] for i in sheet_ids if i in by_id and by_id[i][0].endswith("/worksheet")]
        if not worksheets:
            raise _unreadable(_("sie enthält kein Tabellenblatt"))
        strings = next((path for _id, kind, path in rels if kind.endswith("/sharedStrings")), None)
        return worksheets[0], strings


class _LocalNames(dict[str, str]):
    """An element's name without its namespace prefix (``x:row`` → ``row``), worked out once a name."""

    def __missing__(self, tag: str) -> str:
        self[tag] = local = tag.rpartition(":")[2]
        return local


class _Handler:
    """expat's callbacks for one part; ``local`` strips the namespace prefix off a name."""

    def __init__(self, on_start: dict[str, Callable[[dict[str, str]], None]] | None = None) -> None:
        self.on_start = on_start or {}
        self.local = _LocalNames()

    def start(self, tag: str, attrs: dict[str, str]) -> None:
        call = self.on_start.get(self.local[tag])
        if call is not None:
            call(attrs)

    def end(self, tag: str) -> None:
        pass

    def text(self, data: str) -> None:
        pass


class _TooLong:
    """A shared string longer than a cell may be: refused when a cell of the sheet uses it."""


class _SharedStrings(_Handler):
    """The workbook's table of texts (``<si>``, the runs of rich text joined, phonetic hints left out)."""

    def __init__(self, book: _Book) -> None:
        super().__init__()
        self.book = book
        self.strings: list[str | _TooLong] = []
        self.parts: list[str] = []
        self.length = 0
        self.collect = False
        self.phonetic = 0

    def read(self, part: str) -> list[str | _TooLong]:
        self.book.parse(part, MAX_PART_BYTES, self)
        return self.strings

    def start(self, tag: str, attrs: dict[str, str]) -> None:
        tag = self.local[tag]
        if tag == "si":
            self.parts, self.length = [], 0
        elif tag == "rPh":
            self.phonetic += 1
        elif tag == "t" and not self.phonetic:
            self.collect = True

    def end(self, tag: str) -> None:
        tag = self.local[tag]
        if tag == "si":
            self.strings.append(_TooLong() if self.length > MAX_CELL_CHARS else "".join(self.parts))
        elif tag == "rPh":
            self.phonetic -= 1
        elif tag == "t":
            self.collect = False

    def text(self, data: str) -> None:
        if self.collect:
            self.length += len(data)
            if self.length <= MAX_CELL_CHARS:
                self.parts.append(data)
            else:
                self.parts = []  # only its length is kept


class _Sheet(_Handler):
    """A worksheet's ``<row>`` and ``<c>`` elements into a ``_Table``."""

    def __init__(self, book: _Book, strings: list[str | _TooLong], max_rows: int) -> None:
        super().__init__()
        self.book = book
        self.strings = strings
        self.table = _Table(max_rows)
        self.cells = 0
        self.row = 0
        self.column = 0
        self.kind = ""
        self.parts: list[str] = []
        self.length = 0
        self.collect = False
        self.inline = False
        self.phonetic = 0

    def read(self, part: str) -> list[list[Any]]:
        self.book.parse(part, MAX_PART_BYTES, self)
        return self.table.lines()

    def start(self, tag: str, attrs: dict[str, str]) -> None:
        tag = self.local[tag]
        if tag == "row":
            self.row = self._index(attrs.get("r"), self.row + 1, _GRID_ROWS)
            self.column = 0
        elif tag == "c":
            self.cells += 1
            if self.cells > MAX_CELLS:
                raise SheetError(
                    _("%(where)s: das Tabellenblatt hat mehr als %(max)s Zellen.")
                    % {"where": _where(self.row, self.column + 1), "max": thousands(MAX_CELLS)}
                )
            if not self.row:
                raise _unreadable(_("eine Zelle steht außerhalb einer Zeile"))
            reference = attrs.get("r")
            if reference is None:
                self.column += 1
            else:
                match = _CELL_REFERENCE.fullmatch(reference)
                if match is None:
                    raise _unreadable(_("der Zellbezug „%(ref)s“ ist ungültig") % {"ref": excerpt(reference)})
                self.column = _columnthousands(match.group(1))
                if self.column > _GRID_COLUMNS:
                    raise _unreadable(_("der Zellbezug „%(ref)s“ ist ungültig") % {"ref": excerpt(reference)})
            self.kind = attrs.get("t", "n")
            self.parts, self.length, self.inline = [], 0, False
        elif tag == "v":
            self.collect = True
        elif tag == "is":
            self.inline = True
        elif tag == "rPh":
            self.phonetic += 1
        elif tag == "t" and self.inline and not self.phonetic:
            self.collect = True

    def end(self, tag: str) -> None:
        tag = self.local[tag]
        if tag in ("v", "t"):
            self.collect = False
        elif tag == "rPh":
            self.phonetic -= 1
        elif tag == "c":
            self.table.add(self.row, self.column, self._value())

    def text(self, data: str) -> None:
        if self.collect:
            self.length += len(data)
            if self.length > MAX_CELL_CHARS:
                raise _too_long(self.row, self.column)
            self.parts.append(data)

    def _index(self, text: str | None, default: int, largest: int) -> int:
        if text is None:
            return default
        if not re.fullmatch(r"[0-9]{1,7}", text) or not 1 <= int(text) <= largest:
            raise _unreadable(_("die Zeilennummer „%(n)s“ ist ungültig") % {"n": excerpt(text)})
        return int(text)

    def _value(self) -> Any:
        text = "".join(self.parts)
        if self.kind == "s":
            if not text.strip():
                return None
            number = int(text) if re.fullmatch(r"\s*[0-9]{1,9}\s*", text) else -1
            if not 0 <= number < len(self.strings):
                raise _unreadable(
                    _("%(where)s verweist auf den Text Nr. %(ref)s, den es in der Datei nicht gibt")
                    % {"where": _where(self.row, self.column), "ref": excerpt(text)}
                )
            value = self.strings[number]
            if isinstance(value, _TooLong):
                raise _too_long(self.row, self.column)
            return value
        if self.kind == "b":
            return text.strip() in ("1", "true")
        if self.kind != "n":  # inlineStr, str (a formula's text), e (an error like #DIV/0!), d (a date as text)
            return text
        text = text.strip()
        if not text:
            return None
        if _INTEGER.fullmatch(text):
            return int(text)
        try:
            return float(text)
        except ValueError:
            raise _unreadable(
                _("%(where)s: „%(value)s“ ist als Zahl gespeichert, aber keine")
                % {"where": _where(self.row, self.column), "value": excerpt(text)}
            ) from None


def _columnthousands(letters: str) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + ord(letter) - ord("A") + 1
    return number
