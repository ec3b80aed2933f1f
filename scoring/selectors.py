"""Read-only queries for evenings, tables and their logs. Views and services call these.

The table state is never stored: ``table_state`` folds the stored log (``Entry.data`` by number)
with ``scoring.engine.session``. The score sheet and the settlement read the derived fields and
the ledger rows that ``scoring.services`` keeps in step with the log.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Max, Q, QuerySet, Sum
from django.http import Http404
from django.utils.translation import gettext as _

from clubs.games import DEFAULT_PRESETS, FAMILIES
from clubs.models import Club, Member
from scoring import hooks
from scoring.engine import registry
from scoring.engine.core import Context, EngineError, Line, RuleSet
from scoring.engine.presets.schafkopf import SchafkopfRules
from scoring.engine.samples import random_hand
from scoring.engine.session import SessionResult, fold
from scoring.engine.session_rules import TableRules
from scoring.labels import describe, describe_short, explain_lines, paper_numbers, short_names, suit_names
from scoring.models import AuditEntry, ClubRules, Entry, KasseBooking, LedgerEntry, Seat, Session, Table, Unit

DEFAULT_PRESET = "allgaeu"
STOCK = "Stock"  # the settlement's name for the money left in the tables' Stock
# Rounds whose hands the sheet marks (001 §5): Bock and Mungo.
BOCK_ROUNDS = frozenset({"bockrunde", "abschlussrunde", "bockspiel"})
MUNGO_ROUNDS = frozenset({"mungorunde", "geschobene_mungorunde"})


# --- rules -------------------------------------------------------------------------------------


def frozen_options(ruleset: RuleSet, table_rules: TableRules) -> dict[str, Any]:
    """Every option value of a resolved rule set and its table options, as JSON: what a table
    stores when it starts, so later changes to the club's rules never reach it."""
    values = {name: list(v) if isinstance(v, tuple) else v for name, v in ruleset.options.items()}
    values.update({name: list(v) if isinstance(v, tuple) else v for name, v in table_rules.options.items()})
    return values


def club_rules_spec(club: Club) -> dict[str, Any]:
    """The club's default rules for new tables (``club_rules``)."""
    return club_rules(club).spec


def club_rules(club: Club) -> ClubRules:
    """The club's rules row, unsaved with the defaults of its game (``allgaeu`` for Schafkopf)
    when the club has none yet, or when the stored rules belong to another game than the one
    the club now plays (issue 32 §3: a club that switches to Skat starts its tables with Skat;
    the stored row stays untouched until the Vorstand saves the new game's rules)."""
    rules = ClubRules.objects.filter(club=club).first()
    game = club.game
    preset = registry.all_presets().get(rules.preset) if rules is not None else None
    if rules is not None and preset is not None and preset.FAMILY in FAMILIES[game]:
        return rules
    default = DEFAULT_PRESETS.get(game, DEFAULT_PRESET)
    winnings_to_kasse = rules.winnings_to_kasse if rules is not None else False
    return ClubRules(club=club, preset=default, winnings_to_kasse=winnings_to_kasse)


@dataclass(frozen=True)
class TableSetup:
    """What the fold needs of a table: its rules and players, by their seat names."""

    ruleset: RuleSet
    rules: TableRules
    players: tuple[str, ...]  # seat order
    first_dealer: str
    members: Mapping[str, int]  # seat name → member id (who sat down there at the start)
    # A seat taken over from a hand on (``SeatChange``): (seat name, first entry number, member id),
    # in the order they were made. The log keeps the seat's name; the ledger follows the player.
    changes: tuple[tuple[str, int, int], ...] = ()

    @property
    def family(self) -> str:
        return self.rules.family

    def members_at(self, number: int) -> Mapping[str, int]:
        """Seat name → the member who played entry ``number`` on that seat."""
        if not self.changes:
            return self.members
        out = dict(self.members)
        for name, from_number, member in self.changes:
            if number >= from_number:
                out[name] = member
        return out


