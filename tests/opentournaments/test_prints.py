"""The open tournament's printouts and downloads, opened as their readers would (pypdf,
openpyxl): the prize list, the ranking per round, the Excel, and the Tagessieger of a tournament
over several days."""

from __future__ import annotations

import datetime
import io
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from opentournaments import selectors, services
from opentournaments.models import OpenTournament, Round
from tests.factories import World, make_open_tournament

pytestmark = pytest.mark.django_db

A4 = (595, 842)  # points, portrait
SAT, SUN = datetime.date(2026, 11, 28), datetime.date(2026, 11, 29)


def pdf_text(data: bytes) -> str:
    reader = PdfReader(io.BytesIO(data))
    assert all((round(p.mediabox.width), round(p.mediabox.height)) == A4 for p in reader.pages)
    return " ".join(" ".join(page.extract_text() for page in reader.pages).split())  # lines wrap anywhere


def url(name: str, tournament: OpenTournament, **kwargs: object) -> str:
    return reverse(f"opentournaments:{name}", kwargs={"slug": tournament.club.slug, "open_id": tournament.pk, **kwargs})


def enter(round_: Round, points: dict[int, int]) -> None:
    """Every table of ``round_``: the given points (0 for the others; the first seat balances)."""
    for table in round_.tables.all():
        figures = {n: points.get(n, 0) for n in table.seats}
        figures[table.seats[0]] -= sum(figures.values())
        services.table_figures_enter(table=table, points=figures, soli=dict.fromkeys(table.seats, 0), user=None)


def leader_points(round_: Round, winner: int) -> dict[int, int]:
    """``winner`` gains 30 at his table, taken from the next seat; everyone else level."""
    table = next(t for t in round_.tables.all() if winner in t.seats)
    other = next(n for n in table.seats if n != winner)
    return {winner: 30, other: -30}


@pytest.fixture
def weekend(world: World) -> OpenTournament:
    """Twelve players over a weekend: rounds 1 and 2 on Saturday, round 3 on Sunday. Nr. 1 wins
    round 1 and 2 (Saturday's winner); Sunday: Nr. 2 and Nr. 3 both win 30 (two Tagessieger)."""
    tournament = make_open_tournament(world.club, players=12, rounds=3)
    tournament.ends_on = SUN
    tournament.prize_shares = [50, 30]
    tournament.prize_items = ["Geräuchertes", "Brotzeitkorb", "Flasche Wein"]
    tournament.save()
    for number, day in ((1, SAT), (2, SAT), (3, SUN)):
        round_ = services.round_draw(tournament=tournament, seed=number, day=day, user=None)
        if number < 3:
            enter(round_, leader_points(round_, 1))
        else:
            table2 = next(t for t in round_.tables.all() if 2 in t.seats)
            table3 = next(t for t in round_.tables.all() if 3 in t.seats)
            if table2 == table3:  # seed 3 keeps them apart; the assertion says so if it changes
                pytest.fail("Nr. 2 and Nr. 3 sit at one table in round 3")
            enter(round_, leader_points(round_, 2) | leader_points(round_, 3))
    return tournament


