"""The evening fold (spec §3, issue 6): dealing and sitting out, Bock rounds and their queue,
Mungo rounds and the vote, the Bockspiel of a wrong deal, the Stock (001 §8 and 003 §3.2), the
Doppelkopf table events, the special rounds, and every refusal with its exact field.
Readings: docs/rules/table-state.md."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine import registry
from scoring.engine.api import rulesets_document, score_hand_document
from scoring.engine.core import EngineError
from scoring.engine.session import (
    EntryError,
    TableState,
    advance,
    fold,
    preview,
    score_session_document,
    start,
)

P4 = ["Anna", "Bert", "Cilli", "Done"]
P5 = [*P4, "Emil"]
P6 = [*P5, "Fritz"]


def session(ruleset: Any, players: list[str], hands: list[dict[str, Any]], first: str | None = None) -> dict:
    doc: dict[str, Any] = {"ruleset": ruleset, "players": players, "hands": hands}
    if first:
        doc["first_dealer"] = first
    return score_session_document(doc)


def refused(ruleset: Any, players: list[str], hands: list[dict[str, Any]]) -> EngineError:
    with pytest.raises(EngineError) as info:
        session(ruleset, players, hands)
    return info.value


def ruf(declarer: str, partner: str, augen: int = 70, deckel: int = 1, **more: Any) -> dict[str, Any]:
    hand = {"game": "rufspiel", "declarer": declarer, "partner": partner, "augen": augen, **more}
    if deckel:
        hand["deckel"] = deckel
    return hand


def solo(declarer: str, augen: int = 80, suit: str = "eichel", deckel: int = 0, **more: Any) -> dict[str, Any]:
    hand = {"game": "solo", "suit": suit, "declarer": declarer, "augen": augen, **more}
    if deckel:
        hand["deckel"] = deckel
    return hand


def mungo(players: list[str]) -> dict[str, Any]:
    augen = dict(zip(players, (10, 20, 40, 50), strict=True))
    return {"game": "mungo", "augen_by_player": augen}


def col(result: dict[str, Any], key: str) -> list[Any]:
    return [hand[key] for hand in result["hands"]]


# --- dealing and sitting out (001 §2.3, §7) ---------------------------------------------------


@pytest.mark.parametrize(
    ("players", "first", "dealers", "seats", "out"),
    [
        (
            P4,
            "Cilli",
            ["Cilli", "Done", "Anna", "Bert", "Cilli"],
            [P4[3:] + P4[:3], P4, P4[1:] + P4[:1], P4[2:] + P4[:2], P4[3:] + P4[:3]],
            [[], [], [], [], []],
        ),
        (
            P5,
            "Anna",
            ["Anna", "Bert", "Cilli", "Done", "Emil", "Anna"],
            [
                ["Bert", "Cilli", "Done", "Emil"],
                ["Cilli", "Done", "Emil", "Anna"],
                ["Done", "Emil", "Anna", "Bert"],
                ["Emil", "Anna", "Bert", "Cilli"],
                ["Anna", "Bert", "Cilli", "Done"],
                ["Bert", "Cilli", "Done", "Emil"],
            ],
            [["Anna"], ["Bert"], ["Cilli"], ["Done"], ["Emil"], ["Anna"]],
        ),
        (
            P6,
            "Anna",
            ["Anna", "Bert", "Cilli"],
            [["Bert", "Cilli", "Done", "Emil"], ["Cilli", "Done", "Emil", "Fritz"], ["Done", "Emil", "Fritz", "Anna"]],
            # 001 §7.2: the dealer and the Abheber to his right.
            [["Fritz", "Anna"], ["Anna", "Bert"], ["Bert", "Cilli"]],
        ),
    ],
    ids=["four", "five_dealer_sits_out", "six_dealer_and_cutter_sit_out"],
)
def test_session_dealer_rotation_and_sitting_out(
    players: list[str], first: str, dealers: list[str], seats: list[list[str]], out: list[list[str]]
) -> None:
    hands = []
    for table in seats:
        hands.append(solo(table[0], suit="herz", deckel=1))
    result = session("allgaeu", players, hands, first)
    assert col(result, "dealer") == dealers
    assert col(result, "seats") == seats
    assert col(result, "sitting_out") == out
    for hand, sitting in zip(result["hands"], out, strict=True):
        assert set(hand["payouts"]) == set(players)
        assert all(hand["payouts"][name] == 0 for name in sitting)
        assert sum(hand["payouts"].values()) == 0


def test_session_first_dealer_defaults_to_the_first_player() -> None:
    result = score_session_document({"ruleset": "standard", "players": P4, "hands": [ruf("Anna", "Bert", deckel=0)]})
    assert result["hands"][0]["dealer"] == "Anna"


def test_session_output_has_exactly_the_spec_keys() -> None:
    result = session("standard", P4, [ruf("Anna", "Bert", deckel=0)])
    assert set(result) == {"unit", "hands", "totals", "stock", "pending_rounds"}
    assert {"number", "dealer", "seats", "round", "multiplier", "payouts", "lines"} <= set(result["hands"][0])
    assert result["unit"] == "cent"


@pytest.mark.parametrize(
    ("players", "hand", "code", "field"),
    [
        # Anna deals with five at the table and sits out: she cannot declare.
        (P5, solo("Anna", deckel=1), "invalid_value", "hands[0].declarer"),
        (P6, ruf("Bert", "Fritz"), "invalid_value", "hands[0].partner"),
        (P4, {**ruf("Anna", "Bert"), "seats": P4}, "unexpected_field", "hands[0].seats"),
        (P4, {**ruf("Anna", "Bert"), "context": {"bock": 1}}, "unexpected_field", "hands[0].context"),
        (P4, {**ruf("Anna", "Bert"), "dealer": "Zoe"}, "invalid_value", "hands[0].dealer"),
        (P4, ruf("Anna", "Bert", deckel=0), "deckel_required", "hands[0].deckel"),
        (P4, {"event": "tanzen"}, "invalid_value", "hands[0].event"),
        (P4, {"event": "vergeben", "wer": "Anna"}, "unexpected_field", "hands[0].wer"),
        (P4, {"event": "schmeissen"}, "not_allowed", "hands[0].event"),
        (P4, {"event": "vote", "choice": "bockrunde"}, "no_vote", "hands[0].event"),
        (P4, {"event": "end_round"}, "no_round", "hands[0].event"),
        (P4, {"event": "special_round"}, "missing_field", "hands[0].kind"),
        (P4, {"event": "special_round", "kind": "kegeln"}, "not_allowed", "hands[0].kind"),
        (P4, {"event": "special_round", "kind": "rimini", "dealer": "Anna"}, "unexpected_field", "hands[0].dealer"),
        (P4, {"event": "vergeben", "by": "Bert"}, "invalid_value", "hands[0].by"),
        (P4, {"event": "verabhebt", "by": "Anna"}, "invalid_value", "hands[0].by"),
    ],
)
def test_session_refuses_what_the_table_state_forbids(
    players: list[str], hand: dict[str, Any], code: str, field: str
) -> None:
    error = refused("allgaeu", players, [hand])
    assert (error.code, error.field) == (code, field)


def test_session_error_names_the_entry_index_and_is_an_entry_error() -> None:
    with pytest.raises(EntryError) as info:
        session("allgaeu", P4, [ruf("Anna", "Bert"), ruf("Anna", "Bert"), "kein Objekt"])  # type: ignore[list-item]
    assert info.value.index == 2
    assert info.value.as_dict()["error"]["field"] == "hands[2]"


@pytest.mark.parametrize(
    ("doc", "field"),
    [
        ({"ruleset": "allgaeu", "players": P4[:3], "hands": []}, "players"),
        ({"ruleset": "allgaeu", "players": ["Anna", "Anna", "Bert", "Cilli"], "hands": []}, "players"),
        ({"ruleset": "allgaeu", "players": "Anna", "hands": []}, "players"),
        ({"ruleset": "allgaeu", "players": P4, "first_dealer": "Zoe", "hands": []}, "first_dealer"),
        ({"ruleset": "allgaeu", "players": P4}, "hands"),
        ({"ruleset": "allgaeu", "players": P4, "hands": [], "tisch": 1}, "tisch"),
        ({"ruleset": "kniffel", "players": P4, "hands": []}, "ruleset"),
        ({"ruleset": "doppelkopf", "players": [*P6, "Gerd"], "hands": []}, "players"),
    ],
)
def test_session_refuses_a_bad_document(doc: dict[str, Any], field: str) -> None:
    with pytest.raises(EngineError) as info:
        score_session_document(doc)
    assert info.value.field == field


def test_session_saukopf_dreihaxer_three_at_the_table() -> None:
    hand = {
        "game": "hybridschwein",
        "declarer": "Anna",
        "trog": True,
        "bid": 61,
        "augen": 50,
        "laufende": 1,
        "laufende_side": "opponents",
    }
    result = session("saukopf", P4[:3], [hand])
    assert result["hands"][0]["seats"] == ["Bert", "Cilli", "Anna"]
    assert sum(result["totals"].values()) == 0


# --- Bock rounds (001 §5.1, 003 §4.1) ------------------------------------------------------


def test_session_allgaeu_6060_starts_a_bockrunde_of_one_game_per_player() -> None:
    # Hand i is dealt by P5[i % 5], who sits out; his left neighbour calls the next one.
    hands = [ruf(P5[(i + 1) % 5], P5[(i + 2) % 5], augen=60 if i == 0 else 70) for i in range(7)]
    result = session("allgaeu", P5, hands)
    assert col(result, "round") == ["normal"] + ["bockrunde"] * 5 + ["normal"]
    assert col(result, "multiplier") == [1, 2, 2, 2, 2, 2, 1]
    assert result["hands"][0]["triggered"] == ["bockrunde"]
    # Rufspiel 10, Deckel ×2, Bock ×2 = 40 each.
    assert result["hands"][1]["payouts"]["Cilli"] == 40  # Cilli called Done and won
    assert result["hands"][1]["lines"][-1] == {"label": "Bock ×2", "factor": 2}


@pytest.mark.parametrize("augen", [30, 90, 60])
def test_session_allgaeu_bock_triggers_on_60_60_and_30_90(augen: int) -> None:
    result = session("allgaeu", P4, [ruf("Anna", "Bert", augen=augen), ruf("Anna", "Bert")])
    assert result["hands"][1]["round"] == "bockrunde"


@pytest.mark.parametrize("augen", [29, 31, 59, 61, 91])
def test_session_allgaeu_other_augen_do_not_trigger(augen: int) -> None:
    result = session("allgaeu", P4, [ruf("Anna", "Bert", augen=augen), ruf("Anna", "Bert")])
    assert result["hands"][1]["round"] == "normal"


def test_session_bockrunden_queue_one_after_the_other() -> None:
    # 001 §5 "nie zwei Runden gemeinsam … immer eine nach der anderen": a trigger inside the
    # Bockrunde queues the next one; eight Bock games at four players, never a double Bock.
    hands = [ruf("Anna", "Bert", augen=60), ruf("Anna", "Bert", augen=90)] + [ruf("Anna", "Bert")] * 8
    result = session("allgaeu", P4, hands)
    assert col(result, "round") == ["normal"] + ["bockrunde"] * 8 + ["normal"]
    assert col(result, "bock") == [0] + [1] * 8 + [0]
    pending = session("allgaeu", P4, hands[:3])["pending_rounds"]
    assert pending == [
        {"round": "bockrunde", "games": 2, "in_force": True},
        {"round": "bockrunde", "games": 4, "in_force": False},
    ]


def test_session_bockrunden_stack_when_the_club_says_so() -> None:
    rules = {"preset": "allgaeu", "options": {"bock_overlap": "stack"}}
    hands = [ruf("Anna", "Bert", augen=60), ruf("Anna", "Bert", augen=90)] + [ruf("Anna", "Bert")] * 5
    result = session(rules, P4, hands)
    assert col(result, "bock") == [0, 1, 2, 2, 2, 1, 0]
    assert col(result, "multiplier") == [1, 2, 4, 4, 4, 2, 1]
    assert result["hands"][2]["lines"][-2:] == [{"label": "Bock ×2", "factor": 2}] * 2


def test_session_the_bockrunde_is_played_with_deckel() -> None:
    error = refused("allgaeu", P4, [ruf("Anna", "Bert", augen=60), ruf("Anna", "Bert", deckel=0)])
    assert (error.code, error.field) == ("deckel_required", "hands[1].deckel")


def test_session_standard_has_no_bock_unless_chosen() -> None:
    hands = [ruf("Anna", "Bert", augen=60, deckel=0), ruf("Anna", "Bert", deckel=0)]
    assert session("standard", P4, hands)["hands"][1]["round"] == "normal"
    chosen = {"preset": "standard", "options": {"bock_triggers": ["6060"]}}
    assert session(chosen, P4, hands)["hands"][1]["round"] == "bockrunde"


@pytest.mark.parametrize(
    ("trigger", "hand", "fires"),
    [
        ("kontra_lost", ruf("Anna", "Bert", 70, 0, kontra=1, last_kontra="opponents"), True),
        ("kontra_lost", ruf("Anna", "Bert", 50, 0, kontra=1, last_kontra="opponents"), False),
        ("kontra_lost", ruf("Anna", "Bert", 50, 0, kontra=2, last_kontra="declarer"), True),
        ("kontra_lost", ruf("Anna", "Bert", 70, 0), False),
        ("schwarz", ruf("Anna", "Bert", 120, 0, tricks=8), True),
        ("schwarz", ruf("Anna", "Bert", 0, 0, tricks=0), True),
        ("schwarz", ruf("Anna", "Bert", 100, 0, tricks=7), False),
        ("schwarz", {"game": "solo", "suit": "gras", "declarer": "Anna", "tout": True, "tricks": 8}, True),
        ("herz_solo_lost", solo("Anna", 50, "herz"), True),
        ("herz_solo_lost", solo("Anna", 70, "herz"), False),
        ("herz_solo_lost", solo("Anna", 50, "eichel"), False),
        ("four_deckel", ruf("Anna", "Bert", 70, 4), True),
        ("four_deckel", ruf("Anna", "Bert", 70, 3), False),
        ("6060", {"game": "bettel", "declarer": "Anna", "tricks": 0}, False),
        ("6060", {"game": "rufspiel", "declarer": "Anna", "partner": "Bert", "result": "won"}, False),
    ],
)
def test_session_club_bock_triggers(trigger: str, hand: dict[str, Any], fires: bool) -> None:
    rules = {"preset": "standard", "options": {"bock_triggers": [trigger]}}
    result = session(rules, P4, [hand, ruf("Anna", "Bert", deckel=0)])
    assert (result["hands"][1]["round"] == "bockrunde") is fires


def test_session_special_round_bockrunde_by_choice() -> None:
    hands = [{"event": "special_round", "kind": "bockrunde"}] + [ruf("Anna", "Bert", deckel=0)] * 5
    result = session("reiner-schafkopf", P4, hands)
    assert col(result, "bock") == [0, 1, 1, 1, 1, 0]
    assert result["hands"][0]["event"] == "special_round"


def test_session_meisterschaft_offers_no_bock_and_no_special_rounds() -> None:
    error = refused("allgaeu-meisterschaft", P4, [{"event": "special_round", "kind": "bockrunde"}])
    assert (error.code, error.field) == ("not_allowed", "hands[0].kind")
    with pytest.raises(EngineError) as info:
        registry.load_with_table({"preset": "allgaeu-meisterschaft", "options": {"bock_triggers": ["6060"]}})
    assert info.value.field == "ruleset.options.bock_triggers"
    result = session("allgaeu-meisterschaft", P4, [ruf("Anna", "Bert", augen=60), ruf("Anna", "Bert")])
    assert result["hands"][1]["round"] == "normal"


# --- Mungo rounds (001 §5.2) -----------------------------------------------------------------


SCHWARZ = solo("Anna", 120, "herz", deckel=1, tricks=8)


def test_session_first_mungorunde_is_mandatory_and_lasts_one_round() -> None:
    mungo_round = [solo("Bert", 70, "eichel"), mungo(P4), {"game": "geier", "declarer": "Cilli", "augen": 80}]
    hands = [SCHWARZ, *mungo_round, {"game": "farbwenz", "suit": "gras", "declarer": "Done", "augen": 61}]
    hands.append(ruf("Anna", "Bert"))
    result = session("allgaeu", P4, hands)
    assert result["hands"][0]["triggered"] == ["mungorunde"]
    assert col(result, "round") == ["normal"] + ["mungorunde"] * 4 + ["normal"]
    # 001 §5: Solospiele wie Bockspiele; the Mungo itself is not doubled.
    assert col(result, "multiplier") == [1, 2, 1, 2, 2, 1]
    assert result["hands"][1]["payouts"]["Bert"] == 3 * 25 * 2


@pytest.mark.parametrize(
    ("hand", "code", "field"),
    [
        (ruf("Bert", "Cilli", deckel=0), "not_allowed", "hands[1].game"),
        (solo("Bert", deckel=1), "not_allowed", "hands[1].deckel"),
    ],
)
def test_session_mungorunde_forbids_rufspiel_and_deckel(hand: dict[str, Any], code: str, field: str) -> None:
    error = refused("allgaeu", P4, [SCHWARZ, hand])
    assert (error.code, error.field) == (code, field)


@pytest.mark.parametrize(
    ("hand", "fires"),
    [
        ({"game": "bettel", "declarer": "Anna", "tricks": 0, "deckel": 1}, False),
        (
            {"game": "mungo", "augen_by_player": dict.fromkeys(P4, 30), "tricks_by_player": {**dict.fromkeys(P4, 2)}},
            False,
        ),
        ({"game": "solo", "suit": "herz", "declarer": "Anna", "tout": True, "tricks": 8}, True),
        ({"game": "solo", "suit": "herz", "declarer": "Anna", "tout": True, "tricks": 0}, True),
        (ruf("Anna", "Bert", 0, tricks=0), True),
        (ruf("Anna", "Bert", 100, tricks=7), False),
        ({"game": "rufspiel", "declarer": "Anna", "partner": "Bert", "result": "won_schwarz", "deckel": 1}, True),
    ],
)
def test_session_mungorunde_after_schwarz_not_after_bettel_or_mungo(hand: dict[str, Any], fires: bool) -> None:
    result = session("allgaeu", P4, [hand, mungo(P4)])
    assert (result["hands"][1]["round"] == "mungorunde") is fires


def test_session_second_schwarz_needs_a_vote_before_the_next_hand() -> None:
    first = [SCHWARZ, mungo(P4), mungo(P4), mungo(P4), mungo(P4)]
    error = refused("allgaeu", P4, [*first, SCHWARZ, ruf("Anna", "Bert")])
    assert (error.code, error.field) == ("vote_required", "hands[6]")
    error = refused("allgaeu", P4, [*first, SCHWARZ, {"event": "zusammengeworfen"}])
    assert (error.code, error.field) == ("vote_required", "hands[6]")
    error = refused("allgaeu", P4, [*first, SCHWARZ, {"event": "vote", "choice": "ramschrunde"}])
    assert (error.code, error.field) == ("invalid_value", "hands[6].choice")

    voted_bock = session(
        "allgaeu", P4, [*first, SCHWARZ, {"event": "vote", "choice": "bockrunde"}, ruf("Anna", "Bert")]
    )
    assert voted_bock["hands"][5]["triggered"] == ["vote"]
    assert voted_bock["hands"][7]["round"] == "bockrunde"
    # A tie is a Mungorunde: the event records the result.
    voted_mungo = session("allgaeu", P4, [*first, SCHWARZ, {"event": "vote", "choice": "mungorunde"}, mungo(P4)])
    assert voted_mungo["hands"][7]["round"] == "mungorunde"


def test_session_vergeben_is_allowed_while_the_vote_is_pending() -> None:
    first = [SCHWARZ, mungo(P4), mungo(P4), mungo(P4), mungo(P4), SCHWARZ]
    result = session("allgaeu", P4, [*first, {"event": "vergeben"}, {"event": "vote", "choice": "mungorunde"}])
    assert result["stock"] == 50


def test_session_geschobene_mungorunde_counts_only_mungo_games() -> None:
    hands = [SCHWARZ, {"event": "special_round", "kind": "geschobene_mungorunde"}]
    hands += [solo("Bert"), mungo(P4), solo("Cilli"), mungo(P4), mungo(P4), mungo(P4), ruf("Anna", "Bert")]
    result = session("allgaeu", P4, hands)
    assert col(result, "round")[2:] == ["geschobene_mungorunde"] * 6 + ["normal"]
    assert result["pending_rounds"] == []


def test_session_geschobene_mungorunde_by_itself_is_queued() -> None:
    result = session("allgaeu", P4, [{"event": "special_round", "kind": "geschobene_mungorunde"}])
    assert result["pending_rounds"] == [{"round": "geschobene_mungorunde", "games": 4, "in_force": True}]


# --- wrong dealer (001 §8.4) -------------------------------------------------------------------


def test_session_wrong_dealer_is_one_bockspiel_without_deckel_then_the_right_dealer() -> None:
    hands = [
        ruf("Bert", "Cilli"),  # Anna deals
        {**ruf("Anna", "Done", deckel=0), "dealer": "Cilli"},  # Bert's turn, Cilli deals and sits out
        ruf("Cilli", "Done"),  # Bert deals: 001 §8.4 "gibt der Spieler, der … hätte geben müssen"
    ]
    result = session("allgaeu", P5, hands)
    assert col(result, "dealer") == ["Anna", "Cilli", "Bert"]
    assert col(result, "round") == ["normal", "bockspiel", "normal"]
    assert col(result, "multiplier") == [1, 2, 1]
    assert result["hands"][1]["wrong_dealer"] is True
    assert result["hands"][1]["sitting_out"] == ["Cilli"]
    # Rufspiel 10, Bock ×2 (no Deckel): 20 each.
    assert result["hands"][1]["payouts"]["Anna"] == 20


def test_session_wrong_dealer_bockspiel_keeps_the_order_and_the_round() -> None:
    hands = [
        ruf("Anna", "Bert", augen=60),  # Anna deals; a Bockrunde follows
        {**ruf("Anna", "Cilli", deckel=0), "dealer": "Done"},  # Bert's turn, Done deals
        ruf("Cilli", "Done"),
    ]
    result = session("allgaeu", P4, hands)
    assert col(result, "dealer") == ["Anna", "Done", "Bert"]
    assert col(result, "round") == ["normal", "bockspiel", "bockrunde"]
    assert result["pending_rounds"] == [{"round": "bockrunde", "games": 3, "in_force": True}]


def test_session_wrong_dealer_bockspiel_refuses_deckel() -> None:
    error = refused("allgaeu", P4, [{**ruf("Anna", "Bert"), "dealer": "Cilli"}])
    assert (error.code, error.field) == ("not_allowed", "hands[0].deckel")


def test_session_wrong_dealer_elsewhere_continues_from_who_dealt() -> None:
    hands = [{**ruf("Anna", "Bert", deckel=0), "dealer": "Cilli"}, ruf("Anna", "Bert", deckel=0)]
    result = session("standard", P4, hands)
    assert col(result, "dealer") == ["Cilli", "Done"]
    assert col(result, "round") == ["normal", "normal"]


def test_session_dealer_named_in_turn_is_just_the_dealer() -> None:
    result = session("allgaeu", P4, [{**ruf("Anna", "Bert"), "dealer": "Anna"}])
    assert result["hands"][0]["round"] == "normal"
    assert "wrong_dealer" not in result["hands"][0]


# --- the Stock of 001 §8.1/§8.2 and §5.3 ------------------------------------------------------


def test_session_allgaeu_vergeben_and_verabheben_pay_into_the_stock() -> None:
    hands = [
        {"event": "vergeben"},  # Anna deals: 0.50 €
        {"event": "vergeben", "by": "Anna"},  # again: 1 €
        {"event": "verabhebt"},  # the cutter, Done (to Anna's right): 0.50 €
        {"event": "verabhebt", "by": "Bert"},
    ]
    result = session("allgaeu", P4, hands)
    assert col(result, "stock") == [50, 100, 50, 50]
    assert col(result, "dealer") == ["Anna"] * 4  # the same dealer deals again
    assert result["totals"] == {"Anna": -150, "Bert": -50, "Cilli": 0, "Done": -50}
    assert result["stock"] == 250
    assert result["pending_rounds"] == [{"round": "gardareizrunde", "games": None, "in_force": True}]
    assert result["hands"][1]["lines"] == [{"label": "Vergeben (Anna, 2. Mal): in den Stock", "amount": 100}]


def test_session_gardareizrunde_lost_herz_solo_doubles_the_stock_won_one_takes_it() -> None:
    hands = [
        {"event": "vergeben"},
        {"event": "vergeben"},  # Stock 150
        solo("Bert", 50, "herz", bid=62),  # lost: Bert doubles it: 300
        solo("Cilli", 70, "eichel", bid=62),  # no Herz: nothing
        {"event": "verabhebt"},  # Cilli deals, Bert cuts: 350, no second Gardareizrunde queued
        solo("Done", 62, "herz", bid=62),  # won: Done takes 350, the round ends
        ruf("Anna", "Bert"),
    ]
    result = session("allgaeu", P4, hands)
    assert col(result, "stock") == [50, 100, 150, 0, 50, -350, 0]
    assert col(result, "round") == ["normal", "gardareizrunde", *["gardareizrunde"] * 4, "normal"]
    assert result["stock"] == 0
    won = result["hands"][5]
    assert won["lines"][-1] == {"label": "Stock gewonnen (Done)", "amount": 350}
    assert won["payouts"]["Done"] == 3 * 25 * 2 + 350
    assert sum(result["totals"].values()) + result["stock"] == 0


def test_session_winning_the_stock_still_counts_a_game_of_a_stacked_bockrunde() -> None:
    rules = {"preset": "allgaeu", "options": {"bock_overlap": "stack"}}
    hands = [ruf("Anna", "Bert", augen=60), {"event": "vergeben"}, solo("Cilli", 70, "herz", bid=62)]
    result = session(rules, P4, hands)
    assert result["hands"][2]["bock"] == 1
    assert result["stock"] == 0
    assert result["pending_rounds"] == [{"round": "bockrunde", "games": 3, "in_force": True}]


def test_session_gardareizrunde_doubling_is_capped() -> None:
    hands = [{"event": "vergeben"}] + [{"event": "vergeben"}] * 3 + [solo("Bert", 50, "herz", bid=62)]
    result = session("allgaeu", P4, hands)
    assert result["hands"][-1]["stock"] == 200  # Stock 350, doubled by at most 2 €
    assert result["stock"] == 550


def test_session_gardareizrunde_by_choice_lasts_a_round_and_leaves_the_stock() -> None:
    hands = [{"event": "special_round", "kind": "gardareizrunde"}] + [solo("Bert", 70, "herz", bid=62)] * 4
    hands.append(solo("Bert", 70, "herz", deckel=1))
    result = session("allgaeu", P4, hands)
    assert col(result, "round")[1:] == ["gardareizrunde"] * 4 + ["normal"]
    assert result["stock"] == 0


def test_session_end_round_ends_a_stock_round_by_agreement() -> None:
    hands = [{"event": "vergeben"}, {"event": "end_round"}, ruf("Anna", "Bert")]
    result = session("allgaeu", P4, hands)
    assert result["hands"][2]["round"] == "normal"
    assert result["stock"] == 50


# --- the Stock of Anhang C (003 §3.2) ------------------------------------------------------


def test_session_anhang_c_stock_zusammengeworfen_partner_game_wins_or_doubles() -> None:
    rules = {"preset": "standard", "options": {"stock": "anhang_c"}}
    hands = [
        {"event": "zusammengeworfen"},  # each of the four pays a Rufspiel price (20): 80
        solo("Cilli", 80, deckel=0),  # Bert deals; not a partner game: the Stock stays
        ruf("Done", "Anna", 50, 0),  # Cilli deals; lost: Done doubles it to 160
        ruf("Emil", "Bert", 70, 0),  # Done deals; won: Emil takes 160
    ]
    result = session(rules, P5, hands)
    assert col(result, "dealer") == ["Anna", "Bert", "Cilli", "Done"]
    first = result["hands"][0]
    assert first["payouts"] == {"Anna": 0, "Bert": -20, "Cilli": -20, "Done": -20, "Emil": -20}
    assert col(result, "stock") == [80, 0, 80, -160]
    assert result["hands"][2]["payouts"]["Done"] == -20 - 80
    assert result["hands"][3]["payouts"]["Emil"] == 20 + 160
    assert result["hands"][3]["lines"][-1] == {"label": "Stock gewonnen (Emil)", "amount": 160}
    assert result["stock"] == 0
    assert sum(result["totals"].values()) == 0


def test_session_zusammengeworfen_without_stock_passes_the_deal() -> None:
    result = session("standard", P4, [{"event": "zusammengeworfen"}, ruf("Anna", "Bert", deckel=0)])
    assert col(result, "dealer") == ["Anna", "Bert"]
    assert result["hands"][0]["payouts"] == dict.fromkeys(P4, 0)


def test_session_allgaeu_stock_option_needs_special_rounds() -> None:
    with pytest.raises(EngineError) as info:
        registry.load_with_table({"preset": "standard", "options": {"stock": "allgaeu"}})
    assert info.value.field == "ruleset.options.stock"


# --- Doppelkopf (004 §5, §10) --------------------------------------------------------------


def dk(re: list[str], augen: int = 130, **more: Any) -> dict[str, Any]:
    return {"game": "normal", "re": re, "augen": augen, **more}


def test_session_doppelkopf_schmeissen_same_dealer_no_score() -> None:
    result = session("doppelkopf", P4, [{"event": "schmeissen"}, dk(["Anna", "Bert"])])
    assert col(result, "dealer") == ["Anna", "Anna"]
    assert result["hands"][0]["payouts"] == dict.fromkeys(P4, 0)


def test_session_doppelkopf_third_vergeben_pays_everyone_at_the_table() -> None:
    hands = [{"event": "vergeben"}] * 3 + [dk(["Bert", "Cilli"])]
    result = session("doppelkopf", P5, hands)
    assert col(result, "dealer") == ["Anna"] * 4
    assert result["hands"][1]["payouts"] == dict.fromkeys(P5, 0)
    # 004 §5/§10: the one sitting out (the dealer herself here) … everyone else +1, she pays 4.
    assert result["hands"][2]["payouts"] == {"Anna": -4, "Bert": 1, "Cilli": 1, "Done": 1, "Emil": 1}


def test_session_doppelkopf_vergeben_count_restarts_with_each_deal() -> None:
    hands = [{"event": "vergeben"}] * 2 + [dk(["Bert", "Cilli"])] + [{"event": "vergeben"}] * 2
    result = session("doppelkopf", P4, hands)
    assert all(value == 0 for value in result["hands"][-1]["payouts"].values())


def test_session_doppelkopf_five_at_the_table_the_dealer_gets_zero() -> None:
    result = session("doppelkopf", P5, [dk(["Bert", "Cilli"]), dk(["Anna", "Cilli"])])
    assert result["hands"][0]["payouts"] == {"Anna": 0, "Bert": 1, "Cilli": 1, "Done": -1, "Emil": -1}
    assert result["hands"][1]["payouts"]["Bert"] == 0


def test_session_doppelkopf_bock_on_120_120() -> None:
    rules = {"preset": "doppelkopf", "options": {"bock_triggers": ["120120"]}}
    result = session(rules, P4, [dk(["Anna", "Bert"], 120)] + [dk(["Anna", "Bert"])] * 5)
    assert col(result, "bock") == [0, 1, 1, 1, 1, 0]
    assert result["hands"][1]["payouts"]["Anna"] == 2


@pytest.mark.parametrize(
    ("announcements", "augen", "fires"),
    [
        ({"re": ["re"]}, 100, True),
        ({"re": ["re"]}, 130, False),
        ({"contra": ["contra"]}, 130, True),
        ({"contra": ["contra"]}, 100, False),
    ],
)
def test_session_doppelkopf_bock_on_a_lost_announcement(announcements: dict, augen: int, fires: bool) -> None:
    rules = {"preset": "doppelkopf", "options": {"bock_triggers": ["kontra_lost"]}}
    result = session(rules, P4, [dk(["Anna", "Bert"], augen, announcements=announcements), dk(["Anna", "Bert"])])
    assert (result["hands"][1]["bock"] == 1) is fires


def test_session_saukopf_has_no_table_options() -> None:
    with pytest.raises(EngineError) as info:
        registry.load_with_table({"preset": "saukopf", "options": {"bock_triggers": []}})
    assert (info.value.code, info.value.field) == ("unknown_option", "ruleset.options.bock_triggers")


# --- special rounds by choice (001 §5.3–§5.7) -----------------------------------------------


@pytest.mark.parametrize(
    ("kind", "games"),
    [("rimini", 5), ("stoecklesrunde", 25), ("megastoecklesrunde", 40), ("abschlussrunde", 6), ("bockrunde", 5)],
)
def test_session_special_round_lengths(kind: str, games: int) -> None:
    result = session("allgaeu", P5, [{"event": "special_round", "kind": kind}])
    [pending] = result["pending_rounds"]
    assert {key: pending[key] for key in ("round", "games", "in_force")} == {
        "round": kind,
        "games": games,
        "in_force": True,
    }


def test_session_special_rounds_queue_behind_the_round_in_force() -> None:
    hands = [
        {"event": "special_round", "kind": "rimini"},
        {"game": "geier", "declarer": "Bert", "augen": 80},  # Rimini adds Geier
        ruf("Anna", "Bert", augen=60, deckel=0),  # a Bockrunde queues behind the Rimini
        {"event": "special_round", "kind": "stoecklesrunde"},
    ]
    result = session("allgaeu", P4, hands)
    assert result["pending_rounds"] == [
        {"round": "rimini", "games": 2, "in_force": True},
        {"round": "bockrunde", "games": 4, "in_force": False},
        {"round": "stoecklesrunde", "games": 20, "in_force": False},
    ]


def test_session_abschlussrunde_dealer_gives_first_and_last() -> None:
    hands = [ruf("Anna", "Bert"), {"event": "special_round", "kind": "abschlussrunde", "dealer": "Done"}]
    hands += [ruf("Anna", "Bert")] * 6
    result = session("allgaeu", P4, hands)
    assert col(result, "dealer")[2:] == ["Done", "Anna", "Bert", "Cilli", "Done", "Anna"]
    assert col(result, "round")[2:] == ["abschlussrunde"] * 5 + ["normal"]
    assert col(result, "bock")[2:] == [1] * 5 + [0]


def test_session_standard_offers_only_the_bockrunde() -> None:
    error = refused("standard", P4, [{"event": "special_round", "kind": "rimini"}])
    assert (error.code, error.field) == ("not_allowed", "hands[0].kind")


# --- API for the web service -------------------------------------------------------------------


def test_session_advance_and_preview_agree_with_fold() -> None:
    rules, table = registry.load_with_table("allgaeu")
    hands = [ruf("Anna", "Bert", augen=60), SCHWARZ, {"event": "vergeben"}, mungo(P4), solo("Bert", deckel=1)]
    whole = fold(rules, table, P4, "Anna", hands)
    state = start(rules, table, P4, "Anna")
    for expected, raw in zip(whole.entries, hands, strict=True):
        assert preview(rules, table, state, raw) == expected
        entry, state = advance(rules, table, state, raw)
        assert entry == expected
    assert state == whole.state


def test_session_state_tells_the_entry_form_what_comes_next() -> None:
    rules, table = registry.load_with_table("allgaeu")
    state = fold(rules, table, P5, "Anna", [solo("Bert", 120, "herz", deckel=1, tricks=8)]).state
    assert isinstance(state, TableState)
    assert (state.dealer, state.seats, state.sitting_out) == ("Bert", ("Cilli", "Done", "Emil", "Anna"), ("Bert",))
    assert (state.round, state.bock, state.deckel_required) == ("mungorunde", 0, False)
    assert state.games is not None and "rufspiel" not in state.games and "geier" in state.games
    assert state.context.round == "mungorunde"
    fresh = start(rules, table, P5, "Anna")
    assert fresh.deckel_required and fresh.games is not None and "rufspiel" in fresh.games


def test_session_preview_errors_name_the_hands_own_field() -> None:
    rules, table = registry.load_with_table("allgaeu")
    state = start(rules, table, P5, "Anna")
    with pytest.raises(EngineError) as info:
        preview(rules, table, state, solo("Anna", deckel=1))
    assert info.value.field == "declarer"


def test_session_table_options_travel_in_the_ruleset_object() -> None:
    spec = {"preset": "allgaeu", "options": {"bock_triggers": ["6060"], "price_rufspiel": 20}}
    rules, table = registry.load_with_table(spec)
    assert rules.opt("price_rufspiel") == 20
    assert table.bock_triggers == ("6060",)
    assert table.options["bock_triggers"] == ["6060"]
    assert registry.load(spec).opt("price_rufspiel") == 20
    # A hand scored on its own accepts a session's rule set.
    hand = score_hand_document({"ruleset": spec, "seats": P4, **ruf("Anna", "Bert")})
    assert hand["price"] == 40


def test_session_rulesets_document_lists_table_options_with_defaults() -> None:
    doc = rulesets_document()
    assert doc["allgaeu"]["table_options"]["bock_triggers"]["default"] == ["6060", "3090"]
    assert doc["allgaeu"]["table_options"]["stock"]["default"] == "allgaeu"
    assert doc["standard"]["table_options"]["bock_triggers"]["default"] == []
    assert doc["standard"]["table_options"]["stock"]["choices"] == ["none", "anhang_c"]
    assert doc["doppelkopf"]["table_options"]["vergeben_limit"]["default"] == 3
    assert doc["saukopf"]["table_options"] == {}


def test_session_totals_are_the_sum_of_every_entry() -> None:
    hands = [ruf("Anna", "Bert", augen=60), SCHWARZ, {"event": "vergeben"}, mungo(P4), solo("Bert", deckel=1)]
    result = session("allgaeu", P4, hands)
    for name in P4:
        assert result["totals"][name] == sum(hand["payouts"][name] for hand in result["hands"])
    assert sum(result["totals"].values()) + result["stock"] == 0


def test_session_folds_200_hands_at_five() -> None:
    """How fast is ``manage.py bench``'s ``replay_ms`` (a 200-hand evening re-folded), not a test's."""
    hands = [ruf(P5[(i + 1) % 5], P5[(i + 2) % 5], augen=40 + i % 50) for i in range(200)]
    rules, table = registry.load_with_table("allgaeu")
    result = fold(rules, table, P5, "Anna", hands)
    assert len(result.entries) == 200
    assert {entry.dealer for entry in result.entries} == set(P5)


# --- buying the cards at five and six (001 §7.1/§7.2, issue 12) ---------------------------------


def test_session_five_dealer_buys_the_cards_of_the_player_to_his_right_001_7_1() -> None:
    # Anna deals to the other four; Emil, to her right, owns the last four cards. Anna buys them,
    # plays in Emil's seat and pays him one Rufspiel price (the default, 10 ct); Emil sits out.
    result = session("allgaeu", P5, [{**solo("Anna", 80, deckel=1), "bought_by": "Anna"}])
    hand = result["hands"][0]
    assert hand["seats"] == ["Bert", "Cilli", "Done", "Anna"]
    assert hand["sitting_out"] == ["Emil"]
    assert hand["bought_by"] == "Anna"
    assert hand["lines"][-1] == {"label": "Karten gekauft: Anna zahlt Emil", "amount": 10}
    price = 2 * 25  # Solo 25, one Deckel
    assert hand["payouts"] == {"Anna": 3 * price - 10, "Bert": -price, "Cilli": -price, "Done": -price, "Emil": 10}
    assert sum(result["totals"].values()) == 0


def test_session_six_cutter_buys_when_the_dealer_does_not_001_7_2() -> None:
    # Six: Anna deals, Fritz (to her right) cuts, both sit out; Emil is dealt last and sells.
    result = session("allgaeu", P6, [{**ruf("Fritz", "Bert"), "bought_by": "Fritz"}])
    hand = result["hands"][0]
    assert hand["seats"] == ["Bert", "Cilli", "Done", "Fritz"]
    assert hand["sitting_out"] == ["Emil", "Anna"]
    assert hand["payouts"]["Emil"] == 10
    assert hand["payouts"]["Anna"] == 0
    assert hand["payouts"]["Fritz"] == 2 * 10 - 10
    dealer_buys = session("allgaeu", P6, [{**ruf("Anna", "Bert"), "bought_by": "Anna"}])["hands"][0]
    assert dealer_buys["sitting_out"] == ["Emil", "Fritz"]


def test_session_purchase_price_is_a_table_option_and_never_doubled() -> None:
    rules = {"preset": "allgaeu", "options": {"buy_price": 30}}
    hands = [ruf("Bert", "Cilli", augen=60), {**ruf("Anna", "Cilli"), "bought_by": "Anna"}]
    result = session(rules, P5, hands, first="Emil")
    bought = result["hands"][1]
    assert bought["bock"] == 1  # the 60:60 started a Bockrunde: the game doubles, the purchase does not
    assert bought["lines"][-1] == {"label": "Karten gekauft: Anna zahlt Emil", "amount": 30}
    assert bought["payouts"]["Emil"] == 30
    free = session(
        {"preset": "allgaeu", "options": {"buy_price": 0}}, P5, [{**ruf("Anna", "Bert"), "bought_by": "Anna"}]
    )
    assert free["hands"][0]["lines"][-1] == {"label": "Karten gekauft: Anna spielt für Emil"}
    assert free["hands"][0]["payouts"]["Emil"] == 0
    assert registry.load_with_table("allgaeu-meisterschaft")[1].buy_price == 0
    assert registry.load_with_table("standard")[1].buy_price == 20


@pytest.mark.parametrize(
    ("players", "hand", "code", "field"),
    [
        (P4, {**ruf("Anna", "Bert"), "bought_by": "Anna"}, "not_allowed", "hands[0].bought_by"),
        (P5, {**ruf("Bert", "Cilli"), "bought_by": "Bert"}, "not_allowed", "hands[0].bought_by"),
        (P5, {**ruf("Anna", "Bert"), "bought_by": "Zoe"}, "invalid_value", "hands[0].bought_by"),
        # the seller sits out: he cannot play
        (P5, {**ruf("Emil", "Bert"), "bought_by": "Anna"}, "invalid_value", "hands[0].declarer"),
        (P6, {**ruf("Anna", "Bert"), "bought_by": "Bert"}, "not_allowed", "hands[0].bought_by"),
    ],
)
def test_session_refuses_a_purchase_the_rules_do_not_allow(
    players: list[str], hand: dict[str, Any], code: str, field: str
) -> None:
    error = refused("allgaeu", players, [hand])
    assert (error.code, error.field) == (code, field)


def test_session_state_tells_who_may_buy() -> None:
    rules, table = registry.load_with_table("allgaeu")
    assert start(rules, table, P4, "Anna").buyers == ()
    assert start(rules, table, P5, "Anna").buyers == ("Anna",)
    assert set(start(rules, table, P6, "Anna").buyers) == {"Anna", "Fritz"}
    dk, dk_table = registry.load_with_table("doppelkopf")
    assert start(dk, dk_table, P5, "Anna").buyers == ()


# --- the Stöcklesrunde (001 §5.4/§5.5, issue 12) ------------------------------------------------

STOECKLE_GAMES = ["solo", "wenz", "bettel", "rufspiel", "mungo"]


def stoeckle_hand(game: str, player: str, partner: str = "Anna") -> dict[str, Any]:
    if game == "solo":
        return solo(player, 80)
    if game == "wenz":
        return {"game": "wenz", "declarer": player, "augen": 80}
    if game == "bettel":
        return {"game": "bettel", "declarer": player, "tricks": 0}
    if game == "rufspiel":
        return ruf(player, partner if partner != player else "Bert", deckel=0)
    return {**mungo(P4), "declarer": player}


def test_session_stoecklesrunde_shows_each_players_stoeckle_and_hands_them_in_001_5_4() -> None:
    rules, table = registry.load_with_table("allgaeu")
    hands = [
        {"event": "special_round", "kind": "stoecklesrunde"},
        stoeckle_hand("wenz", "Bert"),
        stoeckle_hand("mungo", "Cilli"),
    ]
    result = fold(rules, table, P4, "Anna", hands)
    state = result.state
    held = dict(state.stoeckle)
    assert held["Bert"] == ("solo", "bettel", "rufspiel", "mungo")
    assert held["Cilli"] == ("solo", "wenz", "bettel", "rufspiel")
    assert held["Anna"] == tuple(STOECKLE_GAMES)
    doc = result.as_dict()
    assert doc["pending_rounds"][0]["games"] == 18
    assert doc["pending_rounds"][0]["stoeckle"]["Bert"] == ["solo", "bettel", "rufspiel", "mungo"]


def test_session_stoecklesrunde_refuses_a_game_already_played_001_5_4() -> None:
    hands = [
        {"event": "special_round", "kind": "stoecklesrunde"},
        stoeckle_hand("wenz", "Bert"),
        stoeckle_hand("wenz", "Bert"),
    ]
    error = refused("allgaeu", P4, hands)
    assert (error.code, error.field) == ("not_allowed", "hands[2].game")
    assert (
        error.message
        == "Bert hat Wenz in dieser Runde schon gespielt; übrig: Solo, Bettel, Rufspiel, Mungo (001 §5.4)."
    )
    # Another player's Wenz is fine, and so is a Sie: it has no Stöckle.
    ok = session("allgaeu", P4, [*hands[:2], stoeckle_hand("wenz", "Cilli"), {"game": "sie", "declarer": "Bert"}])
    assert ok["pending_rounds"][0]["games"] == 18


def test_session_stoecklesrunde_mungo_names_whose_stoeckle_it_was() -> None:
    hands = [{"event": "special_round", "kind": "stoecklesrunde"}, mungo(P4)]
    error = refused("allgaeu", P4, hands)
    assert (error.code, error.field) == ("missing_field", "hands[1].declarer")
    # Outside the round a Mungo has no declarer.
    error = refused("allgaeu", P4, [{**mungo(P4), "declarer": "Anna"}])
    assert (error.code, error.field) == ("unexpected_field", "hands[0].declarer")


def test_session_stoecklesrunde_ends_when_every_stoeckle_is_played_001_5_4() -> None:
    # "Diese Runde ist beendet nachdem alle Ihre Stöckle abgespielt haben": 4 × 5 games.
    hands: list[dict[str, Any]] = [{"event": "special_round", "kind": "stoecklesrunde"}]
    hands += [stoeckle_hand(game, player) for player in P4 for game in STOECKLE_GAMES]
    hands.append(ruf("Anna", "Bert"))
    result = session("allgaeu", P4, hands)
    assert col(result, "round")[1:21] == ["stoecklesrunde"] * 20
    assert result["hands"][21]["round"] == "normal"
    assert result["pending_rounds"] == []


def test_session_stoecklesrunde_the_last_must_play_else_the_one_before_001_5_4() -> None:
    # "wenn keiner spielen will muss der Letzte spielen (hat dieser bereits alle Spiele gehabt, so
    # muss der Vorletzte usw.)": Anna deals the first game, so Anna (the dealer) is the last to
    # speak; once her five Stöckle are gone it is Done, the one before her.
    rules, table = registry.load_with_table("allgaeu")
    state = advance(
        rules, table, start(rules, table, P4, "Anna"), {"event": "special_round", "kind": "stoecklesrunde"}
    )[1]
    assert state.must_play == "Anna"
    error = refused(
        "allgaeu", P4, [{"event": "special_round", "kind": "stoecklesrunde"}, {"event": "zusammengeworfen"}]
    )
    assert (error.code, error.field) == ("not_allowed", "hands[1].event")
    assert "muss Anna spielen" in error.message
    hands = [{"event": "special_round", "kind": "stoecklesrunde"}]
    hands += [stoeckle_hand(game, "Anna", "Bert") for game in STOECKLE_GAMES[:4]]
    # four hands later Anna deals again; she still holds her Mungo
    assert fold(rules, table, P4, "Anna", hands).state.must_play == "Anna"
    hands.append(stoeckle_hand("mungo", "Anna"))
    state = fold(rules, table, P4, "Anna", hands).state
    assert state.dealer == "Bert"  # seats Cilli, Done, Anna, Bert: Bert is last and holds all five
    assert state.must_play == "Bert"
    hands += [stoeckle_hand(game, "Bert") for game in STOECKLE_GAMES]
    state = fold(rules, table, P4, "Anna", hands).state
    assert state.dealer == "Cilli"  # seats Done, Anna, Bert, Cilli
    assert state.must_play == "Cilli"
    hands += [stoeckle_hand(game, "Cilli") for game in STOECKLE_GAMES]
    state = fold(rules, table, P4, "Anna", hands).state
    # Done deals; seats Anna, Bert, Cilli, Done: Done still holds all, so Done.
    assert state.must_play == "Done"


def test_session_megastoecklesrunde_adds_geier_farbgeier_farbwenz_001_5_5() -> None:
    rules, table = registry.load_with_table("allgaeu")
    hands = [
        {"event": "special_round", "kind": "megastoecklesrunde"},
        {"game": "farbgeier", "suit": "gras", "declarer": "Bert", "augen": 70},
    ]
    state = fold(rules, table, P4, "Anna", hands).state
    assert dict(state.stoeckle)["Bert"] == ("solo", "wenz", "bettel", "rufspiel", "mungo", "geier", "farbwenz")
    error = refused("allgaeu", P4, [*hands, {"game": "farbgeier", "suit": "eichel", "declarer": "Bert", "augen": 70}])
    assert error.field == "hands[2].game"
