"""Writes to clubs, members and memberships. Each function is one transaction.

Rule violations raise django.core.exceptions.ValidationError (keyed by form field where one
fits), so a view can put them on its form.
"""

import unicodedata
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs.games import Game
from clubs.logins import canonical_username, username_problem
from clubs.models import Club, Invitation, Member, Membership, Role
from clubs.validators import validate_line


def _unique_slug(name: str) -> str:
    base = slugify(name)[:40] or "verein"
    slug, n = base, 1
    while Club.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def club_create(*, name: str, owner: AbstractBaseUser) -> Club:
    """A new club with `owner` as its first owner; the slug is derived from the name."""
    _check_plain("name", name)
    club = Club.objects.create(name=name, slug=_unique_slug(name))
    Membership.objects.create(user=owner, club=club, role=Role.OWNER)
    return club


@transaction.atomic
def club_rename(*, club: Club, name: str) -> Club:
    """Changes the name only: the slug stays, so links and bookmarks keep working."""
    _check_plain("name", name)
    club.name = name
    club.save(update_fields=["name"])
    return club


@transaction.atomic
def club_set_language(*, club: Club, language: str) -> Club:
    """The language of the club's pages (one of ``settings.LANGUAGES``)."""
    if language not in dict(settings.LANGUAGES):
        raise ValidationError({"language": _("Diese Sprache gibt es nicht.")})
    club.language = language
    club.save(update_fields=["language"])
    return club


@transaction.atomic
def club_set_game(*, club: Club, game: str) -> Club:
    """The game the club plays (``clubs.games``). Past tables keep the rule set they were started
    with; the club's rules for new tables follow the game (``scoring.selectors.club_rules``)."""
    if game not in Game.values:
        raise ValidationError({"game": _("Dieses Spiel gibt es nicht.")})
    if club.game != game:
        club.game = game
        club.save(update_fields=["game"])
    return club


def _check_plain(field: str, text: str) -> None:
    """The service edge of the forms' rule: a name that came another way (an import, a script)
    is refused just the same, before the database (PostgreSQL cannot store NUL) sees it."""
    try:
        validate_line(text)
    except ValidationError as error:
        raise ValidationError({field: error.messages}) from None


def _check_name_free(*, club: Club, display_name: str, member: Member | None = None) -> None:
    _check_plain("display_name", display_name)
    longest = Member._meta.get_field("display_name").max_length
    if not display_name or len(display_name) > longest:  # SQLite would store it, PostgreSQL refuse it
        raise ValidationError({"display_name": _("Ein Name hat 1 bis %(max)s Zeichen.") % {"max": longest}})
    taken = Member.objects.filter(club=club, display_name__iexact=display_name)
    if member is not None:
        taken = taken.exclude(pk=member.pk)
    if taken.exists():
        raise ValidationError({"display_name": _("Diesen Namen gibt es in diesem Verein schon.")})


@transaction.atomic
def member_create(*, club: Club, display_name: str) -> Member:
    display_name = display_name.strip()
    _check_name_free(club=club, display_name=display_name)
    return Member.objects.create(club=club, display_name=display_name)


@transaction.atomic
def member_update(*, member: Member, display_name: str) -> Member:
    """Renames a player; past score sheets show the new name, as they refer to the player."""
    display_name = display_name.strip()
    _check_name_free(club=member.club, display_name=display_name, member=member)
    member.display_name = display_name
    member.save(update_fields=["display_name"])
    return member


@transaction.atomic
def member_set_active(*, member: Member, active: bool) -> Member:
    """Deactivating hides a player from new evenings and keeps every hand they played.

    Players are never deleted here: their hands and ledger rows refer to them.
    """
    member.is_active = active
    member.save(update_fields=["is_active"])
    return member


def _lock_owners(club: Club) -> list[int]:
    """The club's owner memberships, locked so two owners cannot demote each other at once."""
    return list(Membership.objects.select_for_update().filter(club=club, role=Role.OWNER).values_list("pk", flat=True))


@dataclass(frozen=True)
class Granted:
    """What ``membership_grant`` did: a new login with its access (``membership``), or an
    invitation to a name (``invitation``), which the owner is told about in the same words
    whether a login of that name exists or not."""

    membership: Membership | None = None
    invitation: Invitation | None = None


