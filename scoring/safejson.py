"""The one reader for JSON text that comes from outside, and the one check of a parsed value.

Commands (``score_hand``, ``score_session``, ``rank_tournament``), the JSON forms of the score
sheet and the services that store an entry's facts all read through here. Whatever a parser or
a database would choke on later is refused now, as the spec's error object (code
``invalid_json``, the field as a path where there is one), never as a crash:

- text that is not JSON, not UTF-8, or longer than ``MAX_JSON_CHARS``;
- nesting deeper than ``MAX_DEPTH`` (a document 100,000 brackets deep would exhaust the stack);
- integers of more than ``MAX_INT_DIGITS`` digits (Python refuses to print one of 4,300 digits;
  no field of the format needs more than a handful), ``NaN`` and ``Infinity``;
- strings (values and keys) with a control character other than tab and line breaks — NUL
  above all, which PostgreSQL cannot store — or a lone surrogate (``"\\ud800"``), which no UTF-8
  output can print.

Pure Python, no Django. The rule for text is ``clubs.plaintext``, which the forms' text fields
apply as well.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

from clubs.plaintext import text_problem
from scoring.engine.core import EngineError

MAX_JSON_CHARS = 16_000_000  # a championship of 200 players with every hand is about 2 MB
MAX_DEPTH = 64  # the deepest document of the spec (rank_tournament) nests 8 levels
MAX_INT_DIGITS = 20  # every integer of the format fits into 64 bits (19 digits)
MAX_JSON_BYTES = 4 * MAX_JSON_CHARS  # a character is at most four bytes of UTF-8


# An escape of a C0/C1 control character (also the short ones, backspace and form feed) or of a
# surrogate, or such a character raw (JSON lets DEL, the C1 controls and, in a str, surrogates stand
# in a string as they are): the text may hold a string that ``clubs.plaintext`` refuses (a
# surrogate pair of an emoji or an escaped backslash before "b" match too, harmlessly).
_MAYBE_BAD_TEXT = re.compile(r"[\x7f-\x9f\ud800-\udfff]|\\u(?:00[01]|007f|008|009|d[89a-f])|\\[bf]", re.IGNORECASE)


def _invalid(message: str, field: str | None = None) -> EngineError:
    return EngineError("invalid_json", message, field)


def _parse_int(digits: str) -> int:
    count = len(digits.lstrip("-"))
    if count > MAX_INT_DIGITS:
        raise _invalid(f"Eine Zahl hat {count} Stellen; erlaubt sind höchstens {MAX_INT_DIGITS}.")
    return int(digits)


def _refuse_constant(name: str) -> Any:
    raise _invalid(f"'{name}' ist keine Zahl im JSON-Format.")


def loads(text: str | bytes) -> Any:
    """Parse JSON text from outside and check it (``check``); any failure is an ``EngineError``.
    Bytes are read as UTF-8; more than ``MAX_JSON_BYTES`` of them are too long without a look."""
    if isinstance(text, bytes | bytearray):
        if len(text) > MAX_JSON_BYTES:
            raise _too_long()
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError:
            raise _invalid("Die Eingabe ist kein UTF-8-Text.") from None
    if len(text) > MAX_JSON_CHARS:
        raise _too_long()
    try:
        value = json.loads(text, parse_int=_parse_int, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise _invalid(f"Kein gültiges JSON (Zeile {exc.lineno}, Spalte {exc.colno}): {exc.msg}") from None
    except RecursionError:
        raise _invalid(_too_deep()) from None
    # Without a bad character raw or escaped anywhere in the text (C0 controls typed raw are not
    # JSON), the strings need no look one by one, which keeps a document of megabytes fast.
    check(value, texts=_MAYBE_BAD_TEXT.search(text) is not None)
    return value


def _too_long() -> EngineError:
    return _invalid(f"Die Eingabe ist zu lang (höchstens {MAX_JSON_CHARS:,} Zeichen).".replace(",", "."))


def _too_deep() -> str:
    return f"Das JSON ist zu tief verschachtelt (höchstens {MAX_DEPTH} Ebenen)."


def check(value: Any, path: str | None = None, *, texts: bool = True) -> None:
    """Refuse what ``loads`` refuses in an already parsed value (an entry's facts built by a
    form, a document handed to a service): deep nesting, huge integers, bad text in strings and
    keys (unless ``texts`` is false). Iterative, so a deep value cannot exhaust the stack."""
    stack: list[tuple[Any, str | None, int]] = [(value, path, 0)]
    limit = 10**MAX_INT_DIGITS
    while stack:
        item, where, depth = stack.pop()
        if isinstance(item, str):
            problem = texts and text_problem(item)
            if problem:
                raise _invalid(problem, where)
        elif isinstance(item, float):
            if not math.isfinite(item):  # NaN and infinity are not JSON (PostgreSQL refuses them)
                raise _invalid("Keine Zahl im JSON-Format (NaN oder unendlich).", where)
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, int):
            if not -limit < item < limit:
                raise _invalid(f"Die Zahl ist zu groß (höchstens {MAX_INT_DIGITS} Stellen).", where)
        elif depth >= MAX_DEPTH:
            raise _invalid(_too_deep())
        elif isinstance(item, Mapping):
            for key, child in item.items():
                if not isinstance(key, str):
                    raise _invalid("Schlüssel eines JSON-Objekts sind Texte.", where)
                inner = f"{where}.{key}" if where else key
                problem = texts and text_problem(key)
                if problem:
                    raise _invalid(f"Im Feldnamen: {problem}", where)
                stack.append((child, inner, depth + 1))
        elif isinstance(item, list | tuple):
            for index, child in enumerate(item):
                stack.append((child, f"{where or ''}[{index}]", depth + 1))
        else:
            raise _invalid(f"Kein JSON-Wert: {type(item).__name__}.", where)


def dumps_printable(value: Any) -> str:
    """JSON text that a UTF-8 page can show: readable umlauts, and should a value still carry a
    lone surrogate (stored before this reader existed), the whole document ASCII-escaped."""
    text = json.dumps(value, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value)
    return text


def identical(first: Any, second: Any) -> bool:
    """Whether two JSON values are the very same facts: equal as JSON text, keys in any order
    (60 is not 60.0, true is not 1). A value that is no JSON is identical to nothing."""
    try:
        return json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)
    except (TypeError, ValueError):
        return False
