"""The German "Erste Schritte" (docs/erste-schritte.md) walked as its reader would, on a 390 px
phone, in the demo club: every button and page the text names in **„…“** is on the pages it
walks, and every picture it shows exists. ``DOCS_SCREENSHOTS=1`` writes the pictures into
docs/erste-schritte/ (run it after changing a page the guide shows, and commit the pictures);
without it they go to a temporary folder, so a test run leaves the checkout as it was."""

import os
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client, override_settings
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from clubs.models import Club

DOC = Path(__file__).resolve().parents[2] / "docs" / "erste-schritte.md"
PICTURES = DOC.parent / "erste-schritte"


def login(page: Page, live_server: LiveServer, username: str) -> None:
    from django.contrib.auth import get_user_model

    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )


def follow(page: Page, text: str) -> None:
    """Tap the link (or button-styled link) reading exactly ``text``, and wait for its page."""
    with page.expect_navigation():
        page.locator("a", has_text=re.compile(f"^\\s*{re.escape(text)}\\s*$")).first.click()


def named_in_the_guide() -> set[str]:
    """The labels the guide tells its reader to look for: **„Neuer Spielabend“**."""
    return set(re.findall(r"\*\*„([^“]+)“\*\*", DOC.read_text(encoding="utf-8")))


def pictures_in_the_guide() -> list[str]:
    return re.findall(r"\]\(erste-schritte/([^)]+\.png)\)", DOC.read_text(encoding="utf-8"))


def test_every_picture_the_guide_shows_exists_and_every_one_is_shown() -> None:
    shown = pictures_in_the_guide()
    assert shown and len(shown) == len(set(shown))
    assert sorted(shown) == sorted(p.name for p in PICTURES.glob("*.png"))


@pytest.mark.no_db_variance  # pages read through the services the other tests run on both
def test_the_guide_walked_on_a_phone_in_the_demo(live_server: LiveServer, browser: Browser, tmp_path: Path) -> None:
    with override_settings(DEBUG=True):
        call_command("seed_demo", verbosity=0)
    club = Club.objects.get(slug="demo")
    folder = PICTURES if os.environ.get("DOCS_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(exist_ok=True)
    context = browser.new_context(
        locale="de-DE", viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, device_scale_factor=1
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    seen: list[str] = []
    taken: list[str] = []

    def shot(name: str, full: bool = False) -> None:
        seen.append(page.locator("body").inner_text())
        page.screenshot(path=str(folder / f"{name}.png"), full_page=full)
        taken.append(f"{name}.png")

    base = live_server.url

    def from_the_overview(*links: str) -> None:
        """The club's Übersicht, then the links the guide names, one after the other."""
        page.goto(base + club.get_absolute_url())
        for text in links:
            follow(page, text)

    page.goto(base + "/accounts/login/")
    shot("01-anmelden")
    login(page, live_server, "demo-owner")
    page.goto(base + club.get_absolute_url())
    shot("02-uebersicht", full=True)
    follow(page, "Spieler")
    shot("03-spieler")
    from_the_overview("Zugänge")
    shot("04-zugaenge")
    from_the_overview("Regeln")
    shot("05-regeln")

    # The first evening: a new Spielabend, a table of four, one Rufspiel by taps.
    from_the_overview("Neuer Spielabend")
    shot("06-neuer-spielabend")
    with page.expect_navigation():
        page.get_by_role("button", name="Anlegen").click()
    expect(page.locator("h2", has_text="Tisch starten")).to_be_visible()  # straight on to the first table
    for seat in range(4):
        page.locator(f"select[name=seat_{seat}]").select_option(index=seat + 1)
    shot("07-tisch-starten", full=True)
    with page.expect_navigation():
        page.get_by_role("button", name="Tisch starten").click()
    expect(page.locator(".thumb-bar")).to_be_visible()
    shot("08-tisch")
    form = page.locator("#entry-form")
    taps = (("Spiel", "Rufspiel"), ("Spieler", 0), ("Mitspieler", 1), ("Gerufen", "Eichel"), ("Ergebnis", "gewonnen"))
    for legend, label in taps:
        group = form.locator("fieldset", has=page.locator("legend", has_text=legend)).first
        labels = group.locator("label:visible")
        (labels.nth(label) if isinstance(label, int) else labels.filter(has_text=label).first).tap()
    expect(form.locator("#preview .payouts")).to_be_visible()
    shot("09-spiel-eingeben")
    with page.expect_response(lambda response: "/eintragen/" in response.url):
        page.get_by_role("button", name="Nr. 1 speichern").tap()
    expect(page.locator(".htmx-settling, .htmx-swapping, .htmx-request")).to_have_count(0)
    page.locator(".sheet-table").scroll_into_view_if_needed()
    shot("10-liste")
    with page.expect_navigation():  # the evening, by its date above the table
        page.locator("nav[aria-label=breadcrumb] a").last.click()
    shot("11-abend", full=True)

    # Standings, the championship, the open tournaments, the settings.
    from_the_overview("Tabelle")
    shot("12-tabelle")
    from_the_overview("Meisterschaft")
    shot("13-meisterschaft")
    from_the_overview("Offene Turniere", "Neues Turnier")
    shot("14-neues-turnier")
    from_the_overview("Einstellungen")
    shot("15-einstellungen")
    context.close()

    visible = "\n".join(seen)
    missing = sorted(label for label in named_in_the_guide() if label not in visible)
    assert not missing, f"the guide names what its pages do not show: {missing}"
    assert sorted(taken) == sorted(pictures_in_the_guide())
