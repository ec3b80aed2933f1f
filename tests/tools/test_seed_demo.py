import pytest
from django.contrib.auth import authenticate
from django.core.management import CommandError, call_command
from django.test import override_settings

from clubs.models import Club, Member, Membership, Role
from tools.demo.clubs import DEMO_PLAYERS

pytestmark = pytest.mark.django_db


def test_seed_demo_refuses_without_debug() -> None:
    with pytest.raises(CommandError, match="--force"):
        call_command("seed_demo")
    assert not Club.objects.exists()


@override_settings(DEBUG=True)
def test_seed_demo_creates_the_documented_club_and_logins(capsys: pytest.CaptureFixture[str]) -> None:
    call_command("seed_demo")
    demo = Club.objects.get(slug="demo")
    assert demo.name == "Schafkopf-Freunde Demo"
    assert sorted(Member.objects.filter(club=demo).values_list("display_name", flat=True)) == sorted(DEMO_PLAYERS)
    roles = dict(Membership.objects.filter(club=demo).values_list("user__username", "role"))
    assert roles == {"demo-owner": Role.OWNER, "demo-scorer": Role.SCORER, "demo-member": Role.MEMBER}
    outsider = Membership.objects.get(user__username="outsider")
    assert (outsider.club.slug, outsider.role) == ("andere", Role.OWNER)
    assert Member.objects.filter(club=outsider.club).exists()
    for username in ("demo-owner", "demo-scorer", "demo-member", "outsider"):
        assert authenticate(username=username, password="demo") is not None
    assert "demo-owner" in capsys.readouterr().out


def test_seed_demo_is_idempotent() -> None:
    call_command("seed_demo", "--force")
    before = (Club.objects.count(), Member.objects.count(), Membership.objects.count())
    call_command("seed_demo", "--force")
    assert (Club.objects.count(), Member.objects.count(), Membership.objects.count()) == before


def test_remove_demo_takes_the_demo_and_its_password_out_of_a_clubs_database() -> None:
    """Issue 29: a club's server must not serve the demo password. The demo clubs go with their
    evenings, championships and open tournaments; a club of its own on the same database stays."""
    call_command("seed_demo", "--force")
    own = Club.objects.create(slug="hintertupfing", name="Schafkopf-Freunde Hintertupfing")
    with pytest.raises(CommandError, match="remove_demo"):
        call_command("remove_demo", "--check")
    call_command("remove_demo")
    call_command("remove_demo", "--check")
    assert list(Club.objects.all()) == [own]
    for username in ("demo-owner", "demo-scorer", "demo-member", "outsider"):
        assert authenticate(username=username, password="demo") is None
