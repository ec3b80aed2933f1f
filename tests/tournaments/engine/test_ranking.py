"""The championship ranking of 001 §11.3, one case per criterion, then playoffs, shared places and
adjustments; and the criteria counted from real hands by the evening fold."""

from __future__ import annotations

import pytest

from scoring.engine import registry
from scoring.engine.core import EngineError
from tournaments.engine.ranking import (
    CRITERIA,
    PLAYOFF,
    Adjustment,
    Playoff,
    TableLog,
    Tally,
    rank,
    tally_tables,
)

RULES = registry.load_with_table("allgaeu-meisterschaft")


def names(ranking) -> list[tuple[int, str]]:
    return [(placing.place, placing.name) for placing in ranking.placings]


def tally_up_to(criterion: str, **values: int) -> Tally:
    """Equal on every criterion before ``criterion`` (all 10), then ``values``."""
    base = {name: 10 for name in CRITERIA[: CRITERIA.index(criterion)]}
    return Tally(**{**base, **values})


@pytest.mark.parametrize("criterion", CRITERIA, ids=lambda c: f"decided_by_{c}")
def test_each_criterion_decides_when_all_before_it_are_equal(criterion: str) -> None:
    # Bert is listed first and is better on every later criterion: only `criterion` may decide.
    later = {name: 99 for name in CRITERIA[CRITERIA.index(criterion) + 1 :]}
    tallies = {
        "Bert": tally_up_to(criterion, **{criterion: 4}, **later),
        "Anna": tally_up_to(criterion, **{criterion: 5}),
    }
    ranking = rank(tallies)
    assert names(ranking) == [(1, "Anna"), (2, "Bert")]
    assert ranking.placings[1].decided_by == criterion
    assert ranking.ties_unresolved == ()


def test_more_points_rank_higher_even_with_fewer_games() -> None:
    ranking = rank({"Anna": Tally(points=1), "Bert": Tally(points=0, einzelspiele_played=20, normal_games_won=40)})
    assert names(ranking) == [(1, "Anna"), (2, "Bert")]


def test_negative_points_rank_below_zero() -> None:
    ranking = rank({"Anna": Tally(points=-3), "Bert": Tally(points=0), "Cilli": Tally(points=-30)})
    assert names(ranking) == [(1, "Bert"), (2, "Anna"), (3, "Cilli")]


def test_still_tied_after_criterion_10_share_a_place_and_are_unresolved() -> None:
    tied = Tally(points=12, einzelspiele_played=3, normal_games_won=7)
    ranking = rank({"Anna": Tally(points=20), "Bert": tied, "Cilli": tied, "Done": Tally(points=-40)})
    assert names(ranking) == [(1, "Anna"), (2, "Bert"), (2, "Cilli"), (4, "Done")]
    assert ranking.ties_unresolved == ("Bert", "Cilli")
    assert [p.shared for p in ranking.placings] == [False, True, True, False]
    assert ranking.tie_groups() == [("Bert", "Cilli")]


def test_a_playoff_resolves_a_tie() -> None:
    tied = Tally(points=12)
    ranking = rank({"Bert": tied, "Cilli": tied}, playoffs=[Playoff(("Bert", "Cilli"), "Cilli")])
    assert names(ranking) == [(1, "Cilli"), (2, "Bert")]
    assert ranking.ties_unresolved == ()
    assert ranking.placings[1].decided_by == PLAYOFF


def test_the_last_playoff_among_the_same_players_counts() -> None:
    tied = Tally(points=12)
    playoffs = [Playoff(("Bert", "Cilli"), "Cilli"), Playoff(("Cilli", "Bert"), "Bert")]
    assert names(rank({"Bert": tied, "Cilli": tied}, playoffs=playoffs)) == [(1, "Bert"), (2, "Cilli")]


