"""The championship's ranking as rows (one report), rendered as Excel by the shared writer of
``standings.exports`` and as PDF by ``templates/tournaments/pdf/ranking.html`` from the same rows.

Printed, a place reads "2." or "2.=" where it is shared (issue 14: as on the wall); in Excel it is
a number with a "geteilt" column beside it, and every figure stays a number (issue 20). A Partie a
player did not play (withdrawn before it, added after it) is "–" in print and an empty cell in
Excel, never 0; the withdrawal or late entry stands beside the name in print and in a column of
its own in Excel (issue 30).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from standings.exports import Column, workbook_bytes
from tournaments.engine.ranking import CRITERIA, PLAYOFF, SHARED
from tournaments.selectors import TournamentRanking, mark

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


def decided_label(decided_by: str | None, *, short: bool = False) -> str:
    """What separated a player from the one above him, in words (``short``: by the criterion's
    column head, as the printed ranking has room for; its legend explains the heads)."""
    if decided_by is None:
        return ""
    if decided_by == PLAYOFF:
        return str(_("Stechen"))
    if decided_by == SHARED:
        return str(_("geteilt"))
    if short:
        return str(CRITERION_LABELS[decided_by][0])
    # Without the rule book's parenthesis: the legend under the table explains each criterion.
    return str(CRITERION_LABELS[decided_by][1]).split(" (")[0]


def trophy_label(place: int, sole_king: bool) -> str:
    """The trophy a place takes home (001 §11.6): Gold, Silber or Bronze for places 1–3, and the
    Wanderpokal for the Zock-König (only when first place is not shared)."""
    medal = {1: _("Gold"), 2: _("Silber"), 3: _("Bronze")}.get(place)
    if medal is None:
        return ""
    if place == 1 and sole_king:
        return f"{medal} · {_('Wanderpokal')}"
    return str(medal)


class RankingReport:
    """The ranking of 001 §11.3 with every criterion: one row per player (the Report protocol of
    ``standings.exports``, so the shared workbook writer renders it).

    For Excel (``printed=False``) the place is a number with a separate "geteilt" column (issue
    20: a place sorts and filters as a number), broken-off tables and withdrawn or late players
    ("Teilnahme", issue 30) get a column of their own, and a Partie not played is an empty cell;
    printed (the PDF) the place reads "2.=", the name carries the table's mark (¹, ², …) and the
    withdrawal or late entry, a Partie not played reads "–", the trophies have a column and the
    broken-off tables are footnotes under the table."""

    def __init__(self, ranking: TournamentRanking, *, printed: bool = False) -> None:
        self.ranking = ranking
        self.printed = printed
        self.sheet = str(_("Rangliste"))

    def columns(self) -> list[Column]:
        place = (
            [Column(str(pgettext_lazy("rank", "Platz")), "text", 7)]
            if self.printed
            else [Column(str(pgettext_lazy("rank", "Platz")), "int", 7), Column(str(_("geteilt")), "text", 8)]
        )
        return [
            *place,
            Column(str(pgettext_lazy("player number", "Nr.")), "int", 6),
            Column(str(pgettext_lazy("one", "Spieler")), "text", 22),
            *(Column(str(CRITERION_LABELS[name][0]), "int", 10) for name in CRITERIA),
            Column(str(_("Spiele")), "int", 7),
            *(Column(partie_head(index), "int", 7) for index in self.ranking.partie_indices),
            Column(str(_("davon Korrektur")), "int", 11),
            Column(str(_("entschieden durch")), "text", 30),
            *([Column(str(_("Pokal")), "text", 12)] if self.printed else []),
            *([Column(str(_("Tisch abgebrochen")), "text", 50)] if self.ranking.aborted and not self.printed else []),
            *([Column(str(_("Teilnahme")), "text", 24)] if self._roster_column else []),
        ]

    @property
    def _roster_column(self) -> bool:
        """Excel's column for withdrawn and late players, where there are any."""
        return not self.printed and any(row.roster_note for row in self.ranking.rows)

    def rows(self) -> Iterator[list[Any]]:
        notes = {table.mark: table for table in self.ranking.aborted}
        kings = [row for row in self.ranking.rows if row.placing.place == 1]
        for row in self.ranking.rows:
            placing = row.placing
            marks = "".join(mark(number) for number in row.marks)
            if self.printed:
                place = [place_label(placing.place, placing.shared)]
                name = f"{placing.name} {marks}" if marks else placing.name
                name = f"{name} ({row.roster_note})" if row.roster_note else name
                points: list[Any] = ["–" if value is None else value for value in row.partie_points]
            else:
                place = [placing.place, str(_("geteilt")) if placing.shared else None]
                name = placing.name
                points = list(row.partie_points)  # None: an empty cell
            yield [
                *place,
                row.number,
                name,
                *placing.tally.key(),
                row.games,
                *points,
                placing.adjustment or None,
                decided_label(placing.decided_by, short=self.printed),
                *([trophy_label(placing.place, len(kings) == 1)] if self.printed else []),
                *(
                    ["; ".join(f"{mark(n)} {notes[n].label}" for n in row.marks) or None]
                    if self.ranking.aborted and not self.printed
                    else []
                ),
                *([row.roster_note or None] if self._roster_column else []),
            ]


def place_label(place: int, shared: bool) -> str:
    """ "2." or, for a shared place, "2.=" (the PDF and the pages)."""
    return f"{place}.=" if shared else f"{place}."


def partie_head(index: int) -> str:
    """The column head of the points of one Partie: "P1" … ."""
    return str(_("P%(index)s") % {"index": index})


def ranking_workbook(ranking: TournamentRanking) -> bytes:
    return workbook_bytes([RankingReport(ranking)], title=str(ranking.tournament))
