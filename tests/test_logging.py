"""Logs an admin can read (issue 17): a refused request — 403, 404, a disallowed Host — is one
line; a real error keeps its traceback. Through the configured console handler."""

from __future__ import annotations

import io
import logging
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from config.logfilters import RefusalsOnOneLine
from tests.factories import World

pytestmark = pytest.mark.django_db


@pytest.fixture
def console() -> Iterator[io.StringIO]:
    """What the configured console handler writes (its filter and all), into a string."""
    handler = next(h for h in logging.getLogger().handlers if any(isinstance(f, RefusalsOnOneLine) for f in h.filters))
    stream = io.StringIO()
    old = handler.setStream(stream)  # type: ignore[attr-defined]
    yield stream
    handler.setStream(old)  # type: ignore[attr-defined]


def test_a_forbidden_page_is_one_line(client_as: Any, console: io.StringIO, caplog: pytest.LogCaptureFixture) -> None:
    response = client_as("member").get(reverse("scoring:club_rules", kwargs={"slug": "test"}))
    assert response.status_code == 403
    assert any(r.levelname == "WARNING" and "Forbidden" in r.getMessage() for r in caplog.records)
    lines = console.getvalue().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Forbidden (Permission denied): /clubs/test/")
    assert "PermissionDenied" in lines[0] and "Traceback" not in console.getvalue()


def test_an_outsider_and_a_missing_page_are_one_line_each(client_as: Any, world: World, console: io.StringIO) -> None:
    client = client_as("outsider")
    assert client.get(reverse("clubs:home", kwargs={"slug": "test"})).status_code == 404
    assert client.get("/gibt-es-nicht/").status_code == 404
    lines = console.getvalue().splitlines()
    assert len(lines) == 2 and all(line.startswith("Not Found: /") for line in lines)


def test_a_disallowed_host_is_one_line_and_escaped(client: Client, console: io.StringIO) -> None:
    assert client.get("/", HTTP_HOST="evil.example\x1b[2J").status_code == 400
    lines = console.getvalue().splitlines()
    assert len(lines) == 1 and "DisallowedHost" in lines[0] and "\x1b" not in lines[0]


def test_a_real_error_keeps_its_traceback(console: io.StringIO, caplog: pytest.LogCaptureFixture) -> None:
    try:
        raise ZeroDivisionError("kaputt")
    except ZeroDivisionError:
        logging.getLogger("django.request").error(
            "Internal Server Error: %s", "/x/", exc_info=sys.exc_info(), extra={"status_code": 500}
        )
    assert "Traceback" in console.getvalue() and "ZeroDivisionError: kaputt" in console.getvalue()
    assert caplog.records[-1].exc_info is not None
