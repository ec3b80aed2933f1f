"""Text typed into a form is plain text: every text field of the project's forms refuses control
characters (NUL above all, which PostgreSQL cannot store; tab and line breaks only where the
field has several lines) and lone surrogates, with the reason at the field. The rule is
``clubs.plaintext``, which the JSON reader (``scoring.safejson``) applies to strings as well."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from clubs.plaintext import bad_character


def _validator(multiline: bool) -> Any:
    def validate(value: str) -> None:
        bad = bad_character(value, multiline=multiline)
        if bad is not None:
            where, code = bad
            raise ValidationError(
                _("Das Zeichen %(code)s an Stelle %(where)s ist nicht erlaubt (Steuer- oder Ersatzzeichen)."),
                code="control_character",
                params={"code": code, "where": where},
            )

    return validate


validate_line = _validator(multiline=False)
validate_text = _validator(multiline=True)


class PlainTextFields:
    """Mixin for a form (before ``forms.Form``): each of its text fields, however it was added,
    refuses control characters and lone surrogates. Passwords are left as typed."""

    fields: dict[str, forms.Field]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            if not isinstance(field, forms.CharField) or isinstance(field.widget, forms.PasswordInput):
                continue
            field.validators.append(validate_text if isinstance(field.widget, forms.Textarea) else validate_line)
