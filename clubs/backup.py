"""A club's backup: everything of one club as one versioned JSON document, and its restore.

``export_club`` walks every model of the project that reaches ``Club`` through foreign keys
(members, logins' roles, rules, evenings, tables, seats, entries, ledger, audit, Kasse,
championships, draws, Partien, playoffs, adjustments — and whatever model a later change adds),
so no field list is kept twice. Each row is written with every concrete field:

- its own id, renumbered 1, 2, … per model in id order (the file does not depend on the ids of the
  database it came from, so exporting a restored club gives the same document again);
- a reference to another row of the club as that row's number in the file; to the club itself
  not at all; to a login as its username (the logins follow in ``users``);
- dates and times in ISO 8601 with microseconds and offset, JSON as it is stored.

``import_club`` restores the document in one transaction: the club (under its slug, or another
given one; a slug in use is refused), the logins it names that the database does not have yet
(with their password hashes; an existing login of that name is used as it is, password and all),
then every model in foreign-key order with its timestamps as exported. Anything wrong with the
document raises ``BackupError`` and stores nothing.

Not carried: staff and superuser flags (a backup must not make anyone an administrator),
login throttling records, sessions.
"""

from __future__ import annotations

import datetime
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, models, transaction
from django.db.backends.base.operations import BaseDatabaseOperations
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from clubs.logins import canonical_username, find_login
from clubs.models import Club
from clubs.plaintext import text_problem

FORMAT = "schafkopf-club-backup"
VERSION = 1
# Login fields a backup carries; the rest (id, staff, superuser, groups, permissions) stays behind.
USER_FIELDS = ("username", "password", "first_name", "last_name", "email", "is_active", "date_joined", "last_login")