class TableGone(Http404):
    """The table was removed while a request for it was on its way (a table started by mistake and
    discarded, an open tournament's table handed back to its paper sheet just as its first game
    was saved): nothing was stored. An ``Http404``, so wherever it is not answered on purpose the
    answer is "not found", never a server error; the phone's save and the offline queue answer it
    with this reason (``scoring.views``, ``offline.views``)."""

    def __init__(self) -> None:
        super().__init__(
            _(
                "Diesen Tisch gibt es nicht mehr: er wurde inzwischen entfernt (ein Turniertisch etwa wird wieder "
                "vom Zettel eingetragen). Es wurde nichts gespeichert."
            )
        )


def table_setup(table: Table) -> TableSetup:
    ruleset, rules = registry.load_with_table(table.ruleset_spec)
    seats = list(table.seats.order_by("position").values_list("name", "member_id", "is_first_dealer"))
    if not seats:  # every table seats three or more: its seats went with the table just now
        raise TableGone
    players = tuple(name for name, _, _ in seats)
    first = next((name for name, _, first in seats if first), players[0])
    changes = tuple(
        table.seat_changes.order_by("from_number", "id").values_list("seat__name", "from_number", "member_id")
    )
    return TableSetup(ruleset, rules, players, first, {name: member for name, member, _ in seats}, changes)


def seat_notes(table: Table) -> list[str]:
    """One line per seat taken over (``SeatChange``), for the table page: the sheet keeps the
    seat's name, so the Schreiber enters the substitute's games under it."""
    notes = []
    for change in table.seat_changes.select_related("seat").order_by("from_number", "id"):
        if change.member_id == change.seat.member_id:
            text = _("Ab Spiel %(number)s spielt %(name)s wieder selbst.")
        else:
            text = _(
                "Ab Spiel %(number)s spielt %(name)s auf dem Platz von %(seat)s: "
                "seine Spiele unter „%(seat)s“ eintragen."
            )
        notes.append(text % {"number": change.from_number, "name": change.name, "seat": change.seat.name})
    return notes


def club_table(club: Club, session_id: int, table_id: int) -> Table:
    """A table of one of ``club``'s evenings (404 for any other: the address names the club).
    ``TableGone`` where the evening is the club's but the table is not in it (any more): the phone
    and its queue asked for a table they knew, so they hear why, where another club's table (or
    evening) stays plainly not found."""
    table = (
        Table.objects.select_related("session", "session__club")
        .filter(session__club=club, session_id=session_id, pk=table_id)
        .first()
    )
    if table is not None:
        return table
    if Session.objects.filter(club=club, pk=session_id).exists():
        raise TableGone
    raise Http404


def club_table_to_write(club: Club, session_id: int, table_id: int, user: Any) -> Table:
    """``club_table`` for a page or the phone that is about to change the table: also
    ``PermissionDenied`` with the reason where ``hooks.table_write_checks`` refuse ``user`` (a
    championship table is written by its Schreiber's login and the Vorstand only). The
    services check again in their transaction; this answers before any form is read."""
    table = club_table(club, session_id, table_id)
    hooks.check_write(table, user)
    return table


def table_log_keys(table: Table) -> list[tuple[dict[str, Any], str]]:
    """The table's log in order, each entry with the idempotency key it was stored under."""
    return list(Entry.objects.filter(table=table).order_by("number").values_list("data", "idempotency_key"))


def entry_by_key(table: Table, key: str) -> Entry | None:
    """The entry stored at ``table`` under the idempotency key ``key``, if any."""
    return Entry.objects.filter(table=table, idempotency_key=key).first()


def table_log(table: Table) -> list[dict[str, Any]]:
    """The log's raw facts (spec §3 entries), in order."""
    return list(Entry.objects.filter(table=table).order_by("number").values_list("data", flat=True))


def fold_log(setup: TableSetup, log: Sequence[Any]) -> SessionResult:
    return fold(setup.ruleset, setup.rules, setup.players, setup.first_dealer, log)


def table_state(table: Table, setup: TableSetup | None = None) -> SessionResult:
    """The fold of the stored log: every entry scored, the totals, and the state for the next hand."""
    setup = setup or table_setup(table)
    return fold_log(setup, table_log(table))


