"""Template filters of the score sheet."""

from __future__ import annotations

from django import template

from scoring.amounts import format_amount
from scoring.engine.session import TableState
from scoring.forms_table_rules import StoeckleRow, stoeckle_rows
from scoring.labels import describe, game_label, round_label

register = template.Library()


@register.filter
def amount(value: int | None, unit: str) -> str:
    """``20|amount:"cent"`` → ``+0,20 €``; None (sat out) → ``–``."""
    return format_amount(value, unit, signed=True)


@register.filter
def total(value: int | None, unit: str) -> str:
    return format_amount(value, unit)


@register.filter(name="stoeckle_rows")
def stoeckle_rows_filter(state: TableState) -> list[StoeckleRow]:
    return stoeckle_rows(state)


@register.filter(name="round_label")
def round_label_filter(name: str) -> str:
    return round_label(name)


@register.filter(name="game_label")
def game_label_filter(name: str) -> str:
    return game_label(name)


@register.filter(name="describe")
def describe_filter(data: dict) -> str:
    return describe(data) if isinstance(data, dict) else ""


@register.filter
def item(mapping: dict, key: str) -> object:
    return mapping.get(key) if hasattr(mapping, "get") else None
