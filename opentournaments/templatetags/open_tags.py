from django import template

from scoring.amounts import format_amount

register = template.Library()


@register.simple_tag
def rounds_line(rounds: list[int | None] | range, width: int, heading: bool = False) -> str:
    """A player's points per round as one line of figures, each right-aligned in ``width``
    characters of a fixed-width font ("–" for a round not played); with ``heading`` the round
    numbers (R1, R2, …) above them. The printed ranking sets the rounds so: one text per row
    instead of one table cell per round keeps the PDF of 400 players × 10 rounds within seconds
    (WeasyPrint lays out every cell on its own)."""
    if heading:
        return " ".join(f"R{n}".rjust(width) for n in rounds)
    return " ".join(("–" if p is None else str(p)).rjust(width) for p in rounds)


@register.filter
def euros(cents: int | None) -> str:
    """Cents as money in the active language, without a sign: Startgeld, Kasse, prizes."""
    return format_amount(cents, "cent")
