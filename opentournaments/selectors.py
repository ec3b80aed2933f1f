"""Reads of open tournaments: registrations, the Kasse, returning guests, a round's seating and
its tables with the figures entered so far."""

from __future__ import annotations

import datetime
import re
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Max, Prefetch, Q, QuerySet, Sum
from django.utils.translation import gettext as _

from clubs.ids import parse_id
from clubs.models import Club, Member
from opentournaments import games, tariffs
from opentournaments.games import Auswertung, auswertung, game_of_ruleset
from opentournaments.models import (
    OpenTournament,
    Registration,
    Round,
    RoundTable,
    TableScore,
    TableTyping,
    Typing,
)
from scoring import selectors as scoring_selectors
from scoring.engine import registry
from scoring.models import Entry, LedgerEntry
from scoring.models import Seat as ScoringSeat
from tournaments.engine.open_rank import rank_open_document
from tournaments.engine.open_ranking import SHARED

SEARCH_LIMIT = 12


def club_open_tournaments(club: Club) -> QuerySet[OpenTournament]:
    return OpenTournament.objects.filter(club=club).annotate(players=Count("registrations"))


def registrations(tournament: OpenTournament) -> QuerySet[Registration]:
    return tournament.registrations.select_related("member").order_by("start_number")


@dataclass(frozen=True)
class Kasse:
    paid: int  # players who paid
    open: int  # players who have not paid yet
    entry_cents: int  # Startgeld taken
    lost_games_cents: int = 0  # a Preisskat's Verlustspielgeld of the lists counted (skat.md §6)
    lost_games: int = 0  # the lost games it is for

    @property
    def players(self) -> int:
        return self.paid + self.open

    @property
    def total_cents(self) -> int:
        """The money taken: the Startgeld and the Verlustspielgeld (the prize shares' pot)."""
        return self.entry_cents + self.lost_games_cents


def verlustspielgeld(tournament: OpenTournament) -> tuple[int, int]:
    """(cents, lost games): the Verlustspielgeld of every list the desk counted (skat.md §6: per
    player and list, the tariff's amount for each of the first lost games, then the later one);
    (0, 0) where the game keeps no list or the tariff charges none."""
    ruleset, table_rules = registry.load_with_table(tournament.ruleset_spec)
    game = game_of_ruleset(ruleset)
    if not game.keeps_list:
        return 0, 0
    lost = TableScore.objects.filter(table__round__tournament=tournament, lost__gt=0).values_list("lost", flat=True)
    return sum(game.lost_games_fee(table_rules, n) for n in lost), sum(lost)


def kasse(tournament: OpenTournament) -> Kasse:
    counts = tournament.registrations.aggregate(paid=Count("id", filter=Q(paid=True)), all=Count("id"))
    fees, lost = verlustspielgeld(tournament)
    return Kasse(
        paid=counts["paid"],
        open=counts["all"] - counts["paid"],
        entry_cents=counts["paid"] * tournament.entry_fee_cents,
        lost_games_cents=fees,
        lost_games=lost,
    )


def figures_entered(tournament: OpenTournament) -> bool:
    """Whether any table has figures: typed at the desk (counted, or waiting for their second
    typing), or a sheet started on a phone."""
    tables = RoundTable.objects.filter(round__tournament=tournament)
    return (
        TableTyping.objects.filter(table__round__tournament=tournament).exists()
        or TableScore.objects.filter(table__round__tournament=tournament).exists()
        or tables.filter(phone_table__isnull=False).exists()
    )


def prizes_final(tournament: OpenTournament) -> bool:
    """Whether the prize list is final: every round drawn and every table of each counted (its
    figures entered, or its phone sheet complete). Until then the prizes may be changed."""
    drawn = list(tournament.round_set.order_by("number"))
    if len(drawn) < tournament.rounds:
        return False
    for round_ in drawn:
        seated = seating(round_)
        if seated.entered < len(seated.tables):
            return False
    return True


def edit_locks(tournament: OpenTournament) -> dict[str, str]:
    """Field → why it can no longer be changed (``services.open_tournament_update``): what a draw
    or an entered figure depends on is locked from then on; the prizes once the list is final."""
    locks: dict[str, str] = {}
    if tournament.round_set.exists():
        locks["rounds"] = _("Runde 1 ist ausgelost: die Auslosung plant alle Runden mit dieser Zahl.")
    if figures_entered(tournament):
        reason = _("Es sind schon Ergebnisse eingetragen; sie wurden nach dieser Regel geprüft und erfasst.")
        locks["games_per_round"] = reason
        locks["soli_count"] = reason
    if prizes_final(tournament):
        reason = _("Die Preisliste ist endgültig: alle Runden sind ausgelost und eingetragen.")
        for field in (
            "entry_fee_cents",
            "tie_breaks",
            "prize_shares",
            "prize_amounts",
            "prize_items",
            "prize_item_last",
            "prize_whole_euros",
        ):
            locks[field] = reason
    return locks


def payout_shares(percent: int, places: int) -> list[int]:
    """The payout helper's shares: ``percent`` of the Kasse over ``places`` places, falling evenly
    (place p weighs places + 1 - p), whole percent that sum to ``percent`` exactly (largest
    remainders), highest first. Empty where a place would get less than 1 %."""
    if not 1 <= percent <= 100 or not places >= 1:
        return []
    weights = list(range(places, 0, -1))
    total = sum(weights)
    exact = [percent * w / total for w in weights]
    shares = [int(x) for x in exact]
    by_remainder = sorted(range(places), key=lambda i: (-(exact[i] - shares[i]), i))
    for i in by_remainder[: percent - sum(shares)]:
        shares[i] += 1
    shares.sort(reverse=True)
    return shares if shares[-1] >= 1 else []


