"""Zweiterfassung, the Zettel-Übersicht and the history of corrections (issue 31 §4)."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from opentournaments import selectors, services
from opentournaments.models import OpenTournament, RoundTable, TableScore, Typing
from opentournaments.selectors import SheetState
from tests.factories import World, make_open_tournament
from tests.opentournaments.test_prints import pdf_text

pytestmark = pytest.mark.django_db


def url(name: str, tournament: OpenTournament, **kwargs: object) -> str:
    return reverse(f"opentournaments:{name}", kwargs={"slug": tournament.club.slug, "open_id": tournament.pk, **kwargs})


def figures(table: RoundTable, *points: int) -> dict[str, dict[int, int]]:
    return {"points": dict(zip(table.seats, points, strict=True)), "soli": dict.fromkeys(table.seats, 1)}


@pytest.fixture
def tournament(world: World) -> OpenTournament:
    tournament = make_open_tournament(world.club, players=8, rounds=2)
    return services.open_tournament_update(tournament=tournament, double_entry=True, user=None)


def states(round_) -> list[str]:
    return [t.state for t in selectors.seating(round_).tables]


def test_a_table_counts_only_when_two_typings_agree(tournament: OpenTournament) -> None:
    round1 = services.round_draw(tournament=tournament, seed=1, user=None)
    first, second = round1.tables.all()
    assert states(round1) == [SheetState.WAITING, SheetState.WAITING]
    typing = services.table_figures_enter(table=first, **figures(first, 10, -5, -5, 0), user=None)
    assert typing.outcome == Typing.PENDING and not TableScore.objects.exists()
    assert states(round1)[0] == SheetState.TYPED_ONCE
    typing = services.table_figures_enter(table=first, **figures(first, 10, -5, -5, 0), user=None)
    assert typing.outcome == Typing.CONFIRMED and TableScore.objects.filter(table=first).count() == 4
    assert states(round1)[0] == SheetState.CONFIRMED


def test_a_mismatch_shows_both_and_the_paper_decides(tournament: OpenTournament) -> None:
    round1 = services.round_draw(tournament=tournament, seed=1, user=None)
    table = round1.tables.first()
    services.table_figures_enter(table=table, **figures(table, 10, -5, -5, 0), user=None)
    typing = services.table_figures_enter(table=table, **figures(table, 10, -6, -4, 0), user=None)
    assert typing.outcome == Typing.MISMATCH and not TableScore.objects.exists()
    seated = selectors.seating(round1).tables[0]
    assert seated.state == SheetState.MISMATCH
    assert [differs for _seat, _one, _two, differs in seated.compared] == [False, True, True, False]
    assert selectors.open_ranking(tournament).rows[0].rounds == [None]  # nothing counts yet
    typing = services.table_figures_enter(table=table, **figures(table, 10, -6, -4, 0), user=None)  # the paper
    assert typing.outcome == Typing.CONFIRMED
    assert dict(TableScore.objects.filter(table=table).values_list("registration__start_number", "points")) == dict(
        zip(table.seats, [10, -6, -4, 0], strict=True)
    )


def test_a_form_sent_twice_is_one_typing_and_never_confirms_itself(tournament: OpenTournament) -> None:
    round1 = services.round_draw(tournament=tournament, seed=1, user=None)
    table = round1.tables.first()
    one = services.table_figures_enter(table=table, **figures(table, 1, 1, -2, 0), key="k", user=None)
    two = services.table_figures_enter(table=table, **figures(table, 1, 1, -2, 0), key="k", user=None)
    assert one.pk == two.pk and one.outcome == Typing.PENDING and table.typings.count() == 1


def test_a_correction_keeps_who_when_old_and_new_and_the_ranking_says_korrigiert(world: World) -> None:
    tournament = make_open_tournament(world.club, players=8, rounds=2)  # typed once: counts at once
    round1 = services.round_draw(tournament=tournament, seed=1, user=None)
    table = round1.tables.first()
    services.table_figures_enter(table=table, **figures(table, 10, -5, -5, 0), user=world.users["scorer"])
    assert states(round1)[0] == SheetState.ENTERED
    services.round_draw(tournament=tournament, seed=2, user=None)
    services.table_figures_enter(table=table, **figures(table, 10, -7, -3, 0), user=world.users["owner"])
    seated = selectors.seating(round1).tables[0]
    assert seated.state == SheetState.CORRECTED
    (correction,) = seated.corrections
    assert correction.by == world.users["owner"].get_username()
    assert [(c.number, c.old, c.new) for c in correction.changes] == [
        (table.seats[1], (-5, 1), (-7, 1)),
        (table.seats[2], (-5, 1), (-3, 1)),
    ]
    rows = {row.number: row for row in selectors.open_ranking(tournament).rows}
    assert all(rows[n].corrected == (1,) for n in table.seats)
    assert not any(row.corrected for n, row in rows.items() if n not in table.seats)


def test_the_grossbild_the_excel_and_the_pdf_mark_korrigiert_as_the_page_does(client_as, world: World) -> None:
    tournament = make_open_tournament(world.club, players=8, rounds=2)
    round1 = services.round_draw(tournament=tournament, seed=1, user=None)
    table = round1.tables.first()
    services.table_figures_enter(table=table, **figures(table, 10, -5, -5, 0), user=None)
    services.round_draw(tournament=tournament, seed=2, user=None)
    services.table_figures_enter(table=table, **figures(table, 10, -7, -3, 0), user=None)
    client = client_as("member")
    names = dict(tournament.registrations.values_list("start_number", "name"))
    marked = {names[n] for n in table.seats}
    for page in (url("ranking", tournament), url("room", tournament)):
        html = client.get(page).content.decode()
        assert html.count('class="corrected">korrigiert (R1)<') == len(table.seats), page
    assert pdf_text(client.get(url("ranking_pdf", tournament)).content).count("korrigiert (R1)") == len(table.seats)
    sheet = load_workbook(io.BytesIO(client.get(url("ranking_xlsx", tournament)).content)).active
    header, *body = list(sheet.iter_rows(min_row=2, values_only=True))
    column = header.index("korrigiert")
    assert {row[header.index("Name")] for row in body if row[column] == "R1"} == marked
    assert all(row[column] is None for row in body if row[header.index("Name")] not in marked)


def test_a_correction_with_zweiterfassung_waits_for_its_second_typing(tournament: OpenTournament) -> None:
    round1 = services.round_draw(tournament=tournament, seed=1, user=None)
    table = round1.tables.first()
    for _ in range(2):
        services.table_figures_enter(table=table, **figures(table, 10, -5, -5, 0), user=None)
    services.table_figures_enter(table=table, **figures(table, 12, -7, -5, 0), user=None)
    assert states(round1)[0] == SheetState.TYPED_ONCE
    assert TableScore.objects.get(table=table, registration__start_number=table.seats[0]).points == 10
    services.table_figures_enter(table=table, **figures(table, 12, -7, -5, 0), user=None)
    assert states(round1)[0] == SheetState.CORRECTED


def test_the_entry_page_shows_the_tiles_the_mismatch_and_the_history(client_as, tournament: OpenTournament) -> None:
    round1 = services.round_draw(tournament=tournament, seed=1, user=None)
    table = round1.tables.first()
    client = client_as("scorer")
    entry = url("entry", tournament, round_number=1)
    page = client.get(entry).content.decode()
    assert "Zettel-Übersicht" in page and page.count('class="tile waiting"') == 2
    prefix = f"t{table.number}"
    data = {f"{prefix}-points_{n}": p for n, p in zip(table.seats, [10, -5, -5, 0], strict=True)}
    data |= {f"{prefix}-soli_{n}": 0 for n in table.seats}
    post = url("table_entry", tournament, round_number=1, table_no=table.number)
    client.post(post, {**data, f"{prefix}-key": "a"})
    client.post(post, {**data, f"{prefix}-key": "a"})  # a double Enter: one typing
    assert "einmal erfasst" in client.get(entry).content.decode()
    data[f"{prefix}-points_{table.seats[1]}"] = -6
    data[f"{prefix}-points_{table.seats[2]}"] = -4
    client.post(post, {**data, f"{prefix}-key": "b"})
    page = client.get(entry).content.decode()
    assert "Die Erfassungen weichen ab" in page and 'class="differs"' in page
    client.post(post, {**data, f"{prefix}-key": "c"})
    page = client.get(entry).content.decode()
    assert 'class="tile confirmed"' in page and 'class="tile waiting"' in page


def test_zweiterfassung_switched_on_or_off_midway_keeps_what_counts(world: World) -> None:
    """Switched on after tables were typed: those keep counting ("eingetragen", not "bestätigt";
    the same figures typed again confirm them). Switched off with a table typed once: it still
    waits, and its next typing counts at once."""
    tournament = make_open_tournament(world.club, players=8, rounds=1)
    round1 = services.round_draw(tournament=tournament, seed=1, user=None)
    typed, waiting = round1.tables.all()
    services.table_figures_enter(table=typed, **figures(typed, 10, -5, -5, 0), user=None)
    services.open_tournament_update(tournament=tournament, double_entry=True, user=None)
    assert states(round1)[0] == SheetState.ENTERED
    services.table_figures_enter(table=typed, **figures(typed, 10, -5, -5, 0), user=None)
    assert states(round1)[0] == SheetState.CONFIRMED
    services.table_figures_enter(table=waiting, **figures(waiting, 4, -4, 0, 0), user=None)
    services.open_tournament_update(tournament=tournament, double_entry=False, user=None)
    assert states(round1)[1] == SheetState.TYPED_ONCE and not TableScore.objects.filter(table=waiting).exists()
    typing = services.table_figures_enter(table=waiting, **figures(waiting, 4, -4, 0, 0), user=None)
    assert typing.outcome == Typing.COUNTED and states(round1)[1] == SheetState.ENTERED
