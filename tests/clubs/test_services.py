import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from clubs import services
from clubs.models import Member, Membership, Role
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
    )
    vroni.refresh_from_db()
    assert membership.role == Role.SCORER
    assert vroni.user == membership.user
    assert membership.user.check_password("Geheim-1234")


def test_grant_to_an_existing_login_leaves_its_password(world: World) -> None:
    outsider = world.users["outsider"]
    services.membership_grant(club=world.club, username="outsider", role=Role.MEMBER, password="ignored-1234")
    outsider.refresh_from_db()
    assert not outsider.check_password("ignored-1234")
    assert Membership.objects.filter(club=world.club, user=outsider).exists()


def test_grant_refuses_a_new_login_without_password_and_a_double_grant(world: World) -> None:
    with pytest.raises(ValidationError) as error:
        services.membership_grant(club=world.club, username="neu", role=Role.MEMBER)
    assert "password" in error.value.error_dict
    assert not get_user_model().objects.filter(username="neu").exists()
    with pytest.raises(ValidationError) as error:
        services.membership_grant(club=world.club, username="test-member", role=Role.OWNER)
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
