"""Where ``manage.py bench`` runs: a database of its own and settings it can run under.

The bench writes hundreds of thousands of rows. It never writes them into a database it did not
create: ``temporary_database`` makes a new one beside the configured one (a file in a temporary
folder for SQLite, a new database ``bench_…`` on the same PostgreSQL server), migrates it,
points the connection at it for the run, and drops it afterwards. The configured database is
only used, on PostgreSQL, to connect to the server; nothing is written into it.

``bench_settings`` lets the bench run under production settings (DEBUG off) without a traceback:
a throwaway secret key when none is set (the bench's sessions live in its own database), its
host names allowed, and the static files collected into a temporary folder, so the pages it
times render with the production manifest as a served site does.
"""

from __future__ import annotations

import secrets
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.db import connections
from django.test.utils import override_settings


@dataclass(frozen=True)
class BenchDatabase:
    vendor: str
    name: str  # the file (SQLite) or the database name (PostgreSQL)
    url: str  # for a server process in the same database (the concurrent bench)


def _url(settings_dict: dict[str, object], name: str) -> str:
    if settings_dict["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{name}"
    user, password = settings_dict.get("USER") or "", settings_dict.get("PASSWORD") or ""
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host, port = settings_dict.get("HOST") or "", settings_dict.get("PORT") or ""
    return f"postgres://{auth}{host}{':' + str(port) if port else ''}/{name}"


@contextmanager
def temporary_database(keep: bool = False) -> Iterator[BenchDatabase]:
    """A new, migrated database for the run, dropped afterwards unless ``keep``."""
    connection = connections["default"]
    settings_dict = connection.settings_dict
    folder = Path(tempfile.mkdtemp(prefix="schafkopf-bench-"))
    if connection.vendor == "sqlite":
        name = str(folder / "bench.sqlite3")
    elif connection.vendor == "postgresql":
        name = f"bench_{uuid.uuid4().hex[:12]}"  # a name nobody else uses: nothing is clobbered
    else:
        raise RuntimeError(f"bench: no temporary database for {connection.vendor}")
    old_name = settings_dict["NAME"]
    test_settings = settings_dict.setdefault("TEST", {})
    old_test_name = test_settings.get("NAME")
    test_settings["NAME"] = name
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        yield BenchDatabase(connection.vendor, name, _url(settings_dict, name))
    finally:
        if keep:
            connection.close()
            settings.DATABASES["default"]["NAME"] = settings_dict["NAME"] = old_name
        else:
            connection.creation.destroy_test_db(old_name, verbosity=0, keepdb=False)
            shutil.rmtree(folder, ignore_errors=True)
        test_settings["NAME"] = old_test_name


@contextmanager
def bench_settings(hosts: tuple[str, ...] = ("localhost", "127.0.0.1")) -> Iterator[Path]:
    """Production settings the bench can run under (see the module's docstring); yields the
    folder of the collected static files."""
    static_root = Path(tempfile.mkdtemp(prefix="schafkopf-bench-static-"))
    if not _has_secret_key():
        # For this process only (override_settings would read the empty key back on exit).
        settings.SECRET_KEY = secrets.token_urlsafe(50)
    try:
        with override_settings(
            DEBUG=False,
            ALLOWED_HOSTS=[*settings.ALLOWED_HOSTS, *hosts],
            STATIC_ROOT=static_root,
            WHITENOISE_USE_FINDERS=False,
            WHITENOISE_AUTOREFRESH=False,
            STORAGES={
                **settings.STORAGES,
                # Hashed names as in production; no compressed copies, which only serving them would use and
                # which cost the run seconds (Pyodide's wasm).
                "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
            },
        ):
            call_command("collectstatic", interactive=False, verbosity=0)
            yield static_root
    finally:
        shutil.rmtree(static_root, ignore_errors=True)


def _has_secret_key() -> bool:
    try:
        return bool(settings.SECRET_KEY)
    except Exception:  # noqa: BLE001 - Django raises ImproperlyConfigured for an empty key
        return False
