"""Filters of the standings and statistics pages: ``{{ value|amount:unit }}``, ``{{ rate|percent }}``."""

from django import template
from django.utils.safestring import SafeString, mark_safe

from scoring.amounts import format_amount, unit_label
from standings.exports import block_label
from standings.selectors import UnitStandings

register = template.Library()


@register.filter
def amount(value: int | float | None, unit: str) -> str:
    """Cents as euros (``1,50 €``), points as whole numbers."""
    return format_amount(value, unit)


@register.filter
def signed_amount(value: int | float | None, unit: str) -> str:
    return format_amount(value, unit, signed=True)


@register.filter
def percent(value: float | None) -> str:
    return "–" if value is None else f"{round(value * 100)}\u00a0%"


@register.filter
def unit_name(unit: str) -> str:
    return unit_label(unit)


@register.filter
def block_name(block: UnitStandings) -> str:
    """A block of the standings: its unit, or the ranking it is (Seeger-Fabian)."""
    return block_label(block)


@register.filter
def css_string(value: object) -> SafeString:
    """Text for a CSS string in a ``<style>`` block (the PDF's page margins): every character
    that could end the string or the block is written as a CSS escape."""
    out = []
    for char in str(value):
        if char in "\\\"'<>&" or ord(char) < 32:
            out.append(f"\\{ord(char):x} ")
        else:
            out.append(char)
    return mark_safe("".join(out))  # noqa: S308 - every special character is escaped above
