"""Issue 31 §8 and §9: what a tournament day does to the club around it, and what it refuses.

§8: a phone table's guests never stand in the club's standings over a period, the tournament's
games only where it says so, and a round's evening closes with the round. §9: the days, start
numbers and registrations are bounded the same on SQLite and PostgreSQL; a draw form sent twice
draws one round."""

from __future__ import annotations

import datetime
from unittest.mock import patch

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from clubs.models import Club, Member
from opentournaments import services
from opentournaments.models import MAX_DAYS, MAX_PLAYERS, MAX_START_NUMBER, OpenTournament, Registration, RoundTable
from scoring import selectors as scoring_selectors
from scoring import services as scoring_services
from scoring.models import Session, Table
from standings import exports as standings_exports
from standings import selectors as stats
from tests.factories import ClubFactory, MemberFactory, World, make_open_tournament, rufspiel, seat_names

pytestmark = pytest.mark.django_db


def one_game(sheet: Table) -> None:
    """A Rufspiel of the first two seats playing (the dealer may sit out)."""
    playing = scoring_services.selectors.table_state(sheet).state.seats
    data = {"game": "rufspiel", "declarer": playing[0], "partner": playing[1], "augen": 75}
    scoring_services.entry_append(table=sheet, data=data, user=None)


def play_out(table: RoundTable) -> Session:
    """Every game of a phone table; its evening as it stands then."""
    sheet = table.phone_table
    assert sheet is not None
    for _ in range(table.round.tournament.games_per_round * len(table.seats) // 4):
        one_game(sheet)
    return Session.objects.get(pk=sheet.session_id)


def names_in(standings: list[stats.UnitStandings]) -> set[str]:
    return {row.name for block in standings for row in block.rows}


def test_a_tournaments_guests_and_games_stay_out_of_the_clubs_standings_unless_it_counts() -> None:
    club: Club = ClubFactory()
    regulars = [MemberFactory(club=club, display_name=name) for name in ("Anni", "Bert", "Cilli", "Done")]
    evening = scoring_services.session_create(club=club, date=timezone.localdate(), user=None)
    table = scoring_services.table_start(session=evening, members=regulars, rules="allgaeu", user=None)
    scoring_services.entry_append(table=table, data=rufspiel(table), user=None)
    tournament = make_open_tournament(club, players=7, rounds=2)
    tournament.games_per_round = 2
    tournament.save()
    services.registration_create(tournament=tournament, name="Anni", member=regulars[0], user=None)
    round_ = services.round_draw(tournament=tournament, seed=1, user=None)
    at_phone = next(t for t in round_.tables.all() if 8 in t.seats)  # Anni, the member, is Nr. 8
    at_phone = services.table_phone_start(table=at_phone, user=None)
    round_evening = play_out(at_phone)
    guests = {name for name in seat_names(at_phone.phone_table) if name != "Anni"}
    assert Member.objects.filter(club=club, display_name__in=guests, is_active=False).count() == 3

    season = stats.Period.all_time()
    regular_names = {"Anni", "Bert", "Cilli", "Done"}

    def anni_games() -> int:
        return sum(unit.games for unit in stats.member_statistics(member=regulars[0], period=season).units)

    assert names_in(stats.standings(club=club, period=season)) == regular_names
    assert anni_games() == 1  # the club evening's hand, not the tournament's
    assert sum(line.played for line in stats.games_by_type(club=club, period=season)) == 1
    # The round's own evening still shows everyone who sat there.
    assert names_in(stats.standings(club=club, period=stats.Period.evening(round_evening))) == {"Anni", *guests}

    # The club says the tournament counts: Anni's games there count, the guests' never.
    OpenTournament.objects.filter(pk=tournament.pk).update(in_club_standings=True)
    assert names_in(stats.standings(club=club, period=season)) == regular_names
    assert anni_games() == 1 + 2
    assert sum(line.played for line in stats.games_by_type(club=club, period=season)) == 1 + 2
    workbook = standings_exports.standings_workbook(
        club=club, period=season, standings=stats.standings(club=club, period=season)
    )
    assert workbook.startswith(b"PK")  # the list of hands has no column for a guest, and does not miss one


def test_a_rounds_evening_closes_with_its_last_phone_table_and_opens_for_a_late_one() -> None:
    tournament = make_open_tournament(ClubFactory(), players=12, rounds=2)
    tournament.games_per_round = 2
    tournament.save()
    first, second, third = services.round_draw(tournament=tournament, seed=1, user=None).tables.all()
    evening = play_out(services.table_phone_start(table=first, user=None))
    assert evening.is_closed  # its only phone table has played the round's games
    services.table_phone_start(table=second, user=None)
    evening.refresh_from_db()
    assert not evening.is_closed  # another table of the round went onto a phone
    sheet = RoundTable.objects.get(pk=second.pk).phone_table
    one_game(sheet)
    evening.refresh_from_db()
    assert not evening.is_closed  # one of its two games
    one_game(sheet)
    evening.refresh_from_db()
    assert evening.is_closed
    assert third.phone_table is None  # typed at the desk: no evening needed


# --- §9: bounds -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("starts_on", "ends_on", "field"),
    [
        (datetime.date(1, 1, 1), datetime.date(9999, 12, 31), "starts_on"),
        (datetime.date(2026, 11, 28), datetime.date(9999, 12, 31), "ends_on"),
        (datetime.date(2026, 11, 28), datetime.date(2026, 11, 28) + datetime.timedelta(days=MAX_DAYS), "ends_on"),
        (datetime.date(2026, 11, 28), datetime.date(2026, 11, 27), "ends_on"),
    ],
)
def test_a_tournament_spans_a_few_days_at_most(starts_on: datetime.date, ends_on: datetime.date, field: str) -> None:
    with pytest.raises(ValidationError) as refused:
        services.open_tournament_create(
            club=ClubFactory(), name="Rennen", starts_on=starts_on, ends_on=ends_on, user=None
        )
    assert field in refused.value.message_dict
    week = services.open_tournament_create(
        club=ClubFactory(),
        name="Rennen",
        starts_on=datetime.date(2026, 11, 28),
        ends_on=datetime.date(2026, 11, 28) + datetime.timedelta(days=MAX_DAYS - 1),
        user=None,
    )
    assert len(week.days) == MAX_DAYS
    # A row stored before the bound still builds a week of days at most.
    OpenTournament.objects.filter(pk=week.pk).update(
        starts_on=datetime.date(1, 1, 1), ends_on=datetime.date(9999, 1, 1)
    )
    week.refresh_from_db()
    assert len(week.days) == MAX_DAYS


