"""Open tournaments (issue 24 item 4a): a table written game by game on a phone, beside the
tables the desk types; the ranking reads its hands."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs.models import Club, Member
from opentournaments import selectors, services
from opentournaments.models import OpenTournament, Round, RoundTable
from scoring import hooks
from scoring import services as scoring_services
from scoring.models import Table
from tests.factories import ClubFactory, MemberFactory, World, make_open_tournament, seat_names
from tests.properties import examples
from tests.tournaments.open_recount import assert_recounted

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> Club:
    return ClubFactory()


def small(club: Club, players: int = 8, games: int = 4) -> tuple[OpenTournament, Round]:
    tournament = make_open_tournament(club, players=players, rounds=2)
    tournament.games_per_round = games
    tournament.save()
    return tournament, services.round_draw(tournament=tournament, seed=1, user=None)


def phone(table: RoundTable) -> Table:
    sheet = services.table_phone_start(table=table, user=None).phone_table
    assert sheet is not None
    return sheet


def solo(declarer: str, augen: int = 80) -> dict[str, object]:
    return {"game": "solo", "declarer": declarer, "suit": "eichel", "augen": augen}


def ruf(declarer: str, partner: str, augen: int = 75) -> dict[str, object]:
    return {"game": "rufspiel", "declarer": declarer, "partner": partner, "augen": augen}


def test_a_phone_table_seats_the_round_table_in_order_under_the_frozen_tariff(club: Club) -> None:
    tournament, round_ = small(club)
    table = round_.tables.first()
    sheet = phone(table)
    names = dict(tournament.registrations.values_list("start_number", "name"))
    assert seat_names(sheet) == [names[n] for n in table.seats]
    assert sheet.seats.get(is_first_dealer=True).position == 0  # the first seat deals first
    assert sheet.ruleset_spec == tournament.ruleset_spec
    assert sheet.session.club == club
    # Guests sit as inactive guest players of the club, so no picker offers them.
    assert not Member.objects.filter(pk__in=sheet.seats.values("member"), is_active=True).exists()
    # Starting again changes nothing; the round's second phone table joins the same evening.
    assert phone(table) == sheet
    other = phone(round_.tables.last())
    assert other.session == sheet.session


def test_a_phone_table_takes_the_games_of_the_round_and_no_more(club: Club) -> None:
    _tournament, round_ = small(club, games=2)
    sheet = phone(round_.tables.first())
    a, b, c, _d = seat_names(sheet)
    assert hooks.hands_left(sheet) == 2
    scoring_services.entry_append(table=sheet, data=ruf(a, b), user=None)
    assert "das nächste Spiel (Nr. 2) ist das letzte" in " ".join(hooks.notes(sheet))
    scoring_services.entry_append(table=sheet, data=solo(c), user=None)
    assert "alle 2 Spiele gespielt" in " ".join(hooks.notes(sheet))
    # The round's only phone table is done: its evening closed with it (issue 31 §8), so a game
    # more is refused there already; reopened, the table still takes none.
    with pytest.raises(ValidationError, match="Der Abend ist abgeschlossen"):
        scoring_services.entry_append(table=sheet, data=ruf(a, b), user=None)
    scoring_services.session_reopen(session=sheet.session, user=None)
    with pytest.raises(ValidationError, match="alle 2 Spiele"):
        scoring_services.entry_append(table=sheet, data=ruf(a, b), user=None)
    assert hooks.hands_left(sheet) == 0


def test_a_table_of_five_on_the_phone_takes_five_quarters_of_the_games(club: Club) -> None:
    tournament, round_ = small(club, players=9, games=8)
    five = next(t for t in round_.tables.all() if len(t.seats) == 5)
    assert hooks.hands_left(phone(five)) == 10
    assert selectors.table_games(tournament, 5) == 10


def test_a_table_is_either_on_the_phone_or_typed_at_the_desk(club: Club) -> None:
    _tournament, round_ = small(club)
    typed, written = round_.tables.all()
    zeros = dict.fromkeys(typed.seats, 0)
    services.table_figures_enter(table=typed, points=zeros, soli=zeros, user=None)
    with pytest.raises(ValidationError, match="schon die Punkte eingetragen"):
        services.table_phone_start(table=typed, user=None)
    sheet = phone(written)
    zeros = dict.fromkeys(written.seats, 0)
    with pytest.raises(ValidationError, match="am Handy geschrieben"):
        services.table_figures_enter(table=written, points=zeros, soli=zeros, user=None)
    # Back to paper while nothing is on the sheet: the empty sheet goes.
    services.table_phone_stop(table=written, user=None)
    assert not Table.objects.filter(pk=sheet.pk).exists()
    sheet = phone(written)
    a, b, _c, _d = seat_names(sheet)
    scoring_services.entry_append(table=sheet, data=ruf(a, b), user=None)
    with pytest.raises(ValidationError, match="bleibt am Handy"):
        services.table_phone_stop(table=written, user=None)
    assert RoundTable.objects.get(pk=written.pk).phone_table_id == sheet.pk


def test_the_ranking_reads_the_hands_of_a_phone_table_beside_the_desks_totals(club: Club, tmp_path, capsys) -> None:
    tournament, round_ = small(club)
    typed, written = round_.tables.all()
    services.table_figures_enter(
        table=typed,
        points=dict(zip(typed.seats, [30, -10, -10, -10], strict=True)),
        soli=dict(zip(typed.seats, [1, 0, 0, 0], strict=True)),
        user=None,
    )
    sheet = phone(written)
    a, b, c, d = seat_names(sheet)
    for hand in (ruf(a, b), solo(c), solo(c, augen=40), {"game": "wenz", "declarer": d, "augen": 90}):
        scoring_services.entry_append(table=sheet, data=hand, user=None)
    document = selectors.ranking_document(tournament)
    phone_doc = next(t for t in document["rounds"][0]["tables"] if "hands" in t)
    assert phone_doc["players"] == written.seats and len(phone_doc["hands"]) == 4
    ranking = selectors.open_ranking(tournament)
    rows = {row.number: row for row in ranking.rows}
    totals = scoring_services.selectors.table_state(sheet).totals
    for number, name in zip(written.seats, [a, b, c, d], strict=True):
        assert rows[number].points == totals[name]  # the sheet's ledger and the ranking agree
    # Soli of a phone table: every game with a single declarer, won or lost.
    assert [rows[n].soli for n in written.seats] == [0, 0, 2, 1]
    state = next(t for t in selectors.seating(round_).tables if t.table.pk == written.pk).phone
    assert state is not None and (state.played, state.games) == (4, 4)
    assert state.points == {n: totals[name] for n, name in zip(written.seats, [a, b, c, d], strict=True)}
    path = tmp_path / "open.json"
    path.write_text(json.dumps(document))
    capsys.readouterr()
    call_command("rank_open", str(path))
    printed = json.loads(capsys.readouterr().out)
    assert [(r["place"], r["number"], r["points"]) for r in printed["ranking"]] == [
        (row.place, row.number, row.points) for row in ranking.rows
    ]


def test_a_member_sits_as_himself_and_a_namesake_is_named_with_his_number(club: Club) -> None:
    """A member registered by the desk sits as his own player; the ranking document names each
    phone player as his seat does, and a guest of the same name by his start number."""
    member = MemberFactory(club=club, display_name="Sepp Huber")
    tournament = make_open_tournament(club, players=6, rounds=1)
    services.registration_create(tournament=tournament, name="Sepp Huber", member=member, user=None)
    services.registration_create(tournament=tournament, name="Sepp Huber", again=True, user=None)  # a namesake
    round_ = services.round_draw(tournament=tournament, seed=2, user=None)
    table = next(t for t in round_.tables.all() if 7 in t.seats)
    sheet = phone(table)
    assert sheet.seats.get(member=member).name == "Sepp Huber"
    names = {p["number"]: p["name"] for p in selectors.ranking_document(tournament)["players"]}
    assert names[7] == "Sepp Huber" and names[8] == "Sepp Huber (8)"


def test_a_returning_guest_is_the_same_player_and_a_taken_name_gets_his_wohnort(club: Club) -> None:
    MemberFactory(club=club, display_name="Gast 001")
    first, round_ = small(club)
    table = next(t for t in round_.tables.all() if 1 in t.seats)
    sheet = phone(table)
    guest = sheet.seats.get(position=table.seats.index(1)).member
    assert guest.display_name == "Gast 001 (Kempten)" and not guest.is_active
    second, round_ = small(club)
    table = next(t for t in round_.tables.all() if 1 in t.seats)
    assert phone(table).seats.get(position=table.seats.index(1)).member == guest
    assert first != second


def test_another_table_in_a_rounds_evening_is_refused(club: Club) -> None:
    _tournament, round_ = small(club)
    sheet = phone(round_.tables.first())
    strangers = MemberFactory.create_batch(4, club=club)
    with pytest.raises(ValidationError, match="nur die ausgelosten Tische"):
        scoring_services.table_start(session=sheet.session, members=strangers, user=None)


def test_the_desk_offers_the_phone_and_shows_a_phone_tables_state(client_as, world: World) -> None:
    tournament, round_ = small(world.club)
    table = round_.tables.first()
    client = client_as("scorer")
    kwargs = {"slug": world.club.slug, "open_id": tournament.pk, "round_number": 1}
    entry = reverse("opentournaments:entry", kwargs=kwargs)
    assert "Am Handy schreiben" in client.get(entry).content.decode()
    response = client.post(reverse("opentournaments:phone_start", kwargs={**kwargs, "table_no": table.number}))
    table.refresh_from_db()
    assert response.status_code == 302 and response.url == table.phone_table.get_absolute_url()
    page = client.get(response.url).content.decode()
    assert reverse("opentournaments:entry", kwargs=kwargs) in page  # the way back to the round
    desk = client.get(entry).content.decode()
    assert "0 von 4 Spielen" in desk and "Doch vom Zettel eintragen" in desk
    refused = client.post(
        reverse("opentournaments:table_entry", kwargs={**kwargs, "table_no": table.number}),
        {f"t{table.number}-points_{n}": 0 for n in table.seats},
        follow=True,
    )
    assert "am Handy geschrieben" in refused.content.decode()
    back = client.post(reverse("opentournaments:phone_stop", kwargs={**kwargs, "table_no": table.number}))
    assert back.status_code == 302
    table.refresh_from_db()
    assert table.phone_table is None


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), players=st.sampled_from([8, 9]), rounds=st.integers(1, 2))
def test_the_ranking_recounts_from_the_desks_figures_and_the_phones_hands(
    data: st.DataObject, players: int, rounds: int
) -> None:
    """Property: random small tournaments, each table typed at the desk, written on a phone or
    not entered yet, rank as a plain recount says: a desk table's figures as typed, a phone
    table's points as its own sheet totals them and its Soli as the games one player declared
    (``soli_count`` "declared") or declared and won ("won"); a table not entered yet is a round
    its players did not play (None)."""
    tournament = make_open_tournament(ClubFactory(), players=players, rounds=rounds)
    tournament.games_per_round = 2
    tournament.tie_breaks = data.draw(st.permutations(["soli", "best_round", "lot"]).map(lambda p: p[:2]))
    tournament.soli_count = data.draw(st.sampled_from(["declared", "won"]))
    tournament.save()
    points: dict[int, list[int | None]] = {n: [None] * rounds for n in range(1, players + 1)}
    soli = dict.fromkeys(points, 0)
    for r in range(rounds):
        round_ = services.round_draw(tournament=tournament, seed=data.draw(st.integers(0, 99)), user=None)
        for table in round_.tables.all():
            seats = table.seats
            kind = data.draw(st.sampled_from(["desk", "phone", "open"]))
            if kind == "desk":
                values = [data.draw(st.integers(-2, 2)) * 10 for _ in seats[1:]]
                typed = dict(zip(seats, [-sum(values), *values], strict=True))
                solos = dict.fromkeys(seats, 0)  # at most one Solo a game: the first ones declared one
                for n in seats[: data.draw(st.integers(0, selectors.table_games(tournament, len(seats))))]:
                    solos[n] = 1
                services.table_figures_enter(table=table, points=typed, soli=solos, user=None)
                for n in seats:
                    points[n][r] = typed[n]
                    soli[n] += solos[n]
            elif kind == "phone":
                sheet = phone(table)
                names = seat_names(sheet)
                for _ in range(data.draw(st.integers(1, selectors.table_games(tournament, len(seats))))):
                    playing = scoring_services.selectors.table_state(sheet).state.seats  # the dealer may sit out
                    i, j = data.draw(st.lists(st.integers(0, 3), min_size=2, max_size=2, unique=True))
                    augen = data.draw(st.sampled_from([40, 80]))
                    alone = data.draw(st.booleans())
                    hand = solo(playing[i], augen) if alone else ruf(playing[i], playing[j], augen)
                    scoring_services.entry_append(table=sheet, data=hand, user=None)
                    counted = alone and (tournament.soli_count == "declared" or augen > 60)
                    soli[seats[names.index(playing[i])]] += counted
                totals = scoring_services.selectors.table_state(sheet).totals
                for n, name in zip(seats, names, strict=True):
                    points[n][r] = totals[name]
    ranking = selectors.open_ranking(tournament)
    assert ranking is not None
    rows = [
        {
            "place": row.place,
            "number": row.number,
            "points": row.points,
            "rounds": row.rounds,
            "soli": row.soli,
            "decided_by": row.decided_by,
        }
        for row in ranking.rows
    ]
    assert_recounted(rows, points, soli, tournament.tie_breaks, tournament.lot_seed)


def test_a_tournament_made_on_a_money_tariff_before_it_was_refused_stays_on_paper(world: World) -> None:
    tournament = make_open_tournament(world.club, players=8)
    OpenTournament.objects.filter(pk=tournament.pk).update(preset="standard")  # as stop 26 allowed
    tournament.refresh_from_db()
    table = services.round_draw(tournament=tournament, seed=1, user=None).tables.first()
    with pytest.raises(ValidationError, match="Geld-Tarif"):
        services.table_phone_start(table=table, user=None)
    table.refresh_from_db()
    assert table.phone_table is None
