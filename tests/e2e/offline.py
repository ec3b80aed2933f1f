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


# Every entry the phone keeps (IndexedDB, as offline-table.js stores it), whoever typed it.
STORED_ENTRIES = """() => new Promise((resolve, reject) => {
    const open = indexedDB.open("schafkopf-offline");
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
        const request = open.result.transaction("entries").objectStore("entries").getAll();
        request.onsuccess = () => resolve(request.result.map((r) => ({key: r.key, login: r.login, status: r.status})));
        request.onerror = () => reject(request.error);
    };
})"""

# The paths of every page and JSON the phone keeps in its caches of table pages, by cache.
CACHED_TABLE_PAGES = """async () => {
    const out = {};
    for (const name of (await caches.keys()).filter((n) => n.startsWith("schafkopf-tables"))) {
        out[name] = (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname);
    }
    return out;
}"""
