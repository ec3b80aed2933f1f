"""The table facts a form is made for (issue 21: ``entry_facts.table_facts``): what the server
renders and what the phone's own fold (``offline.OfflineTable``) applies to its page after every
entry it keeps. Pure: no database, no browser."""

from __future__ import annotations

import json
from typing import Any

from scoring.engine import registry
from scoring.engine.entry_facts import table_facts
from scoring.engine.offline import OfflineTable
from scoring.engine.session import fold

FIVE = ["Anna", "Bert", "Cilli", "Done", "Emil"]
SCHWARZ = {"game": "solo", "suit": "herz", "result": "won_schwarz", "deckel": 1}


def facts(spec: Any, log: list[dict[str, Any]], players: list[str] = FIVE) -> dict[str, Any]:
    ruleset, table = registry.load_with_table(spec)
    return table_facts(ruleset, fold(ruleset, table, players, players[0], log).state)


def test_at_five_the_dealer_sits_out_and_alone_may_buy_001_7_1() -> None:
    out = facts("allgaeu", [])
    assert (out["dealer"], out["sitting_out"], out["buyers"]) == ("Anna", ["Anna"], ["Anna"])
    assert out["deckel_required"] and out["deckel_one"] == ["solo", "wenz", "bettel", "rufspiel"]
    assert "mungo" not in out["declarer_games"] and out["mungo_games"] == ["mungo"]


def test_a_schwarz_starts_the_mungorunde_without_rufspiel_or_deckel_and_a_second_one_a_vote_001_5_2() -> None:
    first = facts("allgaeu", [{**SCHWARZ, "declarer": "Bert"}])
    assert first["round"] == "mungorunde" and first["dealer"] == "Bert"
    assert "rufspiel" in first["games_disabled"] and {"farbwenz", "geier"} <= set(first["games"])
    assert first["deckel_games"] == [] and first["form"]["deckel"] is False
    second = facts(
        "allgaeu", [{**SCHWARZ, "declarer": "Bert"}, {"game": "wenz", "declarer": "Cilli", "result": "won_schwarz"}]
    )
    assert second["vote_pending"]


def test_a_sixty_sixty_starts_a_bockrunde_with_its_factor() -> None:
    tie = {"game": "rufspiel", "declarer": "Bert", "partner": "Cilli", "called": "eichel", "augen": 60, "deckel": 1}
    out = facts("allgaeu", [tie])
    assert (out["round"], out["bock"], out["bock_factor"]) == ("bockrunde", 1, 2)
    assert out["pending_rounds"] == [{"round": "bockrunde", "games": 5, "in_force": True}]


def test_in_the_stoecklesrunde_a_mungo_names_its_owner_001_5_4() -> None:
    out = facts("allgaeu", [{"event": "special_round", "kind": "stoecklesrunde"}], FIVE[:4])
    assert out["form"]["mungo_owner"] and "mungo" in out["declarer_games"]
    assert [row[0] for row in out["stoeckle"]] == FIVE[:4] and out["must_play"] in FIVE[:4]


def test_the_phones_fold_answers_the_same_facts_after_every_waiting_entry() -> None:
    log = [
        {"game": "rufspiel", "declarer": "Bert", "partner": "Cilli", "called": "eichel", "augen": 60, "deckel": 1},
        {**SCHWARZ, "declarer": "Cilli"},
        {"game": "mungo", "augen_order": [["Bert"], ["Anna", "Done"], ["Emil"]]},  # Cilli deals and sits out
    ]
    doc = {"ruleset": "allgaeu", "players": FIVE, "first_dealer": "Anna", "log": [], "form": {"kind": "schafkopf"}}
    phone = OfflineTable(json.dumps(doc))
    for n in range(len(log) + 1):
        assert json.loads(phone.fold(json.dumps(log[:n])))["state"] == facts("allgaeu", log[:n]), n
