"""The period picker of the standings and statistics pages (a GET form)."""

from __future__ import annotations

import datetime as dt

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from scoring.models import Session
from standings.selectors import Period, PeriodKind

RECENT = 12


class PeriodForm(forms.Form):
    """``?period=season&year=2025`` (the default: this year), ``?period=month&month=2025-03``,
    ``?period=evening&session=12``, ``?period=range&from=2025-01-01&to=2025-03-31``,
    ``?period=all``. Anything invalid falls back to the current season."""

    period = forms.ChoiceField(
        label=_("Zeitraum"),
        required=False,
        choices=[
            (PeriodKind.SEASON.value, _("Saison")),
            (PeriodKind.MONTH.value, _("Monat")),
            (PeriodKind.EVENING.value, _("Spielabend")),
            (PeriodKind.RANGE.value, _("Von … bis")),
            (PeriodKind.ALL.value, _("Gesamt")),
        ],
    )
    year = forms.IntegerField(label=_("Jahr"), required=False, min_value=1900, max_value=2999)
    month = forms.CharField(
        label=_("Monat"), required=False, widget=forms.TextInput(attrs={"type": "month", "placeholder": "2025-03"})
    )
    session = forms.IntegerField(label=_("Spielabend"), required=False)  # the template lists the evenings

    def __init__(self, data: object = None, *, club: Club) -> None:
        super().__init__(data)
        self.club = club
        # "from" is a Python keyword, so these two fields are added by name.
        self.fields["from"] = forms.DateField(
            label=_("von"), required=False, widget=forms.DateInput(attrs={"type": "date"})
        )
        self.fields["to"] = forms.DateField(
            label=_("bis"), required=False, widget=forms.DateInput(attrs={"type": "date"})
        )
        # The picker offers the recent evenings; older ones are reached from the evening's page.
        self.evenings = list(Session.objects.filter(club=club).order_by("-date", "-id")[:RECENT])

    def clean_month(self) -> tuple[int, int] | None:
        raw = (self.cleaned_data.get("month") or "").strip()
        if not raw:
            return None
        try:
            when = dt.datetime.strptime(raw, "%Y-%m")
        except ValueError:
            raise forms.ValidationError(_("Monat als JJJJ-MM angeben.")) from None
        return when.year, when.month

    def clean_session(self) -> Session | None:
        pk = self.cleaned_data.get("session")
        if pk is None:
            return None
        session = Session.objects.filter(club=self.club, pk=pk).first()
        if session is None:
            raise forms.ValidationError(_("Diesen Spielabend gibt es in diesem Verein nicht."))
        return session

    def chosen(self) -> Period:
        """The chosen period, or the current season when nothing (valid) was chosen."""
        if not self.is_bound or not self.is_valid():
            return Period.current_season()
        data = self.cleaned_data
        kind = data.get("period") or PeriodKind.SEASON
        if kind == PeriodKind.EVENING and data.get("session"):
            return Period.evening(data["session"])
        if kind == PeriodKind.MONTH and data.get("month"):
            return Period.month(*data["month"])
        if kind == PeriodKind.RANGE:
            return Period.between(data.get("from"), data.get("to"))
        if kind == PeriodKind.ALL:
            return Period.all_time()
        return Period.season(data.get("year") or dt.date.today().year)
