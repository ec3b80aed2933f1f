"""A Skat evening (spec §3, skat.md §1, §5–§7): a table of three or four (at four the dealer sits
out and settles), the deal in turn, the list and the games per player, Bock rounds by each trigger,
the Verlustspielgeld of a list, and whole lists of 36 games at three and 48 at four recounted
independently of the fold. Readings: docs/rules/skat.md."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import registry
from scoring.engine.core import EngineError
from scoring.engine.presets.skat_samples import skat_hand
from scoring.engine.session import advance, score_session_document, start
from tests.properties import examples

P3 = ["Anna", "Bert", "Cilli"]
P4 = [*P3, "Done"]


def session(ruleset: Any, players: list[str], hands: list[dict[str, Any]]) -> dict[str, Any]:
    return score_session_document({"ruleset": ruleset, "players": players, "hands": hands})


def refused(ruleset: Any, players: list[str], hands: list[dict[str, Any]]) -> EngineError:
    with pytest.raises(EngineError) as caught:
        session(ruleset, players, hands)
    return caught.value


def game(declarer: str, augen: int = 75, spiel: str = "kreuz", spitzen: int = 1, **more: Any) -> dict[str, Any]:
    return {"game": spiel, "declarer": declarer, "spitzen": spitzen, "augen": augen, **more}


def drawn_list(preset: str, players: list[str], games: int, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """A list of ``games`` random hands, each drawn for the seats the fold deals it to."""
    ruleset, table = registry.load_with_table({"preset": preset, "options": options})
    state = start(ruleset, table, players, players[0])
    rng = random.Random(seed)
    hands = []
    for _ in range(games):
        hand = skat_hand(ruleset, rng, state.seats)  # type: ignore[arg-type]
        hands.append(hand)
        _result, state = advance(ruleset, table, state, hand)
    return {"ruleset": {"preset": preset, "options": options}, "players": players, "hands": hands}


def recount(doc: dict[str, Any], out: dict[str, Any], seeger: bool) -> None:
    """The list, the games and the totals worked out again from each game's own entry, the way a
    Schreiber adds up a paper list (skat.md §5, §6), and the deal checked game by game."""
    players = doc["players"]
    n = len(players)
    listed = dict.fromkeys(players, 0)
    won, lost = Counter(), Counter()
    for i, (hand, entry) in enumerate(zip(doc["hands"], out["hands"], strict=True)):
        dealer = players[i % n]
        assert entry["dealer"] == dealer
        assert entry["sitting_out"] == ([dealer] if n == 4 else [])
        assert entry["seats"] == [players[(i + k) % n] for k in range(1, 4)]  # Vorhand sits left of the dealer
        for name, amount in entry["list"].items():
            listed[name] += amount
        if "declarer" in hand:
            (won if entry["winner"] == "declarer" else lost)[hand["declarer"]] += 1
    assert out["list"] == listed
    assert out["games"] == {p: {"won": won[p], "lost": lost[p]} for p in players}
    if seeger:
        bonus = {3: 40, 4: 30}[n]
        all_lost = sum(lost.values())
        expected = {p: listed[p] + 50 * (won[p] - lost[p]) + bonus * (all_lost - lost[p]) for p in players}
    else:
        expected = {p: n * listed[p] - sum(listed.values()) for p in players}
    assert out["totals"] == expected


@pytest.mark.parametrize(("players", "games"), [(P3, 36), (P4, 48)], ids=["36_games_at_three", "48_games_at_four"])
@pytest.mark.parametrize("preset", ["skat", "skat-seeger"])
def test_skat_a_whole_list_recounted(preset: str, players: list[str], games: int) -> None:
    doc = drawn_list(preset, players, games, seed=games, options={})
    out = score_session_document(doc)
    assert len(out["hands"]) == games
    recount(doc, out, seeger=preset == "skat-seeger")
    if preset == "skat":
        assert sum(out["totals"].values()) == 0


@settings(max_examples=examples(100), deadline=None)
@given(
    st.sampled_from(("skat", "skat-seeger")),
    st.sampled_from((P3, P4)),
    st.integers(1, 48),
    st.integers(0, 10**6),
    st.sampled_from(({}, {"kontra_re": True, "ramsch": True, "schieberamsch": True}, {"bock": True})),
)
def test_skat_any_list_adds_up(preset: str, players: list[str], games: int, seed: int, options: dict[str, Any]) -> None:
    doc = drawn_list(preset, players, games, seed, options)
    # Bock doubles a game's entry, never the deal, the sums or the Seeger bonus.
    recount(doc, score_session_document(doc), seeger=preset == "skat-seeger")


def test_skat_table_of_four_the_dealer_sits_out_and_settles() -> None:
    out = session("skat", P4, [game("Bert", spitzen=2), game("Cilli", augen=50)])
    first, second = out["hands"]
    assert (first["dealer"], first["sitting_out"], first["seats"]) == ("Anna", ["Anna"], ["Bert", "Cilli", "Done"])
    assert first["payouts"] == {"Anna": -36, "Bert": 108, "Cilli": -36, "Done": -36}
    assert (second["dealer"], second["seats"]) == ("Bert", ["Cilli", "Done", "Anna"])
    assert second["payouts"] == {"Anna": 48, "Bert": 48, "Cilli": -144, "Done": 48}
    assert out["list"] == {"Anna": 0, "Bert": 36, "Cilli": -48, "Done": 0}
    assert out["games"]["Cilli"] == {"won": 0, "lost": 1}
    seeger = session("skat-seeger", P4, [game("Bert", spitzen=2), game("Cilli", augen=50)])
    assert seeger["totals"] == {"Anna": 30, "Bert": 86 + 30, "Cilli": -48 - 50, "Done": 30}


def test_skat_eingepasst_passes_the_deal_and_counts_nothing() -> None:
    out = session("skat", P3, [{"event": "zusammengeworfen"}, game("Bert")])
    passed, played = out["hands"]
    assert passed["lines"] == [{"label": "Eingepasst: der Nächste gibt"}]
    assert passed["payouts"] == dict.fromkeys(P3, 0)
    assert played["dealer"] == "Bert"
    assert out["games"]["Bert"] == {"won": 1, "lost": 0}


@pytest.mark.parametrize(
    ("trigger", "hands", "fires"),
    [
        ("6060", [game("Anna", augen=60)], True),
        ("6060", [game("Anna", augen=59)], False),
        ("kontra_re_lost", [game("Anna", augen=50, kontra=2)], True),
        ("kontra_re_lost", [game("Anna", augen=70, kontra=2)], False),
        ("kontra_re_lost", [game("Anna", augen=50, kontra=1)], False),
        ("grand_hand_won", [game("Anna", spiel="grand", hand=True)], True),
        ("grand_hand_won", [game("Anna", spiel="grand")], False),
        ("grand_hand_won", [game("Anna", spiel="grand", hand=True, augen=40)], False),
        # A list total of 100 (Herz mit 5 is 60, mit 3 is 40) or −100 (Herz mit 4 lost: −2 × 50).
        ("hundred", [game("Anna", spiel="herz", spitzen=5), game("Anna", spiel="herz", spitzen=3)], True),
        ("hundred", [game("Anna", spiel="herz", spitzen=5)], False),
        ("hundred", [game("Anna", spiel="herz", spitzen=4, augen=50)], True),
    ],
)
def test_skat_bock_trigger(trigger: str, hands: list[dict[str, Any]], fires: bool) -> None:
    ruleset = {"preset": "skat", "options": {"bock": [trigger], "kontra_re": True}}
    out = session(ruleset, P3, [*hands, game("Bert")])
    last = out["hands"][len(hands) - 1]
    assert ("triggered" in last) is fires
    after = out["hands"][-1]
    assert (after["round"], after["bock"]) == (("bockrunde", 1) if fires else ("normal", 0))
    assert after["list"] == {"Bert": 24 * (2 if fires else 1)}


def test_skat_a_bockrunde_is_one_game_per_player_at_the_table() -> None:
    ruleset = {"preset": "skat-seeger", "options": {"bock": ["grand_hand_won"]}}
    hands = [game("Bert", spiel="grand", hand=True), *(game(p) for p in ["Cilli", "Done", "Anna", "Bert", "Cilli"])]
    out = session(ruleset, P4, hands)
    assert [h["round"] for h in out["hands"]] == ["normal", *["bockrunde"] * 4, "normal"]
    assert [next(iter(h["list"].values())) for h in out["hands"][1:]] == [48, 48, 48, 48, 24]
    # Seeger-Fabian: the Bock doubles the list entry, the 50 stays 50.
    assert out["hands"][1]["payouts"]["Cilli"] == 48 + 50


def test_skat_bock_true_plays_every_trigger() -> None:
    rules = registry.load({"preset": "skat", "options": {"bock": True}})
    assert rules.opt("bock") == ("6060", "kontra_re_lost", "grand_hand_won", "hundred")
    assert registry.load({"preset": "skat", "options": {"bock": False}}).opt("bock") == ()


def test_skat_verlustspielgeld_50_for_the_first_three_lost_games_then_100() -> None:
    ruleset = {"preset": "skat-seeger", "options": {"verlustspielgeld": True}}
    lost = [game("Anna", augen=40) for _ in range(5)]
    out = session(ruleset, P3, [*lost, game("Bert", augen=40), game("Cilli")])
    assert [h.get("verlustspielgeld") for h in out["hands"]] == [50, 50, 50, 100, 100, 50, None]
    assert out["verlustspielgeld"] == {"Anna": 350, "Bert": 50, "Cilli": 0}
    # Money beside the points: the Seeger-Fabian totals are the list's alone.
    plain = session("skat-seeger", P3, [*lost, game("Bert", augen=40), game("Cilli")])
    assert plain["totals"] == out["totals"] and "verlustspielgeld" not in plain


def test_skat_verlustspielgeld_amounts_are_options() -> None:
    options = {
        "verlustspielgeld": True,
        "verlustspielgeld_first": 20,
        "verlustspielgeld_later": 40,
        "verlustspielgeld_first_games": 1,
    }
    out = session({"preset": "skat", "options": {**options, "cents_per_point": 1}}, P3, [game("Bert", augen=40)] * 3)
    assert [h["verlustspielgeld"] for h in out["hands"]] == [20, 40, 40]


@pytest.mark.parametrize(
    ("players", "hands", "field"),
    [
        (P3, [{**game("Anna"), "sitting_out": "Bert"}], "hands[0].sitting_out"),
        (P4, [game("Anna")], "hands[0].declarer"),  # Anna deals the first game and sits out
        (P4, [game("Bert"), game("Cilli", spitzen=12)], "hands[1].spitzen"),
        (P3, [game("Bert"), {"event": "vote", "choice": "bockrunde"}], "hands[1].event"),
        (P3, [{"event": "special_round", "kind": "rimini"}], "hands[0].kind"),
        (P3, [{"event": "schmeissen"}], "hands[0].event"),
        ([*P4, "Emil"], [], "players"),
        (["Anna", "Bert"], [], "players"),
    ],
)
def test_skat_session_refuses_naming_the_entry(players: list[str], hands: list[dict[str, Any]], field: str) -> None:
    assert refused("skat", players, hands).field == field


def test_skat_table_options_belong_to_the_table() -> None:
    with pytest.raises(EngineError) as caught:
        registry.load_with_table({"preset": "skat", "options": {"bock_overlap": "stack"}})
    assert caught.value.field == "ruleset.options.bock_overlap"  # only where Bock is played
    _rules, table = registry.load_with_table(
        {"preset": "skat", "options": {"bock": ["6060"], "bock_overlap": "stack", "verlustspielgeld": True}}
    )
    assert (table.table_sizes, table.bock_triggers, table.bock_overlap) == ((3, 4), ("6060",), "stack")
    assert table.verlustspielgeld and table.dealer_sits_out_from == 4