class BackupError(Exception):
    """The document cannot be restored; the message says why, for the person at the console,
    and ``field`` where in the document (``models.scoring.seat[3].position``)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def pending_migrations(alias: str = DEFAULT_DB_ALIAS) -> bool:
    """Whether the database lacks migrations of this code (a new one never migrated above all):
    a restore into it would fail table by table, so the commands say so first."""
    try:
        executor = MigrationExecutor(connections[alias])
        return bool(executor.migration_plan(executor.loader.graph.leaf_nodes()))
    except DatabaseError:
        return True


@dataclass(frozen=True)
class ClubModel:
    model: type[models.Model]
    path: str  # the lookup from the model to its club, e.g. "table__session__club"

    @property
    def label(self) -> str:
        return self.model._meta.label_lower


def _is_user(field: models.Field) -> bool:
    return field.is_relation and field.related_model is get_user_model()


def club_models() -> list[ClubModel]:
    """Every model that reaches ``Club`` by foreign keys, each with its shortest path, in an
    order where every model comes after the models it refers to."""
    candidates = [m for m in apps.get_models() if m is not Club and not m._meta.auto_created]
    paths: dict[type[models.Model], str] = {Club: ""}
    # Breadth first from Club backwards along the foreign keys: the shortest path wins. Only
    # required keys count first (an entry's declarer is empty for an event, its table never is);
    # a model reachable only through optional ones comes in the second round.
    for allow_null in (False, True):
        queue: deque[type[models.Model]] = deque(paths)
        while queue:
            target = queue.popleft()
            for model in candidates:
                if model in paths:
                    continue
                for field in model._meta.concrete_fields:
                    if field.is_relation and field.related_model is target and (allow_null or not field.null):
                        paths[model] = f"{field.name}__{paths[target]}" if paths[target] else field.name
                        queue.append(model)
                        break
    found = {model: path for model, path in paths.items() if model is not Club}
    ordered: list[ClubModel] = []
    done: set[type[models.Model]] = {Club}
    while len(ordered) < len(found):
        ready = [
            model
            for model in found
            if model not in done and all(dep in done or dep not in found for dep in _dependencies(model))
        ]
        if not ready:
            raise BackupError("Die Modelle verweisen im Kreis aufeinander; so lässt sich kein Verein sichern.")
        for model in sorted(ready, key=lambda m: m._meta.label_lower):
            ordered.append(ClubModel(model, found[model]))
            done.add(model)
    return ordered


def _dependencies(model: type[models.Model]) -> set[type[models.Model]]:
    fields = [*model._meta.concrete_fields, *model._meta.many_to_many]
    return {f.related_model for f in fields if f.is_relation and f.related_model is not model}


# --- export ---------------------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    return value


def export_club(club: Club) -> dict[str, Any]:
    """The whole club as one JSON-ready document (see the module's docstring)."""
    User = get_user_model()
    specs = club_models()
    numbers: dict[type[models.Model], dict[Any, int]] = {Club: {club.pk: 0}}
    rows_by_model: dict[str, list[dict[str, Any]]] = {}
    user_ids: set[Any] = set()
    usernames = dict(User.objects.values_list("pk", "username"))
    for spec in specs:
        objects = list(spec.model._default_manager.filter(**{spec.path: club}).order_by("pk"))
        numbers[spec.model] = {obj.pk: i for i, obj in enumerate(objects, start=1)}
        rows = []
        for obj in objects:
            row: dict[str, Any] = {"id": numbers[spec.model][obj.pk]}
            for field in spec.model._meta.concrete_fields:
                if field.primary_key:
                    continue
                value = getattr(obj, field.attname)
                if field.is_relation and field.related_model is Club:
                    continue
                if _is_user(field):
                    if value is not None:
                        user_ids.add(value)
                    row[field.name] = usernames.get(value) if value is not None else None
                elif field.is_relation:
                    row[field.name] = None if value is None else numbers[field.related_model][value]
                else:
                    row[field.name] = _plain(value)
            for field in spec.model._meta.many_to_many:
                target = numbers[field.related_model]
                row[field.name] = sorted(target[pk] for pk in getattr(obj, field.name).values_list("pk", flat=True))
            rows.append(row)
        rows_by_model[spec.label] = rows
    users = [
        {name: _plain(getattr(user, name)) for name in USER_FIELDS}
        for user in User.objects.filter(pk__in=user_ids).order_by("username")
    ]
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "club": {
            "name": club.name,
            "slug": club.slug,
            "created_at": club.created_at.isoformat(),
            "language": club.language,
            "game": club.game,
        },
        "users": users,
        "models": rows_by_model,
    }


# --- import ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Restored:
    club: Club
    rows: int
    new_logins: list[str]
    existing_logins: list[str]
    # model label → database id → the row's number in the file, to name a row of the file
    numbers: dict[str, dict[Any, int]]


@contextmanager
def _timestamps_as_given(model: type[models.Model]) -> Iterator[None]:
    """Let ``auto_now``/``auto_now_add`` fields keep the exported times while the rows are
    inserted (Django would stamp them with now). Only for the duration of one bulk insert."""
    fields = [f for f in model._meta.concrete_fields if _is_automatic(f)]
    saved = [(f, f.auto_now, f.auto_now_add) for f in fields]
    for field in fields:
        field.auto_now = field.auto_now_add = False
    try:
        yield
    finally:
        for field, auto_now, auto_now_add in saved:
            field.auto_now, field.auto_now_add = auto_now, auto_now_add


def _is_automatic(field: models.Field) -> bool:
    return bool(getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False))


