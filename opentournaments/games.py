"""What an open tournament's game decides (issue 32 item 5): the one place the desk, the draw, the
ranking document, the Kasse and the printouts ask "which game is this?". The answer comes from the
rule set's capability, not from its name: a rule set that keeps a Spielliste (``KEEPS_LIST``,
Skat by Seeger-Fabian) makes a *Preisskat* – the desk types Spielpunkte, won and lost games per
player, tables of three and four, tie-breaks by games, Verlustspielgeld into the Kasse; every other
tariff makes a *Preisschafkopf* – points and Soli, tables of four to six, zero-sum tables.

Views and templates read ``tournament.game`` (``game_of``) and its ``figures``/words; they never
test a preset's name.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.engine import registry
from scoring.engine.core import RuleSet
from scoring.engine.presets.skat_seeger import LOST_BONUS, WON_BONUS, seeger_total
from scoring.engine.session_rules import TableRules
from tournaments.engine.plan import plan_seating, replan_seating
from tournaments.engine.skat_plan import plan_skat_round


class OpenTournament(Protocol):
    """What this module reads of ``opentournaments.models.OpenTournament`` (which imports it)."""

    games_per_round: int
    soli_count: str

    @property
    def soli_label(self) -> str: ...

    @property
    def ruleset_spec(self) -> dict[str, object]: ...


# A list's Spielpunkte: the highest game (Grand Hand Schwarz angesagt Ouvert mit 4: 264, lost
# twice, plus 50) over a list of 96 games stays far below; more is a typing error.
MAX_LIST_POINTS = 99_999
MAX_TABLE_POINTS = 1_000_000  # a Preisschafkopf table's points (as the desk's field allows)


@dataclass(frozen=True)
class Figure:
    """One figure the desk types per player: its key (``TableScore`` field), its column heading."""

    key: str
    label: str
    short: str = ""  # the heading on a phone, where the whole word does not fit ("" = the label)


Values = tuple[int, ...]  # one player's figures in the order of the game's ``fields``


class DeskGame:
    """The Preisschafkopf (and every tariff without a Spielliste): points and Soli per player."""

    key: ClassVar[str] = "schafkopf"
    fields: ClassVar[tuple[str, ...]] = ("points", "soli")
    tie_breaks: ClassVar[tuple[str, ...]] = ("soli", "best_round", "lot")  # spec §5, its default order
    table_sizes_text: ClassVar[str] = ""
    keeps_list: ClassVar[bool] = False

    def figures(self, tournament: OpenTournament) -> list[Figure]:
        return [Figure("points", _("Punkte")), Figure("soli", str(tournament.soli_label))]

    def title(self) -> str:
        return _("Preisschafkopf")

    def decided_labels(self) -> dict[str, str]:
        return {"soli": _("Soli"), "best_round": _("beste Runde"), "lot": _("Los")}

    def score_values(self, score: Any) -> Values:
        """A stored ``TableScore`` as the game's figures."""
        return (score.points, score.soli)

    def score_fields(self, values: Values) -> dict[str, int]:
        """The game's figures as ``TableScore`` fields."""
        return {"points": values[0], "soli": values[1]}

    def document_keys(self, tournament: OpenTournament) -> dict[str, Any]:
        return {"soli_count": tournament.soli_count}

    def document_table(self, seats: Sequence[int], scores: Mapping[int, Values]) -> dict[str, Any]:
        return {
            "players": list(seats),
            "totals": {str(n): scores[n][0] for n in seats},
            "soli": {str(n): scores[n][1] for n in seats},
        }

    def draw(
        self, played: list[list[list[int]]], present: list[int], rounds: int, seed: int, rng: random.Random
    ) -> list[list[int]]:
        """The tables of the next round (the championship's planner: tables of 4, 5 and 6)."""
        if not played:
            order = present[:]
            rng.shuffle(order)
            plan = plan_seating(len(order), partien=rounds, seed=seed)
            return [[order[n - 1] for n in table] for table in plan.partien[0]]
        replan = replan_seating(played, present, partien=rounds, seed=seed)
        return [list(table) for table in replan.partien[len(played)]]

    def check(self, tournament: OpenTournament, table_games: int, figures: Mapping[int, Values]) -> None:
        """Refuse implausible figures of one table (``ValidationError`` at the field), or pass."""
        ruleset, table_rules = registry.load_with_table(tournament.ruleset_spec)
        games = tournament.games_per_round
        for n, (points, soli) in figures.items():
            if not -MAX_TABLE_POINTS <= points <= MAX_TABLE_POINTS:
                raise ValidationError({f"points_{n}": _("Höchstens %(max)s Punkte.") % {"max": MAX_TABLE_POINTS}})
            if not 0 <= soli <= games:
                raise ValidationError(
                    {f"soli_{n}": _("Zwischen 0 und %(games)s Soli (Spiele der Runde).") % {"games": games}}
                )
        soli_total = sum(s for _p, s in figures.values())
        if soli_total > table_games:
            raise ValidationError(
                _("Zusammen %(soli)s Soli, aber nur %(games)s Spiele an diesem Tisch.")
                % {"soli": soli_total, "games": table_games}
            )
        total = sum(p for p, _s in figures.values())
        if plus_only(ruleset):
            # Plus points only: the losers are written nothing, so nobody ends below 0.
            for n, (points, _solo) in figures.items():
                if points < 0:
                    raise ValidationError(
                        {f"points_{n}": _("Bei „nur Pluspunkte“ hat niemand Minuspunkte; bitte den Zettel nachsehen.")}
                    )
        # Every other tariff of the engine is zero-sum; only a Stock takes points out of a table.
        elif zero_sum(ruleset, table_rules) and total != 0:
            raise ValidationError(
                _("Die Punkte ergeben zusammen %(total)s statt 0: bitte den Zettel nachrechnen.") % {"total": total}
            )

    def phone_refusal(self, ruleset: RuleSet) -> str | None:
        if ruleset.unit() == "cent":  # a tournament made before money tariffs were refused
            return _("Dieses Turnier hat einen Geld-Tarif; seine Tische werden vom Zettel eingetragen, nicht am Handy.")
        if not ruleset.is_zero_sum():
            return _(
                "Bei „nur Pluspunkte“ werden die Tische vom Zettel eingetragen: ein Blatt am Handy rechnet jedes "
                "Spiel zwischen Gewinnern und Verlierern ab."
            )
        return None

    def lost_games_fee(self, table_rules: TableRules, lost: int) -> int:
        """The Verlustspielgeld of ``lost`` lost games of one list, in cents (none without a list)."""
        return 0