def next_start_number(tournament: OpenTournament) -> int:
    """The start number the next registration gets (``registration_create`` takes the same): one
    above the highest ever given, so the number of a registration removed is not given again."""
    last = tournament.registrations.aggregate(last=Max("start_number"))["last"] or 0
    given = OpenTournament.objects.filter(pk=tournament.pk).values_list("last_start_number", flat=True).first()
    return max(last, given or 0) + 1


_DIGRAPHS = re.compile(r"(?<=[aou])e")


def fold(text: str) -> str:
    """``text`` as the desk's search compares it: case folded, ß as ss, umlauts and their
    spelling with e (ä/ae) as the plain vowel, accents dropped, spaces collapsed. So "weiss" finds
    "Weiß", and "Mueller", "Muller" and "müller" all find "Müller". Both sides are folded alike, so
    a plain "ue" (Manuel) folds the same way in the query and the name."""
    text = " ".join(text.casefold().replace("ß", "ss").split())
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _DIGRAPHS.sub("", plain)


@dataclass(frozen=True)
class Guest:
    name: str
    residence: str
    member_id: int | None = None  # a member of the club, linked when registered


@dataclass(frozen=True)
class Registered:
    """Someone the desk's search finds already registered in this tournament."""

    pk: int
    number: int
    name: str
    residence: str
    withdrawn_before: int | None


@dataclass(frozen=True)
class DeskSearch:
    registered: list[Registered]  # in this tournament already: "schon angemeldet als Nr. 5"
    guests: list[Guest]  # not yet registered: a member or a guest of an earlier tournament


def _matches(query: str, *texts: str) -> bool:
    return any(query in fold(text) for text in texts)


def desk_search(tournament: OpenTournament, query: str) -> DeskSearch:
    """Who matches ``query`` (at least two letters, in the name or the Wohnort, compared
    ``fold``-ed: "weiss" finds "Weiß"): those registered in ``tournament`` already, with their
    start number, then those who are not: the club's active members first, then the players of
    its earlier open tournaments. At most ``SEARCH_LIMIT`` of each. The folding is Python's (no
    database folds ß and umlauts alike), over one club's names: a few thousand at most."""
    folded = fold(query)
    if len(folded) < 2:
        return DeskSearch([], [])
    here = list(
        tournament.registrations.order_by("start_number").values_list(
            "pk", "start_number", "name", "residence", "member_id", "withdrawn_before"
        )
    )
    registered = [
        Registered(pk, number, name, residence, withdrawn)
        for pk, number, name, residence, _member, withdrawn in here
        if _matches(folded, name, residence)
    ][:SEARCH_LIMIT]
    here_names = {(fold(name), fold(residence)) for _pk, _n, name, residence, _m, _w in here}
    here_members = {member for *_rest, member, _w in here if member is not None}
    members = (
        Member.objects.filter(club=tournament.club, is_active=True)
        .exclude(pk__in=here_members)
        .order_by("display_name")
        .values_list("pk", "display_name")
    )
    found = [Guest(name, "", pk) for pk, name in members if _matches(folded, name)]
    guests = (
        Registration.objects.filter(tournament__club=tournament.club, member__isnull=True)
        .exclude(tournament=tournament)
        .values_list("name", "residence")
        .order_by("name", "residence")
        .distinct()
    )
    found += [
        Guest(name, residence)
        for name, residence in guests
        if _matches(folded, name, residence) and (fold(name), fold(residence)) not in here_names
    ]
    return DeskSearch(registered, found[:SEARCH_LIMIT])


def same_name_registered(tournament: OpenTournament, name: str, residence: str) -> Registration | None:
    """The registration of ``tournament`` with the same name and Wohnort (``fold``-ed), if any:
    the desk asks before registering him again."""
    key = (fold(name), fold(residence))
    here = tournament.registrations.order_by("start_number").values_list("pk", "name", "residence")
    same = next((pk for pk, name_, residence_ in here if (fold(name_), fold(residence_)) == key), None)
    return None if same is None else Registration.objects.get(pk=same)


def removable(registration: Registration) -> bool:
    """Whether ``registration`` may be removed: he sits at no drawn table (so he has no figures)."""
    seated = RoundTable.objects.filter(round__tournament_id=registration.tournament_id).values_list("seats", flat=True)
    return not any(registration.start_number in seats for seats in seated)


def rounds(tournament: OpenTournament) -> QuerySet[Round]:
    return tournament.round_set.annotate(table_count=Count("tables"))


def next_round_day(tournament: OpenTournament, today: datetime.date) -> datetime.date:
    """The day the draw form offers for the next round: today where it is one of the
    tournament's days (the draw happens on the day it is played), else the last drawn round's
    day, else the first day."""
    if today in tournament.days:
        return today
    last = tournament.round_set.order_by("-number").values_list("day", flat=True).first()
    return last or tournament.starts_on


@dataclass(frozen=True)
class Seat:
    number: int  # start number
    name: str
    residence: str
    position: int  # 1 = deals the first game


def table_games(tournament: OpenTournament, seats: int) -> int:
    """The games a table of ``seats`` deals in a round. Games per round are per player (as the
    championship's): at five or six, where the dealer (and the cutter) sit out, a table deals 5/4
    or 6/4 of them, so each player plays the same number."""
    return tournament.games_per_round * seats // 4


@dataclass(frozen=True)
class PhoneState:
    """A table written on a phone: its score sheet, the games on it and each seat's points so far."""

    url: str
    played: int  # hands on the sheet (events such as a redeal are no game)
    games: int  # the games the table deals
    points: dict[int, int]  # start number → points so far

    @property
    def complete(self) -> bool:
        return self.played >= self.games


def counted_figures(table: RoundTable) -> dict[str, list[int]] | None:
    """The figures of ``table`` that count, as a typing stores them ({"<number>": [points, soli]},
    a Preisskat's [points, won, lost]); None while none count."""
    game = table.round.tournament.game
    scores = table.scores.select_related("registration")
    return {str(s.registration.start_number): list(game.score_values(s)) for s in scores} or None


