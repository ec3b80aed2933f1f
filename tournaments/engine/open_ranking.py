"""The ranking of an open tournament (Preisschafkopf, Schafkopfrennen): spec §5 ``rank_open``.

``rank_open_document(doc)`` takes the parsed spec §5 document and returns the spec's result:
``{"unit", "ranking", "round_winners", "prizes", "tie_breaks", "seed"}``. The readings taken
where the spec leaves room (docs/json-format.md, ``rank_open``, repeats them for users):

- A table is given either by ``hands`` (scored like a ``score_session`` document: ``players`` in
  seat order, the first player dealing first, the hands naming players by name) or by the sheet's
  ``totals`` and ``soli`` (keys: start numbers as strings; exactly the table's players). Both
  kinds of table seat as many players as the rule set's tables do (4 to 6 for Schafkopf).
- *Soli* of a ``hands`` table: the games one player declared alone (``Outcome.solo`` with a
  declarer: Solo, Wenz, Geier, Bettel, Tout, …; a Doppelkopf solo); with ``soli_count``
  ``"declared"`` (the default) won or lost, with ``"won"`` only those the declarer won (spec §5,
  additions of 2026-11-28). A hand scored as a Fehler counts for its points only. ``soli`` of a
  ``totals`` table are the sheet's figures, whatever ``soli_count`` says; they are required where
  the tie-breaks use them, otherwise they may be left out (then 0).
- *Zero-sum*: every tariff's payouts sum to zero; only the Stock (the table option ``stock``
  other than ``none``) takes money out of a table. So a ``totals`` table must sum to 0 unless the
  rule set plays with a Stock. A plus-points-only tariff (``plus_points_only``) writes the
  winners alone: its tables are not zero-sum, and instead no player's total may be below 0.
- A player in no table of a round (withdrawn, late, or his table not counted yet) scores nothing
  for it: his ``rounds`` entry is ``null`` (spec §5, additions of 2026-11-28), and ``best_round``
  is the largest entry among the rounds he played; one who played none has no best round and
  ranks below everyone who has one on that tie-break. ``round_winners`` counts only the players
  who sat at a table that round.
- *Lot* (``lot``): ``random.Random(seed).shuffle`` of the ascending list of *all* start numbers;
  the earlier a number stands in the shuffled list, the higher it ranks. One draw for everyone, so
  a player's lot does not depend on who else is tied; the same seed gives the same order on every
  machine (Python's Mersenne Twister with an integer seed). ``seed`` defaults to 0.
- Players equal on points and on every tie-break listed share a place (only possible without
  ``lot``), ordered by start number; the next place skips (1, 2, 2, 4).
- Prizes: ``pot`` in cents and ``shares`` in whole percent (at most 100 together).

Pure: no Django, no I/O, no clock. It does not store anything or draw the tables.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.engine import registry
from scoring.engine.core import EngineError, RuleSet
from scoring.engine.fields import check_int
from scoring.engine.session import fold
from scoring.engine.session_rules import TableRules

SOLI = "soli"
BEST_ROUND = "best_round"
LOT = "lot"
TIE_BREAKS = (SOLI, BEST_ROUND, LOT)
DEFAULT_TIE_BREAKS = [SOLI, BEST_ROUND, LOT]
SHARED = "geteilt"  # ``decided_by`` of the second and later players of a shared place (spec §5)
MAX_SEED = 2**32 - 1
MAX_NUMBER = 100_000  # start numbers: a generous bound that still fits every database column
# What a ``hands`` table counts as a player's Soli (spec §5 ``soli_count``): every game he declared
# alone, won or lost (the default), or only those he won (the circled ones on a paper list).
SOLI_DECLARED = "declared"
SOLI_WON = "won"
SOLI_COUNTS = (SOLI_DECLARED, SOLI_WON)

_DOC_KEYS = {"ruleset", "players", "rounds", "tie_breaks", "seed", "prizes", "soli_count", "note"}


@dataclass
class _Player:
    number: int
    name: str
    rounds: list[int | None]  # None: at no table that round
    soli: int = 0

    @property
    def points(self) -> int:
        return sum(points for points in self.rounds if points is not None)

    @property
    def best_round(self) -> tuple[bool, int]:
        """(played any round, the best of those played): whoever played none ranks below
        everyone who played one, whatever that one's best round was (spec §5 additions)."""
        played = [points for points in self.rounds if points is not None]
        return (True, max(played)) if played else (False, 0)