# --- Tagessieger ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("case", "rounds", "seated", "points", "expected"),
    [
        ("one day: none", [(1, SAT), (2, SAT)], [{1, 2}, {1, 2}], {1: [5, 5], 2: [-5, -5]}, []),
        (
            "a day's points add up over its rounds",
            [(1, SAT), (2, SAT), (3, SUN)],
            [{1, 2}, {1, 2}, {1, 2}],
            {1: [10, -4, -1], 2: [-10, 4, 1]},
            [(SAT, 1, 6), (SUN, 2, 1)],
        ),
        (
            "a tie names both",
            [(1, SAT), (2, SUN)],
            [{1, 2, 3}, {1, 2, 3}],
            {1: [3, 2], 2: [-3, 2], 3: [0, -4]},
            [(SAT, 1, 3), (SUN, 1, 2), (SUN, 2, 2)],
        ),
        (
            "only players at an entered table that day count",
            [(1, SAT), (2, SUN)],
            [{1, 2}, {2, 3}],
            {1: [4, 0], 2: [-4, -2], 3: [0, 2]},
            [(SAT, 1, 4), (SUN, 3, 2)],
        ),
        (
            "a day without entered tables has none",
            [(1, SAT), (2, SUN)],
            [{1, 2}, set()],
            {1: [4, 0], 2: [-4, 0]},
            [(SAT, 1, 4)],
        ),
    ],
)
def test_day_winners(case: str, rounds, seated, points, expected) -> None:
    names = {n: f"Nr{n}" for n in points}
    winners = selectors.day_winners(rounds, seated, points, names)
    assert [(w.day, w.number, w.points) for w in winners] == expected, case


def test_the_ranking_names_the_day_winners_over_several_days(client_as, weekend: OpenTournament) -> None:
    ranking = selectors.open_ranking(weekend)
    assert [(w.day, w.rounds, w.number, w.points) for w in ranking.day_winners] == [
        (SAT, [1, 2], 1, 60),
        (SUN, [3], 2, 30),
        (SUN, [3], 3, 30),
    ]
    assert [w["number"] for w in ranking.round_winners if w["round"] == 3] == [2, 3]
    page = client_as("member").get(url("ranking", weekend)).content.decode()
    assert "Tagessieger" in page and "Rundensieger" in page
    after1 = selectors.open_ranking(weekend, 1)
    assert after1.day_winners == []  # the rounds counted are all on Saturday


def test_one_day_no_tagessieger(client_as, world: World) -> None:
    tournament = make_open_tournament(world.club, players=8, rounds=2)
    for seed in (1, 2):
        round_ = services.round_draw(tournament=tournament, seed=seed, user=None)
        enter(round_, leader_points(round_, 1))
    assert selectors.open_ranking(tournament).day_winners == []
    assert "Tagessieger" not in client_as("member").get(url("ranking", tournament)).content.decode()
    assert "Spieltag" not in client_as("owner").get(url("round", tournament, round_number=1)).content.decode()


def test_the_owner_sets_a_rounds_day_when_drawing_and_on_the_round_page(client_as, world: World) -> None:
    tournament = make_open_tournament(world.club, players=8, rounds=2)
    tournament.ends_on = SUN
    tournament.save()
    owner: Client = client_as("owner")
    page = owner.get(url("detail", tournament)).content.decode()
    assert 'name="day"' in page  # the draw offers the days
    owner.post(url("draw", tournament), {"round": "1", "day": SUN.isoformat()})
    round_ = tournament.round_set.get()
    assert round_.played_on == SUN
    page = owner.get(url("round", tournament, round_number=1)).content.decode()
    assert f'<option value="{SUN.isoformat()}" selected>' in page
    owner.post(url("round_day", tournament, round_number=1), {"day": SAT.isoformat()})
    round_.refresh_from_db()
    assert round_.day is None and round_.played_on == SAT  # the first day is the default, stored as None
    owner.post(url("round_day", tournament, round_number=1), {"day": "2026-12-24"})
    round_.refresh_from_db()
    assert round_.played_on == SAT  # not one of the tournament's days: refused
    with pytest.raises(ValidationError):
        services.round_set_day(round_=round_, day=datetime.date(2026, 11, 27), user=None)


# --- printouts -----------------------------------------------------------------------------------


