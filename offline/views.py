"""The score sheet without signal (issue 16): the installable app (manifest, service worker, an
offline page), the engine's source for the phone's browser, and the two table endpoints the
offline page talks to — the table's rules and log as JSON, and sending one entry typed offline.

The table page stays the same server-rendered page; ``offline/static/js/offline-table.js`` puts the
engine (Pyodide running ``scoring/engine``, built into a zip here) and a queue (IndexedDB) behind
it. Sending reuses the forms and ``services.entry_append`` with the entry's idempotency key, so
an entry sent twice is stored once, and a table that moved on meanwhile answers "stale".
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.contrib.staticfiles import finders
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from clubs.access import ClubAccess, Need, club_view
from offline.logins import login_id
from scoring import engine, hooks, selectors, services
from scoring.engine.core import RuleSet
from scoring.engine.presets.schafkopf import ROUNDS
from scoring.engine.presets.schafkopf_games import GAMES
from scoring.forms.entry import EntryContext, SubmissionFields
from scoring.forms.hand import EventForm, HandForm, RawEntryForm, entry_form_class, posted_form_class
from scoring.forms.skat import SkatHandForm
from scoring.labels import round_label, suit_names, triggered_label

# Everything the table page needs from the static files, cached when the app is installed.
# Pyodide's files are loaded by their plain names (loadPyodide's indexURL), the others through
# ``static()`` (hashed names in production).
PYODIDE_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
APP_STATIC = (
    "vendor/pico/pico.blue.min.css",
    "vendor/htmx/htmx.min.js",
    "vendor/idb/idb.umd.js",
    "css/app.css",
    "css/score-sheet.css",
    "css/offline.css",
    "js/score-entry.js",
    "js/offline-register.js",
    "js/offline-early.js",
    "js/offline-table.js",
    "js/offline-engine.js",
    "icons/icon-192.png",
    "icons/icon-512.png",
)
ENGINE_DIR = Path(engine.__file__).resolve().parent


# --- the installable app ------------------------------------------------------------------------


@functools.cache
def engine_zip() -> tuple[bytes, str]:
    """The ``scoring.engine`` package as a zip the browser unpacks (a bare ``scoring`` package
    around it, so its imports read as on the server), and its hash. Built once per process."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(zipfile.ZipInfo("scoring/__init__.py", (2020, 1, 1, 0, 0, 0)), "")
        for path in sorted(ENGINE_DIR.rglob("*.py")):
            name = "scoring/engine/" + path.relative_to(ENGINE_DIR).as_posix()
            archive.writestr(zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0)), path.read_bytes())
    data = buffer.getvalue()
    return data, hashlib.sha256(data).hexdigest()[:16]


@require_GET
def engine_source(request: HttpRequest) -> HttpResponse:
    data, digest = engine_zip()
    response = HttpResponse(data, content_type="application/zip")
    response["ETag"] = f'"{digest}"'
    response["Cache-Control"] = "no-cache"  # the service worker keeps its own copy
    return response


def precache_urls() -> list[str]:
    pyodide = [f"{settings.STATIC_URL}vendor/pyodide/{name}" for name in PYODIDE_FILES]
    return [reverse("offline:page"), reverse("offline:engine"), *(static(name) for name in APP_STATIC), *pyodide]


