"""Writes to evenings, tables and their logs. Each function is one transaction.

A table's log (``Entry.data`` in the order of ``Entry.number``) is the truth. Appending an entry
validates it by folding it onto the table state of the stored log (``scoring.engine.session``);
correcting, deleting or undoing an entry re-folds the log and rewrites the derived fields and the
ledger rows of every entry whose result changed, in the same transaction. A refused change
changes nothing. Every change of a log writes an ``AuditEntry`` (who, when, before, after, why).

Errors:
- ``EngineError`` — the engine refused the entry itself; ``field`` names the hand's field
  (``augen``, ``augen_by_player.Anna``), ready for a form.
- ``EntryError`` (an ``EngineError``) — a correction or deletion would make a *later* entry
  invalid; ``index`` is that entry's 0-based position in the new log.
- ``StaleEntry`` — someone else saved an entry since the form was shown.
- ``ValidationError`` — everything else this module refuses (closed evening, an evening a
  ``hooks.session_locks`` lock holds, players …), keyed by form field where one fits.

On PostgreSQL the table row is locked (``SELECT … FOR UPDATE``) for every change of its log, so
two phones at one table append one after the other; the unique (table, number) and (table,
idempotency key) constraints are the last line of defence.
"""

from __future__ import annotations

import copy
import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import F, Model, Q
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from clubs.games import FAMILIES
from clubs.models import Club, Member
from scoring import hooks, safejson, selectors
from scoring.engine import registry
from scoring.engine.core import EngineError, RuleSet
from scoring.engine.session import EntryError, EntryResult, TableState, advance, start
from scoring.models import (
    AuditEntry,
    ClubRules,
    Entry,
    KasseBooking,
    LedgerEntry,
    Role,
    Seat,
    SeatChange,
    Session,
    Table,
    Unit,
)

User = AbstractBaseUser | None
# Entry fields the fold derives; rewritten on replay.
DERIVED_FIELDS = (
    "kind",
    "dealer",
    "round",
    "multiplier",
    "bock",
    "lines",
    "game",
    "declarer",
    "partner",
    "declarer_won",
    "schneider",
    "schwarz",
    "laufende",
    "kontra",
    "deckel",
    "tout",
    "solo",
    "stock_after",
)
# Renumbering after a delete moves the numbers out of the way first: the unique (table, number)
# constraint is checked row by row.
_RENUMBER_OFFSET = 1_000_000


class StaleEntry(Exception):  # noqa: N818 - the name the issue gives it
    """The form was for entry ``expected``, but the next entry is ``next_number``: someone else
    saved meanwhile."""

    def __init__(self, expected: int, next_number: int) -> None:
        super().__init__(f"expected entry {expected}, the next is {next_number}")
        self.expected = expected
        self.next_number = next_number


class StaleUndo(Exception):  # noqa: N818 - like StaleEntry
    """The undo was for another entry than the last one now (``last``)."""

    def __init__(self, last: Entry) -> None:
        super().__init__(f"the last entry is {last.number}")
        self.last = last


# --- evenings and tables ------------------------------------------------------------------------


@transaction.atomic
def session_create(*, club: Club, date: datetime.date, place: str = "", user: User) -> Session:
    return Session.objects.create(club=club, date=date, place=place.strip(), created_by=user)


@transaction.atomic
def table_start(
    *,
    session: Session,
    members: Sequence[Member],
    first_dealer: Member | None = None,
    name: str = "Tisch 1",
    rules: Mapping[str, Any] | str | None = None,
    user: User,
) -> Table:
    """A table of the evening with ``members`` in seat order (clockwise) and its rules frozen:
    every option value of the preset and of the table is copied, so changing the club's rules
    later never reaches this table. ``rules`` defaults to the club's rules."""
    _check_open(session)
    members = list(members)
    if any(member.club_id != session.club_id for member in members):
        raise ValidationError({"members": _("Alle Spieler müssen zum Verein gehören.")})
    if len({member.pk for member in members}) != len(members):
        raise ValidationError({"members": _("Jeder Spieler darf nur einmal am Tisch sitzen.")})
    for check in hooks.table_start_checks:  # e.g. a championship's Partie seats only its plan
        check(session, members)
    first = first_dealer or (members[0] if members else None)
    if first is not None and first not in members:
        raise ValidationError({"first_dealer": _("Der erste Geber muss am Tisch sitzen.")})
    spec = selectors.club_rules_spec(session.club) if rules is None else rules
    try:
        ruleset, table_rules = registry.load_with_table(spec)
    except EngineError as error:
        raise ValidationError({"rules": error.message}) from None
    _refuse_non_zero_sum(ruleset, "rules")
    names = [member.display_name for member in members]
    try:
        start(ruleset, table_rules, names, first.display_name if first else "")
    except EngineError as error:
        raise ValidationError({"members": error.message}) from None
    table = Table.objects.create(
        session=session,
        name=name.strip() or "Tisch 1",
        preset=ruleset.NAME,
        options=selectors.frozen_options(ruleset, table_rules),
        unit=ruleset.unit(),
    )
    Seat.objects.bulk_create(
        Seat(table=table, member=member, position=i, name=member.display_name, is_first_dealer=member == first)
        for i, member in enumerate(members)
    )
    return table


