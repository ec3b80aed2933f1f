"""JSON documents in, JSON documents out: the spec's ``score_hand`` as a pure function.

The management commands only read and print; everything that decides lives here so the web
pages, the commands and the tests share one path.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import registry
from .core import Context, EngineError, HandResult, RuleSet, check_amounts
from .fields import check_int, check_seats
from .session_rules import table_options_document


def read_context(raw: Any) -> Context:
    if raw is None:
        return Context()
    if not isinstance(raw, Mapping):
        raise EngineError("invalid_type", "Der Kontext muss ein Objekt sein.", "context")
    extra = set(raw) - {"bock", "round"}
    if extra:
        raise EngineError("unexpected_field", f"Unbekanntes Feld '{sorted(extra)[0]}'.", "context")
    bock = check_int(raw.get("bock", 0), 0, 10, "context.bock")
    round_ = raw.get("round", "normal")
    if not isinstance(round_, str):
        raise EngineError("invalid_type", "Erwartet den Namen einer Runde.", "context.round")
    return Context(bock=bock, round=round_)


def score_hand(ruleset: RuleSet, hand: Mapping[str, Any], seats: tuple[str, ...], context: Context) -> HandResult:
    """Score one validated hand; the single entry point pages, sessions and commands use."""
    result = ruleset.score(hand, seats, context)
    check_amounts(result.payouts.values())
    return result


def score_hand_document(doc: Any) -> dict[str, Any]:
    """Spec §2: one hand with its rule set and seats → the result object (or EngineError)."""
    if not isinstance(doc, Mapping):
        raise EngineError("invalid_type", "Erwartet ein JSON-Objekt.", None)
    ruleset = registry.load(doc.get("ruleset"))
    seats = check_seats(doc.get("seats"), ruleset.SEAT_COUNTS)
    context = read_context(doc.get("context"))
    return score_hand(ruleset, doc, seats, context).as_dict()


def rulesets_document() -> dict[str, Any]:
    """Every preset with its options and, under ``table_options``, the options of the evening's
    table state (``session_rules``) with their defaults for that preset."""
    out: dict[str, Any] = {}
    for name, cls in registry.all_presets().items():
        ruleset = cls.build()
        out[name] = {**ruleset.describe(), "table_options": table_options_document(ruleset)}
    return out