def _value(field: models.Field, value: Any, where: str) -> Any:
    """The value as the field stores it, checked as a form would check it: its type, its
    validators (length, slug, e-mail, the database's integer range), its choices, and for text
    the rule of ``clubs.plaintext`` (one line in a ``CharField``). Anything else is refused."""
    if isinstance(field, models.CharField | models.TextField) and not isinstance(value, str):
        raise BackupError(f"{where}: ein Text erwartet, nicht {_kind(value)}.", where)
    if isinstance(field, models.IntegerField | models.BooleanField | models.FloatField) and not (
        isinstance(value, int | float) and (isinstance(value, bool) == isinstance(field, models.BooleanField))
    ):
        raise BackupError(
            f"{where}: {'ein Wahrheitswert' if isinstance(field, models.BooleanField) else 'eine Zahl'}"
            f" erwartet, nicht {_kind(value)}.",
            where,
        )
    try:
        converted = field.to_python(value)
        if field.choices and converted not in {
            str(key) if isinstance(key, str) else key for key, _ in field.flatchoices
        }:
            raise BackupError(f"{where}: „{_short(value)}“ ist keine der erlaubten Angaben.", where)
        field.run_validators(converted)
        _check_range(field, converted, where)
    except ValidationError as error:
        raise BackupError(f"{where}: {' '.join(error.messages)}", where) from None
    except (TypeError, ValueError):  # a parser handed a type it does not take (a date as a number)
        raise BackupError(f"{where}: „{_short(value)}“ ist kein gültiger Wert.", where) from None
    if isinstance(converted, str):
        problem = text_problem(converted, multiline=isinstance(field, models.TextField))
        if problem:
            raise BackupError(f"{where}: {problem}", where)
    if isinstance(converted, datetime.datetime) and timezone.is_naive(converted):
        raise BackupError(f"{where}: Zeitpunkt ohne Zeitzone ({_short(value)}).", where)
    return converted


def _check_range(field: models.Field, value: Any, where: str) -> None:
    """The integer range of the field's type on every database: SQLite stores any 64-bit number in
    a small integer column, PostgreSQL refuses it; a backup must mean the same on both."""
    if not isinstance(value, int) or not isinstance(field, models.IntegerField):
        return
    low, high = BaseDatabaseOperations.integer_field_ranges.get(field.get_internal_type(), (None, None))
    if (low is not None and value < low) or (high is not None and value > high):
        raise BackupError(f"{where}: {value} liegt außerhalb von {low} bis {high}.", where)


def _kind(value: Any) -> str:
    return {dict: "ein Objekt", list: "eine Liste", str: "ein Text", bool: "ein Wahrheitswert"}.get(
        type(value), "eine Zahl" if isinstance(value, int | float) else "leer"
    )


def _check_header(doc: Any) -> None:
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise BackupError(
            "Das ist keine Vereinssicherung dieser App (Feld „format“ fehlt oder stimmt nicht).", "format"
        )
    if doc.get("version") != VERSION:
        raise BackupError(
            f"Die Sicherung hat Version {_short(doc.get('version'), 20)}; diese App liest Version {VERSION}. "
            "Mit der App-Version einspielen, die sie geschrieben hat, dann aktualisieren.",
            "version",
        )
    for key, kind in (("club", dict), ("users", list), ("models", dict)):
        if not isinstance(doc.get(key), kind):
            raise BackupError(f"Die Sicherung ist unvollständig: „{key}“ fehlt.", key)


