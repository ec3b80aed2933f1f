"""The phone forms' values → the raw facts of an entry (spec §3). Pure, so the server's forms
(``scoring.forms.hand``) and the phone's browser (offline, through Pyodide: ``offline.py``) turn the
same tapped values into the same facts.

``values`` are cleaned values (ints, bools, lists of names): the Django forms' ``cleaned_data``,
or ``offline.clean`` of the posted strings. Nothing here validates: the engine does, when it
scores the facts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .presets.schafkopf_games import ALIASES, GAMES, KONTRA_KINDS, last_kontra

# The tie-line result buttons (issue 13): they record these Augen of the declarer's side.
TIE_AUGEN = {"a60": 60, "a90": 90, "a30": 30}
# The form's options ``hand_facts`` reads besides the players and the dealer: the server's form
# and the offline page pass the same ones.
FORM_OPTIONS = ("deckel", "bid", "bid_kinds", "bid_with_tout", "mungo_owner")
# Which events carry which fields (the event form has them all).
_EVENT_FIELDS = {"vergeben": ("by",), "verabhebt": ("by",), "special_round": ("kind", "dealer"), "vote": ("choice",)}


def hand_facts(
    values: Mapping[str, Any],
    *,
    players: Sequence[str],
    dealer: str,
    deckel: bool,
    bid: bool,
    bid_kinds: Sequence[str] = ("solo",),
    bid_with_tout: bool = False,
    mungo_owner: bool = False,
) -> dict[str, Any]:
    """A Schafkopf-family hand from the tap form: only what the chosen game reads, so a partner
    tapped before switching to a Solo is never sent. ``dealer``: who deals in turn (a hand
    names its dealer only when someone else dealt, 001 §8.4); ``deckel``/``bid``: whether the
    form offers those fields; ``bid_kinds``: the game kinds that carry the bid, ``bid_with_tout``:
    a Tout keeps it (both in the Gardareizrunde, 001 §5.3); ``mungo_owner``: a Mungo names whose
    Stöckle it is (001 §5.4). ``result`` is a spec §2.1 result or a tie-line button
    (``TIE_AUGEN``)."""
    cd = values
    game = GAMES[cd["game"]]
    data: dict[str, Any] = {"game": game.name}
    kind = game.kind
    if kind in ("partner", "solo", "bettel", "sie") or (kind == "ramsch" and mungo_owner):
        data["declarer"] = cd.get("declarer") or None
    if kind == "partner":
        data["partner"] = cd.get("partner") or None
        data["called"] = cd.get("called") or None
    if game.needs_suit:
        data["suit"] = cd.get("suit") or None
    tout = kind == "solo" and bool(cd.get("tout"))
    if tout:
        data["tout"] = True
    result = cd.get("result") or ""
    if kind == "bettel" or tout:
        # Won or lost is all that counts (001 §4.2.3/§4.2.5).
        data["result"] = "won" if result.startswith("won") else "lost" if result.startswith("lost") else None
    elif kind in ("partner", "solo"):
        _augen_or_result(cd, data)
    if kind in ("partner", "solo") and cd.get("laufende"):
        data["laufende"] = cd["laufende"]
    kontra = cd.get("kontra") or 0
    if kind in KONTRA_KINDS and kontra:
        data["kontra"] = kontra
    if kind in ("ramsch", "leasters"):
        data["augen_by_player"] = {
            name: cd.get(f"augen_{i}") for i, name in enumerate(players) if cd.get(f"augen_{i}") is not None
        }
        if cd.get("kontra_by"):
            data["kontra_by"] = list(cd["kontra_by"])
    if deckel and cd.get("deckel"):
        data["deckel"] = cd["deckel"]
    if bid and kind in bid_kinds and (bid_with_tout or not tout) and cd.get("bid") is not None:
        data["bid"] = cd["bid"]
    if cd.get("bought_by"):
        data["bought_by"] = cd["bought_by"]  # 001 §7.1/§7.2: the buyer plays in the seller's seat
    if cd.get("dealer") and cd["dealer"] != dealer:
        data["dealer"] = cd["dealer"]
    if cd.get("fehler_by"):
        data["fehler"] = {"by": cd["fehler_by"]}
    return with_last_kontra({key: value for key, value in data.items() if value is not None})


def with_last_kontra(facts: Mapping[str, Any]) -> dict[str, Any]:
    """``facts`` with ``last_kontra`` filled in where the number of Stöße decides it: a hand of
    the Schafkopf family's games played side against side, with ``kontra`` and no
    ``last_kontra`` (the tap form never asks; the import's template may leave it empty). Any
    other facts come back as they are: the engine judges them."""
    out = dict(facts)
    name = out.get("game")
    game = GAMES.get(ALIASES.get(name, name)) if isinstance(name, str) else None
    kontra = out.get("kontra")
    if game is None or game.kind not in KONTRA_KINDS or "last_kontra" in out:
        return out
    if isinstance(kontra, int) and not isinstance(kontra, bool) and kontra > 0:
        out["last_kontra"] = last_kontra(kontra)
    return out


def _augen_or_result(cd: Mapping[str, Any], data: dict[str, Any]) -> None:
    """Counted Augen decide (a result beside them is checked against them by the engine); a
    tie-line button is its Augen; else the result button."""
    result = cd.get("result") or None
    augen = cd.get("augen")
    if result in TIE_AUGEN:
        data["augen"] = TIE_AUGEN[result]
        return
    if augen is not None:
        data["augen"] = augen
        if result and result.endswith("schwarz"):
            # One side took every trick: the Mungorunde trigger reads the tricks (001 §5.2).
            data["tricks"] = 8 if result.startswith("won") else 0
    data["result"] = result


def event_facts(values: Mapping[str, Any]) -> dict[str, Any]:
    """A table event from the event form: only the fields that event has."""
    data: dict[str, Any] = {"event": values["event"]}
    for key in _EVENT_FIELDS.get(values["event"], ()):
        if values.get(key):
            data[key] = values[key]
    return data
