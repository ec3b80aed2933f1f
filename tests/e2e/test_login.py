import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

# Not run again on PostgreSQL: logging in reads one row; logins are tested on both databases by the
# Django client tests (tests/test_accounts.py, tests/clubs).
pytestmark = pytest.mark.no_db_variance


def test_demo_owner_logs_in_and_sees_the_club(live_server: LiveServer, page: Page) -> None:
    call_command("seed_demo", "--force")
    page.goto(live_server.url + "/")
    expect(page.get_by_role("heading", name="Anmelden")).to_be_visible()
    page.get_by_label("Benutzername").fill("demo-owner")
    page.get_by_label("Passwort").fill("demo")
    page.get_by_role("button", name="Anmelden").click()

    expect(page.get_by_role("heading", name="Meine Vereine")).to_be_visible()
    page.get_by_role("link", name="Schafkopf-Freunde Demo").click()
    expect(page.get_by_role("heading", name="Schafkopf-Freunde Demo")).to_be_visible()
    expect(page.get_by_text("Ihre Rolle: Vorstand")).to_be_visible()

    page.get_by_role("link", name="Spieler", exact=True).click()
    expect(page.get_by_role("cell", name="Resi Kainz")).to_be_visible()

    page.get_by_role("button", name="English").click()
    expect(page.get_by_role("heading", name="Players")).to_be_visible()
