"""Server-time figures of the score sheet for ``manage.py bench`` (issue 6: each ≤ 150 ms).

- ``hand_entry_ms``: appending hand 200 of an evening (the fold of 199 stored entries, the new
  entry, its ledger rows and audit row, committed).
- ``replay_ms``: correcting hand 1 of a 200-hand evening (the whole log re-folded, what changed
  rewritten, committed).
- ``import_ms``: a history import of the largest file allowed (``imports.history.MAX_ROWS``
  rows: checked, then stored in one transaction, the evening closed; docs/import.md).
- ``import_save_wait_ms``: the longest a save of another club's phone waits while that import
  runs (on SQLite the import holds the one write lock; the saves wait, none fails).
- ``import_refusal_ms``: the slowest refusal of a hostile file (``tools.hostile``: a 200 MB text
  cell, a 200 MB shared string, a zip lying about its size, 60,000 hands of JSON).

Each builds its evening through the services in a throwaway club (allgaeu, four players, the
engine's realistic game mix), takes the median of several runs, and deletes the club again.
``manage.py bench`` runs them in its temporary database (``tools.benchdb``).
"""

from __future__ import annotations

import datetime
import random
import statistics
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connections

from clubs.models import Club, Member
from imports.history import MAX_ROWS, HistoryFileError, Row, history_import, read_file
from scoring import selectors, services
from scoring.engine.presets.schafkopf import SchafkopfRules
from scoring.engine.samples import schafkopf_hand
from scoring.models import Entry, Session, Table
from tools import hostile
from tools.synthetic import evening_log

RUNS = 7
PLAYERS = ("Anna", "Bert", "Cilli", "Done")


@contextmanager
def _bench_table() -> Iterator[Table]:
    club = Club.objects.create(name="Benchmark", slug=f"bench-{uuid.uuid4().hex[:12]}")
    try:
        members = [Member.objects.create(club=club, display_name=name) for name in PLAYERS]
        session = services.session_create(club=club, date=datetime.date(2026, 1, 1), user=None)
        yield services.table_start(session=session, members=members, rules="allgaeu", user=None)
    finally:
        Session.objects.filter(club=club).delete()  # members are protected while ledger rows exist
        club.delete()


def next_entry(table: Table, rng: random.Random) -> dict[str, Any]:
    """A valid next entry: a hand of the realistic mix for the round in force, or the vote."""
    setup = selectors.table_setup(table)
    state = selectors.table_state(table, setup).state
    if state.vote_pending:
        return {"event": "vote", "choice": "bockrunde"}
    assert isinstance(setup.ruleset, SchafkopfRules)
    return schafkopf_hand(setup.ruleset, rng, state.seats, state.round)


def _fill(table: Table, hands: int, seed: int = 6) -> None:
    rng = random.Random(seed)
    while Entry.objects.filter(table=table).count() < hands:
        services.entry_append(table=table, data=next_entry(table, rng), user=None)


def _median_ms(run: Callable[[], None], undo: Callable[[], None]) -> float:
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        run()
        times.append((time.perf_counter() - started) * 1000)
        undo()
    return round(statistics.median(times), 1)


def hand_entry_ms(*, hands: int = 200) -> float:
    """Median server time to append hand ``hands`` to an evening of ``hands - 1`` hands."""
    with _bench_table() as table:
        _fill(table, hands - 1)
        rng = random.Random(200)
        data = next_entry(table, rng)
        return _median_ms(
            lambda: services.entry_append(table=table, data=data, user=None),
            lambda: services.entry_undo_last(table=table, user=None),
        )


def replay_ms(*, hands: int = 200) -> float:
    """Median server time to correct hand 1 of a ``hands``-hand evening (a Rufspiel whose Augen
    change the winner: hand 1's ledger rows are rewritten, every later entry is re-folded)."""
    with _bench_table() as table:
        players = selectors.table_setup(table).players
        first = {"game": "rufspiel", "declarer": players[1], "partner": players[2], "augen": 75, "deckel": 1}
        services.entry_append(table=table, data=first, user=None)
        _fill(table, hands)
        entry = Entry.objects.get(table=table, number=1)
        variants = iter([{**first, "augen": 45 if i % 2 == 0 else 75} for i in range(2 * RUNS)])
        return _median_ms(
            lambda: services.entry_correct(entry=entry, data=next(variants), user=None, reason="bench"),
            lambda: None,
        )


def _import(club: Club, rows: int) -> None:
    log = [Row(f"hands[{i}]", hand) for i, hand in enumerate(evening_log(players=PLAYERS, hands=rows))]
    history_import(
        club=club,
        ruleset="allgaeu",
        players=PLAYERS,
        first_dealer=PLAYERS[0],
        rows=log,
        date=datetime.date(2026, 1, 1),
        user=None,
    )


def import_ms(*, rows: int = MAX_ROWS) -> float:
    """Server time of one history import of ``rows`` rows into a new club (one run: it takes
    seconds, and the median of the other figures is there to damp milliseconds of noise)."""
    club = Club.objects.create(name="Benchmark", slug=f"bench-{uuid.uuid4().hex[:12]}")
    try:
        started = time.perf_counter()
        _import(club, rows)
        return round((time.perf_counter() - started) * 1000, 1)
    finally:
        Session.objects.filter(club=club).delete()  # members are protected while ledger rows exist
        club.delete()


def import_save_wait_ms(*, rows: int = MAX_ROWS) -> float:
    """The longest single save of another club's table while an import of ``rows`` rows runs in a
    thread of its own (its own connection, as another request's would be)."""
    club = Club.objects.create(name="Benchmark", slug=f"bench-{uuid.uuid4().hex[:12]}")
    done = threading.Event()
    failed: list[BaseException] = []

    def run_import() -> None:
        try:
            _import(club, rows)
        except BaseException as error:  # noqa: BLE001 - reported below
            failed.append(error)
        finally:
            done.set()
            connections["default"].close()

    waits = []
    try:
        with _bench_table() as table:
            rng = random.Random(3)
            worker = threading.Thread(target=run_import)
            worker.start()
            while not done.is_set():
                data = next_entry(table, rng)
                started = time.perf_counter()
                services.entry_append(table=table, data=data, user=None)
                waits.append((time.perf_counter() - started) * 1000)
            worker.join()
        if failed:
            raise failed[0]
        return round(max(waits, default=0.0), 1)
    finally:
        Session.objects.filter(club=club).delete()
        club.delete()


def import_refusal_ms() -> float:
    """The slowest refusal of a hostile file by the import's reader (median of three each)."""
    files = {
        "abend.xlsx": [
            hostile.giant_text_cell(200 * hostile.MB),
            hostile.giant_shared_string(200 * hostile.MB),
            hostile.lying_about_its_size(),
        ],
        "abend.json": [hostile.json_evening(60_000)],
    }
    slowest = 0.0
    for name, contents in files.items():
        for content in contents:
            times = []
            for _ in range(3):
                started = time.perf_counter()
                try:
                    read_file(name, content)
                except HistoryFileError:
                    pass
                else:
                    raise RuntimeError(f"a hostile {name} was not refused")
                times.append((time.perf_counter() - started) * 1000)
            slowest = max(slowest, statistics.median(times))
    return round(slowest, 1)
