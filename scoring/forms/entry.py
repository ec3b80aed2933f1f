"""What every entry form of the score sheet builds on (``hand`` for Schafkopf, events and the
JSON fallback, ``families`` for Doppelkopf and Saukopf): the context an entry is entered
in, and the hidden fields and the engine's refusals every entry form shares."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from clubs.validators import PlainTextFields
from scoring import safejson, services
from scoring.engine.core import EngineError
from scoring.engine.presets.schafkopf import SchafkopfRules
from scoring.engine.session import EntryError, TableState
from scoring.models import Entry, Table
from scoring.selectors import TableSetup


@dataclass(frozen=True)
class EntryContext:
    """What an entry form is for: the table, the state the entry is played in, its number."""

    setup: TableSetup
    state: TableState
    number: int

    @property
    def schafkopf(self) -> SchafkopfRules | None:
        ruleset = self.setup.ruleset
        return ruleset if isinstance(ruleset, SchafkopfRules) else None


class SubmissionFields(PlainTextFields, forms.Form):
    """The two hidden fields that keep two phones at one table apart."""

    idempotency_key = forms.CharField(widget=forms.HiddenInput, max_length=64, required=False)
    expected_number = forms.IntegerField(widget=forms.HiddenInput, min_value=1, required=False)

    def __init__(self, *args: Any, context: EntryContext, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.context = context
        self.fields["idempotency_key"].initial = uuid.uuid4().hex
        self.fields["expected_number"].initial = context.number

    def posted_key(self) -> str:
        """The idempotency key as posted, before the form is checked, when its field would take
        it (plain text, at most 64 characters), else "": only such a key may be looked up (a NUL
        in a query is an error on PostgreSQL, not a miss)."""
        field = self.fields["idempotency_key"]
        posted = field.widget.value_from_datadict(self.data, self.files, self.add_prefix("idempotency_key"))
        try:
            return field.clean(posted)
        except ValidationError:
            return ""

    def to_data(self) -> dict[str, Any]:
        """The entry's raw facts as spec §3 has them (call after ``is_valid``)."""
        raise NotImplementedError

    @classmethod
    def same_facts(cls, typed: Mapping[str, Any], stored: Mapping[str, Any]) -> bool:
        """Whether facts from this form are the stored facts: identical, as JSON (60 is not
        60.0, true is not 1). A form that writes the same facts in other ways says so."""
        return safejson.identical(typed, stored)

    def append(self, *, table: Table, user: Any) -> Entry | None:
        """Store the checked entry (call after ``is_valid``) under its idempotency key: the new
        entry, or ``None`` with the refusal put on its field. ``services.StaleEntry`` (another
        phone wrote first) goes to the caller: the page keeps the input, the offline sender
        sends it again at the new place."""
        try:
            return services.entry_append(
                table=table,
                data=self.to_data(),
                user=user,
                idempotency_key=self.cleaned_data.get("idempotency_key") or "",
                expected_number=self.cleaned_data.get("expected_number"),
            )
        except EngineError as error:
            self.apply_engine_error(error)
        except ValidationError as error:
            self.add_error(None, error)
        return None

    def apply_engine_error(self, error: EngineError) -> None:
        """Put the engine's refusal on the field it names (or on the form)."""
        if isinstance(error, EntryError):
            message = _("Nr. %(n)s würde dadurch ungültig: %(message)s") % {
                "n": error.index + 1,
                "message": error.message,
            }
            self.add_error(None, message)
            return
        field = self.form_field(error.field)
        message = error.message
        if error.code == "missing_field" and field == error.field and f"'{field}'" in message:
            message = _("Bitte angeben.")  # the engine names the JSON field; the form shows the label
        self.add_error(field, message)

    def form_field(self, engine_field: str | None) -> str | None:
        return None
