"""The table page on a 390×844 touch phone, as a Schreiber uses it through an evening (issue 13):
the screen keeps the Schreiber's place after a save or a refusal, the defaults follow the game, a
plain hand is tapped without the keyboard, the whole Liste fits the screen, a refused correction
leads to the later entry, and a Doppelkopf hand is corrected with the tap form."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Locator, Page, Playwright, expect
from pytest_django.live_server_helper import LiveServer

from clubs.models import Member
from scoring import services
from scoring.amounts import format_amount
from scoring.models import Entry, Table
from scoring.templatetags.score_sheet import bare
from tests.e2e.conftest import launch
from tests.e2e.test_score_sheet import login
from tests.factories import World, rufspiel

SHOTS = Path("/tmp/shots-i13")
WIDTH, HEIGHT = 390, 844
NAMES = ["Sepp Huber", "Zenzi Mayr", "Girgl Lechner", "Vroni Brandl", "Resi Gruber", "Wast Kögl"]


def start_table(world: World, players: int = 4, rules: Any = "allgaeu", hands: int = 0) -> Table:
    session = services.session_create(club=world.club, date="2026-11-20", place="Krone", user=None)
    for name in NAMES[4:players]:
        Member.objects.get_or_create(club=world.club, display_name=name)
    members = [Member.objects.get(club=world.club, display_name=name) for name in NAMES[:players]]
    table = services.table_start(session=session, members=members, rules=rules, user=None)
    for _ in range(hands):
        services.entry_append(table=table, data=rufspiel(table), user=None)
    return table


def open_table(page: Page, live_server: LiveServer, world: World, table: Table) -> Locator:
    login(page, live_server, world, "scorer")
    page.goto(live_server.url + table.get_absolute_url())
    return page.locator("#entry-form")


def in_viewport(locator: Locator) -> bool:
    box = locator.bounding_box()
    assert box is not None, "not rendered"
    return box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= WIDTH and box["y"] + box["height"] <= HEIGHT


def shot(page: Page, name: str, full: bool = False) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def tap(form: Locator, legend: str, label: str) -> None:
    """Tap the button ``label`` in the group headed ``legend``."""
    group = form.locator("fieldset", has=form.page.locator("legend", has_text=legend)).first
    group.locator("label", has_text=label).first.tap()


def save(page: Page, number: int) -> None:
    """Tap "Nr. n speichern" and wait until the page has settled on the answer."""
    with page.expect_response(lambda response: "/eintragen/" in response.url):
        page.get_by_role("button", name=f"Nr. {number} speichern").tap()
    # Polled from here: a predicate evaluated in the page would be refused by the CSP (no eval).
    expect(page.locator(".htmx-settling, .htmx-swapping, .htmx-request")).to_have_count(0)


# --- 1. the screen keeps the Schreiber's place ---------------------------------------------------
@pytest.mark.no_db_variance  # where things are on the screen; the storing: tests/scoring
def test_after_a_save_the_game_buttons_are_under_the_thumb(live_server: LiveServer, phone: Page, world: World) -> None:
    table = start_table(world, hands=12)
    form = open_table(phone, live_server, world, table)
    seats = services.selectors.table_state(table).state.seats
    tap(form, "Spiel", "Rufspiel")
    tap(form, "Spieler", seats[0])
    tap(form, "Mitspieler", seats[1])
    tap(form, "Ergebnis", "gewonnen")
    save(phone, 13)
    expect(phone.get_by_text("Nr. 13 gespeichert")).to_be_visible()
    games = phone.locator("#entry-form fieldset.games")
    expect(games).to_be_in_viewport(ratio=1)
    expect(phone.locator("#entry-form fieldset.games input:focus")).to_have_count(1)
    shot(phone, "01-after-save")
    assert Entry.objects.filter(table=table).count() == 13


@pytest.mark.no_db_variance  # layout and form, nothing stored: not run again on PostgreSQL
def test_a_refused_save_shows_its_error_in_view(live_server: LiveServer, phone: Page, world: World) -> None:
    table = start_table(world, hands=12)
    form = open_table(phone, live_server, world, table)
    seats = services.selectors.table_state(table).state.seats
    tap(form, "Spiel", "Rufspiel")
    tap(form, "Spieler", seats[0])
    tap(form, "Mitspieler", seats[0])  # the same player twice: the engine refuses
    tap(form, "Ergebnis", "gewonnen")
    save(phone, 13)
    error = phone.locator("#error-partner")
    expect(error).to_contain_text("verschieden")
    expect(error).to_be_in_viewport(ratio=1)
    expect(phone.locator('#entry-form input[name="partner"]:focus')).to_have_count(1)
    shot(phone, "02-refused")
    assert Entry.objects.filter(table=table).count() == 12


# --- 2. the defaults follow the game ----------------------------------------------------------


def expect_checked(form: Locator, legend: str, value: str) -> None:
    """The button ``value`` of the group headed ``legend`` is the chosen one (waited for: the
    page's script sets the default after the tap, later on a loaded machine)."""
    group = form.locator("fieldset", has=form.page.locator("legend", has_text=legend)).first
    expect(group.locator(f'input[value="{value}"]')).to_be_checked()


@pytest.mark.no_db_variance  # layout and form, nothing stored: not run again on PostgreSQL
def test_under_dauerdeckel_mungo_and_tout_start_without_deckel(
    live_server: LiveServer, phone: Page, world: World
) -> None:
    table = start_table(world)
    form = open_table(phone, live_server, world, table)
    tap(form, "Spiel", "Rufspiel")
    expect_checked(form, "Deckel", "1")  # Dauerdeckel (001 §4.4)
    tap(form, "Spiel", "Mungo")
    expect_checked(form, "Deckel", "0")  # the most common Mungo is not doubled
    tap(form, "Spiel", "Solo")
    expect_checked(form, "Deckel", "1")
    tout = form.locator(".switches.tout")
    expect(tout).to_be_visible()
    # The Tout switch sits with the game, above the players, not below the Deckel. The three
    # places are read in one go, in the page's own coordinates: read one by one, a scroll between
    # two readings (the tap's own scroll, late on a busy machine) compares two different views.
    tops = form.evaluate(
        """f => [f.querySelector('.switches.tout'), f.querySelector('fieldset.deckel'),
                 [...f.querySelectorAll('legend')].find(l => l.textContent.trim() === 'Spieler')]
                .map(e => e.getBoundingClientRect().top + window.scrollY)"""
    )
    assert tops[0] < tops[1] and tops[0] < tops[2], tops
    tout.locator("label").tap()
    expect_checked(form, "Deckel", "0")
    shot(phone, "03-tout-defaults")
    tout.locator("label").tap()
    expect_checked(form, "Deckel", "1")
    tap(form, "Deckel", "2")  # tapped by hand: stays
    tap(form, "Spiel", "Wenz")
    expect_checked(form, "Deckel", "2")
    tap(form, "Spiel", "Sie")
    expect_checked(form, "Deckel", "2")


# --- 3. a plain hand needs no keyboard ----------------------------------------------------------


class Taps:
    """Counts the taps of one hand; the test never types (no fill, no press)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.form = page.locator("#entry-form")
        self.count = 0

    def on(self, legend: str, label: str) -> None:
        tap(self.form, legend, label)
        self.count += 1

    def switch(self, css: str) -> None:
        self.form.locator(f".switches.{css} label").tap()
        self.count += 1

    def save(self, number: int) -> None:
        save(self.page, number)
        self.count += 1
        expect(self.page.get_by_text(f"Nr. {number} gespeichert")).to_be_visible()


@pytest.mark.no_db_variance  # taps and the keyboard; the storing: tests/scoring
def test_typical_hands_are_tapped_without_the_keyboard(live_server: LiveServer, phone: Page, world: World) -> None:
    table = start_table(world)
    open_table(phone, live_server, world, table)
    counts: dict[str, int] = {}

    def hand(name: str, *steps: tuple[str, str]) -> None:
        number = Entry.objects.filter(table=table).count() + 1
        seats = services.selectors.table_state(table).state.seats
        taps = Taps(phone)
        for legend, label in steps:
            if legend == "switch":
                taps.switch(label)
            else:
                taps.on(legend, label.format(*seats))
        shot(phone, f"04-hand-{name}", full=True)
        taps.save(number)
        counts[name] = taps.count

    hand("Rufspiel", ("Spiel", "Rufspiel"), ("Spieler", "{0}"), ("Mitspieler", "{1}"), ("Ergebnis", "gewonnen"))
    hand("Solo", ("Spiel", "Solo"), ("Spieler", "{2}"), ("Trumpf", "Herz"), ("Ergebnis", "verloren"))
    hand("Wenz", ("Spiel", "Wenz"), ("Spieler", "{1}"), ("Ergebnis", "gewonnen"))
    hand("Bettel", ("Spiel", "Bettel"), ("Spieler", "{3}"), ("Ergebnis", "verloren"))
    tout = (("Spiel", "Solo"), ("switch", "tout"), ("Spieler", "{0}"), ("Trumpf", "Eichel"), ("Ergebnis", "gewonnen"))
    hand("Tout", *tout)
    # Mungo (issue 21): the game, then three players from fewest to most Augen (the fourth has
    # the most by himself), save.
    mungo = Taps(phone)
    mungo.on("Spiel", "Mungo")
    for name in (NAMES[0], NAMES[1], NAMES[2]):
        phone.locator(f'#entry-form [data-order] button[data-player="{name}"]').tap()
        mungo.count += 1
    expect(phone.locator("#entry-form [data-order-shown]")).to_have_text(" < ".join(NAMES[:4]))
    mungo.save(6)
    counts["Mungo"] = mungo.count
    rows = [entry.data for entry in Entry.objects.filter(table=table).order_by("number")]
    assert rows[5]["augen_order"] == [[name] for name in NAMES[:4]]
    assert "deckel" not in rows[5]  # Dauerdeckel, but a Mungo goes without
    assert rows[0]["result"] == "won" and rows[0]["deckel"] == 1 and "augen" not in rows[0]
    assert rows[1] == {**rows[1], "game": "solo", "suit": "herz", "result": "lost"}
    assert rows[3]["result"] == "lost" and rows[3]["game"] == "bettel"
    assert rows[4]["tout"] is True and rows[4]["result"] == "won" and "deckel" not in rows[4]
    print("taps per hand:", counts)
    assert counts["Rufspiel"] <= 5 and counts["Solo"] <= 6
    assert counts == {"Rufspiel": 5, "Solo": 5, "Wenz": 4, "Bettel": 4, "Tout": 6, "Mungo": 5}


# --- 4. the sheet fits the phone ---------------------------------------------------------------
@pytest.mark.no_db_variance  # where things are on the screen; the storing: tests/scoring
def test_every_amount_and_running_total_fits_390px(live_server: LiveServer, phone: Page, world: World) -> None:
    login(phone, live_server, world, "member")
    for players in (4, 5, 6):
        table = start_table(world, players=players, hands=20)
        Table.objects.filter(pk=table.pk).update(name=f"Tisch {players}")
        phone.goto(live_server.url + table.get_absolute_url())
        sheet = phone.locator(".sheet-table")
        sheet.scroll_into_view_if_needed()
        totals = sheet.locator("tr.sum th.num")
        expect(totals).to_have_count(players)
        newest = sheet.locator("#entry-20")
        cells = [*totals.all(), *newest.locator("td.num").all(), *newest.locator("small.running").all()]
        assert len(cells) == 3 * players
        for cell in cells:
            assert in_viewport(cell), (players, cell.text_content(), cell.bounding_box())
        assert phone.evaluate("document.documentElement.scrollWidth") <= WIDTH  # no sideways swipe
        shot(phone, f"05-sheet-{players}")
        # Scrolled down the Liste (its head far above the screen), the totals stay on top.
        sheet.locator("#entry-1").scroll_into_view_if_needed()
        assert sheet.bounding_box()["y"] < -150  # without the sticky head it would be off the screen
        for cell in totals.all():
            assert in_viewport(cell)
        shot(phone, f"05-sheet-{players}-scrolled")
        phone.evaluate("window.scrollTo(0, 0)")
        # The shortened description shows its whole line on a tap.
        what = newest.locator("td.what summary")
        what.tap()
        full = newest.locator(".what-full")
        expect(full).to_be_visible()
        expect(full).to_contain_text("Rufspiel")
        expect(full).to_contain_text("Rufspiel 10 · Deckel ×2")  # and its explanation
        assert in_viewport(full)
        shot(phone, f"05-sheet-{players}-tapped")


# --- 7. a refused correction offers a way forward ----------------------------------------------


def entry_url(table: Table, number: int) -> str:
    entry = Entry.objects.get(table=table, number=number)
    return reverse(
        "scoring:entry_edit",
        kwargs={"slug": "test", "session_id": table.session_id, "table_id": table.pk, "entry_id": entry.pk},
    )


def test_a_refused_correction_links_to_the_later_entry(live_server: LiveServer, phone: Page, world: World) -> None:
    table = start_table(world)
    seats = services.selectors.table_state(table).state.seats
    first = {"game": "rufspiel", "declarer": seats[0], "partner": seats[1], "result": "won", "deckel": 1}
    services.entry_append(table=table, data=first, user=None)
    for _ in range(2):
        services.entry_append(table=table, data=rufspiel(table), user=None)
    login(phone, live_server, world, "scorer")
    phone.goto(live_server.url + entry_url(table, 1))
    form = phone.locator("#entry-form")
    expect(form.locator("#preview")).to_contain_text("Rufspiel 10")  # the preview at once
    # Schwarz after all: the Mungorunde (001 §5.2) would start with Nr. 2, a Rufspiel.
    tap(form, "Ergebnis", "Schwarz")
    form.get_by_label("Grund").fill("Schwarz vergessen")
    with phone.expect_navigation():
        phone.get_by_role("button", name="Korrektur speichern").tap()
    expect(form.locator("#error-__all__")).to_contain_text("Nr. 2 würde dadurch ungültig")
    link = phone.get_by_role("button", name="Nr. 2 korrigieren oder löschen")  # a link drawn as a button
    shot(phone, "07-refused-correction")
    expect(link).to_be_in_viewport(ratio=1)
    assert Entry.objects.get(table=table, number=1).data == first  # nothing changed
    link.tap()
    expect(phone.get_by_role("heading", name="Nr. 2 korrigieren")).to_be_visible()
    assert phone.url.endswith(entry_url(table, 2))

    # A correction that goes through; the audit trail reads on the phone without swiping.
    tap(form, "Ergebnis", "verloren")
    phone.get_by_label("Augen der Spieler").fill("")
    form.get_by_label("Grund").fill("verzählt")
    with phone.expect_navigation():  # the save re-folds the table: slow on a loaded machine
        phone.get_by_role("button", name="Korrektur speichern").tap()
    expect(phone.get_by_text("Nr. 2 korrigiert.")).to_be_visible()
    expect(phone.get_by_text("Änderung:")).to_be_visible()
    shot(phone, "07-after-correction")
    phone.goto(live_server.url + table.get_absolute_url() + "protokoll/")
    expect(phone.get_by_text("verzählt")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= WIDTH
    shot(phone, "07-audit", full=True)


# --- 8. confirmations; the scorer who closed an evening reopens it the same day ------------------


def test_closing_and_reopening_ask_first(live_server: LiveServer, phone: Page, world: World) -> None:
    table = start_table(world, hands=2)
    session = table.session
    login(phone, live_server, world, "scorer")
    phone.goto(live_server.url + session.get_absolute_url())
    asked: list[str] = []

    def answer(accept: bool) -> None:
        phone.once(
            "dialog", lambda dialog: (asked.append(dialog.message), dialog.accept() if accept else dialog.dismiss())
        )

    answer(False)
    phone.get_by_role("button", name="Abend abschließen").tap()
    assert asked and "abschließen" in asked[-1]
    session.refresh_from_db()
    assert not session.is_closed  # "Abbrechen": nothing happened
    answer(True)
    with phone.expect_navigation():
        phone.get_by_role("button", name="Abend abschließen").tap()
    expect(phone.get_by_text("Der Abend ist abgeschlossen.")).to_be_visible()
    shot(phone, "08-closed")
    answer(True)
    with phone.expect_navigation():
        phone.get_by_role("button", name="Abend wieder öffnen").tap()
    assert "wieder öffnen" in asked[-1]
    session.refresh_from_db()
    assert not session.is_closed


# --- 9. a Doppelkopf hand is corrected with the tap form -----------------------------------------


def test_a_doppelkopf_hand_is_corrected_with_the_tap_form(live_server: LiveServer, phone: Page, world: World) -> None:
    table = start_table(world, rules="doppelkopf")
    hand = {
        "game": "normal",
        "re": ["Sepp Huber", "Zenzi Mayr"],
        "augen": 150,
        "announcements": {"re": ["re"]},
        "extras": [{"side": "re", "kind": "fuchs_gefangen"}],
    }
    services.entry_append(table=table, data=hand, user=None)
    login(phone, live_server, world, "scorer")
    phone.goto(live_server.url + entry_url(table, 1))
    form = phone.locator("#entry-form")
    expect(form.locator('textarea[name="data"]')).to_have_count(0)  # not the JSON editor
    preview = form.locator("#preview")
    expect(preview.locator(".payouts")).to_be_visible()  # at once, before any tap
    first_preview = preview.inner_text()
    re_side = form.locator("fieldset", has=phone.locator("legend", has_text="Re-Partei"))
    expect(re_side.locator("input:checked")).to_have_count(2)
    re_side.locator("label", has_text="Zenzi Mayr").tap()
    re_side.locator("label", has_text="Girgl Lechner").tap()
    expect(preview).not_to_have_text(first_preview)  # the preview follows the taps
    form.get_by_label("Grund").fill("falsche Partei")
    shot(phone, "09-doppelkopf-edit", full=True)
    with phone.expect_navigation():
        form.get_by_role("button", name="Korrektur speichern").tap()
    expect(phone.get_by_text("Nr. 1 korrigiert.")).to_be_visible()
    assert Entry.objects.get(table=table, number=1).data == {**hand, "re": ["Sepp Huber", "Girgl Lechner"]}


# --- 5. the table state speaks when it changes ----------------------------------------------------
@pytest.mark.no_db_variance  # the preview and the message; the storing: tests/scoring
def test_a_60_60_by_its_button_says_the_bockrunde_at_once(live_server: LiveServer, phone: Page, world: World) -> None:
    table = start_table(world, hands=3)
    form = open_table(phone, live_server, world, table)
    seats = services.selectors.table_state(table).state.seats
    tap(form, "Spiel", "Rufspiel")
    tap(form, "Spieler", seats[0])
    tap(form, "Mitspieler", seats[1])
    tap(form, "Ergebnis", "60:60")  # a tie line: its Augen, not typed
    expect(form.locator("#preview")).to_contain_text("Löst aus: Bockrunde")
    save(phone, 4)
    news = phone.get_by_text("Bockrunde: die nächsten 4 Spiele doppelt.")
    expect(news).to_be_in_viewport(ratio=1)
    expect(phone.locator(".table-state")).to_contain_text("Bockrunde · Bock ×2")
    expect(phone.locator("#entry-form fieldset.games")).to_be_in_viewport(ratio=1)
    shot(phone, "05-bockrunde-news")
    assert Entry.objects.get(table=table, number=4).data["augen"] == 60


# --- 10. issue 21: the save button and every total under the thumb, Back never stale ------------

SHOTS21 = Path("/tmp/shots-i21")


@pytest.fixture(scope="module")
def bfcache_browser(playwright: Playwright) -> Iterator[Browser]:
    """Chromium as on a phone: with its back/forward cache, which Playwright turns off by default."""
    browser = launch(playwright, ignore_default_args=["--disable-back-forward-cache"])
    yield browser
    browser.close()


# The plain hands of a long evening (issue 21: 40 entries), before its special rounds begin.
WARM_UP: list[tuple[str, list[tuple[str, str]]]] = [
    (f"{name} {k}", steps)
    for k in range(5)
    for name, steps in (
        ("Rufspiel", [("Spiel", "Rufspiel"), ("Spieler", "{0}"), ("Mitspieler", "{1}"), ("Ergebnis", "gewonnen")]),
        ("Solo", [("Spiel", "Solo"), ("Spieler", "{1}"), ("Trumpf", "Eichel"), ("Ergebnis", "gewonnen")]),
        ("Ruf verloren", [("Spiel", "Rufspiel"), ("Spieler", "{1}"), ("Mitspieler", "{0}"), ("Ergebnis", "verloren")]),
        ("Wenz", [("Spiel", "Wenz"), ("Spieler", "{1}"), ("Ergebnis", "verloren")]),
        ("Bettel", [("Spiel", "Bettel"), ("Spieler", "{0}"), ("Ergebnis", "gewonnen")]),
    )
]

# An evening in taps: (legend, label) steps; "{0}" is the first player of the hand, "{1}" the
# second; ("event", kind) starts a special round from "Ereignis eintragen". Every game kind, a
# Rufspiel with all it can have, a 60:60 that starts a Bockrunde, hands in it, a Stöcklesrunde.
EVENING: list[tuple[str, list[tuple[str, str]]]] = [
    (
        "Rufspiel",
        [
            ("Spiel", "Rufspiel"),
            ("Spieler", "{0}"),
            ("Mitspieler", "{1}"),
            ("Gerufen", "Schell"),
            ("Ergebnis", "gewonnen"),
            ("Laufende", "3"),
            ("Gestoßen", "Schuss"),
            ("Deckel", "2"),
        ],
    ),
    ("Solo", [("Spiel", "Solo"), ("Spieler", "{1}"), ("Trumpf", "Herz"), ("Ergebnis", "verloren")]),
    ("Wenz", [("Spiel", "Wenz"), ("Spieler", "{0}"), ("Ergebnis", "gewonnen"), ("Laufende", "2")]),
    ("Bettel", [("Spiel", "Bettel"), ("Spieler", "{1}"), ("Ergebnis", "verloren")]),
    *WARM_UP,
    ("Rufspiel 60:60", [("Spiel", "Rufspiel"), ("Spieler", "{0}"), ("Mitspieler", "{1}"), ("Ergebnis", "60:60")]),
    (
        "Rufspiel Bock",
        [
            ("Spiel", "Rufspiel"),
            ("Spieler", "{1}"),
            ("Mitspieler", "{0}"),
            ("Ergebnis", "Schneider"),
            ("Gestoßen", "Re"),
        ],
    ),
    ("Solo Bock", [("Spiel", "Solo"), ("Spieler", "{0}"), ("Trumpf", "Laub"), ("Ergebnis", "gewonnen")]),
    ("Stöcklesrunde", [("event", "stoecklesrunde")]),
    ("Wenz 2", [("Spiel", "Wenz"), ("Spieler", "{0}"), ("Ergebnis", "verloren")]),
    ("Solo 2", [("Spiel", "Solo"), ("Spieler", "{1}"), ("Trumpf", "Schell"), ("Ergebnis", "gewonnen")]),
    ("Bettel 2", [("Spiel", "Bettel"), ("Spieler", "{0}"), ("Ergebnis", "gewonnen")]),
    ("Solo 3", [("Spiel", "Solo"), ("Spieler", "{0}"), ("Trumpf", "Eichel"), ("Ergebnis", "verloren")]),
    (
        "Tout",
        [("Spiel", "Solo"), ("switch", "tout"), ("Spieler", "{0}"), ("Trumpf", "Eichel"), ("Ergebnis", "gewonnen")],
    ),
    ("Sie", [("Spiel", "Sie"), ("Spieler", "{1}")]),
    ("Mungo", [("Spiel", "Mungo"), ("Spieler?", "{0}"), ("order", "{0}|{1}|{2}")]),
]


SLACK: list[float] = []  # the room left between a tapped button and the bar, for the report

# One reading in the page for a target and the bar (three round trips to the browser each, read
# one by one, were a third of this test's time on a busy machine).
ABOVE_BAR = """el => {
    const box = el.getBoundingClientRect();
    const bar = document.querySelector('.thumb-bar').getBoundingClientRect();
    return {x: box.x, y: box.y, width: box.width, height: box.height, bar: bar.y};
}"""


def above_bar(locator: Locator) -> bool | dict[str, float]:
    """True when fully on the screen and not under the bar at the bottom (a thumb reaches it as
    it is), else where it is, for the failure's message."""
    box = locator.evaluate(ABOVE_BAR)
    assert box["width"] and box["height"], "not rendered"
    SLACK.append(box["bar"] - box["y"] - box["height"])
    ok = box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= WIDTH and box["y"] + box["height"] <= box["bar"]
    return ok or box


TOTALS = """page => {
    const fits = el => { const b = el.getBoundingClientRect();
        return b.x >= 0 && b.y >= 0 && b.right <= innerWidth && b.bottom <= innerHeight; };
    const cells = [...document.querySelectorAll('.thumb-bar [data-strip-total]')];
    return {
        cells: cells.map(c => [c.dataset.stripTotal, c.textContent.trim(), fits(c)]),
        save: fits(document.querySelector('.thumb-bar button.save')),
        sheet: fits(document.querySelector('.thumb-bar a.to-sheet')),
    };
}"""


def check_totals(page: Page, table: Table, where: str) -> None:
    """The save button and every player's current total are on the screen (read in one go)."""
    sheet = services.selectors.table_sheet(table)
    expected = [[name, bare(format_amount(value, table.unit)).strip(), True] for name, value in sheet.final]
    # The bar's totals follow the htmx swap: wait until they read the stored totals.
    expect(page.locator(".thumb-bar [data-strip-total]")).to_have_count(len(sheet.players))
    expect(page.locator(".thumb-bar [data-strip-total]")).to_have_text([text for _, text, _ in expected])
    read = page.evaluate(TOTALS)
    assert read["cells"] == expected, (where, read["cells"])
    assert read["save"] and read["sheet"], (where, read)


def enter(page: Page, table: Table, steps: list[tuple[str, str]], name: str) -> int:
    """One entry in taps, each target checked on the screen before it is tapped; the scrolls the
    Schreiber would need (none) are counted as changes of the scroll position."""
    form = page.locator("#entry-form")
    seats = services.selectors.table_state(table).state.seats
    number = Entry.objects.filter(table=table, kind="hand").count() + 1  # as on paper: events are no hands
    start = page.evaluate("window.scrollY")
    taps = 0
    for legend, label in steps:
        if legend == "event":
            events = page.locator("details.events")
            target = events.locator("summary")
            assert above_bar(target) is True, (name, "Ereignis")
            target.tap()
            event = events.locator("form", has=page.locator('input[name="prefix"][value="special_round"]'))
            event.locator("select").first.select_option(label)
            # An event is no game: its form under "Ereignis eintragen" may be a scroll away.
            with page.expect_response(lambda response: "/ereignis/" in response.url):
                event.get_by_role("button").tap()
            expect(page.locator(".htmx-settling, .htmx-swapping, .htmx-request")).to_have_count(0)
            return taps + 3
        if legend == "order":  # a Mungo by taps: the players from fewest to most Augen
            for player in label.format(*seats).split("|"):
                target = form.locator(f'[data-order] button[data-player="{player}"]')
                assert above_bar(target) is True, (name, "Augen", player)
                target.tap()
                taps += 1
            continue
        if legend == "switch":
            target = form.locator(f".switches.{label} label")
        else:
            # "Spieler?": whose Stöckle a Mungo is, asked only in a Stöcklesrunde (001 §5.4).
            group = form.locator("fieldset", has=page.locator("legend", has_text=legend.rstrip("?"))).first
            if legend.endswith("?") and not group.is_visible():
                continue
            target = group.locator("label", has_text=label.format(*seats)).first
        where = above_bar(target)
        if where is not True:
            shot21(page, f"failed-{name}")
        assert where is True, (name, legend, label, where)
        target.tap()
        taps += 1
    expect(form.locator("#preview .payouts")).to_be_visible()
    expect(page.locator(".thumb-bar .save-amount")).not_to_be_empty()  # the amount it books
    save(page, number)
    assert page.evaluate("window.scrollY") == start or start == 0 and number == 1, (name, "scrolled")
    return taps + 1


# What it checks is where things are on the screen; the saves it makes go through the services
# the other phone tests and the score sheet's test run on PostgreSQL too: run once.
# Four (the usual table) and six (the most buttons and totals; five lies between them, and the
# 390 px tests of every amount cover it): each a 40-entry evening, so the sheet grows long.
@pytest.mark.long(90)
@pytest.mark.no_db_variance
@pytest.mark.parametrize("players", [4, 6])
def test_the_save_button_and_every_total_stay_under_the_thumb(
    live_server: LiveServer, bfcache_browser: Browser, world: World, players: int
) -> None:
    table = start_table(world, players=players)
    context = bfcache_browser.new_context(
        locale="de-DE",
        viewport={"width": WIDTH, "height": HEIGHT},
        has_touch=True,
        is_mobile=True,
        device_scale_factor=2,
        service_workers="block",  # the phone's engine in the background is the offline tests' (conftest)
    )
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        login(page, live_server, world, "scorer")
        # Evening page → table → saves → Back: the evening page shows the current count and totals.
        page.goto(live_server.url + table.session.get_absolute_url())
        with page.expect_navigation():
            page.get_by_role("link", name=table.name).first.tap()
        check_totals(page, table, "opened")
        taps: dict[str, int] = {}
        stoeckle = False
        shots: list[str] = []
        for name, steps in EVENING:
            try:
                taps[name] = enter(page, table, steps, name)
            except Exception:
                shot21(page, f"failed-{players}-{name}")
                raise
            check_totals(page, table, name)
            stoeckle = stoeckle or page.locator(".table-state .stoeckle").count() > 0
            if name in ("Rufspiel", "Rufspiel 60:60") or stoeckle and not shots:
                shots.extend([name] if stoeckle else [])
                shot21(page, f"{players}-{name.replace(' ', '-').replace(':', '-')}")
        assert stoeckle, "the evening reached the Stöcklesrunde"
        assert len(EVENING) == 40
        print(players, "players: taps per entry, 0 scrolls:", taps, "least room above the bar:", round(min(SLACK)))
        SLACK.clear()
        count = Entry.objects.filter(table=table).count()
        assert count == len(EVENING)
        page.go_back()
        expect(page.locator("body")).to_contain_text(table.name)
        sheet = services.selectors.table_sheet(table)
        card = page.locator("article", has_text=table.name).first
        expect(card).to_contain_text(f"Einträge: {count}")
        for name, value in sheet.final:
            expect(card).to_contain_text(f"{name} {format_amount(value, table.unit)}")
        shot21(page, f"{players}-back")
    finally:
        context.close()


def shot21(page: Page, name: str) -> None:
    SHOTS21.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS21 / f"{name}.png"))


