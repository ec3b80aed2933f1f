"""Issue 30 §1: offline books exactly what online books, because after every entry kept on the
phone the tap form is the one the server renders for the same table state: every field's
default and every mark that follows the table.

The phone makes the form anew from the server's copy and sets the table facts of its own fold
(``OfflineTable.fold`` → ``entry_facts.table_facts``: ``initial`` from ``form_defaults``, ``marks``
from ``form_marks``, ``seller``); the server renders ``HandForm`` for the stored log. Property
(hypothesis): over random evenings of every preset with a Deckel rule (at four and at five, Bock
and Mungo rounds, votes, misdeals, bought cards), some entries stored and the rest waiting on the
phone, after each entry the phone's facts equal the server's, and the form the server renders
there holds exactly those values and marks. The browser applying them is
``tests/e2e/test_offline_form.py``.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from offline.views import form_types
from scoring.engine import registry
from scoring.engine.core import EngineError
from scoring.engine.entry_facts import table_facts
from scoring.engine.offline import OfflineTable
from scoring.engine.presets.schafkopf import SchafkopfRules
from scoring.engine.samples import seated_hand
from scoring.engine.session import TableState, advance, start
from scoring.forms.entry import EntryContext
from scoring.forms.hand import HandForm
from scoring.selectors import TableSetup
from tests.properties import examples

SEATS = ("Sepp", "Zenzi", "Girgl", "Vroni", "Resi")
# Every preset with a Deckel rule, with the Bock triggers that start rounds often.
RULES: list[Any] = [
    "allgaeu",
    "allgaeu-meisterschaft",
    "standard",
    {"preset": "standard", "options": {"deckel": "pflicht", "bock_triggers": ["6060", "3090", "schwarz"]}},
]
EMPTY: tuple[Any, ...] = (None, "", [], False)


def _evening(spec: Any, players: tuple[str, ...], rng: random.Random, length: int) -> list[dict[str, Any]]:
    """Entries drawn one by one for the table as it stands (votes, misdeals, bought cards)."""
    ruleset, table = registry.load_with_table(spec)
    assert isinstance(ruleset, SchafkopfRules)
    state = start(ruleset, table, players, players[0])
    log: list[dict[str, Any]] = []
    for _draw in range(length * 20):
        if len(log) == length:
            break
        entry: dict[str, Any]
        if state.vote_pending:
            entry = {"event": "vote", "choice": rng.choice(("mungorunde", "bockrunde"))}
        elif rng.random() < 0.04:
            entry = {"event": "zusammengeworfen"}
        else:
            stoeckle = {player: games for player, games in state.stoeckle} if state.stoeckle else None
            entry = seated_hand(ruleset, rng, state.seats, state.buyers, state.round, stoeckle)
            if "deckel" in entry or rng.random() < 0.3:
                entry.pop("deckel", None)
                if ruleset.opt("deckel") != "none" and state.round in ("normal", "bockrunde"):
                    entry["deckel"] = rng.choice((0, 1, 2))  # tapped by hand, any game
        try:
            _result, state = advance(ruleset, table, state, entry)
        except EngineError:
            continue  # a draw the table does not allow here
        log.append(entry)
    return log


def _server_form(spec: Any, players: tuple[str, ...], state: TableState, number: int) -> HandForm:
    ruleset, table = registry.load_with_table(spec)
    setup = TableSetup(ruleset=ruleset, rules=table, players=players, first_dealer=players[0], members={})
    return HandForm(context=EntryContext(setup, state, number))


@settings(max_examples=examples(200), deadline=None)
@given(
    spec=st.sampled_from(RULES),
    five=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
    length=st.integers(1, 30),
    stored=st.floats(0, 1),
)
def test_after_every_entry_kept_offline_the_form_is_the_servers(
    spec: Any, five: bool, seed: int, length: int, stored: float
) -> None:
    players = SEATS[: 5 if five else 4]
    log = _evening(spec, players, random.Random(seed), length)
    split = int(len(log) * stored)  # stored before the signal went; the rest waits on the phone
    ruleset, table = registry.load_with_table(spec)
    doc = {"ruleset": spec, "players": list(players), "first_dealer": players[0], "log": log[:split]}
    first = _server_form(spec, players, start(ruleset, table, players, players[0]), 1)
    phone = OfflineTable(json.dumps({**doc, "form": {"kind": "schafkopf", "types": form_types(first)}}))
    state = start(ruleset, table, players, players[0])
    for number, entry in enumerate(log, start=1):
        _result, state = advance(ruleset, table, state, entry)
        if number < split:
            continue
        facts = json.loads(phone.fold(json.dumps(log[split:number])))["state"]
        # the phone's fold: the table facts the server renders for the same log
        assert facts == json.loads(json.dumps(table_facts(ruleset, state))), f"after Nr. {number}"
        # the form the server renders there: the phone's defaults in every field, its marks
        form = _server_form(spec, players, state, number + 1)
        for name in form.fields:
            if name in ("idempotency_key", "expected_number"):
                continue
            value = form[name].value()
            expected = facts["initial"].get(name)
            if isinstance(expected, int) and not isinstance(expected, bool):
                value = int(value) if value not in EMPTY else value
            assert value == expected or (value in EMPTY and expected in EMPTY), (name, value, expected, number)
        marks = form.visible_for
        assert {name: marks[name] for name in ("declarer", "bid", "deckel", "suit")} == {
            name: facts["marks"][name] for name in ("declarer", "bid", "deckel", "suit")
        }
        assert form.deckel_games == facts["marks"]["deckel_one"]
        assert facts["seller"] == (state.seats[-1] if "bought_by" in form.fields else None)
