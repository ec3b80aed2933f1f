"""The offline score sheet measured (issue 16), and the browser steps the offline tests share:
a phone that installed the app, the taps of a Rufspiel, what the queue and the caches hold.

``measure_rate`` (``manage.py bench_offline``, issue 33) takes one phone at a CPU slowdown:
the page's memory online without and with the engine, the main thread's longest task while the
engine starts, the signal dropping during a hand until the first offline preview, the page
opened offline until the first preview, and the bytes the phone keeps. Playwright (a development
requirement) drives Debian's Chromium; nothing here is imported by the running app.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

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
# sessionStorage "bench-no-engine" the page gets a Worker that never answers (no engine at all).
WATCH = """
if (sessionStorage.getItem("bench-no-engine")) {
    window.Worker = class { postMessage() {} terminate() {} };
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
            return {
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
    tap_rufspiel(page, players[1], players[2], 72)
    page.locator("#preview table.payouts[data-offline]").wait_for(timeout=ENGINE_TIMEOUT_MS)
    return {**_page_times(page), **_worker_steps(page)}


def _worker_steps(page: Page) -> dict[str, Any]:
    """The engine's start in its worker: loading Pyodide (WebAssembly, standard library, Python's
    start), importing the engine, making the table (its log folded)."""
    for worker in page.workers:
        if worker.url.endswith("offline-engine.js"):
            t = worker.evaluate("timings")
            if "table" in t:
                return {
                    "worker_snapshot_bytes": int(t.get("snapshot") or t.get("made") or 0),
                    "worker_from_snapshot": bool(t.get("snapshot")),
                    "worker_pyodide_ms": round(t["pyodide"] - t["start"]),
                    "worker_engine_import_ms": round(t["engine"] - t["pyodide"]),
                    "worker_table_ms": round(t["table"] - t["engine"]),
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


def measure_rate(context: BrowserContext, url: str, players: list[str], rate: int, runs: int) -> dict[str, Any]:
    """One phone (a fresh browser context) at CPU ÷ ``rate``: the app installed, then the page
    online without and with the engine (memory, the main thread during its start), the signal
    dropping during a hand, and the page opened offline ``runs`` times."""
    context.add_init_script(WATCH)
    page = context.new_page()
    page.set_default_timeout(ENGINE_TIMEOUT_MS)
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    install_app(page, url)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    out: dict[str, Any] = {"cpu_slowdown": rate}

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

    # A hand being typed online (the server's preview), then the signal drops.
    tap_rufspiel(page, players[1], players[2], 72)
    page.wait_for_load_state("networkidle")
    page.locator("#preview table.payouts").wait_for()
    context.set_offline(True)
    page.get_by_label("Augen der Spieler").fill("75")
    page.locator("#preview table.payouts[data-offline]").wait_for()
    times = _page_times(page)
    out["signal_drop_to_first_preview_ms"] = round(times["first_preview_ms"] - times["offline_at_ms"])

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
            times["longest_engine_answer_task_ms"] = _engine_answers_on_main_thread(browser.stop_tracing())
        opened.append(times)
    out["opened_offline_runs"] = opened
    out["opened_offline_first_preview_ms"] = statistics.median(t["first_preview_ms"] for t in opened)
    out["opened_offline_engine_ready_ms"] = statistics.median(t["engine_ready_ms"] for t in opened)
    # The throttling leaves the worker's thread at full speed: as if it ran ``rate`` times slower.
    steps = ("worker_pyodide_ms", "worker_engine_import_ms", "worker_table_ms")
    worker = [sum(t.get(step, 0) for step in steps) for t in opened]
    out["opened_offline_engine_ready_ms_worker_slowed_too"] = statistics.median(
        t["engine_ready_ms"] + (rate - 1) * w for t, w in zip(opened, worker, strict=True)
    )
    out["opened_offline_longest_task_during_start_ms"] = max(t["longest_task_during_start_ms"] for t in opened)
    out["cached_bytes"] = sum(cached_bytes(page).values())
    context.set_offline(False)
    page.close()
    return out
