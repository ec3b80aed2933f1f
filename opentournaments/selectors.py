"""Reads of open tournaments: registrations, the Kasse, returning guests, a round's seating and
its tables with the figures entered so far."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Max, Q, QuerySet, Sum

from clubs.models import Club, Member
from opentournaments.models import OpenTournament, Registration, Round, RoundTable
from scoring import selectors as scoring_selectors
from scoring.engine import registry
from scoring.models import Entry, LedgerEntry
from scoring.models import Seat as ScoringSeat
from tournaments.engine.open_ranking import SHARED, rank_open_document

SEARCH_LIMIT = 12


def club_open_tournaments(club: Club) -> QuerySet[OpenTournament]:
    return OpenTournament.objects.filter(club=club).annotate(players=Count("registrations"))


def registrations(tournament: OpenTournament) -> QuerySet[Registration]:
    return tournament.registrations.select_related("member").order_by("start_number")


@dataclass(frozen=True)
class Kasse:
    paid: int  # players who paid
    open: int  # players who have not paid yet
    total_cents: int  # Startgeld taken

    @property
    def players(self) -> int:
        return self.paid + self.open


def kasse(tournament: OpenTournament) -> Kasse:
    counts = tournament.registrations.aggregate(paid=Count("id", filter=Q(paid=True)), all=Count("id"))
    return Kasse(
        paid=counts["paid"],
        open=counts["all"] - counts["paid"],
        total_cents=counts["paid"] * tournament.entry_fee_cents,
    )


def next_start_number(tournament: OpenTournament) -> int:
    """The start number the next registration gets (``registration_create`` takes the same)."""
    return (tournament.registrations.aggregate(last=Max("start_number"))["last"] or 0) + 1


@dataclass(frozen=True)
class Guest:
    name: str
    residence: str
    member_id: int | None = None  # a member of the club, linked when registered


def returning_guests(tournament: OpenTournament, query: str) -> list[Guest]:
    """Who matches ``query`` (at least two letters, in the name or the Wohnort) and is not yet
    registered in ``tournament``: the club's active members first, then the players of its
    earlier open tournaments. At most ``SEARCH_LIMIT`` of them: a returning guest at the door."""
    query = query.strip()
    if len(query) < 2:
        return []
    registered = tournament.registrations.values_list("name", "residence", "member_id")
    here_names = {(name, residence) for name, residence, _member in registered}
    here_members = {member for _name, _residence, member in registered if member is not None}
    members = (
        Member.objects.filter(club=tournament.club, is_active=True, display_name__icontains=query)
        .exclude(pk__in=here_members)
        .order_by("display_name")
        .values_list("pk", "display_name")[:SEARCH_LIMIT]
    )
    found = [Guest(name, "", pk) for pk, name in members]
    guests = (
        Registration.objects.filter(tournament__club=tournament.club, member__isnull=True)
        .exclude(tournament=tournament)
        .filter(Q(name__icontains=query) | Q(residence__icontains=query))
        .values_list("name", "residence")
        .order_by("name", "residence")
        .distinct()[: SEARCH_LIMIT + len(here_names)]
    )
    found += [Guest(name, residence) for name, residence in guests if (name, residence) not in here_names]
    return found[:SEARCH_LIMIT]


def rounds(tournament: OpenTournament) -> QuerySet[Round]:
    return tournament.round_set.annotate(table_count=Count("tables"))


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


@dataclass(frozen=True)
class SeatedTable:
    table: RoundTable
    seats: list[Seat]
    scores: dict[int, tuple[int, int]]  # start number → (points, soli), empty until entered
    phone: PhoneState | None = None  # written on a phone (then ``scores`` stays empty)

    @property
    def entered(self) -> bool:
        return bool(self.scores) or (self.phone is not None and self.phone.complete)

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


def seating(round_: Round) -> Seating:
    """A round's tables with their players in seat order, the figures entered so far and, for a
    table written on a phone, its sheet's state."""
    people = {r.start_number: r for r in round_.tournament.registrations.all()}
    tables = list(round_.tables.select_related("phone_table__session__club").prefetch_related("scores__registration"))
    phones = _phone_states(round_, tables)
    return Seating(
        round=round_,
        tables=[
            SeatedTable(
                table=t,
                seats=[
                    Seat(n, people[n].name, people[n].residence, position)
                    for position, n in enumerate(t.seats, start=1)
                ],
                scores={s.registration.start_number: (s.points, s.soli) for s in t.scores.all()},
                phone=phones.get(t.pk),
            )
            for t in tables
        ],
    )