def _object(value: Any, where: str, allowed: set[str]) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise EngineError("invalid_type", "Erwartet ein JSON-Objekt.", where or None)
    extra = sorted(set(value) - allowed)
    if extra:
        raise EngineError(
            "unexpected_field", f"Unbekanntes Feld '{extra[0]}'.", f"{where}.{extra[0]}" if where else extra[0]
        )
    return value


def _list(value: Any, where: str, what: str) -> list[Any]:
    if not isinstance(value, list):
        code = "missing_field" if value is None else "invalid_type"
        raise EngineError(code, f"Erwartet die Liste {what}.", where)
    return value


def _players(raw: Any) -> dict[int, _Player]:
    players: dict[int, _Player] = {}
    names: set[str] = set()
    for i, entry in enumerate(_list(raw, "players", "der Teilnehmer")):
        where = f"players[{i}]"
        entry = _object(entry, where, {"number", "name", "note"})
        if "number" not in entry:
            raise EngineError("missing_field", "Die Startnummer fehlt.", f"{where}.number")
        number = check_int(entry["number"], 1, MAX_NUMBER, f"{where}.number", "Die Startnummer")
        name = entry.get("name")
        if not isinstance(name, str) or not name.strip():
            code = "missing_field" if name is None else "invalid_type"
            raise EngineError(code, "Jeder Teilnehmer braucht einen Namen.", f"{where}.name")
        if number in players:
            raise EngineError("invalid_value", f"Die Startnummer {number} ist doppelt vergeben.", f"{where}.number")
        if name in names:
            raise EngineError("invalid_value", f"Der Name '{name}' ist doppelt vergeben.", f"{where}.name")
        players[number] = _Player(number, name, [])
        names.add(name)
    if not players:
        raise EngineError("invalid_value", "Mindestens ein Teilnehmer.", "players")
    return players


def _tie_breaks(raw: Any) -> list[str]:
    if raw is None:
        return list(DEFAULT_TIE_BREAKS)
    order = _list(raw, "tie_breaks", "der Entscheidungen bei Punktgleichheit")
    for i, name in enumerate(order):
        if name not in TIE_BREAKS:
            known = ", ".join(TIE_BREAKS)
            raise EngineError(
                "invalid_value", f"Unbekannte Entscheidung '{name}'; bekannt sind: {known}.", f"tie_breaks[{i}]"
            )
    if len(set(order)) != len(order):
        raise EngineError("invalid_value", "Jede Entscheidung darf nur einmal genannt werden.", "tie_breaks")
    return list(order)


def _table_numbers(
    raw: Any, players: dict[int, _Player], seated: set[int], sizes: tuple[int, ...], at: str
) -> list[int]:
    where = f"{at}.players"
    numbers = _list(raw, where, "der Startnummern am Tisch")
    for i, number in enumerate(numbers):
        check_int(number, 1, MAX_NUMBER, f"{where}[{i}]", "Die Startnummer")
        if number not in players:
            raise EngineError("invalid_value", f"Die Startnummer {number} ist nicht vergeben.", f"{where}[{i}]")
        if number in seated:
            raise EngineError("invalid_value", f"Nr. {number} sitzt in dieser Runde an zwei Tischen.", f"{where}[{i}]")
        seated.add(number)
    if len(set(numbers)) != len(numbers):
        raise EngineError("invalid_value", "Jeder Spieler darf nur einmal am Tisch sitzen.", where)
    if len(numbers) not in sizes:
        counts = " oder ".join(str(n) for n in sizes)
        raise EngineError(
            "invalid_value", f"Am Tisch sitzen bei dieser Regel {counts} Spieler, nicht {len(numbers)}.", where
        )
    return numbers


def _per_player(raw: Any, numbers: list[int], where: str, lo: int) -> dict[int, int]:
    """``{"7": int, ...}`` naming exactly ``numbers`` → {7: int, ...}."""
    if not isinstance(raw, Mapping):
        raise EngineError(
            "missing_field" if raw is None else "invalid_type", "Erwartet ein Objekt Startnummer → Zahl.", where
        )
    wanted = {str(n): n for n in numbers}
    out: dict[int, int] = {}
    for key, value in raw.items():
        if key not in wanted:
            raise EngineError("invalid_value", f"Nr. {key} sitzt nicht an diesem Tisch.", f"{where}.{key}")
        out[wanted[key]] = check_int(value, lo, 10**12, f"{where}.{key}", "Der Wert")
    missing = [n for n in numbers if n not in out]
    if missing:
        raise EngineError("missing_field", f"Es fehlt der Wert für Nr. {missing[0]}.", f"{where}.{missing[0]}")
    return out


