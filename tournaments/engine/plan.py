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

Pure: no Django, no I/O, no clock. It does not draw numbers or seats (the club draws those by lot)
and it seats tables of 4 and 5 only (spec §4): the club's rules (001) have no Schafkopf for three,
and tables of 6 (001 §7.2) are not planned, so 6, 7 and 11 players are refused.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from scoring.engine.core import EngineError
from scoring.engine.fields import check_int

MAX_PLAYERS = 200
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

Table = tuple[int, ...]
Partie = tuple[Table, ...]


@dataclass(frozen=True)
class SeatingPlan:
    """A plan for ``players`` numbers over ``len(partien)`` Partien.

    ``partien[p][t]`` lists the numbers at table t of Partie p+1, ascending; the tables of a
    Partie are ordered by their smallest number. ``table_sizes`` are the sizes, the same multiset
    in every Partie. ``distinct_opponents[n - 1]`` is how many different players number n meets.
    """

    players: int
    partien: tuple[Partie, ...]
    table_sizes: tuple[int, ...]
    repeat_pairs: int
    distinct_opponents: tuple[int, ...]
    lower_bound: int
    seed: int

    @property
    def optimal(self) -> bool:
        """True when no plan with these tables can have fewer repeat pairs."""
        return self.repeat_pairs == self.lower_bound


def table_sizes(players: int) -> tuple[int, ...]:
    """The tables of one Partie, largest first: ``players mod 4`` tables of 5, the rest of 4.

    Raises ``EngineError`` where that is impossible (6, 7 and 11 players: more tables of 5 would
    be needed than there are tables).
    """
    check_int(players, 4, MAX_PLAYERS, "players", "Die Spielerzahl")
    tables, fives = divmod(players, 4)
    if fives > tables:
        raise EngineError(
            "players_not_seatable",
            f"{players} Spieler lassen sich nicht auf Tische zu 4 und 5 verteilen "
            "(möglich sind 4, 5, 8, 9, 10 und ab 12 Spieler).",
            "players",
        )
    return (5,) * fives + (4,) * (tables - fives)


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
       for two players. Seats at tables of 5 (the only extra meetings) are spread as evenly as
       possible, which minimises the sum.
    3. ``KNOWN_OPTIMA`` where an exhaustive search proved the exact value.
    """
    players = sum(sizes)
    per_partie = sum(_fewest_shared_pairs(size, sizes) for size in sizes)
    pigeonhole = (partien - 1) * per_partie

    base = 3 * partien  # every table has at least 4 seats: at least 3 opponents a Partie
    five_seats = 5 * sizes.count(5) * partien
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
    met = [[0] * (players + 1) for _ in range(players + 1)]
    for partie in partien:
        for table in partie:
            for a, b in combinations(table, 2):
                met[a][b] += 1
                met[b][a] += 1
    repeats = sum(max(0, met[a][b] - 1) for a, b in combinations(range(1, players + 1), 2))
    distinct = tuple(sum(1 for m in met[n] if m) for n in range(1, players + 1))
    return repeats, distinct


def plan_seating(players: int, partien: int = 4, seed: int = 0) -> SeatingPlan:
    """The seating plan for ``players`` numbers and ``partien`` Partien; the same arguments
    always give the same plan. Raises ``EngineError`` for arguments out of range."""
    sizes = table_sizes(players)
    check_int(partien, 1, MAX_PARTIEN, "partien", "Die Zahl der Partien")
    check_int(seed, 0, MAX_SEED, "seed", "Der Seed")
    bound = repeat_lower_bound(sizes, partien)
    rng = random.Random(seed)
    search = _Search(sizes, partien, rng, _shifted_seats(sizes, partien, rng))
    search.minimise_repeats(bound)
    plan = tuple(_tables_of(partie_seats, len(sizes)) for partie_seats in search.seat)
    repeats, distinct = count_meetings(plan, players)
    return SeatingPlan(
        players=players,
        partien=plan,
        table_sizes=sizes,
        repeat_pairs=repeats,
        distinct_opponents=distinct,
        lower_bound=bound,
        seed=seed,
    )


def _tables_of(seat: list[int], tables: int) -> Partie:
    """Numbers (1-based) per table from a player -> table list, in print order."""
    members: list[list[int]] = [[] for _ in range(tables)]
    for player, table in enumerate(seat):
        members[table].append(player + 1)
    return tuple(sorted(tuple(m) for m in members))


def plan_document(players: Any, partien: Any = 4, games: Any = 40, seed: Any = 0) -> dict[str, Any]:
    """The ``plan_tournament`` result of spec §4 as a JSON-ready dict.

    Beside the spec's keys it names ``lower_bound`` and ``games_per_table`` (games one table plays
    in a Partie, by table size: a table of 5 plays 5/4 of ``games`` so that everyone plays
    ``games``). Raises ``EngineError`` on invalid input; ``games`` must then be a multiple of 4
    where tables of 5 sit, so each player deals (and sits out) equally often.
    """
    sizes = table_sizes(players)
    check_int(partien, 1, MAX_PARTIEN, "partien", "Die Zahl der Partien")
    check_int(games, 1, MAX_GAMES, "games", "Die Zahl der Spiele")
    check_int(seed, 0, MAX_SEED, "seed", "Der Seed")
    if 5 in sizes and games % 4:
        raise EngineError(
            "invalid_value",
            f"Mit Tischen zu fünft muss die Spielzahl durch 4 teilbar sein (ist {games}), "
            "damit jeder gleich oft gibt und aussetzt.",
            "games",
        )
    plan = plan_seating(players, partien, seed)
    return {
        "players": players,
        "partien": [[list(table) for table in partie] for partie in plan.partien],
        "repeat_pairs": plan.repeat_pairs,
        "distinct_opponents": {str(n): count for n, count in enumerate(plan.distinct_opponents, start=1)},
        "lower_bound": plan.lower_bound,
        "games_per_table": {str(size): games * size // 4 for size in sorted(set(sizes))},
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
        for p, row in enumerate(seats):
            for player, table in enumerate(row):
                self._seat(p, player, table)

    def minimise_repeats(self, target: int) -> None:
        """Tabu search until ``repeats`` reaches ``target`` or the budget runs out; leaves the
        state at the best plan seen."""
        best = self.repeats
        best_seats = [row[:] for row in self.seat]
        tabu = [[[0] * len(self.sizes) for _ in range(self.n)] for _ in range(self.partien)]
        last_best = 0
        iteration = 0
        while best > target and self.evaluations < _MAX_EVALUATIONS and iteration - last_best < _PATIENCE:
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
        met, rng = self.met, self.rng
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
            if self.seat[p][a] != self.seat[p][b]:
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

    def _remove(self, p: int, player: int) -> None:
        table = self.seat[p][player]
        self.members[p][table].remove(player)
        self.seat[p][player] = -1
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
