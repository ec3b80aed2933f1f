"""Open tournaments (issue 24): the services of the door, the draw and the desk."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs.models import Club
from opentournaments import selectors, services
from opentournaments.models import OpenTournament, Registration, TableScore
from tests.factories import ClubFactory, MemberFactory, make_open_tournament
from tests.properties import examples

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> Club:
    return ClubFactory()


def numbers(tournament: OpenTournament) -> dict[str, int]:
    return dict(tournament.registrations.values_list("name", "start_number"))


def seated(round_) -> list[int]:
    return sorted(n for table in round_.tables.all() for n in table.seats)


def test_create_freezes_the_tariff_and_refuses_shares_with_fixed_amounts(club: Club) -> None:
    tournament = services.open_tournament_create(
        club=club, name=" Preisschafkopf ", starts_on=datetime.date(2026, 11, 28), user=None
    )
    assert tournament.name == "Preisschafkopf"
    assert tournament.preset == "reiner-schafkopf" and tournament.options  # every option value, frozen
    assert tournament.tie_breaks == ["soli", "best_round", "lot"]
    with pytest.raises(ValidationError) as error:
        services.open_tournament_create(
            club=club,
            name="X",
            starts_on=datetime.date(2026, 11, 28),
            prize_shares=[50],
            prize_amounts=[1000],
            user=None,
        )
    assert "prize_amounts" in error.value.message_dict
    with pytest.raises(ValidationError) as error:
        services.open_tournament_create(
            club=club, name="X", starts_on=datetime.date(2026, 11, 28), preset="doppelkopf", user=None
        )
    assert "preset" in error.value.message_dict
    assert OpenTournament.objects.count() == 1


def test_start_numbers_never_change_across_withdrawals_and_late_registration(club: Club) -> None:
    tournament = make_open_tournament(club, players=9, rounds=3)
    before = numbers(tournament)
    gast4 = tournament.registrations.get(start_number=4)
    services.registration_withdraw(registration=gast4, user=None)
    round1 = services.round_draw(tournament=tournament, seed=3, user=None)
    assert seated(round1) == [1, 2, 3, 5, 6, 7, 8, 9]
    late = services.registration_create(tournament=tournament, name="Spät", residence="Sonthofen", user=None)
    assert late.start_number == 10 and late.registered_before == 2
    services.registration_withdraw(registration=tournament.registrations.get(start_number=9), user=None)
    round2 = services.round_draw(tournament=tournament, seed=4, user=None)
    assert seated(round2) == [1, 2, 3, 5, 6, 7, 8, 10]
    assert numbers(tournament) == {**before, "Spät": 10}  # nobody's number moved
    assert tournament.registrations.get(start_number=9).withdrawn_before == 2


def test_withdrawal_undone_only_until_the_next_draw(club: Club) -> None:
    tournament = make_open_tournament(club, players=8)
    gast = tournament.registrations.get(start_number=8)
    services.registration_withdraw(registration=gast, user=None)
    services.registration_return(registration=gast, user=None)
    services.registration_withdraw(registration=gast, user=None)
    services.registration_create(tournament=tournament, name="Ersatz", user=None)
    services.round_draw(tournament=tournament, seed=1, user=None)
    with pytest.raises(ValidationError):
        services.registration_return(registration=gast, user=None)


@pytest.mark.parametrize(("players", "sizes"), [(8, [4, 4]), (9, [4, 5]), (11, [5, 6]), (21, [4, 4, 4, 4, 5])])
def test_the_draw_seats_everyone_present_exactly_once(club: Club, players: int, sizes: list[int]) -> None:
    tournament = make_open_tournament(club, players=players, rounds=2)
    for seed in (5, 6):
        round_ = services.round_draw(tournament=tournament, seed=seed, user=None)
        assert seated(round_) == list(range(1, players + 1))
        assert sorted(len(t.seats) for t in round_.tables.all()) == sizes
    with pytest.raises(ValidationError, match="schon ausgelost"):
        services.round_draw(tournament=tournament, user=None)


def test_a_number_no_tables_seat_is_refused_and_nothing_is_drawn(club: Club) -> None:
    tournament = make_open_tournament(club, players=7)
    with pytest.raises(ValidationError, match="7 Spieler"):
        services.round_draw(tournament=tournament, seed=1, user=None)
    assert not tournament.round_set.exists()


def test_the_same_seed_draws_the_same_round(club: Club) -> None:
    a = make_open_tournament(club, players=13)
    b = make_open_tournament(club, players=13)
    ra = services.round_draw(tournament=a, seed=9, user=None)
    rb = services.round_draw(tournament=b, seed=9, user=None)
    assert [t.seats for t in ra.tables.all()] == [t.seats for t in rb.tables.all()]


def test_the_desk_stores_a_table_and_refuses_one_that_is_not_zero_sum(club: Club) -> None:
    tournament = make_open_tournament(club, players=8)
    table = services.round_draw(tournament=tournament, seed=2, user=None).tables.first()
    a, b, c, d = table.seats
    services.table_figures_enter(
        table=table, points={a: 35, b: -10, c: -20, d: -5}, soli={a: 3, b: 0, c: 1, d: 0}, user=None
    )
    assert dict(TableScore.objects.values_list("registration__start_number", "points")) == {
        a: 35,
        b: -10,
        c: -20,
        d: -5,
    }
    with pytest.raises(ValidationError, match="ergeben zusammen 5 statt 0"):
        services.table_figures_enter(
            table=table, points={a: 40, b: -10, c: -20, d: -5}, soli={a: 3, b: 0, c: 1, d: 0}, user=None
        )
    # The refused correction left the earlier figures as they were.
    assert sorted(TableScore.objects.values_list("points", flat=True)) == [-20, -10, -5, 35]


def test_the_desk_refuses_implausible_soli_and_a_missing_player(club: Club) -> None:
    tournament = make_open_tournament(club, players=8)
    table = services.round_draw(tournament=tournament, seed=2, user=None).tables.first()
    a, b, c, d = table.seats
    points = {a: 1, b: -1, c: 0, d: 0}
    with pytest.raises(ValidationError) as error:
        services.table_figures_enter(table=table, points=points, soli={a: 33, b: 0, c: 0, d: 0}, user=None)
    assert f"soli_{a}" in error.value.message_dict
    with pytest.raises(ValidationError, match="Zusammen 40 Soli, aber nur 32 Spiele an diesem Tisch"):
        services.table_figures_enter(table=table, points=points, soli={a: 10, b: 10, c: 10, d: 10}, user=None)
    with pytest.raises(ValidationError) as error:
        services.table_figures_enter(table=table, points={a: 0, b: 0, c: 0}, soli={a: 0, b: 0, c: 0, d: 0}, user=None)
    assert f"points_{d}" in error.value.message_dict
    assert not TableScore.objects.exists()


def test_kasse_sums_the_startgeld_paid(club: Club) -> None:
    tournament = make_open_tournament(club, players=5)  # 1, 3, 5 paid
    services.registration_set_paid(registration=tournament.registrations.get(start_number=2), paid=True, user=None)
    kasse = selectors.kasse(tournament)
    assert (kasse.paid, kasse.open, kasse.total_cents) == (4, 1, 4 * 1500)


def test_returning_guests_are_found_by_a_few_letters(club: Club) -> None:
    earlier = make_open_tournament(club, players=0)
    services.registration_create(tournament=earlier, name="Anderl Huber", residence="Kempten", user=None)
    services.registration_create(tournament=earlier, name="Resi Maier", residence="Waltenhofen", user=None)
    MemberFactory(club=club, display_name="Hubert Kranz")
    MemberFactory(club=ClubFactory(), display_name="Huber Fremd")  # another club's: never found
    tournament = make_open_tournament(club, players=0)
    found = selectors.desk_search(tournament, "hub").guests
    assert [(g.name, g.residence, g.member_id is not None) for g in found] == [
        ("Hubert Kranz", "", True),
        ("Anderl Huber", "Kempten", False),
    ]
    assert [g.name for g in selectors.desk_search(tournament, "walten").guests] == ["Resi Maier"]
    assert selectors.desk_search(tournament, "h").guests == []  # one letter finds nobody yet
    services.registration_create(tournament=tournament, name="Anderl Huber", residence="Kempten", user=None)
    found = selectors.desk_search(tournament, "hub")
    assert [g.name for g in found.guests] == ["Hubert Kranz"]
    assert [r.number for r in found.registered] == [1]  # "schon angemeldet als Nr. 1"


def test_registration_refuses_an_empty_name_and_another_clubs_member(club: Club) -> None:
    tournament = make_open_tournament(club, players=0)
    with pytest.raises(ValidationError) as error:
        services.registration_create(tournament=tournament, name="  ", user=None)
    assert "name" in error.value.message_dict
    with pytest.raises(ValidationError) as error:
        services.registration_create(
            tournament=tournament, name="Fremd", member=MemberFactory(club=ClubFactory()), user=None
        )
    assert "member" in error.value.message_dict
    assert not Registration.objects.exists()


def test_a_tariff_with_a_stock_takes_a_table_that_is_not_zero_sum(club: Club) -> None:
    tournament = services.open_tournament_create(
        club=club,
        name="Mit Stock",
        starts_on=datetime.date(2026, 11, 28),
        preset="reiner-schafkopf",
        options={"stock": "anhang_c"},
        user=None,
    )
    for n in range(8):
        services.registration_create(tournament=tournament, name=f"G{n}", user=None)
    table = services.round_draw(tournament=tournament, seed=1, user=None).tables.first()
    assert not selectors.tariff_is_zero_sum(tournament)
    points = dict(zip(table.seats, [30, -10, -20, -10], strict=True))  # 10 went into the Stock
    services.table_figures_enter(table=table, points=points, soli=dict.fromkeys(table.seats, 0), user=None)
    assert TableScore.objects.count() == 4


@pytest.mark.parametrize("preset", ["standard", "allgaeu"])
def test_a_money_tariff_is_refused(club: Club, preset: str) -> None:
    """Issue 24: a points tariff. A phone table books into the club's ledger in the tariff's unit:
    a money tariff would put tournament points into the club's money list."""
    with pytest.raises(ValidationError) as error:
        services.open_tournament_create(
            club=club, name="Geld", starts_on=datetime.date(2026, 11, 28), preset=preset, user=None
        )
    assert "Punkte, kein Geld" in str(error.value.message_dict["preset"])
    assert not OpenTournament.objects.exists()


