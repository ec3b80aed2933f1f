"""The services that write a table's log: append (validated by the fold), idempotency, stale
forms, corrections and deletions that replay, undo, the audit trail, closing an evening."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError

from clubs.models import Member
from scoring import selectors, services
from scoring.engine.core import EngineError
from scoring.engine.session import EntryError
from scoring.models import AuditEntry, ClubRules, Entry, KasseBooking, LedgerEntry, Table
from tests.factories import MemberFactory, SessionFactory, make_table, rufspiel

pytestmark = pytest.mark.django_db


@pytest.fixture
def table() -> Table:
    return make_table(SessionFactory(), players=4)


def names(table: Table) -> list[str]:
    return list(table.seats.order_by("position").values_list("name", flat=True))


def ledger(table: Table) -> list[tuple[int, str, int]]:
    rows = LedgerEntry.objects.filter(table=table).order_by("entry__number", "member__seats__position")
    return sorted((row.entry.number, row.member.display_name, row.amount) for row in rows)


def append(table: Table, data: dict[str, Any], **kwargs: Any) -> Entry:
    return services.entry_append(table=table, data=data, user=None, **kwargs)


def test_table_start_freezes_every_option_and_seats_in_order() -> None:
    session = SessionFactory()
    members = MemberFactory.create_batch(5, club=session.club)
    table = services.table_start(session=session, members=members, first_dealer=members[2], user=None)
    assert table.preset == "allgaeu" and table.unit == "cent"
    assert table.options["price_rufspiel"] == 10
    assert table.options["bock_triggers"] == ["6060", "3090"]  # table options too
    assert names(table) == [m.display_name for m in members]
    setup = selectors.table_setup(table)
    assert setup.first_dealer == members[2].display_name
    assert selectors.table_state(table).state.sitting_out == (members[2].display_name,)


def test_a_later_change_of_the_club_rules_does_not_reach_a_started_table() -> None:
    session = SessionFactory()
    old = make_table(session)
    services.club_rules_save(
        club=session.club, preset="allgaeu", options={"price_rufspiel": 20}, winnings_to_kasse=False, user=None
    )
    new = make_table(session, rules=None)
    assert old.options["price_rufspiel"] == 10
    assert new.options["price_rufspiel"] == 20
    assert ClubRules.objects.get(club=session.club).options == {"price_rufspiel": 20}


def test_table_start_refuses_a_table_the_rules_cannot_seat() -> None:
    session = SessionFactory()
    with pytest.raises(ValidationError) as caught:
        services.table_start(session=session, members=MemberFactory.create_batch(3, club=session.club), user=None)
    assert "members" in caught.value.error_dict
    other = MemberFactory()
    with pytest.raises(ValidationError):
        services.table_start(
            session=session, members=[*MemberFactory.create_batch(3, club=session.club), other], user=None
        )


def test_club_rules_are_validated_by_the_engine() -> None:
    session = SessionFactory()
    with pytest.raises(ValidationError) as caught:
        services.club_rules_save(
            club=session.club, preset="allgaeu", options={"price_rufspiel": -1}, winnings_to_kasse=False, user=None
        )
    assert "price_rufspiel" in caught.value.error_dict


def test_an_evening_refuses_a_plus_points_only_tariff() -> None:
    # An evening is settled between its players; plus points only belongs to open tournaments.
    session = SessionFactory()
    plus = {"preset": "reiner-schafkopf", "options": {"plus_points_only": True}}
    with pytest.raises(ValidationError) as caught:
        services.club_rules_save(club=session.club, winnings_to_kasse=False, user=None, **plus)
    assert "preset" in caught.value.error_dict
    with pytest.raises(ValidationError) as caught:
        services.table_start(
            session=session, members=MemberFactory.create_batch(4, club=session.club), rules=plus, user=None
        )
    assert "rules" in caught.value.error_dict


def test_append_writes_the_entry_its_derived_fields_ledger_rows_and_audit(table: Table) -> None:
    players = names(table)
    entry = append(table, rufspiel(table, augen=60))
    assert entry.number == 1 and entry.kind == "hand" and entry.game == "rufspiel"
    assert entry.dealer == players[0]
    assert entry.declarer.display_name == players[1] and entry.partner.display_name == players[2]
    assert entry.declarer_won is False and entry.deckel == 1
    amounts = dict(LedgerEntry.objects.filter(entry=entry).values_list("member__display_name", "amount"))
    assert amounts == {players[1]: -20, players[2]: -20, players[3]: 20, players[0]: 20}
    roles = dict(LedgerEntry.objects.filter(entry=entry).values_list("member__display_name", "role"))
    assert roles[players[1]] == "declarer" and roles[players[2]] == "partner" and roles[players[3]] == "opponent"
    audit = AuditEntry.objects.get(table=table)
    assert (audit.action, audit.number, audit.after) == ("create", 1, entry.data)
    # 60:60 starts a Bockrunde: the next hand is doubled
    assert selectors.table_state(table).state.round == "bockrunde"
    second = append(table, rufspiel(table))
    assert second.round == "bockrunde" and second.bock == 1


def test_a_refused_hand_leaves_the_sheet_as_it_was(table: Table) -> None:
    append(table, rufspiel(table))
    before = ledger(table)
    hand = rufspiel(table)
    del hand["deckel"]  # Dauerdeckel: without a Deckel a Mungo is played
    with pytest.raises(EngineError) as caught:
        append(table, hand)
    assert caught.value.field == "deckel"
    assert Entry.objects.filter(table=table).count() == 1
    assert ledger(table) == before
    assert AuditEntry.objects.filter(table=table).count() == 1


def test_the_same_idempotency_key_returns_the_saved_entry(table: Table) -> None:
    hand = rufspiel(table)
    first = append(table, hand, idempotency_key="k1", expected_number=1)
    again = append(table, hand, idempotency_key="k1", expected_number=1)
    assert again.pk == first.pk
    assert Entry.objects.filter(table=table).count() == 1
    assert LedgerEntry.objects.filter(table=table).count() == 4


def test_a_stale_form_is_refused(table: Table) -> None:
    append(table, rufspiel(table), expected_number=1)
    with pytest.raises(services.StaleEntry) as caught:
        append(table, rufspiel(table), expected_number=1)
    assert (caught.value.expected, caught.value.next_number) == (1, 2)
    assert append(table, rufspiel(table), expected_number=2).number == 2


def test_a_correction_replays_and_rewrites_the_later_ledger_rows(table: Table) -> None:
    first = append(table, rufspiel(table, augen=75))
    second = append(table, rufspiel(table, augen=75))
    assert second.round == "normal"
    before = ledger(table)
    services.entry_correct(entry=first, data={**first.data, "augen": 60}, user=None, reason="60:60 verzählt")
    second.refresh_from_db()
    # Now hand 1 ended 60:60: hand 2 is in the Bockrunde and pays double.
    assert second.round == "bockrunde" and second.bock == 1
    after = ledger(table)
    assert after != before
    amounts_2 = [amount for number, _, amount in after if number == 2]
    assert sorted(abs(a) for a in amounts_2) == [40, 40, 40, 40]
    audit = AuditEntry.objects.filter(table=table, action="correct").get()
    assert audit.before["augen"] == 75 and audit.after["augen"] == 60 and audit.reason == "60:60 verzählt"


def test_a_correction_the_later_log_cannot_take_is_refused_and_changes_nothing(table: Table) -> None:
    first = append(table, rufspiel(table, augen=75))
    append(table, rufspiel(table))
    before = ledger(table)
    # Hand 1 Schwarz: a Mungorunde would start, where hand 2 (a Rufspiel) is not allowed.
    with pytest.raises(EntryError) as caught:
        services.entry_correct(entry=first, data={**first.data, "augen": 120, "tricks": 8}, user=None, reason="x")
    assert caught.value.index == 1 and caught.value.field == "hands[1].game"
    assert ledger(table) == before
    assert Entry.objects.get(pk=first.pk).data["augen"] == 75
    assert not AuditEntry.objects.filter(action="correct").exists()


def test_a_correction_with_an_invalid_hand_names_the_field(table: Table) -> None:
    first = append(table, rufspiel(table))
    with pytest.raises(EngineError) as caught:
        services.entry_correct(entry=first, data={**first.data, "augen": 130}, user=None, reason="x")
    assert caught.value.field == "augen"
    assert not isinstance(caught.value, EntryError)


def test_delete_renumbers_and_replays(table: Table) -> None:
    first = append(table, rufspiel(table, augen=60))  # Bockrunde
    append(table, rufspiel(table))
    third = append(table, rufspiel(table))
    services.entry_delete(entry=first, user=None, reason="doppelt eingetragen")
    numbers = list(Entry.objects.filter(table=table).order_by("number").values_list("number", "round", "pk"))
    assert [(n, r) for n, r, _ in numbers] == [(1, "normal"), (2, "normal")]
    assert numbers[1][2] == third.pk
    assert LedgerEntry.objects.filter(table=table).count() == 8
    for _, _member, amount in ledger(table):
        assert abs(amount) == 20
    audit = AuditEntry.objects.get(table=table, action="delete")
    assert audit.number == 1 and audit.before["augen"] == 60


def test_undo_removes_the_last_entry(table: Table) -> None:
    append(table, rufspiel(table))
    append(table, rufspiel(table))
    services.entry_undo_last(table=table, user=None)
    assert list(Entry.objects.filter(table=table).values_list("number", flat=True)) == [1]
    assert LedgerEntry.objects.filter(table=table).count() == 4
    assert AuditEntry.objects.filter(table=table, action="undo", number=2).exists()
    services.entry_undo_last(table=table, user=None)
    with pytest.raises(ValidationError):
        services.entry_undo_last(table=table, user=None)


def test_table_replay_repairs_drifted_derived_fields(table: Table) -> None:
    entry = append(table, rufspiel(table))
    Entry.objects.filter(pk=entry.pk).update(round="mungorunde", multiplier=7)
    LedgerEntry.objects.filter(entry=entry).update(amount=0)
    services.table_replay(table=table)
    entry.refresh_from_db()
    assert (entry.round, entry.multiplier) == ("normal", 1)
    assert sorted(abs(a) for a in LedgerEntry.objects.filter(entry=entry).values_list("amount", flat=True)) == [20] * 4


def test_a_closed_evening_refuses_changes_and_reopens(table: Table) -> None:
    entry = append(table, rufspiel(table))
    services.session_close(session=table.session, user=None)
    with pytest.raises(ValidationError):
        append(table, rufspiel(table))
    with pytest.raises(ValidationError):
        services.entry_correct(entry=entry, data=entry.data, user=None, reason="x")
    with pytest.raises(ValidationError):
        services.session_close(session=table.session, user=None)
    services.session_reopen(session=table.session, user=None)
    append(table, rufspiel(table))
    actions = list(AuditEntry.objects.filter(session=table.session, table=None).values_list("action", flat=True))
    assert sorted(actions) == ["close", "reopen"]


def test_closing_books_the_winnings_into_the_kasse_and_reopening_reverses_them(table: Table) -> None:
    append(table, rufspiel(table, augen=75))  # declarer side wins 20 each
    append(table, {"event": "vergeben"})  # the dealer pays 50 into the Stock
    session = table.session
    services.session_close(session=session, user=None, book_to_kasse=True)
    balances = {b.name: b.amount for b in selectors.session_balances(session)}
    assert sum(balances.values()) == 0 and balances["Stock"] == 50
    booked = sorted(KasseBooking.objects.filter(session=session).values_list("amount", flat=True))
    assert booked == sorted(amount for amount in balances.values() if amount > 0)
    assert selectors.kasse_balance(session.club) == {"cent": sum(booked)}
    services.session_reopen(session=session, user=None)
    assert selectors.kasse_balance(session.club) == {"cent": 0}
    services.session_close(session=session, user=None, book_to_kasse=True)
    assert selectors.kasse_balance(session.club) == {"cent": sum(booked)}


def test_points_are_not_booked_into_the_kasse() -> None:
    table = make_table(SessionFactory(), rules="allgaeu-meisterschaft")
    append(table, rufspiel(table))
    services.session_close(session=table.session, user=None, book_to_kasse=True)
    assert not KasseBooking.objects.exists()


def test_the_settlement_pays_every_balance_with_the_fewest_transfers(table: Table) -> None:
    append(table, rufspiel(table, augen=75))
    transfers = selectors.session_settlement(table.session)
    assert len(transfers) == 2  # two losers pay two winners 20 each
    balance = {name: 0 for name in names(table)}
    for transfer in transfers:
        balance[transfer.payer_name] -= transfer.amount
        balance[transfer.payee_name] += transfer.amount
    totals = {b.name: b.amount for b in selectors.session_balances(table.session)}
    assert balance == totals
    assert all(isinstance(t.payer, Member) for t in transfers)
