"""Skat scored by Seeger-Fabian (preset ``skat-seeger``; ``../shared/rules/skat.md`` §6): the
tournament list of DSkV and ISPA, and most club lists.

The game value and the list entry are the Skat preset's (``skat.SkatRules``); the payouts are the
Seeger-Fabian points of the hand: the declarer his list entry + 50 when he won, − 50 when he lost,
and for a lost game each other player at the table (the dealer who sits out included) + 40 at a
table of three, + 30 at a table of four. Kontra, Re and Bock double the game value only, never the
50/40/30 (skat.md §7). A Ramsch writes its list entries and nothing more: nobody declared it, so
nobody won or lost a game (docs/rules/skat.md).

These points are not zero-sum, by design: the rule set says so (``is_zero_sum``), an evening
settled between its players cannot play it, and its own invariant — a player's total is his
Spielpunkte + 50 × (won − lost) + 40 or 30 × the games the others lost — is what the tests check.
It settles no money; the Verlustspielgeld of a list is the evening fold's (``session_rules``).
"""

from __future__ import annotations

from ..core import HandResult, Line
from .skat import Scored, SkatRules

WON_BONUS = 50
LOST_BONUS = {3: 40, 4: 30}  # skat.md §6: each other player at the table, by the table's size
WON_LINE = Line(f"Seeger +{WON_BONUS}", WON_BONUS)
LOST_LINE = Line(f"Seeger −{WON_BONUS}", -WON_BONUS)
OTHERS_LINES = {n: Line(f"Gegenspieler je +{bonus}") for n, bonus in LOST_BONUS.items()}


def seeger_total(points: int, won: int, lost: int, others_lost: int, table_size: int) -> int:
    """skat.md §6 over a list: Spielpunkte + 50 × (won − lost) + 40 or 30 × (games the others lost)."""
    return points + WON_BONUS * (won - lost) + LOST_BONUS[table_size] * others_lost


class SkatSeeger(SkatRules):
    NAME = "skat-seeger"
    TITLE = "Skat nach Seeger-Fabian (Turnierliste)"
    LIST_SETTLEMENT = "seeger"

    def is_zero_sum(self) -> bool:
        return False  # skat.md §6: a won game brings 50 more, a lost one gives the others 40 or 30

    def _settle(self, scored: Scored, table: tuple[str, ...], multiplier: int) -> HandResult:
        payouts = dict.fromkeys(table, 0)
        for player, amount in scored.sheet.written.items():
            payouts[player] += amount
        lines = list(scored.lines)
        declarer = scored.outcome.declarer
        if declarer is not None:
            if scored.sheet.won:
                payouts[declarer] += WON_BONUS
                lines.append(WON_LINE)
            else:
                payouts[declarer] -= WON_BONUS
                bonus = LOST_BONUS[len(table)]
                for player in table:
                    if player != declarer:
                        payouts[player] += bonus
                lines += [LOST_LINE, OTHERS_LINES[len(table)]]
        return HandResult(
            self.UNIT, scored.winner, payouts, tuple(lines), scored.outcome, None, multiplier, scored.sheet
        )
