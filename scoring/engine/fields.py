"""Reading and validating the raw facts of one hand (a JSON object) field by field.

Every refusal names the field and says why in German. ``HandReader.finish`` refuses fields that
the game does not use, unless they carry an empty value (0, false, null, "", [] or {}), so a
typo or a partner named in a Solo is never silently ignored.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .core import EngineError

_MISSING = object()
ALWAYS_ALLOWED = frozenset({"note", "seats", "ruleset", "context"})


def _empty(value: Any) -> bool:
    return value is None or value is False or value == 0 or value in ("", [], {})


class HandReader:
    def __init__(self, raw: Any, seats: tuple[str, ...]) -> None:
        if not isinstance(raw, Mapping):
            raise EngineError("invalid_type", "Ein Spiel muss ein JSON-Objekt sein.", None)
        self.raw = raw
        self.seats = seats
        self.used: set[str] = set()

    def has(self, name: str) -> bool:
        return self.raw.get(name) is not None

    def get(self, name: str, default: Any = None) -> Any:
        """The raw value, or ``default`` when it is absent or null."""
        self.used.add(name)
        value = self.raw.get(name)
        return default if value is None else value

    def _required(self, name: str) -> Any:
        value = self.get(name, _MISSING)
        if value is _MISSING:
            raise EngineError("missing_field", f"Das Feld '{name}' fehlt.", name)
        return value

    def int(
        self,
        name: str,
        lo: int,
        hi: int,
        *,
        default: int | None | object = _MISSING,
        label: str | None = None,
    ) -> Any:
        self.used.add(name)
        value = self.raw.get(name)
        if type(value) is int and lo <= value <= hi:  # the usual case, checked first for speed
            return value
        if value is None:
            if default is _MISSING:
                raise EngineError("missing_field", f"Das Feld '{name}' fehlt.", name)
            return default
        return check_int(value, lo, hi, name, label)

    def bool(self, name: str, default: bool = False) -> bool:
        self.used.add(name)
        value = self.raw.get(name)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise EngineError("invalid_type", "Erwartet wahr oder falsch (true/false).", name)
        return value

    def choice(self, name: str, choices: Iterable[str], *, required: bool = True) -> Any:
        self.used.add(name)
        value = self.raw.get(name)
        if type(value) is str and value in choices:  # the usual case, checked first for speed
            return value
        if value is None:
            if required:
                raise EngineError("missing_field", f"Das Feld '{name}' fehlt.", name)
            return None
        if not isinstance(value, str):
            raise EngineError("invalid_type", "Erwartet einen Text.", name)
        allowed = ", ".join(choices)
        raise EngineError("invalid_value", f"'{value}' ist nicht erlaubt; möglich: {allowed}.", name)

    def seat(self, name: str, *, required: bool = True, among: Iterable[str] | None = None) -> Any:
        self.used.add(name)
        value = self.raw.get(name)
        pool = tuple(among) if among is not None else self.seats
        if type(value) is str and value in pool:  # the usual case, checked first for speed
            return value
        if value is None:
            if required:
                raise EngineError("missing_field", f"Das Feld '{name}' fehlt.", name)
            return None
        if not isinstance(value, str):
            raise EngineError("invalid_type", "Erwartet den Namen eines Spielers.", name)
        raise EngineError("invalid_value", f"'{value}' sitzt bei diesem Spiel nicht mit am Tisch.", name)

    def per_player_ints(
        self,
        name: str,
        lo: int,
        hi: int,
        *,
        total: int | None = None,
        required: bool = True,
        complete: bool = True,
    ) -> dict[str, int] | None:
        value = self._required(name) if required else self.get(name)
        if value is None:
            return None
        if not isinstance(value, Mapping):
            raise EngineError("invalid_type", "Erwartet ein Objekt {Name: Zahl}.", name)
        out: dict[str, int] = {}
        for player, number in value.items():
            if player not in self.seats:
                raise EngineError(
                    "invalid_value", f"'{player}' sitzt bei diesem Spiel nicht mit am Tisch.", f"{name}.{player}"
                )
            out[player] = check_int(number, lo, hi, f"{name}.{player}")
        missing = [p for p in self.seats if p not in out]
        if missing and complete:
            raise EngineError("missing_field", f"Es fehlt ein Wert für {', '.join(missing)}.", name)
        if total is not None and sum(out.values()) != total:
            raise EngineError("inconsistent", f"Die Werte ergeben zusammen {sum(out.values())}, nicht {total}.", name)
        return out

    def order(self, name: str) -> list[list[str]] | None:
        """Spec §2.1 ``augen_order``: every seat once, from fewest to most, equals in one group."""
        value = self.get(name)
        if value is None:
            return None
        if not isinstance(value, list) or any(
            not isinstance(group, list) or not group or any(not isinstance(p, str) for p in group) for group in value
        ):
            raise EngineError(
                "invalid_type", 'Erwartet eine Liste von Gruppen, z.B. [["Anna"], ["Bert", "Cilli"], ["Done"]].', name
            )
        seen = [player for group in value for player in group]
        for player in seen:
            if player not in self.seats:
                raise EngineError("invalid_value", f"'{player}' sitzt bei diesem Spiel nicht mit am Tisch.", name)
        if len(set(seen)) != len(seen):
            raise EngineError("invalid_value", "Ein Name steht doppelt in der Reihenfolge.", name)
        missing = [p for p in self.seats if p not in seen]
        if missing:
            raise EngineError("missing_field", f"In der Reihenfolge fehlt {', '.join(missing)}.", name)
        return [list(group) for group in value]

    def names(self, name: str) -> list[str]:
        value = self.get(name, [])
        if not isinstance(value, list) or any(not isinstance(v, str) for v in value):
            raise EngineError("invalid_type", "Erwartet eine Liste von Namen.", name)
        for player in value:
            if player not in self.seats:
                raise EngineError("invalid_value", f"'{player}' sitzt bei diesem Spiel nicht mit am Tisch.", name)
        if len(set(value)) != len(value):
            raise EngineError("invalid_value", "Ein Name steht doppelt in der Liste.", name)
        return value

    def finish(self) -> None:
        for name, value in self.raw.items():
            if name in self.used or name in ALWAYS_ALLOWED or _empty(value):
                continue
            raise EngineError("unexpected_field", f"Das Feld '{name}' passt nicht zu diesem Spiel.", name)


def check_int(value: Any, lo: int, hi: int, field: str, label: str | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise EngineError("invalid_type", "Erwartet eine ganze Zahl.", field)
    if not lo <= value <= hi:
        # ``label`` is a singular subject ("Die Augenzahl"), so "muss" agrees with it.
        what = label or "Der Wert"
        # A number of thousands of digits cannot even be printed (Python's limit is 4,300).
        shown = value if abs(value) < 10**12 else ("zu groß" if value > 0 else "zu klein")
        if lo == hi:
            # A range that collapses to one value reads as a rule, not as "zwischen 0 und 0".
            raise EngineError("out_of_range", f"{what} kann hier nur {lo} sein, nicht {shown}.", field)
        raise EngineError("out_of_range", f"{what} muss zwischen {lo} und {hi} liegen (ist {shown}).", field)
    return value


def check_seats(raw: Any, allowed_counts: tuple[int, ...], field: str = "seats") -> tuple[str, ...]:
    if not isinstance(raw, list) or any(not isinstance(name, str) or not name.strip() for name in raw):
        raise EngineError("invalid_type", "Erwartet eine Liste von Spielernamen.", field)
    if len(set(raw)) != len(raw):
        raise EngineError("invalid_value", "Jeder Spieler darf nur einmal am Tisch sitzen.", field)
    if len(raw) not in allowed_counts:
        counts = " oder ".join(str(n) for n in allowed_counts)
        raise EngineError("invalid_value", f"Es müssen {counts} Spieler mitspielen, nicht {len(raw)}.", field)
    return tuple(raw)
