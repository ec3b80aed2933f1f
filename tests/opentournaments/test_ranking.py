"""The ranking of an open tournament from the desk's figures, through the rank_open engine."""

from __future__ import annotations

import io
import json
import re

import pytest
from django.core.management import call_command
from django.urls import reverse
from openpyxl import load_workbook

from opentournaments import links, selectors, services
from opentournaments.models import OpenTournament
from tests.factories import ClubFactory, World, make_open_tournament, open_round_played
from tests.opentournaments.test_prints import pdf_text

pytestmark = pytest.mark.django_db


def enter(round_, figures: dict[int, tuple[int, int]]) -> None:
    """Enter every table of ``round_`` from ``figures`` (start number → (points, soli))."""
    for table in round_.tables.all():
        services.table_figures_enter(
            table=table,
            points={n: figures[n][0] for n in table.seats},
            soli={n: figures[n][1] for n in table.seats},
            user=None,
        )


def two_tables(tournament: OpenTournament, seed: int):
    round_ = services.round_draw(tournament=tournament, seed=seed, user=None)
    return round_, [t.seats for t in round_.tables.all()]


def test_ties_by_soli_and_by_lot_prizes_and_the_same_as_rank_open(tmp_path, capsys) -> None:
    tournament = make_open_tournament(ClubFactory(), players=8, rounds=1)
    tournament.prize_shares = [50, 30]
    tournament.save()
    round_, (a, b) = two_tables(tournament, seed=1)
    # Table a: its first two end level on 20, the first with more Soli. Table b: two on 20, equal Soli.
    figures = {a[0]: (20, 3), a[1]: (20, 1), a[2]: (-15, 0), a[3]: (-25, 0)}
    figures |= {b[0]: (20, 1), b[1]: (-20, 1), b[2]: (0, 0), b[3]: (0, 0)}
    enter(round_, figures)
    ranking = selectors.open_ranking(tournament)
    top = ranking.rows[:3]
    assert [row.points for row in top] == [20, 20, 20]
    assert top[0].number == a[0] and top[0].decided_by is None
    assert {top[1].decided_by, top[2].decided_by} <= {"soli", "best_round", "lot"}
    assert [row.decided_by for row in top[1:]].count("lot") == 1  # a[1] and b[0]: 20, one Solo each
    pot = selectors.kasse(tournament).total_cents
    assert [row.prize_cents for row in ranking.rows[:3]] == [pot * 50 // 100, pot * 30 // 100, 0]
    assert ranking.round_winners and {w["points"] for w in ranking.round_winners} == {20}
    # rank_open on the same document gives the same order.
    path = tmp_path / "open.json"
    path.write_text(json.dumps(selectors.ranking_document(tournament)))
    capsys.readouterr()
    call_command("rank_open", str(path))
    printed = json.loads(capsys.readouterr().out)
    assert [r["number"] for r in printed["ranking"]] == [row.number for row in ranking.rows]


def test_shared_places_split_fixed_prizes_and_name_both_items() -> None:
    tournament = make_open_tournament(ClubFactory(), players=8, rounds=1)
    tournament.tie_breaks = []
    tournament.prize_amounts = [10000, 5001, 2000]
    tournament.prize_items = ["Schinken", "Wurstkorb"]
    tournament.save()
    round_, (a, b) = two_tables(tournament, seed=2)
    figures = {a[0]: (30, 0), a[1]: (-10, 0), a[2]: (-10, 0), a[3]: (-10, 0)}
    figures |= {b[0]: (30, 0), b[1]: (-30, 0), b[2]: (0, 0), b[3]: (0, 0)}
    enter(round_, figures)
    rows = selectors.open_ranking(tournament).rows
    assert [row.place for row in rows[:3]] == [1, 1, 3]
    # 1 and 1 split 100 € + 50,01 € (the cent stays in the pot); the two level on 0 share place 3
    # and its 20 € (place 4 has no prize).
    assert [row.prize_cents for row in rows[:4]] == [7500, 7500, 1000, 1000]
    # The items of the places they cover, listed once for the shared place (issue 31 §1).
    assert (rows[0].prize_item, rows[0].item_span) == ("Schinken / Wurstkorb", 2)
    assert (rows[1].prize_item, rows[1].item_span) == ("", 0)
    assert rows[1].decided_by == "geteilt"


def test_after_a_round_counts_only_the_rounds_so_far_and_a_withdrawn_player_keeps_his() -> None:
    tournament = make_open_tournament(ClubFactory(), players=8, rounds=2)
    round1, (a, b) = two_tables(tournament, seed=3)
    enter(round1, {n: (p, 0) for n, p in zip(a + b, [9, -3, -3, -3, 1, -1, 0, 0], strict=True)})
    gone = tournament.registrations.get(start_number=a[0])
    services.registration_withdraw(registration=gone, user=None)
    services.registration_create(tournament=tournament, name="Ersatz", user=None)
    round2 = services.round_draw(tournament=tournament, seed=4, user=None)
    enter(round2, {n: (0, 0) for t in round2.tables.all() for n in t.seats})
    after1 = selectors.open_ranking(tournament, 1)
    assert after1.after_round == 1 and after1.rows[0].rounds == [9]
    overall = selectors.open_ranking(tournament)
    assert overall.rows[0].number == a[0] and overall.rows[0].rounds == [9, None]
    assert overall.rows[0].away_note == "abgemeldet ab Runde 2"
    late = next(row for row in overall.rows if row.name == "Ersatz")
    assert late.rounds == [None, 0] and late.away_note == "nachgemeldet ab Runde 2"


def test_a_round_not_played_is_a_dash_and_the_player_marked_everywhere(client_as, world: World) -> None:
    """Issue 31 §5: the page, the Großbild, the public page, the PDF show "–" for a round not
    played (never 0) and mark the player "abgemeldet" / "nachgemeldet"; the Excel cell is empty
    and the mark has a column of its own."""
    tournament = make_open_tournament(world.club, players=8, rounds=2)
    round1, (a, b) = two_tables(tournament, seed=3)
    enter(round1, {n: (p, 0) for n, p in zip(a + b, [9, -3, -3, -3, 1, -1, 0, 0], strict=True)})
    services.registration_withdraw(registration=tournament.registrations.get(start_number=a[0]), user=None)
    services.registration_create(tournament=tournament, name="Spät Kommer", user=None)
    round2 = services.round_draw(tournament=tournament, seed=4, user=None)
    enter(round2, {n: (0, 0) for t in round2.tables.all() for n in t.seats})
    gone, late = f"Gast {a[0]:03d}", "Spät Kommer"
    kwargs = {"slug": world.club.slug, "open_id": tournament.pk}
    member = client_as("member")

    def row_of(html: str, name: str) -> str:
        start = html.index(name)
        return html[html.rindex("<tr", 0, start) : html.index("</tr>", start)]

    page = member.get(reverse("opentournaments:ranking", kwargs=kwargs)).content.decode()
    assert '<td class="num">9</td><td class="num">–</td>' in row_of(page, gone) and "abgemeldet ab Runde 2" in page
    assert '<td class="num">–</td><td class="num">0</td>' in row_of(page, late) and "nachgemeldet ab Runde 2" in page
    room = member.get(reverse("opentournaments:room", kwargs=kwargs)).content.decode()
    line = room[room.index(gone) : room.index("</li>", room.index(gone))]
    assert '<span class="c-pts">9</span><span class="c-pts">–</span>' in line and "abgemeldet ab Runde 2" in line
    public = member.get(links.public_path(tournament), {"q": late}).content.decode()
    assert "R1 – · R2 0" in public and "nachgemeldet ab Runde 2" in public
    pdf = pdf_text(member.get(reverse("opentournaments:ranking_pdf", kwargs=kwargs)).content)
    assert re.search(rf"{gone} Kempten abgemeldet ab Runde 2 9 – 9", pdf), pdf
    assert re.search(rf"{late} nachgemeldet ab Runde 2 – 0 0", pdf), pdf
    sheet = load_workbook(io.BytesIO(member.get(reverse("opentournaments:ranking_xlsx", kwargs=kwargs)).content)).active
    header = [cell.value for cell in sheet[2]]
    rows = {r[header.index("Name")]: r for r in sheet.iter_rows(min_row=3, values_only=True)}
    r1, r2, mark = header.index("R1"), header.index("R2"), header.index("Teilnahme")
    assert (rows[gone][r1], rows[gone][r2], rows[gone][mark]) == (9, None, "abgemeldet ab Runde 2")
    assert (rows[late][r1], rows[late][r2], rows[late][mark]) == (None, 0, "nachgemeldet ab Runde 2")


def test_the_ranking_page_shows_places_and_round_winners(client_as, world: World) -> None:
    tournament = make_open_tournament(world.club, players=8, rounds=1)
    round_, (a, b) = two_tables(tournament, seed=5)
    enter(round_, {n: (p, 1) for n, p in zip(a + b, [12, -4, -4, -4, 2, -2, 0, 0], strict=True)})
    kwargs = {"slug": world.club.slug, "open_id": tournament.pk}
    page = client_as("member").get(reverse("opentournaments:ranking", kwargs=kwargs)).content.decode()
    assert "Gesamtrangliste" in page and "Rundensieger" in page and f"Nr. {a[0]} Gast" in page
    page = client_as("member").get(reverse("opentournaments:round_ranking", kwargs={**kwargs, "round_number": 1}))
    assert "Rangliste nach Runde 1" in page.content.decode()


def test_the_ranking_prints_as_a_pdf_even_before_anyone_registered(client_as, world: World) -> None:
    tournament = make_open_tournament(world.club, players=0, rounds=1)
    kwargs = {"slug": world.club.slug, "open_id": tournament.pk}
    response = client_as("member").get(reverse("opentournaments:ranking_pdf", kwargs=kwargs))
    assert response.content.startswith(b"%PDF")


def test_a_player_who_never_sat_at_a_table_of_the_rounds_counted_takes_no_place_and_no_prize(
    client_as, world: World
) -> None:
    """Abgemeldet before round 1 (or a late registration withdrawn before his round): he never sat
    at a table, so he is in no ranking – not 5th of 9 on 0 points ahead of everyone below 0, with a
    share of the pot. One withdrawn after he played stays, marked."""
    tournament = make_open_tournament(world.club, players=9, rounds=2)
    tournament.registrations.update(paid=True)
    services.open_tournament_update(tournament=tournament, prize_shares=[20, 15, 10, 8, 7, 6, 5, 4, 3], user=None)
    services.registration_withdraw(registration=tournament.registrations.get(start_number=9), user=None)
    round1 = services.round_draw(tournament=tournament, seed=1, user=None)
    open_round_played(round1)
    services.registration_withdraw(registration=tournament.registrations.get(start_number=1), user=None)
    ranking = selectors.open_ranking(tournament)
    assert ranking is not None
    assert 9 not in [row.number for row in ranking.rows] and len(ranking.rows) == 8
    assert [row.away_note for row in ranking.rows if row.number == 1] == ["abgemeldet ab Runde 2"]
    # A late registration is in no ranking before his round is drawn (nor in the one after round 1).
    late = services.registration_create(tournament=tournament, name="Spät Kommer", residence="Isen", user=None)
    assert late.start_number not in [row.number for row in selectors.open_ranking(tournament).rows]
    services.round_draw(tournament=tournament, seed=1, user=None)
    assert late.start_number in [row.number for row in selectors.open_ranking(tournament).rows]
    assert late.start_number not in [row.number for row in selectors.open_ranking(tournament, 1).rows]
    page = client_as("member").get(
        reverse("opentournaments:ranking", kwargs={"slug": tournament.club.slug, "open_id": tournament.pk})
    )
    assert "Xaver Gast 9" not in page.content.decode()
