"""The tenant: a club, its players (members) and the logins that may see it (memberships).

A Member is a player whose name appears on score sheets; a Membership is a login's role in a
club. The two are separate because most players never log in, and a login may belong to a
person who does not play (a club's treasurer). Member.user links the two where they are one.
"""

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clubs.games import Game


class Club(models.Model):
    name = models.CharField(_("Name"), max_length=100)
    slug = models.SlugField(_("Kürzel"), max_length=50, unique=True)
    # The language of the club's pages; it wins over the browser's (clubs.access.club_for), and
    # only a visitor's own choice in the page footer wins over it.
    language = models.CharField(_("Sprache"), max_length=8, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE)
    # The game the club plays (clubs.games): the rule sets its pages offer and the words they speak.
    game = models.CharField(_("Spiel"), max_length=12, choices=Game.choices, default=Game.SCHAFKOPF)
    created_at = models.DateTimeField(_("angelegt"), auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("Verein")
        verbose_name_plural = _("Vereine")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("clubs:home", kwargs={"slug": self.slug})


class Member(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members", verbose_name=_("Verein"))
    display_name = models.CharField(_("Name"), max_length=60)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="club_players",
        verbose_name=_("Zugang"),
    )
    is_active = models.BooleanField(_("aktiv"), default=True)
    created_at = models.DateTimeField(_("angelegt"), auto_now_add=True)

    class Meta:
        ordering = ["display_name"]
        verbose_name = pgettext_lazy("one", "Spieler")
        verbose_name_plural = _("Spieler")
        constraints = [
            # Names identify players on score sheets and in the JSON format, so "Sepp" and "sepp"
            # would be one person twice.
            models.UniqueConstraint(
                Lower("display_name"),
                "club",
                name="member_display_name_unique_in_club",
                violation_error_message=_("Diesen Namen gibt es in diesem Verein schon."),
            ),
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=models.Q(user__isnull=False),
                name="member_one_player_per_login_in_club",
                violation_error_message=_("Dieser Zugang gehört schon zu einem anderen Spieler."),
            ),
        ]

    def __str__(self) -> str:
        return self.display_name


class Role(models.TextChoices):
    OWNER = "owner", _("Vorstand")
    SCORER = "scorer", _("Schreiber")
    MEMBER = "member", _("Mitglied")


class Membership(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="club_memberships",
        verbose_name=_("Zugang"),
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("Verein"))
    role = models.CharField(_("Rolle"), max_length=10, choices=Role.choices, default=Role.MEMBER)
    created_at = models.DateTimeField(_("angelegt"), auto_now_add=True)

    class Meta:
        ordering = ["club", "user__username"]
        verbose_name = _("Zugang")
        verbose_name_plural = _("Zugänge")
        constraints = [
            models.UniqueConstraint(fields=["user", "club"], name="membership_unique_user_club"),
            models.CheckConstraint(
                condition=models.Q(role__in=Role.values),
                name="membership_role_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.club} ({self.get_role_display()})"

    @property
    def can_write(self) -> bool:
        """May enter and correct hands."""
        return self.role in (Role.OWNER, Role.SCORER)

    @property
    def can_manage(self) -> bool:
        """May manage members, roles and the club's rules."""
        return self.role == Role.OWNER


class Invitation(models.Model):
    """An owner's offer of a role in the club to an existing login, addressed by name. The login
    sees it under "Meine Vereine" and accepts or declines it: nobody joins a club without
    consenting. The name is kept as typed and compared canonically (``clubs.logins``); an
    invitation to a name no login has is stored all the same, so the owner's page never tells
    whether a username exists."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("Verein"))
    username = models.CharField(_("Benutzername"), max_length=150)
    username_key = models.CharField(max_length=150, db_index=True)  # canonical_username(username)
    role = models.CharField(_("Rolle"), max_length=10, choices=Role.choices, default=Role.MEMBER)
    member = models.ForeignKey(
        Member, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("Spieler")
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("angelegt"), auto_now_add=True)

    class Meta:
        ordering = ["club", "username_key"]
        verbose_name = _("Einladung")
        verbose_name_plural = _("Einladungen")
        constraints = [
            models.UniqueConstraint(fields=["club", "username_key"], name="invitation_unique_club_name"),
            models.CheckConstraint(condition=models.Q(role__in=Role.values), name="invitation_role_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.username} → {self.club}"
