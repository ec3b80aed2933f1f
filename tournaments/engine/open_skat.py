"""The ranking of a Preisskat: spec §5 ``rank_open`` with ``"ruleset": "skat-seeger"`` (the
additions of 2026-11-28; ``../shared/rules/skat.md`` §6). ``open_rank.rank_open_document`` hands
a Skat document here; what it shares with every open tournament (start numbers, tables, the lot,
prizes) are the general ranking's (``open_ranking``) helpers.

- A table seats 3 or 4 players and is given by ``hands`` (scored like a ``score_session``
  document under the Seeger-Fabian rules: ``players`` in seat order, the first dealing first, at
  four the dealer sitting out) or by the list's figures ``points`` (Spielpunkte), ``won`` and
  ``lost`` per start number (exactly the table's players; won and lost at least 0). A player's
  score for the table is ``points + 50 × (won − lost) + c × (the lost games of the table's other
  players)``, c = 40 at three, 30 at four; a ``hands`` table's won and lost are the games each
  player declared and won or lost.
- Tie-breaks ``won`` (more ranks higher), ``lost`` (fewer ranks higher), ``best_round`` and
  ``lot``; default ``["won", "lost", "lot"]``. ``soli`` (and ``soli_count``) do not exist in Skat
  and are refused, as are a table's ``totals`` and ``soli``.
- A player at no table of a round has ``null`` for it in ``rounds``; his ``best_round`` is the
  best of the rounds he played, and one who played none ranks below everyone who has one on
  that tie-break. Each ranking entry carries ``won`` and ``lost`` over all rounds, no ``soli``.
- Only ``skat-seeger``: a Preisskat is scored by Seeger-Fabian; ``skat`` (a money list settled
  between the players) is refused.

Pure: no Django, no I/O, no clock. It does not draw the tables or count the Verlustspielgeld.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scoring.engine import registry
from scoring.engine.core import EngineError, RuleSet
from scoring.engine.fields import check_int
from scoring.engine.presets.skat_seeger import SkatSeeger, seeger_total
from scoring.engine.session import fold
from scoring.engine.session_rules import TableRules

from .open_ranking import (
    BEST_ROUND,
    LOT,
    MAX_SEED,
    _list,
    _lot_order,
    _object,
    _per_player,
    _players,
    _prize_list,
    _prizes,
    _table_numbers,
    placed,
)

WON, LOST = "won", "lost"
TIE_BREAKS = (WON, LOST, BEST_ROUND, LOT)
DEFAULT_TIE_BREAKS = [WON, LOST, LOT]
MAX_FIGURE = 10**12  # a list's Spielpunkte and counts: as generous as a sheet's totals

_DOC_KEYS = {"ruleset", "players", "rounds", "tie_breaks", "seed", "prizes", "note"}
_TABLE_KEYS = {"players", "hands", "points", "won", "lost", "note"}
_FIGURES = ("points", "won", "lost")


@dataclass
class _SkatPlayer:
    number: int
    name: str
    rounds: list[int | None]
    won: int = 0
    lost: int = 0
    seated: set[int] = field(default_factory=set)  # 0-based rounds at a table

    @property
    def points(self) -> int:
        return sum(score for score in self.rounds if score is not None)

    @property
    def best_round(self) -> int | None:
        return max((score for score in self.rounds if score is not None), default=None)


def rank_open_skat(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Spec §5 for a Skat document → the ranking (or ``EngineError`` with the field's path)."""
    ruleset, rules = registry.load_with_table(doc.get("ruleset"))
    if not isinstance(ruleset, SkatSeeger):
        raise EngineError(
            "not_allowed",
            "Ein Preisskat wird nach Seeger-Fabian gewertet: Regel skat-seeger (skat.md §6).",
            "ruleset",
        )
    extra = sorted(set(doc) - _DOC_KEYS)
    if extra:
        why = "Beim Skat gibt es keine Soli" if extra[0] == "soli_count" else f"Unbekanntes Feld '{extra[0]}'"
        raise EngineError("unexpected_field", f"{why}.", extra[0])
    players = {n: _SkatPlayer(p.number, p.name, []) for n, p in _players(doc.get("players")).items()}
    tie_breaks = _tie_breaks(doc.get("tie_breaks"))
    seed = check_int(doc.get("seed", 0), 0, MAX_SEED, "seed", "Der Seed")
    pot, shares = _prizes(doc["prizes"]) if doc.get("prizes") is not None else (0, [])

    rounds = _list(doc.get("rounds"), "rounds", "der Runden")
    for player in players.values():
        player.rounds = [None] * len(rounds)
    for r, raw_round in enumerate(rounds):
        where = f"rounds[{r}]"
        round_ = _object(raw_round, where, {"tables", "note"})
        seated: set[int] = set()
        for t, raw_table in enumerate(_list(round_.get("tables"), f"{where}.tables", "der Tische")):
            at = f"{where}.tables[{t}]"
            table = _table_object(raw_table, at)
            numbers = _table_numbers(table.get("players"), players, seated, rules.table_sizes, at)
            scores, won, lost = _score_table(table, numbers, players, ruleset, rules, at)
            for number in numbers:
                player = players[number]
                player.rounds[r] = scores[number]
                player.won += won[number]
                player.lost += lost[number]
                player.seated.add(r)

    lot = _lot_order(players, seed)
    values = {
        WON: lambda p: p.won,
        LOST: lambda p: -p.lost,  # fewer lost games rank higher
        # A player who played no round has no best round: below every one who has (spec §5).
        BEST_ROUND: lambda p: (0, 0) if p.best_round is None else (1, p.best_round),
        LOT: lambda p: -lot[p.number],  # earlier in the draw ranks higher
    }
    keys = {n: tuple(values[name](p) for name in tie_breaks) for n, p in players.items()}
    order = sorted(players.values(), key=lambda p: (-p.points, _descending(keys[p.number]), p.number))

    ranking = placed(order, keys, tie_breaks, lambda p: {"won": p.won, "lost": p.lost})

    return {
        "unit": ruleset.unit(),
        "ranking": ranking,
        "round_winners": _round_winners(players, len(rounds)),
        "prizes": _prize_list(ranking, pot, shares),
        "tie_breaks": tie_breaks,
        "seed": seed,
    }