def test_a_three_way_playoff_places_its_winner_the_other_two_stay_tied() -> None:
    tied = Tally(points=5)
    tallies = {"Anna": tied, "Bert": tied, "Cilli": tied}
    ranking = rank(tallies, playoffs=[Playoff(("Anna", "Bert", "Cilli"), "Bert")])
    assert names(ranking) == [(1, "Bert"), (2, "Anna"), (2, "Cilli")]
    assert ranking.ties_unresolved == ("Anna", "Cilli")
    again = rank(tallies, playoffs=[Playoff(("Anna", "Bert", "Cilli"), "Bert"), Playoff(("Anna", "Cilli"), "Cilli")])
    assert names(again) == [(1, "Bert"), (2, "Cilli"), (3, "Anna")]


def test_playoffs_in_a_chain_order_a_group() -> None:
    tied = Tally(points=5)
    playoffs = [Playoff(("Bert", "Cilli"), "Bert"), Playoff(("Anna", "Bert"), "Anna")]
    ranking = rank({"Cilli": tied, "Bert": tied, "Anna": tied}, playoffs=playoffs)
    assert names(ranking) == [(1, "Anna"), (2, "Bert"), (3, "Cilli")]


def test_a_playoff_of_only_part_of_a_group_does_not_decide_the_top() -> None:
    # Anna beat Bert, but nobody knows how Cilli stands against Anna: all three share.
    tied = Tally(points=5)
    ranking = rank({"Anna": tied, "Bert": tied, "Cilli": tied}, playoffs=[Playoff(("Anna", "Bert"), "Anna")])
    assert ranking.ties_unresolved == ("Anna", "Bert", "Cilli")


def test_a_playoff_between_players_who_are_not_tied_is_ignored() -> None:
    playoff = Playoff(("Anna", "Bert"), "Bert")
    ranking = rank({"Anna": Tally(points=3), "Bert": Tally(points=2)}, playoffs=[playoff])
    assert names(ranking) == [(1, "Anna"), (2, "Bert")]
    assert ranking.ignored_playoffs == (playoff,)


def test_a_playoff_winner_must_have_played_it() -> None:
    with pytest.raises(EngineError) as error:
        rank({"Anna": Tally(), "Bert": Tally(), "Cilli": Tally()}, playoffs=[Playoff(("Anna", "Bert"), "Cilli")])
    assert error.value.field == "playoff[0].winner"


def test_an_adjustment_counts_in_the_players_favour() -> None:
    # 001 §11.3: a wrongly written Rufspiel (3 points) was drawn against Cilli and Done; each is
    # counted as if it had gone their way: +6 for their ranking only.
    tallies = {"Anna": Tally(points=10), "Bert": Tally(points=8), "Cilli": Tally(points=5), "Done": Tally(points=1)}
    ranking = rank(tallies, adjustments=[Adjustment(("Cilli", "Done"), 6, "Spiel 17 an Tisch 2 verschrieben")])
    assert names(ranking) == [(1, "Cilli"), (2, "Anna"), (3, "Bert"), (4, "Done")]
    cilli = ranking.placings[0]
    assert (cilli.tally.points, cilli.adjustment) == (11, 6)
    assert ranking.as_dict()["ranking"][0]["adjustment"] == 6
    assert "adjustment" not in ranking.as_dict()["ranking"][1]


def test_an_adjustment_can_make_a_tie_that_the_criteria_then_decide() -> None:
    tallies = {"Anna": Tally(points=10, wenz_played=1), "Bert": Tally(points=7, wenz_played=2)}
    ranking = rank(tallies, adjustments=[Adjustment(("Bert",), 3)])
    assert names(ranking) == [(1, "Bert"), (2, "Anna")]
    assert ranking.placings[1].decided_by == "wenz_played"


def test_the_result_has_every_criterion_for_every_player() -> None:
    out = rank({"Anna": Tally(points=2), "Bert": Tally()}).as_dict()
    assert set(out) == {"ranking", "ties_unresolved"}
    assert [set(row) for row in out["ranking"]] == [{"place", "name", "points", "criteria"}] * 2
    assert list(out["ranking"][0]["criteria"]) == list(CRITERIA)


# --- criteria from real hands (the fold) ---------------------------------------------------------

PLAYERS = ("Anna", "Bert", "Cilli", "Done")


