from django import template

from scoring.amounts import format_amount

register = template.Library()


@register.filter
def euros(cents: int | None) -> str:
    """Cents as money in the active language, without a sign: Startgeld, Kasse, prizes."""
    return format_amount(cents, "cent")