def _descending(key: tuple[Any, ...]) -> tuple[Any, ...]:
    """A tie-break key in which higher ranks first, for an ascending sort."""
    return tuple((-v[0], -v[1]) if isinstance(v, tuple) else -v for v in key)


def _tie_breaks(raw: Any) -> list[str]:
    if raw is None:
        return list(DEFAULT_TIE_BREAKS)
    order = _list(raw, "tie_breaks", "der Entscheidungen bei Punktgleichheit")
    for i, name in enumerate(order):
        if name not in TIE_BREAKS:
            why = "Soli gibt es beim Skat nicht" if name == "soli" else f"Unbekannte Entscheidung '{name}'"
            raise EngineError("invalid_value", f"{why}; möglich sind: {', '.join(TIE_BREAKS)}.", f"tie_breaks[{i}]")
    if len(set(order)) != len(order):
        raise EngineError("invalid_value", "Jede Entscheidung darf nur einmal genannt werden.", "tie_breaks")
    return list(order)


def _table_object(raw: Any, at: str) -> Mapping[str, Any]:
    if isinstance(raw, Mapping):
        for key in ("totals", "soli"):
            if key in raw:
                raise EngineError(
                    "unexpected_field",
                    "Ein Skattisch wird mit 'hands' oder mit seiner Liste angegeben: 'points', 'won' und 'lost'.",
                    f"{at}.{key}",
                )
    return _object(raw, at, _TABLE_KEYS)


def _score_table(
    table: Mapping[str, Any],
    numbers: list[int],
    players: Mapping[int, _SkatPlayer],
    ruleset: RuleSet,
    rules: TableRules,
    at: str,
) -> tuple[dict[int, int], dict[int, int], dict[int, int]]:
    """(Seeger-Fabian score, won, lost) of each player at one table."""
    given = [key for key in _FIGURES if key in table]
    if "hands" in table:
        if given:
            raise EngineError(
                "unexpected_field", "Bei 'hands' werden Punkte und Spiele gezählt, nicht angegeben.", f"{at}.{given[0]}"
            )
        hands = _list(table["hands"], f"{at}.hands", "der Spiele und Ereignisse (hands)")
        names = [players[n].name for n in numbers]
        try:
            result = fold(ruleset, rules, names, names[0], hands)
        except EngineError as exc:
            raise exc.with_prefix(at) from None
        state = result.state
        scores = {number: result.totals[name] for number, name in zip(numbers, names, strict=True)}
        return scores, dict(zip(numbers, state.won, strict=True)), dict(zip(numbers, state.lost, strict=True))
    if not given:
        raise EngineError(
            "missing_field",
            "Ein Skattisch braucht 'hands' oder seine Liste: 'points', 'won' und 'lost'.",
            f"{at}.points",
        )
    points = _per_player(table.get("points"), numbers, f"{at}.points", -MAX_FIGURE)
    won = _per_player(table.get("won"), numbers, f"{at}.won", 0)
    lost = _per_player(table.get("lost"), numbers, f"{at}.lost", 0)
    all_lost = sum(lost.values())
    scores = {n: seeger_total(points[n], won[n], lost[n], all_lost - lost[n], len(numbers)) for n in numbers}
    return scores, won, lost


def _round_winners(players: Mapping[int, _SkatPlayer], rounds: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for r in range(rounds):
        at_table = [p for p in players.values() if r in p.seated]
        if not at_table:
            continue
        scores = {p.number: p.rounds[r] for p in at_table}
        best = max(score for score in scores.values() if score is not None)
        out += [
            {"round": r + 1, "number": p.number, "name": p.name, "points": best}
            for p in sorted(at_table, key=lambda p: p.number)
            if scores[p.number] == best
        ]
    return out
