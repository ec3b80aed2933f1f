"""The one door to club data: every club-scoped view goes through `club_view` (or `club_for`).

Who gets what, for a URL with a club `slug`:

- anonymous visitors are sent to the login page (the view needs a login); `club_for` alone
  answers them with 404;
- logged-in outsiders get 404, whether the club exists or not, so slugs do not leak;
- members whose role is below the view's need get 403;
- everyone else gets the view, called as `view(request, access, **other_kwargs)`.

Needs: "read" (every role), "write" (scorers and owners: enter and correct hands),
"manage" (owners: members, roles, the club's rules).

Objects below the club (a member, an evening) must be fetched through `access.club`
(`get_object_or_404(Member, club=access.club, pk=member_id)`), never by id alone; the
URL-walking test in tests/clubs/test_access_matrix.py checks that too.
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from functools import wraps
from typing import Any, NamedTuple

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.utils import translation

from clubs.models import Club, Membership, Role


class Need(StrEnum):
    READ = "read"
    WRITE = "write"
    MANAGE = "manage"


ROLES_FOR_NEED: dict[Need, frozenset[str]] = {
    Need.READ: frozenset(Role.values),
    Need.WRITE: frozenset({Role.OWNER, Role.SCORER}),
    Need.MANAGE: frozenset({Role.OWNER}),
}


class ClubAccess(NamedTuple):
    club: Club
    membership: Membership


def club_for(request: HttpRequest, slug: str, need: Need | str = Need.READ) -> ClubAccess:
    """The club and the requesting user's membership, or Http404 / PermissionDenied."""
    need = Need(need)
    if not request.user.is_authenticated:
        raise Http404
    membership = Membership.objects.select_related("club").filter(club__slug=slug, user=request.user).first()
    if membership is None:
        raise Http404
    if membership.role not in ROLES_FOR_NEED[need]:
        raise PermissionDenied
    club_language_activate(request, membership.club)
    request.club = membership.club  # type: ignore[attr-defined]  # its words (clubs.context_processors)
    return ClubAccess(membership.club, membership)


def club_language_activate(request: HttpRequest, club: Club) -> None:
    """Show the club's pages in the club's language (``Club.language``), whatever language the
    browser asks for; a visitor's own choice (the footer's switch, a cookie) still wins. Called
    only once access is granted, so an outsider's 404 does not tell a club's language."""
    if request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) in dict(settings.LANGUAGES):
        return
    translation.activate(club.language)
    request.LANGUAGE_CODE = club.language


@dataclass(frozen=True)
class ClubViewRule:
    """What a club view declares; the URL-walking test reads it from `view.club_rule`."""

    need: Need
    methods: frozenset[str]

    def allows(self, method: str) -> bool:
        return method in self.methods or (method == "HEAD" and "GET" in self.methods)


ClubViewFunc = Callable[..., HttpResponse]


def club_view(need: Need | str, *, methods: Iterable[str] = ("GET", "POST")) -> Callable[[ClubViewFunc], ClubViewFunc]:
    """Decorate a view taking `(request, access: ClubAccess, **kwargs)`; its URL has `<slug:slug>`.

    Access is checked before the method, so an outsider learns nothing from a 405.
    """
    rule = ClubViewRule(Need(need), frozenset(m.upper() for m in methods))

    def decorator(view: ClubViewFunc) -> ClubViewFunc:
        @wraps(view)
        def wrapped(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            access = club_for(request, slug, rule.need)
            if not rule.allows(request.method or ""):
                return HttpResponseNotAllowed(sorted(rule.methods))
            return view(request, access, *args, **kwargs)

        wrapped.club_rule = rule  # type: ignore[attr-defined]
        return wrapped

    return decorator