def state_before(table: Table, number: int, setup: TableSetup | None = None) -> SessionResult:
    """The fold of the entries before ``number``: the state the entry ``number`` was played in."""
    setup = setup or table_setup(table)
    log = list(Entry.objects.filter(table=table, number__lt=number).order_by("number").values_list("data", flat=True))
    return fold_log(setup, log)


@dataclass(frozen=True)
class RulesExample:
    """A typical hand and what it pays under a rule set (the club's rules page)."""

    hand: Mapping[str, Any]
    payouts: Mapping[str, int]
    price: int | None
    lines: tuple[Line, ...]


EXAMPLE_SEATS = ("Anna", "Bert", "Cilli", "Done")


def rules_examples(ruleset: RuleSet) -> list[RulesExample]:
    """A few typical hands scored under ``ruleset`` (normal round, no Bock); a hand the rules do
    not allow is left out."""
    seats = EXAMPLE_SEATS[: max(ruleset.SEAT_COUNTS)]  # Skat: three play each game
    if isinstance(ruleset, SchafkopfRules):
        hands = _schafkopf_examples(ruleset)
    else:
        rng = random.Random(6)
        try:
            hands = [random_hand(ruleset, rng, seats) for _ in range(4)]
        except NotImplementedError:
            hands = []
    out = []
    for hand in hands:
        try:
            result = ruleset.score(hand, seats, Context())
        except EngineError:
            continue
        out.append(RulesExample(hand, result.payouts, result.price, result.lines))
    return out


def _schafkopf_examples(ruleset: SchafkopfRules) -> list[dict[str, Any]]:
    deckel = {"deckel": 1} if ruleset.opt("deckel") == "pflicht" else {}
    anna, bert, cilli, done = EXAMPLE_SEATS
    return [
        {"game": "rufspiel", "declarer": anna, "partner": bert, "augen": 75, **deckel},
        {
            "game": "rufspiel",
            "declarer": cilli,
            "partner": done,
            "augen": 25,
            "laufende": 3,
            "kontra": 1,
            "last_kontra": "opponents",
            **deckel,
        },
        {"game": "solo", "suit": "herz", "declarer": bert, "augen": 95, "laufende": 4, **deckel},
        {"game": "wenz", "declarer": done, "augen": 50, "laufende": 2, **deckel},
        {"game": "solo", "suit": "eichel", "declarer": anna, "tout": True, "result": "won"},
        {"game": "bettel", "declarer": cilli, "result": "won", **deckel},
        {"game": "mungo", "augen_by_player": {anna: 10, bert: 25, cilli: 40, done: 45}},
    ]


# --- the score sheet ----------------------------------------------------------------------------


@dataclass(frozen=True)
class SheetCell:
    name: str
    amount: int | None  # None: sat out this entry
    total: int  # running total after this entry
    dealer: bool


@dataclass(frozen=True)
class SheetRow:
    entry: Entry
    cells: tuple[SheetCell, ...]  # per player, in seat order
    bock: bool
    mungo: bool
    what: str  # the entry in one line, suits named as the table's rule book names them
    what_short: str  # a few characters of it, for a phone
    explanation: str  # the entry's explanation lines in one line, in the table's suit words
    label: str = ""  # its "Nr." as the paper sheet counts (labels.paper_numbers)

    @property
    def amounts(self) -> tuple[int | None, ...]:
        return tuple(cell.amount for cell in self.cells)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(cell.total for cell in self.cells)


@dataclass(frozen=True)
class ListRow:
    """One game of a kept list (Skat): what the paper writes — the declarer's +value or
    −2 × value, nobody else anything — and each player's list total after it."""

    entry: Entry
    label: str
    what: str
    what_short: str
    cells: tuple[int | None, ...]  # the list's entry per player, in seat order; None: nothing written
    totals: tuple[int, ...]
    out: tuple[bool, ...]  # sat out this game (the dealer at four)
    value: int | None  # the game value, as counted (overbid, doubled)
    overbid: bool = False


