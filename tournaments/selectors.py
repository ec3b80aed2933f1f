"""Read-only queries for championships: the ranking, the plan with names, the Partien, trophies.

The ranking is aggregated from the ledger and the entries of the championship's score sheets
with SQL (SUM/COUNT … GROUP BY member), then ranked by the pure ``tournaments.engine.ranking``:
the same criteria ``tally_entry`` counts when ``rank_tournament`` folds the hands itself (a test
holds the two to each other).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.db.models import BigIntegerField, Case, Count, F, Q, QuerySet, Sum, Value, When
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.models import Club, Member
from scoring.models import Entry, LedgerEntry, Role, Seat, SeatChange, Table
from tournaments.engine import ranking as engine
from tournaments.engine.draw import draw_order
from tournaments.models import (
    Adjustment,
    DrawLog,
    Event,
    EventKind,
    Participant,
    Partie,
    PartieTable,
    Playoff,
    Status,
    SubstitutePoints,
    Tournament,
)


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
    # Once the Partie has begun: the drawn seat order (001 §11.2; clockwise, the Schreiber
    # first) and who deals first. Empty before.
    drawn: tuple[str, ...] = ()
    first_dealer: str = ""

    @property
    def in_seat_order(self) -> tuple[PlanSeat, ...]:
        """The seats as they sit once drawn (Schreiber first, clockwise), else by number."""
        if not self.drawn:
            return self.seats
        numbers = {seat.name: seat.number for seat in self.seats}
        return tuple(PlanSeat(numbers.get(name, 0), name) for name in self.drawn)


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
    drawn = seat_orders(tournament)
    return [
        PlanPartie(
            index=index,
            tables=tuple(
                PlanTable(t, tuple(PlanSeat(n, names.get(n, "")) for n in numbers), *drawn.get((index, t), ((), "")))
                for t, numbers in enumerate(tables, start=1)
            ),
            started=index in started,
        )
        for index, tables in enumerate(tournament.plan["partien"], start=1)
    ]


def seat_orders(tournament: Tournament) -> dict[tuple[int, int], tuple[tuple[str, ...], str]]:
    """(Partie, table) → (the seats in drawn order, Schreiber first; who deals first) for every
    table of the Partien begun, as their score sheets hold them."""
    rows = (
        Seat.objects.filter(table__partie_table__partie__tournament=tournament)
        .order_by("position")
        .values_list("table__partie_table__partie__index", "table__partie_table__number", "name", "is_first_dealer")
    )
    seats: dict[tuple[int, int], list[str]] = {}
    first: dict[tuple[int, int], str] = {}
    for index, number, name, is_first in rows:
        seats.setdefault((index, number), []).append(name)
        if is_first:
            first[(index, number)] = name
    return {key: (tuple(names), first.get(key, names[0])) for key, names in seats.items()}


# The kinds of plan the organiser chooses between (tournaments.engine.plan.VARIANTS), as the plan
# page, the log and the warnings name them.
VARIANT_LABELS = {
    "fewest_repeats": gettext_lazy("wenigste Wiederholungen"),
    "at_most_twice": gettext_lazy("höchstens zweimal dasselbe Paar"),
    "fives_within_two": gettext_lazy("Fünfertisch ausgeglichen"),
}


# What each kind promises, for the plan page's legend of the plans it offers.
VARIANT_HINTS = {
    "fewest_repeats": gettext_lazy("die wenigsten wiederholten Begegnungen"),
    "at_most_twice": gettext_lazy(
        "jedes Paar nach zwei Begegnungen getrennt, am Fünfertisch höchstens zwei Partien Unterschied"
    ),
    "fives_within_two": gettext_lazy(
        "am Fünfertisch höchstens zwei Partien Unterschied, dafür darf sich ein Paar öfter treffen"
    ),
}


def variant_label(variant: str) -> str:
    return str(VARIANT_LABELS.get(variant, variant))


@dataclass(frozen=True)
class PlanVariant:
    variant: str
    repeat_pairs: int
    min_distinct_opponents: int
    max_pair_meetings: int
    five_low: int
    five_high: int
    in_force: bool
    kept: bool = True  # keeps what its kind promises (a re-plan may not, issue 30)

    @property
    def five_spread(self) -> int:
        """Most minus fewest Partien a player sits at a table of five (issue 20)."""
        return self.five_high - self.five_low

    @property
    def label(self) -> str:
        return variant_label(self.variant)

    @property
    def hint(self) -> str:
        return str(VARIANT_HINTS.get(self.variant, ""))


def plan_others(plan: dict[str, Any]) -> list[dict[str, Any]]:
    """The plans offered beside the one in force: the document's ``alternatives`` (issue 30), or
    the single ``alternative`` of a plan stored before there could be two."""
    if "alternatives" in plan:
        return list(plan["alternatives"] or [])
    return [plan["alternative"]] if plan.get("alternative") else []


def plan_choice_open(tournament: Tournament) -> bool:
    """The organiser may take another of the offered plans: before the first Partie, and after a
    re-plan (a withdrawal or a late player, issue 30) until the next Partie begins."""
    if tournament.status == Status.FINISHED:
        return False
    if tournament.status != Status.RUNNING:
        return True
    replanned = (tournament.plan or {}).get("replanned_after")
    return replanned is not None and tournament.partie_set.count() == replanned


def plan_variants(tournament: Tournament) -> list[PlanVariant]:
    """The plan in force and the plans offered beside it with their figures (issues 14, 20 and
    30), in the order of the kinds (the fewest repeats first); empty where nothing is offered."""
    plan = tournament.plan or {}
    others = plan_others(plan)
    if not others:
        return []

    def figures(doc: dict[str, Any], in_force: bool) -> PlanVariant:
        five = [doc["five_seats"][str(n)] for n in _playing_on(doc)] or [0]
        return PlanVariant(
            doc.get("variant", ""),
            doc["repeat_pairs"],
            doc["min_distinct_opponents"],
            doc["max_pair_meetings"],
            min(five),
            max(five),
            in_force,
            doc.get("variant_kept", True),
        )

    order = list(VARIANT_LABELS)
    every = [figures(plan, True), *(figures(other, False) for other in others)]
    return sorted(every, key=lambda v: order.index(v.variant) if v.variant in order else len(order))


def _playing_on(doc: dict[str, Any]) -> list[int]:
    """The numbers who sit in the plan's last Partie (after a re-plan: who plays on)."""
    partien = doc.get("partien") or []
    return sorted(n for table in partien[-1] for n in table) if partien else []