def _open(typings: Sequence[TableTyping]) -> list[TableTyping]:
    """The typings since the table last counted: pending and mismatched ones (oldest first)."""
    counted = [i for i, t in enumerate(typings) if t.outcome in (Typing.COUNTED, Typing.CONFIRMED)]
    return list(typings[counted[-1] + 1 :] if counted else typings)


def open_typings(table: RoundTable) -> list[TableTyping]:
    """The typings of ``table`` since it last counted (Zweiterfassung: waiting for agreement)."""
    return _open(list(table.typings.order_by("id")))


@dataclass(frozen=True)
class TypedFigures:
    """One typing of a table as the desk sees it: who typed it, when, and the figures."""

    by: str
    at: datetime.datetime
    figures: dict[int, tuple[int, ...]]  # start number → (points, soli) or a list's (points, won, lost)


@dataclass(frozen=True)
class Change:
    number: int
    name: str
    old: tuple[int, ...]  # points, soli (a Preisskat: points, won, lost)
    new: tuple[int, ...]


@dataclass(frozen=True)
class Correction:
    """A typing that changed a table's figures after they counted: who, when, old → new."""

    by: str
    at: datetime.datetime
    changes: list[Change]


def _typed(typing: TableTyping) -> TypedFigures:
    by = typing.typed_by.get_username() if typing.typed_by else "–"
    figures = {int(n): tuple(values) for n, values in typing.figures.items()}
    return TypedFigures(by=by, at=typing.typed_at, figures=figures)


class SheetState:
    """A table's sheet in the Zettel-Übersicht."""

    WAITING = "waiting"  # nothing typed yet
    PHONE = "phone"  # written on a phone (games entered of the round's)
    TYPED_ONCE = "typed-once"  # Zweiterfassung: typed once, waits for the second
    MISMATCH = "mismatch"  # two typings differ: the paper decides
    ENTERED = "entered"  # counts (typed without Zweiterfassung, or a phone sheet complete)
    CONFIRMED = "confirmed"  # Zweiterfassung: two typings agreed
    CORRECTED = "corrected"  # counts, after a correction of figures that counted


@dataclass(frozen=True)
class SeatedTable:
    table: RoundTable
    seats: list[Seat]
    scores: dict[int, tuple[int, ...]]  # start number → (points, soli) or (points, won, lost); empty until entered
    phone: PhoneState | None = None  # written on a phone (then ``scores`` stays empty)
    pending: list[TypedFigures] = field(default_factory=list)  # typings since it last counted
    corrections: list[Correction] = field(default_factory=list)  # oldest first
    confirmed: bool = False  # its figures counted through two agreeing typings
    # A Preisskat's table: each player's Auswertung of the list (skat.md §6), once entered.
    auswertung: dict[int, Auswertung] = field(default_factory=dict)

    @property
    def entered(self) -> bool:
        return bool(self.scores) or (self.phone is not None and self.phone.complete)

    @property
    def mismatch(self) -> bool:
        return len(self.pending) >= 2

    @property
    def compared(self) -> list[tuple[Seat, tuple[int, ...], tuple[int, ...], bool]]:
        """A mismatch side by side: each seat, its figures in the last two typings, whether they differ."""
        if not self.mismatch:
            return []
        first, second = self.pending[-2].figures, self.pending[-1].figures
        return [
            (seat, first[seat.number], second[seat.number], first[seat.number] != second[seat.number])
            for seat in self.seats
        ]

    @property
    def state(self) -> str:
        if self.phone is not None:
            return SheetState.ENTERED if self.phone.complete else SheetState.PHONE
        if self.mismatch:
            return SheetState.MISMATCH
        if self.pending and not self.scores:
            return SheetState.TYPED_ONCE
        if not self.scores:
            return SheetState.WAITING
        if self.pending:
            return SheetState.TYPED_ONCE  # a correction typed once: the old figures count meanwhile
        if self.corrections:
            return SheetState.CORRECTED
        return SheetState.CONFIRMED if self.confirmed else SheetState.ENTERED

    @property
    def phone_points(self) -> list[tuple[Seat, int]]:
        """Each seat with its points so far on the phone sheet (empty for a desk table)."""
        if self.phone is None:
            return []
        return [(seat, self.phone.points.get(seat.number, 0)) for seat in self.seats]


@dataclass(frozen=True)
class NameRow:
    number: int
    name: str
    residence: str
    table: int
    position: int


@dataclass(frozen=True)
class Seating:
    round: Round
    tables: list[SeatedTable]

    @property
    def by_name(self) -> list[NameRow]:
        rows = [
            NameRow(seat.number, seat.name, seat.residence, t.table.number, seat.position)
            for t in self.tables
            for seat in t.seats
        ]
        return sorted(rows, key=lambda row: (row.name.casefold(), row.number))

    @property
    def entered(self) -> int:
        return sum(1 for t in self.tables if t.entered)


def _phone_states(round_: Round, tables: list[RoundTable]) -> dict[int, PhoneState]:
    """Round table id → the state of its phone sheet (three queries for the whole round)."""
    sheets = {t.phone_table_id: t for t in tables if t.phone_table_id is not None}
    if not sheets:
        return {}
    played = dict(
        Entry.objects.filter(table_id__in=sheets, kind="hand")
        .values("table_id")
        .annotate(n=Count("id"))
        .values_list("table_id", "n")
    )
    totals = {
        (row["table_id"], row["member_id"]): row["total"]
        for row in LedgerEntry.objects.filter(table_id__in=sheets)
        .values("table_id", "member_id")
        .annotate(total=Sum("amount"))
        .order_by()
    }
    members = ScoringSeat.objects.filter(table_id__in=sheets).values_list("table_id", "position", "member_id")
    points: dict[int, dict[int, int]] = {sheet: {} for sheet in sheets}
    for sheet, position, member in members:
        points[sheet][sheets[sheet].seats[position]] = totals.get((sheet, member), 0)
    out = {}
    for sheet, table in sheets.items():
        assert table.phone_table is not None
        out[table.pk] = PhoneState(
            url=table.phone_table.get_absolute_url(),
            played=played.get(sheet, 0),
            games=table_games(round_.tournament, len(table.seats)),
            points=points[sheet],
        )
    return out


