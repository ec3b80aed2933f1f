"""No page breaks its Content-Security-Policy (issue 17): Chromium reports no violation — no
blocked script, style or image — on the pages a club uses, also while htmx swaps in the live
preview of a hand; screenshots at 390 px show they still look right."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from clubs.models import Member
from scoring import services
from tests.e2e.test_score_sheet import PLAYERS, login
from tests.factories import World, make_tournament, rufspiel

# Not run again on PostgreSQL: the policy and the refusals at the field happen before anything is
# stored, whatever the database (make test, tests/conftest.py).
pytestmark = pytest.mark.no_db_variance

SHOTS = Path("/tmp/shots-i17")

# Installed before any page script: every violation the browser reports lands in a list.
WATCH = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""


def violations(page: Page, console: list[str]) -> list[str]:
    return [*page.evaluate("window.__csp"), *(m for m in console if "Content Security Policy" in m)]


@pytest.mark.service_worker  # the service worker and the engine's worker under the policy too
def test_the_pages_of_a_club_report_no_violation(live_server: LiveServer, page: Page, world: World) -> None:
    session = services.session_create(club=world.club, date="2026-11-20", place="Krone", user=None)
    members = [Member.objects.get(club=world.club, display_name=name) for name in PLAYERS]
    table = services.table_start(session=session, members=members, rules="allgaeu", user=None)
    for _ in range(3):
        services.entry_append(table=table, data=rufspiel(table), user=None)
    services.session_close(session=session, user=None)
    tournament = make_tournament(world.club)
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    page.add_init_script(WATCH)
    SHOTS.mkdir(exist_ok=True)

    page.goto(live_server.url + reverse("login"))
    assert page.locator("form").count() >= 1
    assert violations(page, console) == []

    login(page, live_server, world, "owner")
    slug = {"slug": world.club.slug}
    pages = {
        "club": reverse("clubs:home", kwargs=slug),
        "members": reverse("clubs:member_list", kwargs=slug),
        "session": session.get_absolute_url(),
        "table": table.get_absolute_url(),
        "rules": reverse("scoring:club_rules", kwargs=slug),
        "kasse": reverse("scoring:kasse", kwargs=slug),
        "standings": reverse("stats:standings", kwargs=slug),
        "tournament": reverse("tournaments:detail", kwargs={**slug, "tournament_id": tournament.pk}),
        "live": reverse("tournaments:live", kwargs={**slug, "tournament_id": tournament.pk}),
    }
    for name, path in pages.items():
        response = page.goto(live_server.url + path)
        assert response is not None and response.ok, (name, response and response.status)
        page.wait_for_load_state("networkidle")
        page.screenshot(path=str(SHOTS / f"csp-{name}.png"), full_page=True)
        assert violations(page, console) == [], name

    # htmx at work: reopen the evening and let the preview swap in while a hand is tapped.
    services.session_reopen(session=session, user=None)
    page.goto(live_server.url + table.get_absolute_url())
    form = page.locator("#entry-form")
    form.locator("label", has_text="Rufspiel").click()
    form.locator("fieldset").nth(1).locator("label", has_text="Zenzi Mayr").click()
    form.locator("fieldset").nth(2).locator("label", has_text="Girgl Lechner").click()
    page.get_by_text("Augen gezählt?").click()  # issue 13: typed Augen sit behind the result buttons
    page.get_by_label("Augen der Spieler").fill("72")
    expect(page.locator("#preview")).to_contain_text("Deckel ×2")
    page.screenshot(path=str(SHOTS / "csp-table-preview.png"), full_page=True)
    assert violations(page, console) == []


def test_a_hostile_json_hand_is_refused_at_the_field_in_the_browser(
    live_server: LiveServer, page: Page, world: World
) -> None:
    """Issue 17 on the phone: a hand with NUL in a name typed into the JSON fallback is refused at
    the field, in German, the sheet stays as it was, and no CSP violation on the way."""
    session = services.session_create(club=world.club, date="2026-11-20", place="Krone", user=None)
    members = [Member.objects.get(club=world.club, display_name=name) for name in PLAYERS]
    table = services.table_start(session=session, members=members, rules="allgaeu", user=None)
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    page.add_init_script(WATCH)
    login(page, live_server, world, "scorer")
    page.goto(live_server.url + table.get_absolute_url())
    page.get_by_text("Als JSON eingeben").click()
    hand = '{"game": "rufspiel", "declarer": "Sepp\\u0000Huber", "partner": "Zenzi Mayr", "augen": 70, "deckel": 1}'
    page.locator("#json-data").fill(hand)
    page.locator("details.as-json button[type=submit]").click()
    expect(page.locator("#error-data")).to_contain_text("U+0000")
    page.locator("details.as-json").scroll_into_view_if_needed()
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "json-refused.png"), full_page=True)
    assert table.entries.count() == 0
    assert violations(page, console) == []


def test_the_rules_form_refuses_a_price_beyond_its_maximum(live_server: LiveServer, page: Page, world: World) -> None:
    login(page, live_server, world, "owner")
    page.goto(live_server.url + reverse("scoring:club_rules", kwargs={"slug": world.club.slug}))
    field = page.locator("#id_price_rufspiel")
    expect(field).to_have_attribute("max", "1000")  # the browser knows the maximum too
    field.evaluate("input => input.removeAttribute('max')")  # as a careless client would send it
    field.fill("3000000000")
    field.press("Enter")
    expect(page.get_by_text("kleiner oder gleich 1000").first).to_be_visible()
    page.locator("#id_price_rufspiel").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "rules-maximum.png"))