def _soli_count(raw: Any) -> str:
    if raw is None:
        return SOLI_DECLARED
    if raw not in SOLI_COUNTS:
        known = ", ".join(SOLI_COUNTS)
        raise EngineError("invalid_value", f"'soli_count' ist eines von: {known}.", "soli_count")
    return str(raw)


def _score_table(
    table: Mapping[str, Any],
    numbers: list[int],
    players: dict[int, _Player],
    ruleset: RuleSet,
    rules: TableRules,
    needs_soli: bool,
    soli_count: str,
    at: str,
) -> tuple[dict[int, int], dict[int, int]]:
    """(points, soli) of each player at one table."""
    if ("hands" in table) == ("totals" in table):
        raise EngineError("missing_field", "Ein Tisch braucht entweder 'hands' oder 'totals'.", f"{at}.totals")
    if "hands" in table:
        if "soli" in table:
            raise EngineError("unexpected_field", "Bei 'hands' werden die Soli gezählt, nicht angegeben.", f"{at}.soli")
        hands = _list(table["hands"], f"{at}.hands", "der Spiele und Ereignisse (hands)")
        names = [players[n].name for n in numbers]
        number_of = dict(zip(names, numbers, strict=True))
        try:
            result = fold(ruleset, rules, names, names[0], hands)
        except EngineError as exc:
            raise exc.with_prefix(at) from None
        soli = dict.fromkeys(numbers, 0)
        for entry in result.entries:
            outcome = entry.outcome
            if outcome is None or not outcome.solo or outcome.penalty or outcome.declarer not in number_of:
                continue
            if soli_count == SOLI_DECLARED or outcome.declarer_won:
                soli[number_of[outcome.declarer]] += 1
        return {number_of[name]: amount for name, amount in result.totals.items()}, soli
    totals = _per_player(table["totals"], numbers, f"{at}.totals", -(10**12))
    if not ruleset.is_zero_sum():
        # Plus points only: the losers are written nothing, so no player ends below 0.
        minus = next((n for n in numbers if totals[n] < 0), None)
        if minus is not None:
            raise EngineError(
                "out_of_range",
                f"Nr. {minus} hat {totals[minus]} Punkte: bei „nur Pluspunkte“ ist niemand im Minus.",
                f"{at}.totals.{minus}",
            )
    elif rules.stock == "none" and sum(totals.values()) != 0:
        raise EngineError(
            "inconsistent",
            f"Die Punkte des Tisches ergeben zusammen {sum(totals.values())}, nicht 0 (die Regel zählt Null-Summe).",
            f"{at}.totals",
        )
    if "soli" in table or needs_soli:
        soli = _per_player(table.get("soli"), numbers, f"{at}.soli", 0)
    else:
        soli = dict.fromkeys(numbers, 0)
    return totals, soli


def _prizes(raw: Any) -> tuple[int, list[int]]:
    prizes = _object(raw, "prizes", {"pot", "shares", "note"})
    if "pot" not in prizes:
        raise EngineError("missing_field", "Der Preistopf (Cent) fehlt.", "prizes.pot")
    pot = check_int(prizes["pot"], 0, 10**12, "prizes.pot", "Der Preistopf")
    shares = _list(prizes.get("shares"), "prizes.shares", "der Anteile in Prozent")
    for i, share in enumerate(shares):
        check_int(share, 0, 100, f"prizes.shares[{i}]", "Ein Anteil")
    if sum(shares) > 100:
        raise EngineError(
            "invalid_value", f"Die Anteile ergeben zusammen {sum(shares)} %, mehr als 100 %.", "prizes.shares"
        )
    return pot, list(shares)