def _corrections(typings: Sequence[TableTyping], names: Mapping[int, str]) -> list[Correction]:
    out = []
    for typing in typings:
        if typing.replaced is None:
            continue
        changes = [
            Change(int(n), names.get(int(n), ""), tuple(old), tuple(typing.figures[n]))
            for n, old in typing.replaced.items()
            if n in typing.figures and list(old) != list(typing.figures[n])
        ]
        typed = _typed(typing)
        out.append(Correction(by=typed.by, at=typed.at, changes=changes))
    return out


def seating(round_: Round) -> Seating:
    """A round's tables with their players in seat order, the figures that count so far, the
    typings waiting for agreement (Zweiterfassung), the corrections and, for a table written on a
    phone, its sheet's state."""
    people = {r.start_number: r for r in round_.tournament.registrations.all()}
    tables = list(
        round_.tables.select_related("phone_table__session__club").prefetch_related(
            "scores__registration", Prefetch("typings", TableTyping.objects.select_related("typed_by").order_by("id"))
        )
    )
    phones = _phone_states(round_, tables)
    names = {n: r.name for n, r in people.items()}
    game = round_.tournament.game
    seated = []
    for t in tables:
        typings = list(t.typings.all())
        scores = {s.registration.start_number: game.score_values(s) for s in t.scores.all()}
        seated.append(
            SeatedTable(
                table=t,
                seats=[
                    Seat(n, people[n].name, people[n].residence, position)
                    for position, n in enumerate(t.seats, start=1)
                ],
                scores=scores,
                phone=phones.get(t.pk),
                pending=[_typed(typing) for typing in _open(typings)],
                corrections=_corrections(typings, names),
                confirmed=any(typing.outcome == Typing.CONFIRMED for typing in typings),
                auswertung=auswertung(scores) if game.keeps_list and scores else {},
            )
        )
    return Seating(round=round_, tables=seated)


def tariff_is_zero_sum(tournament: OpenTournament) -> bool:
    """Whether a table's points must sum to zero: always, unless the tariff plays with a Stock or
    writes plus points only (``services.table_figures_enter`` and
    ``tournaments.engine.open_ranking`` read it so too)."""
    return games.zero_sum(*registry.load_with_table(tournament.ruleset_spec))


def tariff_is_plus_only(tournament: OpenTournament) -> bool:
    """Whether the losers are written nothing: then no player's points are below 0."""
    return games.plus_only(registry.load(tournament.ruleset_spec))


def phone_refusal(tournament: OpenTournament) -> str | None:
    """Why the tournament's tables cannot be written on a phone (None: they can). A phone table is
    a club score sheet: it books into the club's ledger in the tariff's unit, and an evening is
    settled between its players, so only a zero-sum points tariff fits it."""
    ruleset = registry.load(tournament.ruleset_spec)
    return game_of_ruleset(ruleset).phone_refusal(ruleset)


@dataclass(frozen=True)
class _Figures:
    """What the ranking reads, in a few flat queries: the players, and per round counted its
    number, its day and its counted tables as ``rank_open`` tables (``totals`` and ``soli`` from
    the desk, ``hands`` from a phone's sheet)."""

    people: list[tuple[int, str, str]]  # start number, name, Wohnort
    rounds: list[tuple[int, datetime.date]]  # round number, day played
    tables: list[list[dict[str, Any]]]  # per round: its counted tables
    away: dict[int, tuple[int | None, int | None]]  # start number → (withdrawn from, registered for) round


def _figures(tournament: OpenTournament, after_round: int | None) -> _Figures:
    rounds_ = tournament.round_set.order_by("number")
    if after_round is not None:
        rounds_ = rounds_.filter(number__lte=after_round)
    counted = max(rounds_.count(), 1)
    registered = [
        (number, name, residence, withdrawn, late)
        for number, name, residence, withdrawn, late in tournament.registrations.order_by("start_number").values_list(
            "start_number", "name", "residence", "withdrawn_before", "registered_before"
        )
        # Only who sat at a table of the rounds counted: not one withdrawn before the first round
        # he was to play, nor a late one before his round is drawn (he would stand on 0 points
        # above everyone below 0, with a share of the pot).
        if (late or 1) <= counted and (withdrawn is None or withdrawn > (late or 1))
    ]
    people = [(number, name, residence) for number, name, residence, _w, _r in registered]
    away = {number: (withdrawn, late) for number, _n, _r, withdrawn, late in registered if withdrawn or late}
    tables_ = RoundTable.objects.filter(round__tournament=tournament).order_by("round__number", "number")
    scores_ = TableScore.objects.filter(table__round__tournament=tournament)
    if after_round is not None:
        tables_ = tables_.filter(round__number__lte=after_round)
        scores_ = scores_.filter(table__round__number__lte=after_round)
    rounds = [(number, day or tournament.starts_on) for number, day in rounds_.values_list("number", "day")]
    game = tournament.game
    entered: dict[int, dict[int, tuple[int, ...]]] = {}
    for table_id, number, *values in scores_.values_list("table_id", "registration__start_number", *game.fields):
        entered.setdefault(table_id, {})[number] = tuple(values)
    index = {number: i for i, (number, _day) in enumerate(rounds)}
    tables: list[list[dict[str, Any]]] = [[] for _ in rounds]
    phone_tables = []
    for table_id, round_number, seats, phone in tables_.values_list("id", "round__number", "seats", "phone_table"):
        if round_number not in index:
            continue
        if phone is not None:  # a phone's sheet: its hands (few tables; each reads its log)
            phone_tables.append(table_id)
            tables[index[round_number]].append({"table": table_id})
        elif table_id in entered:
            tables[index[round_number]].append(game.document_table(seats, entered[table_id]))
    if phone_tables:
        phone_docs = {
            table.pk: _phone_table_document(table)
            for table in RoundTable.objects.filter(pk__in=phone_tables).select_related("phone_table")
        }
        tables = [
            [doc for doc in (phone_docs[t["table"]] if "table" in t else t for t in round_tables) if doc is not None]
            for round_tables in tables
        ]
    return _Figures(people=people, rounds=rounds, tables=tables, away=away)


