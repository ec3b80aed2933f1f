"""The Skat phone form's taps → the raw facts of a hand (spec §2.4), and what the form needs to
know of the table (``skat_table_facts``). Pure, like ``entry_facts`` for the Schafkopf family: the
server's form and the phone offline (Pyodide) turn the same tapped values into the same facts.

The taps: the game (♦ ♥ ♠ ♣, Grand, Null, Ramsch where played), the declarer, "mit"/"ohne" and
how many, Hand, Ouvert, an announcement (Schneider or Schwarz angesagt), the result (won or lost,
with Schneider or Schwarz reached) or the Augen, the bid (only where the game can be overbid: a
suit game or a Grand), Kontra/Re; for a Ramsch each player's Augen and tricks and how often the
Skat was pushed on. ``values`` are cleaned values (ints, bools, strings); nothing here validates —
the engine does when it scores the facts, naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..session import TableState
from .skat import GRUNDWERTE, NULL_LABELS, NULL_VALUES, REIZWERTE, SkatRules

# The result buttons: the spec's results, won or lost with Schneider or Schwarz reached.
RESULT_BUTTONS = ("won", "won_schneider", "won_schwarz", "lost", "lost_schneider", "lost_schwarz")


def skat_hand_facts(values: Mapping[str, Any], *, players: Sequence[str], dealer: str) -> dict[str, Any]:
    """A Skat hand from the tap form: only what the chosen game reads, so a Spitze tapped before
    switching to a Null is never sent. ``players``: the table in seat order (the Ramsch's
    ``augen_<i>``/``tricks_<i>`` are by seat); ``dealer``: who deals in turn (a hand names its
    dealer only when someone else dealt)."""
    game = values["game"]
    data: dict[str, Any] = {"game": game}
    if game == "ramsch":
        data["augen_by_player"] = _by_player(values, "augen", players)
        tricks = _by_player(values, "tricks", players)
        if tricks:
            data["tricks_by_player"] = tricks
        if values.get("geschoben"):
            data["geschoben"] = values["geschoben"]
    else:
        data["declarer"] = values.get("declarer") or None
        for flag in ("hand", "ouvert"):
            if values.get(flag):
                data[flag] = True
        result = values.get("result") or ""
        if game == "null":
            # Won or lost is all a Null counts (skat.md §3).
            data["result"] = "won" if result.startswith("won") else "lost" if result.startswith("lost") else None
        else:
            data["spitzen"] = values.get("spitzen")
            if values.get("ohne"):
                data["ohne"] = True
            if values.get("announced"):
                data["announced"] = values["announced"]
            _augen_or_result(values, result, data)
            if values.get("bid") is not None:
                data["bid"] = values["bid"]  # only a suit game or a Grand can be overbid (skat.md §4)
        if values.get("kontra"):
            data["kontra"] = values["kontra"]
    if values.get("dealer") and values["dealer"] != dealer:
        data["dealer"] = values["dealer"]
    return {key: value for key, value in data.items() if value is not None}


def _augen_or_result(values: Mapping[str, Any], result: str, data: dict[str, Any]) -> None:
    """Counted Augen decide, a Schwarz button beside them names the side without a trick (the
    engine checks the rest against the Augen); without Augen the result button."""
    augen = values.get("augen")
    if augen is None:
        data["result"] = result or None
        return
    data["augen"] = augen
    if result.endswith("schwarz"):
        data["schwarz"] = "opponents" if result.startswith("won") else "declarer"
    if result:
        data["result"] = result


def _by_player(values: Mapping[str, Any], prefix: str, players: Sequence[str]) -> dict[str, int]:
    return {name: values[f"{prefix}_{i}"] for i, name in enumerate(players) if values.get(f"{prefix}_{i}") is not None}


def skat_form_options(rules: SkatRules) -> dict[str, Any]:
    """What the tap form offers under ``rules``: the games, the most Spitzen of each, the Reizwerte
    for the bid, the Null values, and whether Kontra/Re and the Schieberamsch are played."""
    games = rules.games()
    return {
        "games": list(games),
        "spitzen_max": {game: rules.spitzen_max(game) for game in games if game in GRUNDWERTE},
        "grundwerte": dict(GRUNDWERTE),
        "bid_games": [game for game in games if game in GRUNDWERTE],
        "reizwerte": list(REIZWERTE),
        "null_values": {NULL_LABELS[key]: value for key, value in NULL_VALUES.items()},
        "kontra": bool(rules.opt("kontra_re")),
        "schieberamsch": bool(rules.opt("ramsch") and rules.opt("schieberamsch")),
        "results": list(RESULT_BUTTONS),
    }


def skat_table_facts(rules: SkatRules, state: TableState) -> dict[str, Any]:
    """The table as a Skat form and list need it before the next entry: the form's options and
    the Spielliste so far (each player's total, won and lost games)."""
    return {
        "form": skat_form_options(rules),
        "list": dict(zip(state.players, state.list_totals, strict=True)),
        "games": {
            name: {"won": won, "lost": lost}
            for name, won, lost in zip(state.players, state.won, state.lost, strict=True)
        },
    }
