"""Saukopf (seed 000): every worked example of the "Beispiele" section, by name, with the seed's
exact bookings; then the validation of what a table may announce and record."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from scoring.engine.api import score_hand_document
from scoring.engine.core import Context, EngineError
from scoring.engine.presets.saukopf_trumps import keiler_trumps
from scoring.engine.registry import load


def score(seats: list[str], options: dict[str, Any] | None = None, **hand: Any) -> dict[str, Any]:
    ruleset: Any = {"preset": "saukopf", "options": options} if options else "saukopf"
    return score_hand_document({"ruleset": ruleset, "seats": seats, **hand})


def lines(result: dict[str, Any]) -> list[tuple[str, int]]:
    return [(line["label"], line["amount"]) for line in result["lines"]]


# --- Vierhaxer-Abrechnungen ------------------------------------------------------------------


def test_saukopf_example_offene_zucht_otto() -> None:
    # Otto loses an open Zucht: Kopfgeld Sieg 2, Offen 1; each opponent +3, Otto -9.
    result = score(
        ["Otto", "Anna", "Bert", "Cilli"],
        game="zucht",
        suit="eichel",
        declarer="Otto",
        bid=70,
        augen=55,
        offen=True,
        laufende=2,
        laufende_side="opponents",
    )
    assert result["winner"] == "opponents"
    assert lines(result) == [("Sieg", 2), ("Offen", 1)]
    assert result["payouts"] == {"Otto": -9, "Anna": 3, "Bert": 3, "Cilli": 3}
    assert result["price"] == 3


def test_saukopf_example_feige_sau_alois() -> None:
    # Bid 85: at most 17 Augen. Alois and one opponent stay without a trick; Alois wins with
    # Sieg 2, Schwarz 1; the Hinterhalt costs nothing because he won.
    result = score(
        ["Alois", "Anna", "Bert", "Cilli"],
        game="feige_sau",
        declarer="Alois",
        bid=85,
        haxnspalter="hinterhalt",
        augen_by_player={"Alois": 0, "Anna": 0, "Bert": 50, "Cilli": 70},
        tricks_by_player={"Alois": 0, "Anna": 0, "Bert": 3, "Cilli": 5},
    )
    assert result["winner"] == "declarer"
    assert lines(result) == [("Sieg", 2), ("Schwarz", 1)]
    assert result["payouts"] == {"Alois": 9, "Anna": -3, "Bert": -3, "Cilli": -3}


SEPP = {
    "game": "grosskopferter",
    "declarer": "Sepp",
    "partner": "Hias",
    "called": "gras_ober",
    "bid": 80,
    "augen": 77,
    "saukopf": "declarer",  # the partner catches the opponents' Herz-Sau
    "mueller": "declarer",  # Sepp takes the last trick with the Eichel-Unter
}


def test_saukopf_example_grosskopferter_sepp() -> None:
    # 77 of 80: lost. Kopfgeld Sieg 2, Saukopf -1, Müller -1 = 0; Sepp alone pays
    # Rauborstigkeit 1 and Bolzenschuss 2 to each opponent; the partner pays nothing.
    result = score(["Sepp", "Hias", "Anna", "Bert"], **SEPP, laufende=2, laufende_side="opponents")
    assert result["winner"] == "opponents"
    assert lines(result) == [
        ("Sieg", 2),
        ("Saukopf der Verlierer", -1),
        ("Müller der Verlierer", -1),
        ("Strafpunkt Rauborstigkeit (Gebot ab 75)", 1),
        ("Strafpunkte Bolzenschuss (Großkopferter)", 2),
    ]
    assert result["payouts"] == {"Sepp": -6, "Hias": 0, "Anna": 3, "Bert": 3}
    assert result["price"] == 0


def test_saukopf_example_negatives_kopfgeld() -> None:
    # As Sepp's game, but the opponents win with more than 3 Laufende: Glücksschwein makes the
    # Kopfgeld negative; nobody gets it and it is not set against the penalties.
    result = score(["Sepp", "Hias", "Anna", "Bert"], **SEPP, laufende=4, laufende_side="opponents")
    assert lines(result) == [
        ("Sieg", 2),
        ("Glücksschwein (mit 4 Laufenden)", -1),
        ("Saukopf der Verlierer", -1),
        ("Müller der Verlierer", -1),
        ("Negatives Kopfgeld verfällt", 1),
        ("Strafpunkt Rauborstigkeit (Gebot ab 75)", 1),
        ("Strafpunkte Bolzenschuss (Großkopferter)", 2),
    ]
    assert result["payouts"] == {"Sepp": -6, "Hias": 0, "Anna": 3, "Bert": 3}
    assert result["price"] == 0


def test_saukopf_example_unreine_sauerei_zenzi() -> None:
    # Unreine Sauerei am Spieß mit Aufschlag, bid 95, 93 Augen with 4 Laufende: lost.
    # Kopfgeld Sieg 2 + Ohne 4 = 6 (first booking: Zenzi and Girgl -6, opponents +6); then
    # Rauborstigkeit, Stallgeruch, Quieker 1 each and Haxnspalter 3 from Zenzi alone: +6 / -12.
    result = score(
        ["Zenzi", "Girgl", "Vroni", "Kati"],
        game="unreine_sauerei",
        declarer="Zenzi",
        partner="Girgl",
        called="herz_sau",
        bid=95,
        spiess=True,
        haxnspalter="aufschlag",
        augen=93,
        laufende=4,
        laufende_side="declarer",
    )
    assert result["winner"] == "opponents"
    assert lines(result) == [
        ("Sieg", 2),
        ("Ohne 4 Laufende", 4),
        ("Strafpunkt Quieker (Spieß)", 1),
        ("Strafpunkt Stallgeruch (Unreine Sauerei)", 1),
        ("Strafpunkt Rauborstigkeit (Gebot ab 75)", 1),
        ("Strafpunkte Haxnspalter (Aufschlag)", 3),
    ]
    assert result["price"] == 6
    assert result["payouts"] == {"Zenzi": -6 - 12, "Girgl": -6, "Vroni": 6 + 6, "Kati": 6 + 6}


def test_saukopf_example_unechte_unreine_sauerei() -> None:
    # Zenzi holds the Herz-Sau herself, no Zusatzansagen, 2 Laufende: lost. Kopfgeld 4 (Sieg 2,
    # Ohne 2); Stallgeruch 1 but no Rauborstigkeit (only echte Paarhufer). +5 each, Zenzi -15.
    result = score(
        ["Zenzi", "Girgl", "Vroni", "Kati"],
        game="unreine_sauerei",
        declarer="Zenzi",
        partner=None,
        bid=95,
        augen=93,
        laufende=2,
        laufende_side="declarer",
    )
    assert lines(result) == [("Sieg", 2), ("Ohne 2 Laufende", 2), ("Strafpunkt Stallgeruch (Unreine Sauerei)", 1)]
    assert result["payouts"] == {"Zenzi": -15, "Girgl": 5, "Vroni": 5, "Kati": 5}


# --- Dreihaxer-Abrechnungen ------------------------------------------------------------------


def test_saukopf_example_mit_trog_hansi() -> None:
    # Hybridschwein with the Trog, lost: Sieg 2 and Trogsauger 2 (the seed lists both under
    # "Kopfgeld 4"; Trogsauger is a Grobschlächterstrafpunkt, the booking is the same).
    result = score(
        ["Hansi", "Anna", "Bert"],
        game="hybridschwein",
        declarer="Hansi",
        trog=True,
        bid=61,
        augen=50,
        laufende=1,
        laufende_side="opponents",
    )
    assert lines(result) == [("Sieg", 2), ("Strafpunkte Trogsauger", 2)]
    assert result["payouts"] == {"Hansi": -8, "Anna": 4, "Bert": 4}


def test_saukopf_example_ohne_trog_bert() -> None:
    # Eichel Hauer without the Trog (Eichel Unter and a Neuner lie there, 2 Augen for nobody):
    # the Gras Unter is the opponents', so Bert wins Ohne 1. Kopfgeld 3; Bert +6, each -3.
    result = score(
        ["Bert", "Anna", "Cilli"],
        game="hauer",
        suit="eichel",
        declarer="Bert",
        bid=65,
        augen=70,
        augen_opponents=48,
        laufende=1,
        laufende_side="opponents",
    )
    assert result["winner"] == "declarer"
    assert lines(result) == [("Sieg", 2), ("Ohne 1 Laufenden", 1)]
    assert result["payouts"] == {"Bert": 6, "Anna": -3, "Cilli": -3}


# --- further examples ------------------------------------------------------------------------


def test_saukopf_example_hauer_unter_im_trog() -> None:
    # Schellen Hauer, Eichel Unter in the Trog, Herz and Schellen Unter in hand, Gras Unter with
    # the opponents. With the Trog: Mit 1 (nothing); without: Ohne 1.
    hand = {"game": "hauer", "suit": "schellen", "declarer": "Hias", "bid": 61, "augen": 70}
    seats = ["Hias", "Anna", "Bert"]
    with_trog = score(seats, **hand, trog=True, laufende=1, laufende_side="declarer")
    assert lines(with_trog) == [("Sieg", 2)]
    assert with_trog["payouts"] == {"Hias": 4, "Anna": -2, "Bert": -2}
    without = score(seats, **hand, augen_opponents=48, laufende=1, laufende_side="opponents")
    assert lines(without) == [("Sieg", 2), ("Ohne 1 Laufenden", 1)]
    assert without["payouts"] == {"Hias": 6, "Anna": -3, "Bert": -3}


def test_saukopf_example_rauborstige_mastung_simmerl() -> None:
    # Schwarte for 72; Reiner wins the Mastgrunzen with 75. If they lose, Simmerl alone pays
    # Rauborstigkeit 1 to Kati and Vroni; Reiner only pays his share of the Kopfgeld.
    seats = ["Simmerl", "Kati", "Reiner", "Vroni"]
    hand = {
        "game": "schwarte",
        "declarer": "Simmerl",
        "partner": "Reiner",
        "bid": 72,
        "augen": 60,
        "laufende": 2,
        "laufende_side": "opponents",
    }
    result = score(seats, **hand, mast_bid=75)
    assert lines(result) == [("Sieg", 2), ("Strafpunkt Rauborstigkeit (Gebot ab 75)", 1)]
    assert result["payouts"] == {"Simmerl": -2 - 2, "Kati": 2 + 1, "Reiner": -2, "Vroni": 2 + 1}
    # Had Vroni's 74 won the Mastgrunzen, the Mästung would not be rauborstig.
    result = score(seats, **hand, mast_bid=74)
    assert lines(result) == [("Sieg", 2)]
    assert result["payouts"] == {"Simmerl": -2, "Kati": 2, "Reiner": -2, "Vroni": 2}


def _feige_sau(bid: Any, kati: int, others: tuple[int, int, int], **extra: Any) -> dict[str, Any]:
    seats = ["Kati", "Anna", "Bert", "Cilli"]
    augen = dict(zip(seats, (kati, *others), strict=True))
    return score(seats, game="feige_sau", declarer="Kati", bid=bid, augen_by_player=augen, **extra)


def test_saukopf_example_gewinnkriterium_feige_sau_kati() -> None:
    # Bid 95: (120 - 95) / 2 = 12.5, so at most 12 Augen, and not more than the lowest opponent.
    assert _feige_sau(95, 12, (20, 40, 48))["winner"] == "declarer"
    assert _feige_sau(95, 13, (20, 40, 47))["winner"] == "opponents"
    assert _feige_sau(95, 10, (9, 50, 51))["winner"] == "opponents"
    assert _feige_sau(95, 12, (12, 48, 48))["winner"] == "declarer"  # equal to the lowest is allowed


def test_saukopf_example_feige_sau_90() -> None:
    # 000 "Feige Sau": bid 90 gives 15. The rule says "nicht überschreiten"/"höchstens", the
    # example "unter 15": 15 wins by default and loses with the strict option.
    assert _feige_sau(90, 15, (20, 40, 45))["winner"] == "declarer"
    strict = {"feige_sau_strict_half": True}
    assert _feige_sau(90, 15, (20, 40, 45), options=strict)["winner"] == "opponents"
    assert _feige_sau(90, 14, (20, 40, 46), options=strict)["winner"] == "declarer"


def test_saukopf_example_gewinnkriterium_feige_sau_85() -> None:
    # From Alois' example: 120 - 85 = 35, half 17.5, so 17 is the most.
    assert _feige_sau(85, 17, (20, 40, 43))["winner"] == "declarer"
    assert _feige_sau(85, 18, (20, 40, 42))["winner"] == "opponents"


def _mastschwein(simmerl: int, partner: int, anna: int, bert: int) -> str:
    seats = ["Simmerl", "Reiner", "Anna", "Bert"]
    augen = dict(zip(seats, (simmerl, partner, anna, bert), strict=True))
    result = score(
        seats,
        game="feiges_mastschwein",
        declarer="Simmerl",
        partner="Reiner",
        bid=95,
        mast_bid=100,
        augen_by_player=augen,
    )
    return str(result["winner"])


def test_saukopf_example_gewinnkriterium_feiges_mastschwein_simmerl() -> None:
    # Bid 95: together at most 25 (the opponents reach the 95), neither above the lowest opponent.
    assert _mastschwein(12, 13, 40, 55) == "declarer"
    assert _mastschwein(12, 14, 40, 54) == "opponents"  # 26 together
    assert _mastschwein(5, 20, 15, 80) == "opponents"  # Reiner above the lowest opponent
    assert _mastschwein(0, 25, 25, 70) == "declarer"


def test_saukopf_example_0_augen_ramscher() -> None:
    # Feige Sau: the declarer takes one trick without Augen, an opponent stays Schwarz.
    hand = {
        "augen_by_player": {"Kati": 0, "Anna": 0, "Bert": 60, "Cilli": 60},
        "tricks_by_player": {"Kati": 1, "Anna": 0, "Bert": 3, "Cilli": 4},
    }
    seats = ["Kati", "Anna", "Bert", "Cilli"]
    won = score(seats, game="feige_sau", declarer="Kati", bid=80, **hand)
    assert won["winner"] == "declarer"
    assert lines(won) == [("Sieg", 2)]  # no Schwarz: she took a trick
    assert won["payouts"] == {"Kati": 6, "Anna": -2, "Bert": -2, "Cilli": -2}
    lost = score(seats, game="feige_sau", declarer="Kati", bid="schwarz", **hand)
    assert lost["winner"] == "opponents"
    assert lost["payouts"] == {"Kati": -6, "Anna": 2, "Bert": 2, "Cilli": 2}


def test_saukopf_example_grunzereien() -> None:
    # "Hätte B auf Schwarz erhöht ... hätte dann aber auch Schwarz gewinnen müssen."
    seats = ["B", "A", "C", "D"]
    hand = {"game": "eber", "declarer": "B", "bid": "schwarz", "augen": 120, "laufende": 4}
    lost = score(seats, **hand, tricks=7, laufende_side="declarer")  # a trick without Augen lost
    assert lost["winner"] == "opponents"
    assert lines(lost) == [("Sieg", 2), ("Ohne 4 Laufende", 4)]  # the opponents won without them
    assert lost["payouts"] == {"B": -18, "A": 6, "C": 6, "D": 6}
    won = score(seats, **hand, tricks=8, laufende_side="declarer")
    assert won["winner"] == "declarer"
    assert lines(won) == [("Sieg", 2), ("Schneider", 1), ("Schwarz", 1), ("Glücksschwein (mit 4 Laufenden)", -1)]
    assert won["payouts"] == {"B": 9, "A": -3, "C": -3, "D": -3}


def test_saukopf_example_keiler_truempfe() -> None:
    # Herz Keiler, Schlagtrumpf Ober: Herz König, Schellen 7, Eichel 7, Herz Ober (Haube), the
    # other 3 Ober, Herz Sau, 10, Unter, 9, 8, 7.
    assert keiler_trumps("herz", "ober") == (
        "herz_koenig",
        "schellen_sieben",
        "eichel_sieben",
        "herz_ober",
        "eichel_ober",
        "gras_ober",
        "schellen_ober",
        "herz_sau",
        "herz_zehn",
        "herz_unter",
        "herz_neun",
        "herz_acht",
        "herz_sieben",
    )
    # Eichel Keiler, Schlagtrumpf Siebener: only Gras 7 and Herz 7 are left as Schlagtrümpfe.
    eichel_sieben = keiler_trumps("eichel", "sieben")
    assert eichel_sieben[3:5] == ("gras_sieben", "herz_sieben")
    assert len(eichel_sieben) == 3 + 2 + 7
    # Gras Keiler, Schlagtrumpf Unter: the Gras Unter is a Schlagtrumpf, not a Farbtrumpf.
    gras_unter = keiler_trumps("gras", "unter")
    assert gras_unter.count("gras_unter") == 1
    assert gras_unter.index("gras_unter") == 3  # the Haube
    assert len(gras_unter) == 3 + 4 + 7

    # The engine bounds the Laufende by those trumps: 13 in the Herz Keiler with Ober.
    hand = {
        "game": "keiler",
        "suit": "herz",
        "schlagtrumpf": "ober",
        "declarer": "A",
        "bid": 70,
        "augen": 80,
        "laufende_side": "declarer",
    }
    seats = ["A", "B", "C", "D"]
    assert score(seats, **hand, laufende=13)["winner"] == "declarer"
    with pytest.raises(EngineError) as err:
        score(seats, **hand, laufende=14)
    assert err.value.field == "laufende"
    with pytest.raises(EngineError) as err:
        score(seats, **{**hand, "suit": "eichel", "schlagtrumpf": "sieben"}, laufende=13)
    assert err.value.field == "laufende"
    with pytest.raises(EngineError) as err:
        score(seats, **{k: v for k, v in hand.items() if k != "schlagtrumpf"}, laufende=3)
    assert (err.value.code, err.value.field) == ("missing_field", "schlagtrumpf")


# --- other rules -----------------------------------------------------------------------------


def test_saukopf_huftritt_and_gegenhieb_raise_the_kopfgeld_for_whoever_wins() -> None:
    result = score(
        ["A", "B", "C", "D"],
        game="sauerei",
        called="gras",
        declarer="A",
        partner="C",
        bid=70,
        augen=70,
        huftritt=True,
        gegenhieb=True,
        laufende=3,
        laufende_side="declarer",
        saukopf="opponents",
        mueller="declarer",
    )
    assert lines(result) == [
        ("Sieg", 2),
        ("Huftritt", 2),
        ("Gegenhieb", 2),
        ("Saukopf der Verlierer", -1),
        ("Müller", 1),
    ]
    assert result["payouts"] == {"A": 6, "B": -6, "C": 6, "D": -6}


def test_saukopf_schneider_is_under_30() -> None:
    seats = ["A", "B", "C", "D"]
    hand = {"game": "wutz", "declarer": "A", "bid": 61, "laufende": 1, "laufende_side": "declarer"}
    assert lines(score(seats, **hand, augen=91)) == [("Sieg", 2), ("Schneider", 1)]
    assert lines(score(seats, **hand, augen=90)) == [("Sieg", 2)]  # 30 is not "unter 30"
    assert lines(score(seats, {"schneider_below": 31}, **hand, augen=90)) == [("Sieg", 2), ("Schneider", 1)]


def test_saukopf_knorpel_is_held_by_an_opponent() -> None:
    # The single trump sits with an opponent: a won Knorpel is always "Ohne 1".
    result = score(["A", "B", "C"], game="knorpel", knorpel="gras_koenig", declarer="A", bid=61, augen=70)
    assert lines(result) == [("Sieg", 2), ("Ohne 1 Laufenden", 1)]


def test_saukopf_knorpel_laufende_message_says_the_rule_not_a_range_of_one() -> None:
    with pytest.raises(EngineError) as info:
        score(["A", "B", "C"], game="knorpel", knorpel="gras_koenig", declarer="A", bid=61, augen=70, laufende=2)
    assert (info.value.field, info.value.message) == (
        "laufende",
        "Beim Knorpel gibt es genau einen Laufenden: den Knorpel selbst.",
    )


def test_saukopf_offen_unechter_paarhufer_keeps_saukopf_and_mueller() -> None:
    result = score(
        ["A", "B", "C", "D"],
        game="grosskopferter",
        called="eichel",
        declarer="A",
        bid=61,
        augen=61,
        offen=True,
        laufende=5,
        laufende_side="declarer",
        saukopf="declarer",
        mueller="opponents",
    )
    assert lines(result) == [
        ("Sieg", 2),
        ("Offen", 1),
        ("Glücksschwein (mit 5 Laufenden)", -1),
        ("Saukopf", 1),
        ("Müller der Verlierer", -1),
    ]
    assert result["payouts"] == {"A": 6, "B": -2, "C": -2, "D": -2}


def test_saukopf_outcome_for_statistics() -> None:
    ruleset = load("saukopf")
    hand = {
        "game": "sauerei",
        "called": "schellen_sau",
        "declarer": "A",
        "partner": "B",
        "bid": 80,
        "augen": 95,
        "huftritt": True,
        "laufende": 2,
        "laufende_side": "opponents",
    }
    result = ruleset.score(hand, ("A", "B", "C", "D"), Context())
    outcome = result.outcome
    assert (outcome.game, outcome.declarer, outcome.partner) == ("sauerei", "A", "B")
    assert outcome.declarer_won and outcome.schneider and not outcome.schwarz
    assert (outcome.augen, outcome.laufende, outcome.kontra, outcome.last_kontra) == (95, 2, 1, "opponents")
    assert not outcome.solo
    assert result.price == 2 + 2 + 1 + 2


# --- validation ------------------------------------------------------------------------------

FOUR = ["A", "B", "C", "D"]
THREE = ["A", "B", "C"]
ZUCHT = {
    "game": "zucht",
    "suit": "gras",
    "declarer": "A",
    "bid": 70,
    "augen": 80,
    "laufende": 2,
    "laufende_side": "declarer",
}
SAUEREI = {**ZUCHT, "game": "sauerei", "suit": None, "called": "eichel", "partner": "B"}
SCHWARTE = {**ZUCHT, "game": "schwarte", "suit": None, "partner": "B", "mast_bid": 75}
FEIGE = {
    "game": "feige_sau",
    "declarer": "A",
    "bid": 90,
    "augen_by_player": {"A": 10, "B": 30, "C": 40, "D": 40},
}
MAST = {**FEIGE, "game": "feiges_mastschwein", "partner": "B", "mast_bid": 95}


def case(name: str, base: dict[str, Any], code: str, field: str, seats: list[str] = FOUR, **changes: Any) -> Any:
    """One refused hand: ``base`` with ``changes`` applied (None removes a field)."""
    hand = {key: value for key, value in {**base, **changes}.items() if value is not None}
    return pytest.param(seats, hand, code, field, id=name)


INVALID = [
    case("paarhufer_only_at_four", SAUEREI, "invalid_value", "game", seats=THREE),
    case("gegenhieb_needs_huftritt", ZUCHT, "invalid_value", "gegenhieb", gegenhieb=True),
    case("offen_not_in_echter_paarhufer", SAUEREI, "invalid_value", "offen", offen=True),
    case("offen_not_in_mastung", SCHWARTE, "invalid_value", "offen", offen=True),
    case("trog_only_at_three", ZUCHT, "invalid_value", "trog", trog=True),
    case("keiler_rank", ZUCHT, "invalid_value", "schlagtrumpf", game="keiler", schlagtrumpf="bube"),
    case("zucht_needs_suit", ZUCHT, "missing_field", "suit", suit=None),
    case("no_partner_in_solo", ZUCHT, "unexpected_field", "partner", game="eber", suit=None, partner="B"),
    case("no_suit_in_eber", ZUCHT, "unexpected_field", "suit", game="eber"),
    case("knorpel_needs_card", ZUCHT, "missing_field", "knorpel", game="knorpel", suit=None),
    case("knorpel_card", ZUCHT, "invalid_value", "knorpel", game="knorpel", suit=None, knorpel="gras_bube"),
    case(
        "knorpel_with_opponent",
        ZUCHT,
        "invalid_value",
        "laufende_side",
        game="knorpel",
        suit=None,
        knorpel="gras_sau",
        laufende=1,
    ),
    case("sauerei_needs_called", SAUEREI, "missing_field", "called", called=None),
    case("sauerei_not_herz_sau", SAUEREI, "invalid_value", "called", called="herz"),
    case("sauerei_calls_a_sau", SAUEREI, "invalid_value", "called", called="gras_ober"),
    case("unreine_calls_herz_sau", SAUEREI, "invalid_value", "called", game="unreine_sauerei", called="gras"),
    case("grosskopferter_calls_ober", SAUEREI, "invalid_value", "called", game="grosskopferter", called="eichel_sau"),
    case("called_type", SAUEREI, "invalid_type", "called", called=3),
    case("partner_not_declarer", SAUEREI, "invalid_value", "partner", partner="A"),
    case("partner_at_table", SAUEREI, "invalid_value", "partner", partner="Z"),
    case("mastung_has_partner", SCHWARTE, "missing_field", "partner", partner=None),
    case("mastung_needs_mast_bid", SCHWARTE, "missing_field", "mast_bid", mast_bid=None),
    case("mast_bid_overbids", SCHWARTE, "invalid_value", "mast_bid", mast_bid=70),
    case("no_mastgrunzen_after_schwarz", SCHWARTE, "invalid_value", "mast_bid", bid="schwarz", mast_bid="schwarz"),
    case("mast_bid_only_mastung", ZUCHT, "unexpected_field", "mast_bid", mast_bid=80),
    case("bid_at_least_1", ZUCHT, "out_of_range", "bid", bid=0),
    case("bid_at_most_120", ZUCHT, "out_of_range", "bid", bid=121),
    case("bid_word", ZUCHT, "invalid_type", "bid", bid="Schwarz!"),
    case("bid_required", ZUCHT, "missing_field", "bid", bid=None),
    case("augen_at_most_120", ZUCHT, "out_of_range", "augen", augen=121),
    case("augen_at_least_0", ZUCHT, "out_of_range", "augen", augen=-1),
    case("augen_required", ZUCHT, "missing_field", "augen", augen=None),
    case("augen_sum_120_at_four", ZUCHT, "inconsistent", "augen_opponents", augen_opponents=50),
    case("trog_holds_at_most_22", ZUCHT, "inconsistent", "augen_opponents", seats=THREE, augen_opponents=17),
    case("augen_sum_not_above_120", ZUCHT, "inconsistent", "augen_opponents", seats=THREE, augen_opponents=41),
    case(
        "augen_sum_120_with_trog", ZUCHT, "inconsistent", "augen_opponents", seats=THREE, trog=True, augen_opponents=30
    ),
    case("laufende_of_zucht", ZUCHT, "out_of_range", "laufende", laufende=15),
    case("laufende_at_least_1", ZUCHT, "out_of_range", "laufende", laufende=0),
    case("laufende_required", ZUCHT, "missing_field", "laufende", laufende=None),
    case("laufende_side_required", ZUCHT, "missing_field", "laufende_side", laufende_side=None),
    case("laufende_of_eber", ZUCHT, "out_of_range", "laufende", game="eber", suit=None, laufende=5),
    case("no_laufende_in_ramsch", FEIGE, "unexpected_field", "laufende", laufende=3),
    case("ramsch_needs_augen_by_player", FEIGE, "missing_field", "augen_by_player", augen_by_player=None, augen=10),
    case("augen_by_player_all_seats", FEIGE, "missing_field", "augen_by_player", augen_by_player={"A": 10, "B": 30}),
    case(
        "augen_by_player_sum",
        FEIGE,
        "inconsistent",
        "augen_by_player",
        augen_by_player={"A": 10, "B": 30, "C": 40, "D": 30},
    ),
    case("augen_agrees_with_by_player", FEIGE, "inconsistent", "augen", augen=11),
    case("feige_sau_is_herz", FEIGE, "invalid_value", "suit", suit="gras"),
    case(
        "no_augen_without_trick",
        FEIGE,
        "inconsistent",
        "tricks_by_player.A",
        tricks_by_player={"A": 0, "B": 2, "C": 3, "D": 3},
    ),
    case(
        "tricks_by_player_sum",
        FEIGE,
        "inconsistent",
        "tricks_by_player",
        tricks_by_player={"A": 1, "B": 2, "C": 3, "D": 3},
    ),
    case(
        "schwarz_ramsch_needs_tricks",
        FEIGE,
        "missing_field",
        "tricks",
        bid="schwarz",
        augen_by_player={"A": 0, "B": 30, "C": 50, "D": 40},
    ),
    case("schwarz_needs_tricks", ZUCHT, "missing_field", "tricks", augen=120),
    case("augen_need_a_trick", ZUCHT, "inconsistent", "tricks", tricks=0),
    case("all_tricks_all_augen", ZUCHT, "inconsistent", "tricks", tricks=8),
    case("eight_tricks_at_four", ZUCHT, "out_of_range", "tricks", tricks=9),
    case("ten_tricks_at_three", ZUCHT, "out_of_range", "tricks", seats=THREE, tricks=11),
    case(
        "unreine_saukopf_only_opponents",
        SAUEREI,
        "invalid_value",
        "saukopf",
        game="unreine_sauerei",
        called=None,
        saukopf="declarer",
    ),
    case("no_saukopf_in_solo", ZUCHT, "unexpected_field", "saukopf", saukopf="declarer"),
    case("no_mueller_in_ramsch", MAST, "unexpected_field", "mueller", mueller="declarer"),
    case("no_laufende_in_mastschwein", MAST, "unexpected_field", "laufende", laufende=2),
    case("haxnspalter_kind", ZUCHT, "invalid_value", "haxnspalter", haxnspalter="vorne"),
    case("spiess_bool", ZUCHT, "invalid_type", "spiess", spiess="ja"),
    case("unknown_game", ZUCHT, "invalid_value", "game", game="solo"),
    case("declarer_required", ZUCHT, "missing_field", "declarer", declarer=None),
    case("unknown_field", ZUCHT, "unexpected_field", "kontra", kontra=1),
    case("no_bock", ZUCHT, "invalid_value", "context", context={"bock": 1}),
]


@pytest.mark.parametrize(("seats", "hand", "code", "field"), INVALID)
def test_saukopf_refuses(seats: list[str], hand: dict[str, Any], code: str, field: str) -> None:
    with pytest.raises(EngineError) as err:
        score(seats, **hand)
    assert (err.value.code, err.value.field) == (code, field)
    assert err.value.message


def test_saukopf_unknown_option() -> None:
    with pytest.raises(EngineError) as err:
        score(FOUR, {"schneider_bis": 30}, **ZUCHT)
    assert err.value.field == "ruleset.options.schneider_bis"


def test_saukopf_trog_cards_are_no_trick() -> None:
    # With the Trog the declarer's laid-away cards count as Augen but not as a trick.
    result = score(
        THREE,
        game="feige_sau",
        declarer="A",
        bid=100,
        trog=True,
        augen_by_player={"A": 10, "B": 50, "C": 60},
        tricks_by_player={"A": 0, "B": 4, "C": 6},
    )
    assert result["winner"] == "declarer"
    assert lines(result) == [("Sieg", 2), ("Schwarz", 1)]


def test_saukopf_docs_document_every_option() -> None:
    text = (Path(__file__).resolve().parents[3] / "docs" / "rules" / "saukopf.md").read_text()
    assert [spec.name for spec in load("saukopf").option_specs() if f"`{spec.name}`" not in text] == []
