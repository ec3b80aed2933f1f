"""`manage.py create_club`: a new installation reaches its first club and owner without the admin."""

import io
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from clubs.models import Club, Membership, Role

pytestmark = pytest.mark.django_db


def stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))


def test_create_club_makes_the_owner_login_and_the_club(monkeypatch: pytest.MonkeyPatch) -> None:
    stdin(monkeypatch, "ein-langes-Passwort-7\n")
    call_command("create_club", "Schafkopf-Freunde Hintertupfing", owner="sepp", password_stdin=True)
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
    call_command("create_club", "Dritter Verein", owner="\uff36RONI")  # full width, upper case: vroni
    assert list(Membership.objects.filter(user=user).values_list("role", flat=True)) == [Role.OWNER] * 2
    assert get_user_model().objects.count() == 1


def test_a_password_is_never_a_command_line_argument() -> None:
    """Issue 22, finding 8: a password in the arguments is readable in ``ps`` and the history."""
    with pytest.raises(CommandError, match="nicht als Argument"):
        call_command("create_club", "Verein", "--owner", "sepp", "--password", "ein-langes-Passwort-7")
    assert not get_user_model().objects.exists()


@pytest.mark.parametrize(
    ("owner", "typed", "message"),
    [
        ("sepp", None, "braucht ein Passwort"),  # no terminal to ask on
        ("sepp", "\n", "leer"),
        ("sepp", "123\n", "zu kurz"),
        ("sepp mit leerzeichen", "ein-langes-Passwort-7\n", "Benutzernamen"),
    ],
)
def test_create_club_refuses_a_bad_login_and_creates_nothing(
    monkeypatch: pytest.MonkeyPatch, owner: str, typed: str | None, message: str
) -> None:
    stdin(monkeypatch, typed or "")
    with pytest.raises(CommandError, match=re.escape(message)):
        call_command("create_club", "Verein", owner=owner, password_stdin=typed is not None)
    assert not Club.objects.exists() and not get_user_model().objects.exists()


def test_a_login_refused_on_an_empty_installation_says_how_to_start(client: Client) -> None:
    """The hint names the Python that has Django (``.venv/bin/python``, not ``python``) and shows
    only while no club exists (issue 22, finding 8)."""
    attempt = {"username": "admin", "password": "admin"}
    page = client.post(reverse("login"), attempt).content.decode()
    command = re.search(r"<code>(\S+) manage.py create_club &quot;Name des Vereins&quot; --owner LOGIN</code>", page)
    assert command, page
    assert command.group(1) != "python" and (Path(settings.BASE_DIR) / command.group(1)).exists()
    user = get_user_model().objects.create_user(username="sepp", password="x")
    assert "manage.py create_club" in client.post(reverse("login"), attempt).content.decode()  # a login, no club
    call_command("create_club", "Erster Verein", owner=user.username)
    assert "manage.py create_club" not in client.post(reverse("login"), attempt).content.decode()


def test_make_serve_prints_the_hint_only_while_no_club_exists(capsys: pytest.CaptureFixture[str]) -> None:
    call_command("first_club_hint")
    assert ".venv/bin/python manage.py create_club" in capsys.readouterr().out
    call_command("create_club", "Erster Verein", owner=get_user_model().objects.create_user(username="s").username)
    capsys.readouterr()
    call_command("first_club_hint")
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize(
    ("name", "owner", "message"),
    [
        ("Verein\x1b", "sepp", "U+001B"),
        ("Verein", "se\x00pp", "U+0000"),  # PostgreSQL cannot even look NUL up
        ("Verein", "sepp\x01", "U+0001"),
        ("Verein", "s" * 300, "150 Zeichen"),
        ("V" * 300, "sepp", "1 bis 100 Zeichen"),
    ],
    ids=["escape-in-name", "nul-in-owner", "control-in-owner", "long-owner", "long-name"],
)
def test_create_club_refuses_control_characters_and_long_texts_before_the_database(
    monkeypatch: pytest.MonkeyPatch, name: str, owner: str, message: str
) -> None:
    """Issue 22, finding 5: every text on its way into the database is checked as the forms check it."""
    stdin(monkeypatch, "ein-langes-Passwort-7\n")
    with pytest.raises(CommandError, match=re.escape(message)):
        call_command("create_club", name, owner=owner, password_stdin=True)
    assert not Club.objects.exists() and not get_user_model().objects.exists()
