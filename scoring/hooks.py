"""Extension points for apps built on the score sheets (the championship, ``tournaments``).

The scoring app knows nothing of them; an app registers plain functions here in its
``AppConfig.ready`` and the scoring services call them inside their transaction:

- ``table_start_checks``: ``check(session, members)`` before a table of ``session`` starts;
- ``entry_append_checks``: ``check(table)`` before an entry is appended to ``table`` (once per
  call of ``entries_append``, however many entries it appends);
- ``games_left``: ``left(table) -> int | None``, how many more hands ``table`` takes (None: no
  limit), for a caller that appends many at once (the import of a paper sheet) to check first;
- ``entry_append_checks``: ``check(table)`` before an entry is appended to ``table``;
- ``table_write_checks``: ``check(table, user)`` before ``user`` changes ``table`` in any way
  (appends, corrects, deletes or undoes an entry, chooses the first dealer); refuses with
  ``PermissionDenied`` and the reason (e.g. "another login writes this table"). The pages and
  the phone's sending ask it too, through ``check_write`` (``scoring.selectors.club_table_to_write``),
  so a refused login gets a 403 before any form and the table page hides its write controls
  (``write_refusal``). ``user`` is None for a command or a test writing directly;
- ``entry_written``: ``note(table, user)`` after ``user`` appended entries to ``table``, in the
  same transaction (e.g. the first login to write at a championship table becomes its Schreiber);
- ``table_notes``: ``note(table) -> str | None``, a line the table page shows (e.g. "the next
  game is the last");
- ``table_links``: ``link(table) -> tuple[str, str] | None``, (label, address) of the page the
  table belongs to, for the table page's way back (e.g. an open tournament's round);
- ``session_locks``: ``lock(session) -> str | None``, why the evening's sheets are read-only
  whatever the evening's own state (e.g. its championship is finished), with the way forward.
  While one answers, every write to the evening is refused with that reason: an entry appended,
  corrected, deleted or undone, a table started, the evening closed or reopened. The pages show
  the reason instead of the buttons;
- ``session_unlocks``: ``unlock(session) -> tuple[str, str] | None``, (label, address) of the page
  where a club's owner lifts that lock (e.g. "Meisterschaft wieder öffnen"); the pages offer it to
  those who may manage the club, beside the reason;
- ``standings_exclusions``: ``exclude(club_id) -> Iterable[Exclusion]``, what of the club's ledger
  its standings and statistics over a period (season, month, all time) leave out: evenings
  whose rows do not count, or only the rows of some players in them (e.g. an open tournament's
  games, and its guests always, issue 31 §8). An evening's own figures count every row; this is
  read by ``standings``, not by the services.

A check refuses by raising ``ValidationError`` (or ``PermissionDenied``) with the reason; a
refused call changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from django.core.exceptions import PermissionDenied, ValidationError

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.db.models import QuerySet

    from clubs.models import Member
    from scoring.models import Session, Table

    User = AbstractBaseUser | None

table_start_checks: list[Callable[[Session, Sequence[Member]], None]] = []
entry_append_checks: list[Callable[[Table], None]] = []
games_left: list[Callable[[Table], int | None]] = []
table_write_checks: list[Callable[[Table, User], None]] = []
entry_written: list[Callable[[Table, User], None]] = []
table_notes: list[Callable[[Table], str | None]] = []
table_links: list[Callable[[Table], tuple[str, str] | None]] = []
session_locks: list[Callable[[Session], str | None]] = []
session_unlocks: list[Callable[[Session], tuple[str, str] | None]] = []


class Exclusion(NamedTuple):
    """Rows of ``sessions`` that a club's standings over a period leave out: every row, or only
    those of ``members`` (None: every player). Each is ids, or a query of one id column (it runs
    inside the standings' own query, as a subquery: no query of its own)."""

    sessions: Collection[int] | QuerySet[Any]
    members: Collection[int] | QuerySet[Any] | None = None


standings_exclusions: list[Callable[[int], Iterable[Exclusion]]] = []


def hands_left(table: Table) -> int | None:
    """The fewest more hands any registered limit lets ``table`` take; None where none limits it."""
    limits = [left for left in (limit(table) for limit in games_left) if left is not None]
    return min(limits, default=None)


def notes(table: Table) -> list[str]:
    """The registered notes for ``table``'s page."""
    return [note for note in (show(table) for show in table_notes) if note]


def links(table: Table) -> list[tuple[str, str]]:
    """The registered ways back from ``table``'s page: (label, address)."""
    return [link for link in (find(table) for find in table_links) if link]


def session_lock(session: Session) -> str | None:
    """The reason ``session`` may not change at all (the first registered lock that answers), or None."""
    return next((reason for reason in (lock(session) for lock in session_locks) if reason), None)


def unlock_link(session: Session) -> tuple[str, str] | None:
    """(label, address) of the way to lift ``session``'s lock (the first registered that answers)."""
    return next((link for link in (find(session) for find in session_unlocks) if link), None)


def exclusions(club_id: int) -> list[Exclusion]:
    """What the registered apps leave out of the club's standings over a period."""
    return [found for exclude in standings_exclusions for found in exclude(club_id)]


def check_unlocked(session: Session) -> None:
    """Refuse a write to ``session`` while a lock holds it (see ``session_locks``)."""
    reason = session_lock(session)
    if reason:
        raise ValidationError(reason)


def check_write(table: Table, user: User) -> None:
    """Raise ``PermissionDenied`` (with the reason) unless every registered check lets ``user``
    change ``table``."""
    for check in table_write_checks:
        check(table, user)


def write_refusal(table: Table, user: User) -> str | None:
    """Why ``user`` may not change ``table`` (the first refusal's message), or None."""
    try:
        check_write(table, user)
    except PermissionDenied as refused:
        return str(refused)
    return None


def written(table: Table, user: User) -> None:
    """Tell the registered apps that ``user`` appended entries to ``table``."""
    for note in entry_written:
        note(table, user)