def tallies_of(*hands: dict, players: tuple[str, ...] = PLAYERS, options: dict | None = None) -> dict[str, Tally]:
    rules = registry.load_with_table({"preset": "allgaeu-meisterschaft", "options": options or {}})
    return tally_tables(*rules, [TableLog(players, hands)])


def test_a_won_wenz_counts_einzelspiel_and_wenz_for_the_declarer_only() -> None:
    t = tallies_of({"game": "wenz", "declarer": "Bert", "augen": 80, "deckel": 1})
    assert t["Bert"] == Tally(points=15, einzelspiele_played=1, einzelspiele_won=1, wenz_played=1, wenz_won=1)
    assert t["Anna"] == Tally(points=-5)


def test_a_lost_solo_tout_counts_as_a_solo_played_not_won() -> None:
    t = tallies_of({"game": "solo", "suit": "herz", "tout": True, "declarer": "Cilli", "tricks": 7, "augen": 110})
    assert t["Cilli"].key()[1:] == Tally(einzelspiele_played=1, solos_played=1).key()[1:]


def test_bettel_and_sie_are_einzelspiele() -> None:
    t = tallies_of(
        {"game": "bettel", "declarer": "Done", "tricks": 0, "deckel": 1},
        {"game": "sie", "declarer": "Done"},
    )
    done = t["Done"]
    assert (done.einzelspiele_played, done.einzelspiele_won, done.bettel_played, done.bettel_won) == (2, 2, 1, 1)
    assert (done.solos_played, done.wenz_played) == (0, 0)


def test_a_rufspiel_counts_as_a_normal_game_won_for_the_winning_side() -> None:
    t = tallies_of(
        {"game": "rufspiel", "declarer": "Anna", "partner": "Bert", "called": "gras", "augen": 70, "deckel": 1},
        {"game": "rufspiel", "declarer": "Anna", "partner": "Cilli", "called": "gras", "augen": 40, "deckel": 1},
    )
    assert {name: t[name].normal_games_won for name in PLAYERS} == {"Anna": 1, "Bert": 2, "Cilli": 0, "Done": 1}
    assert all(t[name].einzelspiele_played == 0 for name in PLAYERS)


def test_a_mungo_counts_points_only() -> None:
    t = tallies_of({"game": "mungo", "augen_by_player": {"Anna": 10, "Bert": 20, "Cilli": 40, "Done": 50}})
    assert [t[name].key()[1:] == Tally().key()[1:] for name in PLAYERS] == [True] * 4
    assert sum(t[name].points for name in PLAYERS) == 0


def test_at_a_table_of_five_the_dealer_sitting_out_wins_nothing() -> None:
    players = (*PLAYERS, "Emil")
    t = tallies_of(
        {"game": "rufspiel", "declarer": "Bert", "partner": "Cilli", "called": "eichel", "augen": 50, "deckel": 1},
        players=players,
    )
    # Anna dealt and sat out; Done and Emil beat the Rufspiel.
    assert {name: t[name].normal_games_won for name in players} == {
        "Anna": 0,
        "Bert": 0,
        "Cilli": 0,
        "Done": 1,
        "Emil": 1,
    }


def test_a_fehler_counts_its_points_but_no_criterion() -> None:
    t = tallies_of({"game": "wenz", "declarer": "Anna", "fehler": {"by": "Anna"}}, options={"fehler": True})
    assert t["Anna"] == Tally(points=-9)


def test_tables_add_up() -> None:
    rules = registry.load_with_table("allgaeu-meisterschaft")
    first = TableLog(PLAYERS, ({"game": "wenz", "declarer": "Bert", "augen": 80, "deckel": 1},))
    second = TableLog(
        ("Bert", "Emil", "Fanny", "Gustl"), ({"game": "wenz", "declarer": "Bert", "augen": 20, "deckel": 1},)
    )
    t = tally_tables(*rules, [first, second])
    assert t["Bert"] == Tally(points=15 - 18, einzelspiele_played=2, einzelspiele_won=1, wenz_played=2, wenz_won=1)
