"""What plain text is: no control character (NUL above all, which PostgreSQL cannot store; tab and
line breaks only where several lines are allowed) and no lone surrogate (``"\\ud800"`` from a JSON
escape, which no UTF-8 output can print). One rule for the forms' text fields
(``clubs.validators``) and the strings and keys of JSON read from outside (``scoring.safejson``).
Pure Python, no Django.
"""

from __future__ import annotations

import re

# C0 and C1 control characters (tab and the line breaks excepted) and every surrogate code point:
# in a str that came from JSON a surrogate can only be a lone one ("\ud800"), pairs are decoded.
_BAD_IN_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
# In a one-line field (a name, a reason) tab and line breaks are refused as well.
_BAD_IN_LINE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def bad_character(text: str, *, multiline: bool = True) -> tuple[int, str] | None:
    """The first character of ``text`` that cannot be stored and printed: (position from 1,
    its code point as ``U+0000``), or None."""
    bad = (_BAD_IN_TEXT if multiline else _BAD_IN_LINE).search(text)
    return None if bad is None else (bad.start() + 1, f"U+{ord(bad.group()):04X}")


def text_problem(text: str, *, multiline: bool = True) -> str | None:
    """Why ``text`` cannot be stored and printed (German), or None when it can."""
    bad = bad_character(text, multiline=multiline)
    if bad is None:
        return None
    where, code = bad
    if 0xD800 <= int(code[2:], 16) <= 0xDFFF:
        return f"Das Zeichen {code} an Stelle {where} ist ungültig (ein einzelnes Surrogat, kein Zeichen)."
    return f"Das Steuerzeichen {code} an Stelle {where} ist nicht erlaubt."
