"""``manage.py bench_offline``: the offline score sheet on a phone-sized Debian Chromium.

Starts the app on 127.0.0.1 (a free port) against the configured database, builds the club
``bench-offline`` with one table of ``--hands`` entries (deleted first if it is there), lets
the phone install the app, switches the network off and opens the table page ``--runs``
times, tapping a Rufspiel at once. Prints JSON: ``first_preview_ms`` (navigation start to the
first live preview from the engine in the page, median; it includes Pyodide's start and the
fold of the stored log), ``engine_ready_ms``, ``cached_bytes`` (Cache Storage, by cache) and
``storage_usage_bytes`` (the browser's estimate for the site: caches, IndexedDB, the worker).

Needs the development requirements (Playwright) and Debian's Chromium; run it with
``DJANGO_DEBUG=1`` so the static files come from the source folders (docs/offline.md).
"""

from __future__ import annotations

import json
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
from scoring.models import Session, Table
from tools.bench_offline import measure

SLUG = "bench-offline"
PLAYERS = ["Anna", "Bert", "Cilli", "Done"]
CHROMIUM = Path("/usr/bin/chromium")


class Command(BaseCommand):
    help = "Time the offline score sheet's first preview (cache warm) and the bytes a phone keeps."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--hands", type=int, default=200, help="entries already on the table (default 200)")
        parser.add_argument("--runs", type=int, default=5, help="offline openings of the page (default 5)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            from playwright.sync_api import sync_playwright
        except ImportError:
            raise CommandError("Playwright is missing: pip install -r requirements-dev.txt") from None
        if not CHROMIUM.exists():
            raise CommandError(f"No Chromium at {CHROMIUM} (apt-get install chromium)")
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
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-background-networking"]
                )
                context = browser.new_context(locale="de-DE", viewport={"width": 390, "height": 844})
                context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}])
                page = context.new_page()
                page.set_default_timeout(60_000)
                result = measure(page, base + table.get_absolute_url(), PLAYERS, options["runs"])
                browser.close()
        finally:
            server.terminate()
        result["hands"] = options["hands"]
        self.stdout.write(json.dumps(result, indent=2))

    def _table(self, hands: int) -> tuple[Table, Any]:
        """A fresh club with a scorer and a table of ``hands`` random valid entries."""
        # Sessions first: a seat protects its member, so the club cannot take them along.
        Session.objects.filter(club__slug=SLUG).delete()
        Club.objects.filter(slug=SLUG).delete()
        club = Club.objects.create(name="Bench offline", slug=SLUG)
        user, _created = get_user_model().objects.get_or_create(username="bench-offline")
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