def test_the_prize_list_prints_the_prizes_and_the_kasse(client_as, weekend: OpenTournament) -> None:
    response = client_as("member").get(url("prizes_pdf", weekend))
    assert response["Content-Type"] == "application/pdf"
    text = pdf_text(response.content)
    prizes = selectors.prize_list(weekend)
    first = prizes.rows[0]
    assert first.number == 1 and first.prize_cents == 90 * 50  # six paid at 15 €: 90 €, half of it
    assert [row.prize_item for row in prizes.rows][:3] == ["Geräuchertes", "Brotzeitkorb", "Flasche Wein"]
    assert (prizes.kasse.total_cents, prizes.pot_cents, prizes.stays_cents) == (9000, 9000, 9000 - 4500 - 2700)
    for expected in ("Preisliste", "Gast 001", "Kempten", "45,00", "27,00", "Geräuchertes", "Flasche Wein"):
        assert expected in text, expected
    for expected in ("Startgeld eingenommen", "90,00", "ausgezahlt", "72,00", "bleibt in der Kasse", "18,00"):
        assert expected in text, expected
    assert "28. November 2026" in text and "29. November 2026" in text
    assert "Vorläufig" not in text


def test_the_prize_list_says_when_it_is_provisional_and_when_the_club_adds(client_as, world: World) -> None:
    tournament = make_open_tournament(world.club, players=8, rounds=2)
    tournament.prize_amounts = [10000, 5000]
    tournament.save()
    round_ = services.round_draw(tournament=tournament, seed=1, user=None)
    enter(round_, leader_points(round_, 1))
    text = pdf_text(client_as("member").get(url("prizes_pdf", tournament)).content)
    assert "Vorläufig: Stand nach Runde 1 von 2" in text
    assert "legt der Verein dazu" in text and "90,00" in text  # 150 € of prizes, 60 € taken


def test_the_ranking_prints_per_round_and_overall(client_as, weekend: OpenTournament) -> None:
    client: Client = client_as("member")
    text = pdf_text(client.get(url("round_ranking_pdf", weekend, round_number=1)).content)
    assert "Rangliste nach Runde 1" in text and "R2" not in text
    text = pdf_text(client.get(url("ranking_pdf", weekend)).content)
    assert "Gesamtrangliste" in text and "R3" in text and "Tagessieger" in text
    assert client.get(url("round_ranking_pdf", weekend, round_number=4)).status_code == 404
    page = client.get(url("round_ranking", weekend, round_number=2)).content.decode()
    assert url("round_ranking_pdf", weekend, round_number=2) in page
    assert url("round_ranking_xlsx", weekend, round_number=2) in page
    page = client.get(url("ranking", weekend)).content.decode()
    assert url("prizes_pdf", weekend) in page and url("ranking_xlsx", weekend) in page


def test_every_printout_is_named_after_club_tournament_and_content(client_as, weekend: OpenTournament) -> None:
    """Issue 29 §5: not ``rangliste.pdf`` for every tournament, one download overwriting another."""
    client: Client = client_as("member")
    stem = "test-preisschafkopf-2026"
    for name, kwargs, filename in (
        ("ranking_pdf", {}, f"{stem}-rangliste.pdf"),
        ("round_ranking_pdf", {"round_number": 2}, f"{stem}-rangliste-runde-2.pdf"),
        ("round_ranking_xlsx", {"round_number": 2}, f"{stem}-rangliste-runde-2.xlsx"),
        ("prizes_pdf", {}, f"{stem}-preisliste.pdf"),
        ("rules_pdf", {}, f"{stem}-turnierregeln.pdf"),
        ("round_pdf", {"round_number": 1}, f"{stem}-sitzplan-runde-1.pdf"),
        ("sheets_pdf", {"round_number": 3}, f"{stem}-wertungszettel-runde-3.pdf"),
    ):
        disposition = client.get(url(name, weekend, **kwargs))["Content-Disposition"]
        assert disposition.endswith(f'filename="{filename}"'), (name, disposition)
    weekend.name = "Kirchweih-Schafkopf 2026 in Dorfen"  # the year in the name: not twice
    weekend.save()
    disposition = client.get(url("prizes_pdf", weekend))["Content-Disposition"]
    assert disposition.endswith('filename="test-kirchweih-schafkopf-2026-in-dorfen-preisliste.pdf"')


