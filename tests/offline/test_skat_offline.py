"""Issue 32 item 2, offline: the Skat tap form's facts are made on the phone by the same pure
function as on the server (``skat_hand_facts``), so a Skat game typed without signal previews
and books exactly what it books online. Seeded random games of both presets, at three and at four
(the dealer sits out), are put on the server's form as a browser posts them; the phone's engine
(``OfflineTable``, as Pyodide runs it) turns the same post into the same facts and the same
amounts."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from offline.views import form_types
from scoring.engine import registry
from scoring.engine.offline import OfflineTable
from scoring.engine.presets.skat_samples import skat_hand
from scoring.engine.session import advance, preview, start
from scoring.forms.entry import EntryContext
from scoring.forms.families import as_post
from scoring.forms.skat import SkatHandForm
from scoring.selectors import TableSetup

SEATS = ("Sepp", "Zenzi", "Girgl", "Vroni")


@pytest.mark.parametrize(
    ("spec", "players"),
    [
        ("skat", 3),
        ("skat-seeger", 4),
        ({"preset": "skat", "options": {"kontra_re": True, "ramsch": True, "schieberamsch": True}}, 4),
    ],
)
def test_the_phone_makes_the_servers_facts_and_amounts(spec: Any, players: int) -> None:
    ruleset, table = registry.load_with_table(spec)
    seats = SEATS[:players]
    setup = TableSetup(ruleset=ruleset, rules=table, players=seats, first_dealer=seats[0], members={})
    state = start(ruleset, table, seats, seats[0])
    rng = random.Random(32)
    log: list[dict[str, Any]] = []
    checked = 0
    for number in range(1, 80):
        hand = skat_hand(ruleset, rng, state.seats)  # type: ignore[arg-type]
        context = EntryContext(setup, state, number)
        if not SkatHandForm.covers(hand, context):
            continue  # facts the tap form does not show (a random bid on a Null): JSON, not taps
        post = as_post(SkatHandForm.initial_from(hand, context))
        form = SkatHandForm(post, context=context)
        assert form.is_valid(), form.errors
        server = form.to_data()
        doc = {
            "ruleset": {"preset": ruleset.NAME, "options": dict(ruleset.options) | dict(table.options)},
            "players": list(seats),
            "first_dealer": seats[0],
            "log": log,
            "form": {"kind": "skat", "types": form_types(SkatHandForm(context=context))},
        }
        phone = OfflineTable(json.dumps(doc))
        fields = {name: post.getlist(name) for name in post}
        answer = json.loads(phone.preview(json.dumps({"target": "entry", "fields": fields})))
        assert answer["ok"], answer
        assert answer["entry"] == server
        online = preview(ruleset, table, state, server)
        assert answer["result"]["payouts"] == dict(online.payouts)
        assert answer["result"]["list"] == dict(online.hand.sheet.written)
        _result, state = advance(ruleset, table, state, server)
        log.append(server)
        checked += 1
    assert checked >= 40
