"""An open tournament's ranking as rows (one report), written as Excel by the shared writer of
``standings.exports`` (numbers stay numbers, user text is neutralised against formulas).

As the championship's workbook does (``tournaments.exports``): the place is a number with a
"geteilt" column beside it, so the sheet sorts and filters by place; points per round, points,
Soli are integers and the prize money is euros as a number. A round a player did not play is an
empty cell (never 0), and why he missed it (abgemeldet, nachgemeldet) has a column of its own; the
last column names the rounds whose table's figures were corrected after they counted ("korrigiert":
R1, R3), as the ranking page marks them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from opentournaments.models import OpenTournament
from opentournaments.selectors import OpenRanking, decided_label
from scoring.amounts import CENT
from standings.exports import Amount, Column, workbook_bytes


class OpenRankingReport:
    """The ranking (overall or after a round): one row per registered player, best first."""

    def __init__(self, ranking: OpenRanking) -> None:
        self.ranking = ranking
        self.sheet = _("Rangliste")

    def columns(self) -> list[Column]:
        return [
            Column(pgettext("rank", "Platz"), "int", 7),
            Column(_("geteilt"), "text", 8),
            Column(_("Nr."), "int", 6),
            Column(_("Name"), "text", 24),
            Column(_("Wohnort"), "text", 18),
            Column(_("Teilnahme"), "text", 22),
            *(Column(_("R%(number)s") % {"number": n}, "int", 7) for n in range(1, self.ranking.after_round + 1)),
            Column(_("Punkte"), "int", 9),
            *(
                (Column(_("gewonnen"), "int", 9), Column(_("verloren"), "int", 9))
                if self.ranking.keeps_list
                else (Column(_("Soli"), "int", 7),)
            ),
            Column(_("entschieden durch"), "text", 16),
            Column(_("Preisgeld"), "amount", 12),
            Column(_("Sachpreis"), "text", 24),
            Column(_("korrigiert"), "text", 11),
        ]

    def rows(self) -> Iterator[list[Any]]:
        # Every player of a shared place is marked, not only those after the first.
        sharing = Counter(row.place for row in self.ranking.rows)
        for row in self.ranking.rows:
            yield [
                row.place,
                _("geteilt") if sharing[row.place] > 1 else None,
                row.number,
                row.name,
                row.residence or None,
                row.away_note or None,
                *row.rounds,
                row.points,
                *((row.won, row.lost) if self.ranking.keeps_list else (row.soli,)),
                None if row.shared else decided_label(row.decided_by, row.decided_labels),
                Amount(row.prize_cents, CENT) if row.prize_cents else None,
                row.prize_item or None,
                ", ".join(f"R{r}" for r in row.corrected) or None,
            ]


def ranking_workbook(tournament: OpenTournament, ranking: OpenRanking, heading: str) -> bytes:
    return workbook_bytes([OpenRankingReport(ranking)], title=f"{tournament.name} · {heading}")