def _refuse_non_zero_sum(ruleset: RuleSet, field: str) -> None:
    """An evening is settled between its players: what one wins, the others lose. A tariff that
    writes the winners alone (plus points only) belongs to an open tournament, not to a table."""
    if not ruleset.plays_at_table():
        raise ValidationError(
            {
                field: _(
                    "„Nur Pluspunkte“ gibt es nur im offenen Turnier; ein Abend wird unter den Spielern abgerechnet."
                )
            }
        )


@transaction.atomic
def club_rules_save(
    *, club: Club, preset: str, options: Mapping[str, Any], winnings_to_kasse: bool, user: User
) -> ClubRules:
    """The club's default rules for new tables; refused (ValidationError keyed by option) unless
    the engine accepts them. Tables already started keep their frozen copy."""
    spec = {"preset": preset, "options": dict(options)}
    try:
        ruleset, _table_rules = registry.load_with_table(spec)
    except EngineError as error:
        key = error.field.rsplit(".", 1)[-1] if error.field and error.field.startswith("ruleset.options.") else None
        raise ValidationError({key or "preset": error.message}) from None
    _refuse_non_zero_sum(ruleset, "preset")
    if ruleset.FAMILY not in FAMILIES[club.game]:  # issue 32 §3: the rules of the club's game only
        raise ValidationError({"preset": _("Diese Regel gehört nicht zum Spiel des Vereins (Einstellungen).")})
    current = ClubRules.objects.select_for_update().filter(club=club).first()
    if current is not None and (current.preset, current.options, current.winnings_to_kasse) == (
        preset,
        dict(options),
        winnings_to_kasse,
    ):
        return current  # saved unchanged: nothing to write, who changed them last stays
    rules, _created = ClubRules.objects.update_or_create(
        club=club,
        defaults={
            "preset": preset,
            "options": dict(options),
            "winnings_to_kasse": winnings_to_kasse,
            "updated_by": user,
        },
    )
    return rules


# --- the log ------------------------------------------------------------------------------------


@transaction.atomic
def entry_append(
    *,
    table: Table,
    data: Mapping[str, Any],
    user: User,
    idempotency_key: str = "",
    expected_number: int | None = None,
) -> Entry:
    """Append a hand or an event (spec §3, seat names) to the table's log.

    The same ``idempotency_key`` again returns the entry it saved (a double tap, a resent form).
    ``expected_number`` is the number the form was shown for; another one raises ``StaleEntry``.
    """
    table = _lock(table)
    if idempotency_key:
        existing = Entry.objects.filter(table=table, idempotency_key=idempotency_key).first()
        if existing is not None:
            return existing
    hooks.check_write(table, _user(user))  # e.g. a championship table is written by its Schreiber only
    for check in hooks.entry_append_checks:  # e.g. a championship table's game limit
        check(table)
    setup = selectors.table_setup(table)
    log = selectors.table_log(table)
    number = len(log) + 1
    if expected_number is not None and expected_number != number:
        raise StaleEntry(expected_number, number)
    state = selectors.fold_log(setup, log).state
    raw = _raw(data)
    result, after = advance(setup.ruleset, setup.rules, state, raw)
    entry = Entry(table=table, number=number, data=raw, idempotency_key=idempotency_key, created_by=_user(user))
    _set_derived(entry, result, after.stock, setup)
    entry.save()
    LedgerEntry.objects.bulk_create(_ledger_models(entry, _ledger_rows(result, setup, entry.number), table))
    _audit(table, number, AuditEntry.Action.CREATE, user, after=raw)
    hooks.written(table, _user(user))
    return entry


