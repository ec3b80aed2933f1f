"""Every club-scoped URL, found by walking the URL configuration, and what each role must get.

A URL is club-scoped when its route has a `slug` kwarg (the club). Its view must be declared
through `clubs.access.club_view`, which puts a `ClubViewRule` (need, methods) on it; the
expected status for each role follows from that rule alone.

Other kwargs are filled from SAMPLES: kwarg name → factory(club, made) that creates an object
of that club and returns the value for the URL. `made` holds the kwargs filled so far, in the
order of SAMPLES, so a hand can be made in the evening of `made["session_id"]`. A view with a
new kwarg (`session_id`, `hand_id`, …) needs one line here; the test says so when it is missing.
"""

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.urls.resolvers import RoutePattern

from clubs.access import ROLES_FOR_NEED, ClubViewRule
from clubs.models import Club, Invitation, Role
from opentournaments.models import OpenTournament
from scoring.models import Session, Table
from tests.factories import (
    MemberFactory,
    MembershipFactory,
    SessionFactory,
    make_adjustment,
    make_entry,
    make_open_registration,
    make_open_round,
    make_open_tournament,
    make_partie_table,
    make_playoff,
    make_table,
    make_tournament,
)
from tournaments.models import Tournament

CLUB_KWARG = "slug"


ROLES = ("anonymous", "outsider", Role.MEMBER.value, Role.SCORER.value, Role.OWNER.value)
METHODS = ("GET", "POST")

SAMPLES: dict[str, Callable[[Club, dict[str, object]], object]] = {
    "member_id": lambda club, made: MemberFactory(club=club).pk,
    "membership_id": lambda club, made: MembershipFactory(club=club, role=Role.MEMBER).pk,
    "invitation_id": lambda club, made: (
        Invitation.objects.create(club=club, username="eingeladen", username_key="eingeladen").pk
    ),
    "session_id": lambda club, made: SessionFactory(club=club).pk,
    "table_id": lambda club, made: make_table(Session.objects.get(pk=made["session_id"])).pk,
    "entry_id": lambda club, made: make_entry(Table.objects.get(pk=made["table_id"])).pk,
    "tournament_id": lambda club, made: make_tournament(club).pk,
    "partie_index": lambda club, made: 1,
    "table_number": lambda club, made: (
        make_partie_table(Tournament.objects.get(pk=made["tournament_id"]), made["partie_index"]).number
    ),
    "playoff_id": lambda club, made: make_playoff(Tournament.objects.get(pk=made["tournament_id"])).pk,
    "adjustment_id": lambda club, made: make_adjustment(Tournament.objects.get(pk=made["tournament_id"])).pk,
    "open_id": lambda club, made: make_open_tournament(club).pk,
    "registration_id": lambda club, made: make_open_registration(OpenTournament.objects.get(pk=made["open_id"])).pk,
    "round_number": lambda club, made: make_open_round(OpenTournament.objects.get(pk=made["open_id"])).number,
    "table_no": lambda club, made: 1,
    # The public tournament link (no login): the club's slug and a tournament's token.
    "club_slug": lambda club, made: club.slug,
    "token": lambda club, made: make_open_tournament(club).public_token,
}


@dataclass(frozen=True)
class ClubURL:
    name: str  # namespaced URL name, for reverse()
    kwargs: frozenset[str]
    rule: ClubViewRule | None  # None: the view bypasses club_view, which the test rejects

    @property
    def object_kwargs(self) -> list[str]:
        return sorted(self.kwargs - {CLUB_KWARG})


def _kwarg_names(pattern: object) -> set[str]:
    if isinstance(pattern, RoutePattern):
        return set(pattern.converters)
    return set(pattern.regex.groupindex)  # RegexPattern, LocalePrefixPattern has none


def _walk(patterns: list, namespace: str, inherited: frozenset[str], club_only: bool = True) -> Iterator[ClubURL]:
    for entry in patterns:
        kwargs = inherited | _kwarg_names(entry.pattern)
        if isinstance(entry, URLResolver):
            if entry.namespace == "admin":  # Django's own, not the project's pages
                continue
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from _walk(entry.url_patterns, inner, kwargs, club_only)
        elif isinstance(entry, URLPattern) and (CLUB_KWARG in kwargs or not club_only):
            name = f"{namespace}{entry.name}" if entry.name else f"<unnamed {entry.pattern}>"
            yield ClubURL(name=name, kwargs=kwargs, rule=getattr(entry.callback, "club_rule", None))


def club_urls() -> list[ClubURL]:
    return sorted(_walk(get_resolver().url_patterns, "", frozenset()), key=lambda u: u.name)


def all_urls() -> list[ClubURL]:
    """Every named URL of the project (the admin's left out), club-scoped or not."""
    return sorted(_walk(get_resolver().url_patterns, "", frozenset(), club_only=False), key=lambda u: u.name)


def sample_kwargs(url: ClubURL, club: Club) -> dict[str, object]:
    """The URL's kwargs for `club`, with sample objects of that club for the other kwargs."""
    missing = [kwarg for kwarg in url.object_kwargs if kwarg not in SAMPLES]
    assert not missing, f"{url.name}: add a sample for {missing} to SAMPLES in tests/access_matrix.py"
    made: dict[str, object] = {CLUB_KWARG: club.slug}
    for kwarg, factory in SAMPLES.items():
        if kwarg in url.kwargs:
            made[kwarg] = factory(club, made)
    return {kwarg: value for kwarg, value in made.items() if kwarg in url.kwargs}


def sample_path(url: ClubURL, club: Club) -> str:
    """The URL's path for `club`, with sample objects of that club for the other kwargs."""
    return reverse(url.name, kwargs=sample_kwargs(url, club))


def expected_status(rule: ClubViewRule, role: str, method: str) -> int | set[int]:
    """The status a role must get. An allowed POST (sent empty) may re-render or redirect."""
    if role == "anonymous":
        return 302  # to the login page
    if role == "outsider":
        return 404
    if role not in ROLES_FOR_NEED[rule.need]:
        return 403
    if not rule.allows(method):
        return 405
    return 200 if method == "GET" else {200, 302}
