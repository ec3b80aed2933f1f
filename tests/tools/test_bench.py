"""``manage.py bench``: every figure, in a database of its own, under production settings, and
``--concurrent``: many phones at once against gunicorn, nothing lost or doubled, zero-sum."""

from __future__ import annotations

import hashlib
import io
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection

KEYS = {
    "engine_hands_per_s",
    "standings_ms",
    "standings_floor_ms",
    "skat_standings_ms",
    "hand_entry_ms",
    "replay_ms",
    "import_ms",
    "import_save_wait_ms",
    "import_refusal_ms",
    "pdf_ms",
    "xlsx_ms",
    "open_draw_s",
    "open_rank_ms",
    "open_rank_page_ms",
    "open_ranking_pdf_ms",
}
PRESETS = {
    "standard",
    "allgaeu",
    "allgaeu-meisterschaft",
    "reiner-schafkopf",
    "saukopf",
    "doppelkopf",
    "skat",
    "skat-seeger",
}


def production_bench(database_url: str, *args: str) -> dict:
    """bench as an admin runs it on a server: DEBUG off, no secret key, no allowed hosts, no
    collected static files, the machine's .env ignored."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    env |= {"DATABASE_URL": database_url, "DJANGO_ENV_FILE": os.devnull}
    result = subprocess.run(
        [sys.executable, "manage.py", "bench", *args, "--json"],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    return json.loads(result.stdout)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.long(20)
def test_bench_prints_every_figure_and_leaves_the_configured_database_alone(tmp_path: Path) -> None:
    configured = tmp_path / "club.sqlite3"
    with sqlite3.connect(configured) as db:
        db.execute("CREATE TABLE club_data (note TEXT)")
        db.execute("INSERT INTO club_data VALUES ('the real club')")
    before = digest(configured)
    result = production_bench(
        f"sqlite:///{configured}", "--hands", "300", "--runs", "1", "--entry-hands", "5", "--sample"
    )
    assert set(result) >= KEYS
    assert set(result["engine_by_preset"]) == PRESETS
    assert result["engine_hands_per_s"] == min(result["engine_by_preset"].values()) > 0
    assert all(isinstance(result[key], float) and result[key] > 0 for key in KEYS - {"engine_hands_per_s"})
    assert result["entries"] == 300 and result["ledger_rows"] >= 4 * 300
    assert digest(configured) == before  # not one byte written into the club's database
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club.sqlite3"]


def test_engine_only() -> None:
    out = io.StringIO()
    call_command("bench", "--engine-only", "--hands", "200", "--json", stdout=out)
    result = json.loads(out.getvalue())
    assert set(result) == {"engine_hands_per_s", "engine_by_preset"}
    assert set(result["engine_by_preset"]) == PRESETS


def database_url_for_this_run(tmp_path: Path) -> str:
    """PostgreSQL when the suite runs on it (the bench makes its own database on that server),
    otherwise an SQLite file that the bench must leave alone."""
    if connection.vendor == "postgresql":
        db = connection.settings_dict
        auth = f"{db['USER']}:{db['PASSWORD']}@" if db.get("PASSWORD") else f"{db['USER']}@"
        return f"postgres://{auth}{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    return f"sqlite:///{tmp_path / 'club.sqlite3'}"


def bench_databases() -> set[str]:
    if connection.vendor != "postgresql":
        return set()
    with connection.cursor() as cursor:
        cursor.execute("SELECT datname FROM pg_database WHERE datname LIKE 'bench\\_%%'")
        return {row[0] for row in cursor.fetchall()}


@pytest.mark.long(13)
@pytest.mark.django_db
def test_concurrent_phones_lose_and_double_nothing(tmp_path: Path) -> None:
    before = bench_databases()
    result = production_bench(
        database_url_for_this_run(tmp_path), "--concurrent", "--seconds", "5", "--clients", "6", "--tables", "2"
    )
    assert result["database"] == connection.vendor
    assert result["hands_saved"] > 0 and result["entries"] == result["hands_saved"]
    assert (result["lost"], result["doubled"], result["not_zero_sum_tables"]) == (0, 0, 0)
    assert result["save_p50_ms"] > 0 and result["save_p95_ms"] >= result["save_p50_ms"]
    assert bench_databases() == before  # the bench dropped the database it made
