"""The Schafkopf family presets, one table-driven case per worked example of the rule books
(001 Allgäu, 002 der reine Schafkopf, 003 Anhang C) and per rule the issue names."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine.api import score_hand_document
from scoring.engine.core import EngineError

SEATS = ["Anna", "Bert", "Cilli", "Done"]


def score(ruleset: Any, **hand: Any) -> dict[str, Any]:
    context = hand.pop("context", None)
    doc = {"ruleset": ruleset, "seats": SEATS, **hand}
    if context is not None:
        doc["context"] = context
    return score_hand_document(doc)


def refused(ruleset: Any, **hand: Any) -> EngineError:
    with pytest.raises(EngineError) as info:
        score(ruleset, **hand)
    return info.value


def pay(a: int, b: int, c: int, d: int) -> dict[str, int]:
    return dict(zip(SEATS, (a, b, c, d), strict=True))


# --- 001 §11.5 Meisterschaft: both worked examples and the Tout/Sie formulas ---------------

MEISTER = "allgaeu-meisterschaft"


def test_meisterschaft_example_solo_won_15_and_minus_5() -> None:
    out = score(MEISTER, game="solo", suit="eichel", declarer="Anna", augen=75, deckel=1)
    assert out["payouts"] == pay(15, -5, -5, -5)
    assert out["unit"] == "point"


def test_meisterschaft_example_wenz_lost_with_two_laufende_minus_21() -> None:
    out = score(MEISTER, game="wenz", declarer="Anna", augen=50, laufende=2, deckel=1)
    assert out["payouts"] == pay(-21, 7, 7, 7)


def test_meisterschaft_example_rufspiel_with_the_blue_opponents_schneider() -> None:
    out = score(MEISTER, game="rufspiel", called="gras", declarer="Anna", partner="Bert", augen=95, deckel=1)
    assert out["payouts"] == pay(3, 3, -3, -3)


def test_meisterschaft_sie_is_52_per_player() -> None:
    # "Sie = Punkte für Solo + Laufende * 4 (5+8 = 13 * 2 * 2 = 52)"
    out = score(MEISTER, game="sie", declarer="Anna")
    assert out["payouts"] == pay(156, -52, -52, -52)


def test_meisterschaft_tout_is_solo_plus_laufende_doubled_without_schneider() -> None:
    out = score(MEISTER, game="solo", suit="herz", tout=True, declarer="Anna", tricks=8, augen=120, laufende=4)
    assert out["price"] == (5 + 4) * 2


def test_meisterschaft_deckel_do_not_count_but_pflicht_mungo_holds() -> None:
    one = score(MEISTER, game="solo", suit="gras", declarer="Anna", augen=80, deckel=1)
    three = score(MEISTER, game="solo", suit="gras", declarer="Anna", augen=80, deckel=3)
    assert one["payouts"] == three["payouts"]
    err = refused(MEISTER, game="solo", suit="gras", declarer="Anna", augen=80)
    assert (err.code, err.field) == ("deckel_required", "deckel")


def test_meisterschaft_schuesse_count() -> None:
    out = score(
        MEISTER, game="rufspiel", declarer="Anna", partner="Bert", augen=70, deckel=1, kontra=1, last_kontra="opponents"
    )
    assert out["payouts"] == pay(4, 4, -4, -4)


def test_meisterschaft_mungo_one_point() -> None:
    out = score(MEISTER, game="mungo", augen_by_player={"Anna": 10, "Bert": 20, "Cilli": 40, "Done": 50})
    assert out["payouts"] == pay(1, 1, -1, -1)


def test_meisterschaft_has_no_bock_rounds() -> None:
    err = refused(MEISTER, game="solo", suit="gras", declarer="Anna", augen=80, deckel=1, context={"bock": 1})
    assert err.field == "context.bock"


# --- 002 der reine Schafkopf -------------------------------------------------------------

REINER = "reiner-schafkopf"
REINER_CENT = {"preset": REINER, "options": {"cents_per_unit": 10}}


def test_reiner_example_rufspiel_three_laufende_opponents_schwarz_is_6() -> None:
    # 002 §7: "Ein Rufspiel mit drei Laufenden, bei dem die Gegner Schwarz werden, kostet 6 Zähleinheiten"
    out = score(REINER, game="rufspiel", declarer="Anna", partner="Cilli", augen=120, tricks=8, laufende=3)
    assert out["payouts"] == {"Anna": 6, "Bert": -6, "Cilli": 6, "Done": -6}
    assert out["unit"] == "unit"


def test_reiner_example_stoss_doubles_and_re_quadruples() -> None:
    # 002 §8: Schneider 20 Cent + 3 Laufende 30 Cent = 50 Cent; Stoß 1 Euro; Re 2 Euro.
    plain = score(REINER_CENT, game="rufspiel", declarer="Anna", partner="Bert", augen=95, laufende=3)
    stoss = score(
        REINER_CENT,
        game="rufspiel",
        declarer="Anna",
        partner="Bert",
        augen=95,
        laufende=3,
        kontra=1,
        last_kontra="opponents",
    )
    re = score(
        REINER_CENT,
        game="rufspiel",
        declarer="Anna",
        partner="Bert",
        augen=95,
        laufende=3,
        kontra=2,
        last_kontra="declarer",
    )
    assert (plain["price"], stoss["price"], re["price"]) == (50, 100, 200)
    assert plain["unit"] == "cent"


def test_reiner_stoss_does_not_change_who_is_spieler() -> None:
    # 002 §8: the declarer still loses with 60 and is Schneider with 30 after a Stoß.
    out = score(REINER, game="rufspiel", declarer="Anna", partner="Bert", augen=60, kontra=1, last_kontra="opponents")
    assert out["winner"] == "opponents"
    out = score(REINER, game="rufspiel", declarer="Anna", partner="Bert", augen=30, kontra=2, last_kontra="declarer")
    assert out["price"] == 2 * 4


def test_reiner_example_tout_solo_four_laufende_is_180_cent() -> None:
    # 002 §9: Solo 50 Cent + 4 Laufende 40 Cent = 90 Cent × 2 = 1,80 Euro; no Schneider/Schwarz.
    out = score(REINER_CENT, game="solo", suit="eichel", tout=True, declarer="Anna", tricks=8, augen=120, laufende=4)
    assert out["payouts"] == pay(540, -180, -180, -180)


def test_reiner_solo_schneider_schwarz_and_laufende() -> None:
    out = score(REINER, game="solo", suit="gras", declarer="Anna", augen=120, tricks=8, laufende=3)
    assert out["price"] == 5 + 1 + 1 + 3


def test_reiner_wenz_laufende_from_two() -> None:
    out = score(REINER, game="wenz", declarer="Anna", augen=70, laufende=2)
    assert out["price"] == 7
    out = score(REINER, game="solo", suit="gras", declarer="Anna", augen=70, laufende=2)
    assert out["price"] == 5


def test_reiner_example_fehler_soloist_errs() -> None:
    # 002 §11: the soloist gets 9 Minuspunkte, his three opponents 3 Pluspunkte each.
    out = score(REINER, game="solo", suit="herz", declarer="Anna", augen=80, fehler={"by": "Anna"})
    assert out["payouts"] == pay(-9, 3, 3, 3)


def test_reiner_example_fehler_opponent_errs_in_solo() -> None:
    out = score(REINER, game="wenz", declarer="Anna", fehler={"by": "Cilli"})
    assert out["payouts"] == pay(9, 0, -9, 0)


def test_reiner_example_fehler_in_tout_is_nine() -> None:
    out = score(REINER, game="solo", suit="eichel", tout=True, declarer="Anna", fehler={"by": "Anna"})
    assert out["payouts"] == pay(-9, 3, 3, 3)


def test_reiner_example_fehler_in_rufspiel() -> None:
    # Offender −4, the two opponents +2 each, his partner 0; tricks, Stoß and score do not matter.
    out = score(
        REINER,
        game="rufspiel",
        declarer="Anna",
        partner="Bert",
        augen=100,
        kontra=1,
        last_kontra="opponents",
        fehler={"by": "Bert"},
    )
    assert out["payouts"] == pay(0, -4, 2, 2)


def test_reiner_example_fehler_exposing_cards_takes_the_penalty() -> None:
    out = score(REINER, game="rufspiel", declarer="Anna", partner="Bert", fehler={"by": "Bert", "exposed_by": "Cilli"})
    assert out["payouts"] == pay(2, 2, -4, 0)


def test_reiner_fehler_paid_proportionally_to_the_tariff() -> None:
    out = score(REINER_CENT, game="rufspiel", declarer="Anna", partner="Bert", fehler={"by": "Cilli"})
    assert out["payouts"] == pay(20, 20, -40, 0)


def test_reiner_has_no_deckel_and_no_bettel() -> None:
    assert refused(REINER, game="solo", suit="gras", declarer="Anna", augen=70, deckel=1).field == "deckel"
    assert refused(REINER, game="bettel", declarer="Anna", tricks=0).field == "game"


# --- 001 Allgäu (money) --------------------------------------------------------------------

ALLGAEU = "allgaeu"


@pytest.mark.parametrize(
    ("hand", "price"),
    [
        # §4.1 Rufspiel 0,10 €; §6.1 Schneider 0,05, Schwarz 0,05, je Laufender 0,05, each Deckel doubles.
        ({"game": "rufspiel", "declarer": "Anna", "partner": "Bert", "augen": 70}, 10 * 2),
        ({"game": "rufspiel", "declarer": "Anna", "partner": "Bert", "augen": 95, "laufende": 3}, (10 + 5 + 15) * 2),
        ({"game": "rufspiel", "declarer": "Anna", "partner": "Bert", "augen": 120, "tricks": 8}, (10 + 5 + 5) * 2),
        # §4.2 Solo and Wenz 0,25 €; Wenz Laufende from 2.
        ({"game": "solo", "suit": "herz", "declarer": "Anna", "augen": 61, "laufende": 2}, 25 * 2),
        ({"game": "wenz", "declarer": "Anna", "augen": 61, "laufende": 2}, (25 + 10) * 2),
        # §4.2.5 Bettel: no Schneider, no Laufende.
        ({"game": "bettel", "declarer": "Anna", "tricks": 0}, 25 * 2),
    ],
)
def test_allgaeu_prices_with_one_deckel(hand: dict[str, Any], price: int) -> None:
    assert score(ALLGAEU, deckel=1, **hand)["price"] == price


def test_allgaeu_laufende_count_only_ober_and_unter() -> None:
    # 001 §2.2 "beim Solo maximal acht, beim Wenz maximal vier"
    assert (
        score(ALLGAEU, game="solo", suit="gras", declarer="Anna", augen=70, laufende=8, deckel=1)["price"]
        == (25 + 40) * 2
    )
    assert (
        refused(ALLGAEU, game="solo", suit="gras", declarer="Anna", augen=70, laufende=9, deckel=1).field == "laufende"
    )
    assert refused(ALLGAEU, game="wenz", declarer="Anna", augen=70, laufende=5, deckel=1).field == "laufende"


def test_allgaeu_each_deckel_doubles() -> None:
    prices = [
        score(ALLGAEU, game="rufspiel", declarer="Anna", partner="Bert", augen=70, deckel=n)["price"]
        for n in (1, 2, 3, 4)
    ]
    assert prices == [20, 40, 80, 160]


def test_allgaeu_dauerdeckel_refuses_a_game_without_deckel() -> None:
    err = refused(ALLGAEU, game="rufspiel", declarer="Anna", partner="Bert", augen=70)
    assert (err.code, err.field) == ("deckel_required", "deckel")


def test_allgaeu_tout_and_sie_need_no_deckel() -> None:
    tout = score(ALLGAEU, game="wenz", tout=True, declarer="Anna", tricks=8, augen=120, laufende=2)
    assert tout["price"] == (25 + 10) * 2
    sie = score(ALLGAEU, game="sie", declarer="Anna")
    # 001 §4.2.4: "gleich, wie beim Solo, aber der Endpreis wird vervierfacht": (0,25 + 8 × 0,05) × 4.
    assert sie["payouts"] == pay(3 * 260, -260, -260, -260)


def test_allgaeu_tout_lost_with_one_trick_against() -> None:
    out = score(
        ALLGAEU, game="solo", suit="eichel", tout=True, declarer="Anna", tricks=7, augen=110, laufende=3, deckel=1
    )
    assert out["winner"] == "opponents"
    assert out["payouts"]["Anna"] == -3 * (25 + 15) * 2 * 2


def test_allgaeu_6060_without_spritze_opponents_win() -> None:
    out = score(ALLGAEU, game="rufspiel", declarer="Anna", partner="Bert", augen=60, deckel=1)
    assert out["winner"] == "opponents"


def test_allgaeu_spritze_uebernimmt_das_spiel_at_6060() -> None:
    # 001 §6.2: at 60:60 the side that gave the last Spritze pays.
    shot = score(
        ALLGAEU, game="rufspiel", declarer="Anna", partner="Bert", augen=60, deckel=1, kontra=1, last_kontra="opponents"
    )
    assert shot["winner"] == "declarer"
    re = score(
        ALLGAEU, game="rufspiel", declarer="Anna", partner="Bert", augen=60, deckel=1, kontra=2, last_kontra="declarer"
    )
    assert re["winner"] == "opponents"


def test_allgaeu_30_augen_is_schneider_only_for_the_last_shooter() -> None:
    # §2.2: Schneider is "weniger als 30"; §6.2: who gave the last Schuss pays Schneider with 30.
    plain = score(ALLGAEU, game="rufspiel", declarer="Anna", partner="Bert", augen=30, deckel=1)
    assert plain["price"] == 10 * 2
    shot = score(
        ALLGAEU, game="rufspiel", declarer="Anna", partner="Bert", augen=90, deckel=1, kontra=1, last_kontra="opponents"
    )
    assert shot["price"] == (10 + 5) * 2 * 2
    re = score(
        ALLGAEU, game="rufspiel", declarer="Anna", partner="Bert", augen=30, deckel=1, kontra=2, last_kontra="declarer"
    )
    assert re["price"] == (10 + 5) * 2 * 4


def test_allgaeu_at_most_four_spritzen_schuss_re_bock_hirsch() -> None:
    out = score(
        ALLGAEU, game="solo", suit="gras", declarer="Anna", augen=70, deckel=1, kontra=4, last_kontra="declarer"
    )
    assert [line["label"] for line in out["lines"] if "factor" in line][:4] == [
        "Schuss ×2",
        "Re ×2",
        "Bock ×2",
        "Hirsch ×2",
    ]
    assert (
        refused(
            ALLGAEU, game="solo", suit="gras", declarer="Anna", augen=70, deckel=1, kontra=5, last_kontra="opponents"
        ).field
        == "kontra"
    )


def test_allgaeu_last_kontra_must_match_alternation() -> None:
    err = refused(
        ALLGAEU, game="solo", suit="gras", declarer="Anna", augen=70, deckel=1, kontra=1, last_kontra="declarer"
    )
    assert err.field == "last_kontra"
    err = refused(ALLGAEU, game="solo", suit="gras", declarer="Anna", augen=70, deckel=1, kontra=1)
    assert (err.code, err.field) == ("missing_field", "last_kontra")


def test_allgaeu_mungo_two_fewest_win() -> None:
    out = score(ALLGAEU, game="mungo", augen_by_player={"Anna": 10, "Bert": 25, "Cilli": 40, "Done": 45})
    assert out["payouts"] == pay(10, 10, -10, -10)
    assert out["winner"] == ["Anna", "Bert"]


def test_allgaeu_mungo_tie_of_two_settle_nothing_between_them() -> None:
    out = score(ALLGAEU, game="mungo", augen_by_player={"Anna": 10, "Bert": 30, "Cilli": 30, "Done": 50})
    assert out["payouts"] == pay(10, 0, 0, -10)


def test_allgaeu_mungo_tie_spritze_uebernimmt() -> None:
    # Of two tied players the one who did not give a Spritze wins; each Spritze doubles.
    out = score(
        ALLGAEU, game="mungo", augen_by_player={"Anna": 10, "Bert": 30, "Cilli": 30, "Done": 50}, kontra_by=["Bert"]
    )
    assert out["payouts"] == pay(20, -20, 20, -20)


def test_allgaeu_mungo_three_tied_share_the_price_rounded_up_to_ten_cent() -> None:
    out = score(ALLGAEU, game="mungo", augen_by_player={"Anna": 30, "Bert": 30, "Cilli": 30, "Done": 30})
    assert out["payouts"] == pay(0, 0, 0, 0)
    out = score(ALLGAEU, game="mungo", augen_by_player={"Anna": 20, "Bert": 20, "Cilli": 20, "Done": 60})
    assert out["payouts"] == pay(10, 10, 10, -30)
    out = score(ALLGAEU, game="mungo", augen_by_player={"Anna": 0, "Bert": 40, "Cilli": 40, "Done": 40}, deckel=2)
    # price 40: each of the three pays 40/3 rounded up to 0,20 €.
    assert out["payouts"] == pay(60, -20, -20, -20)


def test_allgaeu_mungo_three_tied_one_non_spritzer_wins() -> None:
    # 001 §4.3.2: of three tied players the one who did not give a Spritze wins, the two Spritzer lose.
    out = score(
        ALLGAEU,
        game="mungo",
        augen_by_player={"Anna": 0, "Bert": 40, "Cilli": 40, "Done": 40},
        kontra_by=["Bert", "Done"],
    )
    assert out["payouts"] == pay(40, -40, 40, -40)


def test_allgaeu_mungo_three_tied_low_with_two_spritzer_non_spritzer_wins_alone_001_4_3_2() -> None:
    # 001 §4.3.2 "Dann ist der Nicht-Spritzer Sieger und die zwei Spritzer Verlierer": with the three
    # tied below the fourth, Cilli (no Spritze) wins alone; the two Spritzer and the fourth each pay
    # her the price, doubled by the two Spritzen (10 × 2 × 2 = 40).
    out = score(
        ALLGAEU,
        game="mungo",
        augen_by_player={"Anna": 20, "Bert": 20, "Cilli": 20, "Done": 60},
        kontra_by=["Anna", "Bert"],
    )
    assert out["payouts"] == pay(-40, -40, 120, -40)
    assert out["winner"] == ["Cilli"]
    assert out["price"] == 40
    # One Spritze more (Done's) doubles every amount again.
    out = score(
        ALLGAEU,
        game="mungo",
        augen_by_player={"Anna": 20, "Bert": 20, "Cilli": 20, "Done": 60},
        kontra_by=["Anna", "Bert", "Done"],
    )
    assert out["payouts"] == pay(-80, -80, 240, -80)


def test_allgaeu_mungo_three_tied_low_one_spritzer_the_two_others_win() -> None:
    # Only one Spritzer among the three: "Spritze übernimmt das Spiel" ranks him behind the other two.
    out = score(
        ALLGAEU,
        game="mungo",
        augen_by_player={"Anna": 20, "Bert": 20, "Cilli": 20, "Done": 60},
        kontra_by=["Anna"],
    )
    assert out["payouts"] == pay(-20, 20, 20, -20)


def test_allgaeu_mungo_durchmarsch_pays_everyone() -> None:
    # 001 §4.3.2 "Sollte ein Spieler alle Stiche machen, muss er allein an alle zahlen."
    out = score(
        ALLGAEU,
        game="mungo",
        augen_by_player={"Anna": 120, "Bert": 0, "Cilli": 0, "Done": 0},
        tricks_by_player={"Anna": 8, "Bert": 0, "Cilli": 0, "Done": 0},
    )
    assert out["payouts"] == pay(-30, 10, 10, 10)


def test_allgaeu_mungo_accepts_ramsch_as_name_and_refuses_bad_sum() -> None:
    assert score(ALLGAEU, game="ramsch", augen_by_player={"Anna": 0, "Bert": 0, "Cilli": 60, "Done": 60})["price"] == 10
    err = refused(ALLGAEU, game="mungo", augen_by_player={"Anna": 0, "Bert": 0, "Cilli": 60, "Done": 59})
    assert (err.code, err.field) == ("inconsistent", "augen_by_player")


def test_allgaeu_bock_context_doubles() -> None:
    plain = score(ALLGAEU, game="rufspiel", declarer="Anna", partner="Bert", augen=70, deckel=1)
    bock = score(
        ALLGAEU,
        game="rufspiel",
        declarer="Anna",
        partner="Bert",
        augen=70,
        deckel=1,
        context={"bock": 1, "round": "bockrunde"},
    )
    assert bock["price"] == 2 * plain["price"]


def test_allgaeu_mungorunde_allows_farbwenz_and_geier_doubles_solos_without_deckel() -> None:
    ctx = {"round": "mungorunde"}
    out = score(ALLGAEU, game="farbwenz", suit="eichel", declarer="Anna", augen=70, context=ctx)
    assert out["price"] == 25 * 2
    assert refused(ALLGAEU, game="rufspiel", declarer="Anna", partner="Bert", augen=70, context=ctx).field == "game"
    assert (
        refused(ALLGAEU, game="solo", suit="gras", declarer="Anna", augen=70, deckel=1, context=ctx).field == "deckel"
    )
    assert (
        score(ALLGAEU, game="mungo", augen_by_player={"Anna": 0, "Bert": 0, "Cilli": 60, "Done": 60}, context=ctx)[
            "price"
        ]
        == 10
    )


def test_allgaeu_farbwenz_outside_special_rounds_is_refused() -> None:
    assert refused(ALLGAEU, game="geier", declarer="Anna", augen=70, deckel=1).field == "game"


# --- standard -------------------------------------------------------------------------

STANDARD = "standard"


def test_standard_tariff() -> None:
    assert score(STANDARD, game="rufspiel", declarer="Anna", partner="Bert", augen=61)["price"] == 20
    assert score(STANDARD, game="rufspiel", declarer="Anna", partner="Bert", augen=91)["price"] == 30
    assert score(STANDARD, game="rufspiel", declarer="Anna", partner="Bert", augen=120, tricks=8)["price"] == 40
    assert score(STANDARD, game="solo", suit="eichel", declarer="Anna", augen=61, laufende=3)["payouts"] == pay(
        240, -80, -80, -80
    )
    assert score(STANDARD, game="geier", declarer="Anna", augen=61, laufende=2)["price"] == 70


def test_standard_declarer_is_schneider_with_30_opponents_with_29() -> None:
    assert score(STANDARD, game="rufspiel", declarer="Anna", partner="Bert", augen=30)["price"] == 30
    assert score(STANDARD, game="rufspiel", declarer="Anna", partner="Bert", augen=90)["price"] == 20


def test_standard_tout_is_twice_game_and_laufende_without_schneider() -> None:
    out = score(STANDARD, game="wenz", tout=True, declarer="Anna", tricks=8, augen=120, laufende=3)
    assert out["price"] == 2 * (50 + 30)


def test_standard_klopfer_and_kontra_double() -> None:
    out = score(
        STANDARD,
        game="rufspiel",
        declarer="Anna",
        partner="Bert",
        augen=70,
        deckel=2,
        kontra=1,
        last_kontra="opponents",
    )
    assert out["price"] == 20 * 8


def test_result_instead_of_augen() -> None:
    assert score(STANDARD, game="rufspiel", declarer="Anna", partner="Bert", result="lost_schneider")["payouts"] == pay(
        -30, -30, 30, 30
    )
    assert score(STANDARD, game="solo", suit="herz", declarer="Anna", result="won_schwarz")["price"] == 70
    err = refused(STANDARD, game="rufspiel", declarer="Anna", partner="Bert", result="won", augen=40)
    assert (err.code, err.field) == ("inconsistent", "result")


# --- Anhang C (003) as options -------------------------------------------------------------


def test_anhang_c_steigern_bid_70_needs_71_schneider_unchanged() -> None:
    rules = {"preset": STANDARD, "options": {"steigern": True}}
    assert score(rules, game="solo", suit="gras", declarer="Anna", augen=71, bid=70)["winner"] == "declarer"
    assert score(rules, game="solo", suit="gras", declarer="Anna", augen=70, bid=70)["winner"] == "opponents"
    assert score(rules, game="solo", suit="gras", declarer="Anna", augen=85, bid=90)["price"] == 50
    assert refused(rules, game="solo", suit="gras", declarer="Anna", augen=85, bid=60).field == "bid"


def test_anhang_c_solo_kinds_and_their_laufende_maxima() -> None:
    games = [
        "rufspiel",
        "solo",
        "wenz",
        "farbwenz",
        "wenz_koenig",
        "koenigssolo",
        "reines_farbsolo",
        "damen_buben_koenig",
    ]
    rules = {"preset": STANDARD, "options": {"games": games}}
    assert score(rules, game="farbwenz", suit="gras", declarer="Anna", augen=70, laufende=11)["price"] == 50 + 110
    assert refused(rules, game="farbwenz", suit="gras", declarer="Anna", augen=70, laufende=12).field == "laufende"
    assert score(rules, game="damen_buben_koenig", declarer="Anna", augen=70, laufende=12)["price"] == 50 + 120
    assert refused(rules, game="koenigssolo", declarer="Anna", augen=70, laufende=5).field == "laufende"
    assert refused(rules, game="reines_farbsolo", declarer="Anna", augen=70).field == "suit"


def test_anhang_c_games_need_enabling() -> None:
    assert refused(STANDARD, game="wenz_koenig", declarer="Anna", augen=70).field == "game"


def test_anhang_c_ramsch_loser_by_augen_then_tricks_then_trumps_then_highest_trump() -> None:
    rules = {"preset": STANDARD, "options": {"games": ["rufspiel", "solo", "mungo"]}}
    out = score(rules, game="ramsch", augen_by_player={"Anna": 10, "Bert": 20, "Cilli": 40, "Done": 50})
    assert out["payouts"] == pay(20, 20, 20, -60)
    tied = {"Anna": 10, "Bert": 10, "Cilli": 50, "Done": 50}
    err = refused(rules, game="ramsch", augen_by_player=tied)
    assert err.field == "tricks_by_player"
    tricks = {"Anna": 1, "Bert": 2, "Cilli": 2, "Done": 3}
    assert score(rules, game="ramsch", augen_by_player=tied, tricks_by_player=tricks)["payouts"]["Done"] == -60
    tricks = {"Anna": 1, "Bert": 2, "Cilli": 3, "Done": 2}
    out = score(rules, game="ramsch", augen_by_player=tied, tricks_by_player=tricks)
    assert out["payouts"]["Cilli"] == -60
    tricks = {"Anna": 1, "Bert": 1, "Cilli": 3, "Done": 3}
    out = score(
        rules,
        game="ramsch",
        augen_by_player=tied,
        tricks_by_player=tricks,
        trumps_by_player={"Cilli": 3, "Done": 3},
        top_trump_by_player={"Cilli": "herz_unter", "Done": "gras_ober"},
    )
    assert out["payouts"]["Done"] == -60


def test_anhang_c_ramsch_durchmarsch_wins_alone() -> None:
    rules = {"preset": STANDARD, "options": {"games": ["rufspiel", "mungo"]}}
    out = score(
        rules,
        game="ramsch",
        augen_by_player={"Anna": 120, "Bert": 0, "Cilli": 0, "Done": 0},
        tricks_by_player={"Anna": 8, "Bert": 0, "Cilli": 0, "Done": 0},
    )
    assert out["payouts"] == pay(60, -20, -20, -20)


def test_anhang_c_leasters_fewest_augen_wins() -> None:
    rules = {"preset": STANDARD, "options": {"games": ["rufspiel", "leasters"]}}
    out = score(rules, game="leasters", augen_by_player={"Anna": 30, "Bert": 5, "Cilli": 40, "Done": 45})
    assert out["payouts"] == pay(-20, 60, -20, -20)
    assert out["winner"] == ["Bert"]


def test_anhang_c_muss_spiel_allows_no_stoss() -> None:
    rules = {"preset": STANDARD, "options": {"muss_spiel": True}}
    assert score(rules, game="rufspiel", declarer="Anna", partner="Bert", augen=70, muss_spiel=True)["price"] == 20
    err = refused(
        rules,
        game="rufspiel",
        declarer="Anna",
        partner="Bert",
        augen=70,
        muss_spiel=True,
        kontra=1,
        last_kontra="opponents",
    )
    assert err.field == "kontra"


def test_anhang_c_renonce_only_when_enabled() -> None:
    assert (
        refused(STANDARD, game="rufspiel", declarer="Anna", partner="Bert", augen=70, renonce=True).field == "renonce"
    )
    rules = {"preset": STANDARD, "options": {"renonce": True}}
    assert score(rules, game="rufspiel", declarer="Anna", partner="Bert", augen=70, renonce=True)["price"] == 20


# --- validation --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("doc", "code", "field"),
    [
        ({"ruleset": "nope"}, "unknown_preset", "ruleset"),
        (
            {"ruleset": {"preset": "standard", "options": {"price_solo": "50"}}},
            "invalid_type",
            "ruleset.options.price_solo",
        ),
        ({"ruleset": {"preset": "standard", "options": {"bogus": 1}}}, "unknown_option", "ruleset.options.bogus"),
        ({"seats": ["A", "A", "B", "C"]}, "invalid_value", "seats"),
        ({"seats": ["A", "B", "C"]}, "invalid_value", "seats"),
        ({"declarer": "Zenzi"}, "invalid_value", "declarer"),
        ({"partner": "Anna"}, "invalid_value", "partner"),
        ({"augen": 121}, "out_of_range", "augen"),
        ({"augen": "61"}, "invalid_type", "augen"),
        ({"augen": 60, "tricks": 0}, "inconsistent", "augen"),
        ({"augen": 100, "tricks": 8}, "inconsistent", "augen"),
        ({"laufende": 15}, "out_of_range", "laufende"),
        ({"kontra": 3, "last_kontra": "opponents"}, "out_of_range", "kontra"),
        ({"game": "rufspiel_x"}, "invalid_value", "game"),
        ({"called": "herz"}, "invalid_value", "called"),
        ({"tout": True}, "not_allowed", "tout"),
        ({"augen_by_player": {"Anna": 120}}, "unexpected_field", "augen_by_player"),
        ({"context": {"bock": -1}}, "out_of_range", "context.bock"),
    ],
)
def test_validation_names_the_field(doc: dict[str, Any], code: str, field: str) -> None:
    base = {
        "ruleset": "standard",
        "seats": SEATS,
        "game": "rufspiel",
        "declarer": "Anna",
        "partner": "Bert",
        "augen": 70,
    }
    with pytest.raises(EngineError) as info:
        score_hand_document({**base, **doc})
    assert (info.value.code, info.value.field) == (code, field)
    assert info.value.message


def test_partner_only_in_rufspiel() -> None:
    err = refused(STANDARD, game="solo", suit="gras", declarer="Anna", partner="Bert", augen=70)
    assert (err.code, err.field) == ("unexpected_field", "partner")


def test_laufende_in_bettel_refused() -> None:
    assert refused(STANDARD, game="bettel", declarer="Anna", tricks=0, laufende=3).field == "laufende"


@pytest.mark.parametrize("preset", ["standard", "allgaeu", "allgaeu-meisterschaft", "reiner-schafkopf"])
def test_docs_document_every_option(preset: str) -> None:
    from pathlib import Path

    from scoring.engine import registry

    text = (Path(__file__).resolve().parents[3] / "docs" / "rules" / f"{preset}.md").read_text()
    missing = [spec.name for spec in registry.load(preset).option_specs() if f"`{spec.name}`" not in text]
    assert not missing


# --- issue 12: the inputs the rules forbid, the Leasters tie-break ------------------------------

GARDAREIZ = {"round": "gardareizrunde"}


def test_gardareiz_solo_must_reach_its_bid_001_5_3() -> None:
    # 001 §5.3 "wobei er die gereizte Augenzahl erreichen muss": 64 reached with 64, lost with 63.
    won = score(ALLGAEU, game="solo", suit="eichel", declarer="Anna", augen=64, bid=64, context=GARDAREIZ)
    assert won["winner"] == "declarer"
    lost = score(ALLGAEU, game="solo", suit="eichel", declarer="Anna", augen=63, bid=64, context=GARDAREIZ)
    assert lost["winner"] == "opponents"
    wenz = score(ALLGAEU, game="wenz", declarer="Anna", augen=100, bid=100, context=GARDAREIZ)
    assert wenz["winner"] == "declarer"


@pytest.mark.parametrize(
    ("bid", "code", "phrase"),
    [
        (None, "missing_field", "fehlt das Gebot"),
        (61, "invalid_value", "ab 62 in Schritten von 2"),
        (60, "invalid_value", "ab 62 in Schritten von 2"),
        (63, "invalid_value", "63 gibt es nicht"),
        (122, "out_of_range", "zwischen 0 und 120"),
        ("70", "invalid_type", "ganze Zahl"),
    ],
)
def test_gardareiz_solo_refuses_a_missing_low_or_odd_bid_001_5_3(bid: Any, code: str, phrase: str) -> None:
    hand: dict[str, Any] = dict(game="solo", suit="eichel", declarer="Anna", augen=80, context=GARDAREIZ)
    if bid is not None:
        hand["bid"] = bid
    err = refused(ALLGAEU, **hand)
    assert (err.code, err.field) == (code, "bid")
    assert phrase in err.message


def test_gardareiz_bettel_after_62_to_76_shows_a_card_per_step_001_5_3() -> None:
    # "es wird bis 70 gereizt, so müssen vom Spieler 5 Karten aufgedeckt werden"
    out = score(ALLGAEU, game="bettel", declarer="Anna", tricks=0, bid=70, context=GARDAREIZ)
    assert out["winner"] == "declarer"
    assert {"label": "Gereizt bis 70: 5 Karten offen"} in out["lines"]
    assert score(ALLGAEU, game="bettel", declarer="Anna", tricks=0, bid=76, context=GARDAREIZ)["winner"] == "declarer"
    err = refused(ALLGAEU, game="bettel", declarer="Anna", tricks=0, context=GARDAREIZ)
    assert (err.code, err.field) == ("missing_field", "bid")


def test_gardareiz_tout_carries_its_bid_too_001_5_3() -> None:
    # Whoever bid highest plays "ein Solo seiner Wahl": a Tout too, and it has its bid.
    tout = dict(game="solo", suit="herz", declarer="Anna", tout=True, tricks=8, augen=120, context=GARDAREIZ)
    assert score(ALLGAEU, **tout, bid=90)["winner"] == "declarer"
    assert refused(ALLGAEU, **tout).field == "bid"


def test_gardareiz_no_bettel_from_78_001_5_3() -> None:
    # "Ab 78 gereizten Punkten darf kein Bettel mehr gespielt werden."
    err = refused(ALLGAEU, game="bettel", declarer="Anna", tricks=0, bid=78, context=GARDAREIZ)
    assert (err.code, err.field) == ("not_allowed", "bid")
    assert err.message.startswith("Ab 78 gereizten Augen darf kein Bettel")


def test_gardareiz_bid_is_no_field_of_a_mungo_or_outside_the_round() -> None:
    err = refused(ALLGAEU, game="solo", suit="eichel", declarer="Anna", augen=80, deckel=1, bid=64)
    assert (err.code, err.field) == ("unexpected_field", "bid")


def test_steigern_bids_go_in_tens_003_2_1_1() -> None:
    # 003 §2.1.1 "über 80, 90, 100 und 110 bis auf 120": 75 is no bid.
    rules = {"preset": STANDARD, "options": {"steigern": True}}
    for bid in (70, 80, 90, 100, 110):
        assert score(rules, game="solo", suit="gras", declarer="Anna", augen=bid, bid=bid)["winner"] == "opponents"
    err = refused(rules, game="solo", suit="gras", declarer="Anna", augen=85, bid=75)
    assert (err.code, err.field) == ("invalid_value", "bid")
    assert "Gesteigert wird in Zehnern" in err.message


RAMSCH = {"preset": STANDARD, "options": {"games": ["rufspiel", "mungo"]}}
LEASTERS = {"preset": STANDARD, "options": {"games": ["rufspiel", "leasters"]}}
TIED = {"Anna": 10, "Bert": 10, "Cilli": 50, "Done": 50}
TIED_TRICKS = {"Anna": 1, "Bert": 1, "Cilli": 3, "Done": 3}


@pytest.mark.parametrize(
    ("extra", "field", "phrase"),
    [
        # two players with the same card as their top trump
        (
            {
                "trumps_by_player": {"Cilli": 3, "Done": 3},
                "top_trump_by_player": {"Cilli": "gras_ober", "Done": "gras_ober"},
            },
            "top_trump_by_player.Done",
            "nicht beide die Karte gras_ober",
        ),
        # a top trump with zero trumps counted
        (
            {"trumps_by_player": {"Cilli": 0, "Done": 0}, "top_trump_by_player": {"Cilli": "gras_ober", "Done": None}},
            "top_trump_by_player.Cilli",
            "keinen Trumpf gezählt",
        ),
        # the reverse: trumps counted, but no top trump
        (
            {"trumps_by_player": {"Cilli": 2, "Done": 2}, "top_trump_by_player": {"Cilli": None, "Done": "gras_ober"}},
            "top_trump_by_player.Cilli",
            "2 Trümpfe gezählt, aber keinen höchsten Trumpf angegeben",
        ),
        # more trumps than the game has
        (
            {"trumps_by_player": {"Anna": 4, "Bert": 4, "Cilli": 12, "Done": 12}},
            "trumps_by_player",
            "das Spiel hat nur 14",
        ),
        # more trumps than three tricks hold
        ({"trumps_by_player": {"Cilli": 13, "Done": 1}}, "trumps_by_player.Cilli", "höchstens 12 Trümpfe"),
        # herz_sieben as the highest trump leaves room for no second trump
        (
            {
                "trumps_by_player": {"Cilli": 2, "Done": 2},
                "top_trump_by_player": {"Cilli": "herz_sieben", "Done": "gras_ober"},
            },
            "top_trump_by_player.Cilli",
            "Mit herz_sieben als höchstem Trumpf kann Cilli höchstens einen Trumpf haben, nicht 2.",
        ),
    ],
)
def test_ramsch_refuses_tie_break_data_no_deck_can_produce_003_3_1(
    extra: dict[str, Any], field: str, phrase: str
) -> None:
    err = refused(RAMSCH, game="ramsch", augen_by_player=TIED, tricks_by_player=TIED_TRICKS, **extra)
    assert (err.code, err.field) == ("inconsistent", field)
    assert phrase in err.message


def test_ramsch_tied_without_trumps_share_the_loss_003_3_1() -> None:
    out = score(
        RAMSCH,
        game="ramsch",
        augen_by_player=TIED,
        tricks_by_player=TIED_TRICKS,
        trumps_by_player={"Cilli": 0, "Done": 0},
    )
    assert out["payouts"] == pay(40, 40, -40, -40)


def test_leasters_smallest_trump_in_the_tricks_wins_003_3_4() -> None:
    # 003 §3.4 "Wer den kleinsten Trumpf in seinen Stichen hat, gewinnt": Anna's smallest trump is
    # the Herz-Sieben, Bert's the Herz-Acht; Anna wins although Bert's highest trump is lower.
    augen = {"Anna": 10, "Bert": 10, "Cilli": 50, "Done": 50}
    tricks = {"Anna": 1, "Bert": 1, "Cilli": 3, "Done": 3}
    out = score(
        LEASTERS,
        game="leasters",
        augen_by_player=augen,
        tricks_by_player=tricks,
        trumps_by_player={"Anna": 2, "Bert": 2},
        low_trump_by_player={"Anna": "herz_sieben", "Bert": "herz_acht"},
    )
    assert out["winner"] == ["Anna"]
    assert out["payouts"] == pay(60, -20, -20, -20)
    err = refused(
        LEASTERS,
        game="leasters",
        augen_by_player=augen,
        tricks_by_player=tricks,
        trumps_by_player={"Anna": 2, "Bert": 2},
    )
    assert (err.code, err.field) == ("missing_field", "low_trump_by_player")


def test_leasters_low_trump_data_must_fit_a_deck_003_3_4() -> None:
    # With the Herz-Acht as the smallest trump only the Herz-Acht itself and higher trumps are
    # left: 13 at most; a Ramsch field is no Leasters field.
    augen = {"Anna": 10, "Bert": 10, "Cilli": 50, "Done": 50}
    err = refused(
        LEASTERS,
        game="leasters",
        augen_by_player=augen,
        trumps_by_player={"Anna": 2, "Bert": 2},
        low_trump_by_player={"Anna": "eichel_ober", "Bert": "herz_acht"},
        tricks_by_player={"Anna": 1, "Bert": 1, "Cilli": 3, "Done": 3},
    )
    assert (err.code, err.field) == ("inconsistent", "low_trump_by_player.Anna")
    err = refused(
        LEASTERS,
        game="leasters",
        augen_by_player={"Anna": 5, "Bert": 10, "Cilli": 50, "Done": 55},
        top_trump_by_player={"Anna": "eichel_ober"},
    )
    assert (err.code, err.field) == ("unexpected_field", "top_trump_by_player")


@pytest.mark.parametrize(
    ("hand", "field", "message"),
    [
        (
            dict(game="bettel", declarer="Anna", tricks=0, deckel=1, laufende=2),
            "laufende",
            "Beim Bettel gibt es keine Laufenden.",
        ),
        (
            dict(game="sie", declarer="Anna", laufende=7),
            "laufende",
            "Beim Sie sind es immer acht Laufende (001 §4.2.4).",
        ),
        (
            dict(game="solo", suit="gras", declarer="Anna", augen=130, deckel=1),
            "augen",
            "Die Augenzahl muss zwischen 0 und 120 liegen (ist 130).",
        ),
        (
            dict(game="solo", suit="gras", declarer="Anna", augen=70, laufende=9, deckel=1),
            "laufende",
            "Die Zahl der Laufenden muss zwischen 0 und 8 liegen (ist 9).",
        ),
    ],
)
def test_messages_read_like_sentences_never_between_0_and_0(hand: dict[str, Any], field: str, message: str) -> None:
    err = refused(ALLGAEU, **hand)
    assert (err.field, err.message) == (field, message)


def test_no_stoss_and_no_deckel_where_the_rules_allow_none_say_so() -> None:
    rules = {"preset": STANDARD, "options": {"max_kontra": 0, "max_deckel": 0}}
    err = refused(rules, game="solo", suit="gras", declarer="Anna", augen=70, kontra=1, last_kontra="opponents")
    assert (err.field, err.message) == ("kontra", "Bei dieser Regel gibt es keine Stöße.")
    err = refused(rules, game="solo", suit="gras", declarer="Anna", augen=70, deckel=1)
    assert (err.field, err.message) == ("deckel", "Bei dieser Regel gibt es keine Deckel.")
    err = refused("reiner-schafkopf", game="solo", suit="gras", declarer="Anna", augen=70, deckel=1)
    assert err.message == "Bei dieser Regel gibt es keine Deckel."


# --- Tournament tariffs (issue 24 item 3): Kontra forbidden, plus points only -----------------

REINER_PLUS = {"preset": "reiner-schafkopf", "options": {"plus_points_only": True}}


def test_kontra_forbidden_refuses_a_hand_with_a_stoss() -> None:
    rules = {"preset": "reiner-schafkopf", "options": {"max_kontra": 0}}
    error = refused(rules, game="solo", suit="eichel", declarer="Anna", augen=75, kontra=1, last_kontra="opponents")
    assert (error.code, error.field) == ("not_allowed", "kontra")
    assert error.message == "Bei dieser Regel gibt es keine Stöße."
    assert score(rules, game="solo", suit="eichel", declarer="Anna", augen=75)["payouts"] == pay(15, -5, -5, -5)


def test_plus_points_only_solo_won_declarer_15_opponents_nothing() -> None:
    out = score(REINER_PLUS, game="solo", suit="eichel", declarer="Anna", augen=75)
    assert out["payouts"] == pay(15, 0, 0, 0)
    assert out["lines"][-1]["label"] == "Nur Pluspunkte: den Verlierern wird nichts geschrieben"


def test_plus_points_only_solo_lost_each_opponent_5_declarer_nothing() -> None:
    out = score(REINER_PLUS, game="solo", suit="eichel", declarer="Anna", augen=45)
    assert out["payouts"] == pay(0, 5, 5, 5)


def test_plus_points_only_rufspiel_won_schneider_two_each_for_the_winners() -> None:
    out = score(REINER_PLUS, game="rufspiel", declarer="Anna", partner="Cilli", augen=95)
    assert out["payouts"] == pay(2, 0, 2, 0)


def test_plus_points_only_is_refused_for_money() -> None:
    for rules in (
        {"preset": "standard", "options": {"plus_points_only": True}},
        {"preset": "reiner-schafkopf", "options": {"plus_points_only": True, "cents_per_unit": 10}},
    ):
        error = refused(rules, game="solo", suit="eichel", declarer="Anna", augen=75)
        assert (error.code, error.field) == ("not_allowed", "ruleset.options.plus_points_only")


def test_plus_points_only_is_off_by_default_and_changes_nothing() -> None:
    from scoring.engine import registry

    for preset in ("standard", "allgaeu", "allgaeu-meisterschaft", "reiner-schafkopf"):
        rules = registry.load(preset)
        assert rules.opt("plus_points_only") is False and rules.is_zero_sum()


def test_a_plus_points_only_evening_folds_without_the_zero_sum_check() -> None:
    from scoring.engine import registry
    from scoring.engine.session import fold

    ruleset, table = registry.load_with_table(REINER_PLUS)
    hands = [
        {"game": "solo", "suit": "herz", "declarer": "Anna", "augen": 80},
        {"game": "rufspiel", "declarer": "Bert", "partner": "Done", "augen": 40},
    ]
    result = fold(ruleset, table, SEATS, "Done", hands)
    assert result.totals == {"Anna": 16, "Bert": 0, "Cilli": 1, "Done": 0}
