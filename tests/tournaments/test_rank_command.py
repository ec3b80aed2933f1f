"""``manage.py rank_tournament`` (spec §4): a championship's hands in, the ranking with every
criterion of 001 §11.3 out; invalid input prints the error object and exits 2."""

from __future__ import annotations

import json
import subprocess
from typing import Any

import pytest

from scoring.engine.session import score_session_document
from tests.commands import manage
from tournaments.engine.ranking import CRITERIA


def rufspiel(declarer: str, partner: str, augen: int) -> dict[str, Any]:
    return {
        "game": "rufspiel",
        "declarer": declarer,
        "partner": partner,
        "called": "eichel",
        "augen": augen,
        "deckel": 1,
    }


TABLE_1 = {
    "players": ["Anna", "Bert", "Cilli", "Done"],
    "hands": [
        rufspiel("Anna", "Bert", 70),
        {"game": "wenz", "declarer": "Bert", "augen": 80, "laufende": 2, "deckel": 1},
        {"game": "mungo", "augen_by_player": {"Anna": 10, "Bert": 20, "Cilli": 40, "Done": 50}},
    ],
}
TABLE_2 = {
    "players": ["Emil", "Fanny", "Gustl", "Hanni"],
    "hands": [
        {"game": "solo", "suit": "herz", "declarer": "Emil", "augen": 40, "deckel": 1},
        {"game": "bettel", "declarer": "Fanny", "tricks": 0, "deckel": 1},
    ],
}
CHAMPIONSHIP: dict[str, Any] = {
    "ruleset": "allgaeu-meisterschaft",
    "players": ["Anna", "Bert", "Cilli", "Done", "Emil", "Fanny", "Gustl", "Hanni"],
    "partien": [
        {"tables": [TABLE_1, TABLE_2]},
        {
            "tables": [
                {"players": ["Anna", "Emil", "Cilli", "Gustl"], "hands": [rufspiel("Gustl", "Cilli", 61)]},
                {"players": ["Bert", "Fanny", "Done", "Hanni"], "hands": [rufspiel("Hanni", "Done", 40)]},
            ]
        },
    ],
    "playoff": [],
}


def run(doc: Any = None, *, raw: str | None = None) -> subprocess.CompletedProcess[str]:
    return manage("rank_tournament", stdin=raw if raw is not None else json.dumps(doc))


def test_rank_tournament_prints_the_ranking_with_every_criterion() -> None:
    done = run(CHAMPIONSHIP)
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(done.stdout)
    assert set(result) == {"ranking", "ties_unresolved"}
    assert len(result["ranking"]) == 8
    for row in result["ranking"]:
        assert set(row) == {"place", "name", "points", "criteria"}
        assert list(row["criteria"]) == list(CRITERIA)
        assert row["criteria"]["points"] == row["points"]
    places = [row["place"] for row in result["ranking"]]
    assert places == sorted(places) and places[0] == 1


def test_each_table_is_scored_like_a_score_session_document() -> None:
    result = json.loads(run(CHAMPIONSHIP).stdout)
    points = {row["name"]: row["points"] for row in result["ranking"]}
    expected: dict[str, int] = dict.fromkeys(CHAMPIONSHIP["players"], 0)
    for partie in CHAMPIONSHIP["partien"]:
        for table in partie["tables"]:
            doc = {"ruleset": CHAMPIONSHIP["ruleset"], "players": table["players"], "hands": table["hands"]}
            for name, amount in score_session_document(doc)["totals"].items():
                expected[name] += amount
    assert points == expected
    bert = next(row for row in result["ranking"] if row["name"] == "Bert")
    assert bert["criteria"]["wenz_won"] == 1
    assert bert["criteria"]["normal_games_won"] == 2  # with Anna; against Hanni and Done


def test_tied_players_share_a_place_until_a_playoff_decides() -> None:
    # One Rufspiel: the two winners are equal on every criterion, and so are the two losers.
    doc = {
        "players": ["Anna", "Bert", "Cilli", "Done"],
        "partien": [
            {"tables": [{"players": ["Anna", "Bert", "Cilli", "Done"], "hands": [rufspiel("Anna", "Bert", 70)]}]}
        ],
    }
    result = json.loads(run(doc).stdout)  # the ruleset defaults to allgaeu-meisterschaft
    assert [(row["place"], row["name"]) for row in result["ranking"]] == [
        (1, "Anna"),
        (1, "Bert"),
        (3, "Cilli"),
        (3, "Done"),
    ]
    assert result["ties_unresolved"] == ["Anna", "Bert", "Cilli", "Done"]
    doc["playoff"] = [{"players": ["Anna", "Bert"], "winner": "Bert"}]
    result = json.loads(run(doc).stdout)
    assert [(row["place"], row["name"]) for row in result["ranking"]][:2] == [(1, "Bert"), (2, "Anna")]
    assert result["ties_unresolved"] == ["Cilli", "Done"]


BAD = [
    ("[]", "invalid_type", None),
    ('{"players": ["A"], "partien": [], "extra": 1}', "unexpected_field", "extra"),
    ('{"players": ["A"], "partien": [], "ruleset": "doppelkopf"}', "invalid_value", "ruleset"),
    ('{"players": ["A", "A"], "partien": []}', "invalid_value", "players"),
    ('{"players": ["A"]}', "missing_field", "partien"),
    (
        '{"players": ["A","B","C","D"], "partien": [{"tables": [{"players": ["A","B","C","X"], "hands": []}]}]}',
        "invalid_value",
        "partien[0].tables[0].players[3]",
    ),
    (
        '{"players": ["A","B","C","D","E","F","G","H"], "partien": [{"tables": ['
        '{"players": ["A","B","C","D"], "hands": []}, {"players": ["A","F","G","H"], "hands": []}]}]}',
        "invalid_value",
        "partien[0].tables[1].players",
    ),
    (
        '{"players": ["A","B","C","D"], "partien": [{"tables": [{"players": ["A","B","C","D"], '
        '"hands": [{"game": "rufspiel", "declarer": "A", "partner": "B", "augen": 70}]}]}]}',
        "deckel_required",
        "partien[0].tables[0].hands[0].deckel",
    ),
    (
        '{"players": ["A","B","C","D"], "partien": [], "playoff": [{"players": ["A","B"], "winner": "C"}]}',
        "invalid_value",
        "playoff[0].winner",
    ),
    (
        '{"players": ["A","B","C","D"], "partien": [{"tables": [{"players": ["A","B","C","D"], '
        '"hands": [{"game": "wenz", "declarer": "A", "augen": 70, "deckel": 1}]}]}], '
        '"playoff": [{"players": ["A","B"], "winner": "B"}]}',
        "invalid_value",
        "playoff[0].players",
    ),
]


@pytest.mark.parametrize(("raw", "code", "field"), BAD, ids=[f"{code}-{field}" for _, code, field in BAD])
def test_invalid_input_prints_the_error_object_and_exits_2(raw: str, code: str, field: str | None) -> None:
    done = run(raw=raw)
    assert done.returncode == 2, done.stdout + done.stderr
    error = json.loads(done.stdout)["error"]
    assert (error["code"], error["field"]) == (code, field)
    assert error["message"]
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_not_json_exits_2() -> None:
    done = run(raw="{nope")
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"]["code"] == "invalid_json"