@transaction.atomic
def import_club(doc: Any, *, slug: str | None = None, name: str | None = None) -> Restored:
    """Restore a document of ``export_club`` (see the module's docstring). ``slug`` and ``name``
    put it in under another slug and name (a copy beside the original). Every value is checked
    as a form checks it (``_value``); what only the apps above can check (a table's log against
    its ledger) is ``scoring.restore``'s part, in the same transaction."""
    _check_header(doc)
    User = get_user_model()
    head = doc["club"]
    slug = slug if slug is not None else head.get("slug")
    where = "slug" if slug is not None and slug != head.get("slug") else "club.slug"
    if not isinstance(slug, str) or not slug:
        raise BackupError("Die Sicherung nennt kein Kürzel des Vereins.", where)
    club_meta = Club._meta
    slug = _value(club_meta.get_field("slug"), slug, where)  # a SlugField: validate_slug, max_length
    if Club.objects.filter(slug=slug).exists():
        raise BackupError(
            f"Einen Verein mit dem Kürzel „{slug}“ gibt es in dieser Datenbank schon; nichts eingespielt. "
            "Mit --slug ein anderes Kürzel wählen (und mit --name einen anderen Namen).",
            where,
        )
    name_where = "name" if name is not None else "club.name"
    club_name = name if name is not None else head.get("name")
    club_name = _value(club_meta.get_field("name"), club_name, name_where).strip()
    if not club_name:
        raise BackupError(f"{name_where}: Der Verein braucht einen Namen.", name_where)
    club = Club(name=club_name, slug=slug)
    if head.get("language") is not None:  # a backup from before the club had a language keeps the default
        club.language = _value(club_meta.get_field("language"), head["language"], "club.language")
    if head.get("game") is not None:  # a backup from before the club chose a game: Schafkopf, as it was
        club.game = _value(club_meta.get_field("game"), head["game"], "club.game")
    club.created_at = _value(club_meta.get_field("created_at"), head.get("created_at"), "club.created_at")
    with _timestamps_as_given(Club):
        club.save()

    # Logins: an existing one of that name (compared as ``clubs.logins`` compares) is used as it
    # is; a missing one is created.
    users: dict[str, Any] = {}
    canonical: set[str] = set()
    new_logins, existing_logins = [], []
    for i, data in enumerate(doc["users"]):
        where = f"users[{i}]"
        if not isinstance(data, dict):
            raise BackupError(f"{where}: ein Objekt erwartet.", where)
        extra = set(data) - set(USER_FIELDS)
        if extra:
            raise BackupError(f"{where}: unbekannte Felder {', '.join(sorted(extra))}.", where)
        username = data.get("username")
        if not isinstance(username, str) or not username:
            raise BackupError(f"{where}: ohne Benutzernamen.", f"{where}.username")
        key = canonical_username(username)
        if key in canonical:
            raise BackupError(
                f"{where}.username: „{_short(username)}“ steht zweimal unter „users“.", f"{where}.username"
            )
        canonical.add(key)
        values = {}
        for f in USER_FIELDS:
            field = User._meta.get_field(f)
            value = data.get(f)
            if value is None and not field.null:
                raise BackupError(f"{where}.{f}: fehlt.", f"{where}.{f}")
            values[f] = None if value is None else _value(field, value, f"{where}.{f}")
        user = find_login(username)
        if user is None:
            user = User(**values)
            user.save()
            new_logins.append(username)
        else:
            existing_logins.append(username)
        users[username] = user.pk

    known = {spec.label for spec in club_models()}
    unknown = set(doc["models"]) - known
    if unknown:
        raise BackupError(
            f"Die Sicherung enthält Daten, die diese App nicht kennt: {', '.join(sorted(unknown))}.", "models"
        )
    ids: dict[type[models.Model], dict[int, Any]] = {Club: {0: club.pk}}
    count = 0
    copy = slug != head.get("slug")  # beside the original, which keeps its keys
    for spec in club_models():
        rows = doc["models"].get(spec.label, [])
        ids[spec.model], added = _restore_rows(spec, rows, club, users, ids, copy=copy)
        count += added
    _check_invitations(club)
    numbers = {
        model._meta.label_lower: {pk: number for number, pk in by_number.items()}
        for model, by_number in ids.items()
        if model is not Club
    }
    return Restored(club=club, rows=count, new_logins=new_logins, existing_logins=existing_logins, numbers=numbers)


def _check_invitations(club: Club) -> None:
    """An invitation is addressed by the canonical form of its name: a file whose stored form
    differs would let one name show and another login accept."""
    for number, (username, key) in enumerate(club.invitations.order_by("pk").values_list("username", "username_key")):
        if key != canonical_username(username):
            where = f"clubs.invitation[{number}].username_key"
            raise BackupError(f"{where}: passt nicht zum Benutzernamen „{_short(username)}“.", where)


