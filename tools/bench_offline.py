"""The offline score sheet measured (issue 16), and the browser steps the offline tests share:
a phone that installed the app, the taps of a Rufspiel, what the queue and the caches hold.

``measure_rate`` (``manage.py bench_offline``, issue 33) takes one phone at a CPU slowdown:
the page's memory online without and with the engine, the main thread's longest task while the
engine starts, the signal dropping during a hand until the first offline preview, the page
opened offline until the first preview, and the bytes the phone keeps. Playwright (a development
requirement) drives Debian's Chromium; nothing here is imported by the running app.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import statistics
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tools import cpu_throttle
from tools.cpu_throttle import Throttle

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, CDPSession, Page

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


# The middle of a target in the viewport (scrolled to the middle when it is not in view):
# ``[text of a label, the entry form's fieldset or null]``, or a CSS selector inside the form.
_TARGET = """([text, fieldset, selector]) => {
    const form = document.getElementById("entry-form");
    const scope = fieldset === null ? form : form.querySelectorAll("fieldset")[fieldset];
    const target = selector ? form.querySelector(selector) : Array.from(scope.querySelectorAll("label")).find(
        (l) => l.textContent.toLowerCase().includes(text.toLowerCase()));
    let box = target.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) {
        target.scrollIntoView({ block: "center" });
        box = target.getBoundingClientRect();
    }
    return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
}"""


def tap_rufspiel_at_once(page: Page, declarer: str, partner: str, augen: int) -> None:
    """The taps of ``tap_rufspiel`` by the screen's coordinates, as a thumb taps: without
    Playwright's waits for a layout at rest (two animation frames per tap), which on a page
    still busy with its Liste at CPU ÷ 4 cost seconds more. Each tap still waits for the page's
    main thread: at ÷ 4 the five end 5–6 s after DOMContentLoaded (docs/offline.md)."""
    for text, fieldset in (("Rufspiel", None), (declarer, 1), (partner, 2)):
        point = page.evaluate(_TARGET, [text, fieldset, None])
        page.touchscreen.tap(point["x"], point["y"])
    if page.evaluate("document.querySelector('#entry-form details.augen-typed').open") is False:
        point = page.evaluate(_TARGET, ["", None, "details.augen-typed summary"])
        page.touchscreen.tap(point["x"], point["y"])
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


# Before any script of a page: the main thread's long tasks and when the signal dropped; with
# sessionStorage "bench-no-engine" the page gets a Worker that never answers (no engine at all),
# with "bench-no-early-start" it does not see the service worker's mark of a page from the cache.
WATCH = """
if (sessionStorage.getItem("bench-no-engine")) {
    window.Worker = class { postMessage() {} terminate() {} };
}
if (sessionStorage.getItem("bench-no-early-start")) {
    // As before the early start (issue 33): the page does not know the service worker served it
    // from the cache, so the worker starts when offline-table.js runs after the Liste.
    Object.defineProperty(PerformanceNavigationTiming.prototype, "serverTiming", { get() { return []; } });
}
window.__longTasks = [];
new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]);
}).observe({ type: "longtask", buffered: true });
window.addEventListener("offline", () => { window.__offlineAt = performance.now(); });
document.addEventListener("input", () => { window.__lastInputAt = performance.now(); }, true);
"""


def _page_times(page: Page) -> dict[str, Any]:
    """The page's own clock (ms since its navigation started): the engine's start and readiness,
    the first offline preview, the signal's drop, and the longest main-thread task while the
    engine started (and in all)."""
    return page.evaluate(
        """() => {
            const root = document.getElementById("offline-table").dataset;
            const start = Number(root.engineStartMs || 0), ready = Number(root.engineReadyMs || 0);
            const tasks = window.__longTasks || [];
            const during = tasks.filter(([s, d]) => s + d >= start && s <= ready).map(([s, d]) => d);
            const nav = performance.getEntriesByType("navigation")[0] || {};
            return {
                page_response_end_ms: Math.round(nav.responseEnd || 0),
                page_dom_content_loaded_ms: Math.round(nav.domContentLoadedEventEnd || 0),
                page_load_ms: Math.round(nav.loadEventEnd || 0),
                engine_early_ms: root.engineEarlyMs ? Number(root.engineEarlyMs) : null,
                engine_start_ms: start, engine_ready_ms: ready,
                first_preview_ms: Number(root.firstPreviewMs || 0),
                offline_at_ms: window.__offlineAt || null,
                last_input_ms: Math.round(window.__lastInputAt || 0),
                longest_task_during_start_ms: Math.round(Math.max(0, ...during)),
                long_tasks_during_start: during.length,
                longest_task_ms: Math.round(Math.max(0, ...tasks.map(([s, d]) => d))),
            };
        }"""
    )


def first_preview_ms(page: Page, url: str, players: list[str]) -> dict[str, Any]:
    """Open the table page (offline, from the phone's cache), tap a hand as soon as the page is
    there, and read when the engine was ready and when the first preview showed (milliseconds
    since the navigation started, as the page's own clock has them)."""
    page.goto(url, wait_until="domcontentloaded")
    tap_rufspiel_at_once(page, players[1], players[2], 72)
    page.locator("#preview table.payouts[data-offline]").wait_for(timeout=ENGINE_TIMEOUT_MS)
    return {**_page_times(page), **_worker_steps(page)}


def _worker_steps(page: Page) -> dict[str, Any]:
    """The engine's start in its worker: loading Pyodide (WebAssembly, standard library, Python's
    start), importing the engine, making the table (its log folded); and when each step ended on
    the page's clock (``worker_at_ms``: the worker's script started, Pyodide's loader read, the
    engine zip and the snapshot read from the cache, Pyodide running, the engine imported, the
    table made)."""
    origin = page.evaluate("performance.timeOrigin")
    for worker in page.workers:
        if worker.url.endswith("offline-engine.js"):
            t = worker.evaluate("timings")
            if "table" in t:
                shift = t.get("origin", origin) - origin
                return {
                    "worker_snapshot_bytes": int(t.get("snapshot") or t.get("made") or 0),
                    "worker_from_snapshot": bool(t.get("snapshot")),
                    "worker_pyodide_ms": round(t["pyodide"] - t["start"]),
                    "worker_engine_import_ms": round(t["engine"] - t["pyodide"]),
                    "worker_table_ms": round(t["table"] - t["engine"]),
                    "worker_at_ms": {
                        step: round(t[step] + shift)
                        for step in ("start", "script", "read", "pyodide", "engine", "table")
                        if step in t
                    },
                }
    return {}


def _engine_answers_on_main_thread(trace: bytes) -> int:
    """The longest main-thread task (ms) that handles a message of the engine's worker, from a
    Chrome trace: the page's own share of the engine's work (the rest runs in the worker)."""
    events = json.loads(trace)
    events = events["traceEvents"] if isinstance(events, dict) else events
    mains = {
        (e["pid"], e["tid"])
        for e in events
        if e.get("ph") == "M" and e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"
    }
    tasks = [e for e in events if (e.get("pid"), e.get("tid")) in mains and e.get("name") == "RunTask"]
    longest = 0
    for message in events:
        if message.get("name") != "HandlePostMessage" or (message.get("pid"), message.get("tid")) not in mains:
            continue
        for task in tasks:
            if task["pid"] == message["pid"] and task["ts"] <= message["ts"] < task["ts"] + task.get("dur", 0):
                longest = max(longest, task["dur"])
    return round(longest / 1000)


def _renderers_pss() -> int:
    """Bytes (PSS) of the Chromium renderer processes under this process: the page, its worker
    and the service worker live in them."""
    total = 0
    mine = {os.getpid()}
    procs = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            procs.append((int(entry.name), int(stat.rsplit(")", 1)[1].split()[1]), cmdline))
    grew = True
    while grew:
        grew = False
        for pid, parent, _cmd in procs:
            if parent in mine and pid not in mine:
                mine.add(pid)
                grew = True
    for pid, _parent, cmdline in procs:
        if pid in mine and b"--type=renderer" in cmdline:
            try:
                rollup = (Path("/proc") / str(pid) / "smaps_rollup").read_text()
            except OSError:
                continue
            total += int(re.search(r"^Pss:\s+(\d+) kB", rollup, re.M).group(1)) * 1024
    return total


def _memory(page: Page, cdp: CDPSession) -> dict[str, int]:
    cdp.send("HeapProfiler.collectGarbage")
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    engine = 0
    for worker in page.workers:
        if worker.url.endswith("offline-engine.js"):
            engine = int(worker.evaluate("pyodide ? pyodide._module.HEAP8.buffer.byteLength : 0"))
    return {
        "page_js_heap_used_bytes": int(metrics["JSHeapUsedSize"]),
        "engine_wasm_memory_bytes": engine,
        "renderers_pss_bytes": _renderers_pss(),
    }


def _settle(page: Page) -> None:
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(3000)  # idle time: the background start would have begun


def measure_rate(
    context: BrowserContext, url: str, players: list[str], rate: int, runs: int, throttle: str = "threads"
) -> dict[str, Any]:
    """One phone (a fresh browser context) at CPU ÷ ``rate``: the app installed, then the page
    online without and with the engine (memory, the main thread during its start), the signal
    dropping during a hand, and the page opened offline ``runs`` times.

    ``throttle``: ``threads`` (every thread of the browser at most 1/rate of a core, the kernel's
    CFS quota, ``tools.cpu_throttle``), ``tree`` (the whole browser together at 1/rate of one core)
    or ``cdp`` (Chrome's ``Emulation.setCPUThrottlingRate``: the page's main thread only)."""
    context.add_init_script(WATCH)
    page = context.new_page()
    page.set_default_timeout(ENGINE_TIMEOUT_MS)
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    install_app(page, url)
    out: dict[str, Any] = {"cpu_slowdown": rate, "throttle": throttle if rate > 1 else None}
    with contextlib.ExitStack() as stack:
        if throttle == "cdp":
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
            if cpu_throttle.available():  # the browser weighed as at ÷ 1, no quota
                stack.enter_context(Throttle(1))
        else:
            kernel = stack.enter_context(Throttle(rate, throttle))
        out.update(_measure_phone(page, cdp, url, players, rate, runs))
        if throttle != "cdp" and rate > 1:
            out["throttled_ms"] = kernel.throttled_ms()
    page.close()
    return out


def _busy_ms(page: Page) -> dict[str, int]:
    """A fixed loop of arithmetic on the page's thread and in the engine's worker (ms): how much
    the throttling slows each (the same loop at ÷ 1 gives the ratio)."""
    loop = (
        "() => { const t = performance.now(); let x = 0;"
        " for (let i = 0; i < 3e7; i++) x = (x + i * 7) % 1000003; return [performance.now() - t, x]; }"
    )
    out = {"page": round(page.evaluate(loop)[0])}
    for worker in page.workers:
        if worker.url.endswith("offline-engine.js"):
            out["worker"] = round(worker.evaluate(f"({loop})()")[0])
    return out


def _measure_phone(page: Page, cdp: CDPSession, url: str, players: list[str], rate: int, runs: int) -> dict[str, Any]:
    context = page.context
    out: dict[str, Any] = {}

    # Online without the engine (a Worker that never answers), for the memory it costs.
    page.evaluate("() => sessionStorage.setItem('bench-no-engine', '1')")
    page.goto(url)
    _settle(page)
    out["online_without_engine"] = _memory(page, cdp)
    # ... and opened offline without it: the main thread's tasks of the page itself.
    context.set_offline(True)
    page.goto(url, wait_until="domcontentloaded")
    tap_rufspiel(page, players[1], players[2], 72)
    _settle(page)
    out["opened_offline_without_engine_longest_task_ms"] = _page_times(page)["longest_task_ms"]
    context.set_offline(False)
    page.evaluate("() => sessionStorage.removeItem('bench-no-engine')")

    # Online: the engine starts in the background and folds the stored log.
    page.goto(url)
    page.locator("#offline-table[data-engine-ready-ms]").wait_for(state="attached")
    _settle(page)
    out["online_with_engine"] = {**_memory(page, cdp), **_page_times(page), **_worker_steps(page)}
    out["busy_loop_ms"] = _busy_ms(page)

    # A hand being typed online (the server's preview), then the signal drops; ``runs`` times,
    # each on the page opened afresh online with the engine started in the background.
    drops = []
    for run in range(runs):
        if run:
            context.set_offline(False)
            page.goto(url)
            page.locator("#offline-table[data-engine-ready-ms]").wait_for(state="attached")
            _settle(page)
        tap_rufspiel(page, players[1], players[2], 72)
        page.wait_for_load_state("networkidle")
        page.locator("#preview table.payouts").wait_for()
        context.set_offline(True)
        page.get_by_label("Augen der Spieler").fill("75")
        page.locator("#preview table.payouts[data-offline]").wait_for()
        times = _page_times(page)
        drops.append(round(times["first_preview_ms"] - times["offline_at_ms"]))
    out["signal_drop_to_first_preview_runs_ms"] = drops
    out["signal_drop_to_first_preview_ms"] = statistics.median(drops)

    # Opened without signal, from the phone's cache; the main thread traced.
    opened = []
    browser = context.browser
    for _ in range(runs):
        if browser:
            browser.start_tracing(
                page=page, categories=["devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute"]
            )
        times = first_preview_ms(page, url, players)
        if browser:
            trace = browser.stop_tracing()
            times["longest_engine_answer_task_ms"] = _engine_answers_on_main_thread(trace)
        opened.append(times)
    out["opened_offline_runs"] = opened
    # The same without the early start (the worker started by offline-table.js after the Liste).
    page.evaluate("() => sessionStorage.setItem('bench-no-early-start', '1')")
    late = [first_preview_ms(page, url, players) for _ in range(runs)]
    page.evaluate("() => sessionStorage.removeItem('bench-no-early-start')")
    out["opened_offline_without_early_start_runs"] = late
    out["opened_offline_without_early_start_first_preview_ms"] = statistics.median(t["first_preview_ms"] for t in late)
    out["opened_offline_without_early_start_engine_ready_ms"] = statistics.median(t["engine_ready_ms"] for t in late)
    out["opened_offline_first_preview_ms"] = statistics.median(t["first_preview_ms"] for t in opened)
    out["opened_offline_engine_ready_ms"] = statistics.median(t["engine_ready_ms"] for t in opened)
    out["opened_offline_longest_task_during_start_ms"] = max(t["longest_task_during_start_ms"] for t in opened)
    out["cached_bytes"] = sum(cached_bytes(page).values())
    context.set_offline(False)
    return out
