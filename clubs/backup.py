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
from django.db import models, transaction
from django.utils import timezone

from clubs.models import Club

FORMAT = "schafkopf-club-backup"
VERSION = 1
# Login fields a backup carries; the rest (id, staff, superuser, groups, permissions) stays behind.
USER_FIELDS = ("username", "password", "first_name", "last_name", "email", "is_active", "date_joined", "last_login")


class BackupError(Exception):
    """The document cannot be restored; the message says why, for the person at the console."""


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
        "club": {"name": club.name, "slug": club.slug, "created_at": club.created_at.isoformat()},
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
    try:
        converted = field.to_python(value)
    except ValidationError as error:
        raise BackupError(f"{where}: {' '.join(error.messages)}") from None
    if isinstance(converted, datetime.datetime) and timezone.is_naive(converted):
        raise BackupError(f"{where}: Zeitpunkt ohne Zeitzone ({value!r}).")
    return converted


def _check_header(doc: Any) -> None:
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise BackupError("Das ist keine Vereinssicherung dieser App (Feld „format“ fehlt oder stimmt nicht).")
    if doc.get("version") != VERSION:
        raise BackupError(
            f"Die Sicherung hat Version {doc.get('version')!r}; diese App liest Version {VERSION}. "
            "Mit der App-Version einspielen, die sie geschrieben hat, dann aktualisieren."
        )
    for key, kind in (("club", dict), ("users", list), ("models", dict)):
        if not isinstance(doc.get(key), kind):
            raise BackupError(f"Die Sicherung ist unvollständig: „{key}“ fehlt.")


@transaction.atomic
def import_club(doc: Any, *, slug: str | None = None, name: str | None = None) -> Restored:
    """Restore a document of ``export_club`` (see the module's docstring). ``slug`` and ``name``
    put it in under another slug and name (a copy beside the original)."""
    _check_header(doc)
    User = get_user_model()
    head = doc["club"]
    slug = slug or head.get("slug")
    if not slug or not isinstance(slug, str):
        raise BackupError("Die Sicherung nennt kein Kürzel des Vereins.")
    if Club.objects.filter(slug=slug).exists():
        raise BackupError(
            f"Einen Verein mit dem Kürzel „{slug}“ gibt es in dieser Datenbank schon; nichts eingespielt. "
            "Mit --slug ein anderes Kürzel wählen (und mit --name einen anderen Namen)."
        )
    club = Club(name=name or head.get("name") or slug, slug=slug)
    club.created_at = _value(Club._meta.get_field("created_at"), head.get("created_at"), "club.created_at")
    with _timestamps_as_given(Club):
        club.save()

    # Logins: an existing one of that name is used as it is; a missing one is created.
    users: dict[str, Any] = {}
    new_logins, existing_logins = [], []
    for i, data in enumerate(doc["users"]):
        username = data.get("username") if isinstance(data, dict) else None
        if not isinstance(username, str) or not username:
            raise BackupError(f"users[{i}]: ohne Benutzernamen.")
        user = User.objects.filter(username=username).first()
        if user is None:
            user = User(**{f: _value(User._meta.get_field(f), data.get(f), f"users[{i}].{f}") for f in USER_FIELDS})
            user.save()
            new_logins.append(username)
        else:
            existing_logins.append(username)
        users[username] = user.pk

    known = {spec.label for spec in club_models()}
    unknown = set(doc["models"]) - known
    if unknown:
        raise BackupError(f"Die Sicherung enthält Daten, die diese App nicht kennt: {', '.join(sorted(unknown))}.")
    ids: dict[type[models.Model], dict[int, Any]] = {Club: {0: club.pk}}
    count = 0
    for spec in club_models():
        rows = doc["models"].get(spec.label, [])
        ids[spec.model], added = _restore_rows(spec, rows, club, users, ids)
        count += added
    return Restored(club=club, rows=count, new_logins=new_logins, existing_logins=existing_logins)


def _restore_rows(
    spec: ClubModel,
    rows: Any,
    club: Club,
    users: dict[str, Any],
    ids: dict[type[models.Model], dict[int, Any]],
) -> tuple[dict[int, Any], int]:
    meta = spec.model._meta
    if not isinstance(rows, list):
        raise BackupError(f"{spec.label}: eine Liste erwartet.")
    fields = {f.name: f for f in meta.concrete_fields if not f.primary_key}
    m2m = {f.name: f for f in meta.many_to_many}
    objects, numbers, links = [], [], []
    for i, row in enumerate(rows):
        where = f"{spec.label}[{i}]"
        if not isinstance(row, dict) or not isinstance(row.get("id"), int):
            raise BackupError(f"{where}: ein Objekt mit „id“ erwartet.")
        extra = set(row) - set(fields) - set(m2m) - {"id"}
        if extra:
            raise BackupError(f"{where}: unbekannte Felder {', '.join(sorted(extra))}.")
        values: dict[str, Any] = {}
        for field_name, field in fields.items():
            if field.is_relation and field.related_model is Club:
                values[field.attname] = club.pk
                continue
            if field_name not in row:
                continue  # a field added after the backup was written: its default
            value = row[field_name]
            if value is None:
                values[field.attname] = None
            elif _is_user(field):
                if value not in users:
                    raise BackupError(f"{where}.{field_name}: Zugang „{value}“ fehlt unter „users“.")
                values[field.attname] = users[value]
            elif field.is_relation:
                values[field.attname] = _ref(ids, field.related_model, value, f"{where}.{field_name}")
            else:
                values[field.attname] = _value(field, value, f"{where}.{field_name}")
        objects.append(spec.model(**values))
        numbers.append(row["id"])
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
            raise BackupError(f"{spec.label}: nicht einspielbar ({error}).") from None
    for obj, targets in zip(objects, links, strict=True):
        for name, pks in targets.items():
            getattr(obj, name).set(pks)
    return {number: obj.pk for number, obj in zip(numbers, objects, strict=True)}, len(objects)


def _ref(ids: dict[type[models.Model], dict[int, Any]], model: type[models.Model], value: Any, where: str) -> Any:
    try:
        return ids[model][value]
    except (KeyError, TypeError):
        raise BackupError(f"{where}: verweist auf {model._meta.label_lower} {value!r}, den es nicht gibt.") from None
