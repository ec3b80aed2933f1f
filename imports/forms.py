"""The upload form of the history import (``imports.views``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.validators import PlainTextFields
from scoring.engine import registry


class HistoryForm(PlainTextFields, forms.Form):
    file = forms.FileField(
        label=_("Datei"),
        required=False,
        help_text=_("Die ausgefüllte Vorlage (.csv oder .xlsx) oder ein score_session-Dokument (.json)."),
    )
    date = forms.DateField(label=_("Datum"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    place = forms.CharField(label=_("Ort"), max_length=100, required=False)
    table_name = forms.CharField(label=_("Tisch"), max_length=40, initial="Tisch 1")
    players = forms.CharField(
        label=_("Spieler in Sitzordnung"),
        required=False,
        max_length=400,
        help_text=_("Für CSV/Excel: durch Kommas getrennt, im Uhrzeigersinn (ein JSON-Dokument nennt sie selbst)."),
    )
    first_dealer = forms.CharField(
        label=_("Erster Geber"), required=False, max_length=60, help_text=_("Leer: der erste Spieler.")
    )
    preset = forms.ChoiceField(label=_("Regel"), required=False, help_text=_("Für CSV/Excel; leer: die des Vereins."))
    # The checked rows, carried from the preview to the confirmation (checked again there).
    document = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["date"].initial = timezone.localdate()
        self.fields["preset"].choices = [("", _("die Regeln des Vereins"))] + [
            (name, name) for name in registry.all_presets()
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not data.get("file") and not data.get("document"):
            self.add_error("file", _("Bitte eine Datei wählen."))
        return data