@transaction.atomic
def entries_append(
    *, table: Table, log: Sequence[Mapping[str, Any]], user: User, expected_number: int | None = None
) -> list[Entry]:
    """Append the entries of ``log`` (spec §3, seat names) to the table's log, in order: exactly
    the rows that ``entry_append`` called once per entry stores (numbers, derived fields, ledger
    rows, one audit row each; no idempotency key), but the stored log is folded once and every
    row is written with ``bulk_create``: an imported evening of 2,000 hands takes seconds, not
    minutes (each ``entry_append`` folds the whole log again).

    All or nothing: an entry the engine refuses raises ``EntryError`` (``index`` its position in
    ``log``, ``field`` ``hands[i].<field>``) before anything is written. The
    ``hooks.entry_append_checks`` see the table once, before the first entry: a caller that
    appends several hands to a table that may have a limit asks ``hooks.hands_left`` first (the
    import of a paper sheet does). ``expected_number``: the number the first entry was checked
    for; another one (the table gained or lost an entry since) raises ``StaleEntry``."""
    table = _lock(table)
    hooks.check_write(table, _user(user))
    for check in hooks.entry_append_checks:
        check(table)
    setup = selectors.table_setup(table)
    stored = selectors.table_log(table)
    if expected_number is not None and expected_number != len(stored) + 1:
        raise StaleEntry(expected_number, len(stored) + 1)
    state = selectors.fold_log(setup, stored).state
    by = _user(user)
    entries: list[Entry] = []
    results: list[EntryResult] = []
    for index, data in enumerate(log):
        try:
            raw = _raw(data)
            result, state = advance(setup.ruleset, setup.rules, state, raw)
        except EngineError as error:
            raise EntryError(error, index) from None
        entry = Entry(table=table, number=len(stored) + index + 1, data=raw, created_by=by)
        _set_derived(entry, result, state.stock, setup)
        entries.append(entry)
        results.append(result)
    # bulk_create sets the primary keys (SQLite ≥ 3.35, PostgreSQL) the ledger rows point to.
    Entry.objects.bulk_create(entries)
    LedgerEntry.objects.bulk_create(
        ledger
        for entry, result in zip(entries, results, strict=True)
        for ledger in _ledger_models(entry, _ledger_rows(result, setup, entry.number), table)
    )
    AuditEntry.objects.bulk_create(
        AuditEntry(
            table_id=table.pk,
            session_id=table.session_id,
            number=entry.number,
            action=AuditEntry.Action.CREATE,
            after=entry.data,
            user=by,
        )
        for entry in entries
    )
    hooks.written(table, _user(user))
    return entries


@transaction.atomic
def entry_correct(*, entry: Entry, data: Mapping[str, Any], user: User, reason: str) -> Entry:
    """Replace the facts of ``entry`` and re-fold the log from it. The very facts it has already
    change nothing: no re-fold, no audit row (a correction saved unchanged, issue 30)."""
    table = _lock(entry.table)
    hooks.check_write(table, _user(user))
    entries = _entries(table)
    target = _find(entries, entry)
    before, raw = target.data, _raw(data)
    if safejson.identical(raw, before):
        return target
    target.data = raw
    _refold(table, entries, target.number)
    Entry.objects.filter(pk=target.pk).update(data=raw)
    _audit(table, target.number, AuditEntry.Action.CORRECT, user, before=before, after=raw, reason=reason)
    return target


@transaction.atomic
def entry_delete(*, entry: Entry, user: User, reason: str) -> None:
    """Remove ``entry`` from the log; the entries after it move up one number and are re-folded."""
    table = _lock(entry.table)
    hooks.check_write(table, _user(user))
    entries = _entries(table)
    target = _find(entries, entry)
    number = target.number
    rest = [e for e in entries if e.pk != target.pk]
    for later in rest[number - 1 :]:
        later.number -= 1
    # A seat taken over after the deleted entry is taken over from the same hand, now one up
    # (before the fold, which books each entry to whoever played it; a refusal rolls it back).
    SeatChange.objects.filter(table=table, from_number__gt=number).update(from_number=F("from_number") - 1)
    _refold(table, rest, number, changed_first=False)  # refuses before anything is written
    target.delete()
    later = Entry.objects.filter(table=table, number__gt=number)
    later.update(number=F("number") + _RENUMBER_OFFSET)
    Entry.objects.filter(table=table, number__gt=_RENUMBER_OFFSET).update(number=F("number") - _RENUMBER_OFFSET - 1)
    _audit(table, number, AuditEntry.Action.DELETE, user, before=target.data, reason=reason)


