"""Restoring a club backup (``manage.py import_club``): the file is checked like typed input.

``clubs.backup`` knows the document and the models and checks every value as the forms do (types,
lengths, slugs, choices, control characters, the database's integer ranges, references inside
the file). What needs the rules engine is checked here, one layer up, in the same transaction:

1. the file is read by the one safe JSON reader (``scoring.safejson``: size, nesting depth,
   number length, NUL and lone surrogates);
2. the club's default rules and every table's rules load in the engine;
3. every table's log is folded again (``services.table_differences``), and a table whose stored
   derived fields or ledger rows are not that fold (a ledger that does not sum to zero, a game
   the rules do not know, an amount edited by hand) refuses the whole file, naming the table and
   the entry.

Any refusal is an ``EngineError`` (code ``invalid_json`` from the reader, ``invalid_backup``
otherwise, ``field`` the place in the file); the transaction is rolled back, nothing is stored.

Why here and not in ``clubs``: the fold is the scoring engine's, and the reader's error is the
engine's ``EngineError`` that every JSON command prints (``scoring.jsoncommand.fail``); moving
the reader down into ``clubs`` would still leave the fold above it, and split the error type.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from clubs.backup import BackupError, Restored, import_club
from scoring import safejson, services
from scoring.engine import registry
from scoring.engine.core import EngineError
from scoring.engine.session import EntryError
from scoring.models import ClubRules, Entry, Table


def club_restore(*, data: bytes | str, slug: str | None = None, name: str | None = None) -> Restored:
    """Read, check and store a club backup (see the module's docstring); ``EngineError`` when
    anything in it is refused, and then nothing is stored."""
    doc = safejson.loads(data)
    with transaction.atomic():
        try:
            restored = import_club(doc, slug=slug, name=name)
        except BackupError as error:
            raise EngineError("invalid_backup", error.message, error.field) from None
        _check_rules(restored)
        for table in Table.objects.filter(session__club=restored.club).select_related("session").order_by("pk"):
            _check_table(table, restored)
    return restored


def _row(restored: Restored, label: str, pk: Any) -> str:
    return f"models.{label}[id={restored.numbers.get(label, {}).get(pk, '?')}]"


def _check_rules(restored: Restored) -> None:
    rules = ClubRules.objects.filter(club=restored.club).first()
    if rules is None:
        return
    try:
        registry.load_with_table(rules.spec)
    except EngineError as error:
        where = _row(restored, "scoring.clubrules", rules.pk)
        raise EngineError("invalid_backup", f"Die Vereinsregel: {error.message}", where) from None


def _check_table(table: Table, restored: Restored) -> None:
    """Fold the table again; a refusal names the table and the entry (its ``number`` at the
    table) and, as ``field``, the entry's row of the file (``models.scoring.entry[id=17]``)."""
    number = restored.numbers.get("scoring.table", {}).get(table.pk, "?")
    label = f"Tisch „{table.name}“ vom {table.session.date:%d.%m.%Y} (scoring.table id {number})"
    where = _row(restored, "scoring.table", table.pk)
    entries = dict(Entry.objects.filter(table=table).values_list("number", "pk"))

    def entry_row(entry_number: int) -> str:
        pk = entries.get(entry_number)
        return where if pk is None else _row(restored, "scoring.entry", pk)

    try:
        difference = services.table_differences(table)
    except EntryError as error:
        entry = error.index + 1
        inner = error.field.split(".", 1)[1] if error.field and "." in error.field else None
        field = f"{entry_row(entry)}.data.{inner}" if inner else entry_row(entry)
        raise EngineError("invalid_backup", f"{label}, Eintrag {entry}: {error.message}", field) from None
    except EngineError as error:
        raise EngineError("invalid_backup", f"{label}: {error.message}", where) from None
    if difference is not None:
        entry, what = difference
        at = f", Eintrag {entry}" if entry is not None else ""
        raise EngineError(
            "invalid_backup",
            f"{label}{at}: {what} Die Sicherung ist verändert oder beschädigt; nichts eingespielt.",
            where if entry is None else entry_row(entry),
        )
