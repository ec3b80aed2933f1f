"""``manage.py bench_offline``: the offline score sheet on a phone-sized Debian Chromium
(issues 16 and 33).

Makes a temporary database (``tools.benchdb.temporary_database``: a SQLite file in a temporary
folder, or a new database on the configured PostgreSQL server; migrated, dropped at the end),
builds a club with one table of ``--hands`` entries there, and starts the app on 127.0.0.1
against it. Then, for each CPU slowdown of ``--cpu`` (1 and 4 by default; ``--throttle threads``:
every thread of the browser — the page, the engine's Web Worker, the service worker — at most
1/n of a core by the kernel's CFS quota, ``tools.cpu_throttle``; ``tree``: the whole browser
together at 1/n of one core; ``cdp``: Chrome's ``Emulation.setCPUThrottlingRate``, the page's
main thread only), a fresh phone (390×844, touch) installs the app and measures
(``tools.bench_offline.measure_rate``): the page's memory online without the engine and with
it started in the background; the longest main-thread task while the engine starts; a hand
typed online whose signal drops, until the first offline preview; the page opened offline
(``--runs`` times), until the first preview, with the engine's steps in its worker.
Prints JSON (times in ms on the page's own clock, memory in bytes).

Needs the development requirements (Playwright) and Debian's Chromium; run it with
``DJANGO_DEBUG=1`` so the static files come from the source folders (docs/offline.md).
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.staticfiles.handlers import StaticFilesHandler
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.test import Client
from django.test.testcases import LiveServerThread

from clubs.models import Club, Member, Membership, Role
from scoring import selectors, services
from scoring.engine.core import EngineError
from scoring.engine.samples import schafkopf_hand
from scoring.engine.session import advance
from scoring.models import Table
from tools import cpu_throttle
from tools.bench_offline import measure_rate
from tools.benchdb import temporary_database

SLUG = "bench-offline"
PLAYERS = ["Anna", "Bert", "Cilli", "Done"]
CHROMIUM = Path("/usr/bin/chromium")


class Command(BaseCommand):
    help = "Measure the phone's offline engine: start, first previews, main-thread tasks, memory."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--hands", type=int, default=200, help="entries already on the table (default 200)")
        parser.add_argument("--runs", type=int, default=2, help="offline openings of the page per phone (default 2)")
        parser.add_argument("--cpu", type=int, nargs="+", default=[1, 4], help="CPU slowdowns (default 1 4)")
        parser.add_argument(
            "--throttle",
            choices=["threads", "tree", "cdp"],
            default="threads",
            help="how the CPU is slowed: every thread of the browser by the kernel's CFS quota (default; "
            "root, cgroup v1), the whole browser together, or Chrome's throttling of the page's main thread",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            from playwright.sync_api import sync_playwright
        except ImportError:
            raise CommandError("Playwright is missing: pip install -r requirements-dev.txt") from None
        if not CHROMIUM.exists():
            raise CommandError(f"No Chromium at {CHROMIUM} (apt-get install chromium)")
        if options["throttle"] != "cdp" and max(options["cpu"]) > 1 and not cpu_throttle.available():
            raise CommandError(f"{cpu_throttle.CPU} is not writable: run as root, or --throttle cdp")
        with temporary_database():
            result = self._measure(sync_playwright, options)
        result["load_average_after"] = os.getloadavg()
        self.stdout.write(json.dumps(result, indent=2))

    def _measure(self, sync_playwright: Any, options: dict[str, Any]) -> dict[str, Any]:
        table, user = self._table(options["hands"])
        client = Client()
        client.force_login(user)
        server = LiveServerThread("127.0.0.1", StaticFilesHandler)
        server.daemon = True
        server.start()
        server.is_ready.wait()
        if server.error:
            raise CommandError(f"the server did not start: {server.error}")
        base = f"http://127.0.0.1:{server.port}"
        result: dict[str, Any] = {
            "hands": options["hands"],
            "runs": options["runs"],
            "load_average": os.getloadavg(),
            "phones": [],
        }
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-background-networking"]
                )
                for rate in options["cpu"]:
                    context = browser.new_context(
                        locale="de-DE",
                        viewport={"width": 390, "height": 844},
                        has_touch=True,
                        is_mobile=True,
                        device_scale_factor=2,
                    )
                    context.add_cookies(
                        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}]
                    )
                    phone = measure_rate(
                        context, base + table.get_absolute_url(), PLAYERS, rate, options["runs"], options["throttle"]
                    )
                    result["phones"].append(phone)
                    context.close()
                browser.close()
        finally:
            server.terminate()
        return result

    def _table(self, hands: int) -> tuple[Table, Any]:
        """A club with a scorer and a table of ``hands`` random valid entries."""
        club = Club.objects.create(name="Bench offline", slug=SLUG)
        user = get_user_model().objects.create(username="bench-offline")
        Membership.objects.create(user=user, club=club, role=Role.SCORER)
        members = [Member.objects.create(club=club, display_name=name) for name in PLAYERS]
        session = services.session_create(club=club, date="2026-11-20", user=None)
        table = services.table_start(session=session, members=members, rules="allgaeu", user=None)
        setup = selectors.table_setup(table)
        state = selectors.table_state(table, setup).state
        rng = random.Random(16)
        added = 0
        while added < hands:
            entry: dict[str, Any] = (
                {"event": "vote", "choice": "bockrunde"}
                if state.vote_pending
                else schafkopf_hand(setup.ruleset, rng, state.seats, state.round)
            )
            try:
                _result, state = advance(setup.ruleset, setup.rules, state, entry)
            except EngineError:
                continue
            services.entry_append(table=table, data=entry, user=None)
            added += 1
        return table, user
