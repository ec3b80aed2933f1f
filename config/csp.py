"""Content-Security-Policy on every response (issue 17).

Django 5.2 has no CSP of its own (6.0 brings ``SECURE_CSP`` and a middleware), and django-csp
would be a dependency for one static header: the pages have no inline script or style and need
no nonce. So this small middleware writes ``settings.SECURE_CSP`` — a dict shaped like Django 6.0's
setting of the same name, so that upgrading is swapping this class for Django's. A view that set
its own policy keeps it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from django.conf import settings
from django.http import HttpRequest, HttpResponse

HEADER = "Content-Security-Policy"


def policy(directives: Mapping[str, Sequence[str]]) -> str:
    return "; ".join(" ".join([name, *sources]) for name, sources in directives.items())


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.header = policy(settings.SECURE_CSP)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if self.header and HEADER not in response:
            response[HEADER] = self.header
        return response