def _restore_rows(
    spec: ClubModel,
    rows: Any,
    club: Club,
    users: dict[str, Any],
    ids: dict[type[models.Model], dict[int, Any]],
    *,
    copy: bool = False,
) -> tuple[dict[int, Any], int]:
    """The rows of one model. In a ``copy`` the fields the model names in ``FRESH_IN_A_COPY``
    (keys such as an open tournament's public token) get new values from their defaults: the
    copy's links must not open the original's pages (issue 31 §9)."""
    meta = spec.model._meta
    fresh = set(getattr(spec.model, "FRESH_IN_A_COPY", ())) if copy else set()
    if not isinstance(rows, list):
        raise BackupError(f"{spec.label}: eine Liste erwartet.", f"models.{spec.label}")
    fields = {f.name: f for f in meta.concrete_fields if not f.primary_key}
    m2m = {f.name: f for f in meta.many_to_many}
    allowed = set(fields) | set(m2m) | {"id"}
    # What each field is, worked out once per model rather than once per row.
    to_club = {name for name, f in fields.items() if f.is_relation and f.related_model is Club}
    to_user = {name for name, f in fields.items() if _is_user(f)}
    objects, numbers, links = [], [], []
    seen: set[int] = set()
    for i, row in enumerate(rows):
        where = f"{spec.label}[{i}]"
        if not isinstance(row, dict) or type(row.get("id")) is not int:
            raise BackupError(f"{where}: ein Objekt mit „id“ erwartet.", where)
        if row["id"] in seen:
            raise BackupError(f"{where}.id: die Nummer {row['id']} steht zweimal in {spec.label}.", f"{where}.id")
        seen.add(row["id"])
        extra = set(row) - allowed
        if extra:
            raise BackupError(f"{where}: unbekannte Felder {', '.join(sorted(extra))}.", where)
        values: dict[str, Any] = {}
        for field_name, field in fields.items():
            if field_name in to_club:
                values[field.attname] = club.pk
                continue
            if field_name not in row or field_name in fresh:
                continue  # a field added after the backup was written, or a new key: its default
            value = row[field_name]
            if value is None:
                if not field.null:
                    raise BackupError(f"{where}.{field_name}: darf nicht leer sein.", f"{where}.{field_name}")
                values[field.attname] = None
            elif field_name in to_user:
                if not isinstance(value, str) or value not in users:
                    raise BackupError(
                        f"{where}.{field_name}: Zugang „{_short(value)}“ fehlt unter „users“.", f"{where}.{field_name}"
                    )
                values[field.attname] = users[value]
            elif field.is_relation:
                values[field.attname] = _ref(ids, field.related_model, value, f"{where}.{field_name}")
            else:
                values[field.attname] = _value(field, value, f"{where}.{field_name}")
        objects.append(spec.model(**values))
        numbers.append(row["id"])
        for name in m2m:
            if not isinstance(row.get(name, []), list):
                raise BackupError(f"{where}.{name}: eine Liste erwartet.", f"{where}.{name}")
        links.append(
            {
                name: [_ref(ids, f.related_model, v, f"{where}.{name}") for v in row.get(name, [])]
                for name, f in m2m.items()
            }
        )
    with _timestamps_as_given(spec.model):
        try:
            spec.model._default_manager.bulk_create(objects, batch_size=1000)
        except Exception as error:  # noqa: BLE001 - a broken file must not end in a traceback
            # A constraint of the database (two seats at one place, a name twice in the club):
            # the transaction is rolled back as a whole by the caller.
            first = str(error).splitlines()[0][:300] if str(error) else type(error).__name__
            raise BackupError(f"{spec.label}: nicht einspielbar ({first}).", spec.label) from None
    for obj, targets in zip(objects, links, strict=True):
        for name, pks in targets.items():
            getattr(obj, name).set(pks)
    return {number: obj.pk for number, obj in zip(numbers, objects, strict=True)}, len(objects)


def _ref(ids: dict[type[models.Model], dict[int, Any]], model: type[models.Model], value: Any, where: str) -> Any:
    try:
        return ids[model][value]
    except (KeyError, TypeError):
        shown = _short(value)
        raise BackupError(
            f"{where}: verweist auf {model._meta.label_lower} {shown}, den es nicht gibt.", where
        ) from None


def _short(value: Any, limit: int = 40) -> str:
    """A value of the file as a message may quote it: at most ``limit`` characters."""
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
