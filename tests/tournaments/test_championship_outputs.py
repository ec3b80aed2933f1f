"""Issue 20, what a finished championship shows: a table short of its games is broken off by the
owner with a reason before finishing (and marked on every printout), the ranking counts each
player's games, Excel's place is a number with "geteilt" beside it, and the trophy page says
where a Stechen decided."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from clubs.models import Member
from scoring import services as scoring_services
from tests.factories import ClubFactory, MemberFactory, World
from tests.factories import seat_names as names
from tests.factories import won_rufspiel as rufspiel
from tournaments import selectors, services
from tournaments.exports import ranking_workbook
from tournaments.models import Event, Partie, Status, Tournament

pytestmark = pytest.mark.django_db


def small(players: int, games: int = 4, club: object = None) -> Tournament:
    """One Partie of ``games`` games per player, numbers drawn: quick to play through."""
    tournament = services.tournament_create(
        club=club or ClubFactory(), year=2026, partien=1, games_per_partie=games, user=None
    )
    members = MemberFactory.create_batch(players, club=tournament.club)
    services.participants_set(tournament=tournament, members=members, user=None)
    return services.draw_run(tournament=tournament, seed=1, user=None)


def play(partie: Partie, table: int, hands: int) -> None:
    """``hands`` Rufspiele won by the first two players in the game (at five the dealer, who deals
    round from the first seat, sits out: 001 §7.1)."""
    row = partie.tables.select_related("table").get(number=table)
    seats = names(row.table)
    for _ in range(hands):
        dealer = row.table.entries.filter(kind="hand").count() % len(seats)
        playing = [name for k, name in enumerate(seats) if len(seats) == 4 or k != dealer]
        scoring_services.entry_append(table=row.table, data=rufspiel(playing[0], playing[1]), user=None)


def test_finish_is_refused_with_a_short_table_and_allowed_once_the_owner_breaks_it_off() -> None:
    tournament = small(8)
    partie = services.partie_start(tournament=tournament, index=1, seed=1, user=None)
    play(partie, 1, 4)
    play(partie, 2, 2)
    leader = selectors.tournament_ranking(tournament).rows[0].member
    services.adjustment_record(tournament=tournament, players=[leader], points=1, reason="x", user=None)

    with pytest.raises(ValidationError, match="Tisch 2: erst 2 von 4 Spielen"):
        services.tournament_finish(tournament=tournament, user=None)
    with pytest.raises(ValidationError) as refused:
        services.table_abort(tournament=tournament, partie=1, table=2, reason="  ", user=None)
    assert "reason" in refused.value.error_dict
    with pytest.raises(ValidationError, match="alle seine Spiele"):
        services.table_abort(tournament=tournament, partie=1, table=1, reason="Zeit", user=None)

    services.table_abort(tournament=tournament, partie=1, table=2, reason="Hias musste heim", user=None)
    event = Event.objects.get(tournament=tournament, kind=Event.Kind.TABLE_ABORTED)
    assert (event.partie, event.reason, event.data) == (1, "Hias musste heim", {"table": 2, "played": 2, "games": 4})
    with pytest.raises(ValidationError, match="abgebrochen"):
        play(partie, 2, 1)  # an aborted table takes no further hand

    # Undone while open: the table plays on; broken off again, the championship finishes.
    services.table_abort_undo(tournament=tournament, partie=1, table=2, user=None)
    play(partie, 2, 1)
    assert selectors.finish_check(tournament).short_tables == [(1, 2, 3, 4)]
    services.table_abort(tournament=tournament, partie=1, table=2, reason="Hias musste heim", user=None)
    check = selectors.finish_check(tournament)
    assert check.refusals == [] and check.aborted_tables == [(1, 2, 3, 4, "Hias musste heim")]
    services.tournament_finish(tournament=tournament, user=None)
    assert Tournament.objects.get(pk=tournament.pk).status == Status.FINISHED
    with pytest.raises(ValidationError, match="abgeschlossen"):
        services.table_abort_undo(tournament=tournament, partie=1, table=2, user=None)
    assert Event.objects.filter(tournament=tournament, kind=Event.Kind.TABLE_ABORTED).count() == 3

    # Every printout marks the players of the broken-off table.
    ranking = selectors.tournament_ranking(tournament)
    (aborted,) = ranking.aborted
    assert aborted.label == "1. Partie, Tisch 2 abgebrochen nach 3 von 4 Spielen: Hias musste heim"
    at_two = set(names(partie.tables.get(number=2).table))
    assert {row.member.display_name for row in ranking.rows if row.marks == (1,)} == at_two
    sheet = load_workbook(io.BytesIO(ranking_workbook(ranking))).active
    rows = list(sheet.iter_rows(values_only=True))
    header = rows[1]
    notes = {row[header.index("Spieler")]: row[header.index("Tisch abgebrochen")] for row in rows[2:]}
    assert {name for name, note in notes.items() if note} == at_two
    assert all(note is None or "Hias musste heim" in note for note in notes.values())


def test_the_spiele_column_counts_the_games_each_played_not_those_he_sat_out() -> None:
    tournament = small(9)  # a table of five (5 games, each sits out one) and one of four (4 games)
    partie = services.partie_start(tournament=tournament, index=1, seed=1, user=None)
    five = next(row.number for row in partie.tables.all() if row.table.seats.count() == 5)
    play(partie, five, 5)
    play(partie, 3 - five, 3)  # the other table
    games = {row.member.display_name: row.games for row in selectors.tournament_ranking(tournament).rows}
    at_five = names(partie.tables.get(number=five).table)
    assert {games[name] for name in at_five} == {4}
    assert {games[name] for name in games if name not in at_five} == {3}


def test_excel_writes_the_place_as_a_number_with_geteilt_beside_it() -> None:
    tournament = small(8)
    partie = services.partie_start(tournament=tournament, index=1, seed=1, user=None)
    play(partie, 1, 1)
    play(partie, 2, 1)  # the same Rufspiel at both tables: four winners share first place
    sheet = load_workbook(io.BytesIO(ranking_workbook(selectors.tournament_ranking(tournament)))).active
    rows = list(sheet.iter_rows(min_row=2, values_only=True))
    assert rows[0][:2] == ("Platz", "geteilt") and "Spiele" in rows[0]
    places = [(row[0], row[1]) for row in rows[1:]]
    assert places == [(1, "geteilt")] * 4 + [(5, "geteilt")] * 4
    assert all(isinstance(cell, int) for row in rows[1:] for cell in row[4:15])
    assert sheet.cell(row=3, column=1).data_type == "n"


def test_the_trophy_page_says_nach_stechen_where_a_playoff_decided(
    world: World, client_as: Callable[[str], Client]
) -> None:
    tournament = small(8, club=world.club)
    partie = services.partie_start(tournament=tournament, index=1, seed=1, user=None)
    play(partie, 1, 4)
    play(partie, 2, 4)
    tied = Member.objects.filter(display_name__in=selectors.finish_check(tournament).shared_first)
    services.playoff_record(tournament=tournament, players=tied, winner=tied[0], user=None)
    services.tournament_finish(tournament=tournament, user=None)
    podium = selectors.trophy_history(world.club)[0]
    assert all(row.after_playoff for row in podium.places)  # 1st by the playoff, the three below it
    page = client_as("member").get(reverse("tournaments:trophies", kwargs={"slug": world.club.slug}))
    assert page.content.decode().count("nach Stechen") == 1 + len(podium.places)  # the king's row, each medal