@dataclass(frozen=True)
class PlanPlayer:
    number: int
    name: str
    tables: tuple[int | None, ...]  # his table in each Partie (None: withdrawn before, or added after it)


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
        PlanPlayer(number, names[number], tuple(where[number].get(p.index) for p in partien))
        for number in sorted(where)
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
    first_dealer: str = ""  # deals the first hand (chosen at the table, else the Schreiber)
    writer: str = ""  # the login that writes the table (assigned or the first to save), if any
    writer_id: int | None = None  # its id, for the Vorstand's form
    aborted: bool = False  # broken off by the owner short of its games (issue 20)
    aborted_reason: str = ""

    @property
    def done(self) -> bool:
        return bool(self.games) and self.hands >= self.games

    @property
    def short(self) -> bool:
        """Short of its games and not broken off: refuses finishing the championship."""
        return self.table is not None and not self.done and not self.aborted


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
        .select_related("table", "table__session__club", "schreiber", "schreiber_login")
        .annotate(hands=Count("table__entries", filter=Q(table__entries__kind="hand")))
        .order_by("number")
    )
    logins = dict(
        Member.objects.filter(club_id=tournament.club_id, user__isnull=False).values_list("user_id", "display_name")
    )
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(table__partie_table__partie=partie).order_by("position"):
        seats.setdefault(seat.table_id, []).append(seat)
    now = _current_players(partie)
    tables = tuple(
        TableView(
            row.number,
            row.table,
            tuple(_seat_view(s, now.get(s.pk), numbers) for s in seats[row.table_id]),
            row.schreiber.display_name,
            row.hands or 0,
            games.get(str(len(seats[row.table_id])), 0),
            next((s.name for s in seats[row.table_id] if s.is_first_dealer), seats[row.table_id][0].name),
            _login_label(row.schreiber_login, logins) if row.schreiber_login else "",
            row.schreiber_login_id,
            row.is_aborted,
            row.aborted_reason,
        )
        for row in rows
    )
    return PartieView(index, partie, tables)


def partie_table(tournament: Tournament, index: int, number: int) -> PartieTable:
    """Table ``number`` of the started Partie ``index`` (404 for any other: not begun, no such
    table), with its score sheet and evening."""
    return get_object_or_404(
        PartieTable.objects.select_related("table__session__club", "partie"),
        partie__tournament=tournament,
        partie__index=index,
        number=number,
    )