def cache_version() -> str:
    """Changes whenever a precached file, the worker's template or the engine changes, so the
    phone refetches them (sizes and times: cheap enough for every request of the worker)."""
    digest = hashlib.sha256(engine_zip()[1].encode())
    files = [finders.find(name) for name in (*APP_STATIC, *(f"vendor/pyodide/{n}" for n in PYODIDE_FILES))]
    for path in [*files, settings.BASE_DIR / "templates" / "offline" / "sw.js"]:
        if path:
            stat = Path(path).stat()
            digest.update(f"{path}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    return digest.hexdigest()[:12]


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """Served from the site's root so its scope covers every table page."""
    context = {
        "version": cache_version(),
        "precache": json.dumps(precache_urls()),
        "static_prefix": json.dumps(str(settings.STATIC_URL)),
        "offline_page": json.dumps(reverse("offline:page")),
        "engine": json.dumps(reverse("offline:engine")),
    }
    response = render(request, "offline/sw.js", context, content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    doc = {
        "name": _("Schafkopf – Liste"),
        "short_name": _("Schafkopf"),
        "description": _("Die Liste des Spielabends, auch ohne Netz."),
        "lang": "de",
        "start_url": reverse("clubs:my_clubs"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#1c5a9c",
        "icons": [
            {"src": static(f"icons/icon-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png", "purpose": "any"}
            for size in (192, 512)
        ]
        + [{"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "maskable"}],
    }
    return JsonResponse(doc, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False})


@require_GET
def offline_page(request: HttpRequest) -> HttpResponse:
    """What a page that was never opened on this phone shows without signal. The worker caches
    it once for everyone who uses the phone: it names nobody (no login in its header line)."""
    return render(request, "offline/offline.html", {"user": AnonymousUser()})


# --- the table ----------------------------------------------------------------------------------


def form_types(form: forms.Form) -> dict[str, str]:
    """Each field of a tap form by what its cleaned value is (``offline.clean`` reads it)."""
    out = {}
    for name, field in form.fields.items():
        if isinstance(field, forms.BooleanField):
            out[name] = "bool"
        elif isinstance(field, forms.MultipleChoiceField):
            out[name] = "list"
        elif isinstance(field, forms.IntegerField) or getattr(field, "coerce", None) is int:
            out[name] = "int"
        else:
            out[name] = "str"
    return out


def labels(ruleset: RuleSet) -> dict[str, dict[str, str]]:
    """The words the phone needs to show the table facts of its own fold (rounds, games, what
    a hand sets off), translated here as the server's pages have them."""
    return {
        "rounds": {name: round_label(name) for name in ROUNDS},
        "games": {name: game.label for name, game in GAMES.items()},
        "triggers": {kind: triggered_label(kind) for kind in ("bockrunde", "mungorunde", "vote")},
        "suits": {key: str(value) for key, value in suit_names(ruleset.NAME).items()},
    }


def _json_when_gone(view: Callable[..., JsonResponse]) -> Callable[..., JsonResponse]:
    """A table of the club that is not there (any more: discarded, an open tournament's table handed
    back to its paper sheet while an entry waited in the phone's queue) answers the queue in its
    own terms: ``refused`` with the reason, as JSON with 410 Gone, never an HTML "not found" page
    (the queue shows the reason at the waiting entry and stops sending it)."""

    @functools.wraps(view)
    def answer(request: HttpRequest, access: ClubAccess, **kwargs: Any) -> JsonResponse:
        try:
            return view(request, access, **kwargs)
        except selectors.TableGone as gone:
            return JsonResponse({"status": "refused", "errors": {"__all__": [str(gone)]}}, status=410)

    return answer


@club_view(Need.READ, methods=["GET"])
@_json_when_gone
def table_data(request: HttpRequest, access: ClubAccess, session_id: int, table_id: int) -> JsonResponse:
    """The table's rules, players and log, for the engine in the browser; the idempotency keys
    stored (the phone drops what the server already has); the form the page shows; the login
    it is for (the phone sends only that login's entries with it)."""
    table = selectors.club_table(access.club, session_id, table_id)
    setup = selectors.table_setup(table)
    entries = selectors.table_log_keys(table)
    log = [data for data, _key in entries]
    context = EntryContext(setup, selectors.fold_log(setup, log).state, len(log) + 1)
    form_class = entry_form_class(context)
    form: dict[str, Any] = {"kind": "json"}
    if form_class is HandForm:
        form = {"kind": "schafkopf", "types": form_types(HandForm(context=context))}
    elif form_class is SkatHandForm:
        # The Skat form's facts are made on the phone too (skat_facts, shared with the server).
        form = {"kind": "skat", "types": form_types(SkatHandForm(context=context))}
    elif form_class is not RawEntryForm:
        form = {"kind": setup.family}  # a family's tap form: its facts are made on the server
    doc = {
        "ruleset": table.ruleset_spec,
        "players": list(setup.players),
        "first_dealer": setup.first_dealer,
        "unit": table.unit,
        "log": log,
        "keys": [key for _data, key in entries if key],
        "form": form,
        "can_write": access.membership.can_write
        and not table.session.is_closed
        and hooks.write_refusal(table, request.user) is None,
        "csrf_token": get_token(request),
        "login": login_id(request.user),
        "labels": labels(setup.ruleset),
    }
    response = JsonResponse(doc, json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "no-cache"
    return response


@club_view(Need.WRITE, methods=["POST"])
@_json_when_gone
def entry_send(request: HttpRequest, access: ClubAccess, session_id: int, table_id: int) -> JsonResponse:
    """One entry typed offline, as its form posted it (``target``: ``entry`` or ``event``).

    ``in_turn``: the hand was dealt by whoever was in turn when it was typed; its dealer is then
    whoever is in turn where it lands. Answers ``stored`` with the number it got (also when the
    key was stored before: sent twice, stored once), ``stale`` with the next number when the
    table moved on since it was typed (the phone sends it again there: the server's order
    wins), or ``refused`` with the reasons by field; nothing is stored then (a login that may not
    write at this table at all, ``scoring.hooks.table_write_checks``, gets ``refused`` as a 403;
    a table that is not there any more, as a 410).
    ``login``: the id of the login that typed it (``offline.logins``); another login's entry is
    not stored under this one: ``foreign`` (on a shared phone only the login that typed an entry
    sends it, or another one that chose to send it as its own). Each answer but that 403 and
    410 is a 200: the outcome is in ``status`` (any other status is the network's or the login's)."""
    table = selectors.club_table(access.club, session_id, table_id)  # 410 "refused" before anything else
    if request.POST.get("login") != login_id(request.user):
        return JsonResponse({"status": "foreign"})
    try:
        hooks.check_write(table, request.user)
    except PermissionDenied as refused:
        # Not this login's table (a championship table has its Schreiber): a 403 that the
        # phone shows at the entry, like a refusal, instead of trying again and again.
        return JsonResponse({"status": "refused", "errors": {"__all__": [str(refused)]}}, status=403)
    setup = selectors.table_setup(table)
    result = selectors.table_state(table, setup)
    context = EntryContext(setup, result.state, len(result.entries) + 1)
    prefix = None
    form_class: type[SubmissionFields]
    if request.POST.get("target") == "event":
        form_class, prefix = EventForm, request.POST.get("prefix") or None
    else:
        form_class = posted_form_class(context, request.POST)
    post = request.POST
    if post.get("in_turn") and form_class is HandForm:
        # Dealt in turn when typed: in turn here too, wherever the server's order puts it.
        post = post.copy()
        post["dealer"] = context.state.dealer
    form = form_class(post, context=context, prefix=prefix)
    # Sent before (the answer was lost on the way): stored once, whatever the table looks like
    # now, so before the form is checked against the table as it is now.
    key = form.posted_key()
    if key and (stored := selectors.entry_by_key(table, key)) is not None:
        return JsonResponse({"status": "stored", "number": stored.number, "repeat": True})
    if form.is_valid():
        try:
            entry = form.append(table=table, user=request.user)
        except services.StaleEntry as stale:
            return JsonResponse({"status": "stale", "next": stale.next_number})
        if entry is not None:
            return JsonResponse({"status": "stored", "number": entry.number, "repeat": False})
    errors = {field: [str(message) for message in messages] for field, messages in form.errors.items()}
    return JsonResponse({"status": "refused", "errors": errors})
