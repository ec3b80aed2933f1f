"""Read-only queries about clubs. Views call these; templates get their results."""

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Q, QuerySet

from clubs.logins import canonical_username
from clubs.models import Club, Invitation, Member, Membership


def memberships_of(user: AbstractBaseUser) -> QuerySet[Membership]:
    """The user's clubs with their role in each, by club name."""
    return Membership.objects.filter(user=user).select_related("club").order_by("club__name")


def club_members(*, club: Club) -> QuerySet[Member]:
    """Every player of the club, active first, then by name."""
    return Member.objects.filter(club=club).select_related("club", "user").order_by("-is_active", "display_name")


def club_logins(*, club: Club) -> QuerySet[Membership]:
    return Membership.objects.filter(club=club).select_related("user").order_by("user__username")


def players_without_login(*, club: Club) -> QuerySet[Member]:
    return Member.objects.filter(club=club, user__isnull=True, is_active=True).order_by("display_name")


def club_counts(*, club: Club) -> dict[str, int]:
    """Head counts for the club's home page, in one query."""
    return Club.objects.filter(pk=club.pk).aggregate(
        active_members=Count("members", filter=Q(members__is_active=True), distinct=True),
        inactive_members=Count("members", filter=Q(members__is_active=False), distinct=True),
        logins=Count("memberships", distinct=True),
    )


def invitations_for(user: AbstractBaseUser) -> QuerySet[Invitation]:
    """The open invitations addressed to ``user``'s name (compared canonically)."""
    key = canonical_username(user.get_username())
    return Invitation.objects.filter(username_key=key).select_related("club").order_by("club__name")


def club_invitations(*, club: Club) -> QuerySet[Invitation]:
    return Invitation.objects.filter(club=club).select_related("member").order_by("username_key")