@dataclass(frozen=True)
class SpielListe:
    """The Spielliste of a rule set that keeps one (``RuleSet.KEEPS_LIST``, skat.md §5, §6): the
    rows, each player's list total, won and lost games, the Verlustspielgeld of the list (cents,
    where the table charges it) and the settlement the rule set makes of it
    (``RuleSet.list_settlement``): money who pays whom, or the Seeger-Fabian Auswertung."""

    players: tuple[str, ...]
    rows: tuple[ListRow, ...]
    totals: tuple[int, ...]
    won: tuple[int, ...]
    lost: tuple[int, ...]
    verlustspielgeld: tuple[int, ...] | None
    kind: str  # RuleSet.LIST_SETTLEMENT: "money" | "seeger"
    settlement: tuple[Mapping[str, int], ...]  # per player, in seat order
    transfers: tuple[tuple[str, str, int], ...]  # "money": (payer, payee, amount in the table's unit)

    @property
    def final(self) -> list[tuple[str, int]]:
        return list(zip(self.players, self.totals, strict=True))

    @property
    def players_figures(self) -> list[tuple[str, int, int, int, Mapping[str, int]]]:
        """Per player: name, list total, won, lost, the settlement's figures (for the template)."""
        return list(zip(self.players, self.totals, self.won, self.lost, self.settlement, strict=True))


@dataclass(frozen=True)
class Sheet:
    table: Table
    players: tuple[str, ...]
    rows: tuple[SheetRow, ...]
    totals: tuple[int, ...]
    stock: int
    unit: str
    spielliste: SpielListe | None = None  # where the rule set keeps a list (Skat)

    @property
    def strip(self) -> list[tuple[str, int]]:
        """The totals under the thumb: the list's where the rule set keeps one, as on paper."""
        return self.spielliste.final if self.spielliste is not None else self.final

    @property
    def strip_unit(self) -> str:
        """A list is written in points, whatever its settlement is paid in."""
        return Unit.POINT if self.spielliste is not None else self.unit

    @property
    def last(self) -> SheetRow | None:
        return self.rows[-1] if self.rows else None

    @property
    def final(self) -> list[tuple[str, int]]:
        return list(zip(self.players, self.totals, strict=True))

    @property
    def short(self) -> dict[str, str]:
        """Each player's short name for the narrow columns of a phone."""
        return short_names(self.players)


def table_sheet(table: Table) -> Sheet:
    """The Liste: one row per entry with each player's amount and the running totals, read from
    the derived fields and the ledger (three queries)."""
    seats = list(table.seats.order_by("position").values_list("name", "member_id"))
    players = tuple(name for name, _ in seats)
    column = {member: i for i, (_, member) in enumerate(seats)}
    amounts: dict[int, list[int | None]] = defaultdict(lambda: [None] * len(seats))
    for entry_id, member, amount, role in LedgerEntry.objects.filter(table=table).values_list(
        "entry_id", "member_id", "amount", "role"
    ):
        # Whoever sat out shows a dash, unless the entry booked something for them anyway (the
        # dealer sitting out pays for a Vergeben).
        amounts[entry_id][column[member]] = None if role == "out" and not amount else amount
    running = [0] * len(seats)
    rows = []
    stock = 0
    suits = suit_names(table.preset)
    short = short_names(players)
    entries = list(Entry.objects.filter(table=table).order_by("number"))
    numbers = paper_numbers([entry.kind for entry in entries])
    for entry, label in zip(entries, numbers, strict=True):
        row = amounts[entry.pk]
        running = [total + (amount or 0) for total, amount in zip(running, row, strict=True)]
        cells = tuple(
            SheetCell(name, amount, total, name == entry.dealer)
            for name, amount, total in zip(players, row, running, strict=True)
        )
        rows.append(
            SheetRow(
                entry=entry,
                cells=cells,
                bock=entry.bock > 0 or entry.round in BOCK_ROUNDS,
                mungo=entry.round in MUNGO_ROUNDS,
                what=describe(entry.data, suits),
                what_short=describe_short(entry.data, short, suits),
                explanation=explain_lines(entry.lines, suits),
                label=label,
            )
        )
        stock = entry.stock_after
    return Sheet(table, players, tuple(rows), tuple(running), stock, table.unit, spielliste(table, entries))


