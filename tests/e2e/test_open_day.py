"""Issue 31 items 5–8 on the day, in the browser (Debian Chromium): a Preisschafkopf of 40 players
over three rounds with Soli counted as won. The owner draws each round by the button (a form sent
again draws nothing more), one table is written on a phone (its guests stay out of the club's
standings, its evening closes with the round), the desk types a table under "Soli (gewonnen)",
one player withdraws and one arrives late: both are "–" for the round they missed and marked
on the ranking page, the Großbild (1920×1080 and 1280×720: the prize winners' names whole, Soli,
entschieden durch and Preis beside the points) and the public page (its search placeholder whole
at 390 px). The ranking is recounted independently of ``rank_open`` from the stored figures.
Screenshots: /tmp/shots-open-day."""

from __future__ import annotations

import datetime
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from opentournaments import links, selectors, services
from opentournaments.models import OpenTournament, Round, RoundTable, TableScore
from scoring import services as scoring_services
from scoring.models import Entry, LedgerEntry, Session
from standings import selectors as stats
from tests.e2e.test_open_tournament import draw
from tests.e2e.test_score_sheet import login
from tests.factories import World, seat_names

SHOTS = Path("/tmp/shots-open-day")
PLAYERS = 38  # then one late arrival: 39 registered, 40 seats over the day with the withdrawal
GAMES = 4
FIRST = ["Monika", "Franziska", "Josef", "Xaver", "Zenzi", "Maximilian", "Kreszenz", "Walburga"]
LAST = ["Gößwein-Obermaier", "Grünwald", "Müller", "Bründl", "Huber", "Stadler", "Lechner"]


