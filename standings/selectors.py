"""Standings and statistics: read-only aggregate queries over the ledger.

Every figure here is a SQL aggregate (SUM/COUNT/MIN/MAX … GROUP BY) over ``LedgerEntry`` (club,
unit, date and member are copied onto each row so the standings need no join), never a Python
loop over hands. Money and points are never mixed: everything is grouped by unit.

What the ledger rows mean (written by ``scoring.services``, see docs/standings.md): ``won`` is
true or false for everyone who played a hand and NULL for events (Vergeben, a vote) and for
whoever sat out, so ``won IS NOT NULL`` counts games played.

Nothing here writes, and nothing here knows about HTML: views and exports render the results.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any
from urllib.parse import urlencode

from django.db.models import Count, F, Max, Min, Q, QuerySet, Sum, Window
from django.utils import formats
from django.utils.translation import gettext as _

from clubs.models import Club, Member
from clubs.words import words_for
from scoring import hooks
from scoring.amounts import average
from scoring.engine import registry
from scoring.engine.presets.skat_seeger import WON_BONUS
from scoring.labels import game_label
from scoring.models import Entry, LedgerEntry, Role, Session, Table, Unit

UNIT_ORDER = [Unit.CENT.value, Unit.POINT.value, Unit.UNIT.value]


# --- periods -------------------------------------------------------------------------------------


class PeriodKind(StrEnum):
    EVENING = "evening"
    MONTH = "month"
    SEASON = "season"
    RANGE = "range"
    ALL = "all"


@dataclass(frozen=True)
class Period:
    """A stretch of a club's history: one evening, a month, a season (a calendar year), any
    date range (both ends included) or all time. Build one with the class methods."""

    kind: PeriodKind
    start: dt.date | None = None
    end: dt.date | None = None
    session: Session | None = None

    @classmethod
    def season(cls, year: int) -> Period:
        return cls(PeriodKind.SEASON, dt.date(year, 1, 1), dt.date(year, 12, 31))

    @classmethod
    def current_season(cls) -> Period:
        return cls.season(dt.date.today().year)

    @classmethod
    def month(cls, year: int, month: int) -> Period:
        first = dt.date(year, month, 1)
        last = (first.replace(day=28) + dt.timedelta(days=4)).replace(day=1) - dt.timedelta(days=1)
        return cls(PeriodKind.MONTH, first, last)

    @classmethod
    def between(cls, start: dt.date | None, end: dt.date | None) -> Period:
        if start is None and end is None:
            return cls.all_time()
        return cls(PeriodKind.RANGE, start, end)

    @classmethod
    def all_time(cls) -> Period:
        return cls(PeriodKind.ALL)

    @classmethod
    def evening(cls, session: Session) -> Period:
        return cls(PeriodKind.EVENING, session.date, session.date, session)

    def q(self, prefix: str = "") -> Q:
        """The filter for rows that carry ``date`` (and ``session``) under ``prefix``."""
        if self.session is not None:
            return Q(**{f"{prefix}session_id": self.session.pk})
        q = Q()
        if self.start is not None:
            q &= Q(**{f"{prefix}date__gte": self.start})
        if self.end is not None:
            q &= Q(**{f"{prefix}date__lte": self.end})
        return q

    def session_q(self, prefix: str = "") -> Q:
        """The same filter for rows that reach the evening through ``prefix`` (``table__session__``)."""
        if self.session is not None:
            return Q(**{f"{prefix}pk": self.session.pk})
        return self.q(prefix)

    @property
    def label(self) -> str:
        if self.kind == PeriodKind.EVENING and self.session is not None:
            when = formats.date_format(self.session.date, "SHORT_DATE_FORMAT")
            place = f", {self.session.place}" if self.session.place else ""
            return _("Spielabend %(date)s%(place)s") % {"date": when, "place": place}
        if self.kind == PeriodKind.SEASON and self.start:
            return _("Saison %(year)s") % {"year": self.start.year}
        if self.kind == PeriodKind.MONTH and self.start:
            return formats.date_format(self.start, "YEAR_MONTH_FORMAT")
        if self.kind == PeriodKind.ALL:
            return _("Gesamt")
        start = formats.date_format(self.start, "SHORT_DATE_FORMAT") if self.start else "…"
        end = formats.date_format(self.end, "SHORT_DATE_FORMAT") if self.end else "…"
        return f"{start} – {end}"

    def params(self) -> dict[str, str]:
        """The query parameters that select this period on the pages (``forms_stats.PeriodForm``)."""
        if self.kind == PeriodKind.EVENING and self.session is not None:
            return {"period": "evening", "session": str(self.session.pk)}
        if self.kind == PeriodKind.SEASON and self.start:
            return {"period": "season", "year": str(self.start.year)}
        if self.kind == PeriodKind.MONTH and self.start:
            return {"period": "month", "month": f"{self.start:%Y-%m}"}
        if self.kind == PeriodKind.RANGE:
            out = {"period": "range"}
            if self.start:
                out["from"] = self.start.isoformat()
            if self.end:
                out["to"] = self.end.isoformat()
            return out
        return {"period": "all"}

    @property
    def query(self) -> str:
        return urlencode(self.params())

    @property
    def slug(self) -> str:
        """For file names: ``2025``, ``2025-03``, ``2025-03-14``, ``2025-01-01_2025-03-31``, ``all``."""
        if self.kind == PeriodKind.SEASON and self.start:
            return str(self.start.year)
        if self.kind == PeriodKind.MONTH and self.start:
            return f"{self.start:%Y-%m}"
        if self.kind == PeriodKind.EVENING and self.start:
            return self.start.isoformat()
        if self.kind == PeriodKind.RANGE:
            return f"{self.start or ''}_{self.end or ''}"
        return "all"


# --- what the standings over a period count --------------------------------------------------------


def ledger_q(period: Period, club_id: int) -> Q:
    """``period.q()`` for the club's ledger rows, without what its standings over a period leave
    out (``scoring.hooks.standings_exclusions``: an open tournament's games unless it counts for
    the club, and its guests always, issue 31 §8). An evening's own figures count every row.
    Session and member are both in the covering index ``ledger_totals``, so the standings still
    read that index alone."""
    q = period.q()
    if period.kind == PeriodKind.EVENING:
        return q
    for sessions, members in hooks.exclusions(club_id):
        left_out = Q(session_id__in=sessions)
        if members is not None:
            left_out &= Q(member_id__in=members)
        q &= ~left_out
    return q


def session_q(period: Period, club_id: int, prefix: str = "") -> Q:
    """``period.session_q(prefix)`` without the evenings the standings over a period leave out
    whole (counting evenings and their games: attendance, games by type, the list of hands)."""
    q = period.session_q(prefix)
    if period.kind == PeriodKind.EVENING:
        return q
    for sessions, members in hooks.exclusions(club_id):
        if members is None:
            q &= ~Q(**{f"{prefix}pk__in": sessions})
    return q


def club_years(*, club: Club) -> list[int]:
    """The seasons from the club's first evening to its last, newest first (for the period
    picker): one MIN/MAX on the (club, date) index, however many evenings there are."""
    span = Session.objects.filter(club=club).aggregate(first=Min("date"), last=Max("date"))
    if span["first"] is None:
        return []
    return list(range(span["last"].year, span["first"].year - 1, -1))


# --- standings -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class StandingRow:
    rank: int
    member_id: int
    name: str
    total: int  # the unit's sum; in a Seeger-Fabian block the Seeger-Fabian total (skat.md §6)
    games: int  # hands played (not sitting out, not events)
    declared: int  # hands as declarer (Spieler)
    won: int  # hands won, in any role
    is_active: bool = True
    declarer_won: int = 0  # games won as declarer (Skat: the Alleinspieler's won games)
    declarer_lost: int = 0  # games lost as declarer (Skat: Verlustspiele)
    lists: int = 0  # tables sat at (Skat: lists played), counted in a list block
    points: int | None = None  # Spielpunkte: the list entries alone (Seeger-Fabian block)

    @property
    def average(self) -> Fraction | None:
        """Per hand played, in the unit (cents or points), exact: rounded where it is shown."""
        return average(self.total, self.games)

    @property
    def per_list(self) -> Fraction | None:
        """docs/rules/skat.md "average per list": the total over the lists played; None ("–")
        without a list."""
        return average(self.total, self.lists)

    @property
    def win_rate(self) -> float | None:
        return self.won / self.games if self.games else None


class BlockKind(StrEnum):
    """What a block of the standings ranks: the unit's sum (``PLAIN``), a Spielliste's money or
    points with its won and lost games (``LIST``: ``RuleSet.LIST_SETTLEMENT`` "money"), or the
    Seeger-Fabian total (``SEEGER``: "seeger")."""

    PLAIN = ""
    LIST = "money"
    SEEGER = "seeger"


@dataclass(frozen=True)
class UnitStandings:
    unit: str
    rows: list[StandingRow]
    kind: BlockKind = BlockKind.PLAIN

    @property
    def games(self) -> int:
        return sum(row.games for row in self.rows)

    @property
    def key(self) -> str:
        """Tells the blocks apart (a table's prefix): the unit, or the ranking a block is ranked by."""
        return self.kind.value if self.kind == BlockKind.SEEGER else self.unit


def standings_query(
    *, club: Club, period: Period, leave_out: Sequence[str] = ()
) -> QuerySet[LedgerEntry, dict[str, Any]]:
    """The GROUP BY unit, member behind the standings; it reads only the covering index
    ``ledger_totals`` (``leave_out``: the tables of these presets, ranked apart, which joins the
    table; only a club that played them pays for that)."""
    rows = LedgerEntry.objects.filter(ledger_q(period, club.pk), club=club)
    if leave_out:
        rows = rows.exclude(table__preset__in=leave_out)
    return (
        rows.values("unit", "member_id")
        .annotate(
            total=Sum("amount"),
            # COUNT over columns of the covering index (not the id): SQLite counts them from
            # the index entry it already holds. COUNT(won) counts the hands played.
            games=Count("won"),
            declared=Count("role", filter=Q(role=Role.DECLARER)),
            won_count=Count("won", filter=Q(won=True)),
            declarer_won=Count("won", filter=Q(role=Role.DECLARER, won=True)),
            declarer_lost=Count("won", filter=Q(role=Role.DECLARER, won=False)),
        )
        .order_by()
    )


def _member_names(club: Club) -> dict[int, tuple[str, bool]]:
    return {
        pk: (name, active)
        for pk, name, active in Member.objects.filter(club=club).values_list("pk", "display_name", "is_active")
    }


def period_presets(*, club: Club, period: Period) -> dict[str, set[str]]:
    """The presets of the tables played in the period, by unit: one small query over the tables
    (a few per evening), never over the ledger."""
    tables = Table.objects.filter(session_q(period, club.pk, "session__"), session__club=club)
    found: dict[str, set[str]] = defaultdict(set)
    for preset, unit in tables.values_list("preset", "unit").distinct():
        found[unit].add(preset)
    return found


def list_settlement(preset: str) -> str:
    """How the preset's list is settled (``RuleSet.LIST_SETTLEMENT``; "" for no list)."""
    cls = registry.all_presets().get(preset)
    return cls.LIST_SETTLEMENT if cls is not None else ""


def standings(*, club: Club, period: Period) -> list[UnitStandings]:
    """Each member's total, games, games as declarer, games won, per unit; best first. The
    tables of a Seeger-Fabian list are ranked apart, first (``seeger_standings``); a unit whose
    tables keep a Spielliste says so (``BlockKind.LIST``: its won and lost games are shown).

    One GROUP BY over the ledger, plus one small query for the names and one for the presets."""
    presets = period_presets(club=club, period=period)
    seeger = sorted({p for found in presets.values() for p in found if list_settlement(p) == BlockKind.SEEGER})
    grouped = standings_query(club=club, period=period, leave_out=seeger)
    names = _member_names(club)
    by_unit: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in grouped:
        by_unit[row["unit"]].append(row)
    out = [seeger_standings(club=club, period=period, presets=seeger, names=names)] if seeger else []
    for unit in sorted(by_unit, key=_unit_key):
        ordered = sorted(by_unit[unit], key=lambda r: (-r["total"], names[r["member_id"]][0].lower()))
        rows = []
        for index, r in enumerate(ordered):
            rank = rows[-1].rank if rows and rows[-1].total == r["total"] else index + 1
            name, active = names[r["member_id"]]
            rows.append(
                StandingRow(
                    rank,
                    r["member_id"],
                    name,
                    r["total"],
                    r["games"],
                    r["declared"],
                    r["won_count"],
                    active,
                    declarer_won=r["declarer_won"],
                    declarer_lost=r["declarer_lost"],
                )
            )
        keeps_list = any(list_settlement(p) == BlockKind.LIST for p in presets.get(unit, ()))
        out.append(UnitStandings(unit, rows, BlockKind.LIST if keeps_list else BlockKind.PLAIN))
    return [block for block in out if block.rows]


def seeger_standings(
    *, club: Club, period: Period, presets: Sequence[str], names: dict[int, tuple[str, bool]] | None = None
) -> UnitStandings:
    """The Seeger-Fabian ranking of the period's lists (skat.md §6) from the ledger of the tables
    of ``presets``, whose amounts are each hand's Seeger-Fabian points (``skat_seeger``): one
    GROUP BY member.

    Per player: the total (SUM of the amounts); won and lost games as Alleinspieler (the
    declarer's rows and ``won``); the 40 or 30 the others' lost games brought him (his amounts as
    opponent or sitting out: nothing else is written there); the Spielpunkte, what is left:
    total − 50 × (won − lost) − that bonus; the lists played (the tables he sat at) and the
    total per list. Ties: more won games, then fewer lost (skat.md §6; the lot is drawn at the
    table, not here: such players share the place)."""
    names = _member_names(club) if names is None else names
    grouped = (
        LedgerEntry.objects.filter(ledger_q(period, club.pk), club=club, table__preset__in=presets)
        .values("member_id")
        .annotate(
            total=Sum("amount"),
            games=Count("won"),
            won_count=Count("won", filter=Q(won=True)),
            declarer_won=Count("won", filter=Q(role=Role.DECLARER, won=True)),
            declarer_lost=Count("won", filter=Q(role=Role.DECLARER, won=False)),
            bonus=Sum("amount", filter=Q(role__in=(Role.OPPONENT, Role.OUT)), default=0),
            lists=Count("table_id", distinct=True),
        )
        .order_by()
    )

    def key(r: dict[str, Any]) -> tuple[int, int, int]:
        return (-r["total"], -r["declarer_won"], r["declarer_lost"])

    ordered = sorted(grouped, key=lambda r: (*key(r), names[r["member_id"]][0].lower()))
    rows: list[StandingRow] = []
    for index, r in enumerate(ordered):
        shared = index and key(ordered[index - 1]) == key(r)
        name, active = names[r["member_id"]]
        won, lost = r["declarer_won"], r["declarer_lost"]
        points = r["total"] - WON_BONUS * (won - lost) - r["bonus"]
        rows.append(
            StandingRow(
                rows[-1].rank if shared else index + 1,
                r["member_id"],
                name,
                r["total"],
                r["games"],
                won + lost,
                r["won_count"],
                active,
                declarer_won=won,
                declarer_lost=lost,
                lists=r["lists"],
                points=points,
            )
        )
    return UnitStandings(Unit.POINT.value, rows, BlockKind.SEEGER)


def _unit_key(unit: str) -> int:
    return UNIT_ORDER.index(unit) if unit in UNIT_ORDER else len(UNIT_ORDER)


def period_units(*, club: Club, period: Period) -> list[str]:
    """The units booked in the period (the charts draw one per unit)."""
    units = LedgerEntry.objects.filter(ledger_q(period, club.pk), club=club).values_list("unit", flat=True).distinct()
    return sorted(units, key=_unit_key)


# --- statistics of one member --------------------------------------------------------------------


@dataclass(frozen=True)
class GameLine:
    game: str
    label: str
    played: int
    won: int

    @property
    def win_rate(self) -> float | None:
        return self.won / self.played if self.played else None


@dataclass(frozen=True)
class Evening:
    session_id: int
    date: dt.date
    amount: int


@dataclass(frozen=True)
class UnitFigures:
    """A member's money (or points) in one unit."""

    unit: str
    total: int
    games: int
    won: int
    biggest_win: int | None
    biggest_loss: int | None
    best_evening: Evening | None
    worst_evening: Evening | None

    @property
    def average(self) -> Fraction | None:
        return average(self.total, self.games)


@dataclass(frozen=True)
class MemberStatistics:
    member: Member
    period: Period
    units: list[UnitFigures]
    declarer_games: list[GameLine]  # by game, as declarer
    counts: dict[str, int]  # partner games and wins, Solos, Tout, Sie, Laufende, Schneider/Schwarz …
    evenings_played: int
    club_evenings: int
    declarer_total: GameLine = field(default_factory=lambda: GameLine("", "", 0, 0))

    @property
    def attendance(self) -> float | None:
        return self.evenings_played / self.club_evenings if self.club_evenings else None


# The statistics facts counted per member, with the filter on the member's ledger rows (joined to
# the entry for the hand's facts). "for" = the member's side won the hand, "against" = lost it.
def _fact_filters() -> dict[str, Q]:
    declarer_side = Q(role__in=(Role.DECLARER, Role.PARTNER))
    won, lost = Q(won=True), Q(won=False)
    return {
        "partner_games": Q(role=Role.PARTNER),
        "partner_won": Q(role=Role.PARTNER) & won,
        "solos": Q(role=Role.DECLARER, entry__solo=True),
        "solos_won": Q(role=Role.DECLARER, entry__solo=True) & won,
        "tout": Q(role=Role.DECLARER, entry__tout=True),
        "tout_won": Q(role=Role.DECLARER, entry__tout=True) & won,
        "sie": Q(role=Role.DECLARER, entry__game="sie"),
        "laufende_hands": declarer_side & Q(entry__laufende__gt=0),
        "schneider_for": Q(entry__schneider=True) & won,
        "schneider_against": Q(entry__schneider=True) & lost,
        "schwarz_for": Q(entry__schwarz=True) & won,
        "schwarz_against": Q(entry__schwarz=True) & lost,
        "kontra": Q(entry__kontra__gt=0, won__isnull=False),
    }


def member_statistics(*, member: Member, period: Period) -> MemberStatistics:
    rows = LedgerEntry.objects.filter(ledger_q(period, member.club_id), member=member)
    per_unit = (
        rows.values("unit")
        .annotate(
            total=Sum("amount"),
            games=Count("id", filter=Q(won__isnull=False)),
            won_count=Count("id", filter=Q(won=True)),
            best=Max("amount", filter=Q(won__isnull=False)),
            worst=Min("amount", filter=Q(won__isnull=False)),
        )
        .order_by()
    )
    evenings = (
        rows.values("unit", "session_id", "date").annotate(amount=Sum("amount")).order_by("unit", "amount", "date")
    )
    by_unit_evenings: dict[str, list[Evening]] = defaultdict(list)
    for e in evenings:
        by_unit_evenings[e["unit"]].append(Evening(e["session_id"], e["date"], e["amount"]))
    units = []
    for r in sorted(per_unit, key=lambda r: _unit_key(r["unit"])):
        its = by_unit_evenings.get(r["unit"], [])
        units.append(
            UnitFigures(
                unit=r["unit"],
                total=r["total"],
                games=r["games"],
                won=r["won_count"],
                biggest_win=r["best"] if r["best"] is not None and r["best"] > 0 else None,
                biggest_loss=r["worst"] if r["worst"] is not None and r["worst"] < 0 else None,
                best_evening=its[-1] if its and its[-1].amount > 0 else None,
                worst_evening=its[0] if its and its[0].amount < 0 else None,
            )
        )
    by_game = (
        rows.filter(role=Role.DECLARER)
        .values("entry__game")
        .annotate(played=Count("id"), won_count=Count("id", filter=Q(won=True)))
        .order_by("-played", "entry__game")
    )
    games = [GameLine(g["entry__game"], game_label(g["entry__game"]), g["played"], g["won_count"]) for g in by_game]
    facts = _fact_filters()
    counts = rows.aggregate(
        **{name: Count("id", filter=q) for name, q in facts.items()},
        laufende=Sum("entry__laufende", filter=Q(role__in=(Role.DECLARER, Role.PARTNER))),
        evenings=Count("session_id", distinct=True),
    )
    played = counts.pop("evenings")
    counts["laufende"] = counts["laufende"] or 0
    club_evenings = Session.objects.filter(session_q(period, member.club_id), club_id=member.club_id).count()
    label = str(words_for(member.club.game).all_declarer_games)
    total = GameLine("", label, sum(g.played for g in games), sum(g.won for g in games))
    return MemberStatistics(member, period, units, games, counts, played, club_evenings, total)


# --- chart series --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Series:
    name: str
    values: list[int]  # running total after each x step; None-free, flat where the player was absent


@dataclass(frozen=True)
class RunningTotals:
    unit: str
    x_labels: list[str]
    series: list[Series]
    x_title: str = ""


def evening_running_totals(*, session: Session) -> list[RunningTotals]:
    """Every player's running total over the evening, hand by hand (one chart per unit; at two
    tables the x axis is the hand number of each player's table). The running sums come from a
    window function in the database."""
    rows = (
        LedgerEntry.objects.filter(session=session)
        .annotate(
            running=Window(Sum("amount"), partition_by=[F("member_id")], order_by=[F("entry__number").asc()]),
            number=F("entry__number"),
            name=F("member__display_name"),
        )
        .values("unit", "name", "number", "running")
        .order_by("unit", "name", "number")
    )
    grouped: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    longest: dict[str, int] = defaultdict(int)
    for r in rows:
        values = grouped[r["unit"]][r["name"]]
        values.append(r["running"])
        longest[r["unit"]] = max(longest[r["unit"]], r["number"])
    out = []
    for unit in sorted(grouped, key=_unit_key):
        n = longest[unit]
        series = [
            Series(name, [0, *values] + [values[-1]] * (n - len(values))) for name, values in grouped[unit].items()
        ]
        series.sort(key=lambda s: (-s.values[-1], s.name.lower()))  # the legend reads like the standings
        labels = [str(i) for i in range(n + 1)]
        out.append(RunningTotals(unit, labels, series, _("Spiel")))
    return out


def _granularity(*, club: Club, period: Period) -> str:
    """Evenings on the x axis while there are few; months, then years, for long stretches."""
    if period.kind in (PeriodKind.MONTH, PeriodKind.SEASON, PeriodKind.EVENING):
        return "evening"
    count = Session.objects.filter(session_q(period, club.pk), club=club).count()
    if count <= 80:
        return "evening"
    first_last = Session.objects.filter(session_q(period, club.pk), club=club).aggregate(
        first=Min("date"), last=Max("date")
    )
    months = (first_last["last"].year - first_last["first"].year) * 12 + first_last["last"].month
    months -= first_last["first"].month
    return "month" if months <= 80 else "year"


def period_running_totals(*, club: Club, period: Period, member: Member | None = None) -> list[RunningTotals]:
    """Every player's running total over the period, evening by evening (by month or year over
    long stretches); one chart per unit. The sums per player and evening are one GROUP BY on
    plain columns (it follows the covering index; no date function runs per row); months and
    years, and the running sums, are added up here from those few thousand rows."""
    step = _granularity(club=club, period=period)
    rows = LedgerEntry.objects.filter(ledger_q(period, club.pk), club=club)
    if member is not None:
        rows = rows.filter(member=member)
    # By evening, the session tells two evenings of one day apart; by month or year the date is
    # enough, and (unit, member, date) is the covering index's order: no table row is read.
    by = ("unit", "member_id", "date", "session_id") if step == "evening" else ("unit", "member_id", "date")
    grouped = rows.values(*by).annotate(amount=Sum("amount")).order_by(*by[2:])
    names = dict(Member.objects.filter(club=club).values_list("pk", "display_name"))
    steps: dict[str, dict[Any, dt.date]] = defaultdict(dict)  # step key → its first date, in order
    amounts: dict[str, dict[int, dict[Any, int]]] = defaultdict(lambda: defaultdict(lambda: defaultdict(int)))
    for r in grouped:
        date = r["date"]
        key = (
            (date, r["session_id"]) if step == "evening" else (date.year, date.month) if step == "month" else date.year
        )
        steps[r["unit"]].setdefault(key, date)
        amounts[r["unit"]][r["member_id"]][key] += r["amount"]
    out = []
    for unit in sorted(steps, key=_unit_key):
        order = list(steps[unit])
        series = []
        for member_id, by_step in amounts[unit].items():
            running, values = 0, [0]
            for key in order:
                running += by_step.get(key, 0)
                values.append(running)
            series.append(Series(names.get(member_id, "?"), values))
        series.sort(key=lambda s: (-s.values[-1], s.name.lower()))
        labels = ["", *_step_labels([steps[unit][key] for key in order], step)]
        x_title = {"evening": _("Spielabend"), "month": _("Monat"), "year": _("Jahr")}[step]
        out.append(RunningTotals(unit, labels, series, x_title))
    return out


def _step_labels(dates: list[dt.date], step: str) -> list[str]:
    """The x axis's labels: a year, a month, or an evening's date; two evenings of one day (two
    Partien of a championship, say) are told apart by their order that day, "12.10.2026 (2)"
    (issue 29: both read 12.10.2026)."""
    if step == "year":
        return [str(value.year) for value in dates]
    if step == "month":
        return [f"{value:%m/%Y}" for value in dates]
    per_day = defaultdict(int)
    for value in dates:
        per_day[value] += 1
    seen: dict[dt.date, int] = defaultdict(int)
    labels = []
    for value in dates:
        seen[value] += 1
        text = formats.date_format(value, "SHORT_DATE_FORMAT")
        labels.append(f"{text} ({seen[value]})" if per_day[value] > 1 else text)
    return labels


def games_by_type(*, club: Club, period: Period, member: Member | None = None) -> list[GameLine]:
    """How often each game was played in the period (as declarer, for one member), and won."""
    if member is not None:
        rows = (
            LedgerEntry.objects.filter(ledger_q(period, club.pk), member=member, role=Role.DECLARER)
            .values(game=F("entry__game"))
            .annotate(played=Count("id"), won_count=Count("id", filter=Q(won=True)))
        )
    else:
        rows = (
            Entry.objects.filter(session_q(period, club.pk, "table__session__"), table__session__club=club, kind="hand")
            .values("game")
            .annotate(played=Count("id"), won_count=Count("id", filter=Q(declarer_won=True)))
        )
    lines = [GameLine(r["game"], game_label(r["game"]), r["played"], r["won_count"]) for r in rows.order_by()]
    return sorted(lines, key=lambda g: (-g.played, g.label))
