"""Read-only queries for championships: the ranking, the plan with names, the Partien, trophies.

The ranking is aggregated from the ledger and the entries of the championship's score sheets
with SQL (SUM/COUNT … GROUP BY member), then ranked by the pure ``tournaments.engine.ranking``:
the same criteria ``tally_entry`` counts when ``rank_tournament`` folds the hands itself (a test
holds the two to each other).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q, QuerySet, Sum
from django.utils.translation import gettext as _

from clubs.models import Club, Member
from scoring.models import Entry, LedgerEntry, Role, Seat, Table
from tournaments.engine import ranking as engine
from tournaments.engine.draw import draw_order
from tournaments.models import Adjustment, DrawLog, Participant, Partie, PartieTable, Playoff, Status, Tournament


def club_tournaments(club: Club) -> QuerySet[Tournament]:
    return Tournament.objects.filter(club=club).annotate(players=Count("participants")).order_by("-year")


def previous_tournament(tournament: Tournament) -> Tournament | None:
    """Last year's championship (the latest finished one before this year)."""
    return (
        Tournament.objects.filter(club_id=tournament.club_id, year__lt=tournament.year, status=Status.FINISHED)
        .order_by("-year")
        .first()
    )


def unfinished_before(tournament: Tournament) -> Tournament | None:
    """The latest earlier championship that is not finished: its ranking is not used for the
    draw order (``previous_tournament`` is), which the draw page says before drawing."""
    return (
        Tournament.objects.filter(club_id=tournament.club_id, year__lt=tournament.year)
        .exclude(status=Status.FINISHED)
        .order_by("-year")
        .first()
    )


def participants(tournament: Tournament) -> list[Participant]:
    return list(tournament.participants.select_related("member").order_by("number", "member__display_name"))


def draw_preview(tournament: Tournament) -> list[Participant]:
    """The participants in the order they draw (001 §11.2): as recorded once they have drawn,
    before that as last year's ranking gives it."""
    people = list(tournament.participants.select_related("member").order_by("member__display_name"))
    if people and all(p.drew_order for p in people):
        return sorted(people, key=lambda p: p.drew_order or 0)
    previous = previous_tournament(tournament)
    order = draw_order([p.member.display_name for p in people], ranking_names(previous) if previous else [])
    position = {name: i for i, name in enumerate(order)}
    return sorted(people, key=lambda p: position[p.member.display_name])


def draw_logs(tournament: Tournament) -> QuerySet[DrawLog]:
    return tournament.draws.select_related("by").order_by("-at", "-id")


# --- the plan ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlanSeat:
    number: int
    name: str


@dataclass(frozen=True)
class PlanTable:
    number: int
    seats: tuple[PlanSeat, ...]


@dataclass(frozen=True)
class PlanPartie:
    index: int
    tables: tuple[PlanTable, ...]
    started: bool


def plan(tournament: Tournament) -> list[PlanPartie]:
    """The seating plan with names where the numbers are drawn (``?`` before the draw)."""
    if not tournament.plan:
        return []
    names = {p.number: p.member.display_name for p in tournament.participants.select_related("member") if p.number}
    started = set(tournament.partie_set.values_list("index", flat=True))
    return [
        PlanPartie(
            index=index,
            tables=tuple(
                PlanTable(t, tuple(PlanSeat(n, names.get(n, "")) for n in numbers))
                for t, numbers in enumerate(tables, start=1)
            ),
            started=index in started,
        )
        for index, tables in enumerate(tournament.plan["partien"], start=1)
    ]


@dataclass(frozen=True)
class PlanVariant:
    variant: str
    repeat_pairs: int
    min_distinct_opponents: int
    max_pair_meetings: int
    five_low: int
    five_high: int
    in_force: bool

    @property
    def five_spread(self) -> int:
        """Most minus fewest Partien a player sits at a table of five (issue 20)."""
        return self.five_high - self.five_low