@transaction.atomic
def entry_undo_last(*, table: Table, user: User, number: int | None = None) -> None:
    """Remove the last entry (the entries before it are unchanged by construction).

    ``number``: the log position the button named; another last entry (another phone saved
    meanwhile, the tap came twice) is refused with ``StaleUndo``, never taken back unasked."""
    table = _lock(table)
    hooks.check_write(table, _user(user))
    last = Entry.objects.filter(table=table).order_by("-number").first()
    if last is None:
        raise ValidationError(_("Es gibt noch keinen Eintrag, der rückgängig gemacht werden könnte."))
    if number is not None and last.number != number:
        raise StaleUndo(last)
    last.delete()
    _audit(table, last.number, AuditEntry.Action.UNDO, user, before=last.data)


@transaction.atomic
def table_discard(*, table: Table, user: User) -> None:
    """Remove a table on which nothing was entered yet (started by mistake, or an open
    tournament's table handed back to its paper sheet); one with entries keeps its log."""
    table = _lock(table)
    hooks.check_write(table, _user(user))
    if Entry.objects.filter(table=table).exists():
        raise ValidationError(_("An diesem Tisch ist schon etwas eingetragen; er bleibt."))
    table.delete()


@transaction.atomic
def table_first_dealer_set(*, table: Table, member: Member, user: User) -> Table:
    """Who deals the table's first hand (001 §2.3: the players cut, the highest card deals; at a
    championship the seat order is drawn first, 001 §11.2): before the first entry only. The deal
    goes on clockwise from him, and at five and six who sits out follows it (the fold derives
    both from the first dealer). Afterwards a hand that someone else dealt names its dealer."""
    table = _lock(table)
    hooks.check_write(table, _user(user))
    if Entry.objects.filter(table=table).exists():
        raise ValidationError(
            {
                "dealer": _(
                    "Der erste Geber lässt sich nur vor dem ersten Eintrag wählen. Hat ein anderer gegeben, "
                    "steht das beim Spiel unter „Gegeben hat“."
                )
            }
        )
    seats = list(table.seats.all())
    if not any(seat.member_id == member.pk for seat in seats):
        raise ValidationError({"dealer": _("Der erste Geber muss am Tisch sitzen.")})
    for seat in seats:
        seat.is_first_dealer = seat.member_id == member.pk
    Seat.objects.bulk_update(seats, ["is_first_dealer"])
    return table


def seat_change(*, table: Table, seat: Seat, member: Member, user: User, reason: str = "") -> SeatChange:
    """``member`` takes ``seat`` from the next entry on (a substitute, or the player back again).
    The hands already on the sheet keep their players: the log names seats, and their ledger
    rows stay where they are; the entries from the next one on are booked to ``member``. The
    seat keeps its name on the sheet. Audited (``AuditEntry.Action.SEAT``). Refused for a
    member of another club and for one who already plays at this table."""
    table = _lock(table)
    if seat.table_id != table.pk:
        raise ValidationError({"seat": _("Diesen Platz gibt es an diesem Tisch nicht.")})
    if member.club_id != table.session.club_id:
        raise ValidationError({"member": _("Alle Spieler müssen zum Verein gehören.")})
    number = Entry.objects.filter(table=table).count() + 1
    setup = selectors.table_setup(table)
    now = setup.members_at(number)
    if now[seat.name] == member.pk:
        raise ValidationError({"member": _("%(name)s sitzt schon auf diesem Platz.") % {"name": member.display_name}})
    if member.pk in now.values():
        raise ValidationError({"member": _("%(name)s spielt schon an diesem Tisch.") % {"name": member.display_name}})
    # A second change from the same entry on replaces the first (a wrong pick, corrected).
    SeatChange.objects.filter(table=table, seat=seat, from_number=number).delete()
    change = SeatChange.objects.create(
        table=table, seat=seat, from_number=number, member=member, name=member.display_name
    )
    _audit(
        table,
        number,
        AuditEntry.Action.SEAT,
        user,
        before={"seat": seat.name, "player": _name_of(now[seat.name])},
        after={"seat": seat.name, "player": member.display_name},
        reason=reason,
    )
    return change


def _name_of(member_id: int) -> str:
    return Member.objects.filter(pk=member_id).values_list("display_name", flat=True).first() or ""


@transaction.atomic
def table_replay(*, table: Table, from_number: int = 1) -> None:
    """Re-fold the stored log and rewrite what differs from ``from_number`` on (a repair after an
    engine fix; the services keep the derived fields in step otherwise)."""
    table = _lock(table)
    _refold(table, _entries(table), from_number)