def _document(tournament: OpenTournament, figures: _Figures) -> dict[str, Any]:
    names = _document_names(tournament, [(number, name) for number, name, _residence in figures.people])
    document: dict[str, Any] = {
        "ruleset": tournament.ruleset_spec,
        "players": [{"number": number, "name": names[number]} for number, _name, _residence in figures.people],
        "rounds": [{"tables": round_tables} for round_tables in figures.tables],
        "tie_breaks": list(tournament.tie_breaks),
        "seed": tournament.lot_seed,
        **tournament.game.document_keys(tournament),
    }
    if tournament.prize_shares:
        document["prizes"] = {"pot": kasse(tournament).total_cents, "shares": list(tournament.prize_shares)}
    return document


def _document_names(tournament: OpenTournament, people: list[tuple[int, str]]) -> dict[int, str]:
    """Start number → the player's name in the ``rank_open`` document, unique as the engine wants
    it. A player who sat at a phone table has his seat name there, since its hands name him so;
    anyone else his registered name, with the start number where that name is taken."""
    names: dict[int, str] = {}
    phone_seats = ScoringSeat.objects.filter(table__open_table__round__tournament=tournament).values_list(
        "table__open_table__seats", "position", "name"
    )
    for seats, position, name in phone_seats:
        names.setdefault(seats[position], name)
    counts = Counter(name for _number, name in people)
    used = set(names.values())
    for number, name in people:
        if number in names:
            continue
        if counts[name] > 1 or name in used:
            name = f"{name} ({number})"
        while name in used:
            name = f"{name} ({number})"
        names[number] = name
        used.add(name)
    return names


def _phone_table_document(table: RoundTable) -> dict[str, Any] | None:
    """A phone table as spec §5 ``hands``: its players in seat order from the one who dealt
    first, and every entry of its sheet; None while the sheet is empty (it counts nothing yet)."""
    assert table.phone_table is not None
    log = scoring_selectors.table_log(table.phone_table)
    if not log:
        return None
    setup = scoring_selectors.table_setup(table.phone_table)
    first = setup.players.index(setup.first_dealer)  # the sheet's seats are the drawn seat order
    return {"players": table.seats[first:] + table.seats[:first], "hands": log}


def ranking_document(tournament: OpenTournament, after_round: int | None = None) -> dict[str, Any]:
    """The tournament as a ``rank_open`` document (spec §5): the tables whose figures the desk
    has entered (``totals`` and ``soli``) and the tables written on a phone with at least one
    entry (``hands``: the engine scores them and counts their Soli as the tournament's
    ``soli_count`` says), in the rounds up to ``after_round`` (all drawn rounds where None). A
    player in no counted table of a round scores nothing for it (``null`` in his rounds)."""
    return _document(tournament, _figures(tournament, after_round))


@dataclass(frozen=True)
class RankRow:
    place: int
    number: int
    name: str
    residence: str
    points: int
    rounds: list[int | None]  # None: at no counted table that round ("–", never 0)
    soli: int | None  # None in a Preisskat (Skat has no Soli)
    decided_by: str | None
    prize_cents: int
    prize_item: str  # on the first row of a shared place only: listed once
    item_span: int = 1  # the rows ``prize_item`` stands for (0: the row of a shared place below its first)
    withdrawn_before: int | None = None  # abgemeldet: away from this round on
    registered_before: int | None = None  # nachgemeldet: plays from this round on
    corrected: tuple[int, ...] = ()  # the rounds whose table's figures were corrected ("korrigiert")
    won: int | None = None  # a Preisskat's games won and lost over the rounds (None in a Preisschafkopf)
    lost: int | None = None
    decided_labels: Mapping[str, str] = field(default_factory=dict)  # the game's tie-breaks in words

    @property
    def shared(self) -> bool:
        return self.decided_by == SHARED

    @property
    def away_note(self) -> str:
        """Why rounds may be missing: "abgemeldet ab Runde 3", "nachgemeldet ab Runde 2"."""
        return away_note(self.withdrawn_before, self.registered_before)

    @property
    def corrected_note(self) -> str:
        """The mark of figures corrected after they counted: "korrigiert (R1, R3)" (empty if none)."""
        if not self.corrected:
            return ""
        return _("korrigiert (%(rounds)s)") % {"rounds": ", ".join(f"R{r}" for r in self.corrected)}

    @property
    def decided_label(self) -> str:
        """What put him below the player above on equal points (empty where the points did)."""
        return decided_label(self.decided_by, self.decided_labels) or ""

    @property
    def has_prize(self) -> bool:
        return bool(self.prize_cents or self.prize_item)


def decided_label(decided_by: str | None, labels: Mapping[str, str] | None = None) -> str | None:
    """``decided_by`` of ``rank_open`` in words (the game's: Soli, beste Runde, Los; a Preisskat's
    gewonnene Spiele, verlorene Spiele, Los), else geteilt."""
    if decided_by is None:
        return None
    labels = labels or {"soli": _("Soli"), "best_round": _("beste Runde"), "lot": _("Los")}
    return labels.get(decided_by, _("geteilt"))


def away_note(withdrawn_before: int | None, registered_before: int | None) -> str:
    """The mark beside a player who missed rounds by registration (empty for everyone else)."""
    notes = []
    if registered_before:
        notes.append(_("nachgemeldet ab Runde %(number)s") % {"number": registered_before})
    if withdrawn_before:
        notes.append(_("abgemeldet ab Runde %(number)s") % {"number": withdrawn_before})
    return ", ".join(notes)


