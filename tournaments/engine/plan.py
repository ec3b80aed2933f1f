"""Seating plans for the Zockmeisterschaft (001 §11.2): who sits at which table in each Partie.

``plan_seating(players, partien, seed)`` seats the numbers 1..N once per Partie at tables of 4, or
of 5 where N is not a multiple of 4 (the dealer sits out each game, so a table of 5 plays 5/4 of
the games and everyone still plays the same number), and keeps players from meeting again:

- two players *meet* in a Partie when they sit at the same table; at a table of 5 everyone meets
  everyone, because the dealer rotates;
- ``repeat_pairs`` is the sum over all pairs of ``max(0, meetings - 1)``: every meeting of a pair
  after its first. Equivalently it is the number of table-pair meetings minus the number of
  different pairs that met, so minimising it maximises the different opponents met in total;
- ``lower_bound`` is a proven lower bound on ``repeat_pairs`` for any plan with these tables
  (``repeat_lower_bound``); a plan that reaches it is optimal.

Partie 1 is fixed (number n sits at table ``(n - 1) mod T`` for T tables): numbers are drawn by
lot (001 §11.2), so fixing one Partie loses nothing. The later Partien start from a construction
by shifts in a group of order T (the orthogonal-Latin-square idea, ``_shifted_seats``), which
seats all of them without a repeat for most N from 20 on, and a greedy seating where it does not
reach; a tabu search (``_Search``) then removes repeats until it reaches ``lower_bound`` or its
budget. Randomness comes from ``random.Random(seed)`` only and the budget counts work, not time,
so the same arguments give the same plan on every machine.

Among the plans with the fewest repeats the planner then prefers (in this order, issues 20 and 14)
the one whose seats at tables of five (or six) lie closest together (most minus fewest over the
players, the *spread*), whose worst-off player meets the most different opponents, whose most
frequent pair meets the fewest times, and whose seats at five have the smallest sum of squares.
The spread is searched for in bands: the repeat search is held to "every player sits at a table
of five between ``low`` and ``high`` times" (``spread_bands``, ``_Search.hold_band``, ``_balanced``)
one apart, then two apart, and the polish (``_Polish``) keeps the band. Where even the fewest
repeats keep a pair together in every Partie or spread the seats at five more than two apart,
``plan_alternatives`` offers a plan with a few more repeats, no pair meeting more than twice and
the seats at five at most two apart, and where the seats at five alone can be held within two for
fewer repeats than that, a third plan that does only this (issue 30).

Pure: no Django, no I/O, no clock. It does not draw numbers or seats (the club draws those by lot).
Tables of 6 (001 §7.2: dealer and cutter sit out) are planned only where tables of 4 and 5 cannot
seat everyone (6 and 11 players); the club's rules (001) have no Schafkopf for three, so 7 players
(and fewer than 4) are refused.
"""

from __future__ import annotations

import random
from contextlib import suppress
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from math import factorial
from typing import Any

from scoring.engine.core import EngineError
from scoring.engine.fields import check_int

MAX_PLAYERS = 400
MAX_PARTIEN = 10
MAX_GAMES = 200
MAX_SEED = 2**32 - 1

# Optima proven by exhaustive search where the counting bounds below are not tight:
# (players, partien) -> least possible repeat_pairs. Checked by
# tests/tournaments/engine/test_plan.py::test_known_optimum_by_exhaustive_search.
KNOWN_OPTIMA: dict[tuple[int, int], int] = {
    (10, 3): 18,
    (12, 4): 13,
    (13, 4): 14,
    (14, 4): 17,
    (15, 4): 23,
}

# Search budget: fixed counts, never a clock, so the plan does not depend on the machine's speed.
_MAX_EVALUATIONS = 1_500_000  # candidate swaps weighed in all (about a second of work)
_PATIENCE = 2_000  # iterations without a new best before the search gives up
_STALL = 150  # iterations without a new best before a random kick
_KICK_SWAPS = 3
_TENURE = (4, 12)  # a player may not return to a table he just left for this many iterations
_SHIFT_NODES = 20_000  # values the shift search tries before it gives up
# The fairness polish (``_Polish``): candidate swaps weighed, and iterations without a better plan.
_POLISH_EVALUATIONS = 60_000
_POLISH_PATIENCE = 300
_REMOVE_RESTARTS = 20
_SPREAD_DESIGNS = 6  # hill climbs for the players the spread construction leaves out
# The repeat search held to a band of seats at tables of five (``_balanced``): it succeeds within
# a few thousand swaps weighed where it succeeds at all, and is tried for up to five bands.
_BAND_EVALUATIONS = 200_000

FEWEST_REPEATS = "fewest_repeats"  # the default: fewest repeats, then the fairest among those
AT_MOST_TWICE = "at_most_twice"  # the alternative: no pair meets more than twice, then as above
FIVES_WITHIN_TWO = "fives_within_two"  # the seats at five at most two apart, then the fewest repeats
VARIANTS = (FEWEST_REPEATS, AT_MOST_TWICE, FIVES_WITHIN_TWO)

Table = tuple[int, ...]
Partie = tuple[Table, ...]


@dataclass(frozen=True)
class SeatingPlan:
    """A plan for ``players`` numbers over ``len(partien)`` Partien.

    ``partien[p][t]`` lists the numbers at table t of Partie p+1, ascending; the tables of a
    Partie are ordered by their smallest number. ``table_sizes`` are the sizes, the same multiset
    in every Partie. ``distinct_opponents[n - 1]`` is how many different players number n meets,
    ``five_seats[n - 1]`` in how many Partien he sits at a table of five or six;
    ``max_pair_meetings`` is how often the pair that meets most often meets.
    """

    players: int
    partien: tuple[Partie, ...]
    table_sizes: tuple[int, ...]
    repeat_pairs: int
    distinct_opponents: tuple[int, ...]
    lower_bound: int
    seed: int
    max_pair_meetings: int = 0
    five_seats: tuple[int, ...] = ()
    variant: str = FEWEST_REPEATS

    @property
    def optimal(self) -> bool:
        """True when no plan with these tables can have fewer repeat pairs."""
        return self.repeat_pairs == self.lower_bound

    @property
    def min_distinct_opponents(self) -> int:
        return min(self.distinct_opponents)

    @property
    def five_spread(self) -> int:
        """Most minus fewest Partien any two players sit at a table of five (or six)."""
        return max(self.five_seats, default=0) - min(self.five_seats, default=0)

    @property
    def pair_in_every_partie(self) -> bool:
        """Some pair sits together in every Partie (from 3 Partien on; with 2 that is only twice)."""
        return len(self.partien) >= 3 and self.max_pair_meetings == len(self.partien)


