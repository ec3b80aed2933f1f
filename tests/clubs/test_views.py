"""The club pages as a person uses them: what they show and what a form post changes."""

from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from clubs.models import Club, Invitation, Member, Membership, Role
from tests.factories import World

ClientAs = Callable[[str], Client]


def url(name: str, world: World, **kwargs: object) -> str:
    return reverse(name, kwargs={"slug": world.club.slug, **kwargs})


def test_my_clubs_lists_only_my_clubs(world: World, client_as: ClientAs) -> None:
    page = client_as("member").get(reverse("clubs:my_clubs")).content.decode()
    assert world.club.name in page
    assert world.other_club.name not in page


def test_anonymous_visitors_are_sent_to_login(client: Client) -> None:
    response = client.get(reverse("clubs:my_clubs"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_creating_a_club(client: Client, new_user: object) -> None:
    client.force_login(new_user)
    response = client.post(reverse("clubs:create"), {"name": "Stammtisch Oberdorf"})
    club = Club.objects.get(name="Stammtisch Oberdorf")
    assert response.url == club.get_absolute_url()
    assert Membership.objects.get(club=club).role == Role.OWNER


def test_club_home_shows_the_club_and_the_role(world: World, client_as: ClientAs) -> None:
    page = client_as("scorer").get(url("clubs:home", world)).content.decode()
    assert world.club.name in page
    assert "Schreiber" in page
    assert url("clubs:logins", world) not in page  # the owners' tabs are not offered


def test_member_list_shows_players_and_owner_actions(world: World, client_as: ClientAs) -> None:
    as_member = client_as("member").get(url("clubs:member_list", world)).content.decode()
    assert "Vroni Brandl" in as_member
    assert "Bearbeiten" not in as_member
    as_owner = client_as("owner").get(url("clubs:member_list", world)).content.decode()
    assert "Bearbeiten" in as_owner


def test_adding_a_member(world: World, client_as: ClientAs) -> None:
    response = client_as("owner").post(url("clubs:member_add", world), {"display_name": "Hias Gruber"})
    assert response.url == url("clubs:member_list", world)
    assert Member.objects.filter(club=world.club, display_name="Hias Gruber").exists()


def test_adding_a_taken_name_shows_the_error(world: World, client_as: ClientAs) -> None:
    response = client_as("owner").post(url("clubs:member_add", world), {"display_name": "ZENZI MAYR"})
    assert response.status_code == 200
    assert "Diesen Namen gibt es in diesem Verein schon." in response.content.decode()
    assert Member.objects.filter(club=world.club, display_name__iexact="zenzi mayr").count() == 1


def test_editing_and_deactivating_a_member(world: World, client_as: ClientAs) -> None:
    client = client_as("owner")
    sepp = Member.objects.get(club=world.club, display_name="Sepp Huber")
    client.post(url("clubs:member_edit", world, member_id=sepp.pk), {"display_name": "Sepp Huber sen."})
    client.post(url("clubs:member_active", world, member_id=sepp.pk), {"active": "0"})
    sepp.refresh_from_db()
    assert (sepp.display_name, sepp.is_active) == ("Sepp Huber sen.", False)
    client.post(url("clubs:member_active", world, member_id=sepp.pk), {"active": "1"})
    sepp.refresh_from_db()
    assert sepp.is_active


def test_granting_access_from_the_logins_page(world: World, client_as: ClientAs) -> None:
    vroni = Member.objects.get(club=world.club, display_name="Vroni Brandl")
    response = client_as("owner").post(
        url("clubs:logins", world),
        {"username": "vroni", "password": "Schafkopf-2026", "role": Role.SCORER, "member": vroni.pk},
    )
    assert response.url == url("clubs:logins", world)
    vroni.refresh_from_db()
    assert vroni.user.username == "vroni"
    assert Membership.objects.get(club=world.club, user=vroni.user).role == Role.SCORER


def test_a_weak_initial_password_is_refused(world: World, client_as: ClientAs) -> None:
    response = client_as("owner").post(
        url("clubs:logins", world), {"username": "neu", "password": "1234", "role": "member"}
    )
    assert response.status_code == 200
    assert not Membership.objects.filter(club=world.club, user__username="neu").exists()


def test_players_of_another_club_are_not_offered(world: World, client_as: ClientAs) -> None:
    page = client_as("owner").get(url("clubs:logins", world)).content.decode()
    assert "Vroni Brandl" in page
    assert "Ludwig Bauer" not in page


def test_changing_a_role_and_the_last_owner_guard(world: World, client_as: ClientAs) -> None:
    client = client_as("owner")
    member = Membership.objects.get(club=world.club, role=Role.MEMBER)
    client.post(url("clubs:login_role", world, membership_id=member.pk), {"role": Role.SCORER})
    member.refresh_from_db()
    assert member.role == Role.SCORER

    own = Membership.objects.get(club=world.club, role=Role.OWNER)
    response = client.post(url("clubs:login_role", world, membership_id=own.pk), {"role": Role.MEMBER}, follow=True)
    own.refresh_from_db()
    assert own.role == Role.OWNER
    assert "Der Verein braucht mindestens einen Vorstand." in response.content.decode()


@pytest.mark.parametrize("action", ["step_down", "leave"])
def test_an_owner_who_steps_down_or_leaves_lands_on_a_page_they_may_see(
    world: World, client_as: ClientAs, action: str
) -> None:
    Membership.objects.create(club=world.club, user=world.users["outsider"], role=Role.OWNER)
    client = client_as("owner")
    own = Membership.objects.get(club=world.club, user=world.users["owner"])
    if action == "step_down":
        response = client.post(url("clubs:login_role", world, membership_id=own.pk), {"role": Role.MEMBER})
        assert response.url == url("clubs:home", world)
    else:
        response = client.post(url("clubs:login_revoke", world, membership_id=own.pk))
        assert response.url == reverse("clubs:my_clubs")
    assert client.get(response.url).status_code == 200


def test_renaming_the_club(world: World, client_as: ClientAs) -> None:
    client_as("owner").post(url("clubs:settings", world), {"name": "Schafkopf-Freunde Neu"})
    world.club.refresh_from_db()
    assert world.club.name == "Schafkopf-Freunde Neu"


def test_a_full_width_username_on_the_logins_page_is_refused_at_its_field(world: World, client_as: ClientAs) -> None:
    """Issue 22, finding 6: ``ｔest-member`` was normalised after the existence check and ended
    in a 500; now it is the same name as ``test-member`` and refused at the field."""
    for name in ("\uff54est-member", "TEST-MEMBER"):
        response = client_as("owner").post(
            url("clubs:logins", world), {"username": name, "password": "Schafkopf-2026", "role": "member"}
        )
        assert response.status_code == 200
        assert "Diesen Benutzernamen gibt es schon" in response.content.decode()
    assert get_user_model().objects.count() == 4


def test_the_owner_is_told_the_same_for_a_known_and_an_unknown_name(world: World, client_as: ClientAs) -> None:
    client = client_as("owner")
    said = []
    for name in ("outsider", "niemand-hier"):
        response = client.post(url("clubs:logins", world), {"username": name, "role": "member"}, follow=True)
        said.append([str(message).replace(name, "NAME") for message in response.context["messages"]])
    assert said[0] == said[1]
    assert "Einladung an „NAME“ gespeichert" in said[0][0]
    page = client.get(url("clubs:logins", world)).content.decode()
    assert "<td>outsider</td>" in page and "<td>niemand-hier</td>" in page  # listed alike
    assert not Membership.objects.filter(club=world.club, user=world.users["outsider"]).exists()


def test_the_invited_login_accepts_on_its_own_page(world: World, client_as: ClientAs) -> None:
    client_as("owner").post(url("clubs:logins", world), {"username": "Outsider", "role": "scorer"})
    invitation = Invitation.objects.get()
    # Nobody else can take it up or turn it down: 404, as for an invitation that does not exist.
    accept = reverse("clubs:invitation_accept", kwargs={"invitation_id": invitation.pk})
    decline = reverse("clubs:invitation_decline", kwargs={"invitation_id": invitation.pk})
    assert client_as("member").post(accept).status_code == 404
    assert client_as("member").post(decline).status_code == 404
    assert Client().post(accept).url.startswith(reverse("login"))  # anonymous: to the login page
    outsider = client_as("outsider")
    assert outsider.get(accept).status_code == 405
    page = outsider.get(reverse("clubs:my_clubs")).content.decode()
    assert "Einladung in den Verein „Schafkopf-Freunde Test“ als Schreiber." in page
    assert outsider.post(accept).url == url("clubs:home", world)
    assert Membership.objects.get(club=world.club, user=world.users["outsider"]).role == Role.SCORER


def test_an_owner_withdraws_an_invitation(world: World, client_as: ClientAs) -> None:
    client = client_as("owner")
    client.post(url("clubs:logins", world), {"username": "outsider", "role": "member"})
    invitation = Invitation.objects.get()
    assert "Offene Einladungen" in client.get(url("clubs:logins", world)).content.decode()
    client.post(url("clubs:invitation_withdraw", world, invitation_id=invitation.pk))
    assert not Invitation.objects.exists()
