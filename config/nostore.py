"""Pages are never kept by the browser (issue 21): every HTML page of the app shows money or a
table state (totals, who deals, "wer zahlt wem"), and a copy kept for Back would show them stale
after a save elsewhere. ``no-store`` keeps the page out of the HTTP cache (which Back reads
without asking the server) and, in most browsers, out of the back/forward cache; static/js/page.js
reloads a page the back/forward cache restores anyway.

The service worker's copy of a table page for use without signal is not affected: it is kept in
the worker's own cache (templates/offline/sw.js), which serves it only when the network fails.
Static files are answered by WhiteNoise before this middleware sees them (cached for a year).
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.cache import add_never_cache_headers


class NoStoreMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        html = response.get("Content-Type", "").startswith("text/html")
        if html and not response.has_header("Cache-Control"):
            add_never_cache_headers(response)
        return response
