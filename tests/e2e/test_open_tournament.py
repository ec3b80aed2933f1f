"""Issue 24's "Done when": a 61-player open tournament of three rounds through the pages. The desk
registers at the door (the form, a returning guest found by the search, the Startgeld ticked),
the owner draws each round by the button, one table is written game by game on a 390×844 touch
phone, the others are typed at the desk with the keyboard (points, Tab, Soli, Enter: the cursor
goes to the next table); a tie is decided by Soli and one by lot, the ranking shows who decided
and the prizes, and ``rank_open`` on the tournament's document ranks the same as the page."""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from opentournaments import selectors, services
from opentournaments.models import OpenTournament, RoundTable
from scoring.models import Entry
from tests.e2e.test_score_sheet import login
from tests.e2e.test_table_phone import Taps
from tests.factories import World, seat_names

SHOTS = Path("/tmp/shots-open")
PLAYERS = 61
BY_FORM = ["Anni Berger", "Lenz Dorn", "Wiggerl Ertl"]  # typed into the form at the door
RETURNING = ("Rosi Zirngibl", "Sonthofen")  # played the club's tournament last year
GAMES = 4  # per round: short, so the phone table is quick to tap


@pytest.fixture
def desk(browser: Browser) -> Iterator[Page]:
    """The desk's laptop: a wide screen and a keyboard."""
    context = browser.new_context(locale="de-DE", viewport={"width": 1280, "height": 900}, service_workers="block")
    page = context.new_page()
    page.set_default_timeout(20_000)
    yield page
    context.close()


def shot(page: Page, name: str, full: bool = True) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def tournament_url(world: World, tournament: OpenTournament, name: str, **kwargs: object) -> str:
    return reverse(f"opentournaments:{name}", kwargs={"slug": world.club.slug, "open_id": tournament.pk, **kwargs})


def setup(world: World) -> OpenTournament:
    """The tournament, last year's with the returning guest, and all but the few the browser
    registers, through the same service the desk's form calls."""
    last_year = services.open_tournament_create(
        club=world.club, name="Preisschafkopf 2025", starts_on=datetime.date(2025, 11, 29), user=None
    )
    services.registration_create(tournament=last_year, name=RETURNING[0], residence=RETURNING[1], user=None)
    tournament = services.open_tournament_create(
        club=world.club,
        name="Preisschafkopf 2026",
        starts_on=datetime.date(2026, 11, 28),
        rounds=3,
        games_per_round=GAMES,
        entry_fee_cents=1500,
        prize_shares=[40, 25, 15, 10],
        prize_items=["Geräuchertes", "Brotzeitbrett"],
        user=None,
    )
    for n in range(1, PLAYERS - len(BY_FORM)):
        services.registration_create(
            tournament=tournament, name=f"Gast {n:02d}", residence="Kempten", paid=True, user=None
        )
    return tournament


def register_at_the_door(desk: Page, live_server: LiveServer, world: World, tournament: OpenTournament) -> None:
    desk.goto(live_server.url + tournament_url(world, tournament, "desk"))
    for name in BY_FORM:
        form = desk.locator("form.register")
        form.locator('input[name="name"]').fill(name)
        form.locator('input[name="residence"]').fill("Immenstadt")
        if name == BY_FORM[-1]:
            form.get_by_label("Startgeld bezahlt").uncheck()  # pays once he has found his purse
        form.locator('input[name="residence"]').press("Enter")
        expect(desk.locator("table.registrations tr", has_text=name)).to_have_count(1)
    desk.get_by_role("searchbox").fill("Zirn")
    desk.get_by_role("button", name="Suchen").click()
    desk.get_by_role("button", name=f"{RETURNING[0]}, {RETURNING[1]}").click()
    expect(desk.locator("table.registrations tr", has_text=RETURNING[0])).to_have_count(1)
    shot(desk, "01-desk")
    # The one who had not paid yet: the desk takes his Startgeld from the list.
    row = desk.locator("table.registrations tr", has_text=BY_FORM[-1])
    row.get_by_role("button", name="kassieren").click()
    expect(row.get_by_role("button", name="✓ bezahlt")).to_be_visible()


