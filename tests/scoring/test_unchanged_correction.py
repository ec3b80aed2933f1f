"""Issue 30 items 4 and 6: a correction saved unchanged writes nothing and says so; a correction
the tap form could not show again as entered is refused with the reason; Back to a deleted
entry's page goes to the table; a refused deletion speaks of the deletion."""

from __future__ import annotations

import re
from typing import Any

import pytest

from clubs.models import Member
from scoring import services
from scoring.forms.hand import HandForm
from scoring.models import AuditEntry, Entry, LedgerEntry, Table
from tests.factories import World
from tests.scoring.test_pages import PLAYERS, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(world: World) -> Table:
    session = services.session_create(club=world.club, date="2026-11-20", user=None)
    members = [Member.objects.get(club=world.club, display_name=name) for name in PLAYERS]
    return services.table_start(session=session, members=members, rules="allgaeu", user=None)


def written(table: Table) -> tuple[list[Any], list[Any], list[Any]]:
    """Everything a correction could write: the log with its derived fields, ledger, audit."""
    entries = list(Entry.objects.filter(table=table).order_by("number").values())
    ledger = list(LedgerEntry.objects.filter(table=table).order_by("pk").values())
    return entries, ledger, list(AuditEntry.objects.filter(table=table).values_list("pk", flat=True))


def tie_hand(table: Table) -> Entry:
    """A Rufspiel saved with the 90:30 button: the Bockrunde it sets off follows (001 §5.1)."""
    seats = services.selectors.table_state(table).state.seats
    hand = {"game": "rufspiel", "declarer": seats[0], "partner": seats[1], "called": "eichel", "augen": 90}
    entry = services.entry_append(table=table, data={**hand, "deckel": 1}, user=None)
    later = {"game": "solo", "suit": "herz", "declarer": seats[1], "result": "won", "deckel": 1}
    services.entry_append(table=table, data=later, user=None)
    return entry


def test_the_very_same_facts_write_nothing(table: Table) -> None:
    entry = tie_hand(table)
    before = written(table)
    services.entry_correct(entry=entry, data=dict(entry.data), user=None, reason="nur angeschaut")
    assert written(table) == before  # no re-fold, no ledger row, no audit row


def test_the_correction_page_saved_unchanged_says_nothing_changed(client_as: Any, table: Table) -> None:
    entry = tie_hand(table)
    client = client_as("scorer")
    edit = url("entry_edit", table, entry_id=entry.pk)
    page = client.get(edit).content.decode()
    tap = page.split('id="entry-form"')[1].split("</form>")[0]
    assert re.search(r'<input[^>]*value="a90"[^>]*checked', tap)  # the button it was saved with
    assert not re.search(r'<input[^>]*name="augen"[^>]*value=', tap)  # not as "Augen der Spieler: 90"
    before = written(table)
    post = {"game": "rufspiel", "declarer": entry.data["declarer"], "partner": entry.data["partner"],
            "called": "eichel", "result": "a90", "deckel": "1", "kontra": "0", "laufende": "0",
            "dealer": entry.dealer}  # fmt: skip
    response = client.post(edit, post, follow=True)  # no reason needed: nothing to give one for
    assert "Nr. 1 ist unverändert; nichts gespeichert." in response.content.decode()
    assert written(table) == before
    # Tapping "gewonnen" instead is a correction: the 90:30 and its Bockrunde are gone.
    client.post(edit, {**post, "result": "won", "reason": "kein 90:30"})
    entry.refresh_from_db()
    assert "augen" not in entry.data and entry.data["result"] == "won"
    assert Entry.objects.get(table=table, number=2).bock == 0


def test_a_correction_the_form_would_reopen_as_something_else_is_refused(
    client_as: Any, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry = tie_hand(table)
    before = written(table)
    # Whatever the tap form could not show again as typed is not stored from it.
    monkeypatch.setattr(
        HandForm, "covers", classmethod(lambda cls, data, context=None: context is None or data == entry.data)
    )
    post = {"game": "rufspiel", "declarer": entry.data["declarer"], "partner": entry.data["partner"],
            "called": "eichel", "result": "won", "deckel": "1", "dealer": entry.dealer, "reason": "x"}  # fmt: skip
    page = client_as("scorer").post(url("entry_edit", table, entry_id=entry.pk), post).content.decode()
    assert "Nicht gespeichert: so eingegeben, würde das Spiel anders gespeichert" in page
    assert written(table) == before


def test_back_to_a_deleted_entry_goes_to_the_table(client_as: Any, table: Table) -> None:
    entry = tie_hand(table)
    client = client_as("scorer")
    edit = url("entry_edit", table, entry_id=entry.pk)
    client.post(url("entry_delete", table, entry_id=entry.pk), {"delete-reason": "doppelt"})
    response = client.get(edit)
    assert response.status_code == 302 and response.url == table.get_absolute_url()
    page = client.get(response.url).content.decode()
    assert "gibt es nicht mehr" in page
    again = client.post(url("entry_delete", table, entry_id=entry.pk), {"delete-reason": "doppelt"})  # a second tap
    assert again.status_code == 302 and again.url == table.get_absolute_url()


def test_a_refused_deletion_speaks_of_the_deletion(client_as: Any, table: Table) -> None:
    seats = services.selectors.table_state(table).state.seats
    schwarz = {"game": "rufspiel", "declarer": seats[0], "partner": seats[1], "result": "won_schwarz", "deckel": 1}
    first = services.entry_append(table=table, data=schwarz, user=None)
    seats = services.selectors.table_state(table).state.seats
    services.entry_append(
        table=table, data={"game": "solo", "suit": "herz", "declarer": seats[0], "result": "won"}, user=None
    )
    client = client_as("scorer")
    response = client.post(url("entry_delete", table, entry_id=first.pk), {"delete-reason": "falsch"})
    page = client.get(response.url).content.decode()
    assert "dann Nr. 1 löschen" in page and "dann diese Korrektur" not in page
    correction = client.get(url("entry_edit", table, entry_id=first.pk) + "?blocked=x").content.decode()
    assert "dann Nr. 1 löschen" not in correction


def test_a_closed_evenings_entry_says_it_is_closed_instead_of_offering_a_correction(
    client_as: Any, table: Table
) -> None:
    """Hunt 30: the correction page of a closed evening offered the form and the reason, and only
    the save said "abgeschlossen". It says so at once, with the way to the evening (to reopen it)."""
    entry = tie_hand(table)
    services.session_close(session=table.session, user=None)
    body = client_as("owner").get(url("entry_edit", table, entry_id=entry.pk)).content.decode()
    assert "Der Abend ist abgeschlossen" in body
    assert "Korrektur speichern" not in body and "Löschen</button>" not in body
    assert f'href="{table.session.get_absolute_url()}" role="button"' in body  # the owner reopens it there