@transaction.atomic
def membership_grant(
    *,
    club: Club,
    username: str,
    role: str,
    password: str | None = None,
    member: Member | None = None,
    invited_by: AbstractBaseUser | None = None,
) -> Granted:
    """Gives a new login access to the club, or invites an existing one.

    With ``password`` a new login of that name is created with the role (a name taken by
    another login, compared by ``clubs.logins.canonical_username``, is refused: creating
    logins cannot avoid saying so). Without it the name is invited: the login of that name
    (if there is one) sees the invitation on its own page and joins only by accepting it —
    the owner is answered the same either way. ``member`` links the login to its player (on
    acceptance, for an invitation).
    """
    username = unicodedata.normalize("NFKC", username.strip())  # as Django stores a new login's name
    if member is not None and member.club_id != club.pk:
        raise ValidationError({"member": _("Dieser Spieler gehört zu einem anderen Verein.")})
    if password:
        problem = username_problem(username)
        if problem:
            raise ValidationError({"username": problem})
        user = get_user_model().objects.create_user(username=username, password=password)
        membership = Membership.objects.create(club=club, user=user, role=role)
        if member is not None:
            _link_player(member=member, membership=membership)
        return Granted(membership=membership)
    try:
        get_user_model()._meta.get_field("username").run_validators(username)
    except ValidationError as error:
        raise ValidationError({"username": error.messages}) from None
    key = canonical_username(username)
    if any(canonical_username(name) == key for name in club.memberships.values_list("user__username", flat=True)):
        raise ValidationError({"username": _("Dieser Zugang gehört schon zum Verein.")})
    invitation, _created = Invitation.objects.update_or_create(
        club=club,
        username_key=key,
        defaults={"username": username, "role": role, "member": member, "invited_by": invited_by},
    )
    return Granted(invitation=invitation)


@transaction.atomic
def invitation_accept(*, invitation: Invitation, user: AbstractBaseUser) -> Membership:
    """``user`` takes up the invitation addressed to their name: the role in the club (and the
    player, where the owner named one that has no login yet)."""
    # Locked so a double tap on "Annehmen" cannot create the membership twice.
    invitation = Invitation.objects.select_for_update(of=("self",)).select_related("club").get(pk=invitation.pk)
    if invitation.username_key != canonical_username(user.get_username()):
        raise ValidationError(_("Diese Einladung gilt einem anderen Zugang."))
    membership = Membership.objects.filter(club=invitation.club, user=user).first()
    if membership is None:
        membership = Membership.objects.create(club=invitation.club, user=user, role=invitation.role)
    member = invitation.member
    if (
        member is not None
        and member.user_id is None
        and not Member.objects.filter(club=member.club, user=user).exists()
    ):
        _link_player(member=member, membership=membership)
    invitation.delete()
    return membership


@transaction.atomic
def invitation_decline(*, invitation: Invitation, user: AbstractBaseUser) -> None:
    """``user`` declines an invitation addressed to their name; the club sees it gone."""
    if invitation.username_key != canonical_username(user.get_username()):
        raise ValidationError(_("Diese Einladung gilt einem anderen Zugang."))
    invitation.delete()


@transaction.atomic
def invitation_withdraw(*, invitation: Invitation) -> None:
    """An owner takes an open invitation back."""
    invitation.delete()


def _link_player(*, member: Member, membership: Membership) -> None:
    if member.club_id != membership.club_id:
        raise ValidationError({"member": _("Dieser Spieler gehört zu einem anderen Verein.")})
    if member.user_id is not None and member.user_id != membership.user_id:
        raise ValidationError({"member": _("Dieser Spieler hat schon einen Zugang.")})
    member.user = membership.user
    member.save(update_fields=["user"])


@transaction.atomic
def membership_set_role(*, membership: Membership, role: str) -> Membership:
    """Changes a login's role; a club always keeps at least one owner."""
    owners = _lock_owners(membership.club)
    if membership.role == Role.OWNER and role != Role.OWNER and owners == [membership.pk]:
        raise ValidationError({"role": _("Der Verein braucht mindestens einen Vorstand.")})
    membership.role = role
    membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def membership_revoke(*, membership: Membership) -> None:
    """Takes a login's access away; the player it was linked to stays, without the login."""
    owners = _lock_owners(membership.club)
    if owners == [membership.pk]:
        raise ValidationError(_("Der Verein braucht mindestens einen Vorstand."))
    Member.objects.filter(club=membership.club, user=membership.user).update(user=None)
    membership.delete()
