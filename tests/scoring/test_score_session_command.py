"""``manage.py score_session`` (spec §3): a whole evening in, the same document the pure fold
gives out; invalid input prints the error object, one line on standard error, and exits 2."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from scoring.engine.session import score_session_document
from tests.commands import manage

PLAYERS = ["Anna", "Bert", "Cilli", "Done", "Emil"]

EVENING: dict[str, Any] = {
    "ruleset": "allgaeu",
    "players": PLAYERS,
    "first_dealer": "Anna",
    "hands": [
        {"game": "rufspiel", "declarer": "Bert", "partner": "Cilli", "called": "eichel", "augen": 60, "deckel": 1},
        {"game": "solo", "suit": "herz", "declarer": "Cilli", "augen": 120, "tricks": 8, "deckel": 2},
        {"event": "vergeben"},
        {"game": "wenz", "declarer": "Done", "augen": 70, "laufende": 2, "deckel": 1},
        {"game": "rufspiel", "declarer": "Emil", "partner": "Anna", "augen": 80, "dealer": "Bert"},
        {"game": "mungo", "augen_by_player": {"Emil": 10, "Anna": 30, "Bert": 40, "Cilli": 40}},
        {"game": "rufspiel", "declarer": "Anna", "partner": "Bert", "augen": 45, "deckel": 1},
        {"game": "rufspiel", "declarer": "Bert", "partner": "Cilli", "augen": 75, "deckel": 1},
        {"game": "mungo", "augen_by_player": {"Cilli": 0, "Done": 20, "Emil": 40, "Anna": 60}},
        {"game": "geier", "declarer": "Done", "augen": 65},
        {"game": "solo", "suit": "eichel", "declarer": "Emil", "augen": 50},
        {"game": "farbwenz", "suit": "gras", "declarer": "Anna", "augen": 85},
        {"game": "bettel", "declarer": "Bert", "tricks": 0},
        {"game": "solo", "suit": "herz", "declarer": "Cilli", "augen": 62, "bid": 62},
    ],
}


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return manage("score_session", *args, stdin=stdin)


def test_score_session_command_scores_a_whole_evening_like_the_fold() -> None:
    done = run(stdin=json.dumps(EVENING))
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(done.stdout)
    assert result == json.loads(json.dumps(score_session_document(EVENING)))
    assert set(result) == {"unit", "hands", "totals", "stock", "pending_rounds"}
    assert [hand["round"] for hand in result["hands"]] == [
        "normal",  # 60:60: a Bockrunde
        "bockrunde",  # Schwarz: the evening's first Mungorunde, queued behind the Bockrunde
        "bockrunde",  # vergeben: 0.50 € into the Stock, a Gardareizrunde queued
        "bockrunde",
        "bockspiel",  # Bert deals out of turn (001 §8.4)
        "bockrunde",
        "bockrunde",
        "bockrunde",
        "mungorunde",
        "mungorunde",
        "mungorunde",
        "mungorunde",
        "mungorunde",
        "gardareizrunde",  # a won Herz-Solo takes the Stock
    ]
    assert result["stock"] == 0
    assert sum(result["totals"].values()) == 0
    assert result["pending_rounds"] == []
    for hand in result["hands"]:
        assert set(hand["payouts"]) == set(PLAYERS)


def test_score_session_command_reads_a_file(tmp_path: Path) -> None:
    path = tmp_path / "abend.json"
    path.write_text(json.dumps(EVENING), encoding="utf-8")
    done = run(str(path))
    assert done.returncode == 0
    assert json.loads(done.stdout)["totals"] == score_session_document(EVENING)["totals"]


def test_score_session_command_refuses_a_forbidden_hand_with_exit_2() -> None:
    bad = {**EVENING, "hands": [*EVENING["hands"][:9], {"game": "rufspiel", "declarer": "Done", "partner": "Emil"}]}
    done = run(stdin=json.dumps(bad))
    assert done.returncode == 2
    error = json.loads(done.stdout)["error"]
    assert (error["code"], error["field"]) == ("not_allowed", "hands[9].game")
    assert done.stderr.count("\n") == 1 and "hands[9].game" in done.stderr
    assert "Traceback" not in done.stderr


def test_score_session_command_refuses_broken_json() -> None:
    done = run(stdin="{")
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"]["code"] == "invalid_json"