def spielliste(table: Table, entries: Sequence[Entry] | None = None) -> SpielListe | None:
    """The table's Spielliste where its rule set keeps one (else None): the log folded once."""
    preset = registry.all_presets().get(table.preset)
    if preset is None or not preset.KEEPS_LIST:
        return None  # no rule set to build, no query, for every other table
    setup = table_setup(table)
    ruleset = setup.ruleset
    if not ruleset.KEEPS_LIST:
        return None
    entries = list(entries if entries is not None else Entry.objects.filter(table=table).order_by("number"))
    result = fold_log(setup, [entry.data for entry in entries])
    players = setup.players
    suits = suit_names(table.preset)
    short = short_names(players)
    running = [0] * len(players)
    rows = []
    labels = paper_numbers([entry.kind for entry in entries])
    for entry, folded, label in zip(entries, result.entries, labels, strict=True):
        sheet = folded.hand.sheet if folded.hand is not None else None
        written = sheet.written if sheet is not None else {}
        running = [total + written.get(name, 0) for total, name in zip(running, players, strict=True)]
        rows.append(
            ListRow(
                entry=entry,
                label=label,
                what=describe(entry.data, suits),
                what_short=describe_short(entry.data, short, suits),
                cells=tuple(written.get(name) for name in players),
                totals=tuple(running),
                out=tuple(name in folded.sitting_out for name in players),
                value=sheet.value if sheet is not None else None,
                overbid=bool(sheet and sheet.overbid),
            )
        )
    state = result.state
    totals = dict(zip(players, state.list_totals, strict=True))
    won = dict(zip(players, state.won, strict=True))
    lost = dict(zip(players, state.lost, strict=True))
    figures = ruleset.list_settlement(totals, won, lost)
    transfers: list[tuple[str, str, int]] = []
    if ruleset.LIST_SETTLEMENT == "money":
        amounts = [figures[name]["amount"] for name in players]
        transfers = [(players[a], players[b], amount) for a, b, amount in fewest_transfers(amounts)]
    fees = None
    if setup.rules.verlustspielgeld:
        fees = tuple(setup.rules.verlustspielgeld_total(n) for n in state.lost)
    return SpielListe(
        players=players,
        rows=tuple(rows),
        totals=tuple(state.list_totals),
        won=tuple(state.won),
        lost=tuple(state.lost),
        verlustspielgeld=fees,
        kind=ruleset.LIST_SETTLEMENT,
        settlement=tuple(figures[name] for name in players),
        transfers=tuple(transfers),
    )


def entry_labels(table: Table) -> dict[int, str]:
    """Each entry's log position → its "Nr." as on paper (labels.paper_numbers)."""
    kinds = list(Entry.objects.filter(table=table).order_by("number").values_list("number", "kind"))
    return dict(zip((n for n, _ in kinds), paper_numbers([k for _, k in kinds]), strict=True))


def next_hand_number(table: Table) -> int:
    """The paper's number of the next hand: the hands so far, plus one."""
    return Entry.objects.filter(table=table, kind="hand").count() + 1


def sheet_changes(before: Sheet, after: Sheet) -> tuple[list[int], dict[str, int]]:
    """What a correction changed: the entry numbers whose amounts or round differ (compared by
    entry, so renumbering after a delete is not a change), and each player's total difference."""
    old = {row.entry.pk: (row.amounts, row.entry.round, row.entry.multiplier) for row in before.rows}
    changed = [
        row.entry.number
        for row in after.rows
        if old.get(row.entry.pk) != (row.amounts, row.entry.round, row.entry.multiplier)
    ]
    deltas = {
        name: new - was for name, new, was in zip(after.players, after.totals, before.totals, strict=True) if new != was
    }
    return changed, deltas


