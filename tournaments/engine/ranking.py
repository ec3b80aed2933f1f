"""The championship ranking (001 §11.3): points, nine tie-break criteria, playoffs, adjustments,
shared places; and ``rank_tournament`` (spec §4).

Criteria, in order; for every one more ranks higher (``CRITERIA``):

 1. ``points``: total points of every table the player sat at (plus adjustments, below);
 2. ``einzelspiele_played`` / 3. ``einzelspiele_won``: games the player declared alone (001 §4.2:
    Solo, Wenz, Bettel, Sie, Tout, and Geier/Farbwenz/… where the rules allow them);
 4. ``solos_played`` / 5. ``solos_won``: Farbsolos declared (Tout included);
 6. ``wenz_played`` / 7. ``wenz_won``: Wenz declared (Wenz-Tout included);
 8. ``bettel_played`` / 9. ``bettel_won``: Bettel declared;
10. ``normal_games_won``: Rufspiele (001 §4.1 "Rufspiel (normales Spiel)") the player won, on
    either side: as declarer, as partner or as an opponent who beat them.

"Played" and "won" count the declarer's games only. A hand scored as a Fehler (penalty) counts for
its points but for no criterion. Still tied after criterion 10, the players of a group are
separated by playoffs (001 §11.3 item 11): the winner of a playoff ranks above its other players;
a player who lost no playoff inside the group, while everyone else in it did, takes the group's
next place, and this repeats for the rest. A group no playoff resolves shares a place
(competition style: 1, 2, 2, 4) and is listed in ``ties_unresolved``.

Adjustments record the rule for a wrongly written score that cannot be reconstructed (001 §11.3):
each affected player is counted to his advantage, i.e. ``points`` is added to his ranking points
(not to anyone's sheet).

Pure: no Django, no I/O. ``tally_tables`` folds tables with ``scoring.engine.session``; ``rank``
works on tallies, so the web app can aggregate its stored ledger and rank with the same code.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from scoring.engine import registry
from scoring.engine.core import EngineError, RuleSet
from scoring.engine.session import EntryResult, fold
from scoring.engine.session_rules import TableRules

CRITERIA = (
    "points",
    "einzelspiele_played",
    "einzelspiele_won",
    "solos_played",
    "solos_won",
    "wenz_played",
    "wenz_won",
    "bettel_played",
    "bettel_won",
    "normal_games_won",
)
# Games of criteria 4–9 by their engine names (001 §4.2.1 Solo "auch Farbsolo genannt").
SOLO_GAMES = frozenset({"solo"})
WENZ_GAMES = frozenset({"wenz"})
BETTEL_GAMES = frozenset({"bettel"})
NORMAL_GAMES = frozenset({"rufspiel"})
PLAYOFF = "playoff"  # ``Placing.decided_by`` when a playoff separated the player from the one above
SHARED = "shared"  # ``Placing.decided_by`` of the second and later players sharing a place: nothing did


@dataclass(frozen=True)
class Tally:
    """One player's figures for the ten criteria of 001 §11.3, in ``CRITERIA`` order."""

    points: int = 0
    einzelspiele_played: int = 0
    einzelspiele_won: int = 0
    solos_played: int = 0
    solos_won: int = 0
    wenz_played: int = 0
    wenz_won: int = 0
    bettel_played: int = 0
    bettel_won: int = 0
    normal_games_won: int = 0

    def key(self) -> tuple[int, ...]:
        return tuple(getattr(self, name) for name in CRITERIA)

    def __add__(self, other: Tally) -> Tally:
        return Tally(*(a + b for a, b in zip(self.key(), other.key(), strict=True)))

    def as_dict(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in CRITERIA}