def test_the_excel_keeps_numbers_as_numbers_and_names_as_text(client_as, weekend: OpenTournament) -> None:
    weekend.registrations.filter(start_number=12).update(name='=HYPERLINK("http://x","y")')
    response = client_as("member").get(url("ranking_xlsx", weekend))
    assert response["Content-Disposition"] == 'attachment; filename="test-preisschafkopf-2026-rangliste.xlsx"'
    assert "no-store" in response["Cache-Control"]  # issue 31 §9: no cache keeps a club's list
    sheet = load_workbook(io.BytesIO(response.content)).active
    rows = list(sheet.iter_rows(values_only=True))
    assert "Gesamtrangliste" in rows[0][0]
    header = list(rows[1])
    assert header[:6] == ["Platz", "geteilt", "Nr.", "Name", "Wohnort", "Teilnahme"]
    assert header[6:9] == ["R1", "R2", "R3"]
    body = [dict(zip(header, row, strict=True)) for row in rows[2:]]
    first = body[0]
    assert (first["Platz"], first["Nr."], first["R1"], first["Punkte"]) == (1, 1, 30, 60)
    assert first["Preisgeld"] == Decimal("45.00") and first["Sachpreis"] == "Geräuchertes"
    assert all(isinstance(row["Platz"], int) and isinstance(row["Punkte"], int) for row in body)
    hostile = next(row for row in body if row["Nr."] == 12)
    assert hostile["Name"] == '\'=HYPERLINK("http://x","y")'
    per_round = client_as("member").get(url("round_ranking_xlsx", weekend, round_number=1))
    header = list(load_workbook(io.BytesIO(per_round.content)).active.iter_rows(values_only=True))[1]
    assert "R1" in header and "R2" not in header


def test_a_shared_place_is_a_number_marked_geteilt_in_excel(client_as, world: World) -> None:
    tournament = make_open_tournament(world.club, players=8, rounds=1)
    tournament.tie_breaks = []
    tournament.save()
    services.round_draw(tournament=tournament, seed=1, user=None)  # nothing entered: all share place 1
    sheet = load_workbook(io.BytesIO(client_as("member").get(url("ranking_xlsx", tournament)).content)).active
    rows = list(sheet.iter_rows(min_row=3, values_only=True))
    assert {(row[0], row[1]) for row in rows} == {(1, "geteilt")}


def test_the_wertungszettel_names_each_dealer_whole_beside_his_number(client_as, world: World) -> None:
    tournament = make_open_tournament(world.club, players=8, rounds=1)
    tournament.registrations.filter(start_number=1).update(name="Franziska Grünwald")
    services.round_draw(tournament=tournament, seed=1, user=None)
    text = pdf_text(client_as("member").get(url("sheets_pdf", tournament, round_number=1)).content)
    assert text.count("1 Franziska Grünwald") > 1  # the head of her column, and each game she deals


def test_stand_in_english_is_a_status_a_running_total_or_a_time_by_where_it_stands(client_as, world: World) -> None:
    """German "Stand" is three words in English: the registration's status, the Wertungszettel's
    running total, and the time a board shows ("As of 11:50")."""
    tournament = make_open_tournament(world.club, players=8, rounds=1)
    services.round_draw(tournament=tournament, seed=1, user=None)
    client = client_as("owner")
    client.cookies["django_language"] = "en"
    desk = client.get(url("desk", tournament)).content.decode()
    assert "<th>Status</th>" in desk and "<th>As of</th>" not in desk
    text = pdf_text(client.get(url("sheets_pdf", tournament, round_number=1)).content)
    assert "Total" in text and "As of" not in text
    assert "As of" in client.get(url("room", tournament)).content.decode()
    # The prize list's day in the reader's language, as its footer's "Printed" is.
    day = tournament.starts_on
    text = pdf_text(client.get(url("prizes_pdf", tournament)).content)
    assert f"{day:%b}" in text and f"{day.day}. " not in text.split("Prize list")[1][:60]
