from collections.abc import Callable

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.test import Client, RequestFactory
from django.urls import reverse

from clubs.access import Need, club_for
from tests.access_matrix import club_urls
from tests.factories import World


def _request(user: object) -> object:
    request = RequestFactory().get("/")
    request.user = user
    return request


@pytest.mark.parametrize(
    ("role", "need", "outcome"),
    [
        ("member", Need.READ, "ok"),
        ("member", Need.WRITE, PermissionDenied),
        ("member", Need.MANAGE, PermissionDenied),
        ("scorer", Need.WRITE, "ok"),
        ("scorer", Need.MANAGE, PermissionDenied),
        ("owner", Need.MANAGE, "ok"),
        ("outsider", Need.READ, Http404),
    ],
)
def test_club_for_by_role(world: World, role: str, need: Need, outcome: object) -> None:
    request = _request(world.users[role])
    if outcome == "ok":
        access = club_for(request, world.club.slug, need)
        assert access.club == world.club
        assert access.membership.user == world.users[role]
    else:
        with pytest.raises(outcome):
            club_for(request, world.club.slug, need)


def test_club_for_anonymous_is_not_found(world: World) -> None:
    with pytest.raises(Http404):
        club_for(_request(AnonymousUser()), world.club.slug)


def test_unknown_club_looks_like_a_foreign_one(world: World, client_as: Callable[[str], Client]) -> None:
    client = client_as("owner")
    assert client.get(reverse("clubs:home", kwargs={"slug": "gibt-es-nicht"})).status_code == 404
    assert client.get(reverse("clubs:home", kwargs={"slug": world.other_club.slug})).status_code == 404


@pytest.mark.parametrize(
    ("name", "need"),
    [
        ("clubs:home", Need.READ),
        ("clubs:member_list", Need.READ),
        ("clubs:member_add", Need.MANAGE),
        ("clubs:member_edit", Need.MANAGE),
        ("clubs:member_active", Need.MANAGE),
        ("clubs:logins", Need.MANAGE),
        ("clubs:login_role", Need.MANAGE),
        ("clubs:login_revoke", Need.MANAGE),
        ("clubs:settings", Need.MANAGE),
    ],
)
def test_club_pages_declare_the_roles_of_the_issue(name: str, need: Need) -> None:
    """Members read; owners manage members, roles and the club (issue 2). The matrix test
    checks each view against its declaration; this pins the declarations of the club pages."""
    rules = {url.name: url.rule for url in club_urls()}
    assert rules[name].need == need
