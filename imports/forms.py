"""The upload form of the history import (``imports.views``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Member
from clubs.validators import PlainTextFields
from imports.history import MAX_BYTES
from imports.sheets import excerpt
from scoring.models import Session, Table
from scoring.option_labels import preset_choices

NAME_LENGTH = Member._meta.get_field("display_name").max_length


class SheetForm(PlainTextFields, forms.Form):
    """A file to check, or the checked rows carried from its preview to the confirmation: the
    upload of a table's paper sheet, and the start of the history import's form."""

    file = forms.FileField(
        label=_("Datei"),
        required=False,
        help_text=_("Die ausgefüllte Vorlage (.csv oder .xlsx) oder eine JSON-Datei der App (.json)."),
    )
    # The checked rows, carried from the preview to the confirmation (checked again there).
    document = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # JSON text: the view reads it with the one safe reader, whose refusal names the file field.
        self.fields["document"].validators = []

    def clean_file(self) -> UploadedFile | None:
        upload = self.cleaned_data.get("file")
        if not isinstance(upload, UploadedFile):  # none, or False from a posted "clear" tick
            return None
        if upload.size > MAX_BYTES:  # refused before it is read
            raise forms.ValidationError(_("Die Datei ist größer als 2 MB; ein Spielabend ist viel kleiner."))
        return upload

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not data.get("file") and not data.get("document"):
            self.add_error("file", _("Bitte eine Datei wählen."))
        return data


class HistoryForm(SheetForm):
    """Every text field is plain text (``clubs.validators``) and no longer than the model field
    it is stored in; the players are each a member's name."""

    date = forms.DateField(label=_("Datum"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    place = forms.CharField(label=_("Ort"), max_length=Session._meta.get_field("place").max_length, required=False)
    table_name = forms.CharField(
        label=_("Tisch"), max_length=Table._meta.get_field("name").max_length, initial="Tisch 1"
    )
    players = forms.CharField(
        label=_("Spieler in Sitzordnung"),
        required=False,
        max_length=400,
        help_text=_("Für CSV/Excel: durch Kommas getrennt, im Uhrzeigersinn (ein JSON-Dokument nennt sie selbst)."),
    )
    first_dealer = forms.CharField(
        label=_("Erster Geber"), required=False, max_length=NAME_LENGTH, help_text=_("Leer: der erste Spieler.")
    )
    preset = forms.ChoiceField(label=_("Regel"), required=False, help_text=_("Für CSV/Excel; leer: die des Vereins."))

    def __init__(self, *args: Any, game: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["date"].initial = timezone.localdate()
        # The rule sets of the club's game (issue 32 §3); a JSON document still names its own.
        self.fields["preset"].choices = [("", _("die Regeln des Vereins")), *preset_choices(game=game)]

    def clean_players(self) -> str:
        players = self.cleaned_data.get("players", "")
        for name in players.split(","):
            if len(name.strip()) > NAME_LENGTH:
                message = _("„%(name)s“: ein Name hat höchstens %(max)s Zeichen.")
                raise forms.ValidationError(message % {"name": excerpt(name), "max": NAME_LENGTH})
        return players
