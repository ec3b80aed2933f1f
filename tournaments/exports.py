"""The championship's ranking as rows (one report), rendered as Excel by the shared writer of
``standings.exports`` and as PDF by ``templates/tournaments/pdf/ranking.html`` from the same rows.

Places are text, "2." or "2.=" where the place is shared (issue 14: as printed on the wall);
every figure stays a number in Excel.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from standings.exports import Column, workbook_bytes
from tournaments.engine.ranking import CRITERIA, PLAYOFF, SHARED
from tournaments.selectors import TournamentRanking

# Each criterion of 001 §11.3: a short column head and the rule book's words.
CRITERION_LABELS = {
    "points": (_("Punkte"), _("1. Gesamtpunkte")),
    "einzelspiele_played": (_("Einzel"), _("2. Gespielte Einzelspiele")),
    "einzelspiele_won": (_("Einzel gew."), _("3. Gewonnene Einzelspiele")),
    "solos_played": (_("Solo"), _("4. Gespielte Solos (Farbsolos)")),
    "solos_won": (_("Solo gew."), _("5. Gewonnene Solos (Farbsolos)")),
    "wenz_played": (_("Wenz"), _("6. Gespielte Wenz")),
    "wenz_won": (_("Wenz gew."), _("7. Gewonnene Wenz")),
    "bettel_played": (_("Bettel"), _("8. Gespielte Bettel")),
    "bettel_won": (_("Bettel gew."), _("9. Gewonnene Bettel")),
    "normal_games_won": (_("Rufsp. gew."), _("10. Gewonnene normale Spiele (Rufspiele, auf beiden Seiten)")),
}


def decided_label(decided_by: str | None) -> str:
    """What separated a player from the one above him, in words."""
    if decided_by is None:
        return ""
    if decided_by == PLAYOFF:
        return str(_("Stechen"))
    if decided_by == SHARED:
        return str(_("geteilt"))
    # Without the rule book's parenthesis: the legend under the table explains each criterion.
    return str(CRITERION_LABELS[decided_by][1]).split(" (")[0]


class RankingReport:
    """The ranking of 001 §11.3 with every criterion: one row per player (the Report protocol of
    ``standings.exports``, so the shared workbook writer renders it)."""

    def __init__(self, ranking: TournamentRanking) -> None:
        self.ranking = ranking
        self.sheet = str(_("Rangliste"))

    def columns(self) -> list[Column]:
        return [
            Column(str(_("Platz")), "text", 7),
            Column(str(pgettext_lazy("player number", "Nr.")), "int", 6),
            Column(str(pgettext_lazy("one", "Spieler")), "text", 22),
            *(Column(str(CRITERION_LABELS[name][0]), "int", 10) for name in CRITERIA),
            *(Column(partie_head(index), "int", 7) for index in self.ranking.partie_indices),
            Column(str(_("davon Korrektur")), "int", 11),
            Column(str(_("entschieden durch")), "text", 30),
        ]

    def rows(self) -> Iterator[list[Any]]:
        for row in self.ranking.rows:
            placing = row.placing
            yield [
                place_label(placing.place, placing.shared),
                row.number,
                f"{placing.name} ({_('zurückgezogen')})" if row.withdrawn else placing.name,
                *placing.tally.key(),
                *row.partie_points,
                placing.adjustment or None,
                decided_label(placing.decided_by),
            ]


def place_label(place: int, shared: bool) -> str:
    """ "2." or, for a shared place, "2.=" (PDF, Excel and the pages alike)."""
    return f"{place}.=" if shared else f"{place}."


def partie_head(index: int) -> str:
    """The column head of the points of one Partie: "P1" … ."""
    return str(_("P%(index)s") % {"index": index})


def ranking_workbook(ranking: TournamentRanking) -> bytes:
    return workbook_bytes([RankingReport(ranking)], title=str(ranking.tournament))
