from __future__ import annotations

import datetime
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clubs.ids import IdChoiceField, IdMultipleChoiceField
from clubs.models import Club, Member, Role
from clubs.validators import PlainTextFields
from scoring.option_labels import preset_choices
from tournaments.engine.draw import MAX_SEED
from tournaments.engine.plan import VARIANTS
from tournaments.models import DEFAULT_PRESET, MAX_GAMES, MAX_PARTIEN, Participant, SubstitutePoints, Tournament


def schafkopf_presets() -> list[tuple[str, str]]:
    return preset_choices("schafkopf")


class TournamentForm(PlainTextFields, forms.Form):
    year = forms.IntegerField(label=_("Jahr"), min_value=1900, max_value=2999)
    title = forms.CharField(label=_("Titel"), max_length=100, initial="Zockmeisterschaft")
    place = forms.CharField(label=_("Ort"), max_length=100, required=False)
    preset = forms.ChoiceField(label=_("Regel"), initial=DEFAULT_PRESET)
    partien = forms.IntegerField(label=_("Partien"), min_value=1, max_value=MAX_PARTIEN, initial=4)
    games_per_partie = forms.IntegerField(
        label=_("Spiele je Spieler und Partie"), min_value=1, max_value=MAX_GAMES, initial=40
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["preset"].choices = schafkopf_presets()
        self.fields["year"].initial = datetime.date.today().year


class TournamentEditForm(PlainTextFields, forms.Form):
    title = forms.CharField(label=_("Titel"), max_length=100)
    place = forms.CharField(label=_("Ort"), max_length=100, required=False)
    partien = forms.IntegerField(label=_("Partien"), min_value=1, max_value=MAX_PARTIEN)
    games_per_partie = forms.IntegerField(label=_("Spiele je Spieler und Partie"), min_value=1, max_value=MAX_GAMES)
    substitute_points = forms.ChoiceField(
        label=_("Punkte eines Ersatzspielers zählen"),
        choices=SubstitutePoints.choices,
        initial=SubstitutePoints.NOBODY,
        help_text=_("Für wen die Spiele zählen, die ein Ersatzspieler für einen abwesenden Teilnehmer spielt."),
    )


class ParticipantsForm(forms.Form):
    members = IdMultipleChoiceField(
        label=_("Teilnehmer"),
        queryset=Member.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Nur Mitglieder des Vereins."),
    )

    def __init__(self, *args: Any, members: QuerySet[Member], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["members"].queryset = members


def _confirm(label: str) -> forms.BooleanField:
    """A required tick: the guard against a mis-tap (issue 14), without any script."""
    return forms.BooleanField(label=label, required=True)


class DrawRunForm(forms.Form):
    seed = forms.IntegerField(
        label=_("Seed"),
        min_value=0,
        max_value=MAX_SEED,
        required=False,
        help_text=_("Leer lassen für eine neue Zufallszahl; mit demselben Seed ergibt sich dieselbe Auslosung."),
    )

    def __init__(self, *args: Any, redraw: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if redraw:
            self.fields["confirm"] = _confirm(
                _("Ja, neu ziehen: die schon gezogenen und angesagten Nummern gelten dann nicht mehr.")
            )


class DrawRecordForm(forms.Form):
    """One number field per participant: the slips as drawn on paper."""

    def __init__(self, *args: Any, participants: list[Participant], redraw: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.participants = participants
        for participant in participants:
            self.fields[f"number_{participant.member_id}"] = forms.IntegerField(
                label=participant.member.display_name,
                min_value=1,
                max_value=len(participants),
                initial=participant.number,
            )
        if redraw:
            self.fields["confirm"] = _confirm(_("Ja, diese Nummern gelten statt der schon gezogenen."))

    def number_fields(self) -> list[forms.BoundField]:
        return [self[f"number_{p.member_id}"] for p in self.participants]

    def numbers(self) -> dict[int, int]:
        return {p.member_id: self.cleaned_data[f"number_{p.member_id}"] for p in self.participants}


class PartieStartForm(forms.Form):
    seed = forms.IntegerField(
        label=_("Seed der Sitzordnung"),
        min_value=0,
        max_value=MAX_SEED,
        required=False,
        help_text=_("Leer lassen für eine neue Zufallszahl."),
    )
    confirm = _confirm(
        _("Ja, diese Partie jetzt beginnen: die Sitzordnung wird gezogen, das lässt sich nicht zurücknehmen.")
    )


class SchreiberForm(forms.Form):
    """The Vorstand names the login that writes a table of a Partie (issue 20): one of the club's
    scorers, or nobody (the first scorer to save an entry there claims it)."""

    login = IdChoiceField(
        label=_("Schreiber-Zugang"),
        queryset=get_user_model()._default_manager.none(),
        required=False,
        empty_label=_("– wer zuerst einträgt –"),
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        users = get_user_model()._default_manager
        field = self.fields["login"]
        field.queryset = users.filter(club_memberships__club=club, club_memberships__role=Role.SCORER).order_by(
            "username"
        )
        players = dict(Member.objects.filter(club=club, user__isnull=False).values_list("user_id", "display_name"))
        field.label_from_instance = lambda user: (
            f"{players[user.pk]} ({user.get_username()})" if user.pk in players else user.get_username()
        )


class FinishForm(forms.Form):
    confirm = _confirm(_("Ja, die Meisterschaft abschließen."))


class ReopenForm(PlainTextFields, forms.Form):
    """Reopening a finished championship (issue 20): the reason is shown on the ranking, the
    trophy page and the ranking PDF."""

    reason = forms.CharField(
        label=_("Grund"),
        max_length=200,
        help_text=_("z. B. Spiel 7 an Tisch 3 in der 2. Partie falsch geschrieben"),
    )
    confirm = _confirm(_("Ja, die Meisterschaft wieder öffnen: das Ergebnis kann sich danach ändern."))


class TableAbortForm(PlainTextFields, forms.Form):
    """The owner breaks off a table short of its games (issue 20): the reason is printed."""

    reason = forms.CharField(
        label=_("Grund"),
        max_length=200,
        help_text=_("Steht auf jedem Ausdruck der Rangliste, z. B. „Spieler nach Hause, Zeit abgelaufen“."),
    )


class PlanChoiceForm(forms.Form):
    variant = forms.ChoiceField(choices=[(variant, "") for variant in VARIANTS])


class _PlayersForm(PlainTextFields, forms.Form):
    players = IdMultipleChoiceField(
        label=_("Spieler"), queryset=Member.objects.none(), widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["players"].queryset = Member.objects.filter(
            pk__in=tournament.participants.values("member_id")
        ).order_by("display_name")


class PlayoffForm(_PlayersForm):
    winner = IdChoiceField(label=_("Sieger"), queryset=Member.objects.none())
    note = forms.CharField(
        label=_("Notiz"), max_length=200, required=False, help_text=_("z. B. Seemannsschafkopf, 3 aus 5")
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, tournament=tournament, **kwargs)
        self.fields["winner"].queryset = self.fields["players"].queryset


class AdjustmentForm(_PlayersForm):
    points = forms.IntegerField(
        label=_("Punkte"),
        # A correction of a championship's points, not a number without end (the column is 32-bit).
        min_value=-10_000,
        max_value=10_000,
        help_text=_("So viele Punkte mehr zählen für jeden betroffenen Spieler in der Platzierung."),
    )
    reason = forms.CharField(label=_("Grund"), max_length=200)

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, tournament=tournament, **kwargs)
        self.fields["players"].label = pgettext_lazy("affected", "Betroffene Spieler")


class RosterForm(PlainTextFields, forms.Form):
    """Withdraw a participant, or add a late one, between Partien (issue 20)."""

    member = IdChoiceField(label=_("Spieler"), queryset=Member.objects.none())
    reason = forms.CharField(label=_("Grund"), max_length=200, required=False)

    def __init__(self, *args: Any, members: QuerySet[Member], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["member"].queryset = members


class SubstituteForm(PlainTextFields, forms.Form):
    """A substitute takes an absent player's seat inside a Partie (issue 20)."""

    absent = IdChoiceField(label=_("Abwesend"), queryset=Member.objects.none())
    substitute = IdChoiceField(label=_("Ersatzspieler"), queryset=Member.objects.none())
    reason = forms.CharField(label=_("Grund"), max_length=200, required=False)

    def __init__(self, *args: Any, playing: QuerySet[Member], members: QuerySet[Member], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["absent"].queryset = playing
        self.fields["substitute"].queryset = members
