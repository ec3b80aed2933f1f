"""``manage.py bench --concurrent``: many scorers at once against the production server.

In the bench's own database (``tools.benchdb``) a club with one evening of ``tables`` tables of
four players and ``clients`` scorer logins; then gunicorn with the production settings and
``deploy/gunicorn.conf.py`` on a loopback port, and ``clients`` threads, spread evenly over the
tables, entering hands as phones do for ``seconds`` seconds: each reads its table's state, picks
a valid next hand and posts it (the JSON form, with the idempotency key and the number it
expects, as the phone's form sends them). A post that comes back stale (another phone saved
first) is retried with the fresh state; now and then a phone sends the very same post twice (a
double tap, a resent form).

Then it checks what the issue asks: every hand a client saw saved is in its table's log exactly
once, nothing else is (no hand lost, none doubled), every table is zero-sum (ledger plus Stock),
and the stored ledger is what a fresh fold of the log gives. It reports the p50 and p95 of a
hand save (the POST that saved, as the client timed it), the throughput and the retries.
Loopback only: the server binds 127.0.0.1.
"""

from __future__ import annotations

import datetime
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections import Counter
from dataclasses import dataclass, field
from http.cookiejar import Cookie, CookieJar
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connections
from django.db.models import Sum
from django.test import Client
from django.urls import reverse

from clubs.models import Club, Member, Membership, Role
from scoring import selectors, services
from scoring.models import Entry, LedgerEntry, Table
from tools.bench import next_entry
from tools.benchdb import BenchDatabase

STARTUP_SECONDS = 60
DOUBLE_TAP = 0.05  # share of saves a phone sends twice


@dataclass
class Phone:
    """One scorer's phone at one table: what it saw saved, and how long each save took."""

    table_id: int
    cookies: CookieJar
    csrf: str
    saved: list[str] = field(default_factory=list)  # idempotency keys of saves that came back saved
    save_ms: list[float] = field(default_factory=list)
    stale: int = 0
    refused: int = 0
    errors: list[str] = field(default_factory=list)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _cookie(name: str, value: str) -> Cookie:
    return Cookie(0, name, value, None, False, "127.0.0.1", False, False, "/", True, False, None, False, None, None, {})


def setup_evening(*, tables: int, clients: int) -> tuple[Club, list[Table], list[Any]]:
    """The club, its evening with ``tables`` tables of four, and ``clients`` scorer logins."""
    club = Club.objects.create(name="Last-Verein", slug="last")
    members = [Member.objects.create(club=club, display_name=f"Spieler {i:02d}") for i in range(1, 4 * tables + 1)]
    session = services.session_create(club=club, date=datetime.date.today(), user=None)
    started = [
        services.table_start(
            session=session, members=members[4 * i : 4 * i + 4], name=f"Tisch {i + 1}", rules="allgaeu", user=None
        )
        for i in range(tables)
    ]
    User = get_user_model()
    users = []
    for i in range(clients):
        user = User.objects.create_user(username=f"schreiber{i:02d}", password=None)
        Membership.objects.create(club=club, user=user, role=Role.SCORER)
        users.append(user)
    return club, started, users


