"""seed_demo's played evenings: three of about forty hands under the Allgäu rules, with a
Bockrunde, a Mungorunde and a table of five; running it again adds nothing."""

from __future__ import annotations

import pytest

from scoring import selectors
from scoring.forms.entry import EntryContext
from scoring.forms.hand import HandForm, entry_form_class
from scoring.models import Entry, LedgerEntry, Session, Table
from tools.demo.clubs import seed_demo_clubs
from tools.demo.evenings import DEMO_NOTE, seed_demo_evenings

pytestmark = pytest.mark.django_db


def test_demo_evenings_are_played_once() -> None:
    club = seed_demo_clubs().demo
    assert seed_demo_evenings(club) == 3
    sessions = Session.objects.filter(club=club, note=DEMO_NOTE)
    assert sessions.count() == 3
    tables = Table.objects.filter(session__in=sessions)
    assert all(table.preset == "allgaeu" for table in tables)
    assert sorted(table.seats.count() for table in tables) == [4, 4, 5]
    for table in tables:
        assert 35 <= Entry.objects.filter(table=table).count() <= 45
    rounds = set(Entry.objects.filter(table__in=tables).values_list("round", flat=True))
    assert {"bockrunde", "mungorunde"} <= rounds
    assert sessions.filter(closed_at__isnull=False).count() == 2
    hands = Entry.objects.filter(table__in=tables, kind="hand")
    # Every demo hand edits on the phone, and reads back from its form as the same facts (issue 30).
    for table in tables:
        setup = selectors.table_setup(table)
        for entry in hands.filter(table=table):
            context = EntryContext(setup, selectors.state_before(table, entry.number, setup).state, entry.number)
            assert entry_form_class(context, entry.data) is HandForm, entry.data
    ledger = LedgerEntry.objects.filter(session__in=sessions).count()
    assert seed_demo_evenings(club) == 0
    assert LedgerEntry.objects.filter(session__in=sessions).count() == ledger