def rank_open_document(doc: Any) -> dict[str, Any]:
    """Spec §5 → ``{"unit", "ranking", "round_winners", "prizes", "tie_breaks", "seed"}``, or
    ``EngineError`` with the field's path (``rounds[1].tables[3].totals``)."""
    doc = _object(doc, "", _DOC_KEYS)
    ruleset, rules = registry.load_with_table(doc.get("ruleset"))
    players = _players(doc.get("players"))
    tie_breaks = _tie_breaks(doc.get("tie_breaks"))
    seed = check_int(doc.get("seed", 0), 0, MAX_SEED, "seed", "Der Seed")
    soli_count = _soli_count(doc.get("soli_count"))
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
            table = _object(raw_table, at, {"players", "hands", "totals", "soli", "note"})
            numbers = _table_numbers(table.get("players"), players, seated, rules.table_sizes, at)
            points, soli = _score_table(table, numbers, players, ruleset, rules, SOLI in tie_breaks, soli_count, at)
            for number in numbers:
                player = players[number]
                player.rounds[r] = points[number]
                player.soli += soli[number]

    lot = _lot_order(players, seed)
    values: dict[str, Callable[[_Player], Any]] = {
        SOLI: lambda p: p.soli,
        BEST_ROUND: lambda p: p.best_round,
        LOT: lambda p: -lot[p.number],  # earlier in the draw ranks higher
    }
    keys = {n: tuple(values[name](p) for name in tie_breaks) for n, p in players.items()}
    # Higher points, then higher tie-break values first; equal ones by start number (a stable
    # sort: by number first, then by the rest, descending).
    order = sorted(
        sorted(players.values(), key=lambda p: p.number), key=lambda p: (p.points, keys[p.number]), reverse=True
    )

    ranking = placed(order, keys, tie_breaks, lambda p: {"soli": p.soli})

    return {
        "unit": ruleset.unit(),
        "ranking": ranking,
        "round_winners": _round_winners(players, len(rounds)),
        "prizes": _prize_list(ranking, pot, shares),
        "tie_breaks": tie_breaks,
        "seed": seed,
    }


def placed(
    order: Sequence[Any], keys: Mapping[int, tuple[Any, ...]], tie_breaks: Sequence[str], extra: Callable[[Any], dict]
) -> list[dict[str, Any]]:
    """The ranking's rows for players in ``order`` (each with ``number``, ``name``, ``points``,
    ``rounds``): place, and on equal points the first tie-break that differs from the player
    above (``decided_by``); where none does, the place is shared. ``extra`` gives a row's fields
    of its game (Schafkopf's Soli, Skat's won and lost games)."""
    ranking: list[dict[str, Any]] = []
    above: Any = None
    for index, player in enumerate(order):
        decided_by: str | None = None
        place = index + 1
        if above is not None and above.points == player.points:
            mine, theirs = keys[player.number], keys[above.number]
            decided_by = next((name for name, a, b in zip(tie_breaks, theirs, mine, strict=True) if a != b), SHARED)
            if decided_by == SHARED:
                place = ranking[-1]["place"]
        ranking.append(
            {
                "place": place,
                "number": player.number,
                "name": player.name,
                "points": player.points,
                "rounds": list(player.rounds),
                **extra(player),
                "decided_by": decided_by,
            }
        )
        above = player
    return ranking


def _lot_order(players: Mapping[int, _Player], seed: int) -> dict[int, int]:
    """Start number → position in the seeded shuffle of all start numbers (0 ranks highest)."""
    drawn = sorted(players)
    random.Random(seed).shuffle(drawn)
    return {number: position for position, number in enumerate(drawn)}


def _round_winners(players: Mapping[int, _Player], rounds: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for r in range(rounds):
        scored = {p.number: points for p in players.values() if (points := p.rounds[r]) is not None}
        if not scored:
            continue
        best = max(scored.values())
        out += [
            {"round": r + 1, "number": number, "name": players[number].name, "points": best}
            for number in sorted(scored)
            if scored[number] == best
        ]
    return out


def _prize_list(ranking: Sequence[Mapping[str, Any]], pot: int, shares: list[int]) -> list[dict[str, Any]]:
    """Place p gets ``pot × shares[p−1] // 100``; the k players of a shared place p split the
    amounts of places p … p+k−1 evenly, each rounded down to the cent (the rest stays in the pot)."""

    def amount(place: int) -> int:
        return pot * shares[place - 1] // 100 if place <= len(shares) else 0

    sharing: dict[int, int] = {}
    for row in ranking:
        sharing[row["place"]] = sharing.get(row["place"], 0) + 1
    out = []
    for row in ranking:
        place, k = row["place"], sharing[row["place"]]
        if place > len(shares):
            break
        each = sum(amount(p) for p in range(place, place + k)) // k
        if each > 0:
            out.append({"place": place, "number": row["number"], "amount": each})
    return out