def table_audit(table: Table) -> QuerySet[AuditEntry]:
    return AuditEntry.objects.filter(table=table).select_related("user").order_by("-at", "-id")


# --- evenings -----------------------------------------------------------------------------------


def club_sessions(club: Club) -> QuerySet[Session]:
    """The club's evenings, newest first, with their counts of tables and entries."""
    return (
        Session.objects.filter(club=club)
        .annotate(
            table_count=Count("tables", distinct=True),
            entry_count=Count("tables__entries", distinct=True),
        )
        .order_by("-date", "-id")
    )


@dataclass(frozen=True)
class TableSummary:
    table: Table
    entry_count: int
    players: tuple[tuple[str, int], ...]  # (seat name, total) in seat order


def session_tables(session: Session) -> list[TableSummary]:
    """The evening's tables with their entry counts and each player's total (three queries)."""
    tables = list(Table.objects.filter(session=session).annotate(entry_count=Count("entries")).order_by("id"))
    totals = {
        (row["table_id"], row["member_id"]): row["total"]
        for row in LedgerEntry.objects.filter(session=session)
        .values("table_id", "member_id")
        .annotate(total=Sum("amount"))
        .order_by()
    }
    seats: dict[int, list[tuple[str, int]]] = defaultdict(list)
    for table_id, name, member in (
        Seat.objects.filter(table__session=session)
        .order_by("table_id", "position")
        .values_list("table_id", "name", "member_id")
    ):
        seats[table_id].append((name, totals.get((table_id, member), 0)))
    return [TableSummary(table, table.entry_count, tuple(seats[table.pk])) for table in tables]


@dataclass(frozen=True)
class Balance:
    member: Member | None  # None: the Stock
    unit: str
    amount: int

    @property
    def name(self) -> str:
        return self.member.display_name if self.member else STOCK


def session_balances(session: Session) -> list[Balance]:
    """Each player's result of the evening per unit (summed over its tables), and what was left
    in the tables' Stock (the players' balances and the Stock together are zero)."""
    rows = (
        LedgerEntry.objects.filter(session=session)
        .values("member_id", "unit")
        .annotate(total=Sum("amount"))
        .order_by("unit", "member_id")
    )
    members = Member.objects.in_bulk({row["member_id"] for row in rows})
    balances = [Balance(members[row["member_id"]], row["unit"], row["total"]) for row in rows]
    for unit, stock in session_stock(session).items():
        if stock:
            balances.append(Balance(None, unit, stock))
    return balances


def session_stock(session: Session) -> dict[str, int]:
    """Per unit, what is left in the Stock of the evening's tables after their last entries."""
    last = Entry.objects.filter(table__session=session).values("table_id").annotate(last=Max("number"))
    wanted = Q()
    for row in last:
        wanted |= Q(table_id=row["table_id"], number=row["last"])
    out: dict[str, int] = defaultdict(int)
    if not last:
        return out
    for unit, stock in Entry.objects.filter(wanted).values_list("table__unit", "stock_after"):
        out[unit] += stock
    return out


@dataclass(frozen=True)
class Transfer:
    """One payment of the settlement; ``None`` for ``payer``/``payee`` is the Stock, or the
    club's Kasse where ``kasse`` is set (the evening's winnings were booked to it, 001 §10)."""

    payer: Member | None
    payee: Member | None
    amount: int
    unit: str
    kasse: bool = False

    @property
    def payer_name(self) -> str:
        return self.payer.display_name if self.payer else STOCK

    @property
    def payee_name(self) -> str:
        return self.payee.display_name if self.payee else STOCK


