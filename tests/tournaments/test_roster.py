"""Issue 20, a player arrives late or has to leave: withdrawing and adding between Partien
re-plan the remaining Partien (the played ones stay, repeats at the lower bound), and a
substitute inside a Partie counts as the championship's option says."""

from __future__ import annotations

from itertools import combinations

import pytest
from django.core.exceptions import ValidationError

from clubs.models import Club, Member
from scoring import selectors as scoring_selectors
from scoring import services as scoring_services
from scoring.models import AuditEntry, LedgerEntry, Seat, Table
from tests.factories import ClubFactory, MemberFactory
from tournaments import selectors, services
from tournaments.engine.plan import plan_seating, replan_seating
from tournaments.models import Event, Participant, SubstitutePoints, Tournament

PLAYED = 2


def hand(names: list[str], k: int) -> dict:
    """Hand k at a table whose first seat deals first: the four who play it (at five the dealer
    sits out), the second of them wins a Rufspiel with the fourth."""
    playing = [names[(k + j) % len(names)] for j in range(1, 5)] if len(names) == 5 else names
    return {
        "game": "rufspiel",
        "declarer": playing[1],
        "partner": playing[3],
        "called": "gras",
        "augen": 70,
        "deckel": 1,
    }


def play(tournament: Tournament, index: int) -> None:
    """Start Partie ``index`` and play every table's games."""
    partie = services.partie_start(tournament=tournament, index=index, seed=index, user=None)
    games = tournament.plan["games_per_table"]
    for row in partie.tables.select_related("table"):
        names = list(row.table.seats.order_by("position").values_list("name", flat=True))
        scoring_services.entries_append(
            table=row.table, log=[hand(names, k) for k in range(games[str(len(names))])], user=None
        )


def championship(club: Club, players: int, games: int = 4, played: int = PLAYED) -> Tournament:
    tournament = services.tournament_create(club=club, year=2026, partien=4, games_per_partie=games, user=None)
    members = MemberFactory.create_batch(players, club=club)
    services.participants_set(tournament=tournament, members=members, user=None)
    tournament = services.draw_run(tournament=tournament, seed=1, user=None)
    for index in range(1, played + 1):
        play(tournament, index)
    return Tournament.objects.get(pk=tournament.pk)


def assert_replanned(before: list, after: list, numbers: set[int]) -> None:
    assert after[:PLAYED] == before[:PLAYED]  # the played Partien stay as they were
    for partie in after[PLAYED:]:
        seated = [n for table in partie for n in table]
        assert sorted(seated) == sorted(numbers)  # everyone once, nobody else


# --- the engine (no database) ----------------------------------------------------------------------


def test_replan_after_a_withdrawal_keeps_the_played_partien_and_reaches_the_lower_bound() -> None:
    base = plan_seating(13, 4, 0)
    players = [n for n in range(1, 14) if n != 5]
    replan = replan_seating([list(p) for p in base.partien[:2]], players, 4, 0)
    assert replan.partien[:2] == base.partien[:2]
    for partie in replan.partien[2:]:
        assert sorted(n for table in partie for n in table) == players
        assert sorted(len(table) for table in partie) == [4, 4, 4]
    met: dict[tuple[int, int], int] = {}
    for partie in replan.partien:
        for table in partie:
            for pair in combinations(table, 2):
                met[pair] = met.get(pair, 0) + 1
    assert replan.repeat_pairs == sum(m - 1 for m in met.values())
    assert replan.optimal  # the exhaustive search proves no seating has fewer repeats
    assert replan_seating([list(p) for p in base.partien[:2]], players, 4, 0) == replan  # same seed, same plan


def test_replan_with_a_late_player_seats_him_in_every_remaining_partie() -> None:
    base = plan_seating(12, 4, 3)
    replan = replan_seating([list(p) for p in base.partien[:2]], list(range(1, 14)), 4, 3)
    assert replan.partien[:2] == base.partien[:2]
    for partie in replan.partien[2:]:
        assert sorted(n for table in partie for n in table) == list(range(1, 14))
    assert replan.optimal and replan.five_seats[13] >= 1


# --- withdraw and add between Partien ---------------------------------------------------------------