# --- issue 30: two phones at one table -------------------------------------------------------------

SHOTS30 = Path("/tmp/shots-i30")


def test_two_phones_one_hand_the_same_game_or_another(live_server: LiveServer, phone: Page, world: World) -> None:
    """Another phone saves Nr. 21 while this one types it: this one shows that hand in full above
    the bar with the two choices (no plain save); "the same game" discards, "another game"
    saves it as Nr. 22."""
    SHOTS30.mkdir(exist_ok=True)
    table = start_table(world, hands=20)
    form = open_table(phone, live_server, world, table)

    def type_hand_while_the_other_phone_saves() -> None:
        seats = services.selectors.table_state(table).state.seats
        tap(form, "Spiel", "Rufspiel")
        tap(form, "Spieler", seats[0])
        tap(form, "Mitspieler", seats[1])
        tap(form, "Ergebnis", "gewonnen")
        services.entry_append(table=table, data=rufspiel(table, augen=45), user=None)  # the other phone
        save(phone, 21)

    type_hand_while_the_other_phone_saves()
    choice = phone.locator("#two-phones")
    expect(choice).to_contain_text("Nr. 21")
    expect(choice).to_contain_text("Rufspiel")
    expect(phone.locator(".thumb-bar button.save")).to_be_hidden()  # no plain save to double the hand
    assert above_bar(choice) is True, above_bar(choice)  # in full, not under the bar
    assert phone.evaluate("document.documentElement.scrollWidth") <= WIDTH  # no sideways scroll
    phone.screenshot(path=str(SHOTS30 / "two-phones-390.png"))
    phone.get_by_role("button", name="Das war dasselbe Spiel (verwerfen)").tap()
    expect(phone.get_by_text("Verworfen")).to_be_visible()
    assert Entry.objects.filter(table=table).count() == 21

    # The next hand again as the other phone saves it: this time it was another game.
    services.entry_undo_last(table=table, user=None)
    phone.reload()
    type_hand_while_the_other_phone_saves()
    with phone.expect_response(lambda response: "/eintragen/" in response.url):
        phone.get_by_role("button", name="Ein anderes Spiel (als Nr. 22 speichern)").tap()
    expect(phone.get_by_text("Nr. 22 gespeichert")).to_be_visible()
    assert list(Entry.objects.filter(table=table, number__gt=20).values_list("data__augen", flat=True)) == [45, None]
    phone.screenshot(path=str(SHOTS30 / "two-phones-another-390.png"))
