"""Amounts as people read them: cents as euros (``1,50 €``), points and Zähleinheiten as whole
numbers, in the active language's number format. Money and points are never mixed, so every
function here takes the unit with the value."""

from __future__ import annotations

from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.utils.formats import get_format
from django.utils.translation import pgettext

CENT = "cent"
EURO = "\u00a0€"  # a non-breaking space keeps "1,50 €" on one line


def euros(cents: int) -> Decimal:
    """Cents as an exact euro amount (for Excel cells: never a float)."""
    return Decimal(cents) / 100


def rounded(value: int | Fraction, places: int = 0) -> Decimal:
    """``value`` rounded half up (kaufmännisch) to ``places`` decimals: the one rounding of every
    average the page, the PDF and the workbook show (issue 29: the page said 0,23 € where Excel
    said 0,22 €, one formatting a float, the other rounding half to even). An average is a
    ``Fraction``, so a tie such as 3/20 = 0,15 is a tie and not 0,1499… of a float."""
    exact = Decimal(value.numerator) / Decimal(value.denominator) if isinstance(value, Fraction) else Decimal(value)
    return exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def average(total: int, count: int) -> Fraction | None:
    """``total / count`` exactly (None for no count): rounded only where it is shown."""
    return Fraction(total, count) if count else None


def amount_formatter(unit: str) -> Callable[[int | Fraction | None], str]:
    """A formatter for many amounts of one unit in the active language (separators looked up
    once, so a score sheet of thousands of lines does not ask the locale each time)."""
    decimal = get_format("DECIMAL_SEPARATOR")
    grouping = get_format("THOUSAND_SEPARATOR")

    def group(text: str) -> str:
        return text.replace(",", "\x00").replace(".", decimal).replace("\x00", grouping)

    def fmt(value: int | Fraction | None) -> str:
        if value is None:
            return "–"
        if unit == CENT:
            return group(f"{rounded(value) / 100:,.2f}") + EURO
        if isinstance(value, int):
            return group(f"{value:,d}")
        return group(f"{rounded(value, 1):,.1f}")

    return fmt


def format_amount(value: int | Fraction | None, unit: str, *, signed: bool = False) -> str:
    """``150, "cent"`` → ``1,50 €``; ``12, "point"`` → ``12``; an average (a ``Fraction``) is
    rounded half up to the cent, or to one decimal in points. ``signed`` puts a plus on gains."""
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
