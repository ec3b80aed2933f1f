"""A dated backup of the whole database, safe while the server runs (docs/operations.md, Backups).

    .venv/bin/python deploy/backup.py [--dir backups] [--keep-days 30]

The database is the one the server uses (``DATABASE_URL`` from the environment or ``.env``):
SQLite through its online backup API (a consistent copy while the app writes; copying the file is
not), PostgreSQL through ``pg_dump --format=custom``. Backups older than ``--keep-days`` in the
folder are removed. Prints the file written; exits non-zero when the backup failed, so cron mails it.

A backup holds every login's password hash: the folder is made readable by the server's user
only (0700) and every file is written 0600 (a umask of 077 while it is written, then the mode
set explicitly, so neither a lax umask nor a file that existed changes it).
"""

from __future__ import annotations

import argparse
import datetime
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def backup_sqlite(source: str, target: Path) -> None:
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)


def backup_postgresql(db: dict[str, object], target: Path) -> None:
    env = dict(os.environ)
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    args = ["pg_dump", "--format=custom", f"--file={target}", f"--dbname={db['NAME']}"]
    for flag, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if db.get(key):
            args.append(f"{flag}={db[key]}")
    subprocess.run(args, env=env, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", default=str(BASE_DIR / "backups"), help="folder for the backups (default backups/)")
    parser.add_argument("--keep-days", type=int, default=30, help="remove backups older than this (default 30)")
    args = parser.parse_args()

    from django.conf import settings  # after the environment is complete: settings read .env

    db = settings.DATABASES["default"]
    os.umask(0o077)  # whatever sqlite3 or pg_dump create: the server's user only
    folder = Path(args.dir)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    folder.chmod(0o700)
    stamp = datetime.datetime.now().strftime("%Y-%m-%d-%H%M%S")
    try:
        if db["ENGINE"].endswith("sqlite3"):
            target = folder / f"schafkopf-{stamp}.sqlite3"
            backup_sqlite(str(db["NAME"]), target)
        elif db["ENGINE"].endswith("postgresql"):
            target = folder / f"schafkopf-{stamp}.dump"
            backup_postgresql(db, target)
        else:
            sys.exit(f"backup: no backup method for {db['ENGINE']}")
        target.chmod(0o600)
    except (sqlite3.Error, subprocess.CalledProcessError, FileNotFoundError) as error:
        sys.exit(f"backup failed: {error}")
    cutoff = time.time() - args.keep_days * 86400
    for old in folder.glob("schafkopf-*"):
        if old.stat().st_mtime < cutoff:
            old.unlink()
    print(target)


if __name__ == "__main__":
    main()