@pytest.mark.django_db
def test_withdrawal_after_partie_2_replans_partien_3_and_4() -> None:
    club = ClubFactory()
    tournament = championship(club, 13)
    before = tournament.plan["partien"]
    leaving = Participant.objects.get(tournament=tournament, number=5)
    points = selectors.tournament_ranking(tournament)
    kept = next(row.placing.tally.points for row in points.rows if row.member == leaving.member)

    services.participant_withdraw(tournament=tournament, member=leaving.member, reason="krank", user=None)

    tournament.refresh_from_db()
    plan = tournament.plan
    assert_replanned(before, plan["partien"], set(range(1, 14)) - {5})
    assert plan["repeat_pairs"] == plan["lower_bound"] and plan["replanned_after"] == PLAYED
    # The played tables of five still count as complete (their games are still in the plan).
    assert plan["games_per_table"] == {"4": 4, "5": 5}
    assert all(table.done for table in selectors.partie_view(tournament, PLAYED).tables)
    assert [e.kind for e in tournament.events.order_by("id")] == [Event.Kind.WITHDRAWN, Event.Kind.REPLANNED]
    ranking = selectors.tournament_ranking(tournament)
    last = ranking.rows[-1]  # ranked below everyone who stays, with his points
    assert last.member == leaving.member and last.withdrawn and last.placing.place == 13
    assert last.placing.tally.points == kept
    # Partie 3 is started from the new plan: 3 tables of 4, without him.
    partie = services.partie_start(tournament=tournament, index=3, seed=3, user=None)
    seated = Seat.objects.filter(table__partie_table__partie=partie)
    assert seated.count() == 12 and not seated.filter(member=leaving.member).exists()
    assert [line.text for line in selectors.roster_log(tournament)][0].endswith("krank")


@pytest.mark.django_db
def test_late_player_gets_the_next_number_and_the_remaining_partien() -> None:
    club = ClubFactory()
    tournament = championship(club, 12)
    before = tournament.plan["partien"]
    late = MemberFactory(club=club, display_name="Spät Kommer")
    participant = services.participant_add(tournament=tournament, member=late, user=None)
    tournament.refresh_from_db()
    assert participant.number == 13 and participant.joined_at == PLAYED + 1
    assert_replanned(before, tournament.plan["partien"], set(range(1, 14)))
    assert tournament.plan["repeat_pairs"] == tournament.plan["lower_bound"]
    by_player = {p.number: p.tables for p in selectors.plan_by_player(selectors.plan(tournament))}
    assert by_player[13][:PLAYED] == (None, None) and None not in by_player[13][PLAYED:]


@pytest.mark.django_db
def test_roster_changes_are_refused_inside_a_partie_and_for_outsiders() -> None:
    club = ClubFactory()
    tournament = championship(club, 12)
    outsider = MemberFactory(club=ClubFactory())
    with pytest.raises(ValidationError, match="Mitglieder des Vereins"):
        services.participant_add(tournament=tournament, member=outsider, user=None)
    someone = tournament.participants.first().member
    with pytest.raises(ValidationError, match="schon Teilnehmer"):
        services.participant_add(tournament=tournament, member=someone, user=None)
    services.partie_start(tournament=tournament, index=3, seed=3, user=None)  # Partie 3 runs, not played
    with pytest.raises(ValidationError, match="läuft noch"):
        services.participant_withdraw(tournament=tournament, member=someone, user=None)
    with pytest.raises(ValidationError, match="läuft noch"):
        services.participant_add(tournament=tournament, member=MemberFactory(club=club), user=None)
    assert not tournament.events.exists() and tournament.participants.count() == 12


# --- a substitute inside a Partie -------------------------------------------------------------------


def substituted(option: str) -> tuple[Tournament, Member, Member, Table]:
    """Partie 1 of an 8-player championship: at the absent player's table two hands, then the
    substitute takes his seat and plays two more (he declares and wins both)."""
    club = ClubFactory()
    tournament = championship(club, 8, played=0)
    tournament.substitute_points = option
    tournament.save(update_fields=["substitute_points"])
    partie = services.partie_start(tournament=tournament, index=1, seed=3, user=None)
    table = partie.tables.get(number=1).table
    names = list(table.seats.order_by("position").values_list("name", flat=True))
    absent = table.seats.get(position=1).member
    scoring_services.entries_append(table=table, log=[hand(names, k) for k in range(2)], user=None)
    substitute = MemberFactory(club=club, display_name="Ersatz Ede")
    services.partie_substitute(
        tournament=tournament, index=1, absent=absent, substitute=substitute, reason="musste heim", user=None
    )
    # Seat 1 declares both hands after the change, with seat 3.
    later = {"game": "rufspiel", "declarer": names[1], "partner": names[3], "called": "gras", "augen": 70, "deckel": 1}
    scoring_services.entries_append(table=table, log=[later, later], user=None)
    return tournament, absent, substitute, table


