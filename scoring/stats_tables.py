"""django-tables2 tables of the standings and statistics pages.

The data are the selectors' rows (already aggregated, a few dozen per unit), so sorting and
paging happen on those rows, not in the database: one GROUP BY serves every order."""

from __future__ import annotations

from typing import Any

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring.amounts import format_amount
from scoring.selectors_stats import GameLine, StandingRow


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{round(value * 100)} %"


class StandingsTable(tables.Table):
    rank = tables.Column(
        verbose_name=pgettext_lazy("rank", "Platz"), attrs={"td": {"class": "num"}, "th": {"class": "num"}}
    )
    name = tables.Column(verbose_name=_("Name"), order_by=("sort_name",))
    total = tables.Column(verbose_name=_("Summe"), attrs={"td": {"class": "num"}, "th": {"class": "num"}})
    games = tables.Column(verbose_name=_("Spiele"), attrs={"td": {"class": "num"}, "th": {"class": "num"}})
    declared = tables.Column(
        verbose_name=_("als Spieler"), attrs={"td": {"class": "num wide"}, "th": {"class": "num wide"}}
    )
    won = tables.Column(verbose_name=_("gewonnen"), attrs={"td": {"class": "num wide"}, "th": {"class": "num wide"}})
    average = tables.Column(
        verbose_name=_("je Spiel"), attrs={"td": {"class": "num"}, "th": {"class": "num"}}, order_by=("average_key",)
    )

    class Meta:
        attrs = {"class": "striped standings"}
        order_by = ("rank",)
        empty_text = _("In diesem Zeitraum wurde nicht gespielt.")

    def __init__(self, rows: list[StandingRow], *, unit: str, slug: str, query: str, **kwargs: Any) -> None:
        data = [
            {
                "rank": r.rank,
                "name": r.name,
                "sort_name": r.name.lower(),
                "member_id": r.member_id,
                "total": r.total,
                "games": r.games,
                "declared": r.declared,
                "won": r.won,
                "average": r.average,
                "average_key": r.average if r.average is not None else float("-inf"),
            }
            for r in rows
        ]
        self.unit = unit
        self.slug = slug
        self.query = query
        super().__init__(data, **kwargs)

    def render_name(self, value: str, record: dict[str, Any]) -> str:
        url = reverse("stats:member", kwargs={"slug": self.slug, "member_id": record["member_id"]})
        return format_html('<a href="{}?{}">{}</a>', url, self.query, value)

    def render_total(self, value: int) -> str:
        return format_amount(value, self.unit)

    def render_average(self, value: float | None) -> str:
        return format_amount(value, self.unit)


class GamesTable(tables.Table):
    label = tables.Column(verbose_name=_("Spiel"), order_by=("label",))
    played = tables.Column(verbose_name=_("gespielt"), attrs={"td": {"class": "num"}, "th": {"class": "num"}})
    won = tables.Column(verbose_name=_("gewonnen"), attrs={"td": {"class": "num"}, "th": {"class": "num"}})
    win_rate = tables.Column(
        verbose_name=_("Quote"), attrs={"td": {"class": "num"}, "th": {"class": "num"}}, order_by=("rate_key",)
    )

    class Meta:
        attrs = {"class": "striped"}
        empty_text = _("Keine Spiele als Spieler in diesem Zeitraum.")

    def __init__(self, games: list[GameLine], **kwargs: Any) -> None:
        data = [
            {"label": g.label, "played": g.played, "won": g.won, "win_rate": g.win_rate, "rate_key": g.win_rate or 0}
            for g in games
        ]
        super().__init__(data, **kwargs)

    def render_win_rate(self, value: float | None) -> str:
        return _percent(value)
