"""A synthetic club history, written straight into the database: the bench's data and the test
data of the standings and statistics.

Evenings of about ``evening_hands`` entries at one or two tables of four or five, drawn from a
club of members who come more or less often; every hand is a random valid hand of the preset
(``scoring.engine.samples``) folded through the evening engine (``scoring.engine.session``), so
Bock rounds, votes, the Stock and sitting out happen as they would at a real table. The rows are
written with ``bulk_create``, but derived by the score-sheet services
(``services.entry_derive`` for the fields of ``Entry``, ``services.entry_ledger`` for its ledger
rows), so the rows have exactly the shape a real evening leaves behind.

It does not record hands through ``services.entry_append``: building 100,000 hands one locked,
audited service call at a time would measure the services, not the standings.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from clubs.models import Club, Member
from scoring import services
from scoring.engine import registry
from scoring.engine import session as fold
from scoring.engine.core import EngineError
from scoring.engine.presets.schafkopf import SchafkopfRules
from scoring.engine.samples import random_hand, schafkopf_hand
from scoring.models import Entry, LedgerEntry, Seat, Session, Table
from scoring.selectors import TableSetup

_BATCH = 2000


@dataclass(frozen=True)
class History:
    club: Club
    members: tuple[Member, ...]
    sessions: int
    entries: int
    ledger_rows: int


def next_raw(rules: Any, state: fold.TableState, rng: random.Random) -> dict[str, Any]:
    """The next log entry a table would write: a vote when one is due, now and then a misdeal,
    otherwise a hand."""
    if state.vote_pending:
        return {"event": "vote", "choice": rng.choice(("mungorunde", "bockrunde"))}
    if isinstance(rules, SchafkopfRules):
        if rng.random() < 0.01:
            return {"event": "vergeben"}
        return schafkopf_hand(rules, rng, state.seats, state.round)
    return random_hand(rules, rng, state.seats)


def evening_log(*, players: Sequence[str], hands: int, preset: str = "allgaeu", seed: int = 7) -> list[dict[str, Any]]:
    """A valid log of ``hands`` entries for one table of ``players`` (the first deals first), as
    ``next_raw`` draws them: a file for the history import of that size (its tests, the bench)."""
    rng = random.Random(seed)
    ruleset, table_rules = registry.load_with_table(preset)
    state = fold.start(ruleset, table_rules, tuple(players), players[0])
    log = []
    for _ in range(hands):
        raw = next_raw(ruleset, state, rng)
        _result, state = fold.advance(ruleset, table_rules, state, raw)
        log.append(raw)
    return log


@dataclass
class _Pending:
    sessions: list[Session]
    tables: list[tuple[Table, list[Member]]]
    entries: list[tuple[Entry, fold.EntryResult, TableSetup]]


def build_history(
    *,
    club: Club,
    members: Sequence[Member],
    hands: int,
    seed: int = 7,
    preset: str = "allgaeu",
    evening_hands: int = 50,
    last_date: dt.date | None = None,
    days_between: int = 3,
) -> History:
    """Write about ``hands`` log entries (hands and the events a table records) for ``club``,
    evening by evening backwards from ``last_date`` (today), ``days_between`` days apart."""
    rng = random.Random(seed)
    ruleset, table_rules = registry.load_with_table(preset)
    members = list(members)
    # Some come every week, some now and then.
    weights = [rng.choice((1, 2, 3, 3, 4)) for _ in members]
    evenings = max(1, round(hands / evening_hands))
    last = last_date or dt.date.today()
    per_evening = [hands // evenings + (1 if i < hands % evenings else 0) for i in range(evenings)]
    counts = {"sessions": 0, "entries": 0, "ledger": 0}
    with transaction.atomic():
        pending = _Pending([], [], [])
        for index, count in enumerate(per_evening):
            date = last - dt.timedelta(days=days_between * (evenings - 1 - index))
            _plan_evening(pending, club, members, weights, rng, date, count, ruleset, table_rules, preset)
            if len(pending.entries) >= 5 * _BATCH or index == evenings - 1:
                _flush(pending, counts)
                pending = _Pending([], [], [])
    return History(club, tuple(members), counts["sessions"], counts["entries"], counts["ledger"])


# How many come to an evening, and how they sit: one table of four or five, or two tables.
_TURNOUTS = {4: (4,), 5: (5,), 8: (4, 4), 9: (5, 4)}


def _table_sizes(ruleset: Any, table_rules: Any) -> tuple[int, ...]:
    """The table sizes of four and five the rule set seats (the fold refuses the others)."""
    sizes = []
    for size in (4, 5):
        names = tuple(f"p{i}" for i in range(size))
        try:
            fold.start(ruleset, table_rules, names, names[0])
        except EngineError:
            continue
        sizes.append(size)
    return tuple(sizes)


def _plan_evening(
    pending: _Pending,
    club: Club,
    members: list[Member],
    weights: list[int],
    rng: random.Random,
    date: dt.date,
    count: int,
    ruleset: Any,
    table_rules: Any,
    preset: str,
) -> None:
    sizes = _table_sizes(ruleset, table_rules)  # Skat: 3 or 4 at a table, never 5
    turnouts = [n for n in (4, 5, 8, 8, 9) if n <= len(members) and all(size in sizes for size in _TURNOUTS[n])]
    attending = rng.choice(turnouts)
    chosen: list[Member] = []
    pool = list(zip(members, weights, strict=True))
    while len(chosen) < attending:
        member = rng.choices([m for m, _ in pool], [w for _, w in pool])[0]
        chosen.append(member)
        pool = [(m, w) for m, w in pool if m is not member]
    session = Session(club=club, date=date, place="Vereinsheim")
    pending.sessions.append(session)
    seatings = _TURNOUTS[attending]
    start = 0
    for number, size in enumerate(seatings, start=1):
        players = chosen[start : start + size]
        start += size
        table = Table(
            session=session,
            name=f"Tisch {number}",
            preset=preset,
            options=dict(table_rules.options),
            unit=ruleset.unit(),
        )
        pending.tables.append((table, players))
        names = tuple(m.display_name for m in players)
        setup = TableSetup(ruleset, table_rules, names, names[0], {m.display_name: m.pk for m in players})
        state = fold.start(ruleset, table_rules, names, names[0])
        share = count // len(seatings) + (1 if number <= count % len(seatings) else 0)
        for entry_number in range(1, share + 1):
            raw = next_raw(ruleset, state, rng)
            result, state = fold.advance(ruleset, table_rules, state, raw)
            entry = Entry(table=table, number=entry_number, data=raw)
            services.entry_derive(entry=entry, result=result, after=state, setup=setup)
            pending.entries.append((entry, result, setup))


def _flush(pending: _Pending, counts: dict[str, int]) -> None:
    # bulk_create sets the primary keys (SQLite ≥ 3.35, PostgreSQL), so each level can point to
    # the rows of the level above it.
    Session.objects.bulk_create(pending.sessions, batch_size=_BATCH)
    Table.objects.bulk_create([table for table, _ in pending.tables], batch_size=_BATCH)
    seats = [
        Seat(table=table, member=member, position=position, name=member.display_name, is_first_dealer=not position)
        for table, players in pending.tables
        for position, member in enumerate(players)
    ]
    Seat.objects.bulk_create(seats, batch_size=_BATCH)
    Entry.objects.bulk_create([entry for entry, _, _ in pending.entries], batch_size=_BATCH)
    rows: list[LedgerEntry] = []
    for entry, result, setup in pending.entries:
        rows += services.entry_ledger(entry=entry, result=result, setup=setup)
    LedgerEntry.objects.bulk_create(rows, batch_size=_BATCH)
    counts["sessions"] += len(pending.sessions)
    counts["entries"] += len(pending.entries)
    counts["ledger"] += len(rows)
