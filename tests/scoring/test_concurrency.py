"""Two phones at one table never lose or duplicate a hand (PostgreSQL: the table row is locked
while appending). Threads with their own database connections submit at the same moment."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections

from scoring import services
from scoring.models import Entry, LedgerEntry, Table
from tests.factories import SessionFactory, make_table

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL"),
]

ROUNDS = 8


def at_once(*calls: Callable[[], Any]) -> list[Any]:
    """Run ``calls`` in threads that start together; each result or exception, in order."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[i] = call()
        except Exception as exc:  # noqa: BLE001 - reported to the test
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def hand(table: Table) -> dict[str, Any]:
    # Valid for any dealer at four players, and triggers no round.
    names = list(table.seats.order_by("position").values_list("name", flat=True))
    return {"game": "rufspiel", "declarer": names[0], "partner": names[1], "augen": 75, "deckel": 1}


def append(table: Table, **kwargs: Any) -> Callable[[], Entry]:
    return lambda: services.entry_append(table=Table.objects.get(pk=table.pk), data=hand(table), user=None, **kwargs)


def assert_contiguous(table: Table, count: int) -> None:
    numbers = list(Entry.objects.filter(table=table).order_by("number").values_list("number", flat=True))
    assert numbers == list(range(1, count + 1))
    assert LedgerEntry.objects.filter(table=table).count() == 4 * count


def test_two_phones_with_the_same_expected_number_save_exactly_one() -> None:
    table = make_table(SessionFactory())
    for n in range(1, ROUNDS + 1):
        results = at_once(append(table, expected_number=n), append(table, expected_number=n))
        saved = [r for r in results if isinstance(r, Entry)]
        stale = [r for r in results if isinstance(r, services.StaleEntry)]
        assert len(saved) == 1 and len(stale) == 1, results
        assert saved[0].number == n and stale[0].next_number == n + 1
    assert_contiguous(table, ROUNDS)


def test_a_resubmission_with_the_same_key_returns_the_same_entry() -> None:
    table = make_table(SessionFactory())
    for n in range(1, ROUNDS + 1):
        key = f"phone-{n}"
        results = at_once(append(table, idempotency_key=key), append(table, idempotency_key=key))
        assert all(isinstance(r, Entry) for r in results), results
        assert results[0].pk == results[1].pk and results[0].number == n
    assert_contiguous(table, ROUNDS)


def test_many_phones_appending_at_once_get_contiguous_numbers() -> None:
    table = make_table(SessionFactory())
    results = at_once(*(append(table) for _ in range(6)))
    assert all(isinstance(r, Entry) for r in results), results
    assert sorted(r.number for r in results) == list(range(1, 7))
    assert_contiguous(table, 6)
