"""The demo clubs behind `manage.py seed_demo`. Idempotent: running it again changes nothing
but resetting the demo passwords and roles to their documented values."""

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from clubs.games import Game
from clubs.models import Club, Member, Membership, Role

DEMO_PASSWORD = "demo"  # documented in README.md; seed_demo refuses to run with DEBUG off

DEMO_CLUB = ("demo", "Schafkopf-Freunde Demo")
DEMO_PLAYERS = [
    "Sepp Huber",
    "Zenzi Mayr",
    "Girgl Lechner",
    "Vroni Brandl",
    "Hias Gruber",
    "Kati Stadler",
    "Wastl Reiter",
    "Resi Kainz",
]
# login, role, the player the login belongs to (None: a login that does not play)
DEMO_LOGINS = [
    ("demo-owner", Role.OWNER, "Sepp Huber"),
    ("demo-scorer", Role.SCORER, "Zenzi Mayr"),
    ("demo-member", Role.MEMBER, "Girgl Lechner"),
]

OTHER_CLUB = ("andere", "Stammtisch Andere")
OTHER_PLAYERS = ["Ludwig Bauer", "Gretl Hofer", "Michl Wagner", "Burgi Schmid"]
OTHER_LOGINS = [("outsider", Role.OWNER, "Ludwig Bauer")]

# A small Skat club (issue 32 §3; its lists: tools.demo.skat) with a login of its own.
SKAT_CLUB = ("skat", "Skatfreunde Demo")
SKAT_PLAYERS = ["Hans Vogt", "Erika Busch", "Klaus Wendt", "Monika Pohl"]
SKAT_LOGINS = [("skat-owner", Role.OWNER, "Hans Vogt")]


@dataclass(frozen=True)
class DemoClubs:
    demo: Club
    other: Club
    skat: Club
    logins: list[tuple[str, str, str]]  # username, role, club slug


def _user(username: str) -> AbstractBaseUser:
    user, _ = get_user_model().objects.get_or_create(username=username)
    user.set_password(DEMO_PASSWORD)
    user.save()
    return user


def _club(slug_name: tuple[str, str], players: list[str], logins: list[tuple[str, str, str | None]]) -> Club:
    slug, name = slug_name
    club, _ = Club.objects.update_or_create(slug=slug, defaults={"name": name})
    members = {name: Member.objects.get_or_create(club=club, display_name=name)[0] for name in players}
    for username, role, player in logins:
        user = _user(username)
        Membership.objects.update_or_create(club=club, user=user, defaults={"role": role})
        if player is not None:
            Member.objects.filter(club=club, pk=members[player].pk).update(user=user)
    return club


@transaction.atomic
def seed_demo_clubs() -> DemoClubs:
    demo = _club(DEMO_CLUB, DEMO_PLAYERS, DEMO_LOGINS)
    other = _club(OTHER_CLUB, OTHER_PLAYERS, OTHER_LOGINS)
    skat = _club(SKAT_CLUB, SKAT_PLAYERS, SKAT_LOGINS)
    Club.objects.filter(pk=skat.pk).update(game=Game.SKAT)
    skat.refresh_from_db()
    logins = [(u, role.value, demo.slug) for u, role, _ in DEMO_LOGINS]
    logins += [(u, role.value, other.slug) for u, role, _ in OTHER_LOGINS]
    logins += [(u, role.value, skat.slug) for u, role, _ in SKAT_LOGINS]
    return DemoClubs(demo=demo, other=other, skat=skat, logins=logins)
