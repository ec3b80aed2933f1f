"""The Skat form's taps → a hand's facts (``skat_facts.skat_hand_facts``), and the table facts a
Skat form and list are made for (``entry_facts.table_facts``): pure, so the server's form and the
phone offline make the same facts. Every tapped example is scored by the evening fold."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine import registry
from scoring.engine.entry_facts import table_facts
from scoring.engine.presets.skat_facts import skat_hand_facts
from scoring.engine.session import advance, fold, start

P4 = ["Anna", "Bert", "Cilli", "Done"]


def tapped(values: dict[str, Any], dealer: str = "Anna") -> dict[str, Any]:
    return skat_hand_facts(values, players=P4, dealer=dealer)


@pytest.mark.parametrize(
    ("name", "taps", "facts", "entry"),
    [
        # Kreuz, Bert, mit 2, gewonnen: four taps.
        (
            "suit_game_won",
            {"game": "kreuz", "declarer": "Bert", "spitzen": 2, "result": "won"},
            {"game": "kreuz", "declarer": "Bert", "spitzen": 2, "result": "won"},
            36,
        ),
        (
            "ohne_hand_lost_with_augen",
            {"game": "karo", "declarer": "Cilli", "spitzen": 2, "ohne": True, "hand": True, "augen": 50, "result": ""},
            {"game": "karo", "declarer": "Cilli", "spitzen": 2, "ohne": True, "hand": True, "augen": 50},
            -72,
        ),
        (
            "schwarz_button_beside_the_augen",
            {"game": "grand", "declarer": "Done", "spitzen": 1, "augen": 120, "result": "won_schwarz"},
            {
                "game": "grand",
                "declarer": "Done",
                "spitzen": 1,
                "augen": 120,
                "schwarz": "opponents",
                "result": "won_schwarz",
            },
            24 * 4,  # mit 1, Spiel, Schneider, Schwarz
        ),
        (
            "null_drops_spitzen_and_keeps_won_or_lost",
            {"game": "null", "declarer": "Bert", "spitzen": 3, "ouvert": True, "result": "lost_schneider", "bid": 20},
            {"game": "null", "declarer": "Bert", "ouvert": True, "result": "lost"},
            -92,
        ),
        (
            "announced_with_a_bid",
            {
                "game": "herz",
                "declarer": "Bert",
                "spitzen": 1,
                "hand": True,
                "announced": "schneider",
                "result": "won_schneider",
                "bid": 30,
            },
            {
                "game": "herz",
                "declarer": "Bert",
                "spitzen": 1,
                "hand": True,
                "announced": "schneider",
                "result": "won_schneider",
                "bid": 30,
            },
            50,
        ),
    ],
)
def test_skat_taps_make_the_facts(name: str, taps: dict[str, Any], facts: dict[str, Any], entry: int) -> None:
    made = tapped(taps)
    assert made == facts
    ruleset, table = registry.load_with_table("skat")
    result, _state = advance(ruleset, table, start(ruleset, table, P4, "Anna"), made)
    assert result.hand is not None and result.hand.sheet is not None
    assert sum(result.hand.sheet.written.values()) == entry


def test_skat_ramsch_taps_by_seat_and_another_dealer() -> None:
    values = {
        "game": "ramsch",
        "augen_0": None,
        "augen_1": 60,
        "augen_2": 40,
        "augen_3": 20,
        "tricks_1": 5,
        "tricks_2": 3,
        "tricks_3": 2,
        "geschoben": 1,
        "declarer": "Bert",
        "dealer": "Bert",
    }
    assert tapped(values) == {
        "game": "ramsch",
        "augen_by_player": {"Bert": 60, "Cilli": 40, "Done": 20},
        "tricks_by_player": {"Bert": 5, "Cilli": 3, "Done": 2},
        "geschoben": 1,
        "dealer": "Bert",
    }
    assert "dealer" not in tapped({**values, "dealer": "Anna"})


def test_skat_table_facts_carry_the_form_and_the_list() -> None:
    spec = {"preset": "skat", "options": {"kontra_re": True, "spitzen_only_buben": True}}
    ruleset, table = registry.load_with_table(spec)
    log = [{"game": "kreuz", "declarer": "Bert", "spitzen": 2, "augen": 40}]
    facts = table_facts(ruleset, fold(ruleset, table, P4, "Anna", log).state)
    assert (facts["dealer"], facts["sitting_out"], facts["seats"]) == ("Bert", ["Bert"], ["Cilli", "Done", "Anna"])
    assert facts["list"] == {"Anna": 0, "Bert": -72, "Cilli": 0, "Done": 0}
    assert facts["games"]["Bert"] == {"won": 0, "lost": 1}
    form = facts["form"]
    assert form["games"] == ["karo", "herz", "pik", "kreuz", "grand", "null"]
    assert form["spitzen_max"] == {"karo": 4, "herz": 4, "pik": 4, "kreuz": 4, "grand": 4}
    assert form["bid_games"] == ["karo", "herz", "pik", "kreuz", "grand"]  # a Null is never overbid
    assert form["reizwerte"][:3] == [18, 20, 22] and form["kontra"] is True and form["schieberamsch"] is False