@dataclass(frozen=True)
class DayWinner:
    day: datetime.date
    rounds: list[int]  # the round numbers played that day
    number: int
    name: str
    points: int  # over the rounds of that day


@dataclass(frozen=True)
class OpenRanking:
    after_round: int  # the rounds counted
    rows: list[RankRow]
    round_winners: list[dict[str, Any]]
    day_winners: list[DayWinner]  # empty where every round is played on one day
    seed: int
    tie_breaks: list[str]
    pot_cents: int
    keeps_list: bool = False  # a Preisskat: won and lost games instead of Soli

    @property
    def tie_break_words(self) -> str:
        """The tie-breaks in order, in words ("mehr Soli, beste Runde, Los"; a Preisskat's "mehr
        gewonnene Spiele, weniger verlorene Spiele, Los"), else "geteilter Platz"."""
        words = {
            "soli": _("mehr Soli"),
            "best_round": _("beste Runde"),
            "lot": _("Los"),
            "won": _("mehr gewonnene Spiele"),
            "lost": _("weniger verlorene Spiele"),
        }
        return ", ".join(words[t] for t in self.tie_breaks) or _("geteilter Platz")

    @property
    def has_prizes(self) -> bool:
        return any(row.has_prize for row in self.rows)

    @property
    def round_width(self) -> int:
        """Characters of the widest figure of a round (at least "R10"), for the printed ranking's
        rounds set in one column of fixed-width figures (``templatetags.open_tags.rounds_line``)."""
        widest = max((len(str(p)) for row in self.rows for p in row.rounds if p is not None), default=1)
        return max(widest, len(f"R{self.after_round}"))

    @property
    def has_decisions(self) -> bool:
        """Whether a tie-break separated anyone (then the "entschieden durch" column says why)."""
        return any(row.decided_by is not None for row in self.rows)


def day_winners(
    rounds: Sequence[tuple[int, datetime.date]],
    seated: Sequence[set[int]],
    points: Mapping[int, Sequence[int | None]],
    names: Mapping[int, str],
) -> list[DayWinner]:
    """The Tagessieger: per day, the players with the most points over the rounds of that day
    (all of them where they tie), counting only those who sat at an entered table that day (as
    ``rank_open`` counts the round winners). ``rounds``: (number, day) of the rounds counted, in
    order; ``seated``: the start numbers at an entered table, per round; ``points``: start number
    → the points per round (None where he sat at no entered table). Empty where the rounds are
    all on one day: then the day's winners are the ranking's top."""
    by_day: dict[datetime.date, list[int]] = {}
    for index, (_number, day) in enumerate(rounds):
        by_day.setdefault(day, []).append(index)
    if len(by_day) < 2:
        return []
    out = []
    for day, indices in sorted(by_day.items()):
        present = sorted(set().union(*(seated[i] for i in indices)))
        if not present:
            continue
        totals = {n: sum(points[n][i] or 0 for i in indices) for n in present}
        best = max(totals.values())
        numbers = [rounds[i][0] for i in indices]
        out += [DayWinner(day, numbers, n, names[n], best) for n in present if totals[n] == best]
    return out


def _fixed_prizes(ranking: list[dict[str, Any]], amounts: list[int]) -> dict[int, int]:
    """Start number → fixed prize money; a shared place splits the amounts of the places it
    covers evenly, rounded down to the cent (the rule of spec §5 for shares, applied to amounts)."""
    sharing = Counter(row["place"] for row in ranking)
    out = {}
    for row in ranking:
        place, k = row["place"], sharing[row["place"]]
        each = sum(amounts[p - 1] for p in range(place, place + k) if p <= len(amounts)) // k
        if each:
            out[row["number"]] = each
    return out


def _items(ranking: list[dict[str, Any]], items: list[str], last: str = "") -> dict[int, tuple[str, int]]:
    """Start number → (Sachpreis, rows it spans), by place: a shared place gets the items of the
    places it covers, listed once on the first of its players (spanning the k rows); the last
    place (the lowest among those who played a round) gets ``last`` too. The organiser hands
    them out."""
    groups: dict[int, list[int]] = {}
    for row in ranking:
        groups.setdefault(row["place"], []).append(row["number"])
    played = [row for row in ranking if any(points is not None for points in row["rounds"])]
    last_place = played[-1]["place"] if played and last else None
    out = {}
    for place, numbers in groups.items():
        k = len(numbers)
        covered = [items[p - 1] for p in range(place, place + k) if p <= len(items) and items[p - 1]]
        if place == last_place:
            covered.append(last)
        if covered:
            out[numbers[0]] = (" / ".join(covered), k)
            out.update({number: ("", 0) for number in numbers[1:]})
    return out


def corrected_rounds(tournament: OpenTournament, after_round: int | None = None) -> dict[int, set[int]]:
    """Start number → the rounds (up to ``after_round``) whose table's figures were corrected
    after they counted: the ranking marks them "korrigiert"."""
    typings = TableTyping.objects.filter(table__round__tournament=tournament, replaced__isnull=False)
    if after_round is not None:
        typings = typings.filter(table__round__number__lte=after_round)
    out: dict[int, set[int]] = {}
    for seats, round_number in typings.values_list("table__seats", "table__round__number"):
        for number in seats:
            out.setdefault(number, set()).add(round_number)
    return out


