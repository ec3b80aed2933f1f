"""Issue 30 §1–§3 in the browser (Debian's Chromium, 390×844 with touch, the network off):

- a random evening at a table of five under the Allgäu rules (Dauerdeckel, Bock and Mungo rounds,
  a vote, bought cards, Deckel tapped by hand) typed offline: after every save the phone's form is
  the form the server renders online for the same log (a twin table the same facts are stored at,
  opened in a second, online phone): every field's value, default, mark and place, the save
  button's number, the table state; each entry stored on the phone with the Deckel the online
  form would have made of the same taps; and no tap needs a scroll (every button tapped lies
  between the top of the screen and the bar under the thumb, measured before the tap);
- offline "rückgängig" takes back the last entry waiting on the phone and says so, a waiting
  entry is thrown away at its row, and once the rest is sent the page says how many went until
  it is tapped away.

The bulk of the parity (every preset with a Deckel rule, hundreds of evenings) is the pure
property ``tests/offline/test_form_parity.py``.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from clubs.models import Member
from scoring import services
from scoring.engine import registry
from scoring.engine.entry_facts import form_options, table_facts
from scoring.engine.session import TableState, advance, start
from scoring.models import Entry, Table
from tests.e2e.offline import Guard
from tests.e2e.test_offline import FIVE, PLAYERS, WAIT, _engine_ready, _go_offline, _ledger, _reconnect, _wait_for
from tests.e2e.test_offline import guard as guard  # noqa: F401  (a fixture)
from tests.e2e.test_offline import touch_phone as touch_phone  # noqa: F401  (a fixture)
from tests.factories import World
from tools.bench_offline import install_app, queued_rows

pytestmark = pytest.mark.no_db_variance  # the browser's side; the server's runs in tests/offline
SEED = int(os.environ.get("OFFLINE_EVENING_SEED", "30"))
EVENING = 40  # issue 30: "a random 40-entry evening"; OFFLINE_EVENING_SEED draws another

# The entry form as a person sees and posts it: each field's value and state, the marks the page
# shows and hides by (data-games, data-default-one, data-touched, data-seller), the buttons'
# order and the save button's number; and the table state above it.
FORM_SEEN = """() => {
    const form = document.getElementById("entry-form");
    const shown = (el) => !el.closest("[hidden]");
    const classes = (el) => el ? Array.from(el.classList).filter((c) => c !== "outline").sort().join(" ") : null;
    const fields = Array.from(form.elements)
        .filter((e) => e.name && !["csrfmiddlewaretoken", "idempotency_key"].includes(e.name))
        .map((e) => {
            const label = e.closest("label");
            const reason = label && label.querySelector("small");
            const on = e.type === "radio" || e.type === "checkbox" ? [e.checked, e.defaultChecked] : [e.value];
            return [e.name, e.value, ...on, e.disabled, shown(e), classes(label), reason ? reason.textContent : null];
        });
    const marks = Array.from(form.querySelectorAll("[data-games], [data-default-one], [data-touched]")).map((e) => [
        e.tagName, classes(e), e.dataset.games ?? null, e.dataset.defaultOne ?? null, e.hasAttribute("data-touched"),
        shown(e),
    ]);
    return {
        hidden: form.hidden,
        vote: document.getElementById("vote-form") ? document.getElementById("vote-form").hidden : null,
        seller: form.dataset.seller ?? null,
        fields, marks,
        games: Array.from(form.querySelectorAll("fieldset.games label:not([hidden]) input")).map((i) => i.value),
        order: Array.from(form.querySelectorAll("[data-order] button[data-player]"))
            .map((b) => [b.dataset.player, b.hidden]),
        open: Array.from(form.querySelectorAll("details")).map((d) => d.open),
        save: form.querySelector("button.save .save-label").textContent.trim(),
        state: document.querySelector("#table-live .table-state").innerText.replace(/\\s+/g, " ").trim(),
    };
}"""

# Each entry the phone keeps, in the order typed: the facts its engine made of the form.
KEPT_FACTS = """() => new Promise((resolve, reject) => {
    const open = indexedDB.open("schafkopf-offline");
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
        const request = open.result.transaction("entries").objectStore("entries").getAll();
        request.onsuccess = () => resolve(request.result.sort((a, b) => a.seq - b.seq).map((r) => r.entry));
        request.onerror = () => reject(request.error);
    };
})"""

# Where a button lies against the bar under the thumb, before it is tapped.
PLACE = """(el) => {
    const box = el.getBoundingClientRect();
    const bar = document.querySelector("#entry-form .thumb-bar").getBoundingClientRect();
    return {top: box.top, bottom: box.bottom, bar: bar.top, scrollY: window.scrollY};
}"""


def _tables(world: World) -> tuple[Table, Table]:
    """The table typed at offline and its twin the same facts are stored at online."""
    members = [Member.objects.get(club=world.club, display_name=name) for name in PLAYERS]
    members.append(Member.objects.create(club=world.club, display_name=FIVE[4]))
    tables = []
    for date in ("2026-11-20", "2026-11-21"):
        session = services.session_create(club=world.club, date=date, place="Krone", user=None)
        tables.append(services.table_start(session=session, members=members, rules="allgaeu", user=None))
    return tables[0], tables[1]


@pytest.fixture
def online(browser: Browser, live_server: LiveServer, world: World) -> Iterator[Page]:
    """A second phone, online, logged in as the same Schreiber: how the server renders the twin.
    Without the service worker: it would start the phone's engine in the background on each of
    the 40 page loads, which this phone never uses (the form it shows is the server's)."""
    context = browser.new_context(
        locale="de-DE", viewport={"width": 390, "height": 844}, has_touch=True, service_workers="block"
    )
    client = Client()
    client.force_login(world.users["scorer"])
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(30_000)
    yield page
    context.close()


def _taps(rng: random.Random, state: TableState, number: int, tie_lines: set[str]) -> list[tuple[str, str]]:
    """A random entry for the table as it stands, as taps: (field, value); "order" a player in
    the Mungo order. The first entries set off a Bockrunde and a Mungorunde, then a Deckel by hand
    and a Mungo; the eighth takes every trick again (in the Mungorunde: a vote)."""
    if state.vote_pending:
        return [("vote", rng.choice(("mungorunde", "bockrunde")))]
    seats = list(state.seats)
    taps: list[tuple[str, str]] = []
    if state.buyers and rng.random() < 0.25:
        buyer = rng.choice(list(state.buyers))
        taps.append(("bought_by", buyer))
        seats[-1] = buyer
    games = [g for g in ("rufspiel", "solo", "wenz", "mungo", "bettel", "geier", "farbwenz") if g in state.games]
    game = {1: "rufspiel", 2: "solo", 8: "solo"}.get(number) or rng.choice(games)
    if number == 4 and "mungo" in state.games:
        game = "mungo"  # right after a Deckel tapped by hand (issue 30: online it has none)
    declarer, partner = rng.sample(seats, 2)
    taps.insert(0, ("game", game))
    if game == "mungo":
        order = rng.sample(seats, 3)  # the last one falls into place
        return taps + [("order", name) for name in order]
    taps.append(("declarer", declarer))
    if game == "rufspiel":
        taps += [("partner", partner), ("called", rng.choice(("eichel", "gras", "schellen")))]
    if game in ("solo", "farbwenz"):
        taps.append(("suit", rng.choice(("eichel", "gras", "herz", "schellen"))))
    results = ["won", "lost"] if game == "bettel" else ["won", "lost", "won_schneider", "lost_schneider", *tie_lines]
    result = {1: "a60", 2: "won_schwarz", 8: "won_schwarz"}.get(number) or rng.choice(results)
    taps.append(("result", result))
    if game != "bettel" and rng.random() < 0.3:
        taps.append(("laufende", str(rng.choice((1, 2, 3)))))
    if rng.random() < 0.25:
        taps.append(("kontra", "1"))
    if number == 3 or rng.random() < 0.3:  # never on a Mungo (it has none under Dauerdeckel)
        taps.append(("deckel", "2"))  # by hand (where the round has Deckel)
    return taps


def _differences(phone: dict[str, Any], server: dict[str, Any]) -> dict[str, Any]:
    """What the phone shows otherwise than the server, item by item (phone, server)."""
    out: dict[str, Any] = {}
    for key, value in server.items():
        if phone[key] == value:
            continue
        if isinstance(value, list) and len(value) == len(phone[key]):
            out[key] = [(mine, theirs) for mine, theirs in zip(phone[key], value, strict=True) if mine != theirs]
        else:
            out[key] = (phone[key], value)
    return out


def _tap(page: Page, name: str, value: str) -> tuple[str, dict[str, float]]:
    """One tap; where its button lay before it (the tap itself scrolls to it if it has to)."""
    if name == "vote":
        target = page.locator(f'#vote-form button[value="{value}"]')
    elif name == "order":
        target = page.locator(f'#entry-form [data-order] button[data-player="{value}"]')
    else:
        target = page.locator(f'#entry-form label:has(> input[name="{name}"][value="{value}"])')
    place = target.evaluate(PLACE)
    target.tap()
    return f"{name}={value}", place


@pytest.mark.long(200)
def test_a_random_evening_offline_keeps_the_online_form_after_every_save_and_needs_no_scroll(
    live_server: LiveServer,
    world: World,
    guard: Guard,  # noqa: F811
    touch_phone: tuple[BrowserContext, Page],  # noqa: F811
    online: Page,
) -> None:
    offline_table, twin = _tables(world)
    ruleset, rules = registry.load_with_table(offline_table.ruleset_spec)
    spritze = bool(ruleset.opt("spritze_uebernimmt"))  # the tie lines the form offers (HandForm)
    lines = {line for line, trigger in (("a60", "6060"), ("a90", "3090")) if spritze or trigger in rules.bock_triggers}
    context, page = touch_phone
    install_app(page, live_server.url + offline_table.get_absolute_url())
    _go_offline(context, page, guard)
    _engine_ready(page)
    rng = random.Random(SEED)
    state = start(ruleset, rules, FIVE, FIVE[0])
    seen: dict[str, set[str]] = {"rounds": set(), "kinds": set()}
    blocked: list[str] = []
    for number in range(1, EVENING + 1):
        taps = _taps(rng, state, number, lines)
        kind = taps[0][1] if taps[0][0] == "game" else "vote"
        seen["kinds"].add(kind)
        seen["rounds"].add(state.round)
        deckel_on = form_options(ruleset, state)["deckel"]
        taps = [(n, v) for n, v in taps if n != "deckel" or deckel_on]
        before = table_facts(ruleset, state)
        for name, value in taps:
            said, place = _tap(page, name, value)
            if name != "vote" and (place["top"] < 0 or place["bottom"] > place["bar"]):
                blocked.append(
                    f"Nr. {number} {kind}: {said} at {place['top']:.0f}–{place['bottom']:.0f}, bar {place['bar']:.0f}"
                )
        if kind != "vote":
            try:
                expect(page.locator("#preview table.payouts[data-offline]")).to_be_visible(timeout=WAIT)
            except AssertionError:
                raise AssertionError(f"Nr. {number} {taps}: {page.locator('#preview').inner_text()}") from None
            page.locator("#entry-form button.save").tap()
        expect(page.locator("#offline-table tr.offline-entry")).to_have_count(number, timeout=WAIT)
        entry = page.evaluate(KEPT_FACTS)[-1]
        # The Deckel the online form makes of the same taps: the one tapped, else its default.
        tapped = dict(taps).get("deckel")
        if kind != "vote" and deckel_on:
            one = entry["game"] in before["marks"]["deckel_one"].split() and not entry.get("tout")
            assert entry.get("deckel", 0) == (int(tapped) if tapped else int(one)), f"Nr. {number}: {entry}"
        _result, state = advance(ruleset, rules, state, entry)
        services.entry_append(table=twin, data=entry, user=None)
        online.goto(live_server.url + twin.get_absolute_url())
        phone_form, server_form = page.evaluate(FORM_SEEN), online.evaluate(FORM_SEEN)
        assert _differences(phone_form, server_form) == {}, f"the form after Nr. {number}"
    assert {"normal", "bockrunde", "mungorunde"} <= seen["rounds"], seen
    assert {"rufspiel", "solo", "mungo", "vote"} <= seen["kinds"], seen
    assert blocked == [], "taps under the bar or above the screen offline"
    # Sent, the server books what the phone showed and the twin booked.
    rows = queued_rows(page)
    _reconnect(context, page)
    _wait_for(lambda: Entry.objects.filter(table=offline_table).count() == EVENING)
    amounts = {row["number"]: row["amounts"] for row in rows}
    ledger, booked = _ledger(offline_table), _ledger(twin)
    assert all(ledger.get(n, dict.fromkeys(FIVE, 0)) == amounts[n] for n in amounts)
    assert ledger == booked
    print("offline evening:", json.dumps({k: sorted(v) for k, v in seen.items()}))


def test_offline_undo_takes_back_the_last_waiting_entry_and_a_waiting_entry_can_be_thrown_away(
    live_server: LiveServer,
    world: World,
    guard: Guard,  # noqa: F811
    touch_phone: tuple[BrowserContext, Page],  # noqa: F811
) -> None:
    table, _twin = _tables(world)
    services.entry_append(  # stored online before the signal went: "rückgängig" offers Nr. 1 online
        table=table, user=None,
        data={"game": "rufspiel", "declarer": FIVE[1], "partner": FIVE[2], "called": "eichel", "result": "won",
              "deckel": 1},
    )  # fmt: skip
    context, page = touch_phone
    page.on("dialog", lambda dialog: dialog.accept())
    install_app(page, live_server.url + table.get_absolute_url())
    _go_offline(context, page, guard)
    _engine_ready(page)
    queue = page.locator("#offline-table tr.offline-entry")
    for number in range(2, 6):
        dealer = FIVE[(number - 1) % 5]
        seats = [FIVE[(FIVE.index(dealer) + k) % 5] for k in range(1, 5)]
        for name, value in (("game", "solo"), ("declarer", seats[0]), ("suit", "herz"), ("result", "won")):
            _tap(page, name, value)
        expect(page.locator("#preview table.payouts[data-offline]")).to_be_visible(timeout=WAIT)
        page.locator("#entry-form button.save").tap()
        expect(queue).to_have_count(number - 1, timeout=WAIT)
    undo = page.locator("#liste .sheet-head button[type=submit]")
    expect(undo).to_have_text("Nr. 5 rückgängig (auf diesem Telefon)")
    undo.tap()
    expect(page.locator("#entry-form .thumb-bar .messages")).to_contain_text(
        "Nr. 5 zurückgenommen (war noch nicht übertragen)"
    )
    expect(queue).to_have_count(3)
    expect(page.locator("#entry-form button.save .save-label")).to_have_text("Nr. 5 speichern")
    expect(undo).to_have_text("Nr. 4 rückgängig (auf diesem Telefon)")
    # Nr. 2 thrown away at its row: Nr. 3 and 4 move up, nothing of it is ever sent.
    page.locator('#offline-table tr.offline-entry:has(td:first-child:text-is("2")) button.offline-discard').tap()
    expect(queue).to_have_count(2)
    assert sorted(row["number"] for row in queued_rows(page)) == [2, 3]
    expect(page.locator("#entry-form button.save .save-label")).to_have_text("Nr. 4 speichern")
    kept = [row["amounts"] for row in sorted(queued_rows(page), key=lambda r: r["number"])]
    assert [p for p in guard.paths if p != "/sw.js"] == []

    _reconnect(context, page)
    _wait_for(lambda: Entry.objects.filter(table=table).count() == 3)
    sent = page.locator("#offline-sent")
    expect(sent).to_contain_text("2 Einträge übertragen.", timeout=WAIT)
    ledger = _ledger(table)
    assert [ledger[2], ledger[3]] == kept  # dealt in turn where they landed, the amounts the phone showed
    page.reload()
    expect(sent).to_contain_text("2 Einträge übertragen.")  # until tapped away
    sent.get_by_role("button", name="Gelesen").tap()
    expect(sent).to_have_count(0)
    page.reload()
    expect(page.locator("#entry-form")).to_be_visible()
    expect(sent).to_have_count(0)
