"""``deploy/backup.py`` writes what only the server's user may read (issue 22, finding 8): the
backups hold every login's password hash."""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

from django.conf import settings


def test_a_backup_is_written_0600_into_a_folder_0700_whatever_the_umask(tmp_path: Path) -> None:
    database = tmp_path / "db.sqlite3"
    with sqlite3.connect(database) as connection:
        connection.execute("create table t (x)")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    env |= {"DJANGO_ENV_FILE": os.devnull, "DJANGO_DEBUG": "1", "DATABASE_URL": f"sqlite:///{database}"}
    folder = tmp_path / "backups"
    folder.mkdir(mode=0o755)  # an existing folder others could read is closed as well
    old = os.umask(0o022)
    try:
        result = subprocess.run(
            [sys.executable, "deploy/backup.py", "--dir", str(folder)],
            cwd=settings.BASE_DIR,
            env=env,
            capture_output=True,
            text=True,
        )
    finally:
        os.umask(old)
    assert result.returncode == 0, result.stderr
    written = Path(result.stdout.strip())
    assert written.parent == folder and written.exists()
    assert stat.S_IMODE(written.stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
