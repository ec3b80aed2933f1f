"""Page furniture every view shares: no CDN, security headers."""

import re

from django.test import Client
from django.urls import reverse


def test_every_script_and_stylesheet_is_served_by_the_app(client: Client) -> None:
    page = client.get(reverse("login")).content.decode()
    sources = re.findall(r'<(?:script|link)[^>]+(?:src|href)="([^"]+)"', page)
    served = [source for source in sources if not source.startswith("data:")]
    assert served
    # Static files, and the app's manifest (served by a view: issue 16); never another host.
    assert all(source.startswith("/static/") or source == "/manifest.webmanifest" for source in served), sources
    for source in served:
        assert client.get(source).status_code == 200, source


def test_pages_are_not_framed(client: Client) -> None:
    response = client.get(reverse("login"))
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
