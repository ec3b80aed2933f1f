import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from clubs import selectors, services
from clubs.models import Invitation, Member, Membership, Role
from tests.factories import ClubFactory, MemberFactory, MembershipFactory, UserFactory, World

pytestmark = pytest.mark.django_db


def test_club_create_makes_the_founder_owner_with_a_unique_slug() -> None:
    founder = UserFactory()
    first = services.club_create(name="Schafkopf-Freunde Allgäu", owner=founder)
    second = services.club_create(name="Schafkopf-Freunde Allgäu", owner=founder)
    assert (first.slug, second.slug) == ("schafkopf-freunde-allgau", "schafkopf-freunde-allgau-2")
    assert Membership.objects.get(club=first, user=founder).role == Role.OWNER


def test_renaming_keeps_the_slug(world: World) -> None:
    club = services.club_rename(club=world.club, name="Neuer Name")
    club.refresh_from_db()
    assert (club.name, club.slug) == ("Neuer Name", "test")


def test_member_names_are_checked_case_insensitively(world: World) -> None:
    with pytest.raises(ValidationError) as error:
        services.member_create(club=world.club, display_name=" sepp huber ")
    assert "display_name" in error.value.error_dict


def test_member_may_keep_their_own_name_on_edit(world: World) -> None:
    sepp = Member.objects.get(club=world.club, display_name="Sepp Huber")
    assert services.member_update(member=sepp, display_name="Sepp Huber").display_name == "Sepp Huber"
    with pytest.raises(ValidationError):
        services.member_update(member=sepp, display_name="Zenzi Mayr")


def test_deactivation_keeps_the_member(world: World) -> None:
    sepp = Member.objects.get(club=world.club, display_name="Sepp Huber")
    services.member_set_active(member=sepp, active=False)
    sepp.refresh_from_db()
    assert not sepp.is_active
    services.member_set_active(member=sepp, active=True)
    sepp.refresh_from_db()
    assert sepp.is_active


def test_grant_creates_a_new_login_linked_to_its_player(world: World) -> None:
    vroni = Member.objects.get(club=world.club, display_name="Vroni Brandl")
    membership = services.membership_grant(
        club=world.club, username="vroni", role=Role.SCORER, password="Geheim-1234", member=vroni
    ).membership
    vroni.refresh_from_db()
    assert membership.role == Role.SCORER
    assert vroni.user == membership.user
    assert membership.user.check_password("Geheim-1234")


def test_an_existing_login_joins_only_by_accepting_the_invitation(world: World) -> None:
    """Issue 22, finding 7: an owner cannot put someone else's login into their club."""
    outsider = world.users["outsider"]
    vroni = Member.objects.get(club=world.club, display_name="Vroni Brandl")
    granted = services.membership_grant(club=world.club, username="Outsider", role=Role.SCORER, member=vroni)
    assert granted.membership is None and granted.invitation.username == "Outsider"
    assert not Membership.objects.filter(club=world.club, user=outsider).exists()
    assert list(selectors.memberships_of(outsider).values_list("club__slug", flat=True)) == ["andere"]
    assert list(selectors.invitations_for(outsider)) == [granted.invitation]

    membership = services.invitation_accept(invitation=granted.invitation, user=outsider)
    vroni.refresh_from_db()
    assert (membership.club, membership.role, vroni.user) == (world.club, Role.SCORER, outsider)
    assert not Invitation.objects.exists()


def test_an_invitation_is_declined_and_no_one_else_can_take_it_up(world: World) -> None:
    granted = services.membership_grant(club=world.club, username="outsider", role=Role.OWNER)
    with pytest.raises(ValidationError):
        services.invitation_accept(invitation=granted.invitation, user=world.users["member"])
    services.invitation_decline(invitation=granted.invitation, user=world.users["outsider"])
    assert not Membership.objects.filter(club=world.club, user=world.users["outsider"]).exists()
    assert not Invitation.objects.exists()


def test_a_password_never_adds_an_existing_login_nor_changes_it(world: World) -> None:
    outsider = world.users["outsider"]
    for name in ("outsider", "OUTSIDER", "\uff4futsider"):  # the last one full-width: ｏutsider
        with pytest.raises(ValidationError) as error:
            services.membership_grant(club=world.club, username=name, role=Role.MEMBER, password="ignored-1234")
        assert "username" in error.value.error_dict
    outsider.refresh_from_db()
    assert not outsider.check_password("ignored-1234")
    assert not Membership.objects.filter(club=world.club, user=outsider).exists()
    assert get_user_model().objects.count() == 4


def test_an_unknown_name_is_invited_like_a_known_one(world: World) -> None:
    """The owner learns nothing about which usernames exist: an unknown name gets the same kind
    of invitation, which waits for a login of that name."""
    known = services.membership_grant(club=world.club, username="outsider", role=Role.MEMBER)
    unknown = services.membership_grant(club=world.club, username="niemand", role=Role.MEMBER)
    assert (known.membership, unknown.membership) == (None, None)
    assert {known.invitation.username, unknown.invitation.username} == {"outsider", "niemand"}
    assert not get_user_model().objects.filter(username="niemand").exists()


def test_grant_refuses_a_double_grant(world: World) -> None:
    with pytest.raises(ValidationError) as error:
        services.membership_grant(club=world.club, username="TEST-member", role=Role.OWNER)
    assert "username" in error.value.error_dict


def test_grant_refuses_a_player_of_another_club(world: World) -> None:
    foreign = MemberFactory(club=ClubFactory())
    with pytest.raises(ValidationError):
        services.membership_grant(
            club=world.club, username="x", role=Role.MEMBER, password="Geheim-1234", member=foreign
        )
    assert not get_user_model().objects.filter(username="x").exists()


def test_the_last_owner_can_neither_step_down_nor_leave(world: World) -> None:
    owner = Membership.objects.get(club=world.club, role=Role.OWNER)
    with pytest.raises(ValidationError):
        services.membership_set_role(membership=owner, role=Role.MEMBER)
    with pytest.raises(ValidationError):
        services.membership_revoke(membership=owner)
    MembershipFactory(club=world.club, role=Role.OWNER)
    services.membership_set_role(membership=owner, role=Role.MEMBER)
    owner.refresh_from_db()
    assert owner.role == Role.MEMBER


def test_revoking_unlinks_the_player_but_keeps_them(world: World) -> None:
    membership = Membership.objects.get(club=world.club, role=Role.SCORER)
    player = MemberFactory(club=world.club, user=membership.user)
    services.membership_revoke(membership=membership)
    player.refresh_from_db()
    assert player.user is None
    assert not Membership.objects.filter(pk=membership.pk).exists()


@pytest.mark.parametrize("name", ["S" * 61, "", "Sepp\x1b[31m"], ids=["too-long", "empty", "escape"])
def test_a_member_name_from_any_path_is_checked_as_the_form_checks_it(world: World, name: str) -> None:
    """Issue 22, finding 5: an import or a script reaches the same limits as the member form
    (a name of 300 characters was stored on SQLite and a 500 on PostgreSQL)."""
    with pytest.raises(ValidationError) as error:
        services.member_create(club=world.club, display_name=name)
    assert "display_name" in error.value.error_dict
    with pytest.raises(ValidationError):
        services.member_update(member=Member.objects.get(club=world.club, display_name="Sepp Huber"), display_name=name)
