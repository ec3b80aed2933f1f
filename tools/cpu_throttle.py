"""CPU ÷ n for every thread of a browser (``manage.py bench_offline``, issue 33).

Chromium's ``Emulation.setCPUThrottlingRate`` slows the page's main thread only: a Web Worker
(the phone's engine) and the service worker keep running at full speed, which flatters every
figure the worker decides. This throttles with the Linux kernel instead, through the CPU
controller of cgroup v1 (``/sys/fs/cgroup/cpu``, writable by root in the container):

- ``threads``: every thread of the browser's processes in a cgroup of its own with the CFS quota
  of 1/n of one core (``cpu.cfs_quota_us`` = period / n, period 10 ms): each thread runs at most a
  quarter of the time at ÷ 4, whatever the others do — a phone whose cores are each n times slower,
  with cores enough for the threads that are busy at once. New threads (a Web Worker, a new
  renderer process) start in their parent's cgroup and get their own within a few milliseconds
  (``POLL_S``): a thread created in a cgroup inherits it, so it is never faster than ÷ n meanwhile.
- ``tree``: the whole browser (all its processes and threads together) in one cgroup with 1/n of
  one core: the pessimistic bound, as if the phone had one slow core for the page, its worker,
  the service worker, the compositor and the network.

Both are real limits of the scheduler (a busy loop under ``threads`` at ÷ 4 takes 4.2 times as
long) and come on top of what the machine's other work takes. Nothing here is imported by the
running app.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from pathlib import Path

CPU = Path("/sys/fs/cgroup/cpu")
PERIOD_US = 10_000  # short periods: a 30 ms task is not stretched by a 100 ms pause
POLL_S = 0.003
SHARES = 64 * 1024  # the default is 1024
BROWSER = "chromium"


def available() -> bool:
    """Whether the cgroup v1 CPU controller is there and writable (root in the container)."""
    return (CPU / "tasks").exists() and os.access(CPU / "tasks", os.W_OK)


def _children() -> dict[int, int]:
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    return parents


def browser_pids(root: int | None = None, browser: bool = True) -> list[int]:
    """The Chromium processes under ``root`` (this process by default: Playwright's driver
    starts the browser); with ``browser=False`` the others (this process, the driver)."""
    parents = _children()
    mine = {root or os.getpid()}
    grew = True
    while grew:
        grew = False
        for pid, parent in parents.items():
            if parent in mine and pid not in mine:
                mine.add(pid)
                grew = True
    out = []
    for pid in sorted(mine):
        try:
            if (BROWSER in os.readlink(f"/proc/{pid}/exe")) == browser:
                out.append(pid)
        except OSError:
            continue
    return out


def _write(path: Path, value: str) -> bool:
    try:
        path.write_text(value)
    except OSError:  # the thread ended meanwhile
        return False
    return True


class Throttle:
    """``with Throttle(4, "threads"):`` the browser under this process at CPU ÷ 4."""

    def __init__(self, rate: float, mode: str = "threads") -> None:
        if mode not in ("threads", "tree"):
            raise ValueError(mode)
        self.rate = rate
        self.mode = "tree" if rate <= 1 else mode  # ÷ 1: one group without a quota
        self.base = CPU / f"bench-offline-{os.getpid()}"
        self.placed: set[int] = set()
        self.pids: list[int] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _group(self, name: str) -> Path:
        group = self.base / name
        if not group.exists():
            group.mkdir()
            (group / "cpu.cfs_period_us").write_text(str(PERIOD_US))
            if self.rate > 1:
                (group / "cpu.cfs_quota_us").write_text(str(int(PERIOD_US / self.rate)))
        return group

    def _place(self, rescan: bool = True) -> None:
        if rescan:
            self.pids = browser_pids()
        pids = self.pids
        if self.mode == "tree":
            tree = self._group("tree")
            for pid in pids:
                if pid not in self.placed and _write(tree / "cgroup.procs", str(pid)):
                    self.placed.add(pid)
            return
        for pid in pids:
            try:
                tids = [int(t) for t in os.listdir(f"/proc/{pid}/task")]
            except OSError:
                continue
            for tid in tids:
                if tid not in self.placed:
                    with contextlib.suppress(OSError):
                        if _write(self._group(f"t{tid}") / "tasks", str(tid)):
                            self.placed.add(tid)

    def _run(self) -> None:
        rescan = 0.0
        while not self._stop.is_set():
            now = time.monotonic()
            # New threads of the known processes every POLL_S, new processes every 50 ms: a new
            # process or thread starts in its parent thread's cgroup, so it is throttled meanwhile.
            if now >= rescan:
                self._place()
                rescan = now + 0.05
            elif self.mode == "threads":
                self._place(rescan=False)
            self._stop.wait(POLL_S)

    def __enter__(self) -> Throttle:
        self.base.mkdir(exist_ok=True)
        # The machine is shared: the browser weighs SHARES against each of the other processes,
        # so that it gets its 1/rate of a core (or a whole core at ÷ 1) even when they are busy;
        # the harness (this process with the app's server, Playwright's driver) too, unthrottled:
        # its taps and reads are not what is measured.
        (self.base / "cpu.shares").write_text(str(SHARES))
        harness = self.base / "harness"
        harness.mkdir(exist_ok=True)
        for pid in browser_pids(browser=False):
            _write(harness / "cgroup.procs", str(pid))
        self._place()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._thread is None:
            return
        self._stop.set()
        self._thread.join()
        # Every thread back to the root cgroup, then the cgroups (empty now) removed.
        for group in self.base.iterdir():
            if not group.is_dir():
                continue
            with contextlib.suppress(OSError):
                for tid in (group / "tasks").read_text().split():
                    _write(CPU / "tasks", tid)
        for group in self.base.iterdir():
            if group.is_dir():
                with contextlib.suppress(OSError):
                    group.rmdir()
        with contextlib.suppress(OSError):
            self.base.rmdir()

    def throttled_ms(self) -> int:
        """How long the scheduler held the throttled threads back, summed (ms)."""
        total = 0
        for stat in self.base.glob("*/cpu.stat"):
            with contextlib.suppress(OSError, ValueError):
                for line in stat.read_text().splitlines():
                    if line.startswith("throttled_time "):
                        total += int(line.split()[1])
        return total // 1_000_000