def tariff_is_zero_sum(tournament: OpenTournament) -> bool:
    """Whether a table's points must sum to zero: always, unless the tariff plays with a Stock
    (``services.table_figures_enter`` and ``tournaments.engine.open_ranking`` read it so too)."""
    _ruleset, table_rules = registry.load_with_table(tournament.ruleset_spec)
    return table_rules.stock == "none"


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
    entry (``hands``: the engine scores them and counts their Soli), in the rounds up to
    ``after_round`` (all drawn rounds where None). A player in no counted table of a round
    scores nothing for it."""
    people = list(tournament.registrations.order_by("start_number").values_list("start_number", "name"))
    names = _document_names(tournament, people)
    rounds_ = tournament.round_set.order_by("number")
    if after_round is not None:
        rounds_ = rounds_.filter(number__lte=after_round)
    rounds_doc = []
    for round_ in rounds_.prefetch_related("tables__scores__registration", "tables__phone_table"):
        tables = []
        for table in round_.tables.all():
            if table.phone_table is not None:
                phone = _phone_table_document(table)
                if phone is not None:
                    tables.append(phone)
                continue
            scores = {s.registration.start_number: s for s in table.scores.all()}
            if not scores:
                continue
            tables.append(
                {
                    "players": list(table.seats),
                    "totals": {str(n): scores[n].points for n in table.seats},
                    "soli": {str(n): scores[n].soli for n in table.seats},
                }
            )
        rounds_doc.append({"tables": tables})
    document: dict[str, Any] = {
        "ruleset": tournament.ruleset_spec,
        "players": [{"number": number, "name": names[number]} for number, _name in people],
        "rounds": rounds_doc,
        "tie_breaks": list(tournament.tie_breaks),
        "seed": tournament.lot_seed,
    }
    if tournament.prize_shares:
        document["prizes"] = {"pot": kasse(tournament).total_cents, "shares": list(tournament.prize_shares)}
    return document


@dataclass(frozen=True)
class RankRow:
    place: int
    number: int
    name: str
    residence: str
    points: int
    rounds: list[int]
    soli: int
    decided_by: str | None
    prize_cents: int
    prize_item: str

    @property
    def shared(self) -> bool:
        return self.decided_by == SHARED


@dataclass(frozen=True)
class OpenRanking:
    after_round: int  # the rounds counted
    rows: list[RankRow]
    round_winners: list[dict[str, Any]]
    seed: int
    tie_breaks: list[str]
    pot_cents: int


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


def _items(ranking: list[dict[str, Any]], items: list[str]) -> dict[int, str]:
    """Start number → Sachpreis: by place, the k players of a shared place each named with the
    items of the places they cover (the organiser hands them out)."""
    sharing = Counter(row["place"] for row in ranking)
    out = {}
    for row in ranking:
        place, k = row["place"], sharing[row["place"]]
        covered = [items[p - 1] for p in range(place, place + k) if p <= len(items)]
        if covered:
            out[row["number"]] = " / ".join(covered)
    return out


def open_ranking(tournament: OpenTournament, after_round: int | None = None) -> OpenRanking | None:
    """The ranking after ``after_round`` (all rounds where None) through the pure ``rank_open``
    engine, with prizes (shares of the Kasse or fixed amounts) and Sachpreise by place; None
    while nobody is registered."""
    if not tournament.registrations.exists():
        return None
    document = ranking_document(tournament, after_round)
    result = rank_open_document(document)
    residence = dict(tournament.registrations.values_list("start_number", "residence"))
    names = dict(tournament.registrations.values_list("start_number", "name"))
    if tournament.prize_shares:
        money = {row["number"]: row["amount"] for row in result["prizes"]}
    else:
        money = _fixed_prizes(result["ranking"], list(tournament.prize_amounts))
    items = _items(result["ranking"], list(tournament.prize_items))
    rows = [
        RankRow(
            place=row["place"],
            number=row["number"],
            name=names[row["number"]],
            residence=residence[row["number"]],
            points=row["points"],
            rounds=row["rounds"],
            soli=row["soli"],
            decided_by=row["decided_by"],
            prize_cents=money.get(row["number"], 0),
            prize_item=items.get(row["number"], ""),
        )
        for row in result["ranking"]
    ]
    winners = [{**w, "name": names[w["number"]]} for w in result["round_winners"]]
    return OpenRanking(
        after_round=len(document["rounds"]),
        rows=rows,
        round_winners=winners,
        seed=result["seed"],
        tie_breaks=result["tie_breaks"],
        pot_cents=document.get("prizes", {}).get("pot", 0),
    )


@dataclass(frozen=True)
class ScoreSheet:
    """A table's Wertungszettel: its players in seat order and, for every game the table deals,
    who deals it (clockwise from the first seat)."""

    table: SeatedTable
    dealers: list[tuple[int, Seat]]  # (game number from 1, dealer)

    @property
    def row_mm(self) -> float:
        """The height of a game's row: as high as writing wants (6 mm), as low as one A4 page
        with every game and the two total rows needs (about 200 mm for the rows)."""
        return min(60, 2000 // (len(self.dealers) + 2)) / 10


def score_sheets(round_: Round) -> list[ScoreSheet]:
    """One sheet per table of ``round_``: games per round are per player, so a table of five or six
    deals 5/4 or 6/4 of them (``services.table_figures_enter`` counts so too)."""
    games = round_.tournament.games_per_round
    sheets = []
    for seated in seating(round_).tables:
        count = games * len(seated.seats) // 4
        dealers = [(g, seated.seats[(g - 1) % len(seated.seats)]) for g in range(1, count + 1)]
        sheets.append(ScoreSheet(table=seated, dealers=dealers))
    return sheets
