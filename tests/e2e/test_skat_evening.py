"""Issue 32 "done when": a Skat evening of 36 games at a table of four on a 390 px touch phone,
every game entered by taps (the typical game in at most five taps, none of them needing a
scroll), then the Spielliste and the Seeger-Fabian Auswertung read off the page and recounted here
from the games alone (skat.md §2–§6; no engine call). Set SHOTS_DIR to keep the screenshots."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

from clubs.models import Member
from scoring import services
from scoring.models import Entry
from tests.e2e.test_score_sheet import login
from tests.factories import World

WIDTH, HEIGHT = 390, 844
PLAYERS = ["Sepp Huber", "Zenzi Mayr", "Girgl Lechner", "Vroni Brandl"]
GRUND = {"karo": 9, "herz": 10, "pik": 11, "kreuz": 12, "grand": 24}
NULL = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}

# Twelve games a club evening sees, three times over: (game, ohne, Spitzen, Hand, result).
PATTERN: list[tuple[str, bool, int, bool, str]] = [
    ("kreuz", False, 1, False, "won"),
    ("pik", False, 2, False, "won"),
    ("herz", True, 1, False, "won"),
    ("karo", False, 1, False, "lost"),
    ("grand", False, 1, False, "won"),
    ("null", False, 0, False, "won"),
    ("kreuz", False, 2, False, "won_schneider"),
    ("grand", True, 2, False, "lost"),
    ("herz", False, 1, True, "won"),
    ("null", False, 0, False, "lost"),
    ("pik", False, 3, False, "won"),
    ("karo", True, 3, False, "lost_schneider"),
]
GAMES = 36


def value(game: str, spitzen: int, hand: bool, result: str) -> int:
    """skat.md §2/§3: Grundwert × (Spitzen + Spiel + Hand + Schneider), or a Null's fixed value."""
    if game == "null":
        return NULL[(hand, False)]
    return GRUND[game] * (spitzen + 1 + hand + ("schneider" in result))


def shot(page: Page, name: str, full: bool = False) -> None:
    where = os.environ.get("SHOTS_DIR")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(where) / f"skat-{name}.png"), full_page=full)


def button(form: Locator, name: str, value: str) -> Locator:
    """The pill (or switch) whose input is ``name`` = ``value``."""
    return form.locator(f'label:has(> input[name="{name}"][value="{value}"])')


def on_screen(locator: Locator) -> bool:
    """Wholly on the screen and above the bar under the thumb (which covers the page below it)."""
    box = locator.bounding_box()
    bar = locator.page.locator("#thumb-bar").bounding_box()
    bottom = bar["y"] if bar is not None else HEIGHT
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= bottom and box["x"] + box["width"] <= WIDTH


def cells(page: Page, selector: str) -> list[str]:
    return [text.strip() for text in page.locator(selector).all_inner_texts()]


