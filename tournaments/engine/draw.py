"""The draws of the Zockmeisterschaft (001 §11.2): who draws a number when, the number draw, the
seat draw at each table.

- ``draw_order(participants, previous_ranking)``: players new this year first (in the order given),
  then last year's players from the last place up; last year's winner draws last and so gets the
  remaining number.
- ``draw_numbers(order, seed)``: the slips 1..N are shuffled with ``random.Random(seed)`` and the
  players take them in ``order``; the same order and seed always give the same numbers.
- ``check_numbers(players, numbers)``: a draw done with paper slips, checked (each of 1..N once).
- ``draw_seats(players, seed)``: the seat draw at one table. The first player drawn is the
  Schreiber and picks his seat; the others sit down clockwise in the order they were drawn, so the
  drawn order *is* the seat order, Schreiber first.

Pure: no Django, no clock, no I/O; randomness only from the seed passed in. It does not choose
seeds (the service does, and records them) and does not seat tables (``plan.py`` does).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scoring.engine.core import EngineError

MAX_SEED = 2**32 - 1


def _names(players: Sequence[str], field: str) -> tuple[str, ...]:
    if isinstance(players, str) or not all(isinstance(name, str) and name for name in players):
        raise EngineError("invalid_type", "Erwartet eine Liste von Namen.", field)
    if len(set(players)) != len(players):
        raise EngineError("invalid_value", "Jeder Spieler darf nur einmal vorkommen.", field)
    return tuple(players)


def draw_order(participants: Sequence[str], previous_ranking: Sequence[str]) -> tuple[str, ...]:
    """The order in which ``participants`` draw their numbers.

    ``previous_ranking`` is last year's ranking, best first (players who shared a place in the
    order the ranking lists them). Participants not in it are new and draw first, in the order of
    ``participants``; the others follow from last year's last place up to the winner.
    """
    names = _names(participants, "participants")
    ranked = _names(previous_ranking, "previous_ranking")
    taking_part = set(names)
    returning = [name for name in reversed(ranked) if name in taking_part]
    known = set(ranked)
    return tuple(name for name in names if name not in known) + tuple(returning)


@dataclass(frozen=True)
class NumberDraw:
    """The result of a number draw: ``numbers[i]`` is the slip ``order[i]`` drew."""

    order: tuple[str, ...]
    numbers: tuple[int, ...]
    seed: int

    def by_player(self) -> dict[str, int]:
        return dict(zip(self.order, self.numbers, strict=True))


def draw_numbers(order: Sequence[str], seed: int) -> NumberDraw:
    """Each player in ``order`` draws a hidden slip from 1..N; the last one takes the remaining slip."""
    names = _names(order, "order")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise EngineError("invalid_value", f"Der Seed ist eine ganze Zahl von 0 bis {MAX_SEED}.", "seed")
    slips = list(range(1, len(names) + 1))
    random.Random(seed).shuffle(slips)
    return NumberDraw(order=names, numbers=tuple(slips), seed=seed)


def check_numbers(players: Sequence[str], numbers: Mapping[str, int]) -> dict[str, int]:
    """A paper draw: every player has a number and the numbers are exactly 1..N."""
    names = _names(players, "players")
    missing = [name for name in names if name not in numbers]
    if missing:
        raise EngineError("missing_field", f"{missing[0]} hat keine Nummer.", missing[0])
    extra = sorted(set(numbers) - set(names))
    if extra:
        raise EngineError("unexpected_field", f"{extra[0]} nimmt nicht teil.", extra[0])
    size = len(names)
    for name in names:
        value = numbers[name]
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= size:
            raise EngineError("invalid_value", f"Die Nummern gehen von 1 bis {size}.", name)
    seen: dict[int, str] = {}
    for name in names:
        if numbers[name] in seen:
            message = f"{seen[numbers[name]]} und {name} haben beide die Nummer {numbers[name]}."
            raise EngineError("invalid_value", message, name)
        seen[numbers[name]] = name
    return {name: numbers[name] for name in names}


@dataclass(frozen=True)
class SeatDraw:
    """One table's seat draw: ``seats`` clockwise, the Schreiber (the first drawn) first."""

    seats: tuple[str, ...]

    @property
    def schreiber(self) -> str:
        return self.seats[0]


def draw_seats(players: Sequence[str], seed: str | int) -> SeatDraw:
    """Draw the seat order of one table from ``seed`` (any int or string; the same seed and players
    always give the same seats, whatever order the players are passed in)."""
    names = sorted(_names(players, "players"))
    if not names:
        raise EngineError("invalid_value", "Am Tisch sitzt niemand.", "players")
    random.Random(str(seed)).shuffle(names)
    return SeatDraw(seats=tuple(names))
