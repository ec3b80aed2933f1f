"""Reads of open tournaments: registrations, the Kasse, returning guests, a round's seating and
its tables with the figures entered so far."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Max, Q, QuerySet

from clubs.models import Club, Member
from opentournaments.models import OpenTournament, Registration, Round, RoundTable

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


@dataclass(frozen=True)
class SeatedTable:
    table: RoundTable
    seats: list[Seat]
    scores: dict[int, tuple[int, int]]  # start number → (points, soli), empty until entered

    @property
    def entered(self) -> bool:
        return bool(self.scores)


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


def seating(round_: Round) -> Seating:
    """A round's tables with their players in seat order and the figures entered so far."""
    people = {r.start_number: r for r in round_.tournament.registrations.all()}
    tables = list(round_.tables.prefetch_related("scores__registration"))
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
            )
            for t in tables
        ],
    )
