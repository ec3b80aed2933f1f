"""The evening fold (spec §3, issue 6): a table's ordered log of hands and events → every entry
scored under the table state in force, the totals, the Stock and the state for the next hand.

The log is the truth; the table state is derived by folding over it, never stored as counters:
who deals (clockwise, 001 §2.3), who sits out (5 at the table: the dealer; 6: the dealer and the
player to his right, 001 §7; a hand whose cards were bought seats the buyer instead of the seller,
§7.1/§7.2), the round in force and the queue of rounds to come (Bock-, Mungo- and the special
rounds of 001 §5 — in a Stöcklesrunde the Stöckle each player still holds, §5.4/§5.5 — and the
Bockspiel of §8.4), a pending vote (§5.2), the Stock
(001 §8.1/§8.2 and §5.3, or 003 §3.2), the Doppelkopf table events (004 §5, §10), and a Skat
table's Spielliste: each player's list total, games won and lost, and the Verlustspielgeld of a
list (skat.md §5, §6; the dealer who sits out at four settles, ``RuleSet.SITTING_OUT_SETTLES``).

Public API (the web service and ``manage.py score_session`` share it):

- ``start(ruleset, table, players, first_dealer) -> TableState``
- ``fold(ruleset, table, players, first_dealer, entries) -> SessionResult`` — the whole log; the
  first invalid entry raises ``EntryError`` (an ``EngineError``) with field ``hands[i].<field>``.
- ``advance(ruleset, table, state, entry) -> (EntryResult, TableState)`` — one more entry.
- ``preview(ruleset, table, state, entry) -> EntryResult`` — what the next entry would pay.
- ``score_session_document(doc) -> dict`` — spec §3, JSON in, JSON out.

Hands are scored by the presets (``RuleSet.score``); this module only decides the seats and the
``Context`` a hand is scored under, and books what the table state adds (Stock, Vergeben). It does
not store anything, does not know Django, and does not check the rules of play (who may deal,
whether a vote was fair): it folds what the Schreiber recorded. Readings are marked with the seed
section and recorded in docs/rules/table-state.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import registry
from .core import Context, EngineError, HandResult, Line, Outcome, RuleSet, check_amounts
from .presets.doppelkopf import schmeissen_payouts, vergeben_payouts
from .presets.schafkopf import SchafkopfRules
from .presets.schafkopf_games import GAMES
from .session_rules import TableRules

EVENTS = ("zusammengeworfen", "vergeben", "verabhebt", "special_round", "vote", "schmeissen", "end_round")
_EVENT_FIELDS = {
    "zusammengeworfen": frozenset(),
    "vergeben": frozenset({"by"}),
    "verabhebt": frozenset({"by"}),
    "special_round": frozenset({"kind", "dealer"}),
    "vote": frozenset({"choice"}),
    "schmeissen": frozenset(),
    "end_round": frozenset(),
}
# Keys of a hand that the fold derives itself: a session hand must not carry them.
_DERIVED_KEYS = ("seats", "context", "ruleset", "sitting_out")
# Keys of a session hand that the fold reads and the preset never sees.
_FOLD_KEYS = frozenset({"dealer", "bought_by"})
# Rounds that bring a Bock doubling of their own (001 §5 "Ausnahme: Bockrunde!", §5.7).
_BOCK_ROUNDS = frozenset({"bockrunde", "abschlussrunde"})
# 001 §5.2: "nur, wenn die Spielart nicht ein Bettel oder ein Mungo war" (and games without sides).
_NO_SIDES = frozenset({"bettel", "betteln", "mungo", "ramsch", "leasters", "sie"})
# 001 §5.4/§5.5: every player plays each listed game once; one Stöckle per game and player.
STOECKLE = {
    "stoecklesrunde": ("solo", "wenz", "bettel", "rufspiel", "mungo"),
    "megastoecklesrunde": ("solo", "wenz", "bettel", "rufspiel", "mungo", "geier", "farbgeier", "farbwenz"),
}
_MUNGO = frozenset({"mungo", "ramsch"})
_GAME_LABELS = {name: game.label for name, game in GAMES.items()}


class EntryError(EngineError):
    """An invalid log entry; ``index`` is its 0-based position, ``field`` reads ``hands[i].<field>``."""

    def __init__(self, error: EngineError, index: int) -> None:
        prefixed = error.with_prefix(f"hands[{index}]")
        super().__init__(prefixed.code, prefixed.message, prefixed.field)
        self.index = index


@dataclass(frozen=True)
class RoundSlot:
    """A round in force or queued. ``games``: games still to play (in a geschobene Mungorunde:
    Mungo games, 001 §5.2.2; in a Stöcklesrunde: Stöckle left); ``None``: until the Stock is won
    (001 §5.3). ``stoeckle``: in a Stöcklesrunde (001 §5.4/§5.5) the games each player still has
    to play, in seat order."""

    name: str
    games: int | None
    for_stock: bool = False
    stoeckle: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def as_dict(self, in_force: bool) -> dict[str, Any]:
        out: dict[str, Any] = {"round": self.name, "games": self.games, "in_force": in_force}
        if in_force and self.stoeckle:
            out["stoeckle"] = {player: list(games) for player, games in self.stoeckle}
        return out


@dataclass(frozen=True)
class TableState:
    """The table after some entries: everything the fold needs to go on (first block), and what
    the next hand is played under, for the entry form (second block)."""

    players: tuple[str, ...]  # seat order, clockwise
    dealer: str  # deals the next hand
    entries: int = 0  # entries folded so far
    current: RoundSlot | None = None  # the round in force (never a stacked Bock, see bock_tracks)
    queue: tuple[RoundSlot, ...] = ()  # rounds to come, in order (001 §5 "eine nach der anderen")
    bock_tracks: tuple[int, ...] = ()  # bock_overlap "stack": games left of each running Bockrunde
    vote_pending: bool = False  # 001 §5.2: Mungorunde or Bockrunde must be voted before the next deal
    mungorunde_triggered: bool = False  # the evening's first (mandatory) Mungorunde was triggered
    stock: int = 0  # the Stock's balance
    penalties: tuple[tuple[str, str, int], ...] = ()  # (event, player, times) for 001 §8.1/§8.2
    vergeben_in_row: int = 0  # Doppelkopf: Vergeben of the current deal so far (004 §5)
    # By player, in seat order: the Spielliste's total (a rule set that keeps one, Skat) and the
    # games each declared and won or lost (every family).
    list_totals: tuple[int, ...] = ()
    won: tuple[int, ...] = ()
    lost: tuple[int, ...] = ()

    seats: tuple[str, ...] = ()  # who plays the next hand, from the dealer's left
    sitting_out: tuple[str, ...] = ()
    round: str = "normal"  # the round the next hand is played in
    bock: int = 0  # Bock doublings of the next hand
    deckel_required: bool = False  # 001 §4.4 Dauerdeckel in force for the next hand
    games: tuple[str, ...] | None = None  # games allowed in the next hand (Schafkopf family), best first
    stoeckle: tuple[tuple[str, tuple[str, ...]], ...] = ()  # Stöcklesrunde: games each player has left
    must_play: str | None = None  # Stöcklesrunde: who plays if nobody wants to (001 §5.4)
    buyers: tuple[str, ...] = ()  # who may buy the next hand's cards (001 §7.1/§7.2), empty at four

    @property
    def context(self) -> Context:
        return Context(bock=self.bock, round=self.round)

    def pending_rounds(self) -> list[dict[str, Any]]:
        """The round in force, the stacked Bockrunden and the queue, in the order they run."""
        out = [self.current.as_dict(True)] if self.current else []
        out += [RoundSlot("bockrunde", left).as_dict(True) for left in self.bock_tracks]
        out += [slot.as_dict(False) for slot in self.queue]
        return out


@dataclass(frozen=True)
class EntryResult:
    """One scored log entry. ``payouts`` names every player at the table (0 for whoever sat out)
    and includes what the entry moved into or out of the Stock: ``sum(payouts) + stock == 0``."""

    number: int  # 1-based position in the log
    kind: str  # "hand" or the event's name
    dealer: str
    seats: tuple[str, ...]
    sitting_out: tuple[str, ...]
    round: str
    bock: int  # Bock doublings the hand was scored under
    multiplier: int  # product of the doublings from table state (Bock, special-round solos)
    payouts: Mapping[str, int]
    lines: tuple[Line, ...]
    stock: int = 0  # paid into the Stock (positive) or taken out of it (negative)
    hand: HandResult | None = None
    wrong_dealer: bool = False  # dealt by another player than the one in turn (001 §8.4)
    triggered: tuple[str, ...] = ()  # "bockrunde", "mungorunde", "vote" set off by this entry
    bought_by: str | None = None  # played the seller's cards (001 §7.1/§7.2)
    verlustspielgeld: int = 0  # Skat: the declarer's fee for this lost game into the Kasse, in cents

    @property
    def outcome(self) -> Outcome | None:
        return self.hand.outcome if self.hand else None

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "number": self.number,
            "dealer": self.dealer,
            "seats": list(self.seats),
            "round": self.round,
            "multiplier": self.multiplier,
            "payouts": dict(self.payouts),
            "lines": [line.as_dict() for line in self.lines],
            "sitting_out": list(self.sitting_out),
            "bock": self.bock,
            "stock": self.stock,
        }
        if self.kind != "hand":
            out["event"] = self.kind
        if self.hand is not None:
            winner = self.hand.winner
            out["winner"] = winner if isinstance(winner, str) else list(winner)
            if self.hand.price is not None:
                out["price"] = self.hand.price
            if self.hand.sheet is not None:
                out["value"] = self.hand.sheet.value
                out["list"] = dict(self.hand.sheet.written)
        if self.verlustspielgeld:
            out["verlustspielgeld"] = self.verlustspielgeld
        if self.wrong_dealer:
            out["wrong_dealer"] = True
        if self.bought_by:
            out["bought_by"] = self.bought_by
        if self.triggered:
            out["triggered"] = list(self.triggered)
        return out


@dataclass(frozen=True)
class SessionResult:
    unit: str
    players: tuple[str, ...]
    entries: tuple[EntryResult, ...]
    state: TableState  # after the last entry: the next hand's table state
    totals: Mapping[str, int] = field(default_factory=dict)  # sum of every entry's payouts
    # A rule set that keeps a Spielliste (Skat, spec §3): "list" (each player's list total),
    # "games" ({name: {"won", "lost"}}) and, where the table charges it, "verlustspielgeld".
    sheet: Mapping[str, Any] | None = None

    @property
    def stock(self) -> int:
        return self.state.stock

    def as_dict(self) -> dict[str, Any]:
        out = {
            "unit": self.unit,
            "hands": [entry.as_dict() for entry in self.entries],
            "totals": dict(self.totals),
            "stock": self.stock,
            "pending_rounds": self.state.pending_rounds(),
        }
        if self.sheet is not None:
            out.update(self.sheet)
        return out


# --- public API ---------------------------------------------------------------------------------


def start(ruleset: RuleSet, table: TableRules, players: Sequence[str], first_dealer: str) -> TableState:
    """The table before its first entry; refuses a table the rules cannot seat."""
    names = _check_players(players, table)
    if not isinstance(first_dealer, str) or first_dealer not in names:
        raise EngineError("invalid_value", f"Der erste Geber '{first_dealer}' sitzt nicht am Tisch.", "first_dealer")
    return _Fold(ruleset, table, TableState(players=names, dealer=first_dealer)).snapshot()


def fold(
    ruleset: RuleSet,
    table: TableRules,
    players: Sequence[str],
    first_dealer: str,
    entries: Sequence[Any],
) -> SessionResult:
    """Fold the whole log. The first invalid entry raises ``EntryError`` (field ``hands[i]…``)."""
    state = start(ruleset, table, players, first_dealer)
    run = _Fold(ruleset, table, state)
    results: list[EntryResult] = []
    totals = dict.fromkeys(state.players, 0)
    for index, raw in enumerate(entries):
        try:
            entry = run.step(raw)
        except EngineError as exc:
            raise EntryError(exc, index) from None
        for name, amount in entry.payouts.items():
            totals[name] += amount
        results.append(entry)
    after = run.snapshot()
    sheet = list_sheet(ruleset, table, after)
    return SessionResult(ruleset.unit(), state.players, tuple(results), after, totals, sheet)


def list_sheet(ruleset: RuleSet, table: TableRules, state: TableState) -> dict[str, Any] | None:
    """The Spielliste's figures after ``state`` (spec §3, Skat): each player's list total, the
    games he declared and won or lost and, where the table charges it, his Verlustspielgeld of
    the list (cents). ``None`` for a rule set that keeps no list."""
    if not ruleset.KEEPS_LIST:
        return None
    players = state.players
    out: dict[str, Any] = {
        "list": dict(zip(players, state.list_totals, strict=True)),
        "games": {p: {"won": w, "lost": lost} for p, w, lost in zip(players, state.won, state.lost, strict=True)},
    }
    if table.verlustspielgeld:
        out["verlustspielgeld"] = {
            p: table.verlustspielgeld_total(lost) for p, lost in zip(players, state.lost, strict=True)
        }
    return out


def advance(ruleset: RuleSet, table: TableRules, state: TableState, entry: Any) -> tuple[EntryResult, TableState]:
    """Fold one more entry onto ``state``; errors name the entry's own fields (``declarer``)."""
    run = _Fold(ruleset, table, state)
    result = run.step(entry)
    return result, run.snapshot()


