"""``manage.py plan_tournament`` (spec §4): the plan as JSON; invalid input prints the error object,
one line on standard error, and exits 2, never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.commands import manage
from tournaments.engine.plan import plan_document

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return manage("plan_tournament", *args)


def run_process(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DJANGO_DEBUG": "1", "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "plan_tournament", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
        check=False,
    )


def test_plan_tournament_prints_the_plan_of_the_spec() -> None:
    done = run("--players", "16")
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(done.stdout)
    assert result == json.loads(json.dumps(plan_document(16, 4, 40, 0)))
    assert {"players", "partien", "repeat_pairs", "distinct_opponents"} <= set(result)
    assert result["players"] == 16
    assert result["partien"][0] == [[1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15], [4, 8, 12, 16]]
    assert len(result["partien"]) == 4
    assert result["repeat_pairs"] == 0
    assert result["distinct_opponents"] == {str(n): 12 for n in range(1, 17)}
    assert done.stderr == ""


def test_plan_tournament_takes_partien_games_and_seed(capsys: pytest.CaptureFixture[str]) -> None:
    call_command("plan_tournament", "--players", "13", "--partien", "3", "--games", "20", "--seed", "5")
    result = json.loads(capsys.readouterr().out)
    assert result == json.loads(json.dumps(plan_document(13, 3, 20, 5)))
    assert [len(partie) for partie in result["partien"]] == [3, 3, 3]
    assert result["games_per_table"] == {"4": 20, "5": 25}


def test_same_seed_same_plan_across_processes() -> None:
    first, second = run_process("--players", "18", "--seed", "9"), run_process("--players", "18", "--seed", "9")
    assert first.returncode == second.returncode == 0
    assert first.stdout == second.stdout


@pytest.mark.parametrize(
    ("args", "code", "field"),
    [
        ((), "missing_field", "players"),
        (("--players", "abc"), "invalid_type", "players"),
        (("--players", "7"), "players_not_seatable", "players"),
        (("--players", "3"), "out_of_range", "players"),
        (("--players", "16", "--partien", "0"), "out_of_range", "partien"),
        (("--players", "13", "--games", "42"), "invalid_value", "games"),
        (("--players", "16", "--seed", "-1"), "out_of_range", "seed"),
        (("--players", "16", "--tables", "3"), "invalid_arguments", None),
    ],
)
def test_invalid_input_prints_the_error_object_and_exits_2(args: tuple[str, ...], code: str, field: str | None) -> None:
    done = run(*args)
    assert done.returncode == 2
    error = json.loads(done.stdout)["error"]
    assert (error["code"], error["field"]) == (code, field)
    assert error["message"]
    assert len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr
