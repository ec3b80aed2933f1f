"""django-tables2 tables of the score-sheet pages: the club's evenings and its Kasse."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring.amounts import format_amount
from scoring.models import KasseBooking, Session


class SessionTable(tables.Table):
    date = tables.DateColumn(verbose_name=_("Datum"), format="SHORT_DATE_FORMAT", linkify=True)
    place = tables.Column(verbose_name=_("Ort, Anlass"), empty_values=())
    table_count = tables.Column(verbose_name=_("Tische"))
    entry_count = tables.Column(verbose_name=_("Einträge"))
    closed_at = tables.Column(verbose_name=_("Status"), empty_values=())

    class Meta:
        model = Session
        fields = ("date", "place", "table_count", "entry_count", "closed_at")
        order_by = ("-date",)
        attrs = {"class": "striped"}
        empty_text = _("Noch kein Spielabend.")

    def render_place(self, record: Session) -> str:
        """The place, and what the evening is when it has a name: a championship's Partie is
        named so by the championship ("Zockmeisterschaft 2027, 1. Partie")."""
        parts = [part for part in (record.place, record.note.strip()) if part]
        return " · ".join(parts) or "–"

    def render_closed_at(self, record: Session) -> str:
        return str(_("abgeschlossen") if record.is_closed else _("offen"))


class KasseTable(tables.Table):
    # data-label: on a phone each booking is a card of label–value lines (issue 21: 390 px wide).
    at = tables.DateTimeColumn(
        verbose_name=_("Zeitpunkt"), format="SHORT_DATETIME_FORMAT", attrs={"td": {"data-label": _("Zeitpunkt")}}
    )
    text = tables.Column(verbose_name=_("Text"), attrs={"td": {"data-label": _("Text")}})
    # One booking, one player: "Spieler" is singular here (English "Player", not the list's "Players").
    member = tables.Column(
        verbose_name=pgettext_lazy("one player", "Spieler"),
        default="–",
        attrs={"td": {"data-label": pgettext_lazy("one player", "Spieler")}},
    )
    amount = tables.Column(
        verbose_name=_("Betrag"), attrs={"td": {"class": "num", "data-label": _("Betrag")}, "th": {"class": "num"}}
    )

    class Meta:
        model = KasseBooking
        fields = ("at", "text", "member", "amount")
        order_by = ("-at",)
        attrs = {"class": "striped kasse"}
        empty_text = _("Noch keine Buchung.")

    def render_text(self, record: KasseBooking) -> str:
        return record.shown_text

    def render_amount(self, record: KasseBooking) -> str:
        return format_html("{}", format_amount(record.amount, record.unit, signed=True))