def _login_label(login: Any, players: dict[int, str]) -> str:
    """A login as the Partie page names it: its player's name where it has one, and the login."""
    name = login.get_username()
    return f"{players[login.pk]} ({name})" if login.pk in players else name


def _current_players(partie: Partie) -> dict[int, tuple[int, str]]:
    """Seat id → (member id, name) of whoever took the seat over last (``SeatChange``)."""
    out: dict[int, tuple[int, str]] = {}
    changes = SeatChange.objects.filter(table__partie_table__partie=partie).order_by("from_number", "id")
    for seat_id, member_id, name in changes.values_list("seat_id", "member_id", "name"):
        out[seat_id] = (member_id, name)
    return out


def _seat_view(seat: Seat, now: tuple[int, str] | None, numbers: dict[int, int | None]) -> PlanSeat:
    """A seat as the Partie page shows it: a substitute by name with the participant he plays for."""
    if now is None or now[0] == seat.member_id:
        return PlanSeat(numbers.get(seat.member_id) or 0, seat.name)
    return PlanSeat(numbers.get(seat.member_id) or 0, _("%(now)s (für %(seat)s)") % {"now": now[1], "seat": seat.name})


def partie_occupants(partie: Partie) -> dict[int, tuple[PartieTable, int]]:
    """Member id → (his table, seat id) for everyone who plays in the Partie now: a seat taken
    over counts for the one who took it, no longer for the one he replaced."""
    now = _current_players(partie)
    tables = {row.pk: row for row in PartieTable.objects.filter(partie=partie).select_related("table")}
    out = {}
    for seat_id, member_id, partie_table in Seat.objects.filter(table__partie_table__partie=partie).values_list(
        "pk", "member_id", "table__partie_table"
    ):
        out[now.get(seat_id, (member_id, ""))[0]] = (tables[partie_table], seat_id)
    return out


@dataclass(frozen=True)
class FinishCheck:
    """What finishing the championship would leave as it is (shown before the owner confirms)
    and what refuses it (issue 14)."""

    not_started: list[int]  # Partien not begun: refuses
    # (Partie, table, games played, games to play): a table short of its games refuses until the
    # owner finishes it or marks it broken off (issue 20)
    short_tables: list[tuple[int, int, int, int]]
    open_partien: list[int]  # Partien whose evening is open: finishing closes it
    shared_first: list[str]  # players sharing first place with no playoff: refuses
    # (Partie, table, games played, games to play, reason): broken off, counted as they stand
    aborted_tables: list[tuple[int, int, int, int, str]] = field(default_factory=list)

    @property
    def refusals(self) -> list[str]:
        out = []
        if self.not_started:
            out.append(
                _("Noch nicht begonnen: %(partien)s. Partie.") % {"partien": ", ".join(map(str, self.not_started))}
            )
        for partie, table, played, games in self.short_tables:
            out.append(
                _(
                    "%(partie)s. Partie, Tisch %(table)s: erst %(played)s von %(games)s Spielen. Zu Ende spielen "
                    "oder auf der Seite der Partie als abgebrochen markieren (mit Grund)."
                )
                % {"partie": partie, "table": table, "played": played, "games": games}
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
        short_tables=[(v.index, t.number, t.hands, t.games) for v in started for t in v.tables if t.short],
        open_partien=[v.index for v in started if v.partie is not None and not v.partie.session.is_closed],
        shared_first=[placing.name for placing in placings if placing.place == 1 and placing.shared],
        aborted_tables=[
            (v.index, t.number, t.hands, t.games, t.aborted_reason) for v in started for t in v.tables if t.aborted
        ],
    )


def partien(tournament: Tournament) -> list[PartieView]:
    return [partie_view(tournament, index) for index in range(1, tournament.partien + 1)]


# --- the ranking ---------------------------------------------------------------------------------


def tournament_tables(tournament: Tournament) -> QuerySet[Table]:
    return Table.objects.filter(partie_table__partie__tournament=tournament)


