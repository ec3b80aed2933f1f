"""What the offline browser tests (and ``manage.py bench_offline``) share: the server under a
Content-Security-Policy with every request counted, a phone that installed the app, the taps
of a Rufspiel on the entry form."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from playwright.sync_api import Page

# The policy i17 sets (scripts only from the app, plus the WebAssembly compile Pyodide needs).
CSP = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; style-src 'self' 'unsafe-inline'"
)
# Pyodide's start on a loaded two-core machine: seconds, sometimes tens of them.
ENGINE_TIMEOUT_MS = 180_000


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


def install_app(page: Page, url: str) -> None:
    """Open the table page online until the service worker controls it and has cached the
    page, the app's files, Pyodide and the table's log."""
    page.goto(url)
    controlled = "() => navigator.serviceWorker && navigator.serviceWorker.controller !== null"
    page.wait_for_function(controlled, timeout=120_000)
    script = """async () => {
        const tables = await caches.open("schafkopf-tables");
        const keys = (await tables.keys()).map((r) => new URL(r.url).pathname);
        return keys.some((p) => p.endsWith("/offline.json")) && keys.some((p) => /tische\\/\\d+\\/$/.test(p));
    }"""
    deadline = time.monotonic() + 120
    while not page.evaluate(script):
        assert time.monotonic() < deadline, "the table page was not cached"
        page.wait_for_timeout(250)


def tap_rufspiel(page: Page, declarer: str, partner: str, augen: int) -> None:
    form = page.locator("#entry-form")
    form.locator("label", has_text="Rufspiel").click()
    form.locator("fieldset").nth(1).locator("label", has_text=declarer).click()
    form.locator("fieldset").nth(2).locator("label", has_text=partner).click()
    page.get_by_label("Augen der Spieler").fill(str(augen))


def queued_rows(page: Page) -> list[dict[str, Any]]:
    """The entries waiting on the phone: number, key, each player's amount as the engine folded it."""
    return page.evaluate(
        """() => Array.from(document.querySelectorAll("#offline-table tr.offline-entry")).map((row) => ({
            number: Number(row.cells[0].textContent),
            key: row.dataset.key,
            status: row.className,
            amounts: Object.fromEntries(Array.from(row.querySelectorAll("td[data-player]")).map(
                (td) => [td.dataset.player, td.dataset.amount === "" ? null : Number(td.dataset.amount)])),
        }))"""
    )


def cached_bytes(page: Page) -> dict[str, int]:
    """Bytes in the app's caches (Cache Storage, by cache) as the phone keeps them."""
    return page.evaluate(
        """async () => {
            const out = {};
            for (const name of await caches.keys()) {
                const cache = await caches.open(name);
                let total = 0;
                for (const request of await cache.keys()) {
                    total += (await (await cache.match(request)).arrayBuffer()).byteLength;
                }
                out[name] = total;
            }
            return out;
        }"""
    )