def plan_variants(tournament: Tournament) -> list[PlanVariant]:
    """The plan in force and the alternative beside it with their figures (issues 14 and 20),
    the default first; empty where no alternative is offered."""
    plan = tournament.plan or {}
    if not plan.get("alternative"):
        return []

    def figures(doc: dict[str, Any], in_force: bool) -> PlanVariant:
        five = list(doc.get("five_seats", {}).values()) or [0]
        return PlanVariant(
            doc.get("variant", ""),
            doc["repeat_pairs"],
            doc["min_distinct_opponents"],
            doc["max_pair_meetings"],
            min(five),
            max(five),
            in_force,
        )

    both = [figures(plan, True), figures(plan["alternative"], False)]
    return sorted(both, key=lambda v: v.variant != "fewest_repeats")


@dataclass(frozen=True)
class PlanPlayer:
    number: int
    name: str
    tables: tuple[int, ...]  # his table in each Partie


def plan_by_player(partien: Sequence[PlanPartie]) -> list[PlanPlayer]:
    """The plan turned round: for each number, the table he sits at in each Partie."""
    where: dict[int, dict[int, int]] = {}
    names: dict[int, str] = {}
    for partie in partien:
        for table in partie.tables:
            for seat in table.seats:
                where.setdefault(seat.number, {})[partie.index] = table.number
                names[seat.number] = seat.name
    return [
        PlanPlayer(number, names[number], tuple(where[number][p.index] for p in partien)) for number in sorted(where)
    ]


# --- Partien ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableView:
    number: int
    table: Table | None  # None before the Partie starts
    seats: tuple[PlanSeat, ...]  # in seat order, Schreiber first (before the start: by number)
    schreiber: str
    hands: int  # hands (games) on the sheet so far
    games: int  # games this table plays in the Partie (a table of 5 plays 5/4 of them, of 6 6/4)

    @property
    def done(self) -> bool:
        return bool(self.games) and self.hands >= self.games


@dataclass(frozen=True)
class PartieView:
    index: int
    partie: Partie | None
    tables: tuple[TableView, ...]

    @property
    def started(self) -> bool:
        return self.partie is not None


def partie_view(tournament: Tournament, index: int) -> PartieView:
    partie = tournament.partie_set.filter(index=index).select_related("session").first()
    games = (tournament.plan or {}).get("games_per_table", {})
    planned = plan(tournament)
    plan_tables = planned[index - 1].tables if 0 < index <= len(planned) else ()
    if partie is None:
        return PartieView(
            index,
            None,
            tuple(TableView(t.number, None, t.seats, "", 0, games.get(str(len(t.seats)), 0)) for t in plan_tables),
        )
    numbers = {p.member_id: p.number for p in tournament.participants.all()}
    rows = (
        PartieTable.objects.filter(partie=partie)
        .select_related("table", "table__session__club", "schreiber")
        .annotate(hands=Count("table__entries", filter=Q(table__entries__kind="hand")))
        .order_by("number")
    )
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(table__partie_table__partie=partie).order_by("position"):
        seats.setdefault(seat.table_id, []).append(seat)
    tables = tuple(
        TableView(
            row.number,
            row.table,
            tuple(PlanSeat(numbers.get(s.member_id, 0), s.name) for s in seats[row.table_id]),
            row.schreiber.display_name,
            row.hands or 0,
            games.get(str(len(seats[row.table_id])), 0),
        )
        for row in rows
    )
    return PartieView(index, partie, tables)


@dataclass(frozen=True)
class FinishCheck:
    """What finishing the championship would leave as it is (shown before the owner confirms)
    and what refuses it (issue 14)."""

    not_started: list[int]  # Partien not begun: refuses
    short_tables: list[tuple[int, int, int, int]]  # (Partie, table, games played, games to play)
    open_partien: list[int]  # Partien whose evening is open: finishing closes it
    shared_first: list[str]  # players sharing first place with no playoff: refuses

    @property
    def refusals(self) -> list[str]:
        out = []
        if self.not_started:
            out.append(
                _("Noch nicht begonnen: %(partien)s. Partie.") % {"partien": ", ".join(map(str, self.not_started))}
            )
        if self.shared_first:
            out.append(
                _(
                    "%(names)s teilen sich den ersten Platz. Der Wanderpokal hat einen Zock-König: zuerst das "
                    "Stechen eintragen (001 §11.3 Nr. 11)."
                )
                % {"names": ", ".join(self.shared_first)}
            )
        return out


