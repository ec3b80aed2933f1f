"""Amounts as people read them: cents as euros (``1,50 €``), points and Zähleinheiten as whole
numbers, in the active language's number format. Money and points are never mixed, so every
function here takes the unit with the value."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from django.utils.formats import get_format
from django.utils.translation import pgettext

CENT = "cent"
EURO = "\u00a0€"  # a non-breaking space keeps "1,50 €" on one line


def euros(cents: int) -> Decimal:
    """Cents as an exact euro amount (for Excel cells: never a float)."""
    return Decimal(cents) / 100


def amount_formatter(unit: str) -> Callable[[int | float | None], str]:
    """A formatter for many amounts of one unit in the active language (separators looked up
    once, so a score sheet of thousands of lines does not ask the locale each time)."""
    decimal = get_format("DECIMAL_SEPARATOR")
    grouping = get_format("THOUSAND_SEPARATOR")

    def group(text: str) -> str:
        return text.replace(",", "\x00").replace(".", decimal).replace("\x00", grouping)

    def fmt(value: int | float | None) -> str:
        if value is None:
            return "–"
        if unit == CENT:
            return group(f"{value / 100:,.2f}") + EURO
        if isinstance(value, int):
            return group(f"{value:,d}")
        return group(f"{value:,.1f}")

    return fmt


def format_amount(value: int | float | None, unit: str, *, signed: bool = False) -> str:
    """``150, "cent"`` → ``1,50 €``; ``12, "point"`` → ``12``; an average (a float) keeps one
    decimal in points. ``signed`` puts a plus on gains."""
    text = amount_formatter(unit)(value)
    if signed and value is not None and value > 0:
        return "+" + text
    return text


def unit_label(unit: str) -> str:
    """The heading of a unit's standings: money, points or Zähleinheiten."""
    labels = {
        "cent": pgettext("unit heading", "Geld"),
        "point": pgettext("unit heading", "Punkte"),
        "unit": pgettext("unit heading", "Zähleinheiten"),
    }
    return labels.get(unit, unit)