def tally_entry(entry: EntryResult) -> dict[str, Tally]:
    """What one scored entry of a table adds to each player's tally."""
    out = {name: Tally(points=amount) for name, amount in entry.payouts.items()}
    outcome = entry.outcome
    if outcome is None or outcome.penalty:
        return out
    declarer, won = outcome.declarer, outcome.declarer_won is True
    if declarer is not None and outcome.solo:
        game = outcome.game
        played = {"einzelspiele_played": 1}
        if game in SOLO_GAMES:
            played["solos_played"] = 1
        elif game in WENZ_GAMES:
            played["wenz_played"] = 1
        elif game in BETTEL_GAMES:
            played["bettel_played"] = 1
        if won:
            played.update({name.replace("_played", "_won"): 1 for name in list(played)})
        out[declarer] = out.get(declarer, Tally()) + Tally(**played)
    if outcome.game in NORMAL_GAMES and outcome.declarer_won is not None:
        side = {declarer, outcome.partner}
        winners = side if outcome.declarer_won else set(entry.seats) - side
        for name in winners:
            if name is not None:
                out[name] = out.get(name, Tally()) + Tally(normal_games_won=1)
    return out


@dataclass(frozen=True)
class TableLog:
    """One table of one Partie: its players in seat order, the first dealer and the log."""

    players: tuple[str, ...]
    entries: tuple[Any, ...]
    first_dealer: str | None = None


def tally_tables(ruleset: RuleSet, table: TableRules, tables: Iterable[TableLog]) -> dict[str, Tally]:
    """Fold every table (spec §3, ``first_dealer`` defaulting to its first player) and sum the
    players' tallies. An invalid entry raises the fold's ``EntryError`` (field ``hands[i]…``)."""
    totals: dict[str, Tally] = {}
    for log in tables:
        result = fold(ruleset, table, log.players, log.first_dealer or log.players[0], log.entries)
        for entry in result.entries:
            for name, tally in tally_entry(entry).items():
                totals[name] = totals.get(name, Tally()) + tally
    return totals


@dataclass(frozen=True)
class Playoff:
    """A playoff (001 §11.3 item 11, e.g. Seemannsschafkopf best of 5) and who won it."""

    players: tuple[str, ...]
    winner: str


@dataclass(frozen=True)
class Adjustment:
    """001 §11.3, a wrongly written score: ``points`` added to each player's ranking points."""

    players: tuple[str, ...]
    points: int
    reason: str = ""


@dataclass(frozen=True)
class Placing:
    place: int
    name: str
    tally: Tally  # as ranked: the adjustments are in ``points``
    adjustment: int = 0  # the part of ``tally.points`` that came from adjustments
    # what separated him from the player above: a criterion, PLAYOFF, or SHARED (nothing: same place)
    decided_by: str | None = None
    shared: bool = False  # shares the place (still tied after criterion 10 and the playoffs)


@dataclass(frozen=True)
class Ranking:
    placings: tuple[Placing, ...]
    ties_unresolved: tuple[str, ...]  # players sharing a place, by place then as listed
    ignored_playoffs: tuple[Playoff, ...] = ()  # between players not tied (any more): no effect

    def tie_groups(self) -> list[tuple[str, ...]]:
        """Players sharing a place, one tuple per place (candidates for a playoff)."""
        groups: dict[int, list[str]] = {}
        for placing in self.placings:
            if placing.shared:
                groups.setdefault(placing.place, []).append(placing.name)
        return [tuple(names) for _, names in sorted(groups.items())]

    def as_dict(self) -> dict[str, Any]:
        """Spec §4's ``rank_tournament`` result; ``adjustment`` only for an adjusted player."""
        out = []
        for placing in self.placings:
            row: dict[str, Any] = {
                "place": placing.place,
                "name": placing.name,
                "points": placing.tally.points,
                "criteria": placing.tally.as_dict(),
            }
            if placing.adjustment:
                row["adjustment"] = placing.adjustment
            out.append(row)
        return {"ranking": out, "ties_unresolved": list(self.ties_unresolved)}


def _check_names(names: Any, known: Mapping[str, Any], field: str, least: int = 1) -> tuple[str, ...]:
    if isinstance(names, str) or not isinstance(names, Sequence) or not names:
        raise EngineError("invalid_type", "Erwartet eine Liste von Spielern.", field)
    for index, name in enumerate(names):
        if name not in known:
            raise EngineError("invalid_value", f"'{name}' spielt in der Meisterschaft nicht mit.", f"{field}[{index}]")
    if len(set(names)) != len(names):
        raise EngineError("invalid_value", "Jeder Spieler darf nur einmal genannt werden.", field)
    if len(names) < least:
        raise EngineError("invalid_value", f"Mindestens {least} Spieler.", field)
    return tuple(names)


