"""Forms of an evening and its tables (seats, first dealer), a correction's reason, closing an
evening, and the club's rules (one field per option of the preset and of the table)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.ids import IdChoiceField
from clubs.models import Member
from clubs.validators import PlainTextFields
from scoring.engine import registry
from scoring.engine.core import EngineError, OptionSpec
from scoring.engine.session_rules import table_option_specs
from scoring.engine_texts import translated
from scoring.option_labels import AMOUNT_OPTIONS, AMOUNT_UNITS, choice_label, option_label, preset_choices

# --- evenings and tables ------------------------------------------------------------------------


class SessionForm(PlainTextFields, forms.Form):
    date = forms.DateField(label=_("Datum"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    place = forms.CharField(label=_("Ort"), max_length=100, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["date"].initial = timezone.localdate()


MAX_SEATS = 6


class TableStartForm(PlainTextFields, forms.Form):
    """Players in seat order (clockwise): one select per seat, the first dealer by seat."""

    name = forms.CharField(label=_("Tisch"), max_length=40)
    preset = forms.ChoiceField(label=_("Regel"))
    first_dealer = forms.TypedChoiceField(label=_("Gibt zuerst"), coerce=int, initial=0)

    def __init__(
        self, *args: Any, players: QuerySet[Member], club_preset: str, game: str | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["preset"].choices = preset_choices(evening=True, game=game)  # the club's game only
        # In the page's language: a label made at import would stay in the language of the first page.
        self.fields["first_dealer"].choices = [(i, _("Platz %(n)s") % {"n": i + 1}) for i in range(MAX_SEATS)]
        self.fields["preset"].initial = club_preset
        self.fields["preset"].help_text = _("Mit den Optionen des Vereins, wenn es die Regel des Vereins ist.")
        for i in range(MAX_SEATS):
            self.fields[f"seat_{i}"] = IdChoiceField(
                label=_("Platz %(n)s") % {"n": i + 1},
                queryset=players,
                required=i < 3,
                empty_label="–",
            )

    @property
    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{i}"] for i in range(MAX_SEATS)]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        members = [data.get(f"seat_{i}") for i in range(MAX_SEATS)]
        filled = [m for m in members if m is not None]
        if any(m is None for m in members[: len(filled)]):
            raise ValidationError(_("Bitte die Plätze der Reihe nach besetzen, ohne Lücke."))
        if len({m.pk for m in filled}) != len(filled):
            raise ValidationError(_("Jeder Spieler darf nur einmal am Tisch sitzen."))
        dealer = data.get("first_dealer")
        if dealer is not None and dealer >= len(filled):
            self.add_error("first_dealer", _("Auf diesem Platz sitzt niemand."))
        data["members"] = filled
        return data


# Issue 21: the reasons a correction or a deletion usually has, a tap each; typing stays possible.
QUICK_REASONS = (
    ("falsch getippt", _("falsch getippt")),
    ("Schneider vergessen", _("Schneider vergessen")),
    ("Laufende vergessen", _("Laufende vergessen")),
    ("falscher Spieler", _("falscher Spieler")),
)


class ReasonForm(PlainTextFields, forms.Form):
    """Why an entry is corrected or deleted: a quick reason tapped, a typed one, or both (the
    typed one then adds to it). ``cleaned_data["reason"]`` is the line for the audit trail."""

    quick = forms.ChoiceField(label=_("Grund"), choices=QUICK_REASONS, widget=forms.RadioSelect, required=False)
    reason = forms.CharField(
        label=_("Grund (eigener Text)"),
        max_length=200,
        required=False,
        help_text=_("Steht im Protokoll des Tisches."),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        quick = dict(QUICK_REASONS).get(data.get("quick") or "")
        parts = [str(quick) if quick else "", (data.get("reason") or "").strip()]
        data["reason"] = ": ".join(part for part in parts if part)
        if not data["reason"]:
            self.add_error("quick", _("Bitte einen Grund antippen oder eintragen."))
        elif len(data["reason"]) > 200:
            self.add_error("reason", _("Der Grund ist zu lang (höchstens 200 Zeichen)."))
        return data


class CloseForm(forms.Form):
    book_to_kasse = forms.BooleanField(
        label=_("Gewinne in die Vereinskasse buchen"),
        required=False,
    )


# --- the club's rules -----------------------------------------------------------------------------


class RulesForm(forms.Form):
    """The preset's options and the table options, one field each, from their ``OptionSpec``.

    ``clean`` asks the engine: the options are valid when ``registry.load_with_table`` takes
    them; its refusal lands on the option it names. What is saved are the values that differ
    from the defaults (table options that the chosen preset options no longer offer drop out)."""

    winnings_to_kasse = forms.BooleanField(
        label=_("Gewinne gehen in die Vereinskasse"),
        required=False,
        help_text=_("Beim Abschluss eines Abends wird der Gewinn jedes Spielers in die Kasse gebucht."),
    )

    def __init__(self, *args: Any, preset: str, values: Mapping[str, Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.preset = preset
        self.values = dict(values)
        self.preset_class = registry.all_presets()[preset]
        try:
            ruleset, _table = registry.load_with_table({"preset": preset, "options": self.values})
        except EngineError:
            ruleset = self.preset_class.build()
        # A plus-points-only tariff is for a tournament's points, never an evening settled between
        # its players (``RuleSet.NON_ZERO_SUM_OPTIONS``): the club's rules do not offer it.
        own_specs = [
            s for s in self.preset_class.option_specs() if s.name not in self.preset_class.NON_ZERO_SUM_OPTIONS
        ]
        self.option_specs: list[OptionSpec] = [*own_specs, *table_option_specs(ruleset)]
        unit = AMOUNT_UNITS.get(self.preset_class.UNIT)
        for spec in self.option_specs:
            self.fields[spec.name] = _option_field(spec, self.values.get(spec.name, spec.default))
            if unit is not None and spec.name in AMOUNT_OPTIONS:
                self.fields[spec.name].help_text = unit
        self.chosen: dict[str, Any] = {}

    @property
    def option_fields(self) -> list[forms.BoundField]:
        return [self[spec.name] for spec in self.option_specs]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        own = _differences(self.preset_class.option_specs(), data)
        try:
            ruleset = self.preset_class.build(own)
            chosen = {**own, **_differences(table_option_specs(ruleset), data)}
            registry.load_with_table({"preset": self.preset, "options": chosen})
        except EngineError as error:
            self.apply_engine_error(error)
            return data
        self.chosen = chosen
        return data

    def spec(self) -> dict[str, Any] | None:
        """The rule set as the form stands: the stored values unbound, the chosen ones when valid."""
        if not self.is_bound:
            return {"preset": self.preset, "options": self.values}
        return {"preset": self.preset, "options": self.chosen} if self.is_valid() else None

    def apply_engine_error(self, error: EngineError) -> None:
        name = (error.field or "").rsplit(".", 1)[-1]
        self.add_error(name if name in self.fields else None, error.message)


def _differences(specs: Sequence[OptionSpec], data: Mapping[str, Any]) -> dict[str, Any]:
    out = {}
    for spec in specs:
        if spec.name not in data:
            continue
        value = data[spec.name]
        if spec.kind == "choice" and value not in spec.choices:
            # A table option's value its rule set no longer offers (Allgäu's Stock once the
            # special rounds are off): the option keeps its default.
            continue
        if spec.kind == "list":
            value = [v for v in spec.choices if v in (value or [])]
            if set(value) != set(spec.default):
                out[spec.name] = value
        elif value != spec.default:
            out[spec.name] = value
    return out


def _option_field(spec: OptionSpec, value: Any) -> forms.Field:
    """A form field for one option, labelled in words (``scoring.option_labels``); the option's
    own name (as the JSON format and ``manage.py rulesets`` use it) and the engine's description
    with its rule book sections go into the field's "Details" (``field.details``)."""
    field = _bare_option_field(spec, value)
    field.details = translated(spec.doc)  # type: ignore[attr-defined]
    return field


def _bare_option_field(spec: OptionSpec, value: Any) -> forms.Field:
    label = option_label(spec)
    if spec.kind == "bool":
        return forms.BooleanField(label=label, required=False, initial=value)
    if spec.kind == "int":
        # An option unset by default (Skat's ``cents_per_point``) may be left empty.
        return forms.IntegerField(
            label=label,
            min_value=spec.minimum,
            max_value=spec.maximum,
            initial=value,
            required=spec.default is not None,
        )
    choices = [(choice, choice_label(spec.name, choice)) for choice in spec.choices]
    if spec.kind == "choice":
        # Radio buttons: a value's words wrap on a phone, where a select would cut them.
        return forms.ChoiceField(label=label, choices=choices, initial=value, widget=forms.RadioSelect)
    return forms.MultipleChoiceField(
        label=label,
        choices=choices,
        required=False,
        initial=list(value),
        widget=forms.CheckboxSelectMultiple,
    )