def preview(ruleset: RuleSet, table: TableRules, state: TableState, entry: Any) -> EntryResult:
    """What ``entry`` would book if it came next (the live payout preview); changes nothing."""
    return advance(ruleset, table, state, entry)[0]


def score_session_document(doc: Any) -> dict[str, Any]:
    """Spec §3: ``{"ruleset", "players", "first_dealer", "hands"}`` → the evening (or EngineError)."""
    if not isinstance(doc, Mapping):
        raise EngineError("invalid_type", "Erwartet ein JSON-Objekt.", None)
    extra = sorted(set(doc) - {"ruleset", "players", "first_dealer", "hands", "note"})
    if extra:
        raise EngineError("unexpected_field", f"Unbekanntes Feld '{extra[0]}'.", extra[0])
    ruleset, table = registry.load_with_table(doc.get("ruleset"))
    players = _check_players(doc.get("players"), table)
    first_dealer = doc.get("first_dealer", players[0])
    hands = doc.get("hands")
    if not isinstance(hands, list):
        code = "missing_field" if hands is None else "invalid_type"
        raise EngineError(code, "Erwartet die Liste der Spiele und Ereignisse (hands).", "hands")
    return fold(ruleset, table, players, first_dealer, hands).as_dict()


# --- the fold -----------------------------------------------------------------------------------


