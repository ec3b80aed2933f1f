"""django-tables2 tables of the standings and statistics pages.

The data are the selectors' rows (already aggregated, a few dozen per unit), so sorting and
paging happen on those rows, not in the database: one GROUP BY serves every order."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring.amounts import amount_formatter
from standings.selectors import BlockKind, GameLine, StandingRow


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{round(value * 100)} %"


NUM = {"td": {"class": "num"}, "th": {"class": "num"}}
WIDE = {"td": {"class": "num wide"}, "th": {"class": "num wide"}}  # hidden on a phone


def member_link(slug: str, query: str) -> Callable[[StandingRow], str]:
    """The name of a row as a link to the member's page with the period's query; one reverse()
    for all rows (the member's id goes where the placeholder is)."""
    url = reverse("stats:member", kwargs={"slug": slug, "member_id": 999999999}).replace("999999999", "{}")
    return lambda r: format_html('<a href="{}?{}">{}</a>', url.format(r.member_id), query, r.name)


def ranked(r: StandingRow, link: Callable[[StandingRow], str], fmt: Callable[[Any], str]) -> dict[str, Any]:
    """The cells every standings table starts with: place, name (and its sort key), total."""
    return {"rank": r.rank, "name": link(r), "sort_name": r.name.lower(), "total": fmt(r.total), "total_key": r.total}


class StandingsTable(tables.Table):
    """The rows come formatted (the link, the amounts) with their sort keys beside them, and the
    template writes each row out itself: no column machinery runs per cell."""

    rank = tables.Column(verbose_name=pgettext_lazy("rank", "Platz"), attrs=NUM)
    name = tables.Column(verbose_name=_("Name"), order_by=("sort_name",))
    total = tables.Column(verbose_name=_("Summe"), attrs=NUM, order_by=("total_key",))
    games = tables.Column(verbose_name=_("Spiele"), attrs=NUM)
    declared = tables.Column(verbose_name=_("als Spieler"), attrs=WIDE)
    won = tables.Column(verbose_name=_("gewonnen"), attrs=WIDE)
    average = tables.Column(verbose_name=_("je Spiel"), attrs=NUM, order_by=("average_key",))

    class Meta:
        attrs = {"class": "striped standings"}
        template_name = "standings/_standings_table.html"  # its rows name these columns in order
        order_by = ("rank",)
        empty_text = _("In diesem Zeitraum wurde nicht gespielt.")

    def __init__(self, rows: list[StandingRow], *, unit: str, slug: str, query: str, **kwargs: Any) -> None:
        fmt = amount_formatter(unit)
        link = member_link(slug, query)
        data = [
            {
                **ranked(r, link, fmt),
                "games": r.games,
                "declared": r.declared,
                "won": r.won,
                "declarer_won": r.declarer_won,
                "declarer_lost": r.declarer_lost,
                "average": fmt(r.average),
                "average_key": r.average if r.average is not None else float("-inf"),
            }
            for r in rows
        ]
        super().__init__(data, **kwargs)


class ListStandingsTable(StandingsTable):
    """A unit whose tables keep a Spielliste (Skat under ``skat``): the money or points as the
    standings show them, with the games won and lost as declarer (Alleinspieler) instead of the
    games as declarer and won in any role."""

    declared = None
    won = None
    declarer_won = tables.Column(verbose_name=_("gewonnen"), attrs=NUM)
    declarer_lost = tables.Column(verbose_name=_("verloren"), attrs=NUM)

    class Meta(StandingsTable.Meta):
        template_name = "standings/_list_table.html"
        sequence = ("rank", "name", "total", "games", "declarer_won", "declarer_lost", "average")


class SeegerTable(tables.Table):
    """The Seeger-Fabian ranking (skat.md §6): the total, the Spielpunkte, won and lost games,
    the lists played and the total per list; sorted as ranked (ties: won, then lost)."""

    rank = tables.Column(verbose_name=pgettext_lazy("rank", "Platz"), attrs=NUM)
    name = tables.Column(verbose_name=_("Name"), order_by=("sort_name",))
    total = tables.Column(verbose_name=_("Wertung"), attrs=NUM, order_by=("total_key",))
    points = tables.Column(verbose_name=_("Spielpunkte"), attrs=WIDE)
    declarer_won = tables.Column(verbose_name=_("gewonnen"), attrs=NUM)
    declarer_lost = tables.Column(verbose_name=_("verloren"), attrs=NUM)
    lists = tables.Column(verbose_name=_("Listen"), attrs=WIDE)
    per_list = tables.Column(verbose_name=_("je Liste"), attrs=NUM, order_by=("per_list_key",))

    class Meta:
        attrs = {"class": "striped standings seeger"}
        template_name = "standings/_seeger_table.html"
        order_by = ("rank",)
        empty_text = _("In diesem Zeitraum wurde nicht gespielt.")

    def __init__(self, rows: list[StandingRow], *, unit: str, slug: str, query: str, **kwargs: Any) -> None:
        fmt = amount_formatter(unit)
        link = member_link(slug, query)
        data = [
            {
                **ranked(r, link, fmt),
                "points": fmt(r.points),
                "declarer_won": r.declarer_won,
                "declarer_lost": r.declarer_lost,
                "lists": r.lists,
                "per_list": fmt(r.per_list),
                "per_list_key": r.per_list if r.per_list is not None else float("-inf"),
            }
            for r in rows
        ]
        super().__init__(data, **kwargs)


# Which table shows a block of the standings (``BlockKind``).
TABLES: dict[str, type[tables.Table]] = {
    BlockKind.PLAIN: StandingsTable,
    BlockKind.LIST: ListStandingsTable,
    BlockKind.SEEGER: SeegerTable,
}


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