# From 14 players: the planner's re-plan from 12 played to 13 present alone takes about 10 s (a
# search budget, not a wrong seating), which this test's time cannot carry.
@pytest.mark.long(13)
@settings(max_examples=examples(5), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    players=st.integers(min_value=14, max_value=24),
    changes=st.lists(
        st.tuples(st.sampled_from(["withdraw", "late"]), st.integers(min_value=1, max_value=40)), max_size=8
    ),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_every_round_seats_exactly_the_players_present(players: int, changes: list, seed: int) -> None:
    """Property: with withdrawals and late registrations before rounds 2 and 3, each draw seats
    every player present exactly once, nobody else, and no start number ever changes."""
    tournament = make_open_tournament(ClubFactory(), players=players, rounds=3)
    given_numbers = numbers(tournament)
    for round_number in (1, 2, 3):
        if round_number > 1:
            for kind, pick in changes[(round_number - 2) * 4 : (round_number - 1) * 4]:
                present = [r for r in tournament.registrations.all() if r.plays_in(round_number)]
                if kind == "late":
                    late = services.registration_create(
                        tournament=tournament, name=f"Spät {pick}", again=True, user=None
                    )
                    given_numbers[late.name] = late.start_number
                elif len(present) > 8:
                    services.registration_withdraw(registration=present[pick % len(present)], user=None)
        present = sorted(r.start_number for r in tournament.registrations.all() if r.plays_in(round_number))
        try:
            round_ = services.round_draw(tournament=tournament, seed=seed, user=None)
        except ValidationError:
            assert len(present) == 7  # the one count above 4 no tables of 4, 5 and 6 seat
            return
        assert seated(round_) == present
        assert numbers(tournament) == given_numbers


def test_a_table_of_five_deals_five_quarters_of_the_games(club: Club) -> None:
    tournament = make_open_tournament(club, players=9)  # 32 games per player: the five deal 40
    five = next(
        t for t in services.round_draw(tournament=tournament, seed=1, user=None).tables.all() if len(t.seats) == 5
    )
    points = dict.fromkeys(five.seats, 0)
    with pytest.raises(ValidationError, match="Zusammen 41 Soli, aber nur 40 Spiele"):
        services.table_figures_enter(
            table=five, points=points, soli={**dict.fromkeys(five.seats, 8), five.seats[0]: 9}, user=None
        )
    services.table_figures_enter(table=five, points=points, soli=dict.fromkeys(five.seats, 8), user=None)
    assert TableScore.objects.filter(table=five).count() == 5


def test_the_largest_seed_is_stored(club: Club) -> None:
    # A drawn seed goes up to 2**32 - 1: beyond PostgreSQL's integer, so the column is a bigint.
    tournament = make_open_tournament(club, players=8)
    assert services.round_draw(tournament=tournament, seed=2**32 - 1, user=None).seed == 2**32 - 1