@pytest.fixture
def desk(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(locale="de-DE", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def shot(page: Page, name: str, full: bool = False) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def url(world: World, tournament: OpenTournament, name: str, **kwargs: object) -> str:
    return reverse(f"opentournaments:{name}", kwargs={"slug": world.club.slug, "open_id": tournament.pk, **kwargs})


def enter_at_the_desk(round_: Round, rng: random.Random, skip: RoundTable | None = None) -> None:
    """Every table of the round not on a phone (and not ``skip``): zero-sum figures, a won Solo
    or two, through the desk's service."""
    for table in round_.tables.exclude(phone_table__isnull=False):
        if table == skip:
            continue
        values = [rng.randrange(-40, 41) for _ in table.seats[1:]]
        points = dict(zip(table.seats, [-sum(values), *values], strict=True))
        services.table_figures_enter(
            table=table, points=points, soli={n: rng.randrange(2) for n in table.seats}, user=None
        )


def play_on_the_phone(table: RoundTable) -> dict[int, int]:
    """The round's games at a phone table: a Solo won, a Wenz lost, a Solo won, a Rufspiel (at five
    and six a Rufspiel lost and a Wenz won too). The won Soli per start number (what "Soli counted
    as won" must find)."""
    sheet = table.phone_table
    assert sheet is not None
    names = seat_names(sheet)
    number_of = dict(zip(names, table.seats, strict=True))
    won: dict[int, int] = {}
    games = [("solo", 80), ("wenz", 40), ("solo", 70), ("rufspiel", 75), ("rufspiel", 40), ("wenz", 90)]
    for game, augen in games[: selectors.table_games(table.round.tournament, len(table.seats))]:
        playing = scoring_services.selectors.table_state(sheet).state.seats
        hand = {"game": game, "declarer": playing[0], "augen": augen}
        if game == "solo":
            hand["suit"] = "eichel"
        if game == "rufspiel":
            hand["partner"] = playing[1]
        scoring_services.entry_append(table=sheet, data=hand, user=None)
        if game != "rufspiel" and augen > 60:
            won[number_of[playing[0]]] = won.get(number_of[playing[0]], 0) + 1
    return won


def recount(tournament: OpenTournament) -> dict[int, tuple[list[int | None], int]]:
    """Start number → (points per round, None where he sat at no table; Soli), straight from what
    is stored: the desk's figures, and a phone table's ledger and its won Soli (not rank_open)."""
    rounds = tournament.rounds
    out: dict[int, tuple[list[int | None], int]] = {
        n: ([None] * rounds, 0) for n in tournament.registrations.values_list("start_number", flat=True)
    }
    for number, round_number, points, soli in TableScore.objects.filter(
        table__round__tournament=tournament
    ).values_list("registration__start_number", "table__round__number", "points", "soli"):
        out[number][0][round_number - 1] = points
        out[number] = (out[number][0], out[number][1] + soli)
    for table in RoundTable.objects.filter(round__tournament=tournament, phone_table__isnull=False):
        members = {r.player_id: r.start_number for r in tournament.registrations.filter(start_number__in=table.seats)}
        for member, amount in LedgerEntry.objects.filter(table=table.phone_table).values_list("member_id", "amount"):
            rounds_of = out[members[member]][0]
            rounds_of[table.round.number - 1] = (rounds_of[table.round.number - 1] or 0) + amount
        for member in Entry.objects.filter(table=table.phone_table, solo=True, declarer_won=True).values_list(
            "declarer_id", flat=True
        ):
            n = members[member]
            out[n] = (out[n][0], out[n][1] + 1)
    return out


def assert_ranked_as_recounted(tournament: OpenTournament) -> None:
    """Points, rounds and Soli as recounted; places in order of points, then Soli, then the best
    of the rounds played, then the lot (each compared where the one above is level)."""
    figures = recount(tournament)
    ranking = selectors.open_ranking(tournament)
    assert ranking is not None
    for row in ranking.rows:
        rounds, soli = figures[row.number]
        assert (row.rounds, row.soli, row.points) == (rounds, soli, sum(p for p in rounds if p is not None))

    def key(row: selectors.RankRow) -> tuple[int, int, tuple[int, int]]:
        played = [p for p in row.rounds if p is not None]
        return (row.points, row.soli, (1, max(played)) if played else (0, 0))

    for above, below in zip(ranking.rows, ranking.rows[1:], strict=False):
        assert key(above) >= key(below)
        if key(above) == key(below):
            assert below.decided_by == "lot"


@pytest.mark.no_db_variance  # what it writes goes through the services tests/opentournaments runs on both
def test_a_day_of_40_players_late_withdrawn_soli_won_and_the_room(
    live_server: LiveServer, desk: Page, browser: Browser, world: World
) -> None:
    rng = random.Random(31)
    tournament = services.open_tournament_create(
        club=world.club,
        name="Preisschafkopf Kirchweih",
        starts_on=datetime.date(2026, 11, 28),
        rounds=3,
        games_per_round=GAMES,
        entry_fee_cents=1200,
        prize_shares=[30, 20, 15, 10, 5],
        prize_items=["Geräuchertes", "Brotzeitbrett", "Flasche Wein"],
        soli_count="won",
        user=None,
    )
    for i in range(PLAYERS):
        services.registration_create(
            tournament=tournament,
            name=f"{FIRST[i % len(FIRST)]} {LAST[i % len(LAST)]}-{i + 1}",
            residence=["Dorfen", "Taufkirchen (Vils)", "Sankt Wolfgang"][i % 3],
            paid=True,
            user=None,
        )
    login(desk, live_server, world, "owner")
    page_url = live_server.url + url(world, tournament, "detail")

    # Round 1 by the button; the same form sent again (the browser's resend) draws nothing more.
    desk.goto(page_url)
    token = desk.locator("form[action$='/draw/'] input[name=csrfmiddlewaretoken]").input_value()
    draw(desk, live_server, world, tournament, 1)
    again = desk.request.post(
        live_server.url + url(world, tournament, "draw"), form={"csrfmiddlewaretoken": token, "round": "1"}
    )
    assert again.ok and again.url.endswith(url(world, tournament, "round", round_number=1))
    assert "Runde 1 ist schon ausgelost" in again.text()
    assert tournament.round_set.count() == 1
    round_1 = tournament.round_set.get(number=1)
    phone_table, typed = list(round_1.tables.order_by("number"))[:2]
    phone_table = services.table_phone_start(table=phone_table, user=None)
    won_on_phone = play_on_the_phone(phone_table)
    evening = Session.objects.get(pk=phone_table.phone_table.session_id)
    assert evening.is_closed  # the round's only phone table has played its games

    # The desk types one table under "Soli (gewonnen)"; the rest through the same service.
    desk.goto(live_server.url + url(world, tournament, "entry", round_number=1))
    card = desk.locator(f"#t{typed.number}")
    expect(card.locator("thead")).to_contain_text("Soli (gewonnen)")
    expect(desk.get_by_text("Es zählen nur gewonnene Soli")).to_be_visible()
    values = [10, -5, -5] + [0] * (len(typed.seats) - 4)
    for n, points in zip(typed.seats, [-sum(values), *values], strict=True):
        card.locator(f'input[name="t{typed.number}-points_{n}"]').fill(str(points))
        name = tournament.registrations.get(start_number=n).name
        card.get_by_label(f"Soli (gewonnen): {n} {name}", exact=True).fill("1" if points > 0 else "0")
    with desk.expect_navigation():
        card.get_by_role("button", name="Speichern").click()
    enter_at_the_desk(round_1, rng, skip=typed)

    # Before round 2: one withdraws at the overview, one arrives late at the desk.
    gone = round_1.tables.get(pk=typed.pk).seats[1]
    gone_name = tournament.registrations.get(start_number=gone).name
    desk.goto(page_url)
    desk.locator("table.registrations tr", has_text=gone_name).get_by_role("button", name="abmelden").click()
    expect(desk.locator("table.registrations tr", has_text=gone_name)).to_contain_text("abgemeldet ab Runde 2")
    desk.goto(live_server.url + url(world, tournament, "desk"))
    form = desk.locator("form.register")
    form.locator('input[name="name"]').fill("Monika Spätkommer-Gößwein")
    form.locator('input[name="residence"]').fill("Moosburg an der Isar")
    form.locator('input[name="residence"]').press("Enter")
    expect(desk.locator("table.registrations tr", has_text="Spätkommer")).to_have_count(1)
    late = tournament.registrations.get(name="Monika Spätkommer-Gößwein").start_number
    for number in (2, 3):
        draw(desk, live_server, world, tournament, number)
        enter_at_the_desk(tournament.round_set.get(number=number), rng)

    # The ranking: "–" and the marks; the phone table's Soli are its won ones (the lost Wenz not).
    assert_ranked_as_recounted(tournament)
    after_1 = {row.number: row.soli for row in selectors.open_ranking(tournament, 1).rows}
    assert {n: after_1[n] for n in phone_table.seats} == {n: won_on_phone.get(n, 0) for n in phone_table.seats}
    ranking = {row.number: row for row in selectors.open_ranking(tournament).rows}
    assert ranking[gone].rounds[1:] == [None, None] and ranking[late].rounds[0] is None
    desk.goto(live_server.url + url(world, tournament, "ranking"))
    gone_row = desk.locator("table.ranking tbody tr", has_text=gone_name)
    expect(gone_row).to_contain_text("abgemeldet ab Runde 2")
    assert gone_row.locator("td.num").all_inner_texts()[3:5] == ["–", "–"]
    late_row = desk.locator("table.ranking tbody tr", has_text="Spätkommer")
    expect(late_row).to_contain_text("nachgemeldet ab Runde 2")
    assert late_row.locator("td.num").all_inner_texts()[2] == "–"
    shot(desk, "ranking-1280", full=True)

    # The club's standings: no guest of the tournament, the round's evening closed.
    guests = set(seat_names(phone_table.phone_table))
    standing = {
        row.name for block in stats.standings(club=world.club, period=stats.Period.all_time()) for row in block.rows
    }
    assert guests and not guests & standing

    # The Großbild at both projector sizes: whole winners' names, Soli, entsch. durch, Preis.
    for width, height in ((1920, 1080), (1280, 720)):
        context = browser.new_context(locale="de-DE", viewport={"width": width, "height": height})
        room = context.new_page()
        login(room, live_server, world, "member")
        room.goto(live_server.url + url(world, tournament, "room"))
        room.wait_for_selector("body[data-laid-out]")
        heads = room.locator(".room-heads .room-th").first
        for column in ("Soli", "Preis"):
            expect(heads).to_contain_text(column)
        for name in room.locator(".room-row.winner.on .c-name").all():
            assert name.evaluate("n => n.scrollWidth <= n.clientWidth"), name.inner_text()
        late_line = room.locator(".room-row", has_text="Spätkommer")
        if late_line.is_visible():
            expect(late_line).to_contain_text("nachgemeldet ab Runde 2")
        room.screenshot(path=str(SHOTS / f"room-{width}x{height}.png"))
        context.close()

    # The public page on a phone: the placeholder whole, the late arrival's "–".
    context = browser.new_context(locale="de-DE", viewport={"width": 390, "height": 844}, has_touch=True)
    public = context.new_page()
    public.goto(live_server.url + links.public_path(tournament))
    search = public.get_by_placeholder("Name oder Startnummer")
    room_for_text, text = search.evaluate(
        "i => { const s = getComputedStyle(i); const c = document.createElement('canvas').getContext('2d');"
        " c.font = s.fontWeight + ' ' + s.fontSize + ' ' + s.fontFamily;"
        " return [i.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight),"
        " c.measureText(i.placeholder).width]; }"
    )
    assert text <= room_for_text, (text, room_for_text)
    search.fill("Spätkommer")
    public.get_by_role("button", name="Suchen").tap()
    card = public.locator(".player-card")
    expect(card).to_contain_text("R1 –")
    expect(card).to_contain_text("nachgemeldet ab Runde 2")
    assert public.evaluate("document.documentElement.scrollWidth") <= 390
    public.screenshot(path=str(SHOTS / "public-390.png"))
    context.close()
