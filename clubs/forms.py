from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clubs.games import Game
from clubs.ids import IdChoiceField
from clubs.models import Club, Member, Role
from clubs.validators import PlainTextFields


class ClubForm(PlainTextFields, forms.Form):
    name = forms.CharField(label=_("Name des Vereins"), max_length=Club._meta.get_field("name").max_length)


class ClubSettingsForm(ClubForm):
    language = forms.ChoiceField(
        label=_("Sprache"),
        choices=settings.LANGUAGES,
        required=False,  # left out: the language stays as it is
        help_text=_(
            "Die Seiten des Vereins erscheinen in dieser Sprache, gleich welche der Browser bevorzugt; "
            "wer unten auf der Seite selbst eine Sprache wählt, sieht seine."
        ),
    )

    game = forms.ChoiceField(
        label=_("Unser Spiel"),
        choices=Game.choices,
        required=False,  # left out: the game stays as it is
        help_text=_(
            "Die Regeln, „Tisch starten“ und die Tabelle bieten nur die Regeln dieses Spiels an, und die Seiten "
            "sprechen seine Sprache. Gespielte Abende bleiben, wie sie gespielt wurden."
        ),
    )


class MemberForm(PlainTextFields, forms.Form):
    display_name = forms.CharField(
        label=_("Name"),
        max_length=Member._meta.get_field("display_name").max_length,
        help_text=_("So steht der Spieler auf dem Spielzettel; im Verein eindeutig."),
    )


class GrantAccessForm(PlainTextFields, forms.Form):
    username = forms.CharField(
        label=_("Benutzername"),
        max_length=get_user_model()._meta.get_field("username").max_length,
        help_text=_(
            "Mit Anfangspasswort wird ein neuer Zugang angelegt. Ohne Passwort wird der Name eingeladen: "
            "ein vorhandener Zugang tritt erst bei, wenn er die Einladung annimmt."
        ),
    )
    password = forms.CharField(
        label=_("Anfangspasswort"),
        required=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=_("Nur für einen neuen Zugang; der Spieler ändert es nach der ersten Anmeldung. Leer: einladen."),
    )
    role = forms.ChoiceField(label=_("Rolle"), choices=Role.choices, initial=Role.MEMBER)
    member = IdChoiceField(
        label=pgettext_lazy("one", "Spieler"),
        queryset=Member.objects.none(),
        required=False,
        help_text=_("Der Spieler, dem dieser Zugang gehört (wenn er mitspielt)."),
    )

    def __init__(self, *args: Any, players: QuerySet[Member], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["member"].queryset = players

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if password:
            try:
                validate_password(password)
            except ValidationError as error:
                raise ValidationError(error.messages) from error
        return password


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Rolle"), choices=Role.choices)