def open_ranking(tournament: OpenTournament, after_round: int | None = None) -> OpenRanking | None:
    """The ranking after ``after_round`` (all rounds where None) through the pure ``rank_open``
    engine, with prizes (shares of the Kasse or fixed amounts), Sachpreise by place and, over
    several days, the Tagessieger; None while nobody is registered."""
    figures = _figures(tournament, after_round)
    if not figures.people:
        return None
    document = _document(tournament, figures)
    result = rank_open_document(document)
    residence = {number: residence for number, _name, residence in figures.people}
    names = {number: name for number, name, _residence in figures.people}
    if tournament.prize_shares:
        money = {row["number"]: row["amount"] for row in result["prizes"]}
    else:
        money = _fixed_prizes(result["ranking"], list(tournament.prize_amounts))
    if tournament.prize_whole_euros:  # each prize rounded down to whole euros: the rest stays in the Kasse
        money = {number: cents - cents % 100 for number, cents in money.items()}
    items = _items(result["ranking"], list(tournament.prize_items), tournament.prize_item_last)
    corrected = corrected_rounds(tournament, after_round)
    labels = tournament.game.decided_labels()
    rows = [
        RankRow(
            place=row["place"],
            number=row["number"],
            name=names[row["number"]],
            residence=residence[row["number"]],
            points=row["points"],
            rounds=row["rounds"],
            soli=row.get("soli"),
            won=row.get("won"),
            lost=row.get("lost"),
            decided_labels=labels,
            decided_by=row["decided_by"],
            prize_cents=money.get(row["number"], 0),
            prize_item=items.get(row["number"], ("", 0))[0],
            item_span=items.get(row["number"], ("", 1))[1],
            withdrawn_before=figures.away.get(row["number"], (None, None))[0],
            registered_before=figures.away.get(row["number"], (None, None))[1],
            corrected=tuple(sorted(corrected.get(row["number"], ()))),
        )
        for row in result["ranking"]
    ]
    winners = [{**w, "name": names[w["number"]]} for w in result["round_winners"]]
    seated = [{n for table in round_tables for n in table["players"]} for round_tables in figures.tables]
    return OpenRanking(
        after_round=len(document["rounds"]),
        rows=rows,
        round_winners=winners,
        day_winners=day_winners(figures.rounds, seated, {row.number: row.rounds for row in rows}, names),
        seed=result["seed"],
        tie_breaks=result["tie_breaks"],
        pot_cents=document.get("prizes", {}).get("pot", 0),
        keeps_list=tournament.game.keeps_list,
    )


@dataclass(frozen=True)
class PrizeList:
    """The prize list for the wall: the players who take a prize home (money or a Sachpreis, in
    the order of the ranking) and the Kasse: the Startgeld taken, the pot the prizes come from
    (shares: the Startgeld taken; fixed amounts: those amounts together), what is paid out and
    what stays with the club (negative where the fixed prizes cost more than the Startgeld)."""

    ranking: OpenRanking
    rounds_total: int
    kasse: Kasse
    shares: list[int]  # percent per place, empty for fixed amounts
    pot_cents: int
    paid_out_cents: int

    @property
    def rows(self) -> list[RankRow]:
        """The players of every place with a prize (all players of a shared place)."""
        places = {row.place for row in self.ranking.rows if row.has_prize}
        return [row for row in self.ranking.rows if row.place in places]

    @property
    def stays_cents(self) -> int:
        return self.kasse.total_cents - self.paid_out_cents

    @property
    def shortfall_cents(self) -> int:
        """What the club adds where the prizes cost more than the Startgeld taken."""
        return max(0, -self.stays_cents)

    @property
    def shares_total(self) -> int:
        return sum(self.shares)

    @property
    def shared_places(self) -> set[int]:
        places = Counter(row.place for row in self.ranking.rows)
        return {place for place, count in places.items() if count > 1}

    final: bool  # every round drawn and every table counted (``prizes_final``)


def prize_list(tournament: OpenTournament) -> PrizeList | None:
    """The prizes by the overall ranking (None while nobody is registered)."""
    ranking_ = open_ranking(tournament)
    if ranking_ is None:
        return None
    money = kasse(tournament)
    pot = money.total_cents if tournament.prize_shares else sum(tournament.prize_amounts)
    return PrizeList(
        ranking=ranking_,
        rounds_total=tournament.rounds,
        kasse=money,
        shares=list(tournament.prize_shares),
        pot_cents=pot,
        paid_out_cents=sum(row.prize_cents for row in ranking_.rows),
        final=prizes_final(tournament),
    )


@dataclass(frozen=True)
class SheetRow:
    """One game's row of a Wertungszettel: its number, who deals it, and who sits it out (at five
    the dealer, at six the dealer and the Abheber to his right: 001 §7.1/§7.2, as the engine's
    fold seats them), whose cells are shaded."""

    game: int
    dealer: Seat
    out: frozenset[int]  # start numbers


