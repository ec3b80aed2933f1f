"""Skat through the spec's commands (``call_command``, as the shell runs them): ``score_hand``,
``score_session`` and ``rank_open`` print what the pure engine computes; bad input prints the
error object naming the field, one line on standard error, and exits 2; ``rulesets`` lists both
Skat presets with every option and its default."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.hostile import run_command

SEATS = ["Anna", "Bert", "Cilli"]


def run(command: str, doc: Any) -> tuple[int, Any, str]:
    code, out, err = run_command(command, json.dumps(doc).encode())
    return code, json.loads(out), err


def test_score_hand_prints_value_list_and_lines() -> None:
    doc = {
        "ruleset": "skat-seeger",
        "seats": SEATS,
        "sitting_out": "Done",
        "game": "grand",
        "declarer": "Anna",
        "spitzen": 4,
        "hand": True,
        "announced": "schneider",
        "augen": 89,
    }
    code, out, _err = run("score_hand", doc)
    assert code == 0
    assert (out["value"], out["won"], out["overbid"], out["list"]) == (192, False, False, {"Anna": -384})
    assert out["payouts"] == {"Anna": -434, "Bert": 30, "Cilli": 30, "Done": 30}
    assert out["lines"][0] == {"label": "Grundwert Grand 24"}


def test_score_session_prints_list_and_games() -> None:
    doc = {
        "ruleset": {"preset": "skat", "options": {"cents_per_point": 10, "verlustspielgeld": True}},
        "players": ["Anna", "Bert", "Cilli", "Done"],
        "hands": [
            {"game": "kreuz", "declarer": "Bert", "spitzen": 2, "augen": 75},
            {"game": "null", "declarer": "Cilli", "result": "lost"},
        ],
    }
    code, out, _err = run("score_session", doc)
    assert code == 0
    assert out["unit"] == "cent"
    assert out["list"] == {"Anna": 0, "Bert": 36, "Cilli": -46, "Done": 0}
    assert out["games"]["Cilli"] == {"won": 0, "lost": 1}
    assert out["totals"] == {"Anna": 100, "Bert": 1540, "Cilli": -1740, "Done": 100}
    assert out["verlustspielgeld"] == {"Anna": 0, "Bert": 0, "Cilli": 50, "Done": 0}
    assert [h["sitting_out"] for h in out["hands"]] == [["Anna"], ["Bert"]]


def test_rank_open_prints_the_preisskat_ranking() -> None:
    doc = {
        "ruleset": "skat-seeger",
        "players": [{"number": n, "name": name} for n, name in enumerate(SEATS, start=1)],
        "rounds": [
            {
                "tables": [
                    {
                        "players": [1, 2, 3],
                        "points": {"1": 120, "2": -40, "3": 0},
                        "won": {"1": 3, "2": 1, "3": 0},
                        "lost": {"1": 0, "2": 1, "3": 0},
                    }
                ]
            }
        ],
    }
    code, out, _err = run("rank_open", doc)
    assert code == 0
    assert [(r["place"], r["number"], r["points"], r["won"], r["lost"]) for r in out["ranking"]] == [
        (1, 1, 120 + 150 + 40, 3, 0),
        (2, 3, 40, 0, 0),
        (3, 2, -40, 1, 1),
    ]


@pytest.mark.parametrize(
    ("command", "doc", "field"),
    [
        (
            "score_hand",
            {
                "ruleset": "skat",
                "seats": SEATS,
                "game": "kreuz",
                "declarer": "Anna",
                "spitzen": 2,
                "announced": "schneider",
                "augen": 95,
            },
            "announced",
        ),
        (
            "score_hand",
            {"ruleset": "skat", "seats": SEATS, "game": "null", "declarer": "Anna", "result": "won", "bid": 24},
            "bid",
        ),
        (
            "score_hand",
            {"ruleset": "skat", "seats": SEATS, "game": "kreuz", "declarer": "Anna", "spitzen": 12, "augen": 70},
            "spitzen",
        ),
        (
            "score_hand",
            {"ruleset": "skat-seeger", "seats": SEATS, "game": "kreuz", "declarer": "Anna", "spitzen": 1, "augen": 121},
            "augen",
        ),
        (
            "score_hand",
            {
                "ruleset": "skat",
                "seats": SEATS,
                "game": "kreuz",
                "declarer": "Anna",
                "spitzen": 1,
                "augen": 70,
                "bid": 17,
            },
            "bid",
        ),
        (
            "score_session",
            {
                "ruleset": "skat",
                "players": SEATS,
                "hands": [
                    {"game": "kreuz", "declarer": "Bert", "spitzen": 1, "augen": 70},
                    {"game": "grand", "declarer": "Cilli", "spitzen": 5, "augen": 70},
                ],
            },
            "hands[1].spitzen",
        ),
        (
            "rank_open",
            {
                "ruleset": "skat-seeger",
                "players": [{"number": 1, "name": "Anna"}],
                "rounds": [],
                "tie_breaks": ["soli"],
            },
            "tie_breaks[0]",
        ),
    ],
)
def test_bad_skat_input_prints_the_error_object_and_exits_2(command: str, doc: dict[str, Any], field: str) -> None:
    code, out, err = run(command, doc)
    assert code == 2
    assert out["error"]["field"] == field and out["error"]["message"] and out["error"]["code"]
    assert err.count("\n") == 1 and "Traceback" not in err


def test_rulesets_lists_the_skat_presets_with_options_and_defaults() -> None:
    code, out, _err = run_command("rulesets", b"")
    assert code == 0
    rulesets = json.loads(out)
    skat, seeger = rulesets["skat"], rulesets["skat-seeger"]
    assert (skat["family"], skat["unit"], skat["seats"]) == ("skat", "point", [3])
    assert seeger["unit"] == "point" and "cents_per_point" not in seeger["options"]
    for name, default in {
        "kontra_re": False,
        "bock": [],
        "ramsch": False,
        "schieberamsch": False,
        "spitzen_only_buben": False,
        "cents_per_point": None,
    }.items():
        assert skat["options"][name]["default"] == default, name
    assert skat["options"]["bock"]["choices"] == ["6060", "kontra_re_lost", "grand_hand_won", "hundred"]
    assert skat["table_options"]["verlustspielgeld"]["default"] is False
    assert skat["table_options"]["verlustspielgeld_first"]["default"] == 50
    assert skat["table_options"]["verlustspielgeld_later"]["default"] == 100
    assert seeger["table_options"]["verlustspielgeld_first_games"]["default"] == 3