def finish_check(tournament: Tournament) -> FinishCheck:
    views = partien(tournament)
    started = [v for v in views if v.partie is not None]
    placings = tournament_ranking(tournament).ranking.placings
    return FinishCheck(
        not_started=[v.index for v in views if v.partie is None],
        short_tables=[(v.index, t.number, t.hands, t.games) for v in started for t in v.tables if not t.done],
        open_partien=[v.index for v in started if v.partie is not None and not v.partie.session.is_closed],
        shared_first=[placing.name for placing in placings if placing.place == 1 and placing.shared],
    )


def partien(tournament: Tournament) -> list[PartieView]:
    return [partie_view(tournament, index) for index in range(1, tournament.partien + 1)]


# --- the ranking ---------------------------------------------------------------------------------


def tournament_tables(tournament: Tournament) -> QuerySet[Table]:
    return Table.objects.filter(partie_table__partie__tournament=tournament)


def tallies(tournament: Tournament) -> dict[int, engine.Tally]:
    """Each participant's figures for the ten criteria of 001 §11.3, by member id, from the
    ledger and the entries of the championship's tables (one query per kind of figure)."""
    tables = tournament_tables(tournament)
    ids = list(tournament.participants.values_list("member_id", flat=True))
    figures: dict[int, dict[str, int]] = {member: {} for member in ids}
    points = LedgerEntry.objects.filter(table__in=tables).values("member").annotate(total=Sum("amount"))
    for row in points:
        figures.setdefault(row["member"], {})["points"] = row["total"]
    # A hand scored as a Fehler counts for its points only (see tournaments.engine.ranking).
    games = Entry.objects.filter(table__in=tables, kind="hand").exclude(data__has_key="fehler")
    won = Q(declarer_won=True)
    alone = (
        games.filter(solo=True, declarer__isnull=False)
        .values("declarer")
        .annotate(
            einzelspiele_played=Count("id"),
            einzelspiele_won=Count("id", filter=won),
            solos_played=Count("id", filter=Q(game__in=engine.SOLO_GAMES)),
            solos_won=Count("id", filter=Q(game__in=engine.SOLO_GAMES) & won),
            wenz_played=Count("id", filter=Q(game__in=engine.WENZ_GAMES)),
            wenz_won=Count("id", filter=Q(game__in=engine.WENZ_GAMES) & won),
            bettel_played=Count("id", filter=Q(game__in=engine.BETTEL_GAMES)),
            bettel_won=Count("id", filter=Q(game__in=engine.BETTEL_GAMES) & won),
        )
    )
    for row in alone:
        member = row.pop("declarer")
        figures.setdefault(member, {}).update(row)
    normal = (
        LedgerEntry.objects.filter(
            table__in=tables,
            entry__game__in=engine.NORMAL_GAMES,
            won=True,
            role__in=(Role.DECLARER, Role.PARTNER, Role.OPPONENT),
        )
        .exclude(entry__data__has_key="fehler")
        .values("member")
        .annotate(normal_games_won=Count("id"))
    )
    for row in normal:
        figures.setdefault(row["member"], {})["normal_games_won"] = row["normal_games_won"]
    return {member: engine.Tally(**values) for member, values in figures.items()}


@dataclass(frozen=True)
class RankingRow:
    placing: engine.Placing
    member: Member
    number: int | None
    partie_points: tuple[int, ...] = ()  # his points in each started Partie, in order

    @property
    def criteria(self) -> list[int]:
        return list(self.placing.tally.key())