def own_points(table: Table, member: Member, upto: int) -> int:
    rows = LedgerEntry.objects.filter(table__partie_table__partie__tournament=table.partie_table.partie.tournament)
    return sum(rows.filter(member=member).exclude(table=table, entry__number__gt=upto).values_list("amount", flat=True))


@pytest.mark.django_db
@pytest.mark.parametrize("option", [SubstitutePoints.NOBODY, SubstitutePoints.ABSENT, SubstitutePoints.SUBSTITUTE])
def test_substitute_points_count_as_the_option_says(option: str) -> None:
    tournament, absent, substitute, table = substituted(option)
    # The ledger books the hands to who played them: the played hands stay the absent player's.
    assert LedgerEntry.objects.filter(table=table, entry__number__lte=2, member=absent).count() == 2
    assert LedgerEntry.objects.filter(table=table, entry__number__gt=2, member=substitute).count() == 2
    his = sum(LedgerEntry.objects.filter(table=table, member=substitute).values_list("amount", flat=True))
    assert his > 0
    rows = {row.member: row for row in selectors.tournament_ranking(tournament).rows}
    before = own_points(table, absent, 2)
    expected = {"nobody": before, "absent": before + his, "substitute": before}[option]
    assert rows[absent].placing.tally.points == expected
    assert substitute not in rows  # not a participant: his points show nowhere in the ranking
    assert sum(row.placing.tally.points for row in rows.values()) == (0 if option == "absent" else -his)
    assert AuditEntry.objects.filter(table=table, action=AuditEntry.Action.SEAT, number=3).exists()
    assert "Ersatz Ede (für" in str(selectors.partie_view(tournament, 1).tables[0].seats)
    assert scoring_selectors.seat_notes(table)[0].startswith("Ab Spiel 3 spielt Ersatz Ede auf dem Platz von")


@pytest.mark.django_db
def test_a_substitute_already_seated_or_from_another_club_is_refused() -> None:
    tournament, absent, substitute, table = substituted(SubstitutePoints.NOBODY)
    elsewhere = tournament.partie_set.get(index=1).tables.get(number=2).schreiber
    with pytest.raises(ValidationError, match="schon"):
        services.partie_substitute(tournament=tournament, index=1, absent=substitute, substitute=elsewhere, user=None)
    with pytest.raises(ValidationError, match="Mitglied des Vereins"):
        services.partie_substitute(
            tournament=tournament, index=1, absent=substitute, substitute=MemberFactory(club=ClubFactory()), user=None
        )
    # The absent player comes back: the seat is his again from the next hand on.
    services.partie_substitute(tournament=tournament, index=1, absent=substitute, substitute=absent, user=None)
    assert Event.objects.filter(tournament=tournament, kind=Event.Kind.SUBSTITUTE).count() == 2
    assert "wieder selbst" in selectors.roster_log(tournament)[-1].text


@pytest.mark.django_db
def test_a_seat_change_survives_a_deleted_hand_before_it_and_the_restore_check() -> None:
    tournament, absent, substitute, table = substituted(SubstitutePoints.NOBODY)
    assert scoring_services.table_differences(table) is None  # the ledger is the fold's, seat changes included
    seat = table.seats.get(member=absent)
    with pytest.raises(ValidationError, match="spielt schon an diesem Tisch"):
        scoring_services.seat_change(table=table, seat=seat, member=table.seats.get(position=0).member, user=None)
    scoring_services.entry_delete(entry=table.entries.get(number=1), user=None, reason="doppelt")
    assert table.seat_changes.get().from_number == 2  # still the first hand the substitute played
    assert list(LedgerEntry.objects.filter(table=table, member=substitute).values_list("entry__number", flat=True)) in (
        [2, 3],
        [3, 2],
    )
    assert scoring_services.table_differences(table) is None