@pytest.mark.long(70)
@pytest.mark.no_db_variance  # the taps and the page; Skat's storing: tests/scoring, tests/standings
def test_a_36_game_evening_at_a_table_of_four_by_taps(live_server: LiveServer, phone: Page, world: World) -> None:
    session = services.session_create(club=world.club, date="2026-11-20", place="Krone", user=None)
    members = [Member.objects.get(club=world.club, display_name=name) for name in PLAYERS]
    table = services.table_start(session=session, members=members, rules="skat-seeger", user=None)
    # A deadline, not a measure: 36 saves on the shared two-core machine of `make test` (where
    # one save now and then waits for the other tests) may not fail the evening.
    phone.set_default_timeout(30_000)
    login(phone, live_server, world, "scorer")
    phone.goto(live_server.url + table.get_absolute_url())
    form = phone.locator("#entry-form")

    played: list[dict[str, Any]] = []
    taps_per_game = []
    for i in range(GAMES):
        game, ohne, spitzen, hand, result = PATTERN[i % len(PATTERN)]
        dealer = i % 4  # skat.md §1: seat 1 deals first, clockwise; at four the dealer sits out
        in_game = [PLAYERS[(dealer + k) % 4] for k in (1, 2, 3)]
        declarer = in_game[(i * 7) % 3]
        taps = [button(form, "game", game), button(form, "declarer", declarer)]
        if game != "null":
            if ohne:
                taps.append(button(form, "mit_ohne", "ohne"))
            taps.append(button(form, "spitzen", str(spitzen)))
        if hand:
            taps.append(form.locator('label:has(> input[name="hand"])'))
        taps.append(button(form, "result", result))
        save = phone.get_by_role("button", name=f"Nr. {i + 1} speichern")
        taps_per_game.append(len(taps) + 1)
        if i == 0:
            shot(phone, "form-empty")
        for locator in taps:
            if i < len(PATTERN):
                # Each button is on the screen when its turn comes, for every kind of game: no
                # scroll (the game's fields appear below the ones tapped, the save button stays
                # under the thumb). The layout is the same for the later rounds of the pattern.
                expect(locator).to_be_visible()
                assert on_screen(locator), f"game {i + 1}: a tap needs a scroll {locator.bounding_box()}"
            locator.tap()
        if i < len(PATTERN):
            box = save.bounding_box()
            assert box is not None and box["y"] + box["height"] <= HEIGHT
        if i == 0:
            expect(phone.locator("#preview .game-value")).to_contain_text("Spielwert 24")
            shot(phone, "form-typical")
        with phone.expect_response(lambda response: "/eintragen/" in response.url):
            save.tap()
        expect(phone.locator(".htmx-settling, .htmx-swapping, .htmx-request")).to_have_count(0)
        expect(phone.get_by_text(f"Nr. {i + 1} gespeichert")).to_be_visible()
        played.append({"declarer": declarer, "value": value(game, spitzen, hand, result), "won": "won" in result})
    assert Entry.objects.filter(table=table).count() == GAMES
    assert max(taps_per_game) <= 6 and sorted(taps_per_game)[len(taps_per_game) // 2] <= 5

    # --- the recount, from the games alone --------------------------------------------------------
    entries = [g["value"] if g["won"] else -2 * g["value"] for g in played]
    totals = dict.fromkeys(PLAYERS, 0)
    won = dict.fromkeys(PLAYERS, 0)
    lost = dict.fromkeys(PLAYERS, 0)
    for game, entry in zip(played, entries, strict=True):
        totals[game["declarer"]] += entry
        (won if game["won"] else lost)[game["declarer"]] += 1
    all_lost = sum(lost.values())
    # skat.md §6 at four: 50 per won game, −50 per lost one, +30 for every game another lost.
    seeger = {p: totals[p] + 50 * (won[p] - lost[p]) + 30 * (all_lost - lost[p]) for p in PLAYERS}

    # --- read off the page ----------------------------------------------------------------------
    phone.goto(live_server.url + table.get_absolute_url() + "#liste")
    found = phone.locator("td[data-cell]").evaluate_all("cells => cells.map(c => c.dataset.cell)")
    written = [int(c) for c in reversed(found) if c]  # newest first on the page
    assert written == entries
    assert [int(t) for t in cells(phone, "th[data-list-total]")] == [totals[p] for p in PLAYERS]
    assert cells(phone, "th[data-list-games]") == [f"{won[p]} / {lost[p]}" for p in PLAYERS]
    # The running total under each game: the last row (on top) carries the final totals.
    top = phone.locator("tr[data-list-row]").first
    assert [int(t) for t in top.locator("small.running").all_inner_texts()] == [totals[p] for p in PLAYERS]
    shot(phone, "spielliste")

    def row(name: str) -> list[str]:
        return cells(phone, f'tr[data-row="{name}"] td')

    assert row("points") == [str(totals[p]) for p in PLAYERS]
    assert row("won") == [str(won[p]) for p in PLAYERS]
    assert row("lost") == [str(lost[p]) for p in PLAYERS]
    assert row("won_lost") == [str(50 * (won[p] - lost[p])) for p in PLAYERS]
    assert row("others_lost") == [f"{all_lost - lost[p]} → {30 * (all_lost - lost[p])}" for p in PLAYERS]
    assert row("total") == [str(seeger[p]) for p in PLAYERS]
    phone.locator("#auswertung").scroll_into_view_if_needed()
    shot(phone, "auswertung")
    # Nothing wider than the phone.
    assert phone.evaluate("document.documentElement.scrollWidth") <= WIDTH

    # The evening's page adds up the same Seeger-Fabian totals (the ledger).
    url = reverse("scoring:session", kwargs={"slug": world.club.slug, "session_id": session.pk})
    phone.goto(live_server.url + url)
    for player in PLAYERS:
        assert re.search(rf"{player}\D*{seeger[player]}", phone.locator("main").inner_text().replace(".", ""))