class SkatList(DeskGame):
    """The Preisskat (skat.md §6): per player Spielpunkte, won and lost games from the list; the
    Seeger-Fabian total is computed; tables of three and four; tie-breaks won, lost, lot."""

    key = "skat"
    preset = "skat-seeger"  # what the Preisskat's create form offers (spec §5: Seeger-Fabian only)
    fields = ("points", "won", "lost")
    tie_breaks = ("won", "lost", "best_round", "lot")  # spec §5 Skat additions
    keeps_list = True

    def figures(self, tournament: OpenTournament) -> list[Figure]:
        return [
            Figure("points", _("Spielpunkte"), _("Pkt.")),
            Figure("won", _("gewonnen"), _("gew.")),
            Figure("lost", _("verloren"), _("verl.")),
        ]

    def title(self) -> str:
        return _("Preisskat")

    def decided_labels(self) -> dict[str, str]:
        return {
            "won": _("gewonnene Spiele"),
            "lost": _("verlorene Spiele"),
            "best_round": _("beste Serie"),
            "lot": _("Los"),
        }

    def score_values(self, score: Any) -> Values:
        return (score.points, score.won or 0, score.lost or 0)

    def score_fields(self, values: Values) -> dict[str, int]:
        return {"points": values[0], "soli": 0, "won": values[1], "lost": values[2]}

    def document_keys(self, tournament: OpenTournament) -> dict[str, Any]:
        return {}  # spec §5: no Soli in Skat, so no soli_count

    def document_table(self, seats: Sequence[int], scores: Mapping[int, Values]) -> dict[str, Any]:
        return {
            "players": list(seats),
            "points": {str(n): scores[n][0] for n in seats},
            "won": {str(n): scores[n][1] for n in seats},
            "lost": {str(n): scores[n][2] for n in seats},
        }

    def draw(
        self, played: list[list[list[int]]], present: list[int], rounds: int, seed: int, rng: random.Random
    ) -> list[list[int]]:
        """Tables of four and the fewest of three (``tournaments.engine.skat_plan``)."""
        return plan_skat_round(played, present, seed)

    def check(self, tournament: OpenTournament, table_games: int, figures: Mapping[int, Values]) -> None:
        """skat.md §6: won and lost at least 0; a player declares at most the games the table deals,
        and the table's won and lost games together are at most those games (each game has one
        declarer, or none when all pass); the Spielpunkte bounded."""
        for n, (points, won, lost) in figures.items():
            if not -MAX_LIST_POINTS <= points <= MAX_LIST_POINTS:
                raise ValidationError(
                    {
                        f"points_{n}": _("Spielpunkte zwischen −%(max)s und %(max)s; bitte die Liste nachsehen.")
                        % {"max": MAX_LIST_POINTS}
                    }
                )
            for key, value in (("won", won), ("lost", lost)):
                if not 0 <= value <= table_games:
                    raise ValidationError(
                        {
                            f"{key}_{n}": _("Zwischen 0 und %(games)s Spiele (Spiele der Liste).")
                            % {"games": table_games}
                        }
                    )
        played = sum(won + lost for _p, won, lost in figures.values())
        if played > table_games:
            raise ValidationError(
                _(
                    "Zusammen %(played)s gewonnene und verlorene Spiele, aber die Liste dieses Tisches hat nur "
                    "%(games)s Spiele: bitte die Liste nachzählen."
                )
                % {"played": played, "games": table_games}
            )

    def phone_refusal(self, ruleset: RuleSet) -> str | None:
        return _("Beim Preisskat trägt die Turnierleitung die Listen der Tische ein (Spielpunkte, gewonnen, verloren).")

    def lost_games_fee(self, table_rules: TableRules, lost: int) -> int:
        return table_rules.verlustspielgeld_total(lost)  # skat.md §6, the tariff's amounts


