"""Issue 16: the engine the phone runs offline is the server's. Random hands from the samplers
(``scoring/engine/samples.py``) for every preset, and an evening per preset folded with its
rounds, events and Stock, go through the engine here and through the same engine in Debian's
Chromium (Pyodide with the zip the app serves); every payout, line and table state must match."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Browser
from pytest_django.live_server_helper import LiveServer

from scoring.engine import registry
from scoring.engine.api import score_hand_document
from scoring.engine.core import EngineError
from scoring.engine.presets.schafkopf import SchafkopfRules
from scoring.engine.samples import random_hand, schafkopf_hand
from scoring.engine.session import advance, score_session_document, start
from tools.bench_offline import ENGINE_TIMEOUT_MS

HANDS_PER_PRESET = 600  # six presets: 3,600 hands
EVENING = 120  # entries per preset's evening
SEATS = ("Anna", "Bert", "Cilli", "Done")

# Loads Pyodide and the engine zip like static/js/offline-table.js, then runs both documents.
BROWSER_RUN = """async ([pyodideUrl, engineUrl, hands, evenings]) => {
    await new Promise((resolve, reject) => {
        const script = document.createElement("script");
        script.src = pyodideUrl + "pyodide.js";
        script.onload = resolve;
        script.onerror = reject;
        document.head.appendChild(script);
    });
    const py = await loadPyodide({ indexURL: pyodideUrl });
    py.unpackArchive(await (await fetch(engineUrl)).arrayBuffer(), "zip", { extractDir: "/engine" });
    py.globals.set("hands", hands);
    py.globals.set("evenings", evenings);
    return py.runPython(`
import json, sys
sys.path.insert(0, "/engine")
from scoring.engine.api import score_hand_document
from scoring.engine.core import EngineError
from scoring.engine.session import score_session_document

def run(function, doc):
    try:
        return function(doc)
    except EngineError as error:
        return {"error": error.as_dict()}

json.dumps([
    [run(score_hand_document, doc) for doc in json.loads(hands)],
    [run(score_session_document, doc) for doc in json.loads(evenings)],
])
`);
}"""


def _run(function: Callable[[Any], dict[str, Any]], doc: dict[str, Any]) -> dict[str, Any]:
    try:
        return function(doc)
    except EngineError as error:
        return {"error": error.as_dict()}


def _hands() -> list[dict[str, Any]]:
    docs = []
    for name in registry.all_presets():
        rules = registry.load(name)
        rng = random.Random(f"hands-{name}")
        seats = SEATS[: max(rules.SEAT_COUNTS)]  # Skat: three play each game
        for _ in range(HANDS_PER_PRESET):
            docs.append({"ruleset": name, "seats": list(seats), **random_hand(rules, rng, seats)})
    return docs


def _evening(name: str) -> dict[str, Any]:
    """An evening drawn hand by hand for the round in force (votes and misdeals in between),
    so the fold's Bock and Mungo rounds, dealers and Stock all come into play."""
    ruleset, table = registry.load_with_table(name)
    rng = random.Random(f"evening-{name}")
    state = start(ruleset, table, SEATS, SEATS[0])
    log: list[dict[str, Any]] = []
    for _draw in range(EVENING * 20):
        if len(log) == EVENING:
            break
        if state.vote_pending:
            entry: dict[str, Any] = {"event": "vote", "choice": rng.choice(("mungorunde", "bockrunde"))}
        elif rng.random() < 0.04:
            entry = {"event": rng.choice(("zusammengeworfen", "vergeben"))}
        elif isinstance(ruleset, SchafkopfRules):
            entry = schafkopf_hand(ruleset, rng, state.seats, state.round)
        else:
            entry = random_hand(ruleset, rng, state.seats)
        try:
            _result, state = advance(ruleset, table, state, entry)
        except EngineError:
            continue  # a draw the table state does not allow here (the samplers know no rounds)
        log.append(entry)
    return {"ruleset": name, "players": list(SEATS), "first_dealer": SEATS[0], "hands": log}


@pytest.mark.no_db_variance  # the live server only serves the engine: pure code, whatever the database
def test_browser_and_server_engines_agree_on_every_sampled_hand_and_evening(
    browser: Browser, live_server: LiveServer
) -> None:
    hands = _hands()
    evenings = [_evening(name) for name in registry.all_presets()]
    server = [
        [_run(score_hand_document, doc) for doc in hands],
        [_run(score_session_document, doc) for doc in evenings],
    ]

    context = browser.new_context(service_workers="block")  # only the engine here, not the app's cache
    page = context.new_page()
    page.goto(live_server.url + "/offline/")
    page.set_default_timeout(ENGINE_TIMEOUT_MS)
    raw = page.evaluate(
        BROWSER_RUN, ["/static/vendor/pyodide/", "/offline/engine.zip", json.dumps(hands), json.dumps(evenings)]
    )
    context.close()
    in_browser = json.loads(raw)

    assert len(in_browser[0]) == len(hands) >= 3000
    assert sum("error" not in result for result in server[0]) >= 3000  # the samplers draw valid hands
    for doc, mine, theirs in zip(hands, server[0], in_browser[0], strict=True):
        assert theirs == json.loads(json.dumps(mine)), doc
    assert [len(e["hands"]) for e in evenings] == [EVENING] * len(evenings)
    for doc, mine, theirs in zip(evenings, server[1], in_browser[1], strict=True):
        assert "error" not in mine, doc["ruleset"]
        assert theirs == json.loads(json.dumps(mine)), doc["ruleset"]
