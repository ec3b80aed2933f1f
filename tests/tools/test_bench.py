"""``manage.py bench`` on a tiny history prints every figure the issue asks for."""

import io
import json

from django.core.management import call_command

KEYS = {
    "engine_hands_per_s",
    "standings_ms",
    "standings_floor_ms",
    "hand_entry_ms",
    "replay_ms",
    "pdf_ms",
    "xlsx_ms",
}
PRESETS = {"standard", "allgaeu", "allgaeu-meisterschaft", "reiner-schafkopf", "saukopf", "doppelkopf"}


def run(*args: str) -> dict:
    out = io.StringIO()
    call_command("bench", *args, stdout=out)
    return json.loads(out.getvalue())


def test_bench_prints_every_figure(db: None) -> None:
    result = run("--hands", "300", "--runs", "1", "--entry-hands", "5", "--json")
    assert set(result) >= KEYS
    assert set(result["engine_by_preset"]) == PRESETS
    assert result["engine_hands_per_s"] == min(result["engine_by_preset"].values()) > 0
    assert all(isinstance(result[key], float) and result[key] > 0 for key in KEYS - {"engine_hands_per_s"})
    assert result["standings_sql_ms"] > 0
    assert result["entries"] == 300 and result["ledger_rows"] >= 4 * 300
    # A second run replaces the bench clubs instead of adding to them.
    assert run("--hands", "300", "--runs", "1", "--entry-hands", "5", "--json")["ledger_rows"] == result["ledger_rows"]


def test_engine_only(db: None) -> None:
    result = run("--engine-only", "--hands", "200", "--json")
    assert set(result) == {"engine_hands_per_s", "engine_by_preset"}
    assert set(result["engine_by_preset"]) == PRESETS