def _check_players(raw: Any, table: TableRules) -> tuple[str, ...]:
    if not isinstance(raw, Sequence) or isinstance(raw, str):
        raise EngineError("invalid_type", "Erwartet die Liste der Spieler in Sitzordnung.", "players")
    if any(not isinstance(name, str) or not name.strip() for name in raw):
        raise EngineError("invalid_type", "Jeder Spieler braucht einen Namen.", "players")
    if len(set(raw)) != len(raw):
        raise EngineError("invalid_value", "Jeder Spieler darf nur einmal am Tisch sitzen.", "players")
    if len(raw) not in table.table_sizes:
        sizes = ", ".join(str(n) for n in table.table_sizes[:-1]) + f" oder {table.table_sizes[-1]}"
        message = f"Am Tisch sitzen bei dieser Regel {sizes} Spieler, nicht {len(raw)}."
        raise EngineError("invalid_value", message, "players")
    return tuple(raw)


def _must_play(stoeckle: tuple[tuple[str, tuple[str, ...]], ...], seats: tuple[str, ...]) -> str | None:
    """001 §5.4 "wenn keiner spielen will muss der Letzte spielen (hat dieser bereits alle Spiele
    gehabt, der Vorletzte usw.)": the last seat of the deal that still holds a Stöckle."""
    held = dict(stoeckle)
    return next((player for player in reversed(seats) if held.get(player)), None)


