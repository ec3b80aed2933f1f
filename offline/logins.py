"""Whose copy is it: the login a phone's offline copies belong to (issue 22, a shared phone).

A phone a club shares keeps, per site, one Cache Storage and one IndexedDB for whoever uses it.
So every page and JSON the server answers names the login it was made for, as an opaque id
(``login_id``: an HMAC of the user's key with ``SECRET_KEY``, the same for every session of that
login, telling nothing about it), in the response header ``X-Offline-Login`` (``-`` for nobody
logged in). The service worker keeps cached table pages per login and serves only the copies of
the login the server named last; the page stores that id with each entry it queues and sends
only its own. The sending view refuses an entry whose id is not the sender's
(``offline.views.entry_send``).

It does not hide the phone's storage from someone who opens the browser's developer tools: a
login that ends (logged out, another login named) has its copies of table pages deleted; its
waiting entries stay until they are sent or discarded (docs/offline.md).
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse
from django.utils.crypto import salted_hmac

HEADER = "X-Offline-Login"
NOBODY = "-"
# Only what the service worker looks at: pages and the table's JSON (not static files, the
# engine or the worker itself, which need no session).
NAMED_TYPES = ("text/html", "application/json")


def login_id(user: AbstractBaseUser | AnonymousUser) -> str:
    """The opaque id of ``user``'s login, or ``NOBODY``."""
    if not user.is_authenticated:
        return NOBODY
    return salted_hmac("offline.logins.login_id", str(user.pk), algorithm="sha256").hexdigest()[:32]


class LoginHeaderMiddleware:
    """Names the login on every page and JSON answer (after ``AuthenticationMiddleware``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        content_type = response.get("Content-Type", "")
        if user is not None and HEADER not in response and content_type.startswith(NAMED_TYPES):
            response[HEADER] = login_id(user)
        return response
