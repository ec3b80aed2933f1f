from django import template

from tournaments.exports import decided_label

register = template.Library()


@register.filter
def decided(criterion: str | None) -> str:
    """What separated a player from the one above him (a criterion of 001 §11.3, or a playoff)."""
    return decided_label(criterion)


@register.filter
def for_table(forms: dict[int, object], number: int) -> object | None:
    """The form of table ``number`` (the Partie page's Schreiber forms, by table number)."""
    return forms.get(number) if isinstance(forms, dict) else None
