"""The phone forms' values → the raw facts of an entry (spec §3). Pure, so the server's forms
(``scoring.forms``) and the phone's browser (offline, through Pyodide: ``offline.py``) turn the
same tapped values into the same facts.

``values`` are cleaned values (ints, bools, lists of names): the Django forms' ``cleaned_data``,
or ``offline.clean`` of the posted strings. Nothing here validates: the engine does, when it
scores the facts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .presets.schafkopf_games import GAMES

# The form's options ``hand_facts`` reads besides the players and the dealer: the server's form
# and the offline page pass the same ones.
FORM_OPTIONS = ("deckel", "bid", "needs_augen", "bid_kinds", "bid_with_tout", "mungo_owner")
# Which events carry which fields (the event form has them all).
_EVENT_FIELDS = {"vergeben": ("by",), "verabhebt": ("by",), "special_round": ("kind", "dealer"), "vote": ("choice",)}


def hand_facts(
    values: Mapping[str, Any],
    *,
    players: Sequence[str],
    dealer: str,
    deckel: bool,
    bid: bool,
    needs_augen: bool,
    bid_kinds: Sequence[str] = ("solo",),
    bid_with_tout: bool = False,
    mungo_owner: bool = False,
) -> dict[str, Any]:
    """A Schafkopf-family hand from the tap form: only what the chosen game reads, so a partner
    tapped before switching to a Solo is never sent. ``dealer``: who deals in turn (a hand
    names its dealer only when someone else dealt, 001 §8.4); ``deckel``/``bid``: whether the
    form offers those fields; ``needs_augen``: Augen decide the Bock triggers (001 §5.1);
    ``bid_kinds``: the game kinds that carry the bid, ``bid_with_tout``: a Tout keeps it (both in
    the Gardareizrunde, 001 §5.3); ``mungo_owner``: a Mungo names whose Stöckle it is (001 §5.4)."""
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
    if kind == "bettel" or tout:
        data["result"] = cd.get("result") or None
    elif kind in ("partner", "solo"):
        _augen_or_result(cd, data, needs_augen)
    if kind in ("partner", "solo") and cd.get("laufende"):
        data["laufende"] = cd["laufende"]
    kontra = cd.get("kontra") or 0
    if kind in ("partner", "solo", "bettel") and kontra:
        data["kontra"] = kontra
        # 001 §6.2 / 002 §8: the opponents give the first Stoß, then the sides alternate.
        data["last_kontra"] = "opponents" if kontra % 2 else "declarer"
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
    return {key: value for key, value in data.items() if value is not None}


def _augen_or_result(cd: Mapping[str, Any], data: dict[str, Any], needs_augen: bool) -> None:
    augen = cd.get("augen")
    schwarz = bool(cd.get("schwarz"))
    if augen is not None:
        data["augen"] = augen
        if schwarz:
            # One side took every trick: the declarer's side all 8, or none.
            data["tricks"] = 8 if augen > 60 else 0
        return
    result = cd.get("result")
    if result and not needs_augen:
        suffix = "_schwarz" if schwarz else "_schneider" if cd.get("schneider") else ""
        data["result"] = result + suffix


def event_facts(values: Mapping[str, Any]) -> dict[str, Any]:
    """A table event from the event form: only the fields that event has."""
    data: dict[str, Any] = {"event": values["event"]}
    for key in _EVENT_FIELDS.get(values["event"], ()):
        if values.get(key):
            data[key] = values[key]
    return data