def zero_sum(ruleset: RuleSet, table_rules: TableRules) -> bool:
    """Whether a table's points must sum to zero: always, unless the tariff plays with a Stock or
    writes plus points only, or keeps a Seeger-Fabian list (not zero-sum by design)."""
    return ruleset.is_zero_sum() and table_rules.stock == "none" and not game_of_ruleset(ruleset).keeps_list


def plus_only(ruleset: RuleSet) -> bool:
    """Whether the losers are written nothing (then no player's points are below 0); a list is no
    plus tariff."""
    return not ruleset.is_zero_sum() and not game_of_ruleset(ruleset).keeps_list


SCHAFKOPF = DeskGame()
SKAT_LIST = SkatList()


def game_of_ruleset(ruleset: RuleSet) -> DeskGame:
    """The game a rule set makes: a Spielliste (Seeger-Fabian) makes a Preisskat."""
    return SKAT_LIST if ruleset.KEEPS_LIST else SCHAFKOPF


def game_of(tournament: OpenTournament) -> DeskGame:
    return game_of_ruleset(registry.load(tournament.ruleset_spec))


@dataclass(frozen=True)
class Auswertung:
    """One player's Auswertung of a list (the Wertungszettel's block, skat.md §6): Spielpunkte,
    won, lost, ×50, the others' lost games × 40 or 30, and the total."""

    points: int
    won: int
    lost: int
    others_lost: int
    table_size: int

    @property
    def won_lost_points(self) -> int:
        return WON_BONUS * (self.won - self.lost)

    @property
    def bonus(self) -> int:
        return LOST_BONUS[self.table_size]

    @property
    def others_points(self) -> int:
        return self.bonus * self.others_lost

    @property
    def total(self) -> int:
        return seeger_total(self.points, self.won, self.lost, self.others_lost, self.table_size)


def auswertung(figures: Mapping[int, Values]) -> dict[int, Auswertung]:
    """Start number → the Auswertung of one table's list figures (points, won, lost)."""
    all_lost = sum(lost for _p, _w, lost in figures.values())
    size = len(figures)
    return {n: Auswertung(p, w, lost, all_lost - lost, size) for n, (p, w, lost) in figures.items()}


def lost_games_text(count: int) -> str:
    return ngettext("%(count)s verlorenes Spiel", "%(count)s verlorene Spiele", count) % {"count": count}