def draw(desk: Page, live_server: LiveServer, world: World, tournament: OpenTournament, number: int) -> None:
    desk.goto(live_server.url + tournament.get_absolute_url())
    desk.once("dialog", lambda dialog: dialog.accept())  # "Runde N jetzt auslosen?"
    desk.get_by_role("button", name=f"Runde {number} auslosen").click()
    expect(desk.get_by_text(f"Runde {number}: Sitzplan")).to_be_visible()


def write_on_the_phone(phone: Page, live_server: LiveServer, world: World, table: RoundTable) -> None:
    """The Schreiber's phone: "Am Handy schreiben" on the round's entry page, then every game of
    the round tapped on the score sheet."""
    entry = tournament_url(world, table.round.tournament, "entry", round_number=table.round.number)
    phone.goto(live_server.url + entry)
    phone.locator(f"#t{table.number}").get_by_role("button", name="Am Handy schreiben").tap()
    expect(phone.locator("#entry-form")).to_be_visible()
    table.refresh_from_db()
    sheet = table.phone_table
    names = seat_names(sheet)
    hands = [
        (("Spiel", "Rufspiel"), ("Spieler", names[0]), ("Mitspieler", names[1]), ("Ergebnis", "gewonnen")),
        (("Spiel", "Solo"), ("Spieler", names[2]), ("Trumpf", "Herz"), ("Ergebnis", "verloren")),
        (("Spiel", "Wenz"), ("Spieler", names[3]), ("Ergebnis", "gewonnen")),
        (("Spiel", "Rufspiel"), ("Spieler", names[1]), ("Mitspieler", names[2]), ("Ergebnis", "verloren")),
    ]
    for number, hand in enumerate(hands, start=1):
        taps = Taps(phone)
        for legend, label in hand:
            taps.on(legend, label)
        taps.save(number)
    expect(phone.get_by_text("der Tisch ist fertig")).to_be_visible()
    shot(phone, "02-phone-sheet", full=False)
    assert Entry.objects.filter(table=sheet, kind="hand").count() == GAMES


def type_tables(desk: Page, live_server: LiveServer, world: World, round_number: int, figures: dict) -> None:
    """Type every desk table of the round at the desk: per player points, Tab, Soli, Tab; Enter
    saves, and the page comes back with the cursor in the next table."""
    tournament = OpenTournament.objects.get(club=world.club, name="Preisschafkopf 2026")
    round_ = tournament.round_set.get(number=round_number)
    tables = [t for t in round_.tables.order_by("number") if t.phone_table_id is None]
    desk.goto(live_server.url + tournament_url(world, tournament, "entry", round_number=round_number))
    for table in tables:
        first = desk.locator(f'input[name="t{table.number}-points_{table.seats[0]}"]')
        expect(first).to_be_focused()  # the cursor stands in this table
        for n in table.seats:
            points, soli = figures.get(n, (0, 0))
            desk.keyboard.type(str(points))
            desk.keyboard.press("Tab")
            desk.keyboard.type(str(soli))
            desk.keyboard.press("Tab")
        desk.keyboard.press("Shift+Tab")
        with desk.expect_navigation(wait_until="domcontentloaded"):
            desk.keyboard.press("Enter")
    expect(
        desk.get_by_text(f"{len(round_.tables.all())} von {round_.tables.count()} Tischen eingetragen")
    ).to_be_visible()


def page_ranking(desk: Page) -> list[tuple[int, int, int, str]]:
    """(place, number, points, entschieden durch) of every row of the ranking page."""
    out = []
    for row in desk.locator("table.ranking tbody tr").all():
        cells = [c.strip() for c in row.locator("td").all_inner_texts()]
        out.append((int(cells[0].rstrip(".")), int(cells[1]), int(cells[-4]), cells[-2]))
    return out


