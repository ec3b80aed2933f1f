"""``services.entries_append``: many entries folded once and written in bulk store exactly the
rows ``entry_append`` stores one entry at a time (the history import's path, docs/import.md)."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import services
from scoring.engine.session import EntryError
from scoring.models import AuditEntry, Entry, LedgerEntry, Table
from tests.factories import MemberFactory, SessionFactory, UserFactory
from tools.synthetic import evening_log

pytestmark = pytest.mark.django_db

PLAYERS = {"allgaeu": 4, "saukopf": 3, "doppelkopf": 4}


def stored_rows(table: Table) -> dict[str, list[dict[str, Any]]]:
    """Every row the log of ``table`` left behind, without ids, timestamps and the keys that
    name this table, its evening or its entries' ids (the entry is named by its number)."""
    entries = list(Entry.objects.filter(table=table).order_by("number").values())
    for row in entries:
        for key in ("id", "table_id", "created_at"):
            row.pop(key)
    ledger = list(
        LedgerEntry.objects.filter(table=table)
        .order_by("entry__number", "member_id")
        .values("entry__number", "member_id", "club_id", "date", "unit", "amount", "role", "won")
    )
    audit = list(
        AuditEntry.objects.filter(table=table)
        .order_by("id")
        .values("number", "action", "before", "after", "reason", "user_id")
    )
    return {"entries": entries, "ledger": ledger, "audit": audit}


@pytest.mark.parametrize("preset", sorted(PLAYERS))
def test_bulk_append_stores_what_one_by_one_appends_store(preset: str) -> None:
    session = SessionFactory()
    members = MemberFactory.create_batch(PLAYERS[preset], club=session.club)
    user = UserFactory()
    log = evening_log(players=[m.display_name for m in members], hands=160, preset=preset, seed=3)
    one, bulk = (
        services.table_start(session=session, members=members, rules=preset, name=name, user=None)
        for name in ("einzeln", "gesammelt")
    )
    for table in (one, bulk):  # an evening already under way: the bulk continues its stored log
        for data in log[:40]:
            services.entry_append(table=table, data=data, user=user)
    for data in log[40:]:
        services.entry_append(table=one, data=data, user=user)
    saved = services.entries_append(table=bulk, log=log[40:], user=user)

    assert [entry.number for entry in saved] == list(range(41, 161))
    expected, got = stored_rows(one), stored_rows(bulk)
    assert len(got["entries"]) == 160 and len(got["audit"]) == 160
    assert len(got["ledger"]) >= 160 * (PLAYERS[preset] - 1)
    assert got == expected
    if preset == "allgaeu":  # the sample evening has Bock rounds, votes and the Stock
        assert {row["round"] for row in got["entries"]} > {"normal"}
        assert any(row["stock_after"] for row in got["entries"])


def test_a_refused_entry_stores_nothing_and_names_its_position() -> None:
    session = SessionFactory()
    members = MemberFactory.create_batch(4, club=session.club)
    table = services.table_start(session=session, members=members, rules="allgaeu", user=None)
    log = evening_log(players=[m.display_name for m in members], hands=30)
    log[17] = dict(log[17], declarer="Niemand") if "declarer" in log[17] else {"game": "rufspiel"}
    with pytest.raises(EntryError) as refused:
        services.entries_append(table=table, log=log, user=None)
    assert refused.value.index == 17 and refused.value.field.startswith("hands[17]")
    assert not Entry.objects.filter(table=table).exists()
    assert not LedgerEntry.objects.filter(table=table).exists()
    assert not AuditEntry.objects.filter(table=table).exists()
