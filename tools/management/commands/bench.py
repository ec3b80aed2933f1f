"""``manage.py bench``: how fast the engine, the standings and the exports are; with
``--concurrent``, many scorers at once against the production server (``tools.load``).

It never writes into a database it did not create: every run makes a temporary database of the
configured kind (a file for SQLite, a new database on the PostgreSQL server ``DATABASE_URL``
names), migrates it, and drops it at the end (``--keep-db`` keeps it and prints where). It runs
under the production settings (DEBUG off; a throwaway secret key when none is set; the static
files collected into a temporary folder; ``tools.benchdb``).

Builds a synthetic club history in that database (the club
``bench`` with ``--members`` players and ``--hands`` log entries, one evening of about 50 a
week, plus the club ``bench-100`` with 100 players and a season of 2,500 hands for the PDF and
the workbook), then measures:

- ``engine_hands_per_s``: random valid hands scored per second by the slowest preset (each
  preset's own figure under ``engine_by_preset``), one core, hands drawn before the clock runs;
- ``standings_ms``: the standings page for all time, full server time (request to response
  through the middleware, the view and the template), median of ``--runs``;
- ``standings_floor_ms``: the same totals by one raw SQL GROUP BY over the ledger (SUM and COUNT
  per unit and member): the floor; ``standings_sql_ms``: the page's own aggregate (total, hands,
  as declarer, won) as raw SQL. The three are measured in turns, so load hits them alike;
- ``hand_entry_ms``, ``replay_ms``: the score sheet's figures (``tools.bench``);
- ``import_ms``: a history import of 2,000 rows, the largest file allowed (``tools.bench``);
- ``import_save_wait_ms``: the longest wait of another club's save during that import;
- ``import_refusal_ms``: the slowest refusal of a hostile file (a zip bomb, 60,000 hands);
- ``pdf_ms``: the standings PDF of the 100-player club (all time, with its charts);
- ``xlsx_ms``: that club's workbook (Standings, Hands: every one of the 2,500 entries, Players);
- ``xlsx_season_ms``: the workbook of the big club's current season (about 2,600 entries);
- ``open_draw_s``: ``plan_tournament --players 300 --partien 3`` (an open tournament's draw), once;
- ``open_rank_ms``: ``rank_open`` of those 300 players × 3 rounds given by totals, median of ``--runs``;
- ``open_rank_page_ms``: the overall ranking page of an open tournament of 300 players × 3 rounds
  over two days (registered, drawn and every table's figures entered through the services, as
  the desk does), full server time, median of ``--runs``;
- ``open_ranking_pdf_ms``: the overall ranking PDF (with the prizes) of the largest open
  tournament allowed, 400 players × 10 rounds entered (issue 31 §9), request to response,
  median of half ``--runs``.

``--engine-only`` runs only the engine part (issue 3: ``--hands`` random valid hands per preset).
Timing runs with DEBUG off (no query log).
"""

from __future__ import annotations

import datetime
import gc
import json
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError, connection, transaction
from django.test import Client
from django.urls import reverse

from clubs.models import Club, Member, Membership, Role
from imports.history import MAX_ROWS
from opentournaments import services as open_services
from opentournaments.models import (
    MAX_PLAYERS,
    MAX_ROUNDS,
    OpenTournament,
    Registration,
    Round,
    RoundTable,
    TableScore,
)
from scoring.engine import registry
from scoring.engine.core import Context
from scoring.engine.samples import random_hand
from scoring.models import AuditEntry, Entry, KasseBooking, LedgerEntry, Seat, Session, Table
from standings import selectors as stats
from tools.bench import import_ms, import_refusal_ms, import_save_wait_ms
from tools.benchdb import bench_settings, temporary_database
from tools.load import run_load
from tools.synthetic import build_history
from tournaments.engine.open_ranking import rank_open_document
from tournaments.engine.plan import plan_document

BIG, WIDE = "bench", "bench-100"
WIDE_HANDS = 2500
SKAT, SKAT_HANDS = "bench-skat", 2500  # a season of Seeger-Fabian lists: about 50 evenings
SEATS = ("Anna", "Bert", "Cilli", "Done")