# Run once: what it writes goes through the services that tests/opentournaments (registration,
# draw, the desk's figures, phone tables, the ranking) and tests/scoring run on PostgreSQL too.
@pytest.mark.long(135)
@pytest.mark.no_db_variance
def test_a_61_player_tournament_of_three_rounds(
    live_server: LiveServer, desk: Page, phone: Page, world: World, tmp_path: Path, capsys
) -> None:
    tournament = setup(world)
    login(desk, live_server, world, "owner")
    login(phone, live_server, world, "scorer")
    register_at_the_door(desk, live_server, world, tournament)
    assert tournament.registrations.count() == PLAYERS
    assert selectors.kasse(tournament).open == 0

    draw(desk, live_server, world, tournament, 1)
    round_1 = tournament.round_set.get(number=1)
    fours = [t for t in round_1.tables.order_by("number") if len(t.seats) == 4]
    on_phone, by_soli, by_lot = fours[:3]
    write_on_the_phone(phone, live_server, world, on_phone)
    state = next(t.phone for t in selectors.seating(round_1).tables if t.table.pk == on_phone.pk)
    assert state is not None and state.played == GAMES
    phone_points = state.points
    top = max(phone_points.values())
    # Table 2: its first two end level, the first with more Soli. Table 3: its first two level on
    # points, Soli and best round, so the lot decides. Everyone else plays to 0.
    a, b, c, d = by_soli.seats[:4]
    e, f, g, h = by_lot.seats[:4]
    high, low = top + 200, top + 100
    figures = {a: (high, 2), b: (high, 1), c: (-high, 0), d: (-high, 0)}
    figures |= {e: (low, 1), f: (low, 1), g: (-low, 0), h: (-low, 0)}
    for extra in by_soli.seats[4:] + by_lot.seats[4:]:
        figures[extra] = (0, 0)
    type_tables(desk, live_server, world, 1, figures)
    # The desk shows the phone table's state and offers no figures for it.
    desk.goto(live_server.url + tournament_url(world, tournament, "entry", round_number=1))
    phone_card = desk.locator(f"#t{on_phone.number}")
    expect(phone_card).to_contain_text(f"{GAMES} von {GAMES} Spielen")
    expect(phone_card.locator("input")).to_have_count(0)
    phone.goto(live_server.url + tournament_url(world, tournament, "entry", round_number=1))
    phone.locator(f"#t{on_phone.number}").scroll_into_view_if_needed()
    shot(phone, "03-desk-phone-table", full=False)

    draw(desk, live_server, world, tournament, 2)
    type_tables(desk, live_server, world, 2, {})
    draw(desk, live_server, world, tournament, 3)
    type_tables(desk, live_server, world, 3, {})

    desk.goto(live_server.url + tournament_url(world, tournament, "ranking"))
    shot(desk, "04-ranking")
    rows = page_ranking(desk)
    assert len(rows) == PLAYERS
    by_number = {number: (place, points, decided) for place, number, points, decided in rows}
    assert by_number[a] == (1, high, "") and by_number[b] == (2, high, "Soli")
    first_lot, second_lot = sorted((by_number[e], by_number[f]))
    assert (first_lot[0], second_lot[0]) == (3, 4) and second_lot[2] == "Los"
    pot = 1500 * PLAYERS
    prizes = desk.locator("table.ranking tbody tr").nth(0).locator("td").last
    expect(prizes).to_contain_text("Geräuchertes")
    expect(desk.locator("table.ranking tbody tr").nth(3).locator("td").last).to_contain_text(
        f"{pot * 10 // 100 // 100},"
    )
    # The prize list to pin on the wall.
    response = desk.request.get(live_server.url + tournament_url(world, tournament, "prizes_pdf"))
    assert response.ok and response.body().startswith(b"%PDF")
    # rank_open on the tournament's document: the same places, numbers and points.
    path = tmp_path / "open.json"
    path.write_text(json.dumps(selectors.ranking_document(tournament)))
    capsys.readouterr()
    call_command("rank_open", str(path))
    printed = json.loads(capsys.readouterr().out)
    assert [(r["place"], r["number"], r["points"]) for r in printed["ranking"]] == [row[:3] for row in rows]
