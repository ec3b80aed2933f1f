"""Doppelkopf (seed 004): one named case per rule of the Abrechnung (§10), the solos (§4), the
Hochzeit (§7), the Armut (§6), the missed announcements (§8) and the table events (§5); then the
validation of what a table may record. The readings behind each case are in
docs/rules/doppelkopf.md."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from scoring.engine.api import score_hand_document
from scoring.engine.core import EngineError
from scoring.engine.presets.doppelkopf import (
    MAX_AUGEN,
    VERGEBEN_LIMIT,
    schmeissen_payouts,
    table_payouts,
    vergeben_payouts,
)

SEATS = ["Anna", "Bert", "Cilli", "Done"]
RE = ["Anna", "Bert"]
SOLO = ["Anna"]


def score(options: dict[str, Any] | None = None, bock: int = 0, **hand: Any) -> dict[str, Any]:
    ruleset: Any = {"preset": "doppelkopf", "options": options} if options else "doppelkopf"
    doc: dict[str, Any] = {"ruleset": ruleset, "seats": SEATS, **hand}
    if bock:
        doc["context"] = {"bock": bock}
    return score_hand_document(doc)


def lines(result: dict[str, Any]) -> list[tuple[str, int]]:
    return [(line["label"], line.get("amount", line.get("factor"))) for line in result["lines"]]


def team(value: int) -> dict[str, int]:
    """Payouts of a 2-against-2 game in which each Re player (Anna, Bert) gets ``value``."""
    return {"Anna": value, "Bert": value, "Cilli": -value, "Done": -value}


def solo(value: int) -> dict[str, int]:
    """Payouts of a solo by Anna in which each opponent pays ``value``."""
    return {"Anna": 3 * value, "Bert": -value, "Cilli": -value, "Done": -value}


def ann(re: list[str] | None = None, contra: list[str] | None = None) -> dict[str, list[str]]:
    return {"re": re or [], "contra": contra or []}


def x(side: str, kind: str) -> dict[str, str]:
    return {"side": side, "kind": kind}


@dataclass(frozen=True)
class Case:
    name: str
    hand: dict[str, Any]
    winner: Any
    lines: list[tuple[str, int]]
    payouts: dict[str, int]
    options: dict[str, Any] = field(default_factory=dict)
    bock: int = 0


CASES = [
    # --- who wins (004 §10) ---------------------------------------------------------------
    Case("re_wins_with_121", dict(game="normal", re=RE, augen=121), "declarer", [("Gewonnen", 1)], team(1)),
    Case(
        "contra_wins_at_120_120_with_gegen_die_alten",
        dict(game="normal", re=RE, augen=120),
        "opponents",
        [("Gewonnen", 1), ("gegen die Alten", 1)],
        team(-2),
    ),
    Case(
        "re_needs_121_even_after_contra",
        dict(game="normal", re=RE, augen=120, announcements=ann(contra=["contra"])),
        "opponents",
        [("Gewonnen", 1), ("gegen die Alten", 1), ("Contra angesagt", 2)],
        team(-4),
    ),
    Case(
        "highest_absage_is_the_target",
        dict(game="normal", re=RE, augen=150, announcements=ann(["re", "keine90"])),
        "opponents",
        [("Absage keine 90 der Re-Partei verfehlt", 3), ("Re angesagt", 2)],
        team(-5),
    ),
    # --- levels of the loser's Augen, one point each ----------------------------------------
    Case(
        "levels_keine_90_keine_60",
        dict(game="normal", re=RE, augen=181, announcements=ann(["re"])),
        "declarer",
        [("Gewonnen", 1), ("keine 90", 1), ("keine 60", 1), ("Re angesagt", 2)],
        team(5),
    ),
    Case(
        "levels_keine_30_and_schwarz_need_no_announcement_when_option_off",
        dict(game="normal", re=RE, augen=240, tricks=12),
        "declarer",
        [("Gewonnen", 1), ("keine 90", 1), ("keine 60", 1), ("keine 30", 1), ("schwarz", 1)],
        team(5),
        options={"versaeumte_ansage": False},
    ),
    Case(
        "levels_for_contra_re_under_90",
        dict(game="normal", re=RE, augen=85),
        "opponents",
        [("Gewonnen", 1), ("keine 90", 1), ("gegen die Alten", 1)],
        team(-3),
    ),
    # --- announcements ------------------------------------------------------------------------
    Case(
        "absage_made_and_achieved_plus_one",
        dict(game="normal", re=RE, augen=155, announcements=ann(["re", "keine90"])),
        "declarer",
        [("Gewonnen", 1), ("keine 90", 1), ("keine 90 angesagt", 1), ("Re angesagt", 2)],
        team(5),
    ),
    Case(
        "re_and_contra_announced_two_each",
        dict(game="normal", re=RE, augen=130, announcements=ann(["re"], ["contra"])),
        "declarer",
        [("Gewonnen", 1), ("Re angesagt", 2), ("Contra angesagt", 2)],
        team(5),
    ),
    Case(
        "schwarz_announced_and_achieved",
        dict(
            game="normal",
            re=RE,
            augen=240,
            tricks=12,
            announcements=ann(["re", "keine90", "keine60", "keine30", "schwarz"]),
        ),
        "declarer",
        [
            ("Gewonnen", 1),
            ("keine 90", 1),
            ("keine 60", 1),
            ("keine 30", 1),
            ("schwarz", 1),
            ("keine 90 angesagt", 1),
            ("keine 60 angesagt", 1),
            ("keine 30 angesagt", 1),
            ("schwarz angesagt", 1),
            ("Re angesagt", 2),
        ],
        team(11),
    ),
    # --- a failed "keine X": the other side gets the announcer's points, +1 per further level --
    Case(
        "failed_keine_90_contra_reaches_90_no_gegen_die_alten_below_120",
        dict(game="normal", re=RE, augen=140, announcements=ann(["re", "keine90"])),
        "opponents",
        [("Absage keine 90 der Re-Partei verfehlt", 3), ("Re angesagt", 2)],
        team(-5),
    ),
    Case(
        "failed_keine_90_further_level_120_and_gegen_die_alten",
        dict(game="normal", re=RE, augen=110, announcements=ann(["re", "keine90"])),
        "opponents",
        [
            ("Absage keine 90 der Re-Partei verfehlt", 3),
            ("weitere Stufe: 120 erreicht", 1),
            ("gegen die Alten", 1),
            ("Re angesagt", 2),
        ],
        team(-7),
    ),
    Case(
        "failed_keine_60_lower_absage_achieved_earns_nothing",
        dict(game="normal", re=RE, augen=170, announcements=ann(["re", "keine90", "keine60"])),
        "opponents",
        [("Absage keine 60 der Re-Partei verfehlt", 5), ("Re angesagt", 2)],
        team(-7),
    ),
    Case(
        "failed_contra_keine_90_re_reaches_121",
        dict(game="normal", re=RE, augen=130, announcements=ann(contra=["contra", "keine90"])),
        "declarer",
        [("Absage keine 90 der Contra-Partei verfehlt", 3), ("weitere Stufe: 121 erreicht", 1), ("Contra angesagt", 2)],
        team(6),
    ),
    Case(
        "failed_contra_keine_90_re_wins_with_100",
        dict(game="normal", re=RE, augen=100, announcements=ann(contra=["contra", "keine90"])),
        "declarer",
        [("Absage keine 90 der Contra-Partei verfehlt", 3), ("Contra angesagt", 2)],
        team(5),
    ),
    Case(
        "failed_schwarz_one_trick_for_contra",
        dict(
            game="normal",
            re=RE,
            augen=235,
            tricks=11,
            announcements=ann(["re", "keine90", "keine60", "keine30", "schwarz"]),
        ),
        "opponents",
        [("Absage schwarz der Re-Partei verfehlt", 9), ("Re angesagt", 2)],
        team(-11),
    ),
    # --- both sides miss their Absage (the seed is silent) -------------------------------------
    Case(
        "both_fail_net_re_ahead",
        dict(game="normal", re=RE, augen=130, announcements=ann(["re", "keine90"], ["contra", "keine90"])),
        "declarer",
        [
            ("Absage keine 90 der Contra-Partei verfehlt", 3),
            ("weitere Stufe: 121 erreicht", 1),
            ("Absage keine 90 der Re-Partei verfehlt", -3),
        ],
        team(1),
    ),
    Case(
        "both_fail_net_even_is_no_winner",
        dict(game="normal", re=RE, augen=75, announcements=ann(["re", "keine90"], ["contra", "keine90", "keine60"])),
        [],
        [
            ("Absage keine 60 der Contra-Partei verfehlt", 5),
            ("Absage keine 90 der Re-Partei verfehlt", -3),
            ("weitere Stufe: 120 erreicht", -1),
            ("weitere Stufe: keine 90", -1),
        ],
        team(0),
    ),
    Case(
        "both_fail_void_counts_only_sonderpunkte",
        dict(
            game="normal",
            re=RE,
            augen=130,
            announcements=ann(["re", "keine90"], ["contra", "keine90"]),
            extras=[x("contra", "doppelkopf")],
        ),
        [],
        [("Beide Absagen verfehlt: kein Spielwert", 0), ("Doppelkopf (Contra)", -1)],
        team(-1),
        options={"both_fail": "void"},
    ),
    # --- Sonderpunkte, netted between the sides -----------------------------------------------
    Case(
        "sonderpunkte_netted_charlie_against_fuchs",
        dict(game="normal", re=RE, augen=130, extras=[x("contra", "fuchs_gefangen"), x("re", "charlie")]),
        "declarer",
        [("Gewonnen", 1), ("Charlie (Re)", 1), ("Fuchs gefangen (Contra)", -1)],
        team(1),
    ),
    Case(
        "sonderpunkte_every_kind",
        dict(
            game="normal",
            re=RE,
            augen=150,
            extras=[
                x("re", "doppelkopf"),
                x("re", "charlie_gefangen"),
                x("re", "herz10"),
                x("re", "fuchs_gefangen"),
                x("re", "fuchs_gefangen"),
            ],
        ),
        "declarer",
        [
            ("Gewonnen", 1),
            ("Charlie gefangen (Re)", 1),
            ("Fuchs gefangen (Re)", 1),
            ("Fuchs gefangen (Re)", 1),
            ("Doppelkopf (Re)", 1),
            ("Herz-10 fängt Herz-10 (Re)", 1),
        ],
        team(6),
    ),
    Case(
        "sonderpunkte_of_the_loser_can_outweigh_the_win",
        dict(
            game="normal",
            re=RE,
            augen=125,
            extras=[x("contra", "fuchs_gefangen"), x("contra", "fuchs_gefangen"), x("contra", "doppelkopf")],
        ),
        "declarer",
        [
            ("Gewonnen", 1),
            ("Fuchs gefangen (Contra)", -1),
            ("Fuchs gefangen (Contra)", -1),
            ("Doppelkopf (Contra)", -1),
        ],
        team(-2),
    ),
    # --- solos (004 §4, §10) --------------------------------------------------------------------
    Case(
        "trumpfsolo_soloist_gets_three_times",
        dict(game="trumpfsolo", re=SOLO, augen=130, announcements=ann(["re"])),
        "declarer",
        [("Gewonnen", 1), ("Re angesagt", 2), ("Solo: dreifach für den Solospieler", 3)],
        solo(3),
    ),
    Case(
        "lost_solo_without_gegen_die_alten",
        dict(game="damensolo", re=SOLO, augen=100),
        "opponents",
        [("Gewonnen", 1), ("Solo: dreifach für den Solospieler", 3)],
        solo(-1),
    ),
    Case(
        "solo_120_120_is_lost",
        dict(game="bubensolo", re=SOLO, augen=120),
        "opponents",
        [("Gewonnen", 1), ("Solo: dreifach für den Solospieler", 3)],
        solo(-1),
    ),
    Case(
        "farbsolo_counts_only_the_doppelkopf",
        dict(game="farbsolo", suit="herz", re=SOLO, augen=160, extras=[x("re", "doppelkopf")]),
        "declarer",
        [("Gewonnen", 1), ("keine 90", 1), ("Doppelkopf (Re)", 1), ("Solo: dreifach für den Solospieler", 3)],
        solo(3),
    ),
    Case(
        "trumpfsolo_counts_every_sonderpunkt",
        dict(game="trumpfsolo", re=SOLO, augen=140, extras=[x("re", "charlie"), x("contra", "fuchs_gefangen")]),
        "declarer",
        [
            ("Gewonnen", 1),
            ("Charlie (Re)", 1),
            ("Fuchs gefangen (Contra)", -1),
            ("Solo: dreifach für den Solospieler", 3),
        ],
        solo(1),
    ),
    Case(
        "fleischlos_lost_by_soloist",
        dict(game="fleischlos", re=SOLO, augen=55, announcements=ann(["re"], ["contra"])),
        "opponents",
        [
            ("Gewonnen", 1),
            ("keine 90", 1),
            ("keine 60", 1),
            ("Re angesagt", 2),
            ("Contra angesagt", 2),
            ("Solo: dreifach für den Solospieler", 3),
        ],
        solo(-7),
    ),
    # --- Hochzeit (004 §7) and Armut (004 §6) -------------------------------------------------
    Case(
        "hochzeit_with_partner_is_a_normal_game",
        dict(game="hochzeit", re=["Cilli", "Anna"], augen=140, announcements=ann(["re"])),
        "declarer",
        [("Gewonnen", 1), ("Re angesagt", 2)],
        {"Anna": 3, "Bert": -3, "Cilli": 3, "Done": -3},
    ),
    Case(
        "stille_hochzeit_scored_as_solo",
        dict(game="stille_hochzeit", re=SOLO, augen=150, extras=[x("re", "fuchs_gefangen")]),
        "declarer",
        [("Gewonnen", 1), ("Fuchs gefangen (Re)", 1), ("Solo: dreifach für den Solospieler", 3)],
        solo(2),
    ),
    Case(
        "offene_hochzeit_scored_as_solo",
        dict(game="hochzeit", re=SOLO, augen=100, announcements=ann(["re"])),
        "opponents",
        [("Gewonnen", 1), ("Re angesagt", 2), ("Solo: dreifach für den Solospieler", 3)],
        solo(-3),
    ),
    Case(
        "offene_hochzeit_under_30_opponents_win_simply",
        dict(game="hochzeit", re=SOLO, augen=20, announcements=ann(["re"])),
        "opponents",
        [("Offene Hochzeit unter 30 Augen: einfach gewertet", 1), ("Solo: dreifach für den Solospieler", 3)],
        solo(-1),
    ),
    Case(
        "offene_hochzeit_under_30_option_wedding_wins_simply",
        dict(game="hochzeit", re=SOLO, augen=20),
        "declarer",
        [("Offene Hochzeit unter 30 Augen: einfach gewertet", 1), ("Solo: dreifach für den Solospieler", 3)],
        solo(1),
        options={"offene_hochzeit_unter_30": "wedding_simple"},
    ),
    Case(
        "offene_hochzeit_under_30_option_as_solo",
        dict(game="hochzeit", re=SOLO, augen=20, announcements=ann(["re"], ["contra", "keine90"])),
        "opponents",
        [
            ("Gewonnen", 1),
            ("keine 90", 1),
            ("keine 60", 1),
            ("keine 30", 1),
            ("keine 90 angesagt", 1),
            ("Re angesagt", 2),
            ("Contra angesagt", 2),
            ("Solo: dreifach für den Solospieler", 3),
        ],
        solo(-9),
        options={"offene_hochzeit_unter_30": "as_solo"},
    ),
    Case(
        "armut_side_is_re",
        dict(game="armut", re=["Done", "Bert"], augen=100, announcements=ann(["re"])),
        "opponents",
        [("Gewonnen", 1), ("gegen die Alten", 1), ("Re angesagt", 2)],
        {"Anna": 4, "Bert": -4, "Cilli": 4, "Done": -4},
    ),
    Case(
        # Two Armuts: the first Armut party (Cilli's poverty, taken by Done) is Re.
        "two_armuts_first_party_is_re",
        dict(game="armut", re=["Cilli", "Done"], augen=125, announcements=ann(["re"], ["contra"])),
        "declarer",
        [("Gewonnen", 1), ("Re angesagt", 2), ("Contra angesagt", 2)],
        {"Anna": -5, "Bert": -5, "Cilli": 5, "Done": 5},
    ),
    Case(
        # 004 §9 "Bei Hochzeit und Armut ist eine Re-Ansage Pflicht und gilt als schon gesagt":
        # the Re counts (+2) although the Schreiber did not record it.
        "pflicht_re_hochzeit_counts_unrecorded_004_9",
        dict(game="hochzeit", re=["Anna", "Bert"], augen=125),
        "declarer",
        [("Gewonnen", 1), ("Re angesagt", 2)],
        team(3),
    ),
    Case(
        "pflicht_re_armut_counts_unrecorded_004_9",
        dict(game="armut", re=["Done", "Bert"], augen=100),
        "opponents",
        [("Gewonnen", 1), ("gegen die Alten", 1), ("Re angesagt", 2)],
        {"Anna": 4, "Bert": -4, "Cilli": 4, "Done": -4},
    ),
    Case(
        # Recorded or not, it is one Re: the same value.
        "pflicht_re_recorded_is_the_same_re_004_9",
        dict(game="hochzeit", re=["Anna", "Bert"], augen=125, announcements=ann(["re"])),
        "declarer",
        [("Gewonnen", 1), ("Re angesagt", 2)],
        team(3),
    ),
    Case(
        # With the Re said by rule, "keine 90" alone leaves no gap in the ladder (004 §8).
        "pflicht_re_keine_90_alone_is_no_gap_004_9",
        dict(game="hochzeit", re=["Anna", "Bert"], augen=160, announcements=ann(["keine90"])),
        "declarer",
        [("Gewonnen", 1), ("keine 90", 1), ("keine 90 angesagt", 1), ("Re angesagt", 2)],
        team(5),
    ),
    Case(
        # The Stille Hochzeit announces no Vorbehalt (004 §7): no Pflicht-Re.
        "stille_hochzeit_has_no_pflicht_re",
        dict(game="stille_hochzeit", re=["Anna"], augen=125),
        "declarer",
        [("Gewonnen", 1), ("Solo: dreifach für den Solospieler", 3)],
        {"Anna": 3, "Bert": -1, "Cilli": -1, "Done": -1},
    ),
    # --- missed announcements (004 §8) --------------------------------------------------------
    Case(
        "silent_win_with_other_side_under_60_goes_over",
        dict(game="normal", re=RE, augen=190, announcements=ann(contra=["contra"])),
        "opponents",
        [("Gewonnen: keine Ansage der Re-Partei (004 §8)", 1), ("Contra angesagt", 2)],
        team(-3),
    ),
    Case(
        "keine_90_missed_with_other_side_under_30_is_nullspiel",
        dict(game="normal", re=RE, augen=215, announcements=ann(["re"]), extras=[x("re", "doppelkopf")]),
        [],
        [("Nullspiel: keine 90 der Re-Partei versäumt (004 §8)", 0)],
        team(0),
    ),
    Case(
        "silent_contra_win_goes_over_to_re",
        dict(game="normal", re=RE, augen=50),
        "declarer",
        [("Gewonnen: keine Ansage der Contra-Partei (004 §8)", 1)],
        team(1),
    ),
    Case(
        "missed_announcement_option_off",
        dict(game="normal", re=RE, augen=190),
        "declarer",
        [("Gewonnen", 1), ("keine 90", 1), ("keine 60", 1)],
        team(3),
        options={"versaeumte_ansage": False},
    ),
    # --- Bock -----------------------------------------------------------------------------------
    Case(
        "bock_doubles_game_and_sonderpunkte",
        dict(game="normal", re=RE, augen=130, announcements=ann(["re"]), extras=[x("re", "doppelkopf")]),
        "declarer",
        [("Gewonnen", 1), ("Re angesagt", 2), ("Doppelkopf (Re)", 1), ("Bock", 2)],
        team(8),
        bock=1,
    ),
    Case(
        "two_bocks_in_a_solo",
        dict(game="trumpfsolo", re=SOLO, augen=130),
        "declarer",
        [("Gewonnen", 1), ("2× Bock", 4), ("Solo: dreifach für den Solospieler", 3)],
        solo(4),
        bock=2,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_doppelkopf_rule(case: Case) -> None:
    result = score(case.options or None, case.bock, **case.hand)
    assert lines(result) == case.lines
    assert result["winner"] == case.winner
    assert result["payouts"] == case.payouts
    assert result["unit"] == "point"
    assert sum(result["payouts"].values()) == 0


def test_doppelkopf_case_names_are_unique_and_many() -> None:
    assert len({c.name for c in CASES}) == len(CASES) >= 20


def test_doppelkopf_price_is_the_value_per_opponent() -> None:
    assert score(game="trumpfsolo", re=SOLO, augen=130, announcements=ann(["re"]))["price"] == 3
    assert score(game="normal", re=RE, augen=120)["price"] == 2


def test_doppelkopf_outcome_for_statistics() -> None:
    from scoring.engine.core import Context
    from scoring.engine.registry import load

    rules = load("doppelkopf")
    hand = {"game": "hochzeit", "re": ["Cilli", "Anna"], "augen": 241 - 100, "tricks": 7}
    outcome = rules.score(hand, tuple(SEATS), Context()).outcome
    assert (outcome.game, outcome.declarer, outcome.partner, outcome.declarer_won) == (
        "hochzeit",
        "Cilli",
        "Anna",
        True,
    )
    assert (outcome.augen, outcome.solo, outcome.schwarz) == (141, False, False)
    solo_outcome = rules.score(
        {
            "game": "farbsolo",
            "suit": "pik",
            "re": ["Done"],
            "augen": 0,
            "tricks": 0,
            "announcements": ann(contra=["contra", "keine90"]),
        },
        tuple(SEATS),
        Context(),
    ).outcome
    assert (solo_outcome.declarer, solo_outcome.partner, solo_outcome.declarer_won) == ("Done", None, False)
    assert (solo_outcome.solo, solo_outcome.schwarz, solo_outcome.schneider, solo_outcome.suit) == (
        True,
        True,
        True,
        "pik",
    )
    tie = rules.score(
        {
            "game": "normal",
            "re": RE,
            "augen": 75,
            "announcements": ann(["re", "keine90"], ["contra", "keine90", "keine60"]),
        },
        tuple(SEATS),
        Context(),
    )
    assert tie.outcome.declarer_won is None


def test_doppelkopf_bock_option_off_refuses_a_bock_hand() -> None:
    with pytest.raises(EngineError) as err:
        score({"bock_doubles": False}, 1, game="normal", re=RE, augen=130)
    assert err.value.field == "context.bock"


def test_doppelkopf_without_trick_count_zero_augen_is_schwarz() -> None:
    result = score({"versaeumte_ansage": False}, game="normal", re=RE, augen=0)
    assert lines(result)[-2:] == [("schwarz", 1), ("gegen die Alten", 1)]
    with_trick = score({"versaeumte_ansage": False}, game="normal", re=RE, augen=0, tricks=1)
    assert ("schwarz", 1) not in lines(with_trick)


def test_doppelkopf_max_augen_per_trick_count() -> None:
    assert MAX_AUGEN[0] == 0 and MAX_AUGEN[1] == 44 and MAX_AUGEN[12] == 240


# --- table events (004 §5, §10) ------------------------------------------------------------------


def test_doppelkopf_vergeben_every_player_gets_one_dealer_pays_the_sum() -> None:
    assert VERGEBEN_LIMIT == 3
    assert vergeben_payouts(SEATS, "Cilli") == {"Anna": 1, "Bert": 1, "Cilli": -3, "Done": 1}


def test_doppelkopf_vergeben_at_five_the_one_sitting_out_also_gets_one() -> None:
    players = [*SEATS, "Emil"]
    assert vergeben_payouts(players, "Emil") == {"Anna": 1, "Bert": 1, "Cilli": 1, "Done": 1, "Emil": -4}


def test_doppelkopf_schmeissen_scores_nothing() -> None:
    assert schmeissen_payouts(SEATS) == dict.fromkeys(SEATS, 0)


def test_doppelkopf_five_at_the_table_dealer_gets_zero() -> None:
    result = score(game="normal", re=RE, augen=130)
    assert table_payouts([*SEATS, "Emil"], result["payouts"]) == {**team(1), "Emil": 0}


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda: vergeben_payouts(SEATS, "Emil"), "dealer"),
        (lambda: vergeben_payouts(["Anna", "Anna", "Bert", "Cilli"], "Anna"), "players"),
        (lambda: schmeissen_payouts(SEATS[:3]), "players"),
        (lambda: table_payouts(SEATS, {"Emil": 3, "Anna": -3}), "seats"),
    ],
    ids=["dealer_not_at_table", "name_twice", "three_players", "stranger_in_payouts"],
)
def test_doppelkopf_table_event_refusals(call: Any, field: str) -> None:
    with pytest.raises(EngineError) as err:
        call()
    assert err.value.field == field


# --- validation -------------------------------------------------------------------------------------

INVALID = [
    ("augen_over_240", dict(game="normal", re=RE, augen=241), "out_of_range", "augen"),
    ("augen_missing", dict(game="normal", re=RE), "missing_field", "augen"),
    ("tricks_over_12", dict(game="normal", re=RE, augen=120, tricks=13), "out_of_range", "tricks"),
    ("no_trick_but_augen", dict(game="normal", re=RE, augen=10, tricks=0), "inconsistent", "augen"),
    ("one_trick_cannot_hold_50", dict(game="normal", re=RE, augen=50, tricks=1), "inconsistent", "augen"),
    ("every_trick_but_augen_missing", dict(game="normal", re=RE, augen=230, tricks=12), "inconsistent", "augen"),
    ("unknown_game", dict(game="ramsch", re=RE, augen=120), "invalid_value", "game"),
    ("re_missing", dict(game="normal", augen=120), "missing_field", "re"),
    ("normal_with_one_re", dict(game="normal", re=SOLO, augen=120), "invalid_value", "re"),
    ("armut_with_three_re", dict(game="armut", re=SEATS[:3], augen=120), "invalid_value", "re"),
    ("solo_with_two_re", dict(game="trumpfsolo", re=RE, augen=120), "invalid_value", "re"),
    ("hochzeit_with_three_re", dict(game="hochzeit", re=SEATS[:3], augen=120), "invalid_value", "re"),
    ("re_not_seated", dict(game="normal", re=["Anna", "Emil"], augen=120), "invalid_value", "re"),
    ("re_twice", dict(game="normal", re=["Anna", "Anna"], augen=120), "invalid_value", "re"),
    ("farbsolo_without_suit", dict(game="farbsolo", re=SOLO, augen=120), "missing_field", "suit"),
    ("karo_is_no_farbsolo", dict(game="farbsolo", suit="karo", re=SOLO, augen=120), "invalid_value", "suit"),
    ("suit_outside_farbsolo", dict(game="trumpfsolo", suit="herz", re=SOLO, augen=120), "unexpected_field", "suit"),
    ("unknown_field", dict(game="normal", re=RE, augen=120, laufende=3), "unexpected_field", "laufende"),
    (
        "keine_60_without_keine_90",
        dict(game="normal", re=RE, augen=120, announcements=ann(["re", "keine60"])),
        "invalid_value",
        "announcements.re",
    ),
    (
        "keine_90_without_re",
        dict(game="normal", re=RE, augen=120, announcements=ann(["keine90"])),
        "invalid_value",
        "announcements.re",
    ),
    (
        "contra_in_re_list",
        dict(game="normal", re=RE, augen=120, announcements=ann(["contra"])),
        "invalid_value",
        "announcements.re[0]",
    ),
    (
        "re_in_contra_list",
        dict(game="normal", re=RE, augen=120, announcements=ann(contra=["re"])),
        "invalid_value",
        "announcements.contra[0]",
    ),
    (
        "announcement_twice",
        dict(game="normal", re=RE, augen=120, announcements=ann(["re", "re"])),
        "invalid_value",
        "announcements.re[1]",
    ),
    (
        "unknown_announcement",
        dict(game="normal", re=RE, augen=120, announcements=ann(["re", "keine120"])),
        "invalid_value",
        "announcements.re[1]",
    ),
    (
        "announcements_of_a_third_side",
        dict(game="normal", re=RE, augen=120, announcements={"kontra": ["contra"]}),
        "unexpected_field",
        "announcements.kontra",
    ),
    (
        "announcements_not_an_object",
        dict(game="normal", re=RE, augen=120, announcements=["re"]),
        "invalid_type",
        "announcements",
    ),
    (
        "extra_unknown_kind",
        dict(game="normal", re=RE, augen=120, extras=[x("re", "karlchen")]),
        "invalid_value",
        "extras[0].kind",
    ),
    (
        "extra_unknown_side",
        dict(game="normal", re=RE, augen=120, extras=[x("kontra", "charlie")]),
        "invalid_value",
        "extras[0].side",
    ),
    (
        "extra_without_side",
        dict(game="normal", re=RE, augen=120, extras=[{"kind": "charlie"}]),
        "missing_field",
        "extras[0].side",
    ),
    (
        "extra_with_player",
        dict(game="normal", re=RE, augen=120, extras=[{"side": "re", "kind": "charlie", "by": "Anna"}]),
        "unexpected_field",
        "extras[0].by",
    ),
    (
        "charlie_twice",
        dict(game="normal", re=RE, augen=120, extras=[x("re", "charlie"), x("contra", "charlie")]),
        "inconsistent",
        "extras",
    ),
    (
        "charlie_caught_and_taking_the_last_trick",
        dict(game="normal", re=RE, augen=120, extras=[x("re", "charlie"), x("contra", "charlie_gefangen")]),
        "inconsistent",
        "extras",
    ),
    (
        "three_fuechse",
        dict(game="normal", re=RE, augen=120, extras=[x("re", "fuchs_gefangen")] * 3),
        "inconsistent",
        "extras",
    ),
    (
        "herz10_twice",
        dict(game="normal", re=RE, augen=120, extras=[x("re", "herz10"), x("contra", "herz10")]),
        "inconsistent",
        "extras",
    ),
    (
        "sonderpunkt_without_a_trick",
        dict(game="normal", re=RE, augen=0, tricks=0, extras=[x("re", "doppelkopf")]),
        "inconsistent",
        "extras",
    ),
    (
        "doppelkopf_needs_40_augen",
        dict(game="normal", re=RE, augen=205, extras=[x("contra", "doppelkopf")]),
        "inconsistent",
        "extras",
    ),
    (
        "fuchs_in_damensolo",
        dict(game="damensolo", re=SOLO, augen=120, extras=[x("re", "fuchs_gefangen")]),
        "invalid_value",
        "extras[0].kind",
    ),
]


@pytest.mark.parametrize(("hand", "code", "field"), [c[1:] for c in INVALID], ids=[c[0] for c in INVALID])
def test_doppelkopf_refuses(hand: dict[str, Any], code: str, field: str) -> None:
    with pytest.raises(EngineError) as err:
        score(**hand)
    assert (err.value.code, err.value.field) == (code, field)
    assert err.value.message  # German, for the Schreiber


def test_doppelkopf_refuses_three_seats() -> None:
    with pytest.raises(EngineError) as err:
        score_hand_document({"ruleset": "doppelkopf", "seats": SEATS[:3], "game": "normal", "re": RE, "augen": 120})
    assert err.value.field == "seats"


def test_doppelkopf_announcements_in_any_order() -> None:
    ordered = score(game="normal", re=RE, augen=155, announcements=ann(["re", "keine90"], ["contra"]))
    shuffled = score(game="normal", re=RE, augen=155, announcements=ann(["keine90", "re"], ["contra"]))
    assert shuffled == ordered


def test_doppelkopf_empty_optional_fields_are_fine() -> None:
    result = score(game="normal", re=RE, augen=121, tricks=None, announcements=None, extras=[], suit=None)
    assert result["payouts"] == team(1)
