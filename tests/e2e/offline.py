"""The live server as the offline browser tests see it: under i17's Content-Security-Policy,
every request counted (none may arrive while the phone is offline)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

# The policy i17 sets (scripts only from the app, plus the WebAssembly compile Pyodide needs).
CSP = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; style-src 'self' 'unsafe-inline'"
)


class Guard:
    """WSGI middleware for the live server: adds the CSP to every answer and counts requests."""

    def __init__(self, app: Callable[..., Any]) -> None:
        self.app = app
        self.paths: list[str] = []

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        self.paths.append(environ.get("PATH_INFO", ""))

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            kept = [(k, v) for k, v in headers if k.lower() != "content-security-policy"]
            return start_response(status, [*kept, ("Content-Security-Policy", CSP)], exc_info)

        return self.app(environ, start)