def engine_rates(hands: int, seed: int = 1) -> dict[str, float]:
    """Hands per second for each preset: ``hands`` random valid hands, drawn first, then scored."""
    rates = {}
    for name in registry.all_presets():
        rules = registry.load(name)
        rng = random.Random(seed)
        seats = SEATS[: max(rules.SEAT_COUNTS)]  # Skat: three play each game
        drawn = [random_hand(rules, rng, seats) for _ in range(hands)]
        context = Context()
        score = rules.score
        # The 100,000 drawn hands are the benchmark's own data, not the engine's: freezing them
        # keeps the garbage collector from rescanning them while the engine works.
        gc.collect()
        gc.freeze()
        try:
            started = time.perf_counter()
            for hand in drawn:
                score(hand, seats, context)
            rates[name] = round(hands / (time.perf_counter() - started))
        finally:
            gc.unfreeze()
    return rates


def open_figures(runs: int, players: int = 300, rounds: int = 3, seed: int = 1) -> dict[str, float]:
    """An open tournament (spec §5): the draw of ``players`` × ``rounds`` as ``plan_tournament``
    makes it, then ``rank_open`` of random zero-sum table totals on that draw."""
    started = time.perf_counter()
    plan = plan_document(players, rounds, seed=seed)
    draw_s = round(time.perf_counter() - started, 3)
    rng = random.Random(seed)
    doc_rounds = []
    for partie in plan["partien"]:
        tables = []
        for table in partie:
            values = [rng.randrange(-200, 200) for _ in table[1:]]
            totals = dict(zip(table, [-sum(values), *values], strict=True))
            tables.append(
                {
                    "players": list(table),
                    "totals": {str(n): v for n, v in totals.items()},
                    "soli": {str(n): rng.randrange(3) for n in table},
                }
            )
        doc_rounds.append({"tables": tables})
    doc = {
        "ruleset": "standard",
        "players": [{"number": n, "name": f"Spieler {n}"} for n in range(1, players + 1)],
        "rounds": doc_rounds,
        "seed": seed,
        "prizes": {"pot": 300_000, "shares": [30, 20, 15, 10, 5]},
    }
    return {"open_draw_s": draw_s, "open_rank_ms": median_ms(lambda: rank_open_document(doc), runs)}


OPEN_CLUB = "bench-open"


def open_tournament_build(club: Club, players: int = 300, rounds: int = 3, seed: int = 1) -> OpenTournament:
    """An open tournament as the desk makes it, through the services: ``players`` registered
    (most paid), ``rounds`` drawn (the last on the second day, so the page has Tagessieger) and
    every table's figures entered (random zero-sum points, a few Soli)."""
    day = datetime.date(2026, 11, 28)
    tournament = open_services.open_tournament_create(
        club=club,
        name="Bench-Preisschafkopf",
        starts_on=day,
        ends_on=day + datetime.timedelta(days=1),
        rounds=rounds,
        games_per_round=32,
        entry_fee_cents=1500,
        prize_shares=[30, 20, 15, 10, 5],
        prize_items=["Geräuchertes", "Brotzeitkorb"],
        user=None,
    )
    rng = random.Random(seed)
    for n in range(1, players + 1):
        open_services.registration_create(
            tournament=tournament, name=f"Gast {n:03d}", residence="Kempten", paid=n % 10 != 0, user=None
        )
    for number in range(1, rounds + 1):
        played_on = day if number < rounds else day + datetime.timedelta(days=1)
        round_ = open_services.round_draw(tournament=tournament, seed=seed + number, day=played_on, user=None)
        for table in round_.tables.all():
            values = [rng.randrange(-200, 200) for _ in table.seats[1:]]
            open_services.table_figures_enter(
                table=table,
                points=dict(zip(table.seats, [-sum(values), *values], strict=True)),
                soli={n: rng.randrange(3) for n in table.seats},
                user=None,
            )
    return tournament


LARGEST_CLUB = "bench-open-max"