def _substitutions(tournament: Tournament) -> list[tuple[int, int, int | None, int, int]]:
    """Each stretch a substitute played a participant's seat: (table id, first entry number,
    the number after the last or None, the participant's member id, the substitute's)."""
    out = []
    changes = list(
        SeatChange.objects.filter(table__partie_table__partie__tournament=tournament)
        .order_by("seat_id", "from_number", "id")
        .values_list("seat_id", "table_id", "from_number", "member_id", "seat__member_id")
    )
    for k, (seat, table, start, member, original) in enumerate(changes):
        following = changes[k + 1] if k + 1 < len(changes) else None
        end = following[2] if following and following[0] == seat else None
        if member != original:
            out.append((table, start, end, original, member))
    return out


def _attributed(tournament: Tournament, rows: QuerySet[Any], member: str, number: str) -> QuerySet[Any]:
    """``rows`` (ledger rows or entries) with ``ranked``: the member the row counts for in the
    ranking. A substitute's rows count for himself, for the participant he replaced, or (left
    out) for nobody, as the championship's ``substitute_points`` says (issue 20)."""
    stretches = [
        (
            Q(table_id=table, **{f"{number}__gte": start, member: substitute})
            & (Q(**{f"{number}__lt": end}) if end else Q()),
            original,
        )
        for table, start, end, original, substitute in _substitutions(tournament)
    ]
    if stretches and tournament.substitute_points == SubstitutePoints.NOBODY:
        excluded = Q()
        for condition, _original in stretches:
            excluded |= condition
        rows = rows.exclude(excluded)
    if stretches and tournament.substitute_points == SubstitutePoints.ABSENT:
        cases = [When(condition, then=Value(original)) for condition, original in stretches]
        return rows.annotate(ranked=Case(*cases, default=F(member), output_field=BigIntegerField()))
    return rows.annotate(ranked=F(member))


