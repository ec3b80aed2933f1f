"""Shared types of the pure scoring engines.

Frozen dataclasses in, immutable records out, integers only (cents or points). The three records
made for every scored hand (``Line``, ``Outcome``, ``HandResult``) are NamedTuples rather than
frozen dataclasses: as immutable, and about three times cheaper to build, which the engine's
50,000 hands per second need. Nothing here knows about Django, the database or table state
beyond the small ``Context`` a caller passes in: the fold over an evening's log lives in
``scoring.engine.session``.

Error messages are German because they are shown to the Schreiber as they are (forms and the
``score_hand`` command); codes and fields are stable identifiers for programs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple


class EngineError(Exception):
    """A refused input: ``code`` for programs, ``message`` (German) for people, ``field`` names
    the offending field as a path (``augen``, ``augen_by_player.Anna``, ``hands[3].game``)."""

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    def with_prefix(self, prefix: str) -> EngineError:
        """The same error with its field placed under ``prefix`` (``hands[3]``)."""
        path = f"{prefix}.{self.field}" if self.field else prefix
        return EngineError(self.code, self.message, path)

    def as_dict(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message, "field": self.field}}


class Line(NamedTuple):
    """One term of the explanation: an amount added, or a factor applied to the sum so far."""

    label: str
    amount: int | None = None
    factor: int | None = None

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"label": self.label}
        if self.amount is not None:
            out["amount"] = self.amount
        if self.factor is not None:
            out["factor"] = self.factor
        return out


@dataclass(frozen=True, slots=True)
class Context:
    """Table state a single hand is scored under (spec §2 ``context``).

    ``bock``: number of active doublings from Bock rounds; ``round``: the special round in force
    (``normal``, ``bockrunde``, ``mungorunde``, ``wrong_dealer`` …).
    """

    bock: int = 0
    round: str = "normal"


class Outcome(NamedTuple):
    """What happened in a hand, in the terms statistics and table-state triggers need.

    Filled by every preset as far as it applies; ``None`` where a notion does not exist in the
    game (no declarer in a Mungo, no Augen when only ``result`` was given).
    """

    game: str
    declarer: str | None = None
    partner: str | None = None
    declarer_won: bool | None = None
    augen: int | None = None  # Augen of the declarer's side
    schneider: bool = False  # the losing side is Schneider
    schwarz: bool = False  # one side took no trick
    laufende: int = 0  # Laufende paid
    kontra: int = 0
    last_kontra: str | None = None
    deckel: int = 0
    tout: bool = False
    suit: str | None = None
    solo: bool = False  # an Einzelspiel (one against the rest)
    penalty: bool = False  # scored as a Fehler/penalty, not as a game


class ListEntry(NamedTuple):
    """What a rule set that keeps a Spielliste (Skat) writes on the list for one hand.

    ``written``: the list's entries, by player (Skat: the declarer's +value or −2 × value; a
    Ramsch writes its loser or the Durchmarsch); ``value``: the game value as counted (the
    overbid value where the game was overbid, every doubling applied); ``won``: whether the
    player written won (the declarer, a Durchmarsch)."""

    value: int
    won: bool
    overbid: bool
    written: Mapping[str, int]


class HandResult(NamedTuple):
    unit: str
    winner: str | tuple[str, ...]  # "declarer"/"opponents", or the winners' names
    payouts: Mapping[str, int]
    lines: tuple[Line, ...]
    outcome: Outcome
    price: int | None = None
    multiplier: int = 1  # product of the doublings that came from table state (Bock, special rounds)
    sheet: ListEntry | None = None  # the Spielliste's entry, where the rule set keeps one

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "unit": self.unit,
            "winner": self.winner if isinstance(self.winner, str) else list(self.winner),
            "payouts": dict(self.payouts),
            "lines": [line.as_dict() for line in self.lines],
        }
        if self.price is not None:
            out["price"] = self.price
        if self.sheet is not None:
            # Spec §2.4: the Skat output adds the value, won, overbid and the list's entry.
            out["value"] = self.sheet.value
            out["won"] = self.sheet.won
            out["overbid"] = self.sheet.overbid
            out["list"] = dict(self.sheet.written)
        return out


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One documented option of a rule set: its type, default and meaning."""

    name: str
    default: Any
    doc: str
    kind: str = "int"  # int | bool | choice | list
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind, "default": self.default, "doc": self.doc}
        if self.choices:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["min"] = self.minimum
        if self.maximum is not None:
            out["max"] = self.maximum
        return out

    def check(self, value: Any) -> Any:
        """Return ``value`` if it fits this option, else raise EngineError."""
        where = f"ruleset.options.{self.name}"
        if value is None and self.default is None:
            return None  # an option that is unset by default (Skat's ``cents_per_point``) may stay unset
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise EngineError("invalid_type", "Erwartet wahr oder falsch (true/false).", where)
        elif self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise EngineError("invalid_type", "Erwartet eine ganze Zahl.", where)
            if self.minimum is not None and value < self.minimum:
                raise EngineError("invalid_value", f"Mindestens {self.minimum}.", where)
            if self.maximum is not None and value > self.maximum:
                raise EngineError("invalid_value", f"Höchstens {self.maximum}.", where)
        elif self.kind == "choice":
            if value not in self.choices:
                allowed = ", ".join(self.choices)
                raise EngineError("invalid_value", f"Erlaubt sind: {allowed}.", where)
        elif self.kind == "list":
            if not isinstance(value, list) or any(v not in self.choices for v in value):
                allowed = ", ".join(self.choices)
                raise EngineError("invalid_value", f"Eine Liste aus: {allowed}.", where)
            value = tuple(value)
        return value