# --- closing an evening ---------------------------------------------------------------------------


@transaction.atomic
def session_close(*, session: Session, user: User, book_to_kasse: bool = False) -> Session:
    """Close the evening: no entry changes until an owner reopens it. With ``book_to_kasse`` the
    evening's winnings go to the club's Kasse (001 §10): one booking per player who won money,
    and what is left in the tables' Stock."""
    session = Session.objects.select_for_update().get(pk=session.pk)
    _check_open(session)
    session.closed_at = timezone.now()
    session.closed_by = _user(user)
    session.save(update_fields=["closed_at", "closed_by"])
    if book_to_kasse:
        when = formats.date_format(session.date, "SHORT_DATE_FORMAT")  # in the language of its text
        bookings = [
            KasseBooking(
                club=session.club,
                session=session,
                member=balance.member,
                unit=balance.unit,
                amount=balance.amount,
                text=_("Gewinn %(date)s") % {"date": when} if balance.member else _("Stock %(date)s") % {"date": when},
                by=_user(user),
            )
            for balance in selectors.session_balances(session)
            if balance.unit == Unit.CENT and balance.amount > 0
        ]
        KasseBooking.objects.bulk_create(bookings)
    _book_verlustspielgeld(session, user)
    AuditEntry.objects.create(
        session=session, action=AuditEntry.Action.CLOSE, after={"book_to_kasse": book_to_kasse}, user=_user(user)
    )
    return session


def _book_verlustspielgeld(session: Session, user: User) -> None:
    """skat.md §6: the fees of the evening's lost games go to the club's Kasse when the evening
    closes, one booking per player. Booked from the log as it stands then, so a correction or a
    deletion made before never books twice; a reopening reverses the booking, closing again books
    the log as it is then (docs/rules/skat.md, "Verlustspielgeld")."""
    when = formats.date_format(session.date, "SHORT_DATE_FORMAT")
    KasseBooking.objects.bulk_create(
        KasseBooking(
            club=session.club,
            session=session,
            member_id=member_id,
            unit=Unit.CENT,
            kind=KasseBooking.VERLUSTSPIELGELD,
            amount=amount,
            text=_("Verlustspielgeld %(date)s") % {"date": when},
            by=_user(user),
        )
        for member_id, amount in sorted(selectors.session_verlustspielgeld(session).items())
        if amount
    )


@transaction.atomic
def session_reopen(*, session: Session, user: User) -> Session:
    """Reopen a closed evening. Its Kasse bookings are reversed by counter-bookings (the Kasse
    is a ledger: nothing in it is changed or deleted); closing again books anew."""
    session = Session.objects.select_for_update().get(pk=session.pk)
    hooks.check_unlocked(session)  # e.g. a finished championship's Partie stays closed
    if not session.is_closed:
        raise ValidationError(_("Der Abend ist nicht abgeschlossen."))
    session.closed_at = None
    session.closed_by = None
    session.save(update_fields=["closed_at", "closed_by"])
    open_bookings = selectors.session_kasse_open(session)
    KasseBooking.objects.bulk_create(
        KasseBooking(
            club=session.club,
            session=session,
            member_id=member_id,
            unit=unit,
            kind=kind,
            amount=-amount,
            text=_("Storno: Abend %(date)s wieder geöffnet")
            % {"date": formats.date_format(session.date, "SHORT_DATE_FORMAT")},
            by=_user(user),
        )
        for (member_id, unit, kind), amount in open_bookings.items()
        if amount
    )
    AuditEntry.objects.create(session=session, action=AuditEntry.Action.REOPEN, user=_user(user))
    return session


# --- helpers ------------------------------------------------------------------------------------


def _user(user: User) -> AbstractBaseUser | None:
    return user if user is not None and user.is_authenticated else None


def _check_open(session: Session) -> None:
    """The evening takes changes: not held by a lock (``hooks.session_locks``, e.g. a finished
    championship; its reason first, since reopening the evening would not help) and not closed."""
    hooks.check_unlocked(session)
    if session.is_closed:
        raise ValidationError(
            _("Der Abend ist abgeschlossen; wieder öffnen kann ein Vorstand oder am selben Tag, wer ihn abschloss.")
        )


def _lock(table: Table) -> Table:
    """The table row, locked until the transaction ends (PostgreSQL; SQLite serialises writers)."""
    # Only the table row: two tables of one evening append side by side.
    try:
        locked = (
            Table.objects.select_for_update(of=("self",)).select_related("session", "session__club").get(pk=table.pk)
        )
    except Table.DoesNotExist:  # removed since the request read it (an open tournament's table back on paper)
        raise selectors.TableGone from None
    _check_open(locked.session)
    return locked


