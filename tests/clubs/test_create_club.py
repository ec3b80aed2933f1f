"""`manage.py create_club`: a new installation reaches its first club and owner without the admin."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from clubs.models import Club, Membership, Role

pytestmark = pytest.mark.django_db


def test_create_club_makes_the_owner_login_and_the_club() -> None:
    call_command("create_club", "Schafkopf-Freunde Hintertupfing", owner="sepp", password="ein-langes-Passwort-7")
    club = Club.objects.get()
    assert club.name == "Schafkopf-Freunde Hintertupfing"
    assert club.slug == "schafkopf-freunde-hintertupfing"
    membership = Membership.objects.get(club=club)
    assert membership.user.username == "sepp" and membership.role == Role.OWNER
    client = Client()
    assert client.login(username="sepp", password="ein-langes-Passwort-7")
    assert client.get(reverse("clubs:home", kwargs={"slug": club.slug})).status_code == 200


def test_create_club_gives_an_existing_login_the_new_club() -> None:
    user = get_user_model().objects.create_user(username="vroni", password="x")
    call_command("create_club", "Zweiter Verein", owner="vroni")
    assert Membership.objects.get(user=user).role == Role.OWNER


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"owner": "sepp"}, "braucht ein Passwort"),  # no terminal to ask on
        ({"owner": "sepp", "password": "123"}, "zu kurz"),
        ({"owner": "sepp mit leerzeichen", "password": "ein-langes-Passwort-7"}, "Benutzernamen"),
    ],
)
def test_create_club_refuses_a_bad_login_and_creates_nothing(kwargs: dict[str, str], message: str) -> None:
    with pytest.raises(CommandError, match=message):
        call_command("create_club", "Verein", **kwargs)
    assert not Club.objects.exists() and not get_user_model().objects.exists()


def test_a_login_refused_on_an_empty_installation_says_how_to_start(client: Client) -> None:
    attempt = {"username": "admin", "password": "admin"}
    page = client.post(reverse("login"), attempt).content.decode()
    assert "manage.py create_club" in page
    get_user_model().objects.create_user(username="sepp", password="x")
    assert "manage.py create_club" not in client.post(reverse("login"), attempt).content.decode()