def table_sizes(players: int) -> tuple[int, ...]:
    """The tables of one Partie, largest first: ``players mod 4`` tables of 5, the rest of 4.

    Where tables of 4 and 5 cannot seat everyone (6 and 11 players: more tables of 5 would be
    needed than there are tables) one table of 6 takes two of them (001 §7.2: the dealer and the
    cutter sit out): 6 = 6, 11 = 6 + 5. Raises ``EngineError`` for 7 players, whom no tables of
    4, 5 and 6 seat (the club's rules know no Schafkopf for three).
    """
    check_int(players, 4, MAX_PLAYERS, "players", "Die Spielerzahl")
    tables, fives = divmod(players, 4)
    if fives <= tables:
        return (5,) * fives + (4,) * (tables - fives)
    if players in (6, 11):
        return (6,) + (5,) * ((players - 6) // 5)
    raise EngineError(
        "players_not_seatable",
        f"{players} Spieler lassen sich nicht auf Tische zu 4, 5 und 6 verteilen "
        "(möglich sind 4, 5, 6 und ab 8 Spieler).",
        "players",
    )


def repeat_lower_bound(sizes: tuple[int, ...], partien: int) -> int:
    """A lower bound on ``repeat_pairs`` of every plan with tables ``sizes`` and ``partien``.

    The largest of three arguments, each valid for every plan:

    1. *Partie 1 pigeonhole.* ``repeat_pairs`` counts, for each Partie after the first, the pairs
       at its tables that met in an earlier Partie. A table of s players drawn from the T tables
       of Partie 1 holds at least as many Partie-1 pairs as the most even spread of s players
       over those tables (each holding at most its own size) gives; every later Partie repeats
       at least the sum of that over its tables. With 12 players (3 tables) every table after
       Partie 1 holds two players from one earlier table: at least 3 repeats per Partie.
    2. *Opponent count.* A player meets ``size - 1`` players per Partie but only N - 1 different
       ones, so at least ``meetings - (N - 1)`` of his meetings repeat; each repeat pair counts
       for two players. Seats at tables of 5 and 6 (the only extra meetings) are spread as evenly
       as possible, which minimises the sum (the excess is convex in a player's meetings).
    3. ``KNOWN_OPTIMA`` where an exhaustive search proved the exact value.
    """
    players = sum(sizes)
    per_partie = sum(_fewest_shared_pairs(size, sizes) for size in sizes)
    pigeonhole = (partien - 1) * per_partie

    base = 3 * partien  # every table has at least 4 seats: at least 3 opponents a Partie
    five_seats = sum(size * (size - 4) for size in sizes) * partien  # meetings beyond 3 a Partie
    share, extra = divmod(five_seats, players)
    excess = extra * max(0, base + share + 1 - (players - 1)) + (players - extra) * max(0, base + share - (players - 1))
    counting = (excess + 1) // 2

    return max(pigeonhole, counting, KNOWN_OPTIMA.get((players, partien), 0))


def _fewest_shared_pairs(size: int, capacities: tuple[int, ...]) -> int:
    """Fewest pairs that share an earlier table among ``size`` players drawn from tables with
    ``capacities``: seat each next player where the fewest already are (optimal, as the cost of
    adding a player to a table is the number already drawn from it)."""
    drawn = [0] * len(capacities)
    shared = 0
    for _ in range(size):
        table = min((count, t) for t, count in enumerate(drawn) if count < capacities[t])[1]
        shared += drawn[table]
        drawn[table] += 1
    return shared


def count_meetings(partien: tuple[Partie, ...], players: int) -> tuple[int, tuple[int, ...]]:
    """``(repeat_pairs, distinct_opponents)`` of a seating, counted from scratch."""
    met = _meetings(partien, players)
    repeats = sum(max(0, met[a][b] - 1) for a, b in combinations(range(1, players + 1), 2))
    distinct = tuple(sum(1 for m in met[n] if m) for n in range(1, players + 1))
    return repeats, distinct


def fairness(partien: tuple[Partie, ...], players: int) -> tuple[int, tuple[int, ...]]:
    """``(max_pair_meetings, five_seats)`` of a seating, counted from scratch: how often the pair
    that meets most often meets, and for each number how often he sits at a table of 5 or 6."""
    met = _meetings(partien, players)
    most = max((max(row) for row in met), default=0)
    five = [0] * players
    for partie in partien:
        for table in partie:
            if len(table) >= 5:
                for n in table:
                    five[n - 1] += 1
    return most, tuple(five)


def _meetings(partien: tuple[Partie, ...], players: int) -> list[list[int]]:
    met = [[0] * (players + 1) for _ in range(players + 1)]
    for partie in partien:
        for table in partie:
            for a, b in combinations(table, 2):
                met[a][b] += 1
                met[b][a] += 1
    return met


def plan_seating(players: int, partien: int = 4, seed: int = 0, variant: str = FEWEST_REPEATS) -> SeatingPlan:
    """The seating plan for ``players`` numbers and ``partien`` Partien; the same arguments
    always give the same plan. Raises ``EngineError`` for arguments out of range.

    ``FEWEST_REPEATS`` (the default): the fewest repeat pairs the search reaches (the lower bound
    for every N up to 48 with 4 Partien), and among those the plan that (1) keeps the seats at
    tables of five closest together (``five_spread``), (2) maximises the fewest different
    opponents of any player, (3) minimises the most meetings of a pair, (4) spreads the seats at
    five evenly (sum of squares). ``AT_MOST_TWICE``: no pair meets more than twice and the seats
    at five at most two apart (where the search finds such a band), then the fewest repeats and
    the same criteria; where the search finds no plan without a pair meeting three times it
    raises ``EngineError`` (``no_plan``). ``FIVES_WITHIN_TWO`` (issue 30): the seats at five at
    most two apart, then the fewest repeats and the same criteria, a pair meeting as often as
    that takes; ``no_plan`` where no band of two is found.
    """
    sizes = table_sizes(players)
    check_int(partien, 1, MAX_PARTIEN, "partien", "Die Zahl der Partien")
    check_int(seed, 0, MAX_SEED, "seed", "Der Seed")
    if variant not in VARIANTS:
        raise EngineError("invalid_value", f"Unbekannte Planart '{variant}'.", "variant")
    bound = repeat_lower_bound(sizes, partien)
    band: tuple[int, int] | None = None
    if variant in (AT_MOST_TWICE, FIVES_WITHIN_TWO):
        # Seats at five within 2 (where any band is found), the fewest repeats in any such band;
        # the alternative's polish then puts no pair meeting a third time before the repeats.
        seats, band, state = _within_two(players, partien, seed)
    else:
        seats, state = _fewest_repeats(players, partien, seed)
    rng = random.Random()
    rng.setstate(state)
    search = _Search(sizes, partien, rng, [list(row) for row in seats])
    if variant == FEWEST_REPEATS and search.spread() > 1:
        # The default keeps its repeats and takes the narrowest band the search reaches with them.
        for width in (1, 2):
            balanced = _balanced(sizes, partien, search.seat, rng, width, search.repeats)
            if balanced is not None and balanced[0].repeats <= search.repeats:
                search, band = balanced
                break
    polish = _Polish(sizes, partien, search.seat, rng, at_most_twice=variant == AT_MOST_TWICE, band=band)
    polish.run()
    plan = tuple(_tables_of(partie_seats, len(sizes)) for partie_seats in polish.best_seats)
    repeats, distinct = count_meetings(plan, players)
    most, five = fairness(plan, players)
    if variant == AT_MOST_TWICE and most > 2:
        message = f"Für {players} Spieler ist kein Plan bekannt, in dem sich jedes Paar höchstens zweimal trifft."
        raise EngineError("no_plan", message, "variant")
    if variant == FIVES_WITHIN_TWO and max(five) - min(five) > 2:
        message = f"Für {players} Spieler ist kein Plan bekannt, der die Plätze am Fünfertisch auf zwei genau verteilt."
        raise EngineError("no_plan", message, "variant")
    return SeatingPlan(
        players=players,
        partien=plan,
        table_sizes=sizes,
        repeat_pairs=repeats,
        distinct_opponents=distinct,
        lower_bound=bound,
        seed=seed,
        max_pair_meetings=most,
        five_seats=five,
        variant=variant,
    )


# The steps every kind of plan of one (players, partien, seed) shares are run once (pure functions
# of their arguments, so caching them changes no plan): the repeat search, and for the two kinds
# within two the band search after it. Each returns the seats and the generator's state after it,
# from which ``plan_seating`` goes on exactly as if it had run them itself.
Seats = tuple[tuple[int, ...], ...]


@lru_cache(maxsize=8)
def _fewest_repeats(players: int, partien: int, seed: int) -> tuple[Seats, Any]:
    """Steps 1 to 5: the start and the repeat search down to the lower bound (or its budget)."""
    sizes = table_sizes(players)
    rng = random.Random(seed)
    start = _spread_seats(sizes, partien, rng) or _shifted_seats(sizes, partien, rng)
    search = _Search(sizes, partien, rng, start)
    search.minimise_repeats(repeat_lower_bound(sizes, partien))
    return tuple(tuple(row) for row in search.seat), rng.getstate()


@lru_cache(maxsize=8)
def _within_two(players: int, partien: int, seed: int) -> tuple[Seats, tuple[int, int] | None, Any]:
    """Step 6 with bands of width 2 from the repeat search: the fewest repeats in any band (None:
    no band could be entered, the repeat search's seats stay)."""
    sizes = table_sizes(players)
    seats, state = _fewest_repeats(players, partien, seed)
    rng = random.Random()
    rng.setstate(state)
    search = _Search(sizes, partien, rng, [list(row) for row in seats])
    balanced = _balanced(sizes, partien, search.seat, rng, 2, repeat_lower_bound(sizes, partien))
    if balanced is None:
        return seats, None, rng.getstate()
    return tuple(tuple(row) for row in balanced[0].seat), balanced[1], rng.getstate()


def plan_alternatives(default: SeatingPlan) -> tuple[SeatingPlan, ...]:
    """The plans to offer beside ``default``, each with its own promise:

    - ``AT_MOST_TWICE`` (issues 14 and 20) where the fewest repeats keep a pair together in every
      Partie or spread the seats at tables of five more than two apart: no pair meets more than
      twice and the seats at five lie at most two apart, for a few more repeats;
    - ``FIVES_WITHIN_TWO`` (issue 30) where the default spreads the seats at five more than two
      apart and holding them within two alone costs fewer repeats than the first: for 13, 14, 17,
      18 and 19 players 19, 21, 8, 11 and 12 repeats against 24, 30, 10, 16 and 18, a pair
      meeting three or four times. Not offered where the first one has as few repeats (it keeps
      both promises then).

    Empty where the default has neither flaw or no such plan is found."""
    offered: list[SeatingPlan] = []
    if default.pair_in_every_partie or default.five_spread > 2:
        with suppress(EngineError):
            offered.append(plan_seating(default.players, len(default.partien), default.seed, AT_MOST_TWICE))
    if default.five_spread > 2:
        try:
            fives = plan_seating(default.players, len(default.partien), default.seed, FIVES_WITHIN_TWO)
        except EngineError:
            fives = None
        if fives is not None and all(fives.repeat_pairs < plan.repeat_pairs for plan in offered):
            offered.append(fives)
    return tuple(offered)


def _tables_of(seat: list[int], tables: int) -> Partie:
    """Numbers (1-based) per table from a player -> table list, in print order."""
    members: list[list[int]] = [[] for _ in range(tables)]
    for player, table in enumerate(seat):
        members[table].append(player + 1)
    return tuple(sorted(tuple(m) for m in members))


def plan_document(players: Any, partien: Any = 4, games: Any = 40, seed: Any = 0) -> dict[str, Any]:
    """The ``plan_tournament`` result of spec §4 as a JSON-ready dict.

    Beside the spec's keys it names ``five_seats_spread`` (most minus fewest of ``five_seats``),
    ``variant`` (``fewest_repeats``), ``lower_bound``,
    ``games_per_table`` (games one table plays in a Partie, by table size: a table of 5 plays 5/4
    and one of 6 plays 6/4 of ``games`` so that everyone plays ``games``), ``alternatives``: the
    same keys of each plan ``plan_alternatives`` offers beside it (a list, empty where none), and
    ``alternative``: the one of those with the fewest repeats (null where none).
    Raises ``EngineError`` on invalid input; ``games`` must then be a multiple of 4 where tables of
    5 or 6 sit, so each player deals (and sits out) equally often.
    """
    sizes = table_sizes(players)
    check_int(partien, 1, MAX_PARTIEN, "partien", "Die Zahl der Partien")
    check_int(games, 1, MAX_GAMES, "games", "Die Zahl der Spiele")
    check_int(seed, 0, MAX_SEED, "seed", "Der Seed")
    if max(sizes) > 4 and games % 4:
        raise EngineError(
            "invalid_value",
            f"Mit Tischen zu fünft oder sechst muss die Spielzahl durch 4 teilbar sein (ist {games}), "
            "damit jeder gleich oft gibt und aussetzt.",
            "games",
        )
    plan = plan_seating(players, partien, seed)
    offered = plan_alternatives(plan)
    return {
        **_figures(plan),
        "lower_bound": plan.lower_bound,
        "games_per_table": {str(size): games * size // 4 for size in sorted(set(sizes))},
        # Issue 30: "the alternative" is the plan beside the default that holds the seats at five
        # within two at the fewest repeats (every offered plan holds them); null where none.
        "alternative": _figures(min(offered, key=lambda other: other.repeat_pairs)) if offered else None,
        "alternatives": [_figures(other) for other in offered],
    }


def _figures(plan: SeatingPlan) -> dict[str, Any]:
    """The spec §4 keys of one plan (numbers as string keys: JSON objects have string keys)."""
    return {
        "players": plan.players,
        "partien": [[list(table) for table in partie] for partie in plan.partien],
        "repeat_pairs": plan.repeat_pairs,
        "distinct_opponents": {str(n): count for n, count in enumerate(plan.distinct_opponents, start=1)},
        "min_distinct_opponents": plan.min_distinct_opponents,
        "max_pair_meetings": plan.max_pair_meetings,
        "five_seats": {str(n): count for n, count in enumerate(plan.five_seats, start=1)},
        "five_seats_spread": plan.five_spread,
        "variant": plan.variant,
    }


def _shifted_seats(sizes: tuple[int, ...], partien: int, rng: random.Random) -> list[list[int]] | None:
    """A plan from shifts in a group of order T (the number of tables), or None.

    Player index x (0-based) has slot ``x // T`` (0..3, and 4 for the players of the tables of 5)
    and sits at table ``x mod T`` in Partie 1. In Partie p he sits at table
    ``(x mod T) + shift[p][slot]`` (addition in the group), so every table gets one player of each
    slot and the tables of 5 stay five. Two players of slots i and k meet in Partie p exactly when
    their Partie-1 tables differ by ``shift[p][i] - shift[p][k]``; if that difference is different
    in every Partie for every two slots, no pair meets twice. This is the classic construction from
    orthogonal Latin squares, found here by a small search (``_find_shifts``). The group is Z_T,
    or (Z_2)^m where T is a power of two: Z_4 has no solution for 16 players, (Z_2)^2 (the field
    with four elements) has.

    Where shifts exist for slots 0..3 only, the players of slot 4 take slot 0's shift: each of
    them sits with the same slot-0 player in every Partie (``partien - 1`` repeats) and meets
    everyone else at most once. That is optimal for 17, 18 and 19 players (the Partie 1
    pigeonhole bound) and a good start for the tabu search elsewhere.
    """
    tables = len(sizes)
    if 6 in sizes:
        return None  # two or fewer tables: the search seats them
    groups = [False, True] if tables & (tables - 1) == 0 else [False]
    for slots in (5, 4) if 5 in sizes else (4,):
        for xor in groups:
            shift = _find_shifts(tables, slots, min(partien, tables), xor, rng)
            if shift is None:
                continue
            if slots == 4 and 5 in sizes:
                shift = [row + row[:1] for row in shift]
            return [
                [
                    (x % tables) ^ row[x // tables] if xor else (x % tables + row[x // tables]) % tables
                    for x in range(sum(sizes))
                ]
                for row in shift
            ]
    return None


def _spread_seats(sizes: tuple[int, ...], partien: int, rng: random.Random) -> list[list[int]] | None:
    """A repeat-free plan whose seats at tables of five are spread evenly, or None.

    From T tables on where five slots can be shifted (``_find_shifts``; T >= 5, so from 20 players)
    the construction seats 5T players at T tables of five without a repeat. Deleting T − f of
    them (f = the tables of five wanted) leaves the N = 4T + f players at tables of 4 and 5 — if
    the deleted ones never share a table, each table loses at most one. A player sits at a table
    of five exactly in the Partien in which he does not meet a deleted player, and he meets each
    at most once; so the deleted players are chosen (``_pick_removed``) so that every player
    meets about as many of them. The players left are numbered so that Partie 1 is the stride
    layout: number n at table (n − 1) mod T, the tables of five first.
    """
    tables, fives = len(sizes), sizes.count(5)
    if fives == 0 or max(sizes) > 5 or tables < 5 or partien > tables:
        return None
    found: tuple[int, list[list[int]], set[int]] | None = None
    for _ in range(_SPREAD_DESIGNS):  # designs differ in whom the left-out players meet
        shift = _find_shifts(tables, 5, partien, False, rng)
        if shift is None:
            return None
        design = [[(x % tables + row[x // tables]) % tables for x in range(5 * tables)] for row in shift]
        picked = _pick_removed(design, tables - fives, rng)
        if picked is not None and (found is None or picked[0] < found[0]):
            found = (picked[0], design, picked[1])
    if found is None:
        return None
    _cost, full, removed = found
    # Partie 1 puts x at column x mod T; the columns without a removed player become tables 0..f-1.
    short = sorted(x % tables for x in removed)
    label = {column: t for t, column in enumerate([c for c in range(tables) if c not in short] + short)}
    index: dict[int, int] = {}
    for x in sorted(set(range(5 * tables)) - removed, key=lambda x: (x // tables, x % tables)):
        column = label[x % tables]
        index[x] = column + tables * sum(1 for y in index if label[y % tables] == column)
    seats = [[0] * len(index) for _ in range(partien)]
    for x, i in index.items():
        for p in range(partien):
            seats[p][i] = full[p][x] if p else label[x % tables]
    return seats


def _pick_removed(full: list[list[int]], count: int, rng: random.Random) -> tuple[int, set[int]] | None:
    """``(cost, players)``: ``count`` players of the full plan ``full`` (player -> table per Partie)
    who never share a table, chosen so that the others meet as evenly many of them as possible
    (``cost``, the sum of squares of those counts, smallest): seeded hill climbs over single
    replacements; None when no such players were found."""
    players = len(full[0])
    tablemates = [{y for row in full for y in range(players) if y != x and row[y] == row[x]} for x in range(players)]

    def cost(chosen: set[int]) -> int:
        hits = [0] * players
        for v in chosen:
            for y in tablemates[v]:
                hits[y] += 1
        return sum(h * h for x, h in enumerate(hits) if x not in chosen)

    best_choice: set[int] | None = None
    best = 0
    for _ in range(_REMOVE_RESTARTS):
        order = list(range(players))
        rng.shuffle(order)
        chosen: set[int] = set()
        for x in order:
            if len(chosen) < count and not tablemates[x] & chosen:
                chosen.add(x)
        if len(chosen) < count:
            continue
        value = cost(chosen)
        improved = True
        while improved:
            improved = False
            for v in sorted(chosen):
                for x in order:
                    if x in chosen or tablemates[x] & (chosen - {v}):
                        continue
                    trial = (chosen - {v}) | {x}
                    trial_value = cost(trial)
                    if trial_value < value:
                        chosen, value, improved = trial, trial_value, True
                        break
        if best_choice is None or value < best:
            best_choice, best = chosen, value
    return None if best_choice is None else (best, best_choice)


def _find_shifts(tables: int, slots: int, partien: int, xor: bool, rng: random.Random) -> list[list[int]] | None:
    """Shifts ``shift[p][i]`` with ``shift[0][i] = shift[p][0] = 0`` such that for every two slots
    i > k the differences ``shift[p][i] - shift[p][k]`` are distinct over the Partien; None when
    none exists or the bounded search gives up. Backtracking, values tried in ``rng`` order."""
    if partien > tables:
        return None  # two slots need ``partien`` different differences among T group elements
    shift = [[0] * slots for _ in range(partien)]
    used = [[{0} for _ in range(slots)] for _ in range(slots)]  # used[k][i]: differences taken
    cells = [(p, i) for p in range(1, partien) for i in range(1, slots)]
    orders = [rng.sample(range(tables), tables) for _ in cells]
    budget = [_SHIFT_NODES]

    def extend(cell: int) -> bool:
        if cell == len(cells):
            return True
        p, i = cells[cell]
        for value in orders[cell]:
            budget[0] -= 1
            if budget[0] < 0:
                return False
            diffs = [value ^ shift[p][k] if xor else (value - shift[p][k]) % tables for k in range(i)]
            if any(d in used[k][i] for k, d in enumerate(diffs)):
                continue
            for k, d in enumerate(diffs):
                used[k][i].add(d)
            shift[p][i] = value
            if extend(cell + 1):
                return True
            for k, d in enumerate(diffs):
                used[k][i].discard(d)
        return False

    return shift if extend(0) else None


def _keeps_band(
    band: tuple[int, int] | None, five: list[int], big: list[bool], seat: list[int], a: int, b: int
) -> bool:
    """Swapping a and b in one Partie (``big``: its tables of five or six, ``seat``: its player ->
    table) leaves the seats at tables of five of both inside ``band``; always True without one."""
    if band is None:
        return True
    shift = big[seat[b]] - big[seat[a]]
    if not shift:
        return True
    low, high = band
    return low <= five[a] + shift <= high and low <= five[b] - shift <= high


def spread_bands(sizes: tuple[int, ...], partien: int, width: int) -> list[tuple[int, int]]:
    """The ``(fewest, most)`` seats at tables of five (or six) a player may hold so that they are
    at most ``width`` apart and can add up to what the tables seat, the most even first."""
    seats = partien * sum(size for size in sizes if size >= 5)
    players = sum(sizes)
    bands = [
        (low, low + width) for low in range(0, partien - width + 1) if low * players <= seats <= (low + width) * players
    ]
    return sorted(bands, key=lambda band: (abs((2 * band[0] + width) * players - 2 * seats), band[0]))


def _balanced(
    sizes: tuple[int, ...], partien: int, seats: list[list[int]], rng: random.Random, width: int, target: int
) -> tuple[_Search, tuple[int, int]] | None:
    """From the plan ``seats``, a search held to the first band of ``width`` (``spread_bands``)
    in which it reaches ``target`` repeats; else the band search with the fewest repeats, or None
    where no band can be entered. Reusable for any start (a re-plan's too)."""
    found: tuple[_Search, tuple[int, int]] | None = None
    for band in spread_bands(sizes, partien, width):
        search = _Search(sizes, partien, rng, seats)
        if not search.hold_band(band):
            continue
        search.minimise_repeats(target, _BAND_EVALUATIONS)
        if found is None or search.repeats < found[0].repeats:
            found = (search, band)
        if search.repeats <= target:
            break
    return found


class _Search:
    """Local search over swaps of two players between tables of one Partie (never Partie 1).

    State: ``seat[p][i]`` is player i's table in Partie p, ``met[i][j]`` how often i and j meet.
    Two caches make a swap's effect on ``repeats`` a handful of lookups: ``gain[p][i][t]`` counts
    the players at table t of Partie p whom i has met at all, ``loss[p][i]`` counts i's tablemates
    in Partie p whom i meets more than once. Swapping a (at table A) with b (at table B) in
    Partie p changes ``repeats`` by
    ``gain[p][a][B] + gain[p][b][A] - loss[p][a] - loss[p][b] - 2 * [a and b have met]``.
    """

    def __init__(self, sizes: tuple[int, ...], partien: int, rng: random.Random, start: list[list[int]] | None) -> None:
        self.sizes = sizes
        self.n = sum(sizes)
        self.partien = partien
        self.rng = rng
        self.evaluations = 0
        # The seats at tables of five (or six) each player may hold (``hold_band``); None: any.
        self.band: tuple[int, int] | None = None
        seats = [[player % len(sizes) for player in range(self.n)]]  # Partie 1: the stride layout
        if start is not None:
            seats += start[1:]
        self._load(seats)
        for p in range(len(seats), partien):
            self._greedy_partie(p)

    def _load(self, seats: list[list[int]]) -> None:
        """Reset the state to the given Partien (the later ones stay empty)."""
        n, tables = self.n, len(self.sizes)
        self.met = [[0] * n for _ in range(n)]
        self.seat = [[-1] * n for _ in range(self.partien)]
        self.members: list[list[list[int]]] = [[[] for _ in range(tables)] for _ in range(self.partien)]
        self.gain = [[[0] * tables for _ in range(n)] for _ in range(self.partien)]
        self.loss = [[0] * n for _ in range(self.partien)]
        self.repeats = 0
        # Which tables seat five or six: a construction may put them at any table number in the
        # later Partien (a swap never changes a table's size); a Partie not given is seated
        # greedily at tables of ``sizes``.
        self.big = [[size >= 5 for size in self.sizes] for _ in range(self.partien)]
        for p, row in enumerate(seats):
            self.big[p] = [row.count(t) >= 5 for t in range(tables)]
        self.five = [0] * n
        for p, row in enumerate(seats):
            for player, table in enumerate(row):
                self._seat(p, player, table)

    def spread(self) -> int:
        """Most minus fewest seats at tables of five (or six) of any player."""
        return max(self.five) - min(self.five)

    def hold_band(self, band: tuple[int, int]) -> bool:
        """Move every player's seats at tables of five into ``band`` (fewest, most) by swaps
        that each cost the fewest repeats (Partie 1 stays), and keep them there in every later
        search; False where the greedy moves cannot reach it (the state is then unusable)."""
        low, high = band
        five = self.five

        def outside(seats: int) -> int:
            return max(0, seats - high) + max(0, low - seats)

        while any(outside(seats) for seats in five):
            choice: tuple[int, int, int] | None = None
            best = ties = 0
            for p in range(1, self.partien):
                seat, big, gain, loss, met = self.seat[p], self.big[p], self.gain[p], self.loss[p], self.met
                for a in range(self.n):
                    if not big[seat[a]]:
                        continue
                    for b in range(self.n):
                        if big[seat[b]]:
                            continue
                        # a leaves a table of five for b's place, b takes his
                        if outside(five[a] - 1) + outside(five[b] + 1) >= outside(five[a]) + outside(five[b]):
                            continue
                        delta = gain[a][seat[b]] + gain[b][seat[a]] - loss[a] - loss[b] - (2 if met[a][b] else 0)
                        if choice is None or delta < best:
                            choice, best, ties = (p, a, b), delta, 1
                        elif delta == best:
                            ties += 1
                            if self.rng.randrange(ties) == 0:
                                choice = (p, a, b)
            if choice is None:
                return False
            self._swap(*choice)
        self.band = band
        return True

    def _keeps_band(self, p: int, a: int, b: int) -> bool:
        return _keeps_band(self.band, self.five, self.big[p], self.seat[p], a, b)

    def minimise_repeats(self, target: int, budget: int = _MAX_EVALUATIONS) -> None:
        """Tabu search until ``repeats`` reaches ``target`` or ``budget`` (swaps weighed) runs
        out; leaves the state at the best plan seen."""
        best = self.repeats
        best_seats = [row[:] for row in self.seat]
        tabu = [[[0] * len(self.sizes) for _ in range(self.n)] for _ in range(self.partien)]
        last_best = 0
        iteration = 0
        while best > target and self.evaluations < budget and iteration - last_best < _PATIENCE:
            iteration += 1
            move = self._best_move(tabu, iteration, best)
            if move is not None:
                p, a, b = move
                table_a, table_b = self.seat[p][a], self.seat[p][b]
                self._swap(p, a, b)
                low, high = _TENURE
                tabu[p][a][table_a] = iteration + self.rng.randint(low, high)
                tabu[p][b][table_b] = iteration + self.rng.randint(low, high)
            if self.repeats < best:
                best = self.repeats
                best_seats = [row[:] for row in self.seat]
                last_best = iteration
            elif (iteration - last_best) % _STALL == 0:
                # Tabu alone circles on the plateaus of the tight cases; a few random swaps
                # move it to a fresh part of the plateau.
                self._kick()
        if self.repeats > best:
            self._load(best_seats)

    def _best_move(self, tabu: list[list[list[int]]], iteration: int, best: int) -> tuple[int, int, int] | None:
        """The best non-tabu swap that moves a player out of a repeat (ties broken at random);
        a tabu swap is allowed when it would give a new best."""
        best_delta = 0
        choice: tuple[int, int, int] | None = None
        ties = 0
        met, rng, band = self.met, self.rng, self.band
        for p in range(1, self.partien):
            seat, members, gain, loss, tabu_p = self.seat[p], self.members[p], self.gain[p], self.loss[p], tabu[p]
            for a in range(self.n):
                loss_a = loss[a]
                if not loss_a:
                    continue
                table_a = seat[a]
                gain_a, met_a, tabu_a = gain[a], met[a], tabu_p[a]
                for table_b, players_b in enumerate(members):
                    if table_b == table_a:
                        continue
                    base = gain_a[table_b] - loss_a
                    self.evaluations += len(players_b)
                    a_tabu = tabu_a[table_b] > iteration
                    for b in players_b:
                        delta = base + gain[b][table_a] - loss[b] - (2 if met_a[b] else 0)
                        if (a_tabu or tabu_p[b][table_a] > iteration) and self.repeats + delta >= best:
                            continue
                        if band is not None and not self._keeps_band(p, a, b):
                            continue
                        if choice is None or delta < best_delta:
                            best_delta, choice, ties = delta, (p, a, b), 1
                        elif delta == best_delta:
                            ties += 1
                            if rng.randrange(ties) == 0:
                                choice = (p, a, b)
        return choice

    def _kick(self) -> None:
        for _ in range(_KICK_SWAPS):
            p = self.rng.randrange(1, self.partien)
            a, b = self.rng.sample(range(self.n), 2)
            if self.seat[p][a] != self.seat[p][b] and self._keeps_band(p, a, b):
                self._swap(p, a, b)

    def _greedy_partie(self, p: int) -> None:
        """Seat Partie p player by player (in random order) where he meets the fewest players
        already met; a start the tabu search then repairs."""
        order = list(range(self.n))
        self.rng.shuffle(order)
        tables = list(range(len(self.sizes)))
        for player in order:
            self.rng.shuffle(tables)
            free = [t for t in tables if len(self.members[p][t]) < self.sizes[t]]
            table = min(free, key=lambda t: sum(1 for x in self.members[p][t] if self.met[player][x]))
            self._seat(p, player, table)

    def _swap(self, p: int, a: int, b: int) -> None:
        table_a, table_b = self.seat[p][a], self.seat[p][b]
        self._unseat(p, a)
        self._unseat(p, b)
        self._seat(p, a, table_b)
        self._seat(p, b, table_a)

    def _seat(self, p: int, player: int, table: int) -> None:
        """Put an unseated player at ``table`` of Partie p: he meets its players."""
        for other in self.members[p][table]:
            self._change_met(player, other, +1)
        self._place(p, player, table)

    def _unseat(self, p: int, player: int) -> None:
        table = self.seat[p][player]
        self._remove(p, player)
        for other in self.members[p][table]:
            self._change_met(player, other, -1)

    def _place(self, p: int, player: int, table: int) -> None:
        """Membership only (meetings unchanged): update the caches that depend on who sits where."""
        met = self.met[player]
        for other in range(self.n):
            if met[other]:
                self.gain[p][other][table] += 1
        loss = self.loss[p]
        for other in self.members[p][table]:
            if met[other] >= 2:
                loss[other] += 1
                loss[player] += 1
        self.members[p][table].append(player)
        self.seat[p][player] = table
        self.five[player] += self.big[p][table]

    def _remove(self, p: int, player: int) -> None:
        table = self.seat[p][player]
        self.members[p][table].remove(player)
        self.seat[p][player] = -1
        self.five[player] -= self.big[p][table]
        met = self.met[player]
        for other in range(self.n):
            if met[other]:
                self.gain[p][other][table] -= 1
        loss = self.loss[p]
        for other in self.members[p][table]:
            if met[other] >= 2:
                loss[other] -= 1
                loss[player] -= 1

    def _change_met(self, a: int, b: int, step: int) -> None:
        """Add ``step`` (+1 or -1) meetings of a and b, keeping ``repeats`` and the caches true."""
        before = self.met[a][b]
        after = before + step
        self.met[a][b] = self.met[b][a] = after
        self.repeats += max(0, after - 1) - max(0, before - 1)
        if min(before, after) == 0:  # crossed 0 <-> 1: "has met" changed
            for p in range(self.partien):
                seat = self.seat[p]
                if seat[b] >= 0:
                    self.gain[p][a][seat[b]] += step
                if seat[a] >= 0:
                    self.gain[p][b][seat[a]] += step
        elif min(before, after) == 1:  # crossed 1 <-> 2: "meets again" changed
            for p in range(self.partien):
                seat = self.seat[p]
                if seat[a] >= 0 and seat[a] == seat[b]:
                    self.loss[p][a] += step
                    self.loss[p][b] += step


class _Polish:
    """Tabu search over swaps (never in Partie 1) for the fairest plan among those with the fewest
    repeats, starting from the repeat search's plan (issue 14).

    Plans are compared by the key ``(excess, repeats, spread of the seats at tables of 5 or more,
    -fewest different opponents, most meetings of a pair, sum of squared seats at tables of 5 or
    more)``, lexicographically; ``excess`` counts
    meetings of a pair beyond its second and is 0 unless ``at_most_twice``. The search itself
    follows a weighted sum of smooth stand-ins for these (each term's weight above what a swap can
    change in the terms after it) and keeps the best plan by the exact key, so the result is never
    worse than its start in any term before the first it improves. Given a ``band``
    (``_Search.hold_band``) it only tries swaps that keep every player's seats at five inside it.
    """

    _WEIGHTS = (10**9, 10**6, 1_000, 30, 1)  # excess, repeats, opponents, meetings, seats

    def __init__(
        self,
        sizes: tuple[int, ...],
        partien: int,
        seats: list[list[int]],
        rng: random.Random,
        *,
        at_most_twice: bool,
        band: tuple[int, int] | None = None,
    ) -> None:
        self.sizes = sizes
        self.band = band  # as in ``_Search.hold_band``: every swap keeps the seats at five inside
        self.n = n = sum(sizes)
        self.partien = partien
        self.rng = rng
        self.at_most_twice = at_most_twice
        # Which tables of each Partie seat five or six: the later Partien's construction puts them
        # at any table number, and a swap never changes a table's size.
        self.big = [[False] * len(sizes) for _ in range(partien)]
        # Most different opponents a player can meet; the stand-in for "fewest different
        # opponents" weighs each player's shortfall from it cubed, so the worst-off count most.
        self.ceiling = min(n - 1, partien * (max(sizes) - 1))
        self.seat = [row[:] for row in seats]
        self.members = [[[] for _ in sizes] for _ in range(partien)]
        self.met = [[0] * n for _ in range(n)]
        self.five = [0] * n
        for p, row in enumerate(self.seat):
            for player, table in enumerate(row):
                for other in self.members[p][table]:
                    self.met[player][other] += 1
                    self.met[other][player] += 1
                self.members[p][table].append(player)
        for p, tables in enumerate(self.members):
            for table, members in enumerate(tables):
                self.big[p][table] = len(members) >= 5
                for player in members:
                    self.five[player] += self.big[p][table]
        self.distinct = [sum(1 for m in row if m) for row in self.met]
        self.evaluations = 0
        self.best_key = self.key()
        self.best_seats = [row[:] for row in self.seat]

    def _ideal(self) -> bool:
        """No repeat and the seats at tables of five spread within one: nothing to improve (every
        player's different opponents are then his meetings, spread as evenly as they can be)."""
        return self.best_key[1] == 0 and max(self.five) - min(self.five) <= 1

    def key(self) -> tuple[int, ...]:
        met, n = self.met, self.n
        excess = repeats = most = 0
        for a in range(n):
            row = met[a]
            for b in range(a + 1, n):
                m = row[b]
                if m > 1:
                    repeats += m - 1
                    if m > 2:
                        excess += m - 2
                if m > most:
                    most = m
        squares = sum(f * f for f in self.five)
        spread = max(self.five) - min(self.five)
        return (excess if self.at_most_twice else 0, repeats, spread, -min(self.distinct), most, squares)

    def _pair_cost(self, m: int) -> int:
        """Cost of one pair meeting ``m`` times: excess, repeats and the square of the repeats."""
        if m < 2:
            return 0
        w_excess, w_repeat, _w_opp, w_meet, _w_seat = self._WEIGHTS
        excess = m - 2 if self.at_most_twice else 0
        return w_excess * excess + w_repeat * (m - 1) + w_meet * (m - 1) * (m - 1)

    def _opp_cost(self, d: int) -> int:
        short = self.ceiling - d
        return self._WEIGHTS[2] * short * short * short if short > 0 else 0

    def _delta(self, p: int, a: int, b: int) -> int:
        """Change of the weighted cost if a and b (at different tables of Partie p) swap."""
        table_a, table_b = self.seat[p][a], self.seat[p][b]
        met_a, met_b = self.met[a], self.met[b]
        pair_cost, opp_cost = self._pair_cost, self._opp_cost
        delta = 0
        d_a = d_b = 0
        distinct = self.distinct
        for x in self.members[p][table_a]:
            if x == a:
                continue
            # a leaves x, b joins x
            ma, mb = met_a[x], met_b[x]
            delta += pair_cost(ma - 1) - pair_cost(ma) + pair_cost(mb + 1) - pair_cost(mb)
            dx = (mb == 0) - (ma == 1)
            d_a -= ma == 1
            d_b += mb == 0
            if dx:
                delta += opp_cost(distinct[x] + dx) - opp_cost(distinct[x])
        for y in self.members[p][table_b]:
            if y == b:
                continue
            ma, mb = met_a[y], met_b[y]
            delta += pair_cost(mb - 1) - pair_cost(mb) + pair_cost(ma + 1) - pair_cost(ma)
            dy = (ma == 0) - (mb == 1)
            d_b -= mb == 1
            d_a += ma == 0
            if dy:
                delta += opp_cost(distinct[y] + dy) - opp_cost(distinct[y])
        if d_a:
            delta += opp_cost(distinct[a] + d_a) - opp_cost(distinct[a])
        if d_b:
            delta += opp_cost(distinct[b] + d_b) - opp_cost(distinct[b])
        shift = self.big[p][table_b] - self.big[p][table_a]
        if shift:
            f_a, f_b = self.five[a], self.five[b]
            delta += (f_a + shift) ** 2 - f_a * f_a + (f_b - shift) ** 2 - f_b * f_b
        self.evaluations += 1
        return delta

    def _swap(self, p: int, a: int, b: int) -> None:
        table_a, table_b = self.seat[p][a], self.seat[p][b]
        for player, old in ((a, table_a), (b, table_b)):
            self.members[p][old].remove(player)
            row = self.met[player]
            for other in self.members[p][old]:
                if other in (a, b):
                    continue
                row[other] -= 1
                self.met[other][player] -= 1
                if row[other] == 0:
                    self.distinct[player] -= 1
                    self.distinct[other] -= 1
        for player, old, new in ((a, table_a, table_b), (b, table_b, table_a)):
            row = self.met[player]
            for other in self.members[p][new]:
                if other in (a, b):
                    continue
                if row[other] == 0:
                    self.distinct[player] += 1
                    self.distinct[other] += 1
                row[other] += 1
                self.met[other][player] += 1
            self.members[p][new].append(player)
            self.seat[p][player] = new
            self.five[player] += self.big[p][new] - self.big[p][old]

    def run(self) -> None:
        """Tabu search until the budget or the patience runs out; ``best_seats`` holds the best
        plan by ``key``."""
        if self.partien < 2 or len(self.sizes) < 2 or self._ideal():
            return
        tabu = [[[0] * len(self.sizes) for _ in range(self.n)] for _ in range(self.partien)]
        iteration = last_best = 0
        cost = 0  # relative to the start: only differences matter
        best_cost = 0
        while self.evaluations < _POLISH_EVALUATIONS and iteration - last_best < _POLISH_PATIENCE:
            iteration += 1
            move = self._best_move(tabu, iteration, cost, best_cost)
            if move is None:
                break
            delta, p, a, b = move
            table_a, table_b = self.seat[p][a], self.seat[p][b]
            self._swap(p, a, b)
            cost += delta
            low, high = _TENURE
            tabu[p][a][table_a] = iteration + self.rng.randint(low, high)
            tabu[p][b][table_b] = iteration + self.rng.randint(low, high)
            best_cost = min(best_cost, cost)
            key = self.key()
            if key < self.best_key:
                self.best_key = key
                self.best_seats = [row[:] for row in self.seat]
                last_best = iteration
            elif (iteration - last_best) % _STALL == 0:
                cost += self._kick()

    def _best_move(
        self, tabu: list[list[list[int]]], iteration: int, cost: int, best_cost: int
    ) -> tuple[int, int, int, int] | None:
        """The best non-tabu swap (ties broken at random); a tabu swap only for a new best cost."""
        choice: tuple[int, int, int, int] | None = None
        ties = 0
        for p in range(1, self.partien):
            seat, tabu_p = self.seat[p], tabu[p]
            for a in range(self.n):
                table_a = seat[a]
                for b in range(a + 1, self.n):
                    table_b = seat[b]
                    if table_b == table_a:
                        continue
                    if self.band is not None and not _keeps_band(self.band, self.five, self.big[p], seat, a, b):
                        continue
                    delta = self._delta(p, a, b)
                    if (tabu_p[a][table_b] > iteration or tabu_p[b][table_a] > iteration) and cost + delta >= best_cost:
                        continue
                    if choice is None or delta < choice[0]:
                        choice, ties = (delta, p, a, b), 1
                    elif delta == choice[0]:
                        ties += 1
                        if self.rng.randrange(ties) == 0:
                            choice = (delta, p, a, b)
        return choice

    def _kick(self) -> int:
        """A few random swaps; returns their change of the weighted cost."""
        change = 0
        for _ in range(_KICK_SWAPS):
            p = self.rng.randrange(1, self.partien)
            a, b = self.rng.sample(range(self.n), 2)
            if self.seat[p][a] != self.seat[p][b] and _keeps_band(
                self.band, self.five, self.big[p], self.seat[p], a, b
            ):
                change += self._delta(p, a, b)
                self._swap(p, a, b)
        return change


# --- re-planning after a withdrawal or a late addition (issue 20) ----------------------------------

# The re-plan's search budget, like the plan's: counts of work, never a clock.
_REPLAN_EVALUATIONS = 400_000
_REPLAN_PATIENCE = 400


@dataclass(frozen=True)
class Replan:
    """The whole plan after re-planning: ``partien`` are the played Partien as they were, then
    the new ones for ``players`` (the numbers who play on, ascending; a gap is a withdrawn
    number, a number above the old ones a late player). ``repeat_pairs`` counts over all
    Partien and all numbers; ``lower_bound`` is the played Partien's repeats plus a proven lower
    bound on the repeats the remaining Partien add (``replan_lower_bound``). ``five_seats`` maps
    every number that sits anywhere to his seats at tables of five or six, over all Partien.
    ``variant`` is the kind of plan the re-plan was asked to keep (issue 30), ``keeps_variant``
    whether it does."""

    players: tuple[int, ...]
    played: int
    partien: tuple[Partie, ...]
    table_sizes: tuple[int, ...]
    repeat_pairs: int
    lower_bound: int
    seed: int
    distinct_opponents: dict[int, int]
    max_pair_meetings: int
    five_seats: dict[int, int]
    variant: str = FEWEST_REPEATS

    @property
    def optimal(self) -> bool:
        return self.repeat_pairs == self.lower_bound

    @property
    def five_spread(self) -> int:
        """Most minus fewest seats at tables of five (or six), over all Partien, of the players
        who play on (a withdrawn player's are history; a late player's count from his start)."""
        seats = [self.five_seats[n] for n in self.players]
        return max(seats) - min(seats)

    @property
    def keeps_variant(self) -> bool:
        return keeps_promise(self.variant, self.max_pair_meetings, self.five_spread)

    def rank(self) -> tuple[int, ...]:
        """How well the plan keeps its kind, then its repeats: smaller is better."""
        squares = sum(_square(m) for m in _pair_counts(self.partien).values())
        over = max(0, self.five_spread - 2) if self.variant != FEWEST_REPEATS else 0
        excess = max(0, self.max_pair_meetings - 2) if self.variant == AT_MOST_TWICE else 0
        five = sum(self.five_seats[n] ** 2 for n in self.players)
        return excess, over, self.repeat_pairs, squares, five


def keeps_promise(variant: str, max_pair_meetings: int, five_spread: int) -> bool:
    """Whether a plan with these figures keeps what its kind promises the organiser: nothing for
    the fewest repeats, no pair more than twice and the seats at five within two for
    ``AT_MOST_TWICE``, the seats at five within two for ``FIVES_WITHIN_TWO``."""
    if variant == AT_MOST_TWICE:
        return max_pair_meetings <= 2 and five_spread <= 2
    if variant == FIVES_WITHIN_TWO:
        return five_spread <= 2
    return True


def _pair_counts(partien: tuple[Partie, ...]) -> dict[tuple[int, int], int]:
    met: dict[tuple[int, int], int] = {}
    for partie in partien:
        for table in partie:
            for a, b in combinations(sorted(table), 2):
                met[(a, b)] = met.get((a, b), 0) + 1
    return met


def _check_played(played: Any, players: Any, partien: Any) -> tuple[tuple[Partie, ...], tuple[int, ...]]:
    """The played Partien and the numbers who play on, checked; ``EngineError`` otherwise."""
    check_int(partien, 1, MAX_PARTIEN, "partien", "Die Zahl der Partien")
    if not isinstance(played, (list, tuple)) or not isinstance(players, (list, tuple)):
        raise EngineError("invalid_type", "Gespielte Partien und Spieler sind Listen.", "played")
    if not 1 <= len(played) < partien:
        raise EngineError("invalid_value", "Neu geplant wird nach der ersten und vor der letzten Partie.", "played")
    done: list[Partie] = []
    for index, partie in enumerate(played):
        seated = [n for table in partie for n in table]
        if not seated or any(isinstance(n, bool) or not isinstance(n, int) or n < 1 for n in seated):
            raise EngineError("invalid_value", f"Partie {index + 1}: Nummern sind ganze Zahlen ab 1.", "played")
        if len(set(seated)) != len(seated):
            raise EngineError("invalid_value", f"Partie {index + 1}: eine Nummer sitzt zweimal.", "played")
        done.append(tuple(tuple(sorted(table)) for table in partie))
    for n in players:
        check_int(n, 1, MAX_PLAYERS * 2, "players", "Eine Nummer")
    if len(set(players)) != len(players):
        raise EngineError("invalid_value", "Jede Nummer spielt nur einmal.", "players")
    table_sizes(len(players))  # refuses a number of players no tables seat
    return tuple(done), tuple(sorted(players))


def replan_lower_bound(played: tuple[Partie, ...], players: tuple[int, ...], sizes: tuple[int, ...], left: int) -> int:
    """A lower bound on the repeats that ``left`` more Partien at tables ``sizes`` add to the
    played ones for ``players``, the larger of two arguments valid for every seating:

    1. *Pigeonhole* (as in ``repeat_lower_bound``): each played Partie splits the players who
       play on into groups (a late player is a group of his own); a new table of s players drawn
       from those groups holds at least ``_fewest_shared_pairs`` pairs that met already, and
       every table of the second new Partie on likewise against the first new one's tables.
    2. *Opponent count*: a player meets at least 3 a Partie, at most the players he has not met
       yet for the first time; the extra meetings at tables of five or six go, at best, to
       whoever has the most unmet players left. Each repeat counts for two players.
    """
    active = set(players)
    groups = []
    for partie in played:
        caps = [sum(1 for n in table if n in active) for table in partie]
        seated = {n for table in partie for n in table}
        caps += [1] * len(active - seated)
        groups.append(tuple(c for c in caps if c))
    first = max((sum(_fewest_shared_pairs(size, caps) for size in sizes) for caps in groups), default=0)
    later = sum(_fewest_shared_pairs(size, sizes) for size in sizes)
    pigeonhole = first + (left - 1) * max(first, later)

    met = _pair_counts(played)
    fresh = []
    for n in players:
        known = sum(1 for m in players if m != n and met.get((min(n, m), max(n, m)), 0))
        fresh.append(len(players) - 1 - known - 3 * left)  # slack: first meetings still to spare
    extra = sum(size * (size - 4) for size in sizes) * left
    for _ in range(extra):  # each extra meeting where it costs least (the excess is convex)
        i = max(range(len(fresh)), key=lambda k: fresh[k])
        fresh[i] -= 1
    counting = (sum(-slack for slack in fresh if slack < 0) + 1) // 2
    bound = max(pigeonhole, counting)
    exact = _exact_remaining(met, players, sizes, left, bound)
    return bound if exact is None else exact


# Up to this many ways to seat one Partie the fewest repeats of the last one or two Partien are
# found by exhaustive search (12 players: 5,775 seatings; 13: 45,045).
_EXACT_PARTITIONS = 50_000


def _exact_remaining(
    met: dict[tuple[int, int], int], players: tuple[int, ...], sizes: tuple[int, ...], left: int, floor: int
) -> int | None:
    """The fewest repeats ``left`` (1 or 2) new Partien can add, by exhaustive search over every
    seating of a Partie (branch and bound: seatings by their own repeats, ascending), or None
    where there are too many seatings or Partien for that. ``floor`` is a known lower bound: a
    seating pair reaching it ends the search."""
    if left > 2 or _count_partitions(len(players), sizes) > _EXACT_PARTITIONS:
        return None
    n = len(players)
    bit = {}
    for i, j in combinations(range(n), 2):
        bit[(i, j)] = 1 << len(bit)
    known = 0
    for (i, j), b in bit.items():
        if met.get((players[i], players[j]), 0):
            known |= b
    seatings = []
    for tables in _partitions(tuple(range(n)), tuple(sorted(sizes))):
        mask = 0
        for table in tables:
            for pair in combinations(table, 2):
                mask |= bit[pair]
        seatings.append(((mask & known).bit_count(), mask))
    seatings.sort()
    if left == 1:
        return seatings[0][0]
    best = None
    for k, (own, mask) in enumerate(seatings):
        if best is not None and 2 * own >= best:
            break
        for other, mask_q in seatings[k:]:
            if best is not None and own + other >= best:
                break
            total = own + other + (mask & mask_q & ~known).bit_count()
            if best is None or total < best:
                best = total
                if best <= floor:
                    return best
    return best


def _count_partitions(n: int, sizes: tuple[int, ...]) -> int:
    """How many ways ``n`` players sit at tables of ``sizes`` (tables of one size interchangeable)."""
    count = factorial(n)
    for size in sizes:
        count //= factorial(size)
    for size in set(sizes):
        count //= factorial(sizes.count(size))
    return count


def _partitions(players: tuple[int, ...], sizes: tuple[int, ...]) -> Any:
    """Every seating of ``players`` at tables of ``sizes``, each once: the first player takes a
    table of each size in turn, with every choice of its other players."""
    if not players:
        yield ()
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes)):
        remaining = list(sizes)
        remaining.remove(size)
        for others in combinations(rest, size - 1):
            table = (first, *others)
            left = tuple(p for p in rest if p not in others)
            for tables in _partitions(left, tuple(remaining)):
                yield (table, *tables)


def replan_seating(played: Any, players: Any, partien: Any = 4, seed: Any = 0, variant: Any = FEWEST_REPEATS) -> Replan:
    """Plan the Partien after ``played`` (each a list of tables of numbers, as they were played)
    for the numbers ``players`` who play on, up to ``partien`` in all: every one of them sits
    exactly once in each new Partie, nobody else does, and the played Partien stay as they were.
    ``FEWEST_REPEATS``: the search minimises the repeats over all Partien (aiming at
    ``replan_lower_bound``), then spreads the seats at tables of five as evenly as it can. The
    other kinds keep their promise first (issue 30: the organiser's choice survives a withdrawal):
    ``AT_MOST_TWICE`` no pair meeting a third time, then the seats at five of the players who play
    on within two; ``FIVES_WITHIN_TWO`` only the latter; each tried in every band of two
    (``_replan_bands``) and the best kept. Where the played Partien make the promise impossible the
    plan comes as close as it can and ``keeps_variant`` says so. Same arguments, same plan.
    Raises ``EngineError`` on invalid input."""
    done, numbers = _check_played(played, players, partien)
    check_int(seed, 0, MAX_SEED, "seed", "Der Seed")
    if variant not in VARIANTS:
        raise EngineError("invalid_value", f"Unbekannte Planart '{variant}'.", "variant")
    sizes = table_sizes(len(numbers))
    left = partien - len(done)
    bound = replan_lower_bound(done, numbers, sizes, left)
    if variant == FEWEST_REPEATS:
        search = _Replan(done, numbers, sizes, left, random.Random(seed))
        search.run(bound)
        return _replan_result(done, numbers, sizes, search.best, seed, bound, variant)
    best: Replan | None = None
    for band in _replan_bands(done, numbers, sizes, left) or [None]:
        search = _Replan(
            done, numbers, sizes, left, random.Random(seed), at_most_twice=variant == AT_MOST_TWICE, band=band
        )
        search.run(bound)
        result = _replan_result(done, numbers, sizes, search.best, seed, bound, variant)
        if best is None or result.rank() < best.rank():
            best = result
        if best.keeps_variant and best.optimal:
            break  # the most even band that keeps the promise at the fewest repeats possible
    assert best is not None
    return best


def _replan_result(
    done: tuple[Partie, ...],
    numbers: tuple[int, ...],
    sizes: tuple[int, ...],
    tables: list[list[list[int]]],
    seed: int,
    bound: int,
    variant: str,
) -> Replan:
    """The whole plan and its figures from a search's new Partien (player indices per table)."""
    new = tuple(tuple(sorted(tuple(sorted(numbers[i] for i in table)) for table in partie)) for partie in tables)
    whole = done + new
    met = _pair_counts(whole)
    everyone = sorted({n for partie in whole for table in partie for n in table})
    five = {n: 0 for n in everyone}
    for partie in whole:
        for table in partie:
            if len(table) >= 5:
                for n in table:
                    five[n] += 1
    opponents = {n: 0 for n in everyone}
    for a, b in met:
        opponents[a] += 1
        opponents[b] += 1
    return Replan(
        players=numbers,
        played=len(done),
        partien=whole,
        table_sizes=sizes,
        repeat_pairs=sum(m - 1 for m in met.values()),
        lower_bound=sum(m - 1 for m in _pair_counts(done).values()) + bound,
        seed=seed,
        distinct_opponents=opponents,
        max_pair_meetings=max(met.values(), default=0),
        five_seats=five,
        variant=variant,
    )


def _replan_bands(
    done: tuple[Partie, ...], numbers: tuple[int, ...], sizes: tuple[int, ...], left: int, width: int = 2
) -> list[tuple[int, int]]:
    """The bands ``(fewest, most)`` of seats at tables of five, ``width`` apart, that every player
    who plays on can end in: his played seats at five plus at most one a new Partie, the seats of
    the new Partien all taken. The most even first."""
    active = set(numbers)
    played = dict.fromkeys(numbers, 0)
    for partie in done:
        for table in partie:
            if len(table) >= 5:
                for n in table:
                    if n in active:
                        played[n] += 1
    seats = left * sum(size for size in sizes if size >= 5)
    counts = list(played.values())
    bands = []
    for low in range(0, max(counts) + left + 1):
        high = low + width
        if any(f > high or f + left < low for f in counts):
            continue
        need = sum(max(0, low - f) for f in counts)
        room = sum(min(left, high - f) for f in counts)
        if need <= seats <= room:
            bands.append((low, high))
    total = sum(counts) + seats
    return sorted(bands, key=lambda band: (abs((2 * band[0] + width) * len(counts) - 2 * total), band[0]))


def replan_document(
    played: Any, players: Any, partien: Any = 4, games: Any = 40, seed: Any = 0, variant: Any = FEWEST_REPEATS
) -> dict[str, Any]:
    """``replan_seating`` of the kind ``variant`` (the one the organiser had chosen, issue 30) as
    the plan document ``plan_document`` writes (the keys the plan page, its PDF and the Partie start
    read), with ``replanned_after`` (the Partien kept), ``variant_kept`` (whether the new plan keeps
    its kind's promise; where not, the page warns) and ``alternatives``: where the organiser had
    chosen another kind than the fewest repeats, the re-plan with the fewest repeats and the third
    kind where ``plan_alternatives``' rule offers it (a pair in every Partie, or the seats at five
    more than two apart, in the fewest repeats' re-plan); none that is no better in any figure than
    one listed before it. The owner may take one of them before the next Partie. A re-plan of the
    fewest repeats offers nothing beside it, as before (one search, not three). Numbers that sit
    nowhere any more are left out of the per-number figures."""
    check_int(games, 1, MAX_GAMES, "games", "Die Zahl der Spiele")
    plan = replan_seating(played, players, partien, seed, variant)
    if max(plan.table_sizes) > 4 and games % 4:
        raise EngineError(
            "invalid_value",
            f"Mit Tischen zu fünft oder sechst muss die Spielzahl durch 4 teilbar sein (ist {games}), "
            "damit jeder gleich oft gibt und aussetzt.",
            "games",
        )
    offered: list[Replan] = []
    if variant != FEWEST_REPEATS:
        offered.append(replan_seating(played, players, partien, seed))
        other = FIVES_WITHIN_TWO if variant == AT_MOST_TWICE else AT_MOST_TWICE
        default = offered[0]
        if default.five_spread > 2 or (other == AT_MOST_TWICE and default.max_pair_meetings >= partien >= 3):
            candidate = replan_seating(played, players, partien, seed, other)
            if candidate.keeps_variant:
                offered.append(candidate)
    # A plan no better than one already listed in repeats, meetings of a pair and spread is no choice.
    listed = [plan]
    for candidate in offered:
        if not any(_no_worse(shown, candidate) for shown in listed):
            listed.append(candidate)
    offered = listed[1:]
    sizes = {len(table) for partie in plan.partien for table in partie}
    return {
        **_replan_figures(plan),
        "lower_bound": plan.lower_bound,
        "games_per_table": {str(size): games * size // 4 for size in sorted(sizes)},
        "alternatives": [_replan_figures(other) for other in offered],
        "replanned_after": plan.played,
    }


def _no_worse(plan: Replan, other: Replan) -> bool:
    """``plan`` is at least as good as ``other`` in the figures the organiser compares."""
    return (
        plan.repeat_pairs <= other.repeat_pairs
        and plan.max_pair_meetings <= other.max_pair_meetings
        and plan.five_spread <= other.five_spread
    )


def _replan_figures(plan: Replan) -> dict[str, Any]:
    """The document keys of one re-plan: ``_figures``' keys (per number only who sits somewhere)
    and ``variant_kept``."""
    return {
        "players": len(plan.players),
        "partien": [[list(table) for table in partie] for partie in plan.partien],
        "repeat_pairs": plan.repeat_pairs,
        "distinct_opponents": {str(n): count for n, count in plan.distinct_opponents.items()},
        "min_distinct_opponents": min(plan.distinct_opponents[n] for n in plan.players),
        "max_pair_meetings": plan.max_pair_meetings,
        "five_seats": {str(n): count for n, count in plan.five_seats.items()},
        "five_seats_spread": plan.five_spread,
        "variant": plan.variant,
        "variant_kept": plan.keeps_variant,
    }


def _square(meetings: int) -> int:
    """A pair's repeats, squared."""
    return (meetings - 1) ** 2 if meetings > 1 else 0


class _Replan:
    """Tabu search over swaps of two players between tables of one new Partie, the played
    Partien fixed. Seatings are compared by ``(excess, outside, repeats, squares, five)``: the
    meetings of pairs beyond their second (only ``at_most_twice``), the seats at five outside
    ``band`` summed over the players (only with a band; issue 30: the organiser's kind of plan
    kept), the repeats, then the sum over pairs of the square of their repeats (a pair meeting a
    third or fourth time costs more than two pairs meeting twice: issue 14's "the most frequent
    pair meets the fewest times"), then the sum of squared seats at tables of five over all
    Partien (their spread). The search follows the weighted sum of the five."""

    _EXCESS = 10**12
    _OUTSIDE = 10**9
    _REPEAT = 1_000_000
    _MEET = 1_000

    def __init__(
        self,
        played: tuple[Partie, ...],
        numbers: tuple[int, ...],
        sizes: tuple[int, ...],
        left: int,
        rng: random.Random,
        *,
        at_most_twice: bool = False,
        band: tuple[int, int] | None = None,
    ) -> None:
        self.n = n = len(numbers)
        self.sizes, self.left, self.rng = sizes, left, rng
        self.at_most_twice, self.band = at_most_twice, band
        index = {number: i for i, number in enumerate(numbers)}
        self.met = [[0] * n for _ in range(n)]
        self.five = [0] * n
        for partie in played:
            for table in partie:
                here = [index[x] for x in table if x in index]
                for a, b in combinations(here, 2):
                    self.met[a][b] += 1
                    self.met[b][a] += 1
                if len(table) >= 5:
                    for a in here:
                        self.five[a] += 1
        self.big = [size >= 5 for size in sizes]
        self.seat = [[-1] * n for _ in range(left)]
        self.members: list[list[list[int]]] = [[[] for _ in sizes] for _ in range(left)]
        self.repeats = 0
        self.squares = sum(_square(m) for row in self.met for m in row) // 2
        self.excess = sum(max(0, m - 2) for row in self.met for m in row) // 2
        for p in range(left):
            self._greedy(p)
        self.evaluations = 0
        self.best_key = self._key()
        self.best = self._tables()
        self.best_spread = max(self.five) - min(self.five)

    def _outside(self, seats: int) -> int:
        """How far ``seats`` at tables of five lie outside the band (0 without one)."""
        if self.band is None:
            return 0
        low, high = self.band
        return max(0, seats - high) + max(0, low - seats)

    def _key(self) -> tuple[int, int, int, int, int]:
        excess = self.excess if self.at_most_twice else 0
        outside = sum(self._outside(f) for f in self.five)
        return excess, outside, self.repeats, self.squares, sum(f * f for f in self.five)

    def _tables(self) -> list[list[list[int]]]:
        return [[list(table) for table in tables] for tables in self.members]

    def _greedy(self, p: int) -> None:
        """Seat Partie p player by player (the least free first) where he meets the fewest he has met."""
        order = list(range(self.n))
        self.rng.shuffle(order)
        tables = list(range(len(self.sizes)))
        for player in order:
            self.rng.shuffle(tables)
            free = [t for t in tables if len(self.members[p][t]) < self.sizes[t]]
            table = min(free, key=lambda t: sum(1 for x in self.members[p][t] if self.met[player][x]))
            self._sit(p, player, table, +1)

    def _sit(self, p: int, player: int, table: int, step: int) -> None:
        """Seat (step +1) or unseat (step -1) a player at ``table`` of new Partie p."""
        if step < 0:
            self.members[p][table].remove(player)
        for other in self.members[p][table]:
            before = self.met[player][other]
            after = before + step
            self.met[player][other] = self.met[other][player] = after
            self.repeats += max(0, after - 1) - max(0, before - 1)
            self.squares += _square(after) - _square(before)
            self.excess += max(0, after - 2) - max(0, before - 2)
        self.five[player] += step * self.big[table]
        if step > 0:
            self.members[p][table].append(player)
            self.seat[p][player] = table

    def _delta(self, p: int, a: int, b: int) -> int:
        table_a, table_b = self.seat[p][a], self.seat[p][b]
        met_a, met_b = self.met[a], self.met[b]
        repeats = squares = excess = 0
        for x in self.members[p][table_a]:
            if x != a:  # a leaves x, b joins x
                m_a, m_b = met_a[x], met_b[x]
                repeats += (m_b >= 1) - (m_a >= 2)
                squares += _square(m_b + 1) - _square(m_b) + _square(m_a - 1) - _square(m_a)
                excess += (m_b >= 2) - (m_a >= 3)
        for y in self.members[p][table_b]:
            if y != b:
                m_a, m_b = met_a[y], met_b[y]
                repeats += (m_a >= 1) - (m_b >= 2)
                squares += _square(m_a + 1) - _square(m_a) + _square(m_b - 1) - _square(m_b)
                excess += (m_a >= 2) - (m_b >= 3)
        shift = self.big[table_b] - self.big[table_a]
        f_a, f_b = self.five[a], self.five[b]
        five = outside = 0
        if shift:
            five = (f_a + shift) ** 2 - f_a * f_a + (f_b - shift) ** 2 - f_b * f_b
            if self.band is not None:
                out = self._outside
                outside = out(f_a + shift) - out(f_a) + out(f_b - shift) - out(f_b)
        self.evaluations += 1
        cost = self._REPEAT * repeats + self._MEET * squares + five + self._OUTSIDE * outside
        return cost + self._EXCESS * excess if self.at_most_twice else cost

    def _swap(self, p: int, a: int, b: int) -> None:
        table_a, table_b = self.seat[p][a], self.seat[p][b]
        self._sit(p, a, table_a, -1)
        self._sit(p, b, table_b, -1)
        self._sit(p, a, table_b, +1)
        self._sit(p, b, table_a, +1)

    def run(self, bound: int) -> None:
        """Tabu search until the seating keeps its kind (no excess, nobody outside the band), the
        repeats reach ``bound``, no pair meets more than twice and the five-seats are within one of
        each other, or the budget or the patience runs out; ``best`` holds the best seating by key."""
        if len(self.sizes) < 2:
            return
        tabu = [[[0] * len(self.sizes) for _ in range(self.n)] for _ in range(self.left)]
        iteration = last_best = 0
        cost = best_cost = 0
        while (
            self.evaluations < _REPLAN_EVALUATIONS
            and iteration - last_best < _REPLAN_PATIENCE
            and not (
                self.best_key[:2] == (0, 0)
                and self.best_key[2] <= bound
                and self.best_key[3] == self.best_key[2]
                and self.best_spread <= 1
            )
        ):
            iteration += 1
            choice: tuple[int, int, int, int] | None = None
            ties = 0
            for p in range(self.left):
                seat, tabu_p = self.seat[p], tabu[p]
                for a in range(self.n):
                    for b in range(a + 1, self.n):
                        if seat[a] == seat[b]:
                            continue
                        delta = self._delta(p, a, b)
                        if (
                            tabu_p[a][seat[b]] > iteration or tabu_p[b][seat[a]] > iteration
                        ) and cost + delta >= best_cost:
                            continue
                        if choice is None or delta < choice[0]:
                            choice, ties = (delta, p, a, b), 1
                        elif delta == choice[0]:
                            ties += 1
                            if self.rng.randrange(ties) == 0:
                                choice = (delta, p, a, b)
            if choice is None:
                break
            delta, p, a, b = choice
            table_a, table_b = self.seat[p][a], self.seat[p][b]
            self._swap(p, a, b)
            cost += delta
            best_cost = min(best_cost, cost)
            low, high = _TENURE
            tabu[p][a][table_a] = iteration + self.rng.randint(low, high)
            tabu[p][b][table_b] = iteration + self.rng.randint(low, high)
            key = self._key()
            if key < self.best_key:
                self.best_key, self.best, last_best = key, self._tables(), iteration
                self.best_spread = max(self.five) - min(self.five)
            elif (iteration - last_best) % _STALL == 0:
                for _ in range(_KICK_SWAPS):
                    p = self.rng.randrange(self.left)
                    a, b = self.rng.sample(range(self.n), 2)
                    if self.seat[p][a] != self.seat[p][b]:
                        cost += self._delta(p, a, b)
                        self._swap(p, a, b)
