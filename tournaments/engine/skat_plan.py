"""The draw of a Preisskat round (issue 32 item 4; ``../shared/rules/skat.md`` §1): tables of four
and, where the number of players needs it, of three (spec §4: "of 3 only where the rules allow" —
Skat is a game for three, at four the dealer sits out, skat.md §1).

- ``skat_table_sizes(players)``: as many tables of four as possible and the fewest tables of
  three that seat everyone: n = 4a + 3b with b ≡ −n (mod 4), so b is 0..3. 37 players are
  7 × 4 + 3 × 3, 27 are 6 × 4 + 1 × 3. Never a table of five (a Skat list knows no fifth player)
  nor of two. 5 players cannot be seated (4 + 1 and 3 + 2 both leave a table Skat does not play);
  nor can fewer than 3.
- ``plan_skat_round(played, present, seed)``: the tables of the next round for the start numbers
  ``present``, drawn so that players meet as few earlier opponents as possible and the seats at
  tables of three (where the others' lost games bring 40 instead of 30, skat.md §6) go round
  evenly. A local search by swaps with a budget that counts work, not time, and randomness from
  ``random.Random(seed)`` only: the same arguments give the same tables on every machine.

Pure: no Django, no I/O, no clock. The seat order at each table is drawn by the service, as for
the Preisschafkopf.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

from scoring.engine.core import EngineError
from scoring.engine.fields import check_int

from .plan import MAX_PLAYERS, MAX_SEED

MIN_PLAYERS = 3
# Swaps tried per player: enough that 200 players after four rounds meet no earlier opponent
# again where that is possible, and a draw stays well under a second.
_SWAPS_PER_PLAYER = 300
# A seat at a table of three weighs less than meeting someone again: opponents first.
_REPEAT_WEIGHT = 10


def skat_table_sizes(players: int) -> tuple[int, ...]:
    """The tables of one round, fours first: the fewest tables of three that seat ``players``.
    Raises ``EngineError`` for fewer than 3, more than ``MAX_PLAYERS``, and for 5."""
    check_int(players, MIN_PLAYERS, MAX_PLAYERS, "players", "Die Spielerzahl")
    threes = -players % 4
    if 3 * threes > players:
        raise EngineError(
            "players_not_seatable",
            f"{players} Spieler lassen sich nicht auf Skattische zu 3 und 4 verteilen (möglich sind 3, 4 und ab 6).",
            "players",
        )
    return (4,) * ((players - 3 * threes) // 4) + (3,) * threes


def plan_skat_round(
    played: Sequence[Sequence[Sequence[int]]], present: Sequence[int], seed: int = 0
) -> list[list[int]]:
    """The tables of the next round (each ascending, fours first) for the start numbers
    ``present`` after the rounds ``played`` (each a list of tables of start numbers). Raises
    ``EngineError`` for a count ``skat_table_sizes`` refuses, a number twice, or a bad seed."""
    numbers = list(present)
    if len(set(numbers)) != len(numbers) or not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
        raise EngineError("invalid_value", "Jede Startnummer höchstens einmal, als ganze Zahl.", "players")
    sizes = skat_table_sizes(len(numbers))
    check_int(seed, 0, MAX_SEED, "seed", "Der Seed")
    met: dict[tuple[int, int], int] = {}
    threes: dict[int, int] = dict.fromkeys(numbers, 0)
    for round_ in played:
        for table in round_:
            for a, b in combinations(sorted(table), 2):
                met[(a, b)] = met.get((a, b), 0) + 1
            if len(table) == 3:
                for n in table:
                    if n in threes:
                        threes[n] += 1

    def pair_cost(a: int, b: int) -> int:
        m = met.get((a, b) if a < b else (b, a), 0)
        return m * m  # a third meeting weighs more than two second ones

    def seat_cost(n: int, table: list[int], size: int, leaving: int | None = None) -> int:
        others = sum(pair_cost(n, o) for o in table if o != n and o != leaving)
        return _REPEAT_WEIGHT * others + (threes[n] if size == 3 else 0)

    rng = random.Random(seed)
    order = sorted(numbers)
    rng.shuffle(order)
    tables: list[list[int]] = []
    start = 0
    for size in sizes:
        tables.append(order[start : start + size])
        start += size
    if played and len(tables) > 1:
        where = {n: t for t, table in enumerate(tables) for n in table}
        for _ in range(_SWAPS_PER_PLAYER * len(numbers)):
            a, b = rng.sample(numbers, 2)
            ta, tb = where[a], where[b]
            if ta == tb:
                continue
            table_a, table_b = tables[ta], tables[tb]
            before = seat_cost(a, table_a, sizes[ta]) + seat_cost(b, table_b, sizes[tb])
            after = seat_cost(a, table_b, sizes[tb], leaving=b) + seat_cost(b, table_a, sizes[ta], leaving=a)
            if after <= before:  # sideways moves too: they let the search leave a plateau
                table_a[table_a.index(a)] = b
                table_b[table_b.index(b)] = a
                where[a], where[b] = tb, ta
    return [sorted(table) for table in tables]
