"""The live server as the offline browser tests see it: every request counted (none may arrive
while the phone is offline). The pages carry the app's own Content-Security-Policy
(``config/csp.py``); the tests fail on any violation the browser reports."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any


class Guard:
    """WSGI middleware for the live server: notes the path of every request that arrives."""

    def __init__(self, app: Callable[..., Any]) -> None:
        self.app = app
        self.paths: list[str] = []

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        self.paths.append(environ.get("PATH_INFO", ""))
        return self.app(environ, start_response)