def start_server(db: BenchDatabase, static_root: Path, port: int, log: Path) -> subprocess.Popen[bytes]:
    """gunicorn with the production settings, on the bench's database, bound to loopback."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    env |= {
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": settings.SECRET_KEY,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_HTTPS": "0",
        "DJANGO_STATIC_ROOT": str(static_root),
        "DJANGO_ENV_FILE": os.devnull,  # not this machine's server settings
        "DATABASE_URL": db.url,
    }
    base = Path(settings.BASE_DIR)
    args = [sys.executable, "-m", "gunicorn", "--config", str(base / "deploy" / "gunicorn.conf.py")]
    args += ["--bind", f"127.0.0.1:{port}", "config.wsgi:application"]
    return subprocess.Popen(args, cwd=base, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)


def wait_ready(server: subprocess.Popen[bytes], base: str, log: Path) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server ended at start:\n{log.read_text(errors='replace')[-2000:]}")
        try:
            urllib.request.urlopen(base + "/accounts/login/", timeout=5).close()  # noqa: S310 - loopback
            return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"the server did not answer within {STARTUP_SECONDS} s")


def phone_for(user: Any, table: Table) -> Phone:
    """A logged-in phone: the session made as a login makes it, the CSRF cookie the form sets."""
    client = Client()
    client.force_login(user)
    jar = CookieJar()
    csrf = uuid.uuid4().hex + uuid.uuid4().hex  # any 32+ characters; the form echoes the cookie
    jar.set_cookie(_cookie(settings.SESSION_COOKIE_NAME, client.cookies[settings.SESSION_COOKIE_NAME].value))
    jar.set_cookie(_cookie(settings.CSRF_COOKIE_NAME, csrf))
    return Phone(table.pk, jar, csrf)


def _post(phone: Phone, url: str, fields: dict[str, str]) -> tuple[int, float]:
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(phone.cookies), _NoRedirect())
    body = urllib.parse.urlencode(fields).encode()
    request = urllib.request.Request(url, data=body, headers={"X-CSRFToken": phone.csrf})
    started = time.perf_counter()
    try:
        with opener.open(request, timeout=60) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
    return status, (time.perf_counter() - started) * 1000


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # a saved hand answers 302; that answer is the result


def run_phone(phone: Phone, url: str, until: float, seed: int) -> None:
    """Enter hands until ``until``: read the state, post a valid next hand, retry when stale."""
    rng = random.Random(seed)
    table = Table.objects.get(pk=phone.table_id)
    try:
        while time.monotonic() < until:
            number = Entry.objects.filter(table=table).count() + 1
            data = next_entry(table, rng)
            key = uuid.uuid4().hex
            fields = {"data": json.dumps(data), "idempotency_key": key, "expected_number": str(number)}
            status, ms = _post(phone, url, fields)
            if status == 302:
                phone.saved.append(key)
                phone.save_ms.append(ms)
                if rng.random() < DOUBLE_TAP:
                    again, _ms = _post(phone, url, fields)  # the same form once more: must not double
                    if again != 302:
                        phone.errors.append(f"double tap answered {again}")
            elif status == 200:
                # Re-rendered: another phone saved first (stale), or the hand no longer fits the
                # state it was picked for. Either way: read the state again and go on.
                phone.stale += 1
            else:
                phone.refused += 1
                phone.errors.append(f"HTTP {status}")
    finally:
        connections.close_all()


@dataclass(frozen=True)
class LoadResult:
    figures: dict[str, Any]
    problems: list[str]


def check_tables(tables: list[Table], phones: list[Phone]) -> tuple[dict[str, int], list[str]]:
    """No hand lost or doubled, every table zero-sum, the ledger what a fresh fold gives."""
    problems = []
    saved_by_table: dict[int, Counter[str]] = {}
    for phone in phones:
        saved_by_table.setdefault(phone.table_id, Counter()).update(phone.saved)
    counts = {"entries": 0, "lost": 0, "doubled": 0, "not_zero_sum_tables": 0}
    for table in tables:
        keys = list(Entry.objects.filter(table=table).values_list("idempotency_key", flat=True))
        counts["entries"] += len(keys)
        stored, seen = Counter(keys), saved_by_table.get(table.pk, Counter())
        lost = len(set(seen) - set(stored))  # reported saved, not in the log
        # In the log twice, reported saved twice, or in the log without any phone seeing it saved.
        doubled = sum(n - 1 for n in stored.values()) + sum(n - 1 for n in seen.values())
        doubled += len(set(stored) - set(seen))
        counts["lost"] += lost
        counts["doubled"] += doubled
        if lost or doubled:
            problems.append(f"{table.name}: {lost} hand(s) lost, {doubled} doubled or unexpected")
        numbers = sorted(Entry.objects.filter(table=table).values_list("number", flat=True))
        if numbers != list(range(1, len(numbers) + 1)):
            problems.append(f"{table.name}: numbers not 1..{len(numbers)}")
        ledger = LedgerEntry.objects.filter(table=table).aggregate(total=Sum("amount"))["total"] or 0
        last = Entry.objects.filter(table=table).order_by("-number").first()
        stock = last.stock_after if last else 0
        if ledger + stock != 0:
            counts["not_zero_sum_tables"] += 1
            problems.append(f"{table.name}: not zero-sum (ledger {ledger}, Stock {stock})")
        folded = selectors.table_state(table).totals
        rows = LedgerEntry.objects.filter(table=table).values_list("member__display_name").annotate(total=Sum("amount"))
        by_member = dict(rows)
        if {name: by_member.get(name, 0) for name in folded} != folded:
            problems.append(f"{table.name}: the ledger differs from a fresh fold of the log")
    return counts, problems


def server_save_ms(log: Path) -> list[float]:
    """The server's own time for each saved hand (gunicorn's access log: a POST answered 302)."""
    times = []
    for line in log.read_text(errors="replace").splitlines():
        match = re.search(r'"POST \S+/eintragen/ HTTP/[\d.]+" 302 \S+ (\d+)ms$', line)
        if match:
            times.append(float(match.group(1)))
    return sorted(times)


def _percentiles(times: list[float], prefix: str) -> dict[str, float | None]:
    return {
        f"{prefix}_p50_ms": round(statistics.median(times), 1) if times else None,
        f"{prefix}_p95_ms": round(statistics.quantiles(times, n=20)[-1], 1) if len(times) > 1 else None,
    }


def run_load(
    *, db: BenchDatabase, static_root: Path, clients: int, tables: int, seconds: float, log: Path
) -> LoadResult:
    club, started, users = setup_evening(tables=tables, clients=clients)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(db, static_root, port, log)
    try:
        wait_ready(server, base, log)
        phones = [phone_for(user, started[i % tables]) for i, user in enumerate(users)]
        urls = {
            table.pk: base
            + reverse(
                "scoring:entry_add",
                kwargs={"slug": club.slug, "session_id": table.session_id, "table_id": table.pk},
            )
            for table in started
        }
        until = time.monotonic() + seconds
        threads = [
            threading.Thread(target=run_phone, args=(phone, urls[phone.table_id], until, i))
            for i, phone in enumerate(phones)
        ]
        began = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - began
    finally:
        server.terminate()
        server.wait(timeout=30)
    counts, problems = check_tables(started, phones)
    problems += [f"phone {i}: {error}" for i, phone in enumerate(phones) for error in phone.errors[:3]]
    times = sorted(ms for phone in phones for ms in phone.save_ms)
    saved = len(times)
    figures = {
        "database": db.vendor,
        "server": "gunicorn " + _gunicorn_shape(),
        "clients": clients,
        "tables": tables,
        "seconds": round(elapsed, 1),
        "hands_saved": saved,
        "hands_per_s": round(saved / elapsed, 1) if elapsed else 0.0,
        # As the phone sees it (request to answer, queueing in the server included) and as the
        # server spends it (gunicorn's access log: the worker's time for the request).
        **_percentiles(times, "save"),
        "save_max_ms": round(times[-1], 1) if times else None,
        **_percentiles(server_save_ms(log), "server_save"),
        "stale_retries": sum(phone.stale for phone in phones),
        "refused": sum(phone.refused for phone in phones),
        **counts,
    }
    return LoadResult(figures, problems)


def _gunicorn_shape() -> str:
    return f"{os.environ.get('GUNICORN_WORKERS', '2')} workers x {os.environ.get('GUNICORN_THREADS', '4')} threads"