def session_settlement(session: Session) -> list[Transfer]:
    """Who pays whom to settle the evening, per unit, with the fewest transfers.

    Issue 21: what is in the Stock is paid there by whoever paid it in by an event (a misdeal,
    001 §8.1/§8.2), not by whoever the fewest transfers would pick; and once the evening's
    winnings are booked to the Kasse (001 §10), every loser pays the Kasse, nobody pays a winner."""
    balances = [b for b in session_balances(session) if b.amount]
    if _winnings_in_kasse(session):
        return [Transfer(b.member, None, -b.amount, b.unit, kasse=True) for b in balances if b.member and b.amount < 0]
    by_unit: dict[str, list[Balance]] = defaultdict(list)
    for balance in balances:
        by_unit[balance.unit].append(balance)
    paid_in = _stock_payments(session)
    transfers: list[Transfer] = []
    for unit, unit_balances in sorted(by_unit.items()):
        amounts = {b.member.pk if b.member else None: b.amount for b in unit_balances}
        members = {b.member.pk: b.member for b in unit_balances if b.member}
        for member_id, paid in sorted(paid_in.get(unit, {}).items()):
            amount = min(paid, amounts.get(None, 0))
            if amount > 0 and member_id in members:
                transfers.append(Transfer(members[member_id], None, amount, unit))
                amounts[member_id] += amount
                amounts[None] -= amount
        parties = [key for key, amount in amounts.items() if amount]
        if sum(amounts.values()):
            continue  # a list's points (Seeger-Fabian, skat.md §6) are added up, not paid
        for payer, payee, amount in fewest_transfers([amounts[key] for key in parties]):
            payer_id, payee_id = parties[payer], parties[payee]
            transfers.append(
                Transfer(
                    members.get(payer_id) if payer_id else None,
                    members.get(payee_id) if payee_id else None,
                    amount,
                    unit,
                )
            )
    return transfers


def _winnings_in_kasse(session: Session) -> bool:
    """The evening is closed and its winnings stand in the Kasse (not reversed by a reopening)."""
    if not session.is_closed:
        return False
    bookings = KasseBooking.objects.filter(session=session).exclude(kind=KasseBooking.VERLUSTSPIELGELD)
    return bool(bookings.aggregate(total=Sum("amount"))["total"])


def _stock_payments(session: Session) -> dict[str, dict[int, int]]:
    """Per unit and player, what they paid into a Stock by events (Vergeben, Verabhebt,
    zusammengeworfen): the entries that raised the Stock and are no hand."""
    raised: list[int] = []
    before: dict[int, int] = {}
    rows = Entry.objects.filter(table__session=session).order_by("table_id", "number")
    for entry_id, table_id, kind, stock in rows.values_list("pk", "table_id", "kind", "stock_after"):
        if stock > before.get(table_id, 0) and kind != "hand":
            raised.append(entry_id)
        before[table_id] = stock
    out: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    paid = LedgerEntry.objects.filter(entry_id__in=raised, amount__lt=0).values_list("unit", "member_id", "amount")
    for unit, member_id, amount in paid:
        out[unit][member_id] -= amount
    return out


# Exact up to this many parties with a balance (2**n subsets, well under 0.1 s); an evening at
# three tables has at most 18 players, and many of them end near zero only rarely.
_EXACT_LIMIT = 12


def fewest_transfers(balances: Sequence[int]) -> list[tuple[int, int, int]]:
    """Settle ``balances`` (summing to zero; positive = is owed) as (payer, payee, amount) index
    triples with the fewest transfers. The minimum is n minus the largest number of groups the
    parties split into that each sum to zero (every group of k settles with k − 1 transfers), so
    the groups are found exactly by a subset search; within a group the largest debtor pays the
    largest creditor first. Above ``_EXACT_LIMIT`` parties only pairs that cancel exactly are
    split off before the rest settles as one group (at most n − 1 transfers)."""
    if sum(balances) != 0:
        raise ValueError("balances must sum to zero")
    parties = [i for i, amount in enumerate(balances) if amount]
    amounts = [balances[i] for i in parties]
    groups = _zero_groups(amounts) if len(parties) <= _EXACT_LIMIT else _cancelling_pairs(amounts)
    out: list[tuple[int, int, int]] = []
    for group in groups:
        owed = {parties[i]: balances[parties[i]] for i in group}
        while any(owed.values()):
            payer = min(owed, key=lambda p: (owed[p], p))
            payee = max(owed, key=lambda p: (owed[p], -p))
            amount = min(-owed[payer], owed[payee])
            out.append((payer, payee, amount))
            owed[payer] += amount
            owed[payee] -= amount
    return out