def _raw(data: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(data, Mapping):
        raise EngineError("invalid_type", "Ein Eintrag muss ein JSON-Objekt sein (Spiel oder Ereignis).", None)
    # The store's edge: NUL, lone surrogates (keys too), deep nesting and huge numbers never
    # reach the database, whichever way the facts came (a form, an import, a script).
    safejson.check(data)
    return copy.deepcopy(dict(data))


def _entries(table: Table) -> list[Entry]:
    return list(Entry.objects.filter(table=table).order_by("number"))


def _find(entries: list[Entry], entry: Entry) -> Entry:
    for candidate in entries:
        if candidate.pk == entry.pk:
            return candidate
    raise ValidationError(_("Diesen Eintrag gibt es an diesem Tisch nicht (mehr)."))


def _set_derived(entry: Entry, result: EntryResult, stock_after: int, setup: selectors.TableSetup) -> None:
    """Set the entry's derived fields from its fold result."""
    outcome = result.outcome
    entry.kind = result.kind
    entry.dealer = result.dealer
    entry.round = result.round
    entry.multiplier = result.multiplier
    entry.bock = result.bock
    entry.lines = [line.as_dict() for line in result.lines]
    entry.stock_after = stock_after
    entry.game = outcome.game if outcome else ""
    members = setup.members_at(entry.number)
    entry.declarer_id = members.get(outcome.declarer) if outcome and outcome.declarer else None
    entry.partner_id = members.get(outcome.partner) if outcome and outcome.partner else None
    entry.declarer_won = outcome.declarer_won if outcome else None
    entry.schneider = bool(outcome and outcome.schneider)
    entry.schwarz = bool(outcome and outcome.schwarz)
    entry.laufende = outcome.laufende if outcome else 0
    entry.kontra = outcome.kontra if outcome else 0
    entry.deckel = outcome.deckel if outcome else 0
    entry.tout = bool(outcome and outcome.tout)
    entry.solo = bool(outcome and outcome.solo)


LedgerRow = tuple[int, int, str, bool | None]  # member id, amount, role, won


def _ledger_rows(result: EntryResult, setup: selectors.TableSetup, number: int) -> list[LedgerRow]:
    """One row per player at the table (0 for whoever sat out, unless the entry booked something),
    booked to whoever played entry ``number`` on the seat (``SeatChange``)."""
    rows = []
    members = setup.members_at(number)
    for name, amount in result.payouts.items():
        role, won = _role(name, result)
        rows.append((members[name], amount, role, won))
    return rows


def _ledger_models(entry: Entry, rows: list[LedgerRow], table: Table) -> list[LedgerEntry]:
    session = table.session
    # By id, not by object: the related-object setters were a good part of building the 8,000
    # ledger rows of an imported evening.
    return [
        LedgerEntry(
            entry_id=entry.pk,
            table_id=table.pk,
            session_id=session.pk,
            club_id=session.club_id,
            member_id=member,
            date=session.date,
            unit=table.unit,
            amount=amount,
            role=role,
            won=won,
        )
        for member, amount, role, won in rows
    ]


def _role(name: str, result: EntryResult) -> tuple[str, bool | None]:
    """The player's part in the entry and whether they won it (None: no side, or sat out)."""
    if name in result.sitting_out:
        return Role.OUT, None
    outcome = result.outcome
    if outcome is None:
        return Role.ALONE, None
    if outcome.declarer is None:
        winners = result.hand.winner if result.hand else ()
        return Role.ALONE, None if isinstance(winners, str) else name in winners
    won = outcome.declarer_won
    if name == outcome.declarer:
        return Role.DECLARER, won
    if name == outcome.partner:
        return Role.PARTNER, won
    return Role.OPPONENT, None if won is None else not won


def _refold(table: Table, entries: list[Entry], from_number: int, *, changed_first: bool = True) -> None:
    """Fold the log ``entries`` (their ``data`` and ``number`` as they will be) and rewrite the
    derived fields and ledger rows of the entries from ``from_number`` on where they changed.

    An invalid entry at ``from_number`` raises its ``EngineError`` as is (its own fields) when it
    is the changed entry (``changed_first``; after a deletion it is the next one); any other
    raises ``EntryError`` with its position. Nothing is written before the whole log folded."""
    setup = selectors.table_setup(table)
    try:
        folded = selectors.fold_log(setup, [entry.data for entry in entries])
    except EntryError as error:
        if changed_first and error.index == from_number - 1:
            # The corrected entry itself: its own field, for the form.
            own = error.field.split(".", 1)[1] if error.field and "." in error.field else None
            raise EngineError(error.code, error.message, own) from None
        raise
    results: list[tuple[Entry, EntryResult, int]] = []
    stock = 0
    for entry, result in zip(entries, folded.entries, strict=True):
        stock += result.stock
        if entry.number >= from_number:
            results.append((entry, result, stock))
    # Entries grouped by the fields that changed: a shifted Bockrunde rewrites round, bock,
    # multiplier and lines only, and leaves the indexed columns (and their indexes) alone.
    changed: dict[tuple[str, ...], list[Entry]] = {}
    for entry, result, stock_after in results:
        names = _changes(entry, result, stock_after, setup)
        if names:
            changed.setdefault(names, []).append(entry)
    for names, group in changed.items():
        _update_rows(Entry, names, [(entry.pk, *(getattr(entry, _attname(name)) for name in names)) for entry in group])
    _write_ledger(table, [(entry, _ledger_rows(result, setup, entry.number)) for entry, result, _stock in results])


def table_differences(table: Table) -> tuple[int | None, str] | None:
    """Fold the stored log of ``table`` and compare it with what is stored: the first entry
    whose derived fields or ledger rows are not what the fold makes them, as (its number, what
    differs in German), or None when the table is consistent. Writes nothing. An invalid log
    raises the fold's ``EntryError``, invalid rules the ``EngineError`` of the registry.
    A restored backup must pass this (``scoring.restore``): the log is the truth, and a ledger
    that is not its fold would show standings no hand ever made."""
    seats = sorted(table.seats.values_list("position", flat=True))
    if seats != list(range(len(seats))):
        return None, _("Die Plätze sind nicht 1 bis %(n)d.") % {"n": len(seats)}
    setup = selectors.table_setup(table)
    entries = _entries(table)
    numbers = [entry.number for entry in entries]
    if numbers != list(range(1, len(entries) + 1)):
        return None, _("Die Einträge sind nicht lückenlos von 1 an nummeriert.")
    folded = selectors.fold_log(setup, [entry.data for entry in entries])
    session = table.session
    stored: dict[int, dict[int, tuple[Any, ...]]] = {}
    for entry_id, member, amount, role, won, table_id, session_id, club_id, date, unit in LedgerEntry.objects.filter(
        Q(entry__table=table) | Q(table=table)
    ).values_list(
        "entry_id", "member_id", "amount", "role", "won", "table_id", "session_id", "club_id", "date", "unit"
    ):
        if (table_id, session_id, club_id, date, unit) != (
            table.pk,
            session.pk,
            session.club_id,
            session.date,
            table.unit,
        ):
            number = next((e.number for e in entries if e.pk == entry_id), None)
            return number, _("Eine Buchung gehört nicht zu diesem Tisch, Abend, Datum oder dieser Einheit.")
        stored.setdefault(entry_id, {})[member] = (amount, str(role), won)
    stock = 0
    names = {member: name for name, member in setup.members.items()}
    names.update({member: name for name, _number, member in setup.changes})
    for entry, result in zip(entries, folded.entries, strict=True):
        stock += result.stock
        changed = _changes(copy.copy(entry), result, stock, setup)
        if changed:
            return entry.number, _("Gespeichert weicht von der Neuberechnung ab: %(fields)s.") % {
                "fields": ", ".join(changed)
            }
        wanted = {
            member: (amount, str(role), won) for member, amount, role, won in _ledger_rows(result, setup, entry.number)
        }
        have = stored.get(entry.pk, {})
        if have != wanted:
            member = next(m for m in sorted(set(have) | set(wanted), key=str) if have.get(m) != wanted.get(m))
            was, should = have.get(member), wanted.get(member)
            return entry.number, _("Die Buchung von %(name)s ist %(was)s, die Neuberechnung ergibt %(should)s.") % {
                "name": names.get(member, member),
                "was": was[0] if was else _("keine"),
                "should": should[0] if should else _("keine"),
            }
    return None


def entry_derive(*, entry: Entry, result: EntryResult, after: TableState, setup: selectors.TableSetup) -> None:
    """Set an unsaved entry's derived fields from its fold result, as ``entry_append`` does, and
    write nothing: for ``tools/synthetic.py``, which bulk-writes a history of such rows."""
    _set_derived(entry, result, after.stock, setup)


def entry_ledger(*, entry: Entry, result: EntryResult, setup: selectors.TableSetup) -> list[LedgerEntry]:
    """The ledger rows of an entry (unsaved), exactly as ``entry_append`` writes them."""
    return _ledger_models(entry, _ledger_rows(result, setup, entry.number), entry.table)


def _update_rows(model: type[Model], names: Sequence[str], rows: list[tuple[Any, ...]]) -> None:
    """UPDATE the fields ``names`` of many rows, each given as (pk, *values). ``bulk_update``
    builds a CASE per field and row, which for a correction that shifts the Bockrunden of a
    200-hand evening costs the better part of a second; here PostgreSQL gets one
    ``UPDATE … FROM (VALUES …)`` per thousand rows, other databases one statement executed for
    every row (executemany, cheap in-process for SQLite)."""
    meta = model._meta
    fields = [meta.get_field(name) for name in names]
    quote = connection.ops.quote_name
    table, pk = quote(meta.db_table), quote(meta.pk.column)
    prepared = [
        [meta.pk.get_db_prep_save(row[0], connection)]
        + [field.get_db_prep_save(value, connection) for field, value in zip(fields, row[1:], strict=True)]
        for row in rows
    ]
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql":
            assignments = ", ".join(f"{quote(field.column)} = %s" for field in fields)
            cursor.executemany(
                f"UPDATE {table} SET {assignments} WHERE {pk} = %s", [[*row[1:], row[0]] for row in prepared]
            )
            return
        casts = [meta.pk.rel_db_type(connection), *(field.db_type(connection) for field in fields)]
        columns = ", ".join([pk, *(quote(field.column) for field in fields)])
        assignments = ", ".join(f"{quote(field.column)} = v.{quote(field.column)}" for field in fields)
        one = "(" + ", ".join(f"%s::{cast}" for cast in casts) + ")"
        for start in range(0, len(prepared), 1000):
            chunk = prepared[start : start + 1000]
            cursor.execute(
                f"UPDATE {table} SET {assignments} FROM (VALUES {', '.join([one] * len(chunk))}) AS v({columns})"
                f" WHERE {table}.{pk} = v.{pk}",
                [value for row in chunk for value in row],
            )


def _changes(entry: Entry, result: EntryResult, stock_after: int, setup: selectors.TableSetup) -> tuple[str, ...]:
    """Derive the entry's fields anew; the names of those that changed."""
    old = [getattr(entry, _attname(name)) for name in DERIVED_FIELDS]
    _set_derived(entry, result, stock_after, setup)
    return tuple(name for name, was in zip(DERIVED_FIELDS, old, strict=True) if getattr(entry, _attname(name)) != was)


def _attname(name: str) -> str:
    return f"{name}_id" if name in ("declarer", "partner") else name


def _write_ledger(table: Table, wanted: list[tuple[Entry, list[LedgerRow]]]) -> None:
    """Make the ledger rows of these entries what the fold says, touching only rows that differ:
    an amount, role or outcome is updated in place (``_update_rows``); a row
    that is missing is created, one that should not be there is deleted."""
    ids = {entry.pk for entry, _ in wanted}
    stored = {
        (entry_id, member): (pk, amount, role, won)
        for pk, entry_id, member, amount, role, won in LedgerEntry.objects.filter(table=table).values_list(
            "pk", "entry_id", "member_id", "amount", "role", "won"
        )
        if entry_id in ids
    }
    updates, missing, keep = [], [], set()
    for entry, rows in wanted:
        for member, amount, role, won in rows:
            row = stored.get((entry.pk, member))
            if row is None:
                missing.append((entry, (member, amount, role, won)))
                continue
            keep.add(row[0])
            if row[1:] != (amount, role, won):
                updates.append((row[0], amount, str(role), won))
    extra = [row[0] for row in stored.values() if row[0] not in keep]
    if extra:
        LedgerEntry.objects.filter(pk__in=extra).delete()
    if missing:
        LedgerEntry.objects.bulk_create(
            ledger for entry, row in missing for ledger in _ledger_models(entry, [row], table)
        )
    if updates:
        _update_rows(LedgerEntry, ("amount", "role", "won"), updates)


def _audit(
    table: Table,
    number: int,
    action: str,
    user: User,
    *,
    before: Any = None,
    after: Any = None,
    reason: str = "",
) -> None:
    AuditEntry.objects.create(
        table=table,
        session=table.session,
        number=number,
        action=action,
        before=before,
        after=after,
        reason=reason.strip()[:200],
        user=_user(user),
    )