def rank(
    tallies: Mapping[str, Tally],
    playoffs: Sequence[Playoff] = (),
    adjustments: Sequence[Adjustment] = (),
) -> Ranking:
    """Rank ``tallies`` (every player, in a stable order used for equal names in shared places).

    Refuses (``EngineError``) a playoff or adjustment that names an unknown player or a winner
    who did not play it. A playoff among players who are not all tied is kept in
    ``ignored_playoffs``; of several playoffs among the same players the last one counts.
    """
    bonus = dict.fromkeys(tallies, 0)
    for index, adjustment in enumerate(adjustments):
        for name in _check_names(adjustment.players, tallies, f"adjustments[{index}].players"):
            bonus[name] += adjustment.points
    latest: dict[frozenset[str], Playoff] = {}
    for index, playoff in enumerate(playoffs):
        players = _check_names(playoff.players, tallies, f"playoff[{index}].players", least=2)
        if playoff.winner not in players:
            raise EngineError(
                "invalid_value", "Der Sieger muss im Stechen mitgespielt haben.", f"playoff[{index}].winner"
            )
        latest.pop(frozenset(players), None)
        latest[frozenset(players)] = playoff
    ranked = {name: replace(tally, points=tally.points + bonus[name]) for name, tally in tallies.items()}
    listed = {name: i for i, name in enumerate(tallies)}
    order = sorted(ranked, key=lambda name: (tuple(-v for v in ranked[name].key()), listed[name]))

    groups: list[list[str]] = []
    for name in order:
        if groups and ranked[groups[-1][0]].key() == ranked[name].key():
            groups[-1].append(name)
        else:
            groups.append([name])
    group_of = {name: i for i, group in enumerate(groups) for name in group}
    used = {players for players in latest if len({group_of[name] for name in players}) == 1}
    ignored = tuple(playoff for players, playoff in latest.items() if players not in used)

    placings: list[Placing] = []
    unresolved: list[str] = []
    previous: Tally | None = None
    for group in groups:
        decided_by = _first_difference(previous, ranked[group[0]])
        ordered, rest = _playoff_order(group, [latest[players] for players in used])
        for name in ordered:
            placings.append(Placing(len(placings) + 1, name, ranked[name], bonus[name], decided_by))
            decided_by = PLAYOFF
        place = len(placings) + 1
        for name in rest:
            placings.append(Placing(place, name, ranked[name], bonus[name], decided_by, shared=len(rest) > 1))
            decided_by = SHARED  # nothing separates the next one of a shared place from this one
        if len(rest) > 1:
            unresolved += rest
        previous = ranked[group[0]]
    return Ranking(tuple(placings), tuple(unresolved), ignored)


def _first_difference(above: Tally | None, below: Tally) -> str | None:
    if above is None:
        return None
    return next((name for name, a, b in zip(CRITERIA, above.key(), below.key(), strict=True) if a != b), None)


def _playoff_order(group: list[str], playoffs: list[Playoff]) -> tuple[list[str], list[str]]:
    """(players placed by playoffs, in order; the rest, still tied). The rest is one player when
    the playoffs ordered everyone."""
    remaining = list(group)
    ordered: list[str] = []
    while len(remaining) > 1:
        left = set(remaining)
        beaten = {
            name
            for playoff in playoffs
            if set(playoff.players) <= left
            for name in playoff.players
            if name != playoff.winner
        }
        top = [name for name in remaining if name not in beaten]
        if len(top) != 1:
            break
        ordered.append(top[0])
        remaining.remove(top[0])
    if len(remaining) == 1 and ordered:
        ordered += remaining
        remaining = []
    return ordered, remaining


# --- rank_tournament (spec §4) -------------------------------------------------------------------

_DOC_KEYS = {"ruleset", "players", "partien", "playoff", "adjustments", "note"}
DEFAULT_RULESET = "allgaeu-meisterschaft"


def _object(value: Any, field: str, allowed: set[str]) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise EngineError("invalid_type", "Erwartet ein JSON-Objekt.", field or None)
    extra = sorted(set(value) - allowed)
    if extra:
        where = f"{field}.{extra[0]}" if field else extra[0]
        raise EngineError("unexpected_field", f"Unbekanntes Feld '{extra[0]}'.", where)
    return value


