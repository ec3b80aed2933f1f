"""What an id from a request is: ASCII digits naming a number from 1 to the largest the database's
id columns hold (``BigAutoField``: 2**63 - 1). ``str.isdigit`` is not that test — it takes ``²``
and ``٣``, and ``int("²")`` fails — and a number of 30 digits overflows SQLite's integer when it
reaches a query (``pk__in`` above all, which Django does not bound as it bounds ``pk=``).

- ``IdConverter``: ``<id:session_id>`` in an address, which matches ids only (a longer number
  is no match: 404, before a foreign key's ``session_id=`` lookup, which Django does not
  bound, sends it to SQLite);
- ``parse_id``: a query parameter or posted value as an id, or None (the view answers 404 or
  ignores it);
- ``IdChoiceField`` and ``IdMultipleChoiceField``: the form fields that pick rows by id; anything
  that is not an id is refused at the field before it reaches the database.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

MAX_ID = 2**63 - 1
_ID = re.compile(r"[0-9]{1,19}")  # ASCII only: \d would take every script's digits


def parse_id(raw: object) -> int | None:
    """``raw`` as an id (1 … ``MAX_ID``), or None for anything else: empty, signs, spaces,
    non-ASCII digits, exponents, too many digits, a non-string."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw if 1 <= raw <= MAX_ID else None
    if not isinstance(raw, str) or _ID.fullmatch(raw) is None:
        return None
    number = int(raw)
    return number if 1 <= number <= MAX_ID else None


class IdConverter:
    """The path converter ``id`` (registered in ``clubs.apps``): ``int``'s, for ids only."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = parse_id(value)
        if number is None:
            raise ValueError(value)  # no match: the address is not found
        return number

    def to_url(self, value: int) -> str:
        return str(value)


def parse_ids(raw: str, separator: str = ",") -> list[int]:
    """The ids in ``raw`` (``"3,4,5"``), each part that is not one left out."""
    return [number for part in raw.split(separator) if (number := parse_id(part)) is not None]


_NOT_AN_ID = _("Diese Auswahl gibt es nicht.")


def _check(value: Any) -> None:
    # A model instance or an empty value is the parent's to judge; anything else must be an id.
    if value in (None, "") or hasattr(value, "_meta"):
        return
    if parse_id(str(value) if isinstance(value, int) else value) is None:
        raise ValidationError(_NOT_AN_ID, code="invalid_choice")


class IdChoiceField(forms.ModelChoiceField):
    """A ``ModelChoiceField`` by primary key that refuses what cannot be an id at the field."""

    def to_python(self, value: Any) -> Any:
        _check(value)
        return super().to_python(value)


class IdMultipleChoiceField(forms.ModelMultipleChoiceField):
    """A ``ModelMultipleChoiceField`` by primary key that refuses what cannot be an id at the
    field (one of 30 digits made SQLite's ``IN (…)`` overflow: a 500)."""

    def clean(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            for item in value:
                _check(item)
        return super().clean(value)