def test_registrations_stop_at_the_draws_limit_and_start_numbers_at_four_digits() -> None:
    tournament = make_open_tournament(ClubFactory(), players=0, rounds=1)
    Registration.objects.bulk_create(
        Registration(tournament=tournament, start_number=n, name=f"Gast {n}") for n in range(1, MAX_PLAYERS + 1)
    )
    with pytest.raises(ValidationError, match="Mehr als 400 Spieler"):
        services.registration_create(tournament=tournament, name="Einer zu viel", user=None)
    assert tournament.registrations.count() == MAX_PLAYERS
    other = make_open_tournament(ClubFactory(), players=0, rounds=1)
    Registration.objects.create(tournament=other, start_number=MAX_START_NUMBER, name="Letzte Karte")
    with pytest.raises(ValidationError, match="nur bis 9999"):
        services.registration_create(tournament=other, name="Nächster", user=None)
    # The database refuses a larger number too, SQLite as PostgreSQL (no 32,767 on one only).
    with pytest.raises(IntegrityError), transaction.atomic():
        Registration.objects.create(tournament=other, start_number=MAX_START_NUMBER + 1, name="Zu groß")


def test_a_draw_form_sent_again_draws_nothing_more() -> None:
    tournament = make_open_tournament(ClubFactory(), players=8, rounds=3)
    services.round_draw(tournament=tournament, number=1, seed=1, user=None)
    with pytest.raises(services.DrawnMeanwhile) as twice:
        services.round_draw(tournament=tournament, number=1, seed=2, user=None)
    assert (twice.value.meant, twice.value.drawn) == (1, 1)
    with pytest.raises(services.DrawnMeanwhile, match="noch nicht an der Reihe"):
        services.round_draw(tournament=tournament, number=3, user=None)
    assert tournament.round_set.count() == 1


# --- §9: the phone's first game while the desk takes its table back to paper ----------------------


def test_a_phone_saving_while_the_desk_takes_the_table_back_gets_a_clear_refusal(world: World, client_as) -> None:
    """Issue 31 §9: the desk's "Doch vom Zettel eintragen" wins the race against the phone's first
    game. Whichever step of the phone's save finds the table gone (its seats while the form is
    read, the table row at the lock) refuses with the reason: the page back at the evening, the
    offline queue a JSON refusal (410), never a server error or an HTML "not found"."""
    tournament = make_open_tournament(world.club, players=8, rounds=1)
    table = services.round_draw(tournament=tournament, seed=1, user=None).tables.first()
    sheet = services.table_phone_start(table=table, user=None).phone_table
    assert sheet is not None
    read_by_the_phone = Table.objects.get(pk=sheet.pk)
    kwargs = {"slug": world.club.slug, "session_id": sheet.session_id, "table_id": sheet.pk}
    scorer = client_as("scorer")

    def desk_wins(*args: object) -> Table:
        services.table_phone_stop(table=table, user=None)  # just after the phone's request read the table
        return read_by_the_phone

    with patch("scoring.selectors.club_table_to_write", desk_wins):
        answer = scorer.post(reverse("scoring:entry_add", kwargs=kwargs), {"game": "rufspiel"}, HTTP_HX_REQUEST="true")
    assert (
        answer.status_code == 200
        and answer["HX-Redirect"] == Session.objects.get(pk=sheet.session_id).get_absolute_url()
    )
    page = scorer.get(answer["HX-Redirect"]).content.decode()
    assert "Diesen Tisch gibt es nicht mehr" in page
    with pytest.raises(scoring_selectors.TableGone):  # the lock finds no row
        scoring_services.entry_append(table=read_by_the_phone, data={"game": "rufspiel"}, user=None)
    queued = scorer.post(reverse("offline:entry_send", kwargs=kwargs), {"login": "x", "target": "entry"})
    assert queued.status_code == 410 and queued["Content-Type"] == "application/json"
    assert queued.json()["status"] == "refused" and "nichts gespeichert" in queued.json()["errors"]["__all__"][0]
    data = scorer.get(reverse("offline:table_data", kwargs=kwargs))
    assert data.status_code == 410 and data.json()["status"] == "refused"
    table.refresh_from_db()
    assert table.phone_table is None and not Table.objects.filter(pk=sheet.pk).exists()
