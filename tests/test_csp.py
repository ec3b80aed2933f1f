"""Content-Security-Policy on every page (issue 17): the header on every club page (walked from the
URL configuration), the pages outside a club, the error pages and the static files; and the
templates keep to the policy — no inline script, no event handler attribute, no inline style
outside the PDF templates (WeasyPrint renders those on the server, no browser applies a CSP)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from config.csp import HEADER, policy
from tests.access_matrix import ClubURL, club_urls, sample_path
from tests.factories import World

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[1]
URLS = [url for url in club_urls() if url.rule is not None and url.rule.allows("GET")]
EXPECTED = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; style-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'; "
    "form-action 'self'"
)


def test_the_policy_is_the_strict_one() -> None:
    assert policy(settings.SECURE_CSP) == EXPECTED


@pytest.mark.no_db_variance  # the header is the middleware's, whatever the page read: run once
@pytest.mark.parametrize("url", URLS, ids=lambda url: url.name)
def test_every_club_page_has_the_header(url: ClubURL, client: Client, world: World) -> None:
    client.force_login(world.users["owner"])
    response = client.get(sample_path(url, world.club))
    assert response[HEADER] == EXPECTED, url.name


@pytest.mark.parametrize(
    "path",
    ["/", "/accounts/login/", "/gibt-es-nicht/", "/static/css/app.css", reverse("clubs:create")],
)
def test_pages_outside_a_club_error_pages_and_static_files_have_it(path: str, client: Client, world: World) -> None:
    if path == reverse("clubs:create"):
        client.force_login(world.users["owner"])
    response = client.get(path)
    assert response[HEADER] == EXPECTED, (path, response.status_code)


def test_a_forbidden_page_has_it(client_as: object, world: World) -> None:
    response = client_as("member").get(reverse("scoring:club_rules", kwargs={"slug": "test"}))  # type: ignore[operator]
    assert response.status_code == 403 and response[HEADER] == EXPECTED


INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I), "an inline <script>"),
    (re.compile(r"\son[a-z]+\s*=", re.I), "an event handler attribute"),
    (re.compile(r"<style\b|\sstyle\s*=", re.I), "an inline style"),
    (re.compile(r"javascript:", re.I), "a javascript: URL"),
]


def test_no_template_needs_unsafe_inline() -> None:
    offenders = []
    for template in sorted((ROOT / "templates").rglob("*.html")):
        if "pdf" in template.relative_to(ROOT).parts:
            continue
        text = template.read_text(encoding="utf-8")
        offenders += [f"{template.relative_to(ROOT)}: {what}" for pattern, what in INLINE if pattern.search(text)]
    assert not offenders


def test_htmx_is_told_not_to_inject_its_style() -> None:
    for template in (ROOT / "templates").rglob("*.html"):
        text = template.read_text(encoding="utf-8")
        if "htmx.min.js" in text:
            assert '"includeIndicatorStyles": false' in text, template