@dataclass(frozen=True)
class RuleSet:
    """A preset with its options resolved. Subclasses set the class attributes and implement
    ``score``; ``OPTIONS`` documents every option with its default."""

    options: Mapping[str, Any] = field(default_factory=dict)

    NAME: ClassVar[str] = ""
    FAMILY: ClassVar[str] = ""  # schafkopf | saukopf | doppelkopf | skat
    UNIT: ClassVar[str] = ""
    TITLE: ClassVar[str] = ""
    SEED: ClassVar[str] = ""
    SEAT_COUNTS: ClassVar[tuple[int, ...]] = (4,)
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = ()
    # Options under which a hand is by design not zero-sum (the Schafkopf ``plus_points_only``).
    # An evening settled between its players cannot play them; a tournament's points can.
    NON_ZERO_SUM_OPTIONS: ClassVar[tuple[str, ...]] = ()
    # Skat: the player who sits out (the dealer at a table of four) takes part in the hand's
    # settlement. The evening fold then names him to ``score`` in the hand's ``sitting_out``.
    SITTING_OUT_SETTLES: ClassVar[bool] = False
    # The rule set writes a Spielliste (Skat): its hands carry a ``ListEntry`` and an evening adds
    # each player's list total and games won and lost (spec §3 "list", "games").
    KEEPS_LIST: ClassVar[bool] = False
    # How a rule set that keeps a list settles it at the end (``list_settlement``): "money" (who
    # pays whom, skat.md §5) or "seeger" (the Seeger-Fabian Auswertung, skat.md §6); "" for none.
    LIST_SETTLEMENT: ClassVar[str] = ""

    @classmethod
    def build(cls, overrides: Mapping[str, Any] | None = None) -> RuleSet:
        specs = {spec.name: spec for spec in cls.option_specs()}
        values = {name: spec.default for name, spec in specs.items()}
        for name, value in (overrides or {}).items():
            if name not in specs:
                raise EngineError(
                    "unknown_option",
                    f"Die Regel '{cls.NAME}' kennt keine Option '{name}'.",
                    f"ruleset.options.{name}",
                )
            values[name] = specs[name].check(value)
        for name, spec in specs.items():
            if spec.kind == "list":
                values[name] = tuple(values[name])
        return cls(options=values)

    @classmethod
    def option_specs(cls) -> tuple[OptionSpec, ...]:
        return cls.OPTIONS

    def opt(self, name: str) -> Any:
        return self.options[name]

    def is_zero_sum(self) -> bool:
        """Whether every hand's payouts sum to zero (every rule set, unless one of its
        ``NON_ZERO_SUM_OPTIONS`` is switched on)."""
        return not any(self.options.get(name) for name in self.NON_ZERO_SUM_OPTIONS)

    def unit(self) -> str:
        return self.UNIT

    def score(self, hand: Mapping[str, Any], seats: tuple[str, ...], context: Context) -> HandResult:
        raise NotImplementedError

    def describe(self) -> dict[str, Any]:
        return {
            "preset": self.NAME,
            "family": self.FAMILY,
            "title": self.TITLE,
            "seed": self.SEED,
            "unit": self.unit(),
            "seats": list(self.SEAT_COUNTS),
            "options": {spec.name: spec.as_dict() for spec in self.option_specs()},
        }


# The largest amount (cents, points, units) one entry may move or the Stock may hold: 2**53 - 1,
# the largest integer every JSON reader (JavaScript's too) holds exactly. The maxima of the
# amount options keep every hand below it (tests/scoring/test_amount_limits.py multiplies out the
# worst case); only a table state without a bound of its own reaches it, such as a Stock of
# Anhang C 3.2 doubled over and over. The ledger's columns are 64-bit (docs/rules/standard.md).
AMOUNT_LIMIT = 2**53 - 1


def check_amounts(amounts: Iterable[int]) -> None:
    """Refuse an entry whose amounts leave what the ledger and every JSON reader hold exactly."""
    if any(not -AMOUNT_LIMIT <= amount <= AMOUNT_LIMIT for amount in amounts):
        limit = f"{AMOUNT_LIMIT:,}".replace(",", ".")
        raise EngineError("out_of_range", f"Ein Betrag wäre größer als {limit}; so viel rechnet niemand ab.")


def zero_sum_check(payouts: Mapping[str, int]) -> None:
    """Every result must balance; a violation is a bug in a preset, never user input."""
    total = sum(payouts.values())
    if total != 0:  # pragma: no cover - guarded by property tests
        raise AssertionError(f"payouts do not sum to zero: {dict(payouts)}")