def _cancelling_pairs(amounts: list[int]) -> list[list[int]]:
    waiting: dict[int, list[int]] = defaultdict(list)
    groups: list[list[int]] = []
    for i, amount in enumerate(amounts):
        if waiting[-amount]:
            groups.append([waiting[-amount].pop(), i])
        else:
            waiting[amount].append(i)
    rest = sorted(i for indices in waiting.values() for i in indices)
    return [*groups, rest] if rest else groups


def _zero_groups(amounts: list[int]) -> list[list[int]]:
    """The most groups of zero sum that partition ``amounts`` (dynamic programming over subsets)."""
    n = len(amounts)
    full = (1 << n) - 1
    total = [0] * (full + 1)
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        total[mask] = total[mask ^ low] + amounts[low.bit_length() - 1]
        best[mask] = max(best[mask ^ (1 << i)] for i in range(n) if mask >> i & 1) + (total[mask] == 0)
    # Walk back: remove one element at a time along a best chain; every zero-sum mask on the way
    # closes a group.
    groups: list[list[int]] = []
    mask, cut = full, full
    while mask:
        for i in range(n):
            if mask >> i & 1 and best[mask ^ (1 << i)] + (total[mask] == 0) == best[mask]:
                nxt = mask ^ (1 << i)
                break
        if total[nxt] == 0:
            groups.append([j for j in range(n) if (cut ^ nxt) >> j & 1])
            cut = nxt
        mask = nxt
    return groups


# --- the Kasse ----------------------------------------------------------------------------------


def kasse_bookings(club: Club) -> QuerySet[KasseBooking]:
    return KasseBooking.objects.filter(club=club).select_related("member", "session", "by").order_by("-at", "-id")


def kasse_balance(club: Club) -> dict[str, int]:
    """The Kasse per unit."""
    rows = KasseBooking.objects.filter(club=club).values("unit").annotate(total=Sum("amount")).order_by("unit")
    return {row["unit"]: row["total"] for row in rows}


def session_kasse_totals(session: Session) -> dict[tuple[int | None, str], int]:
    """What the evening's bookings left in the Kasse, per (member id, unit)."""
    rows = (
        KasseBooking.objects.filter(session=session)
        .values("member_id", "unit")
        .annotate(total=Sum("amount"))
        .order_by("unit", "member_id")
    )
    return {(row["member_id"], row["unit"]): row["total"] for row in rows}


def unit_label(unit: str) -> str:
    return str(Unit(unit).label) if unit in Unit.values else unit


def session_kasse_open(session: Session) -> dict[tuple[int | None, str, str], int]:
    """What the evening's bookings left in the Kasse, per (member id, unit, kind): a reopening
    reverses each kind by itself (winnings, Verlustspielgeld)."""
    rows = (
        KasseBooking.objects.filter(session=session)
        .values("member_id", "unit", "kind")
        .annotate(total=Sum("amount"))
        .order_by("unit", "kind", "member_id")
    )
    return {(row["member_id"], row["unit"], row["kind"]): row["total"] for row in rows}


def session_verlustspielgeld(session: Session) -> dict[int, int]:
    """Per member, the Verlustspielgeld (cents) of the evening's lost games at tables that charge
    it (skat.md §6): each lost game's fee as the fold counts it in its list, booked to whoever
    played the declarer's seat then (a seat taken over books to the new player)."""
    out: dict[int, int] = defaultdict(int)
    for table in Table.objects.filter(session=session).order_by("id"):
        setup = table_setup(table)
        if not setup.rules.verlustspielgeld:
            continue
        result = fold_log(setup, table_log(table))
        for number, entry in enumerate(result.entries, start=1):
            outcome = entry.outcome
            if entry.verlustspielgeld and outcome is not None and outcome.declarer:
                out[setup.members_at(number)[outcome.declarer]] += entry.verlustspielgeld
    return dict(out)
