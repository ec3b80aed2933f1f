"""``manage.py rank_open`` (spec §5): an open tournament in, ranking, round winners and prizes
out; invalid input prints the error object, one line on stderr, and exits 2. No database."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.commands import manage

OPEN: dict[str, Any] = {
    "ruleset": "standard",
    "players": [{"number": n, "name": name} for n, name in enumerate(["Anna", "Bert", "Cilli", "Done"], start=1)],
    "rounds": [
        {
            "tables": [
                {
                    "players": [1, 2, 3, 4],
                    "hands": [{"game": "solo", "declarer": "Cilli", "suit": "gras", "augen": 90}],
                }
            ]
        },
        {
            "tables": [
                {
                    "players": [4, 3, 2, 1],
                    "totals": {"1": 40, "2": -40, "3": 0, "4": 0},
                    "soli": {"1": 0, "2": 1, "3": 0, "4": 0},
                }
            ]
        },
    ],
    "seed": 7,
    "prizes": {"pot": 10000, "shares": [60, 40]},
}


def test_rank_open_prints_ranking_round_winners_and_prizes() -> None:
    done = manage("rank_open", stdin=json.dumps(OPEN))
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(done.stdout)
    assert set(result) == {"unit", "ranking", "round_winners", "prizes", "tie_breaks", "seed"}
    # Round 1 by hands: Cilli's Solo (standard: 50 from each); round 2 by the sheet's totals.
    assert [(row["place"], row["name"], row["points"], row["rounds"], row["soli"]) for row in result["ranking"]] == [
        (1, "Cilli", 150, [150, 0], 1),
        (2, "Anna", -10, [-50, 40], 0),
        (3, "Done", -50, [-50, 0], 0),
        (4, "Bert", -90, [-50, -40], 1),
    ]
    assert result["round_winners"] == [
        {"round": 1, "number": 3, "name": "Cilli", "points": 150},
        {"round": 2, "number": 1, "name": "Anna", "points": 40},
    ]
    assert result["prizes"] == [{"place": 1, "number": 3, "amount": 6000}, {"place": 2, "number": 1, "amount": 4000}]


@pytest.mark.parametrize(
    ("raw", "code", "field"),
    [
        ("[]", "invalid_type", None),
        ("{not json", "invalid_json", None),
        (
            json.dumps({**OPEN, "rounds": [{"tables": [{"players": [1, 2, 3, 4], "totals": {}}]}]}),
            "missing_field",
            "rounds[0].tables[0].totals.1",
        ),
        (json.dumps({**OPEN, "prizes": {"pot": "viel", "shares": [50]}}), "invalid_type", "prizes.pot"),
    ],
)
def test_invalid_input_prints_the_error_object_and_exits_2(raw: str, code: str, field: str | None) -> None:
    done = manage("rank_open", stdin=raw)
    assert done.returncode == 2
    error = json.loads(done.stdout)["error"]
    assert (error["code"], error["field"]) == (code, field)
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
