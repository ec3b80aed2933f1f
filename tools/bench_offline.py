"""The offline score sheet measured (issue 16), and the browser steps the offline tests share:
a phone that installed the app, the taps of a Rufspiel, what the queue and the caches hold.

``measure`` (``manage.py bench_offline``) opens a table page offline with the cache warm and
times the first live preview; it reports the bytes the phone keeps. Playwright (a development
requirement) drives Debian's Chromium; nothing here is imported by the running app.
"""

from __future__ import annotations

import statistics
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Page

# Pyodide's start on a loaded two-core machine: seconds, sometimes tens of them.
ENGINE_TIMEOUT_MS = 300_000


def install_app(page: Page, url: str) -> None:
    """Open the table page online until the service worker controls it and has cached the
    page, the app's files, Pyodide and the table's log."""
    page.goto(url)
    controlled = "() => navigator.serviceWorker && navigator.serviceWorker.controller !== null"
    page.wait_for_function(controlled, timeout=ENGINE_TIMEOUT_MS)
    script = """async () => {
        const keys = [];
        for (const name of (await caches.keys()).filter((n) => n.startsWith("schafkopf-tables-"))) {
            const tables = await caches.open(name);  // the logged-in login's (issue 22)
            keys.push(...(await tables.keys()).map((r) => new URL(r.url).pathname));
        }
        return keys.some((p) => p.endsWith("/offline.json")) && keys.some((p) => /tische\\/\\d+\\/$/.test(p));
    }"""
    deadline = time.monotonic() + ENGINE_TIMEOUT_MS / 1000
    while not page.evaluate(script):
        assert time.monotonic() < deadline, "the table page was not cached"
        page.wait_for_timeout(250)


def tap_rufspiel(page: Page, declarer: str, partner: str, augen: int) -> None:
    form = page.locator("#entry-form")
    form.locator("label", has_text="Rufspiel").click()
    form.locator("fieldset").nth(1).locator("label", has_text=declarer).click()
    form.locator("fieldset").nth(2).locator("label", has_text=partner).click()
    typed = form.locator("details.augen-typed")  # counted Augen sit behind the result buttons (issue 13)
    if typed.get_attribute("open") is None:
        typed.locator("summary").click()
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


def first_preview_ms(page: Page, url: str, players: list[str]) -> dict[str, int]:
    """Open the table page (offline, from the phone's cache), tap a hand as soon as the page is
    there, and read when the engine was ready and when the first preview showed (milliseconds
    since the navigation started, as the page's own clock has them)."""
    page.goto(url, wait_until="domcontentloaded")
    tap_rufspiel(page, players[1], players[2], 72)
    page.locator("#preview table.payouts[data-offline]").wait_for(timeout=ENGINE_TIMEOUT_MS)
    root = page.locator("#offline-table")
    return {
        "engine_ready_ms": int(root.get_attribute("data-engine-ready-ms") or 0),
        "first_preview_ms": int(root.get_attribute("data-first-preview-ms") or 0),
    }


def measure(page: Page, url: str, players: list[str], runs: int) -> dict[str, Any]:
    """Install the app from ``url`` (a table page), go offline, and open the page ``runs`` times."""
    install_app(page, url)
    page.context.set_offline(True)
    times = [first_preview_ms(page, url, players) for _ in range(runs)]
    usage = page.evaluate("async () => (await navigator.storage.estimate()).usage")
    kept = cached_bytes(page)
    return {
        "first_preview_ms": statistics.median(t["first_preview_ms"] for t in times),
        "engine_ready_ms": statistics.median(t["engine_ready_ms"] for t in times),
        "runs": times,
        "cached_bytes": sum(kept.values()),
        "cached_bytes_by_cache": kept,
        "storage_usage_bytes": usage,
    }
