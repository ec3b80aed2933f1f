"""``manage.py score_hand`` and ``score_session`` for the rules of issue 12: what the rules forbid
is refused with the spec's error object, one line on standard error and exit 2, its ``field``
naming the entry (``hands[3].bid``); the new inputs (``bought_by``, ``low_trump_by_player``, the
Gardareiz ``bid``, a Stöcklesrunde's Mungo owner) are scored like the pure engine scores them."""

from __future__ import annotations

import json
import subprocess
from typing import Any

import pytest

from scoring.engine.api import score_hand_document
from scoring.engine.session import score_session_document
from tests.commands import manage

P4 = ["Anna", "Bert", "Cilli", "Done"]
P5 = [*P4, "Emil"]
GARDAREIZ = {"round": "gardareizrunde"}


def run(command: str, doc: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    return manage(command, stdin=json.dumps(doc))


def hand(ruleset: Any, **facts: Any) -> dict[str, Any]:
    return {"ruleset": ruleset, "seats": P4, **facts}


def evening(players: list[str], hands: list[dict[str, Any]]) -> dict[str, Any]:
    return {"ruleset": "allgaeu", "players": players, "first_dealer": "Anna", "hands": hands}


STEIGERN = {"preset": "standard", "options": {"steigern": True}}
RAMSCH = {"preset": "standard", "options": {"games": ["rufspiel", "mungo"]}}
SOLO = {"game": "solo", "suit": "eichel", "declarer": "Bert", "augen": 80}
RUF = {"game": "rufspiel", "declarer": "Bert", "partner": "Cilli", "augen": 70, "deckel": 1}
STOECKLES = {"event": "special_round", "kind": "stoecklesrunde"}
WENZ = {"game": "wenz", "declarer": "Bert", "augen": 80}

REFUSED = [
    # 001 §5.3: a Gardareiz solo without a bid, with 61, with an odd bid; a Bettel from 78
    ("score_hand", hand("allgaeu", **SOLO, context=GARDAREIZ), "missing_field", "bid"),
    ("score_hand", hand("allgaeu", **SOLO, bid=61, context=GARDAREIZ), "invalid_value", "bid"),
    ("score_hand", hand("allgaeu", **SOLO, bid=65, context=GARDAREIZ), "invalid_value", "bid"),
    (
        "score_hand",
        hand("allgaeu", game="bettel", declarer="Bert", tricks=0, bid=78, context=GARDAREIZ),
        "not_allowed",
        "bid",
    ),
    # 003 §2.1.1: 75 is no bid
    ("score_hand", hand(STEIGERN, **SOLO, bid=75), "invalid_value", "bid"),
    # 003 §3.1: the same card twice as top trump
    (
        "score_hand",
        hand(
            RAMSCH,
            game="ramsch",
            augen_by_player={"Anna": 10, "Bert": 10, "Cilli": 50, "Done": 50},
            tricks_by_player={"Anna": 1, "Bert": 1, "Cilli": 3, "Done": 3},
            trumps_by_player={"Cilli": 2, "Done": 2},
            top_trump_by_player={"Cilli": "eichel_ober", "Done": "eichel_ober"},
        ),
        "inconsistent",
        "top_trump_by_player.Done",
    ),
    # a collapsed range says what the rule is
    (
        "score_hand",
        hand("allgaeu", game="bettel", declarer="Bert", tricks=0, deckel=1, laufende=3),
        "not_allowed",
        "laufende",
    ),
    # the Gardareizrunde at the table: the entry is named
    (
        "score_session",
        evening(
            P4,
            [{"event": "special_round", "kind": "gardareizrunde"}, SOLO],
        ),
        "missing_field",
        "hands[1].bid",
    ),
    # 001 §7.1: only the one who sits out buys; at four nobody
    (
        "score_session",
        evening(P5, [RUF, {**RUF, "declarer": "Cilli", "partner": "Done", "bought_by": "Cilli"}]),
        "not_allowed",
        "hands[1].bought_by",
    ),
    ("score_session", evening(P4, [{**RUF, "bought_by": "Anna"}]), "not_allowed", "hands[0].bought_by"),
    # 001 §5.4: a game played twice, nobody plays although someone must, a Mungo without owner
    ("score_session", evening(P4, [STOECKLES, WENZ, WENZ]), "not_allowed", "hands[2].game"),
    ("score_session", evening(P4, [STOECKLES, {"event": "zusammengeworfen"}]), "not_allowed", "hands[1].event"),
    (
        "score_session",
        evening(
            P4, [STOECKLES, {"game": "mungo", "augen_by_player": {"Anna": 10, "Bert": 20, "Cilli": 40, "Done": 50}}]
        ),
        "missing_field",
        "hands[1].declarer",
    ),
]


@pytest.mark.parametrize(("command", "doc", "code", "field"), REFUSED, ids=[f"{c[0]}-{c[3]}" for c in REFUSED])
def test_commands_refuse_what_the_rules_forbid_with_exit_2(
    command: str, doc: dict[str, Any], code: str, field: str
) -> None:
    done = run(command, doc)
    assert done.returncode == 2, done.stdout + done.stderr
    error = json.loads(done.stdout)["error"]
    assert (error["code"], error["field"]) == (code, field)
    assert "zwischen 0 und 0" not in error["message"]
    assert done.stderr.count("\n") == 1 and field in done.stderr
    assert "Traceback" not in done.stderr


def test_score_hand_command_scores_the_new_inputs_like_the_engine() -> None:
    docs = [
        # 003 §3.4: the smallest trump wins
        hand(
            {"preset": "standard", "options": {"games": ["rufspiel", "leasters"]}},
            game="leasters",
            augen_by_player={"Anna": 10, "Bert": 10, "Cilli": 50, "Done": 50},
            tricks_by_player={"Anna": 1, "Bert": 1, "Cilli": 3, "Done": 3},
            trumps_by_player={"Anna": 1, "Bert": 1},
            low_trump_by_player={"Anna": "herz_neun", "Bert": "herz_sieben"},
        ),
        # 004 §9: the Pflicht-Re counts unrecorded
        hand("doppelkopf", game="armut", re=["Anna", "Bert"], augen=130),
        # 001 §5.3: the bid reached
        hand("allgaeu", **SOLO, bid=80, context=GARDAREIZ),
    ]
    results = []
    for doc in docs:
        done = run("score_hand", doc)
        assert done.returncode == 0, done.stdout + done.stderr
        results.append(json.loads(done.stdout))
        assert results[-1] == json.loads(json.dumps(score_hand_document(doc)))
    assert results[0]["winner"] == ["Bert"]
    assert {"label": "Re angesagt", "amount": 2} in results[1]["lines"]
    assert results[2]["winner"] == "declarer"


def test_score_session_command_books_a_purchase_and_the_stoeckle() -> None:
    doc = evening(P5, [{**RUF, "declarer": "Anna", "bought_by": "Anna"}])
    doc["hands"] += [STOECKLES, {**WENZ, "declarer": "Cilli"}]
    done = run("score_session", doc)
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(done.stdout)
    assert result == json.loads(json.dumps(score_session_document(doc)))
    first = result["hands"][0]
    assert (first["bought_by"], first["sitting_out"]) == ("Anna", ["Emil"])
    assert first["payouts"]["Emil"] == 10
    [stoeckles] = result["pending_rounds"]
    assert stoeckles["games"] == 24
    assert stoeckles["stoeckle"]["Cilli"] == ["solo", "bettel", "rufspiel", "mungo"]
