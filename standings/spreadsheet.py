"""Text that came from a user, made safe for a spreadsheet cell.

A player named ``=HYPERLINK("http://x","y")`` must arrive in Excel as that text, not as a live
formula: openpyxl writes a string starting with ``=`` as a formula, and Excel, LibreOffice and
the CSV importers also evaluate cells starting with ``+``, ``-`` or ``@`` (and a leading tab or
carriage return hides such a start). Such a value gets a leading apostrophe, as OWASP
recommends for CSV injection, and is written as a text cell. Every workbook the app writes
passes its text through ``safe_cell`` (``scoring.exports.workbook_bytes``, the import template).
"""

from __future__ import annotations

from typing import Any

DANGEROUS_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """``value`` unchanged unless it is text starting with a formula character; that text with
    an apostrophe in front."""
    if isinstance(value, str) and value.startswith(DANGEROUS_START):
        return "'" + value
    return value
