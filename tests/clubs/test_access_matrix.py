"""Every club-scoped URL × every role × GET and POST gets the status its declared need implies.

The URLs come from walking the URL configuration (tests/access_matrix.py), so a view added
later is covered without being listed here.
"""

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.access_matrix import METHODS, ROLES, ClubURL, club_urls, expected_status, sample_path
from tests.factories import World

URLS = club_urls()


@pytest.fixture(autouse=True)
def no_pdf_layout(monkeypatch: pytest.MonkeyPatch) -> None:
    """Who may see a printout is decided before it is drawn: the printout's template is still
    rendered, WeasyPrint's layout (seconds a page, 40 printouts × roles here) is left out. The
    printouts themselves are tested in their apps and by the hostile-request sweep."""
    import weasyprint

    monkeypatch.setattr(weasyprint.HTML, "write_pdf", lambda self, *args, **kwargs: b"%PDF-1.7 access test")


def test_the_walk_finds_the_club_pages() -> None:
    """Guards the walker itself: if it found nothing, the matrix below would pass vacuously."""
    names = {url.name for url in URLS}
    assert {"clubs:home", "clubs:member_list", "clubs:member_edit", "clubs:logins"} <= names


@pytest.mark.parametrize("url", URLS, ids=lambda url: url.name)
def test_every_club_url_goes_through_club_view(url: ClubURL) -> None:
    assert url.rule is not None, f"{url.name} has a club slug but its view is not wrapped in clubs.access.club_view"
    assert not url.name.startswith("<unnamed"), f"{url.name}: club URLs need a name"


# Who may do what is decided by clubs.access from the same membership rows on any database:
# run once (the hostile-request sweep and the pages' own tests still run on PostgreSQL).
@pytest.mark.no_db_variance
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("url", URLS, ids=lambda url: url.name)
def test_status_per_role(url: ClubURL, role: str, method: str, client: Client, world: World) -> None:
    if url.rule is None:
        pytest.skip("reported by test_every_club_url_goes_through_club_view")
    path = sample_path(url, world.club)
    if role != "anonymous":
        client.force_login(world.users[role])
    response = client.generic(method, path)
    expected = expected_status(url.rule, role, method)
    allowed = expected if isinstance(expected, set) else {expected}
    assert response.status_code in allowed, f"{role} {method} {path}: {response.status_code}, expected {expected}"
    if role == "anonymous":
        assert response.url.startswith(reverse(settings.LOGIN_URL)), response.url


# Only requests the view accepts: for other methods it answers 405 before it looks up objects.
OBJECT_REQUESTS = [
    pytest.param(url, method, id=f"{url.name}-{method}")
    for url in URLS
    if url.object_kwargs and url.rule is not None
    for method in METHODS
    if url.rule.allows(method)
]


@pytest.mark.parametrize(("url", "method"), OBJECT_REQUESTS)
def test_objects_of_another_club_are_not_found(url: ClubURL, method: str, client: Client, world: World) -> None:
    """The club's owner asks for an object of another club under their own club's slug."""
    other_path = sample_path(url, world.other_club)
    path = other_path.replace(f"/{world.other_club.slug}/", f"/{world.club.slug}/", 1)
    client.force_login(world.users["owner"])
    assert client.generic(method, path).status_code == 404
