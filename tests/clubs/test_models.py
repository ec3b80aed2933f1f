import pytest
from django.db import IntegrityError

from clubs.models import Member, Membership, Role
from tests.factories import ClubFactory, MemberFactory, MembershipFactory, UserFactory


@pytest.mark.django_db
def test_display_name_is_unique_in_a_club_ignoring_case() -> None:
    member = MemberFactory(display_name="Sepp Huber")
    with pytest.raises(IntegrityError):
        Member.objects.create(club=member.club, display_name="sepp huber")


@pytest.mark.django_db
def test_the_same_name_may_play_in_another_club() -> None:
    MemberFactory(display_name="Sepp Huber")
    assert MemberFactory(display_name="Sepp Huber", club=ClubFactory()).pk


@pytest.mark.django_db
def test_one_login_is_at_most_one_player_per_club() -> None:
    user = UserFactory()
    member = MemberFactory(user=user)
    with pytest.raises(IntegrityError):
        MemberFactory(club=member.club, user=user)


@pytest.mark.django_db
def test_one_membership_per_login_and_club() -> None:
    membership = MembershipFactory()
    with pytest.raises(IntegrityError):
        Membership.objects.create(user=membership.user, club=membership.club, role=Role.OWNER)


@pytest.mark.django_db
def test_the_role_must_be_one_of_the_three() -> None:
    with pytest.raises(IntegrityError):
        MembershipFactory(role="king")


@pytest.mark.parametrize(
    ("role", "can_write", "can_manage"),
    [(Role.OWNER, True, True), (Role.SCORER, True, False), (Role.MEMBER, False, False)],
)
def test_role_abilities(role: Role, can_write: bool, can_manage: bool) -> None:
    membership = Membership(role=role)
    assert (membership.can_write, membership.can_manage) == (can_write, can_manage)