def _list(value: Any, field: str, what: str) -> list[Any]:
    if not isinstance(value, list):
        code = "missing_field" if value is None else "invalid_type"
        raise EngineError(code, f"Erwartet die Liste {what}.", field)
    return value


def rank_document(doc: Any) -> dict[str, Any]:
    """Spec §4: ``{"ruleset", "players", "partien": [{"tables": [{"players", "hands"}]}],
    "playoff"}`` → ``{"ranking", "ties_unresolved"}``, or ``EngineError``.

    Beyond the spec it accepts a table's ``first_dealer`` (default: its first player) and
    ``adjustments: [{"players": [...], "points": int, "reason": str}]``.
    """
    doc = _object(doc, "", _DOC_KEYS)
    ruleset, table_rules = registry.load_with_table(doc.get("ruleset", DEFAULT_RULESET))
    if ruleset.FAMILY != "schafkopf":
        raise EngineError("invalid_value", "Die Meisterschaft wird nach einer Schafkopf-Regel gewertet.", "ruleset")
    players = _list(doc.get("players"), "players", "der Spieler")
    if not players or not all(isinstance(name, str) and name.strip() for name in players):
        raise EngineError("invalid_type", "Jeder Spieler braucht einen Namen.", "players")
    if len(set(players)) != len(players):
        raise EngineError("invalid_value", "Jeder Spieler darf nur einmal genannt werden.", "players")
    known = dict.fromkeys(players, True)

    tallies = {name: Tally() for name in players}
    for p, partie in enumerate(_list(doc.get("partien"), "partien", "der Partien")):
        where = f"partien[{p}]"
        partie = _object(partie, where, {"tables", "note"})
        seated: set[str] = set()
        for t, raw in enumerate(_list(partie.get("tables"), f"{where}.tables", "der Tische")):
            at = f"{where}.tables[{t}]"
            table = _object(raw, at, {"players", "hands", "first_dealer", "note"})
            names = _check_names(table.get("players"), known, f"{at}.players")
            twice = seated & set(names)
            if twice:
                raise EngineError(
                    "invalid_value", f"{sorted(twice)[0]} sitzt in dieser Partie an zwei Tischen.", f"{at}.players"
                )
            seated |= set(names)
            hands = _list(table.get("hands"), f"{at}.hands", "der Spiele und Ereignisse (hands)")
            log = TableLog(names, tuple(hands), table.get("first_dealer"))
            try:
                for name, tally in tally_tables(ruleset, table_rules, [log]).items():
                    tallies[name] = tallies[name] + tally
            except EngineError as exc:
                raise exc.with_prefix(at) from None

    playoffs = []
    for i, raw in enumerate(_list(doc.get("playoff", []), "playoff", "der Stechen")):
        entry = _object(raw, f"playoff[{i}]", {"players", "winner", "note"})
        names = _check_names(entry.get("players"), known, f"playoff[{i}].players", least=2)
        playoffs.append(Playoff(names, entry.get("winner")))
    adjustments = []
    for i, raw in enumerate(_list(doc.get("adjustments", []), "adjustments", "der Korrekturen")):
        entry = _object(raw, f"adjustments[{i}]", {"players", "points", "reason"})
        points = entry.get("points")
        if isinstance(points, bool) or not isinstance(points, int):
            code = "missing_field" if points is None else "invalid_type"
            raise EngineError(code, "Erwartet eine ganze Zahl Punkte.", f"adjustments[{i}].points")
        names = _check_names(entry.get("players"), known, f"adjustments[{i}].players")
        adjustments.append(Adjustment(names, points, str(entry.get("reason", ""))))

    result = rank(tallies, playoffs, adjustments)
    if result.ignored_playoffs:
        bad = result.ignored_playoffs[0]
        index = next(i for i, p in enumerate(playoffs) if set(p.players) == set(bad.players))
        raise EngineError(
            "invalid_value",
            "Ein Stechen gibt es nur zwischen Spielern, die nach allen zehn Kriterien gleich stehen.",
            f"playoff[{index}].players",
        )
    return result.as_dict()