def tallies(tournament: Tournament) -> dict[int, engine.Tally]:
    """Each participant's figures for the ten criteria of 001 §11.3, by member id, from the
    ledger and the entries of the championship's tables (one query per kind of figure)."""
    tables = tournament_tables(tournament)
    ids = list(tournament.participants.values_list("member_id", flat=True))
    figures: dict[int, dict[str, int]] = {member: {} for member in ids}
    ledger = _attributed(tournament, LedgerEntry.objects.filter(table__in=tables), "member", "entry__number")
    points = ledger.values("ranked").annotate(total=Sum("amount"))
    for row in points:
        figures.setdefault(row["ranked"], {})["points"] = row["total"]
    # A hand scored as a Fehler counts for its points only (see tournaments.engine.ranking).
    games = Entry.objects.filter(table__in=tables, kind="hand").exclude(data__has_key="fehler")
    won = Q(declarer_won=True)
    alone = (
        _attributed(tournament, games.filter(solo=True, declarer__isnull=False), "declarer", "number")
        .values("ranked")
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
        member = row.pop("ranked")
        figures.setdefault(member, {}).update(row)
    normal = (
        ledger.filter(
            entry__game__in=engine.NORMAL_GAMES,
            won=True,
            role__in=(Role.DECLARER, Role.PARTNER, Role.OPPONENT),
        )
        .exclude(entry__data__has_key="fehler")
        .values("ranked")
        .annotate(normal_games_won=Count("id"))
    )
    for row in normal:
        figures.setdefault(row["ranked"], {})["normal_games_won"] = row["normal_games_won"]
    return {member: engine.Tally(**values) for member, values in figures.items()}


def games_by_member(tournament: Tournament) -> dict[int, int]:
    """The games each member played over all Partien (the "Spiele" column, issue 20): the hands
    he took part in, not those he sat out at a table of five or six."""
    rows = (
        LedgerEntry.objects.filter(table__in=tournament_tables(tournament), entry__kind="hand")
        .exclude(role=Role.OUT)
        .values("member")
        .annotate(games=Count("id"))
    )
    return {row["member"]: row["games"] for row in rows}


SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def mark(number: int) -> str:
    """The mark of a broken-off table at its players' names: ¹, ², … (pages, PDF and Excel)."""
    return str(number).translate(SUPERSCRIPT)


@dataclass(frozen=True)
class AbortedTable:
    """A table broken off short of its games (issue 20), numbered as its mark on the printouts."""

    mark: int
    partie: int
    table: int
    played: int
    games: int
    reason: str
    members: tuple[int, ...]

    @property
    def sign(self) -> str:
        return mark(self.mark)

    @property
    def label(self) -> str:
        return _(
            "%(partie)s. Partie, Tisch %(table)s abgebrochen nach %(played)s von %(games)s Spielen: %(reason)s"
        ) % {
            "partie": self.partie,
            "table": self.table,
            "played": self.played,
            "games": self.games,
            "reason": self.reason,
        }


def aborted_tables(tournament: Tournament) -> list[AbortedTable]:
    """The championship's broken-off tables in Partie and table order, marked 1, 2, …"""
    games = (tournament.plan or {}).get("games_per_table", {})
    rows = (
        PartieTable.objects.filter(partie__tournament=tournament, aborted_at__isnull=False)
        .select_related("partie")
        .annotate(hands=Count("table__entries", filter=Q(table__entries__kind="hand")))
        .order_by("partie__index", "number")
    )
    seated: dict[int, list[int]] = {}
    for seat in Seat.objects.filter(table__partie_table__in=rows).order_by("position"):
        seated.setdefault(seat.table_id, []).append(seat.member_id)
    return [
        AbortedTable(
            mark,
            row.partie.index,
            row.number,
            row.hands,
            int(games.get(str(len(seated.get(row.table_id, []))), 0)),
            row.aborted_reason,
            tuple(seated.get(row.table_id, [])),
        )
        for mark, row in enumerate(rows, start=1)
    ]


@dataclass(frozen=True)
class RankingRow:
    placing: engine.Placing
    member: Member
    number: int | None
    # His points in each started Partie, in order; None for a Partie he did not play (withdrawn
    # before it or added after it: "–", never 0, issue 30).
    partie_points: tuple[int | None, ...] = ()
    withdrawn: bool = False  # withdrawn between Partien (issue 20): ranked below those who stayed
    games: int = 0  # games played over all Partien
    marks: tuple[int, ...] = ()  # the broken-off tables he sat at (``AbortedTable.mark``)
    # A playoff separated his place from the one above or below: decided "nach Stechen" (001 §11.3
    # item 11; the trophy page says so)
    after_playoff: bool = False
    withdrawn_after: int | None = None  # the Partien he played before withdrawing
    joined_at: int | None = None  # the Partie a late player joined at

    @property
    def criteria(self) -> list[int]:
        return list(self.placing.tally.key())

    @property
    def roster_note(self) -> str:
        """The mark of a withdrawn or late player, "zurückgezogen nach P2" or "nachgemeldet ab P3"
        (both where both hold), else "": the same words on the page, the Großbild, the PDF and in
        Excel's column of its own (issue 30)."""
        notes = []
        if self.joined_at is not None:
            notes.append(_("nachgemeldet ab P%(index)s") % {"index": self.joined_at})
        if self.withdrawn:
            notes.append(_("zurückgezogen nach P%(index)s") % {"index": self.withdrawn_after})
        return ", ".join(notes)


@dataclass(frozen=True)
class TournamentRanking:
    tournament: Tournament
    ranking: engine.Ranking
    rows: list[RankingRow]
    playoffs: list[Playoff] = field(default_factory=list)
    adjustments: list[Adjustment] = field(default_factory=list)
    ignored_playoffs: list[Playoff] = field(default_factory=list)
    partie_indices: list[int] = field(default_factory=list)  # the started Partien (columns P1 …)
    aborted: list[AbortedTable] = field(default_factory=list)

    @property
    def roster_changes(self) -> bool:
        """Someone withdrew or came late: a Partie column may read "–" (not played)."""
        return any(row.roster_note for row in self.rows)

    def tie_groups(self) -> list[list[RankingRow]]:
        by_name = {row.member.display_name: row for row in self.rows}
        return [[by_name[name] for name in group] for group in self.ranking.tie_groups()]


def partie_points(tournament: Tournament) -> tuple[list[int], dict[int, tuple[int | None, ...]]]:
    """(the started Partien, each member's points in each of them), from the ledger. A Partie in
    which the plan seats a participant nowhere (withdrawn before it, added after it) and that
    books him nothing is None: not played, which is not 0 points (issue 30)."""
    indices = sorted(tournament.partie_set.values_list("index", flat=True))
    totals: dict[tuple[int, int], int] = {}
    rows = (
        _attributed(
            tournament, LedgerEntry.objects.filter(table__in=tournament_tables(tournament)), "member", "entry__number"
        )
        .values("ranked", "table__partie_table__partie__index")
        .annotate(total=Sum("amount"))
    )
    for row in rows:
        totals[(row["ranked"], row["table__partie_table__partie__index"])] = row["total"]
    partien = (tournament.plan or {}).get("partien") or []
    seated = [{n for table in partie for n in table} for partie in partien]

    def points(member: int, number: int | None, index: int) -> int | None:
        if (member, index) in totals:
            return totals[(member, index)]
        plays = index > len(seated) or number in seated[index - 1]
        return 0 if plays else None

    members = tournament.participants.values_list("member_id", "number")
    return indices, {m: tuple(points(m, number, i) for i in indices) for m, number in members}


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
    # A withdrawn player (issue 20) keeps his games and points, ranked below everyone who stayed:
    # the two groups are ranked apart and the withdrawn ones' places follow on.
    withdrawn = {p.member_id for p in people if p.withdrawn}
    withdrawn_after = {p.member_id: p.withdrawn_after for p in people if p.withdrawn}
    joined = {p.member_id: p.joined_at for p in people if p.joined_at is not None}
    groups = [[m for m in listed if m not in withdrawn], [m for m in listed if m in withdrawn]]
    parts = [
        engine.rank(
            {name[m]: figures.get(m, engine.Tally()) for m in group},
            [
                engine.Playoff(tuple(p.display_name for p in playoff.players.all()), playoff.winner.display_name)
                for playoff in playoffs
                if all(p.pk in group for p in playoff.players.all())
            ],
            [
                engine.Adjustment(tuple(p.display_name for p in adjustment.players.all()), adjustment.points)
                for adjustment in adjustments
                if all(p.pk in group for p in adjustment.players.all())
            ],
        )
        for group in groups[:1] + [group for group in groups[1:] if group]
    ]
    result = parts[0]
    if len(parts) > 1:
        offset = len(result.placings)
        result = engine.Ranking(
            result.placings + tuple(replace(p, place=p.place + offset) for p in parts[1].placings),
            result.ties_unresolved + parts[1].ties_unresolved,
            result.ignored_playoffs + parts[1].ignored_playoffs,
        )
    by_name = {member.display_name: member for member in members.values()}
    ignored = {frozenset(p.players) for p in result.ignored_playoffs}
    indices, per_partie = partie_points(tournament)
    played = games_by_member(tournament)
    aborted = aborted_tables(tournament)

    placings = result.placings
    # The places a playoff decided: the place of the one it separated and the place above him.
    by_playoff = {
        place
        for index, placing in enumerate(placings)
        if placing.decided_by == engine.PLAYOFF
        for place in (placing.place, placings[index - 1].place if index else placing.place)
    }

    def row(placing: engine.Placing) -> RankingRow:
        member = by_name[placing.name]
        return RankingRow(
            placing,
            member,
            numbers[member.pk],
            per_partie.get(member.pk, ()),
            withdrawn=member.pk in withdrawn,
            games=played.get(member.pk, 0),
            marks=tuple(table.mark for table in aborted if member.pk in table.members),
            after_playoff=placing.place in by_playoff,
            withdrawn_after=withdrawn_after.get(member.pk),
            joined_at=joined.get(member.pk),
        )

    return TournamentRanking(
        tournament=tournament,
        ranking=result,
        rows=[row(placing) for placing in placings],
        partie_indices=indices,
        aborted=aborted,
        playoffs=playoffs,
        adjustments=adjustments,
        ignored_playoffs=[
            playoff for playoff in playoffs if frozenset(p.display_name for p in playoff.players.all()) in ignored
        ],
    )


def zock_koenig(ranking: TournamentRanking) -> str | None:
    """The name of the sole first (the Wanderpokal's holder, 001 §11.6); None while first place
    is shared or nobody is ranked."""
    first = [row for row in ranking.rows if row.placing.place == 1]
    return first[0].member.display_name if len(first) == 1 else None


def ranking_names(tournament: Tournament) -> list[str]:
    """The championship's ranking as names, best first (for next year's number draw)."""
    return [placing.name for placing in tournament_ranking(tournament).ranking.placings]


# --- finishing and reopening (issue 20) -------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    """A player whose place one finish changed against the finish before."""

    name: str
    before: int
    after: int

    def __str__(self) -> str:
        return f"{self.name} {self.before} → {self.after}"


@dataclass(frozen=True)
class ReopenNote:
    """A reopening of the finished championship, shown wherever its result is: when, by whom,
    why, and the places the finish after it moved (None while it is not finished again)."""

    at: datetime.datetime
    by: str
    reason: str
    moved: tuple[Move, ...] | None


def _moves(event: Event) -> tuple[Move, ...]:
    return tuple(Move(row["name"], row["from"], row["to"]) for row in event.data.get("moved", []))


def reopen_notes(tournament: Tournament) -> list[ReopenNote]:
    """Every reopening of ``tournament``, oldest first, from its log."""
    events = list(
        tournament.events.filter(kind__in=(Event.Kind.FINISHED, Event.Kind.REOPENED))
        .select_related("by")
        .order_by("at", "id")
    )
    notes = []
    for i, event in enumerate(events):
        if event.kind != Event.Kind.REOPENED:
            continue
        finish = next((later for later in events[i + 1 :] if later.kind == Event.Kind.FINISHED), None)
        by = event.by.get_username() if event.by else ""
        notes.append(ReopenNote(event.at, by, event.reason, None if finish is None else _moves(finish)))
    return notes


def finish_moves(tournament: Tournament) -> tuple[Move, ...] | None:
    """The places the latest finish moved against the finish before it (empty: none moved);
    None where it was the first finish."""
    last = tournament.events.filter(kind=Event.Kind.FINISHED).order_by("-at", "-id").first()
    if last is None or "moved" not in last.data:
        return None
    return _moves(last)


# --- trophies (001 §11.6) --------------------------------------------------------------------------


@dataclass(frozen=True)
class Podium:
    tournament: Tournament
    places: Sequence[RankingRow]  # places 1..3 (more where places are shared)
    reopens: Sequence[ReopenNote] = ()  # the result changed after a finish: why, by whom

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
        out.append(Podium(tournament, [row for row in rows if row.placing.place <= 3], reopen_notes(tournament)))
    return out


# --- the roster's log (issue 20) -------------------------------------------------------------------

ROSTER_EVENTS = (EventKind.WITHDRAWN, EventKind.ADDED, EventKind.REPLANNED, EventKind.SUBSTITUTE)


@dataclass(frozen=True)
class RosterLine:
    event: Event
    text: str


def roster_log(tournament: Tournament) -> list[RosterLine]:
    """What changed who plays after the start (withdrawn, added, re-planned, substitutes), oldest
    first, each as one line for the ranking's "Protokoll"."""
    out = []
    for event in tournament.events.filter(kind__in=ROSTER_EVENTS).select_related("by").order_by("at", "id"):
        data = event.data
        if event.kind == EventKind.WITHDRAWN:
            text = _("%(name)s (Nr. %(number)s) nach der %(partie)s. Partie zurückgezogen") % {
                "name": data.get("member"),
                "number": data.get("number"),
                "partie": event.partie,
            }
        elif event.kind == EventKind.ADDED:
            text = _("%(name)s ab der %(partie)s. Partie nachgemeldet (Nr. %(number)s)") % {
                "name": data.get("member"),
                "number": data.get("number"),
                "partie": event.partie,
            }
        elif event.kind == EventKind.REPLANNED:
            figures = {
                "partie": event.partie,
                "players": data.get("players"),
                "repeats": data.get("repeat_pairs"),
                "bound": data.get("lower_bound"),
                "kind": variant_label(data.get("variant", "fewest_repeats")),
            }
            if data.get("chosen"):
                text = _("Für die Partien ab der %(partie)s. gewählt: „%(kind)s“, %(repeats)s Wiederholungen") % figures
            else:
                text = (
                    _(
                        "Partien ab der %(partie)s. neu geplant für %(players)s Spieler, als „%(kind)s“: "
                        "%(repeats)s Wiederholungen (Untergrenze %(bound)s)"
                    )
                    % figures
                )
            if data.get("variant_kept") is False:
                text += " – " + _("die gewählte Art lässt sich nicht mehr ganz einhalten")
        elif data.get("back"):
            text = _("%(partie)s. Partie, Tisch %(table)s: %(substitute)s spielt ab Spiel %(from)s wieder selbst") % {
                "partie": event.partie,
                "table": data.get("table"),
                "substitute": data.get("substitute"),
                "from": data.get("from"),
            }
        else:
            text = _("%(partie)s. Partie, Tisch %(table)s: %(substitute)s spielt ab Spiel %(from)s für %(absent)s") % {
                "partie": event.partie,
                "table": data.get("table"),
                "substitute": data.get("substitute"),
                "from": data.get("from"),
                "absent": data.get("absent"),
            }
        if event.reason:
            text = f"{text} – {event.reason}"
        out.append(RosterLine(event, text))
    return out
