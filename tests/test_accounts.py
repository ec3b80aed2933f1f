"""Django auth at /accounts/, behind django-axes."""

from collections.abc import Callable

from django.test import Client, override_settings
from django.urls import reverse

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
