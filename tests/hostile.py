"""Hostile input, as an attacker or a careless user would type it (issue 17): the classes of text
and JSON that once crashed a command or a page, as fixed examples and as hypothesis strategies.

- ``DEEP``: nesting 100,000 brackets deep (exhausts the parser's stack);
- ``HUGE``: an integer of 5,000 digits (Python refuses to print more than 4,300);
- lone surrogates (``\\ud800``) in a value or a key (no UTF-8 output can print them);
- NUL (``\\u0000``) in a value or a key (PostgreSQL cannot store it), other control characters.
"""

from __future__ import annotations

import io
import json
import sys
from typing import Any

from django.core.management import call_command
from hypothesis import strategies as st

DEEP = "[" * 100_000 + "]" * 100_000
HUGE = "9" * 5_000

# Raw JSON text of one bad value each (what goes where a value or a key of a hand would be).
BAD_VALUES: dict[str, str] = {
    "deep": DEEP,
    "deep_object": '{"a": ' * 50_000 + "1" + "}" * 50_000,
    "huge": HUGE,
    "huge_negative": "-" + HUGE,
    "surrogate": '"Anna\\ud800"',
    "low_surrogate": '"\\udfff"',
    "nul": '"An\\u0000na"',
    "escape": '"\\u001b[31mrot"',
}
BAD_KEYS: dict[str, str] = {
    "nul_key": '"\\u0000"',
    "surrogate_key": '"x\\udc80"',
    "control_key": '"note\\u0007"',
}


def hand_text(names: list[str], *, augen: str = "70", extra: str = "", deckel: bool = False) -> str:
    """A valid Rufspiel of ``names`` as JSON text (a hand of spec §2/§3 without seats), with the
    raw text ``augen`` for its Augen and ``extra`` (``"key": value``) added."""
    body = (
        f'"game": "rufspiel", "declarer": {json.dumps(names[0])}, "partner": {json.dumps(names[1])}, '
        f'"called": "eichel", "augen": {augen}'
    )
    if deckel:
        body += ', "deckel": 1'
    if extra:
        body += ", " + extra
    return "{" + body + "}"


def hostile_hands(names: list[str], *, deckel: bool = False) -> dict[str, str]:
    """Every class of hostile input once, as the text of a hand that would otherwise be valid."""
    cases = {name: hand_text(names, augen=value, deckel=deckel) for name, value in BAD_VALUES.items()}
    cases["surrogate_declarer"] = hand_text(names, deckel=deckel).replace(json.dumps(names[0]), '"\\ud800"', 1)
    for name, key in BAD_KEYS.items():
        cases[name] = hand_text(names, extra=f"{key}: 0", deckel=deckel)
    cases["nul_note"] = hand_text(names, extra='"note": "\\u0000"', deckel=deckel)
    return cases


def run_command(name: str, data: bytes, *args: str) -> tuple[int, str, str]:
    """``manage.py NAME`` in this process with ``data`` on standard input, its output captured as
    a strict UTF-8 pipe would take it (a lone surrogate in the output fails there)."""
    streams = {key: io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict") for key in ("out", "err")}
    stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = stdin, streams["out"], streams["err"]
    code = 0
    try:
        call_command(name, *args)
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    texts = []
    for stream in streams.values():
        stream.flush()
        texts.append(stream.buffer.getvalue().decode("utf-8"))  # type: ignore[attr-defined]
    return code, texts[0], texts[1]


# --- hypothesis strategies -------------------------------------------------------------------------

# Text as a hostile client sends it: any code point, lone surrogates (category Cs) and control
# characters (Cc, NUL among them) included — hypothesis's default text leaves surrogates out.
hostile_text = st.text(st.characters(categories=["Cs", "Cc", "Cf", "L", "N", "P", "Zs"]), max_size=12)
hostile_text |= st.sampled_from(["\x00", "\ud800", "A\udfffB", "\x1b[2J", "Anna\x00", "\u202e", "\n"])
# Integers far beyond what any field takes, up to thousands of digits.
huge_integers = st.integers() | st.builds(
    lambda n, sign: sign * 10**n,
    st.integers(20, 5_000),
    st.sampled_from([1, -1]),
)
hostile_leaves = st.none() | st.booleans() | st.integers(-200, 200) | huge_integers | hostile_text
hostile_values = st.recursive(
    hostile_leaves,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(hostile_text, children, max_size=4),
    max_leaves=12,
)


@st.composite
def deep_json_text(draw: Any) -> str:
    """A JSON document nested deeper than any reader should follow."""
    depth = draw(st.sampled_from([65, 1_000, 5_000, 100_000]))
    opener, closer = draw(st.sampled_from([("[", "]"), ('{"a": ', "}")]))
    inner = "[]" if opener == "[" else "0"
    return opener * depth + inner + closer * depth


def hostile_json_text() -> st.SearchStrategy[str]:
    """Raw JSON text of one hostile value: escaped surrogates and NUL, huge digits, deep nesting."""
    escaped = hostile_text.map(lambda text: json.dumps(text))  # "\ud800" stays an escape, valid JSON
    digits = st.integers(21, 6_000).map(lambda n: "9" * n)
    return escaped | digits | deep_json_text()
