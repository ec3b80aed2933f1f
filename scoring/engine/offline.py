"""The score sheet's engine in the phone's browser (issue 16): the calls the offline page makes
through Pyodide, JSON text in and JSON text out. It folds with ``session.fold``/``advance`` and
turns form values into facts with ``entry_facts``: the same code as the server, so the amounts a
phone shows without signal are the server's.

One ``OfflineTable`` per table page: built from the table's stored log (the JSON the server
sends, ``offline.views.table_data``), it folds the entries still waiting to be sent on
top of it and previews the form as typed against the state after them. It does not store,
send or render anything, and it does not know Django or the browser.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from . import registry
from .core import EngineError
from .entry_facts import event_facts, form_options, hand_facts, table_facts
from .presets.schafkopf import SchafkopfRules
from .presets.schafkopf_games import GAMES
from .presets.skat import SkatRules
from .presets.skat_facts import skat_hand_facts
from .session import TableState, advance, fold

# What a field of the tap form holds, as the server names it (``offline.views.form_types``).
INT, BOOL, LIST = "int", "bool", "list"


def clean(post: Mapping[str, Sequence[str]], types: Mapping[str, str]) -> dict[str, Any]:
    """Posted strings (every value of each name, as a browser's FormData has them) → the values
    a form's ``cleaned_data`` would hold. Ranges are the engine's to check."""
    out: dict[str, Any] = {}
    for name, kind in types.items():
        values = [v for v in post.get(name, ()) if isinstance(v, str)]
        first = values[0].strip() if values else ""
        if kind == BOOL:
            out[name] = bool(values)
        elif kind == LIST:
            out[name] = values
        elif kind == INT:
            if first and not first.lstrip("-").isdigit():
                raise EngineError("invalid_type", "Bitte eine ganze Zahl eingeben.", name)
            out[name] = int(first) if first else None
        else:
            out[name] = first
    return out


class OfflineTable:
    """A table's rules and stored log, folded once; the waiting entries on top (``fold``)."""

    def __init__(self, doc: str) -> None:
        data = json.loads(doc)
        self.ruleset, self.rules = registry.load_with_table(data["ruleset"])
        self.players: tuple[str, ...] = tuple(data["players"])
        self.form: Mapping[str, Any] = data.get("form") or {}
        stored = fold(self.ruleset, self.rules, self.players, data["first_dealer"], data["log"])
        self.stored_state = stored.state
        self.stored_totals = dict(stored.totals)
        self.state: TableState = stored.state

    def fold(self, pending: str) -> str:
        """Fold the waiting entries (a JSON list of facts, ``null`` for one without facts) in
        order after the stored log. Each gets its result or its refusal; a refused or unknown
        one is left out of the fold, as the server would refuse it and go on with the next.
        ``state``: the table facts after them (``entry_facts.table_facts``), what the page shows
        and the form offers for the next entry, as the server would render them."""
        state = self.stored_state
        totals = dict(self.stored_totals)
        results: list[dict[str, Any]] = []
        for entry in json.loads(pending):
            if entry is None:
                results.append({"ok": False, "unknown": True})
                continue
            try:
                result, state = advance(self.ruleset, self.rules, state, entry)
            except EngineError as error:
                results.append(_refused(error))
                continue
            for name, amount in result.payouts.items():
                totals[name] += amount
            results.append({"ok": True, "result": result.as_dict()})
        self.state = state
        return json.dumps({"entries": results, "totals": totals, "state": table_facts(self.ruleset, state)})

    def facts(self, submission: str) -> str:
        """A submitted form → the entry's facts: ``{"target": "entry"|"event", "fields": {name:
        [values]}}``. ``{"ok": false, "unknown": true}`` for a form this module cannot read
        (the Doppelkopf and Saukopf tap forms: their facts are made on the server; the Schafkopf
        and the Skat forms are read here)."""
        try:
            entry = self._facts(json.loads(submission))
        except EngineError as error:
            return json.dumps(_refused(error))
        if entry is None:
            return json.dumps({"ok": False, "unknown": True})
        return json.dumps({"ok": True, "entry": entry})

    def preview(self, submission: str) -> str:
        """What the submitted form would book after the waiting entries (nothing is kept)."""
        try:
            entry = self._facts(json.loads(submission))
            if entry is None:
                return json.dumps({"ok": False, "unknown": True})
            result, _after = advance(self.ruleset, self.rules, self.state, entry)
        except EngineError as error:
            return json.dumps(_refused(error))
        return json.dumps({"ok": True, "entry": entry, "result": result.as_dict()})

    def _facts(self, submission: Mapping[str, Any]) -> dict[str, Any] | None:
        fields: Mapping[str, Sequence[str]] = submission.get("fields") or {}
        if submission.get("target") == "event":
            prefix = (fields.get("prefix") or [""])[0]
            lead = f"{prefix}-" if prefix else ""
            values = {name[len(lead) :]: vals[0] for name, vals in fields.items() if name.startswith(lead) and vals}
            return event_facts(values)
        if "data" in fields:  # the JSON form (spec §3 as typed)
            try:
                entry = json.loads((fields["data"] or [""])[0])
            except ValueError as error:
                raise EngineError("invalid_json", f"Kein gültiges JSON: {error}", "data") from None
            if not isinstance(entry, dict):
                raise EngineError("invalid_type", "Erwartet ein JSON-Objekt.", "data")
            return entry
        if self.form.get("kind") == "skat" and isinstance(self.ruleset, SkatRules):
            return self._skat_facts(clean(fields, self.form["types"]))
        if self.form.get("kind") != "schafkopf" or not isinstance(self.ruleset, SchafkopfRules):
            return None
        values = clean(fields, self.form["types"])
        if values.get("game") not in GAMES:
            raise EngineError("missing_field", "Welches Spiel?", "game")
        # The form as the state after the waiting entries has it (its round, Deckel, bid), as on the server.
        options = form_options(self.ruleset, self.state)
        return hand_facts(values, players=self.players, dealer=self.state.dealer, **options)

    def _skat_facts(self, values: dict[str, Any]) -> dict[str, Any]:
        """The Skat tap form's values → the facts, as ``scoring.forms.skat.SkatHandForm.to_data``
        makes them on the server (the same ``skat_hand_facts``)."""
        assert isinstance(self.ruleset, SkatRules)
        if values.get("game") not in self.ruleset.games():
            raise EngineError("missing_field", "Welches Spiel?", "game")
        values["ohne"] = values.pop("mit_ohne", "") == "ohne"
        values["announced"] = values.get("announced") or None
        return skat_hand_facts(values, players=self.players, dealer=self.state.dealer)


def _refused(error: EngineError) -> dict[str, Any]:
    return {"ok": False, "error": error.as_dict()["error"]}
