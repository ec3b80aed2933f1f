"""The championship's ranking as rows (one report), rendered as Excel by the shared writer of
``standings.exports`` and as PDF by ``templates/tournaments/pdf/ranking.html`` from the same rows.

Numbers stay numbers in Excel (a place shared by two players is the same number twice).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from standings.exports import Column, workbook_bytes
from tournaments.engine.ranking import CRITERIA, PLAYOFF
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
    return str(CRITERION_LABELS[decided_by][1])


class RankingReport:
    """The ranking of 001 §11.3 with every criterion: one row per player (the Report protocol of
    ``standings.exports``, so the shared workbook writer renders it)."""

    def __init__(self, ranking: TournamentRanking) -> None:
        self.ranking = ranking
        self.sheet = str(_("Rangliste"))

    def columns(self) -> list[Column]:
        return [
            Column(str(_("Platz")), "int", 7),
            Column(str(pgettext_lazy("player number", "Nr.")), "int", 6),
            Column(str(pgettext_lazy("one", "Spieler")), "text", 22),
            *(Column(str(CRITERION_LABELS[name][0]), "int", 10) for name in CRITERIA),
            Column(str(_("davon Korrektur")), "int", 11),
            Column(str(_("entschieden durch")), "text", 30),
        ]

    def rows(self) -> Iterator[list[Any]]:
        for row in self.ranking.rows:
            placing = row.placing
            yield [
                placing.place,
                row.number,
                placing.name,
                *placing.tally.key(),
                placing.adjustment or None,
                decided_label(placing.decided_by),
            ]


def ranking_workbook(ranking: TournamentRanking) -> bytes:
    return workbook_bytes([RankingReport(ranking)], title=str(ranking.tournament))