def _seating(players: tuple[str, ...], dealer: int, sits_out_from: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(seats from the dealer's left round to the dealer, sitting out) — 001 §7.1/§7.2; the
    dealer sits out from ``sits_out_from`` players on (Skat: from four, skat.md §1)."""
    n = len(players)
    out = {players[dealer]} if n >= sits_out_from else set()
    if n == 6:
        out.add(players[dealer - 1])  # the Abheber, to the dealer's right (001 §2.3)
    order = [players[(dealer + k) % n] for k in range(1, n + 1)]
    return tuple(p for p in order if p not in out), tuple(p for p in order if p in out)


class _Fold:
    """The mutable accumulator behind ``fold``/``advance``; built from a ``TableState`` and turned
    back into one by ``snapshot``. Never shared: every call builds its own."""

    def __init__(self, ruleset: RuleSet, table: TableRules, state: TableState) -> None:
        self.ruleset = ruleset
        self.table = table
        self.schafkopf = ruleset if isinstance(ruleset, SchafkopfRules) else None
        self.players = state.players
        self.n = len(state.players)
        self.index = {name: i for i, name in enumerate(state.players)}
        self.seating = [_seating(state.players, d, table.dealer_sits_out_from) for d in range(self.n)]
        self.dealer = self.index[state.dealer]
        self.entries = state.entries
        self.current = state.current
        self.queue = list(state.queue)
        self.tracks = list(state.bock_tracks)
        self.vote_pending = state.vote_pending
        self.mungorunde_triggered = state.mungorunde_triggered
        self.stock = state.stock
        self.penalties = {(event, player): times for event, player, times in state.penalties}
        self.vergeben_in_row = state.vergeben_in_row
        zeros = [0] * self.n
        self.list_totals = list(state.list_totals or zeros)
        self.won = list(state.won or zeros)
        self.lost = list(state.lost or zeros)
        self._start_next_round()

    def snapshot(self) -> TableState:
        round_name, bock = self._round_now()
        seats, out = self.seating[self.dealer]
        sk = self.schafkopf
        stoeckle = self.current.stoeckle if self.current else ()
        return TableState(
            players=self.players,
            dealer=self.players[self.dealer],
            entries=self.entries,
            current=self.current,
            queue=tuple(self.queue),
            bock_tracks=tuple(self.tracks),
            vote_pending=self.vote_pending,
            mungorunde_triggered=self.mungorunde_triggered,
            stock=self.stock,
            penalties=tuple((e, p, t) for (e, p), t in sorted(self.penalties.items())),
            vergeben_in_row=self.vergeben_in_row,
            list_totals=tuple(self.list_totals),
            won=tuple(self.won),
            lost=tuple(self.lost),
            seats=seats,
            sitting_out=out,
            round=round_name,
            bock=bock,
            deckel_required=sk.deckel_required(round_name) if sk else False,
            games=sk.games_for_round(round_name) if sk else None,
            stoeckle=stoeckle,
            must_play=_must_play(stoeckle, seats),
            buyers=self._buyers(out),
        )

    def step(self, raw: Any) -> EntryResult:
        if not isinstance(raw, Mapping):
            raise EngineError("invalid_type", "Ein Eintrag muss ein JSON-Objekt sein (Spiel oder Ereignis).", None)
        self.entries += 1
        entry = self._event(raw) if "event" in raw else self._hand(raw)
        self._start_next_round()
        # A plus-points-only tariff writes the winners alone (``RuleSet.is_zero_sum``).
        zero_sum = self.ruleset.is_zero_sum()
        if zero_sum and sum(entry.payouts.values()) + entry.stock != 0:  # pragma: no cover - a bug, never input
            raise AssertionError(f"entry {entry.number} is not zero-sum with the Stock")
        check_amounts((*entry.payouts.values(), self.stock))
        return entry

    # --- rounds --------------------------------------------------------------------------------

    def _round_now(self) -> tuple[str, int]:
        """The round the next hand is played in, and its Bock doublings."""
        name = self.current.name if self.current else ("bockrunde" if self.tracks else "normal")
        bock = len(self.tracks) + (1 if self.current and self.current.name in _BOCK_ROUNDS else 0)
        return name, bock

    def _start_next_round(self) -> None:
        if self.current is None and self.queue:
            self.current = self.queue.pop(0)

    def _length(self, name: str) -> int:
        # 001 §2.2 "Eine Runde besteht aus so viel Spielen, wie Spieler am Tisch sitzen".
        if name == "abschlussrunde":
            return self.n + 1  # 001 §5.7 "ein Spiel mehr als Spieler am Tisch"
        # 001 §5.4/§5.5: in a Stöcklesrunde one game per Stöckle.
        return self.n * (len(STOECKLE[name]) if name in STOECKLE else 1)

    def _add_round(self, name: str, *, for_stock: bool = False) -> None:
        if name == "bockrunde" and self.table.bock_overlap == "stack":
            self.tracks.append(self.n)
            return
        # 001 §5.4: "Für jede Spielart wird an jeden Spieler … Stöckle … ausgegeben".
        stoeckle = tuple((player, STOECKLE[name]) for player in self.players) if name in STOECKLE else ()
        self.queue.append(RoundSlot(name, None if for_stock else self._length(name), for_stock, stoeckle))

    def _use_game(self, outcome: Outcome, slot: RoundSlot | None) -> None:
        """A hand played in turn counts one game of the round it was played in (unless winning the
        Stock already ended that round) and of each stacked Bock."""
        # 001 §5.2.2: in the geschobene Mungorunde only Mungo games count.
        counts = slot is not None and (slot.name != "geschobene_mungorunde" or outcome.game in ("mungo", "ramsch"))
        # A Stöcklesrunde counts Stöckle, not hands (``_hand_in_stoeckle``).
        if slot is not None and slot is self.current and slot.games is not None and counts and not slot.stoeckle:
            left = slot.games - 1
            self.current = RoundSlot(slot.name, left, slot.for_stock) if left else None
        self.tracks = [left - 1 for left in self.tracks if left > 1]

    # --- hands ---------------------------------------------------------------------------------

    def _hand(self, raw: Mapping[str, Any]) -> EntryResult:
        if self.vote_pending:
            raise EngineError(
                "vote_required",
                "Vor dem nächsten Spiel wird abgestimmt, ob eine Mungorunde oder eine Bockrunde gespielt wird"
                " (001 §5.2).",
                None,
            )
        for key in _DERIVED_KEYS:
            if key in raw:
                raise EngineError(
                    "unexpected_field", f"'{key}' ergibt sich aus dem Spielabend und gehört nicht ins Spiel.", key
                )
        expected = self.dealer
        dealer = expected
        if "dealer" in raw:
            dealer = self._player(raw["dealer"], "dealer")
        hand = {key: value for key, value in raw.items() if key not in _FOLD_KEYS}
        wrong = dealer != expected
        bockspiel = wrong and self.table.wrong_dealer == "bockspiel"
        seats, out = self.seating[dealer]
        buyer = seller = None
        if raw.get("bought_by") is not None:
            buyer, seller, seats, out = self._purchase(raw["bought_by"], dealer, seats, out)
        if bockspiel:
            # 001 §8.4: one Bockspiel without Deckel; the rounds in force wait for it.
            round_name, bock = "bockspiel", 1
        else:
            round_name, bock = self._round_now()
        slot = self.current
        in_stoeckle = not bockspiel and slot is not None and bool(slot.stoeckle)
        mungo_owner = None
        if in_stoeckle and hand.get("game") in _MUNGO:
            # 001 §5.4: the Mungo is one of each player's games; the hand names whose Stöckle it was.
            mungo_owner = self._mungo_owner(hand.pop("declarer", None), seats)
        if self.ruleset.SITTING_OUT_SETTLES and out:
            hand["sitting_out"] = out[0]  # Skat: the dealer who sits out settles too (spec §2.4)
        context = Context(bock=bock, round=round_name if self.schafkopf else "normal")
        result = self.ruleset.score(hand, seats, context)
        outcome = result.outcome
        payouts = {name: result.payouts.get(name, 0) for name in self.players}
        lines = list(result.lines)
        if in_stoeckle:
            assert slot is not None
            self._hand_in_stoeckle(slot, outcome, mungo_owner or outcome.declarer)
        if buyer is not None and seller is not None:
            self._pay_purchase(buyer, seller, payouts, lines)
        stock = 0
        if not bockspiel and slot is not None and slot.for_stock and not outcome.penalty:
            stock = self._gardareiz_stock(outcome, payouts, lines)
        elif self.table.stock == "anhang_c" and self.stock and outcome.game == "rufspiel" and not outcome.penalty:
            stock = self._anhang_c_stock(outcome, payouts, lines)
        if not bockspiel:
            self._use_game(outcome, slot)
            # 001 §8.4 "Nach dem Bockspiel gibt der Spieler, der … hätte geben müssen"; otherwise the
            # deal goes on clockwise from whoever dealt.
            self.dealer = (dealer + 1) % self.n
        self.vergeben_in_row = 0
        fee = self._keep_list(result)
        triggered = () if outcome.penalty else self._triggers(outcome, hand, result)
        return EntryResult(
            number=self.entries,
            kind="hand",
            dealer=self.players[dealer],
            seats=seats,
            sitting_out=out,
            round=round_name,
            bock=bock,
            multiplier=result.multiplier,
            payouts=payouts,
            lines=tuple(lines),
            stock=stock,
            hand=result,
            wrong_dealer=wrong,
            triggered=triggered,
            bought_by=buyer,
            verlustspielgeld=fee,
        )

    def _keep_list(self, result: HandResult) -> int:
        """Write the hand on the Spielliste (where the rule set keeps one) and count the game for
        its declarer; returns the Verlustspielgeld a lost game costs him (skat.md §6)."""
        if result.sheet is not None:
            for name, amount in result.sheet.written.items():
                self.list_totals[self.index[name]] += amount
        outcome = result.outcome
        if outcome.declarer is None or outcome.declarer_won is None or outcome.penalty:
            return 0
        i = self.index[outcome.declarer]
        if outcome.declarer_won:
            self.won[i] += 1
            return 0
        self.lost[i] += 1
        return self.table.verlustspielgeld_for(self.lost[i])

    # --- buying the cards (001 §7.1/§7.2) --------------------------------------------------------

    def _buyers(self, sitting_out: tuple[str, ...]) -> tuple[str, ...]:
        """Who may buy: at five the dealer, at six also the Abheber ("Will der Geber nicht abkaufen
        kann der Abheber abkaufen"); nobody at four or where the family has no buying."""
        if not self.table.buying or self.n < 5:
            return ()
        return sitting_out

    def _purchase(
        self, raw: Any, dealer: int, seats: tuple[str, ...], out: tuple[str, ...]
    ) -> tuple[str, str, tuple[str, ...], tuple[str, ...]]:
        """The buyer takes the seat of the player dealt last (at five the one to the dealer's right,
        001 §7.1 "vom Eigentümer … rechts vom Geber"); the seller sits out instead."""
        buyers = self._buyers(out)
        if not buyers and self.table.family == "doppelkopf":
            # Five or six may well be seated: 004 sits them out in turn and knows no buying.
            raise EngineError("not_allowed", "Beim Doppelkopf (004) gibt es kein Kaufen der Karten.", "bought_by")
        if not buyers and not self.table.buying:
            raise EngineError("not_allowed", "Diese Regeln kennen kein Kaufen der Karten.", "bought_by")
        if not buyers:
            raise EngineError(
                "not_allowed",
                "Karten kaufen kann man nur, wenn fünf oder sechs am Tisch sitzen (001 §7.1, §7.2).",
                "bought_by",
            )
        buyer = self.players[self._player(raw, "bought_by")]
        if buyer not in buyers:
            who = " oder ".join(buyers)
            raise EngineError(
                "not_allowed",
                f"Kaufen kann nur, wer bei diesem Spiel aussetzt: {who} (001 §7.1, §7.2).",
                "bought_by",
            )
        seller = seats[-1]
        new_seats = (*seats[:-1], buyer)
        order = [self.players[(dealer + k) % self.n] for k in range(1, self.n + 1)]
        left_out = (set(out) - {buyer}) | {seller}
        return buyer, seller, new_seats, tuple(p for p in order if p in left_out)

    def _pay_purchase(self, buyer: str, seller: str, payouts: dict[str, int], lines: list[Line]) -> None:
        # 001 §7.1 "Entweder er zahlt und spielt": the price is a table option, never doubled.
        price = self.table.buy_price
        if price:
            payouts[buyer] -= price
            payouts[seller] += price
            lines.append(Line(f"Karten gekauft: {buyer} zahlt {seller}", price))
        else:
            lines.append(Line(f"Karten gekauft: {buyer} spielt für {seller}"))

    # --- the Stöcklesrunde (001 §5.4/§5.5) -------------------------------------------------------

    def _mungo_owner(self, raw: Any, seats: tuple[str, ...]) -> str:
        if raw is None:
            raise EngineError(
                "missing_field",
                "In der Stöcklesrunde gehört jeder Mungo einem Spieler: wer gibt sein Mungo-Stöckle ab?",
                "declarer",
            )
        if raw not in seats:
            raise EngineError("invalid_value", f"'{raw}' sitzt bei diesem Spiel nicht mit am Tisch.", "declarer")
        return str(raw)

    def _hand_in_stoeckle(self, slot: RoundSlot, outcome: Outcome, owner: str | None) -> None:
        """Hand in the owner's Stöckle for the game; a game he already played is refused. Games
        without a Stöckle (Sie) pass without counting; the round ends with the last Stöckle."""
        game = outcome.game
        if owner is None or game not in STOECKLE[slot.name]:
            return
        held = dict(slot.stoeckle)
        if game not in held[owner]:
            left = ", ".join(_GAME_LABELS.get(g, g) for g in held[owner]) or "keins mehr"
            raise EngineError(
                "not_allowed",
                f"{owner} hat {_GAME_LABELS.get(game, game)} in dieser Runde schon gespielt; übrig: {left} (001 §5.4).",
                "game",
            )
        held[owner] = tuple(g for g in held[owner] if g != game)
        left = sum(len(games) for games in held.values())
        self.current = RoundSlot(slot.name, left, slot.for_stock, tuple(held.items())) if left else None

    def _gardareiz_stock(self, outcome: Outcome, payouts: dict[str, int], lines: list[Line]) -> int:
        """001 §5.3: a won Herz-Solo wins the Stock and ends the round; a lost one doubles it from
        the declarer, by at most ``stock_double_cap``."""
        if outcome.game != "solo" or outcome.suit != "herz" or outcome.declarer is None:
            return 0
        declarer = outcome.declarer
        if outcome.declarer_won:
            amount = self.stock
            self.stock = 0
            self.current = None
            payouts[declarer] += amount
            lines.append(Line(f"Stock gewonnen ({declarer})", amount))
            return -amount
        amount = min(self.stock, self.table.stock_double_cap)
        self.stock += amount
        payouts[declarer] -= amount
        lines.append(Line(f"Stock aufgedoppelt ({declarer})", amount))
        return amount

    def _anhang_c_stock(self, outcome: Outcome, payouts: dict[str, int], lines: list[Line]) -> int:
        """003 §3.2: only the Spielmacher of a partner game wins the Stock; losing, he doubles it."""
        declarer = outcome.declarer
        assert declarer is not None
        amount = self.stock
        if outcome.declarer_won:
            self.stock = 0
            payouts[declarer] += amount
            lines.append(Line(f"Stock gewonnen ({declarer})", amount))
            return -amount
        self.stock += amount
        payouts[declarer] -= amount
        lines.append(Line(f"Stock aufgedoppelt ({declarer})", amount))
        return amount

    def _triggers(self, outcome: Outcome, hand: Mapping[str, Any], result: HandResult) -> tuple[str, ...]:
        """Rounds this hand sets off; every hand counts, also one inside a special round or the
        Bockspiel (the new round queues behind the one in force)."""
        out: list[str] = []
        if self.table.bock and any(self._bock_trigger(t, outcome, hand, result) for t in self.table.bock_triggers):
            self._add_round("bockrunde")  # at most one Bockrunde per hand, however many criteria
            out.append("bockrunde")
        if self.table.mungorunde and self._all_tricks(outcome, hand):
            if not self.mungorunde_triggered:
                # 001 §5.2 "zwingend nur beim ersten Mal an dem Zocktag-/abend".
                self.mungorunde_triggered = True
                self._add_round("mungorunde")
                out.append("mungorunde")
            else:
                self.vote_pending = True
                out.append("vote")
        return tuple(out)

    def _all_tricks(self, outcome: Outcome, hand: Mapping[str, Any]) -> bool:
        """One side took every trick (001 §5.2 "alle Stiche … keinen Stich"), Bettel and Mungo aside."""
        if self.table.family != "schafkopf":
            return outcome.schwarz
        if outcome.game in _NO_SIDES:
            return False
        tricks = hand.get("tricks")
        # A won Tout took every trick; the preset keeps Schwarz for the Schneider tariff only.
        return (
            outcome.schwarz
            or (outcome.tout and outcome.declarer_won is True)
            or (type(tricks) is int and tricks in (0, 8))
        )

    def _bock_trigger(self, trigger: str, outcome: Outcome, hand: Mapping[str, Any], result: HandResult) -> bool:
        sided = outcome.augen is not None and outcome.game not in _NO_SIDES
        if trigger == "6060":
            return sided and outcome.augen == 60  # 001 §5.1; skat.md §7: a game lost at 60:60
        if trigger == "kontra_re_lost":
            return outcome.kontra == 2 and outcome.declarer_won is False  # skat.md §7: lost after Re
        if trigger == "grand_hand_won":
            return outcome.game == "grand" and outcome.declarer_won is True and hand.get("hand") is True
        if trigger == "hundred":
            # skat.md §7 "a list total that is a multiple of 100": a total this hand changed that
            # now stands at 100, 200 … or −100 … (0 is where every list starts, not a Hunderter).
            written = result.sheet.written if result.sheet is not None else {}
            totals = [self.list_totals[self.index[name]] for name in written]
            return any(total % 100 == 0 and total != 0 for total in totals)
        if trigger == "3090":
            return sided and outcome.augen in (30, 90)  # 001 §5.1: either side with 30
        if trigger == "120120":
            return outcome.augen == 120  # 004: 120 of 240
        if trigger == "schwarz":
            return self._all_tricks(outcome, hand)
        if trigger == "herz_solo_lost":
            return outcome.game == "solo" and outcome.suit == "herz" and outcome.declarer_won is False
        if trigger == "four_deckel":
            return outcome.deckel >= 4
        # kontra_lost: the side that gave the last Kontra/Re (Doppelkopf: any announcement) lost.
        if outcome.declarer_won is None:
            return False
        if self.table.family == "doppelkopf":
            announced = hand.get("announcements") or {}
            return bool(announced.get("contra")) if outcome.declarer_won else bool(announced.get("re"))
        if not outcome.kontra or outcome.last_kontra is None:
            return False
        return (outcome.last_kontra == "opponents") == outcome.declarer_won

    # --- events --------------------------------------------------------------------------------

    def _event(self, raw: Mapping[str, Any]) -> EntryResult:
        kind = raw["event"]
        if kind not in EVENTS:
            raise EngineError("invalid_value", f"Unbekanntes Ereignis '{kind}'; möglich: {', '.join(EVENTS)}.", "event")
        extra = sorted(set(raw) - _EVENT_FIELDS[kind] - {"event", "note"})
        if extra:
            raise EngineError("unexpected_field", f"Das Feld '{extra[0]}' passt nicht zu '{kind}'.", extra[0])
        dealer = self.dealer
        round_name, bock = self._round_now()
        payouts = dict.fromkeys(self.players, 0)
        lines: list[Line] = []
        stock = 0
        if kind in ("zusammengeworfen", "schmeissen"):
            if self.vote_pending:
                raise EngineError("vote_required", "Vor dem nächsten Geben wird abgestimmt (001 §5.2).", None)
            must = _must_play(self.current.stoeckle if self.current else (), self.seating[dealer][0])
            if kind == "zusammengeworfen" and must is not None:
                raise EngineError(
                    "not_allowed",
                    f"In der Stöcklesrunde wird nicht zusammengeworfen: will keiner spielen, muss {must} spielen"
                    " (001 §5.4).",
                    "event",
                )
            if kind == "schmeissen":
                if not self.table.schmeissen:
                    raise EngineError("not_allowed", "Schmeißen gibt es nur beim Doppelkopf (004 §5).", "event")
                # 004 §5: not played, no score, the same dealer deals again.
                payouts.update(schmeissen_payouts(self.players))
                lines.append(Line("Geschmissen: keine Wertung, dieselbe Geberin gibt neu"))
            else:
                stock = self._zusammengeworfen(payouts, lines)
                self.dealer = (dealer + 1) % self.n  # spec §3: redeal by the next dealer
            self.vergeben_in_row = 0
        elif kind in ("vergeben", "verabhebt"):
            stock = self._misdeal(kind, raw, payouts, lines)
        elif kind == "special_round":
            self._special_round(raw)
        elif kind == "vote":
            if not self.vote_pending:
                raise EngineError("no_vote", "Es steht keine Abstimmung an.", "event")
            choice = raw.get("choice")
            if choice not in ("mungorunde", "bockrunde"):
                raise EngineError("invalid_value", "Abgestimmt wird über mungorunde oder bockrunde.", "choice")
            # 001 §5.2 "Gleichstand = Mungorunde": the event records the result, the table counts.
            self.vote_pending = False
            self._add_round(choice)
        else:  # end_round
            if self.current is None:
                raise EngineError("no_round", "Es läuft keine Runde, die beendet werden könnte.", "event")
            self.current = None
        seats, out = self.seating[dealer]
        return EntryResult(
            number=self.entries,
            kind=kind,
            dealer=self.players[dealer],
            seats=seats,
            sitting_out=out,
            round=round_name,
            bock=bock,
            multiplier=1,
            payouts=payouts,
            lines=tuple(lines),
            stock=stock,
        )

    def _zusammengeworfen(self, payouts: dict[str, int], lines: list[Line]) -> int:
        if self.table.stock != "anhang_c":
            # Skat: all passed without Ramsch — "eingepasst", the next dealer deals (skat.md §7).
            said = "Eingepasst" if self.table.family == "skat" else "Zusammengeworfen"
            lines.append(Line(f"{said}: der Nächste gibt"))
            return 0
        # 003 §3.2 "Jeder Teilnehmer zahlt eine Einheit": the players of this deal, a Rufspiel's price.
        sk = self.schafkopf
        assert sk is not None
        unit = sk.opt("price_rufspiel") * (sk.opt("cents_per_unit") or 1)
        seats = self.seating[self.dealer][0]
        for name in seats:
            payouts[name] -= unit
        self.stock += unit * len(seats)
        lines.append(Line("Zusammengeworfen: jeder Mitspieler zahlt in den Stock", unit))
        return unit * len(seats)

    def _misdeal(self, kind: str, raw: Mapping[str, Any], payouts: dict[str, int], lines: list[Line]) -> int:
        """001 §8.1/§8.2 and 004 §5: the same dealer deals again."""
        dealer = self.players[self.dealer]
        cutter = self.players[self.dealer - 1]  # 001 §2.3: the player to the dealer's right cuts
        by = self._player(raw.get("by", dealer if kind == "vergeben" else cutter), "by")
        by_name = self.players[by]
        if kind == "vergeben" and by_name != dealer:
            raise EngineError("invalid_value", f"Vergeben kann sich nur der Geber ({dealer}).", "by")
        if kind == "verabhebt" and by_name == dealer:
            raise EngineError("invalid_value", "Der Geber hebt nicht ab.", "by")
        label = "Vergeben" if kind == "vergeben" else "Verabhebt"
        if self.table.stock == "allgaeu":
            times = self.penalties.get((kind, by_name), 0) + 1
            self.penalties[(kind, by_name)] = times
            amount = self.table.stock_first if times == 1 else self.table.stock_repeat
            payouts[by_name] -= amount
            self.stock += amount
            lines.append(Line(f"{label} ({by_name}, {times}. Mal): in den Stock", amount))
            # 001 §5.3 "Kam diese Runde durch Vergeben oder Verabheben zusammen": the Stock is
            # played out in a Gardareizrunde, queued once however many misdeals fill it.
            waiting = [s for s in (self.current, *self.queue) if s is not None and s.for_stock]
            if not waiting:
                self._add_round("gardareizrunde", for_stock=True)
            return amount
        if kind == "vergeben" and self.table.vergeben_limit:
            self.vergeben_in_row += 1
            if self.vergeben_in_row == self.table.vergeben_limit:
                self.vergeben_in_row = 0
                payouts.update(vergeben_payouts(self.players, by_name))
                lines.append(
                    Line(f"{self.table.vergeben_limit}× vergeben: jeder am Tisch 1, {by_name} zahlt die Summe", 1)
                )
                return 0
        lines.append(Line(f"{label} ({by_name}): neu geben"))
        return 0

    def _special_round(self, raw: Mapping[str, Any]) -> None:
        kind = raw.get("kind")
        if kind is None:
            raise EngineError("missing_field", "Welche Runde (kind) fehlt.", "kind")
        if kind not in self.table.special_kinds:
            allowed = ", ".join(self.table.special_kinds) or "keine"
            raise EngineError(
                "not_allowed", f"Die Runde '{kind}' gibt es bei dieser Regel nicht; möglich: {allowed}.", "kind"
            )
        if "dealer" in raw:
            if kind != "abschlussrunde":
                raise EngineError("unexpected_field", "Einen Geber bestimmt nur die Abschlussrunde.", "dealer")
            # 001 §5.7: "Der, der beim nächsten Spiel den Alten hat, gibt an und ab."
            self.dealer = self._player(raw["dealer"], "dealer")
        if kind == "geschobene_mungorunde":
            # 001 §5.2.2: agreed "vor Beginn der Mungorunde" — turns the Mungorunde about to
            # start (or the next one queued) into a geschobene one; otherwise one is queued.
            fresh = RoundSlot("geschobene_mungorunde", self.n)
            if self.current == RoundSlot("mungorunde", self.n):
                self.current = fresh
                return
            for i, slot in enumerate(self.queue):
                if slot.name == "mungorunde":
                    self.queue[i] = fresh
                    return
        self._add_round(kind)

    def _player(self, name: Any, where: str) -> int:
        if not isinstance(name, str) or name not in self.index:
            raise EngineError("invalid_value", f"'{name}' sitzt nicht am Tisch.", where)
        return self.index[name]
