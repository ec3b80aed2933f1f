"""Extension points for apps built on the score sheets (the championship, ``tournaments``).

The scoring app knows nothing of them; an app registers plain functions here in its
``AppConfig.ready`` and the scoring services call them inside their transaction:

- ``table_start_checks``: ``check(session, members)`` before a table of ``session`` starts;
- ``entry_append_checks``: ``check(table)`` before an entry is appended to ``table``;
- ``table_notes``: ``note(table) -> str | None``, a line the table page shows (e.g. "the next
  game is the last").

A check refuses by raising ``ValidationError`` with the reason; a refused call changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from clubs.models import Member
    from scoring.models import Session, Table

table_start_checks: list[Callable[[Session, Sequence[Member]], None]] = []
entry_append_checks: list[Callable[[Table], None]] = []
table_notes: list[Callable[[Table], str | None]] = []


def notes(table: Table) -> list[str]:
    """The registered notes for ``table``'s page."""
    return [note for note in (show(table) for show in table_notes) if note]