def open_largest_build(club: Club, players: int = MAX_PLAYERS, seed: int = 1) -> OpenTournament:
    """The largest open tournament the app allows (``MAX_PLAYERS`` players, ``MAX_ROUNDS``
    rounds, every round entered; fewer players with ``--sample``), for its ranking PDF. The
    tournament and its registrations go through the services; the rounds are written directly,
    tables of four in a shuffled order with zero-sum figures (drawing ten rounds of 400 through
    the planner takes minutes, and the printout does not depend on who met whom)."""
    tournament = open_services.open_tournament_create(
        club=club,
        name="Bench-Schafkopfrennen",
        starts_on=datetime.date(2026, 11, 28),
        rounds=MAX_ROUNDS,
        games_per_round=32,
        entry_fee_cents=1500,
        prize_shares=[20, 15, 10, 8, 7, 6, 5, 4, 3, 2],
        prize_items=[f"Sachpreis {n}" for n in range(1, 21)],
        user=None,
    )
    Registration.objects.bulk_create(
        Registration(
            tournament=tournament,
            start_number=n,
            name=f"Gast {n:03d} Obermaier-Gschwendtner",
            residence="Sankt Wolfgang",
            paid=True,
        )
        for n in range(1, players + 1)
    )
    registrations = {r.start_number: r for r in tournament.registrations.all()}
    rng = random.Random(seed)
    for number in range(1, MAX_ROUNDS + 1):
        round_ = Round.objects.create(tournament=tournament, number=number, seed=seed + number)
        order = list(registrations)
        rng.shuffle(order)
        tables = RoundTable.objects.bulk_create(
            RoundTable(round=round_, number=i + 1, seats=order[4 * i : 4 * i + 4]) for i in range(players // 4)
        )
        scores = []
        for table in tables:
            values = [rng.randrange(-200, 200) for _ in table.seats[1:]]
            for n, points in zip(table.seats, [-sum(values), *values], strict=True):
                scores.append(
                    TableScore(table=table, registration=registrations[n], points=points, soli=rng.randrange(3))
                )
        TableScore.objects.bulk_create(scores)
    return tournament


def open_pdf_figures(client: Client, runs: int) -> dict[str, float]:
    """``open_ranking_pdf_ms``: the overall ranking PDF (with prizes) of ``open_largest_build``'s
    tournament, request to response."""
    club = Club.objects.get(slug=LARGEST_CLUB)
    tournament = OpenTournament.objects.get(club=club)
    url = reverse("opentournaments:ranking_pdf", kwargs={"slug": club.slug, "open_id": tournament.pk})
    return {"open_ranking_pdf_ms": page_ms(client, url, runs)}


def open_page_figures(client: Client, runs: int) -> dict[str, float]:
    """``open_rank_page_ms``: the overall ranking page of ``open_tournament_build``'s tournament."""
    club = Club.objects.get(slug=OPEN_CLUB)
    tournament = OpenTournament.objects.get(club=club)
    url = reverse("opentournaments:ranking", kwargs={"slug": club.slug, "open_id": tournament.pk})
    return {"open_rank_page_ms": page_ms(client, url, runs)}


def median_ms(run: Callable[[], Any], runs: int, warmup: int = 1) -> float:
    for _ in range(warmup):
        run()
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        run()
        times.append((time.perf_counter() - started) * 1000)
    return round(statistics.median(times), 1)


def delete_club(slug: str) -> None:
    """Delete a bench club with plain DELETEs, child tables first (Django's collector would load
    every one of hundreds of thousands of rows into Python first)."""
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        return
    db = connection.alias
    with transaction.atomic():
        LedgerEntry.objects.filter(club=club)._raw_delete(db)
        KasseBooking.objects.filter(club=club)._raw_delete(db)
        AuditEntry.objects.filter(session__club=club)._raw_delete(db)
        Entry.objects.filter(table__session__club=club)._raw_delete(db)
        Seat.objects.filter(table__session__club=club)._raw_delete(db)
        Table.objects.filter(session__club=club)._raw_delete(db)
        Session.objects.filter(club=club)._raw_delete(db)
        club.delete()


def refresh_statistics() -> None:
    """Fresh planner statistics after the bulk load; on PostgreSQL also a VACUUM, so the
    visibility map lets the standings read the covering index alone (index-only scan), as they
    would on a database that autovacuum has seen."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql" and not connection.in_atomic_block:
            tables = ", ".join(m._meta.db_table for m in (LedgerEntry, Entry, Table, Session))
            cursor.execute(f"VACUUM (ANALYZE) {tables}")
        else:
            cursor.execute("ANALYZE")


def make_club(slug: str, name: str, members: int) -> tuple[Club, list[Member]]:
    delete_club(slug)
    club = Club.objects.create(slug=slug, name=name)
    players = Member.objects.bulk_create(
        Member(club=club, display_name=f"Spieler {i:03d}") for i in range(1, members + 1)
    )
    user, _ = get_user_model().objects.get_or_create(username="bench-owner")
    Membership.objects.create(club=club, user=user, role=Role.OWNER)
    return club, players


def _get(client: Client, url: str) -> None:
    response = client.get(url, HTTP_HOST="localhost", secure=True)
    if response.status_code != 200:
        raise RuntimeError(f"{url}: {response.status_code}")
    assert response.content  # a PDF or workbook view renders while the response is built


def standings_figures(client: Client, club: Club, runs: int) -> dict[str, float]:
    """The standings page and its floors, measured in turns (page, floor, the page's own
    aggregate as raw SQL, …) so a busy machine slows all three alike:

    - ``standings_floor_ms``: SUM and COUNT per unit and member, nothing else: the floor;
    - ``standings_sql_ms``: the page's aggregate (total, hands, as declarer, won) as raw SQL.
    """
    table = LedgerEntry._meta.db_table
    floor = f"SELECT unit, member_id, SUM(amount), COUNT(*) FROM {table} WHERE club_id = %s GROUP BY unit, member_id"
    stats_qs = stats.standings_query(club=club, period=stats.Period.all_time())
    same_sql, same_params = stats_qs.query.sql_with_params()
    url = reverse("stats:standings", kwargs={"slug": club.slug}) + "?" + stats.Period.all_time().query

    def raw(sql: str, params: list[Any]) -> Callable[[], None]:
        def run() -> None:
            with connection.cursor() as cursor:
                cursor.execute(sql, params)
                cursor.fetchall()

        return run

    jobs = {
        "standings_ms": lambda: _get(client, url),
        "standings_floor_ms": raw(floor, [club.pk]),
        "standings_sql_ms": raw(same_sql, list(same_params)),
    }
    times: dict[str, list[float]] = {key: [] for key in jobs}
    for job in jobs.values():  # warm up
        job()
    for _ in range(runs):
        for key, job in jobs.items():
            started = time.perf_counter()
            job()
            times[key].append((time.perf_counter() - started) * 1000)
    return {key: round(statistics.median(values), 1) for key, values in times.items()}


def page_ms(client: Client, url: str, runs: int, warmup: int = 1) -> float:
    return median_ms(lambda: _get(client, url), runs, warmup)


def score_sheet_figures(entry_hands: int) -> tuple[float | None, float | None]:
    """The score sheet's own figures, when tools.bench is there (the score-sheet engineer's)."""
    try:
        from tools import bench as sheet_bench
    except ImportError:  # pragma: no cover - only before the score sheets existed
        return None, None
    return sheet_bench.hand_entry_ms(hands=entry_hands), sheet_bench.replay_ms(hands=entry_hands)


class Command(BaseCommand):
    help = "Builds a synthetic club history and measures engine, standings, exports (see docs/standings.md)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--hands", type=int, default=100_000, help="log entries of the bench club (default 100000)")
        parser.add_argument("--members", type=int, default=20, help="players of the bench club (default 20)")
        parser.add_argument("--runs", type=int, default=7, help="timed runs per figure; the median is reported")
        parser.add_argument("--entry-hands", type=int, default=200, help="evening length for hand_entry/replay")
        parser.add_argument("--json", action="store_true", help="print one JSON object")
        parser.add_argument("--engine-only", action="store_true", help="only the engine, per preset")
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument("--keep-db", action="store_true", help="keep the temporary database and say where")
        parser.add_argument(
            "--sample",
            action="store_true",
            help="every figure on small inputs (open tournaments of 40, imports of 100 rows): "
            "checks that the bench runs; its figures are not the product's",
        )
        parser.add_argument(
            "--concurrent", action="store_true", help="only the load test: scorers at once against gunicorn"
        )
        parser.add_argument("--clients", type=int, default=20, help="--concurrent: phones entering hands (20)")
        parser.add_argument("--tables", type=int, default=5, help="--concurrent: tables of four (5)")
        parser.add_argument("--seconds", type=float, default=60, help="--concurrent: how long (60, at most 600)")

    def handle(self, *args: Any, **options: Any) -> None:
        bounded = 0 < options["seconds"] <= 600 and 0 < options["tables"] <= options["clients"]
        if options["concurrent"] and not bounded:
            raise CommandError("--concurrent: 0 < --seconds <= 600 and at least one client per table.")
        result: dict[str, Any] = {}
        if not options["concurrent"]:
            rates = engine_rates(options["hands"])
            result = {"engine_hands_per_s": min(rates.values()), "engine_by_preset": rates}
        if options["concurrent"] or not options["engine_only"]:
            try:
                with temporary_database(keep=options["keep_db"]) as db, bench_settings() as static_root:
                    if options["keep_db"]:
                        self.stderr.write(f"bench: temporary database {db.url} (kept)")
                    if options["concurrent"]:
                        result.update(self.concurrent(db, static_root, options))
                    else:
                        result.update(self.measure(options))
            except DatabaseError as error:
                # Typically: the server is not reachable, or the login may not create databases.
                raise CommandError(
                    f"bench needs a database of its own and could not make or use it: {error}".strip()
                ) from None
        if options["json"]:
            self.stdout.write(json.dumps(result))
            return
        for key, value in result.items():
            if isinstance(value, dict):
                for name, rate in value.items():
                    self.stdout.write(f"  {name:<24} {rate:>12,}")
            else:
                self.stdout.write(f"{key:<24} {value}")

    def measure(self, options: dict[str, Any]) -> dict[str, Any]:
        hands, runs = options["hands"], options["runs"]
        started = time.perf_counter()
        club, players = make_club(BIG, "Bench-Verein", options["members"])
        # One evening a week, as a club plays: a season is about 2,600 hands.
        build_history(club=club, members=players, hands=hands, seed=options["seed"], days_between=7)
        wide, wide_players = make_club(WIDE, "Bench-Verein 100", 100)
        open_club, _members = make_club(OPEN_CLUB, "Bench-Verein offen", 0)
        # --sample (the test suite's check that every figure is printed): small fixed-size inputs.
        sample = options["sample"]
        open_players, import_rows = (40, 100) if sample else (300, MAX_ROWS)
        open_tournament_build(open_club, players=open_players)
        largest, _members = make_club(LARGEST_CLUB, "Bench-Verein Rennen", 0)
        open_largest_build(largest, players=open_players if sample else MAX_PLAYERS)
        # A season of a big club: 50 evenings of 50 hands.
        build_history(club=wide, members=wide_players, hands=min(hands, WIDE_HANDS), seed=options["seed"] + 1)
        skat, skat_players = make_club(SKAT, "Bench-Skatclub", 12)
        Club.objects.filter(pk=skat.pk).update(game="skat")
        build_history(
            club=skat, members=skat_players, hands=min(hands, SKAT_HANDS), seed=options["seed"], preset="skat-seeger"
        )
        build_s = round(time.perf_counter() - started, 1)
        refresh_statistics()

        client = Client()
        client.force_login(get_user_model().objects.get(username="bench-owner"))
        all_time = "?" + stats.Period.all_time().query
        season = "?" + stats.Period.current_season().query
        # DEBUG is off (bench_settings): no query log slows the timed requests.
        result = {
            **standings_figures(client, club, runs),
            "pdf_ms": page_ms(
                client, reverse("stats:standings_pdf", kwargs={"slug": WIDE}) + all_time, max(runs // 2, 1)
            ),
            "xlsx_ms": page_ms(client, reverse("stats:standings_xlsx", kwargs={"slug": WIDE}) + all_time, runs),
            # A Skat club's season by Seeger-Fabian (issue 32 §3): its own GROUP BY over the list tables.
            "skat_standings_ms": page_ms(client, reverse("stats:standings", kwargs={"slug": SKAT}) + all_time, runs),
            "xlsx_season_ms": page_ms(
                client, reverse("stats:standings_xlsx", kwargs={"slug": BIG}) + season, max(runs // 2, 1)
            ),
        }
        hand_entry, replay = score_sheet_figures(options["entry_hands"])
        ledger_rows = LedgerEntry.objects.filter(club=club).count()
        return {
            **result,
            "hand_entry_ms": hand_entry,
            "replay_ms": replay,
            "import_ms": import_ms(rows=import_rows),
            "import_save_wait_ms": import_save_wait_ms(rows=import_rows),
            "import_refusal_ms": import_refusal_ms(),
            **open_figures(runs, players=open_players),
            **open_page_figures(client, runs),
            **open_pdf_figures(client, max(runs // 2, 1)),
            "hands": Entry.objects.filter(table__session__club=club, kind="hand").count(),
            "entries": Entry.objects.filter(table__session__club=club).count(),
            "ledger_rows": ledger_rows,
            "database": connection.vendor,
            "build_s": build_s,
        }

    def concurrent(self, db: Any, static_root: Any, options: dict[str, Any]) -> dict[str, Any]:
        """``--concurrent`` (``tools.load``): the figures, or the problems found and exit 1."""
        with tempfile.TemporaryDirectory() as folder:
            log = Path(folder) / "gunicorn.log"
            outcome = run_load(
                db=db,
                static_root=static_root,
                clients=options["clients"],
                tables=options["tables"],
                seconds=options["seconds"],
                log=log,
            )
            tracebacks = log.read_text(errors="replace").count("Traceback")
        if tracebacks:
            outcome.problems.append(f"the server logged {tracebacks} traceback(s)")
        if outcome.problems:
            for problem in outcome.problems:
                self.stderr.write(f"bench --concurrent: {problem}")
            raise CommandError(f"{len(outcome.problems)} problem(s): hands lost, doubled or not zero-sum")
        return outcome.figures