@dataclass(frozen=True)
class TournamentRanking:
    tournament: Tournament
    ranking: engine.Ranking
    rows: list[RankingRow]
    playoffs: list[Playoff] = field(default_factory=list)
    adjustments: list[Adjustment] = field(default_factory=list)
    ignored_playoffs: list[Playoff] = field(default_factory=list)
    partie_indices: list[int] = field(default_factory=list)  # the started Partien (columns P1 …)

    def tie_groups(self) -> list[list[RankingRow]]:
        by_name = {row.member.display_name: row for row in self.rows}
        return [[by_name[name] for name in group] for group in self.ranking.tie_groups()]


def partie_points(tournament: Tournament) -> tuple[list[int], dict[int, tuple[int, ...]]]:
    """(the started Partien, each member's points in each of them), from the ledger."""
    indices = sorted(tournament.partie_set.values_list("index", flat=True))
    totals: dict[tuple[int, int], int] = {}
    rows = (
        LedgerEntry.objects.filter(table__in=tournament_tables(tournament))
        .values("member", "table__partie_table__partie__index")
        .annotate(total=Sum("amount"))
    )
    for row in rows:
        totals[(row["member"], row["table__partie_table__partie__index"])] = row["total"]
    members = tournament.participants.values_list("member_id", flat=True)
    return indices, {m: tuple(totals.get((m, i), 0) for i in indices) for m in members}


def tournament_ranking(tournament: Tournament) -> TournamentRanking:
    """The ranking of 001 §11.3 with every criterion, the playoffs and the adjustments."""
    people = participants(tournament)
    members = {p.member_id: p.member for p in people}
    numbers = {p.member_id: p.number for p in people}
    figures = tallies(tournament)
    name = {member_id: member.display_name for member_id, member in members.items()}
    playoffs = list(tournament.playoffs.select_related("winner").prefetch_related("players"))
    adjustments = list(tournament.adjustments.prefetch_related("players"))
    # The order players are listed in decides nothing but the order within a shared place.
    listed = sorted(members, key=lambda m: (numbers[m] or 0, name[m].casefold()))
    result = engine.rank(
        {name[m]: figures.get(m, engine.Tally()) for m in listed},
        [
            engine.Playoff(tuple(p.display_name for p in playoff.players.all()), playoff.winner.display_name)
            for playoff in playoffs
            if all(p.pk in members for p in playoff.players.all())
        ],
        [
            engine.Adjustment(tuple(p.display_name for p in adjustment.players.all()), adjustment.points)
            for adjustment in adjustments
            if all(p.pk in members for p in adjustment.players.all())
        ],
    )
    by_name = {member.display_name: member for member in members.values()}
    ignored = {frozenset(p.players) for p in result.ignored_playoffs}
    indices, per_partie = partie_points(tournament)
    return TournamentRanking(
        tournament=tournament,
        ranking=result,
        rows=[
            RankingRow(
                placing,
                by_name[placing.name],
                numbers[by_name[placing.name].pk],
                per_partie.get(by_name[placing.name].pk, ()),
            )
            for placing in result.placings
        ],
        partie_indices=indices,
        playoffs=playoffs,
        adjustments=adjustments,
        ignored_playoffs=[
            playoff for playoff in playoffs if frozenset(p.display_name for p in playoff.players.all()) in ignored
        ],
    )


def ranking_names(tournament: Tournament) -> list[str]:
    """The championship's ranking as names, best first (for next year's number draw)."""
    return [placing.name for placing in tournament_ranking(tournament).ranking.placings]


# --- trophies (001 §11.6) --------------------------------------------------------------------------


@dataclass(frozen=True)
class Podium:
    tournament: Tournament
    places: Sequence[RankingRow]  # places 1..3 (more where places are shared)

    @property
    def kings(self) -> list[RankingRow]:
        """The Zock-König (more than one only where the first place stayed shared)."""
        return [row for row in self.places if row.placing.place == 1]


def trophy_history(club: Club) -> list[Podium]:
    """The top three of every finished championship, latest first: gold, silver and bronze, and
    the Wanderpokal's Zock-Könige across the years."""
    out = []
    for tournament in Tournament.objects.filter(club=club, status=Status.FINISHED).order_by("-year"):
        rows = tournament_ranking(tournament).rows
        out.append(Podium(tournament, [row for row in rows if row.placing.place <= 3]))
    return out
