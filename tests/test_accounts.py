"""Django auth at /accounts/, behind django-axes."""

from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from django.urls import reverse

from clubs.checks import check_username_clashes
from clubs.logins import find_login, username_problem
from tests.factories import PASSWORD, World


def _login(client: Client, username: str, password: str) -> int:
    return client.post(reverse("login"), {"username": username, "password": password}).status_code


def test_login_lands_on_my_clubs(world: World, client: Client) -> None:
    response = client.post(reverse("login"), {"username": "test-owner", "password": PASSWORD})
    assert response.url == reverse("clubs:my_clubs")


def test_login_returns_to_the_page_asked_for(world: World, client: Client) -> None:
    home = reverse("clubs:home", kwargs={"slug": world.club.slug})
    login_url = client.get(home).url
    response = client.post(login_url, {"username": "test-member", "password": PASSWORD, "next": home})
    assert response.url == home


def test_logout_is_a_post(world: World, client_as: Callable[[str], Client]) -> None:
    client = client_as("member")
    assert client.post(reverse("logout")).status_code == 302
    assert client.get(reverse("clubs:my_clubs")).status_code == 302


def test_password_change(world: World, client_as: Callable[[str], Client]) -> None:
    client = client_as("member")
    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": "Neues-Passwort-42", "new_password2": "Neues-Passwort-42"},
    )
    assert response.url == reverse("password_change_done")
    world.users["member"].refresh_from_db()
    assert world.users["member"].check_password("Neues-Passwort-42")


@override_settings(AXES_ENABLED=True)
def test_five_wrong_passwords_lock_the_login_out(world: World, client: Client) -> None:
    for _ in range(4):
        assert _login(client, "test-owner", "falsch") == 200
    assert _login(client, "test-owner", "falsch") == 429
    assert _login(client, "test-owner", PASSWORD) == 429
    assert _login(client, "test-member", PASSWORD) == 302  # another login from the same address


def test_a_login_is_found_whatever_the_case_and_width_typed(world: World, client: Client) -> None:
    """Issue 22, finding 7: ``TEST-Owner`` and the full-width ``ｔest-owner`` are ``test-owner``."""
    for typed in ("TEST-Owner", "\uff54est-owner", "test-owner"):
        response = client.post(reverse("login"), {"username": typed, "password": PASSWORD})
        assert response.url == reverse("clubs:my_clubs"), typed
        assert int(client.session["_auth_user_id"]) == world.users["owner"].pk
        client.post(reverse("logout"))


@override_settings(AXES_ENABLED=True)
def test_the_lockout_counts_a_name_in_every_spelling_as_one(world: World, client: Client) -> None:
    for typed in ("test-owner", "TEST-OWNER", "\uff54est-owner", "Test-Owner"):
        assert _login(client, typed, "falsch") == 200
    assert _login(client, "tEST-owner", "falsch") == 429
    assert _login(client, "test-owner", PASSWORD) == 429


def test_logins_that_clashed_before_the_rule_are_kept_and_reported(world: World) -> None:
    """Decision (clubs/checks.py): existing clashes stay and log in by their exact name; the
    check that ``migrate`` runs names them; no new one can be added."""
    assert check_username_clashes(databases=["default"]) == []
    twin = get_user_model().objects.create_user(username="Test-Owner", password=PASSWORD)
    warnings = check_username_clashes(databases=["default"])
    assert [w.id for w in warnings] == ["clubs.W001"] and "Test-Owner, test-owner" in warnings[0].msg
    assert find_login("Test-Owner") == twin and find_login("test-owner") == world.users["owner"]
    assert username_problem("TEST-OWNER") is not None


def test_the_admin_refuses_a_login_of_another_ones_name(world: World, admin_client: Client) -> None:
    response = admin_client.post(
        reverse("admin:auth_user_add"),
        {
            "username": "\uff34est-Owner",
            "password1": "Ein-langes-Passwort-7",
            "password2": "Ein-langes-Passwort-7",
            "usable_password": "true",
        },
    )
    assert response.status_code == 200
    assert "Diesen Benutzernamen gibt es schon" in response.content.decode()
