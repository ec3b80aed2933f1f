"""Championship services and selectors without the browser: the ranking aggregated from the
stored ledger equals the pure fold of the same score sheets, criterion by criterion."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError

from scoring import services as scoring_services
from scoring.engine import registry
from scoring.models import Table
from tests.factories import ClubFactory, MemberFactory, abort_short_tables, make_tournament
from tools.demo.clubs import seed_demo_clubs
from tools.demo.tournaments import seed_demo_tournaments
from tournaments import selectors, services
from tournaments.engine.ranking import TableLog, Tally, tally_tables
from tournaments.models import DrawLog, Partie, Status, Tournament

pytestmark = pytest.mark.django_db


def seats(table: Table) -> list[str]:
    return list(table.seats.order_by("position").values_list("name", flat=True))


HANDS = [
    lambda a, b, c, d: {"game": "rufspiel", "declarer": b, "partner": d, "called": "gras", "augen": 45, "deckel": 1},
    lambda a, b, c, d: {"game": "wenz", "declarer": c, "augen": 80, "laufende": 2, "deckel": 1},
    lambda a, b, c, d: {"game": "solo", "suit": "eichel", "tout": True, "declarer": d, "tricks": 8, "augen": 120},
    lambda a, b, c, d: {"game": "bettel", "declarer": a, "tricks": 1, "deckel": 1},
    lambda a, b, c, d: {"game": "mungo", "augen_by_player": {a: 10, b: 20, c: 40, d: 50}},
    lambda a, b, c, d: {"game": "sie", "declarer": b},
    lambda a, b, c, d: {"game": "rufspiel", "declarer": a, "partner": c, "called": "eichel", "augen": 95, "deckel": 2},
]


def test_the_stored_ranking_equals_the_fold_of_the_sheets() -> None:
    tournament = make_tournament(ClubFactory(), players=9)  # a table of 5: the dealer sits out
    for index in (1, 2):
        partie = services.partie_start(tournament=tournament, index=index, seed=index, user=None)
        for row in partie.tables.select_related("table"):
            names = seats(row.table)
            for k, hand in enumerate(HANDS):
                # At a table of 5 the dealer sits out: name the four who play this hand.
                playing = [names[(k + j) % len(names)] for j in range(1, 5)]
                scoring_services.entry_append(table=row.table, data=hand(*playing), user=None)
    tables = Table.objects.filter(partie_table__partie__tournament=tournament)
    rules = registry.load_with_table(tournament.ruleset_spec)
    folded = tally_tables(
        *rules, [TableLog(tuple(seats(t)), tuple(t.entries.values_list("data", flat=True))) for t in tables]
    )
    stored = selectors.tournament_ranking(tournament)
    assert {row.member.display_name: row.placing.tally for row in stored.rows} == folded
    assert any(tally.bettel_played for tally in folded.values()) and any(t.solos_won for t in folded.values())
    assert sum(tally.points for tally in folded.values()) == 0


def test_a_table_of_five_plays_five_quarters_of_the_games() -> None:
    tournament = make_tournament(ClubFactory(), players=9)
    partie = selectors.partie_view(tournament, 1)
    assert sorted(len(t.seats) for t in partie.tables) == [4, 5]
    assert {len(t.seats): t.games for t in partie.tables} == {4: 40, 5: 50}


def test_partie_start_draws_the_seats_reproducibly_and_logs_the_seed() -> None:
    first = make_tournament(ClubFactory(), year=2026)
    second = make_tournament(ClubFactory(), year=2026)
    a = services.partie_start(tournament=first, index=1, seed=42, user=None)
    b = services.partie_start(tournament=second, index=1, seed=42, user=None)

    def numbers(partie: Partie) -> list[list[int]]:
        by_member = dict(partie.tournament.participants.values_list("member_id", "number"))
        return [
            [by_member[m] for m in row.table.seats.order_by("position").values_list("member_id", flat=True)]
            for row in partie.tables.order_by("number")
        ]

    assert numbers(a) == numbers(b)  # same numbers, same seed: same seats
    log = DrawLog.objects.get(tournament=first, kind=DrawLog.Kind.SEATS)
    assert log.seed == "42" and set(log.data["tables"]) == {"1", "2"}
    first.refresh_from_db()
    assert first.status == Status.RUNNING


def test_a_playoff_needs_players_tied_after_all_criteria() -> None:
    tournament = make_tournament(ClubFactory())
    services.partie_start(tournament=tournament, index=1, seed=1, user=None)
    row = Partie.objects.get(tournament=tournament).tables.first()
    a, b, c, d = seats(row.table)
    scoring_services.entry_append(table=row.table, data=HANDS[1](a, b, c, d), user=None)  # c wins a Wenz
    members = {p.member.display_name: p.member for p in tournament.participants.select_related("member")}
    with pytest.raises(ValidationError):
        services.playoff_record(tournament=tournament, players=[members[c], members[a]], winner=members[c], user=None)
    # a, b and d lost the same Wenz: tied. A playoff of two of them leaves the three tied; one of
    # all three places its winner first, the other two share the next place.
    services.playoff_record(tournament=tournament, players=[members[a], members[b]], winner=members[b], user=None)
    assert {a, b, d} <= set(selectors.tournament_ranking(tournament).ranking.ties_unresolved)
    trio = [members[a], members[b], members[d]]
    services.playoff_record(tournament=tournament, players=trio, winner=members[b], user=None)
    ranking = selectors.tournament_ranking(tournament)
    place = {row.member.display_name: row.placing for row in ranking.rows}
    assert place[b].place + 1 == place[a].place == place[d].place and place[a].shared
    assert ranking.rows[0].placing.tally == Tally(
        points=21, einzelspiele_played=1, einzelspiele_won=1, wenz_played=1, wenz_won=1
    )


def test_an_adjustment_needs_a_reason_and_participants() -> None:
    tournament = make_tournament(ClubFactory())
    member = tournament.participants.first().member
    with pytest.raises(ValidationError):
        services.adjustment_record(tournament=tournament, players=[member], points=3, reason=" ", user=None)
    with pytest.raises(ValidationError):
        services.adjustment_record(tournament=tournament, players=[MemberFactory()], points=3, reason="x", user=None)


def test_finish_needs_every_partie_begun() -> None:
    tournament = make_tournament(ClubFactory())
    services.partie_start(tournament=tournament, index=1, user=None)
    with pytest.raises(ValidationError):
        services.tournament_finish(tournament=tournament, user=None)
    services.partie_start(tournament=tournament, index=2, user=None)
    everyone = [p.member for p in tournament.participants.all()]  # all on 0 points: a playoff first
    services.playoff_record(tournament=tournament, players=everyone, winner=everyone[0], user=None)
    abort_short_tables(tournament)
    services.tournament_finish(tournament=tournament, user=None)
    tournament.refresh_from_db()
    assert tournament.is_finished
    assert [p.tournament for p in selectors.trophy_history(tournament.club)] == [tournament]


def test_seed_demo_adds_last_years_finished_championship_and_this_years_in_progress() -> None:
    club = seed_demo_clubs().demo
    assert seed_demo_tournaments(club, user=None, today=datetime.date(2026, 11, 22))
    last, this = Tournament.objects.get(club=club, year=2025), Tournament.objects.get(club=club, year=2026)
    assert last.is_finished and this.status == Status.RUNNING
    assert last.partie_set.count() == 4 and this.partie_set.count() == 2
    king = selectors.trophy_history(club)[0].kings[0].member.display_name
    assert selectors.draw_preview(this)[-1].member.display_name == king  # the Zock-König draws last
    games = sum(t.entries.count() for t in Table.objects.filter(partie_table__partie__tournament=last))
    assert games == 4 * 2 * 40
    assert not seed_demo_tournaments(club, user=None, today=datetime.date(2026, 11, 22))