@dataclass(frozen=True)
class ScoreSheet:
    """A table's Wertungszettel: its players in seat order and, for every game the table deals,
    who deals it (clockwise from the first seat) and who sits out. Each player has two columns:
    the game's points and his running "Stand", so the final figures stand in the last row. A
    Preisskat's sheet is a Skat list (``keeps_list``): the declarer writes the game's value (lost:
    twice, negative) and his Stand, and under the games the Auswertung block (skat.md §6)."""

    table: SeatedTable
    rows: list[SheetRow]
    soli_label: str  # "Soli (gewonnen)": the tournament's soli_count
    keeps_list: bool = False

    @property
    def row_mm(self) -> float:
        """The height of a game row's cells: as high as writing wants (6 mm), as low as one A4
        page with every game, the total rows and the signatures needs (about 185 mm for the game
        rows, of which each row's padding and border take 0.7 mm: 48 games at six, 3.85 mm each).
        A Skat list keeps about 35 mm of those for its Auswertung block (48 games: 3.3 mm each)."""
        budget = 1500 if self.keeps_list else 1850
        return min(60, budget // len(self.rows) - 7) / 10

    @property
    def others_bonus(self) -> int:
        """A Skat list's bonus per game the others lost: 40 at three, 30 at four (skat.md §6)."""
        return 40 if len(self.table.seats) == 3 else 30


def _sitting_out(seats: list[Seat], dealer: int, from_size: int = 5) -> frozenset[int]:
    """Who sits out the game ``seats[dealer]`` deals (001 §7.1/§7.2, ``scoring.engine.session``):
    from ``from_size`` at the table the dealer (Skat: from four, skat.md §1), at six also the Abheber."""
    if len(seats) < from_size:
        return frozenset()
    out = {seats[dealer].number}
    if len(seats) == 6:
        out.add(seats[dealer - 1].number)  # the Abheber, to the dealer's right
    return frozenset(out)


def score_sheets(round_: Round) -> list[ScoreSheet]:
    """One sheet per table of ``round_``: games per round are per player, so a table of five or six
    deals 5/4 or 6/4 of them (``services.table_figures_enter`` counts so too); a Skat list of 48
    at four is 36 at three."""
    tournament = round_.tournament
    _ruleset, table_rules = registry.load_with_table(tournament.ruleset_spec)
    keeps_list = tournament.game.keeps_list
    sheets = []
    for seated in seating(round_).tables:
        seats = seated.seats
        rows = [
            SheetRow(
                game,
                seats[(game - 1) % len(seats)],
                _sitting_out(seats, (game - 1) % len(seats), table_rules.dealer_sits_out_from),
            )
            for game in range(1, table_games(tournament, len(seats)) + 1)
        ]
        sheets.append(ScoreSheet(table=seated, rows=rows, soli_label=tournament.soli_label, keeps_list=keeps_list))
    return sheets


@dataclass(frozen=True)
class PrizeLine:
    place: int
    share: int | None  # percent of the Kasse
    amount_cents: int | None
    item: str


@dataclass(frozen=True)
class RulesSheet:
    """What the printed Turnierregeln say: the tariff in plain German (from the frozen preset
    and options, ``tariffs.tariff_lines``), the rounds, the tie-breaks, the Startgeld and prizes."""

    tariff_title: str
    tariff_lines: list[tuple[str, str]]
    rounds: int
    games_per_round: int
    tie_breaks: list[str]
    soli_count: str  # spec §5: "declared" or "won"
    entry_fee_cents: int
    prizes: list[PrizeLine]
    last_item: str  # the Sachpreis for the last place
    whole_euros: bool  # shares paid in whole euros, the rest stays in the Kasse
    keeps_list: bool = False  # a Preisskat: lists of Seeger-Fabian, tie-breaks by games
    three_games: int = 0  # a Preisskat's list at a table of three


def rules_sheet(tournament: OpenTournament) -> RulesSheet:
    ruleset, table_rules = registry.load_with_table(tournament.ruleset_spec)
    shares, amounts, items = tournament.prize_shares, tournament.prize_amounts, tournament.prize_items
    places = max(len(shares), len(amounts), len(items))
    prizes = [
        PrizeLine(
            place=p,
            share=shares[p - 1] if p <= len(shares) else None,
            amount_cents=amounts[p - 1] if p <= len(amounts) else None,
            item=items[p - 1] if p <= len(items) else "",
        )
        for p in range(1, places + 1)
    ]
    prizes = [p for p in prizes if p.share is not None or p.amount_cents is not None or p.item]
    return RulesSheet(
        tariff_title=tariffs.tariff_title(tournament.preset, tournament.options),
        tariff_lines=tariffs.tariff_lines(ruleset, table_rules),
        rounds=tournament.rounds,
        games_per_round=tournament.games_per_round,
        tie_breaks=list(tournament.tie_breaks),
        soli_count=tournament.soli_count,
        entry_fee_cents=tournament.entry_fee_cents,
        prizes=prizes,
        last_item=tournament.prize_item_last,
        whole_euros=tournament.prize_whole_euros,
        keeps_list=tournament.game.keeps_list,
        three_games=table_games(tournament, 3),
    )


def current_round(tournament: OpenTournament) -> Round | None:
    """The round drawn last: the one being played (or just played)."""
    return tournament.round_set.order_by("-number").first()


@dataclass(frozen=True)
class PlayerRow:
    """One player as the public link shows him: where he sits in the current round and where he
    stands in the ranking. Nothing of the desk (Startgeld, Wohnort, member record)."""

    number: int
    name: str
    table: int | None  # in the current round; None where he sits in none
    seat: int | None  # 1 = deals the first game
    place: int | None
    shared: bool
    points: int
    rounds: list[int | None]  # None: a round he did not play ("–")
    away_note: str = ""  # "abgemeldet ab Runde 3", "nachgemeldet ab Runde 2"


@dataclass(frozen=True)
class PublicView:
    round: Round | None
    after_round: int  # the rounds the ranking counts
    players: list[PlayerRow]  # by name

    def search(self, query: str) -> list[PlayerRow]:
        """The players whose start number is ``query`` or whose name contains it (any case)."""
        query = query.strip()
        if not query:
            return []
        number = parse_id(query)
        if number is not None:
            return [row for row in self.players if row.number == number]
        folded = fold(query)
        return [row for row in self.players if folded in fold(row.name)]


def public_view(tournament: OpenTournament) -> PublicView:
    """The read-only tournament link's data: every player (by name) with his table and seat in
    the current round and his place and points in the overall ranking."""
    round_ = current_round(tournament)
    seats = {}
    if round_ is not None:
        for table in round_.tables.all():
            for position, number in enumerate(table.seats, start=1):
                seats[number] = (table.number, position)
    ranking_ = open_ranking(tournament)
    ranked = {row.number: row for row in ranking_.rows} if ranking_ else {}
    players = []
    for number, name in tournament.registrations.values_list("start_number", "name"):
        table, seat = seats.get(number, (None, None))
        rank = ranked.get(number)
        players.append(
            PlayerRow(
                number=number,
                name=name,
                table=table,
                seat=seat,
                place=rank.place if rank else None,
                shared=rank.shared if rank else False,
                points=rank.points if rank else 0,
                rounds=rank.rounds if rank else [],
                away_note=rank.away_note if rank else "",
            )
        )
    players.sort(key=lambda row: (row.name.casefold(), row.number))
    return PublicView(round=round_, after_round=ranking_.after_round if ranking_ else 0, players=players)
