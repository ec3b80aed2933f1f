"""Extension points for apps built on the score sheets (the championship, ``tournaments``).

The scoring app knows nothing of them; an app registers plain functions here in its
``AppConfig.ready`` and the scoring services call them inside their transaction:

- ``table_start_checks``: ``check(session, members)`` before a table of ``session`` starts;
- ``entry_append_checks``: ``check(table)`` before an entry is appended to ``table`` (once per
  call of ``entries_append``, however many entries it appends);
- ``games_left``: ``left(table) -> int | None``, how many more hands ``table`` takes (None: no
  limit), for a caller that appends many at once (the import of a paper sheet) to check first;
- ``table_notes``: ``note(table) -> str | None``, a line the table page shows (e.g. "the next
  game is the last");
- ``session_locks``: ``lock(session) -> str | None``, why the evening's sheets are read-only
  whatever the evening's own state (e.g. its championship is finished), with the way forward.
  While one answers, every write to the evening is refused with that reason: an entry appended,
  corrected, deleted or undone, a table started, the evening closed or reopened. The pages show
  the reason instead of the buttons.

A check refuses by raising ``ValidationError`` with the reason; a refused call changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError

if TYPE_CHECKING:
    from clubs.models import Member
    from scoring.models import Session, Table

table_start_checks: list[Callable[[Session, Sequence[Member]], None]] = []
entry_append_checks: list[Callable[[Table], None]] = []
games_left: list[Callable[[Table], int | None]] = []
table_notes: list[Callable[[Table], str | None]] = []
session_locks: list[Callable[[Session], str | None]] = []


def hands_left(table: Table) -> int | None:
    """The fewest more hands any registered limit lets ``table`` take; None where none limits it."""
    limits = [left for left in (limit(table) for limit in games_left) if left is not None]
    return min(limits, default=None)


def notes(table: Table) -> list[str]:
    """The registered notes for ``table``'s page."""
    return [note for note in (show(table) for show in table_notes) if note]


def session_lock(session: Session) -> str | None:
    """The reason ``session`` may not change at all (the first registered lock that answers), or None."""
    return next((reason for reason in (lock(session) for lock in session_locks) if reason), None)


def check_unlocked(session: Session) -> None:
    """Refuse a write to ``session`` while a lock holds it (see ``session_locks``)."""
    reason = session_lock(session)
    if reason:
        raise ValidationError(reason)
