"""The phone forms' values → the raw facts of an entry (spec §3), and the facts of the table a
form is made for (``table_facts``: who deals and sits out, the rounds, the Stöckle, which games and
fields the next hand has). Pure, so the server's forms and pages (``scoring.forms.hand``) and the
phone's browser (offline, through Pyodide: ``offline.py``) turn the same tapped values into the
same facts and show the same table after every entry.

``values`` are cleaned values (ints, bools, lists of names): the Django forms' ``cleaned_data``,
or ``offline.clean`` of the posted strings. Nothing here validates: the engine does, when it
scores the facts.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from .core import EngineError, RuleSet
from .presets.schafkopf import ROUNDS, Round, SchafkopfRules
from .presets.schafkopf_games import ALIASES, GAMES, KONTRA_KINDS, SOLO_RANKING, last_kontra
from .presets.skat import SkatRules
from .presets.skat_facts import skat_table_facts
from .session import TableState

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
        order = _order(cd.get("augen_order"))
        if order:
            data["augen_order"] = order  # tapped from fewest to most (spec §2.1)
            if not data["augen_by_player"]:
                del data["augen_by_player"]
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


def _order(value: Any) -> list[list[str]] | None:
    """The tapped order as the form posts it: spec §2.1's ``augen_order`` as JSON text."""
    if not value:
        return None
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            raise EngineError("invalid_json", "Die Reihenfolge ist nicht lesbar.", "augen_order") from None
    return value if isinstance(value, list) else None


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


# --- the table a form is made for -------------------------------------------------------------


def bid_kinds(rules: SchafkopfRules, rnd: Round) -> tuple[str, ...]:
    """The game kinds that carry a bid: in the Gardareizrunde every Solo and the Bettel (its bid
    says how many cards lie open, 001 §5.3), with Steigern the Solos (003 §2.1.1)."""
    if rnd.bid_reaches:
        return ("solo", "bettel")
    return ("solo",) if rules.opt("steigern") else ()


def declarer_kinds(state: TableState) -> tuple[str, ...]:
    """The game kinds that name a Spieler; in a Stöcklesrunde also the Mungo, each one being a
    player's game whose Stöckle he hands in (001 §5.4)."""
    return ("partner", "solo", "bettel", "sie", *(("ramsch",) if state.stoeckle else ()))


def form_options(rules: SchafkopfRules, state: TableState) -> dict[str, Any]:
    """What ``hand_facts`` reads of the next hand's form besides the values (``FORM_OPTIONS``)."""
    rnd = ROUNDS.get(state.round, ROUNDS["normal"])
    kinds = bid_kinds(rules, rnd)
    return {
        "deckel": rules.opt("deckel") != "none" and rnd.deckel,
        "bid": bool(kinds),
        "bid_kinds": list(kinds),
        "bid_with_tout": rnd.bid_reaches,
        "mungo_owner": "ramsch" in declarer_kinds(state),
    }


def form_defaults(rules: SchafkopfRules, state: TableState) -> dict[str, Any]:
    """The tap form's initial values for the next hand at ``state``: what the server renders
    (``scoring.forms.hand.HandForm`` takes its initials from here) and what the phone offline sets
    on a fresh copy of the form after every entry it keeps (``offline-table.js``), so both start
    the next hand alike. Only the fields with a default: no game, no player, no result is chosen.
    ``deckel``: one under Dauerdeckel (001 §4.4; the page then follows the chosen game,
    ``table_facts``' ``deckel_one``), else none. It does not say which fields are shown."""
    out: dict[str, Any] = {"tout": False, "laufende": 0, "augen_order": "", "dealer": state.dealer}
    if rules.opt("max_kontra"):
        out["kontra"] = 0
        out["kontra_by"] = []
    if rules.opt("deckel") != "none":
        out["deckel"] = 1 if state.deckel_required else 0
    if len(state.players) >= 5:
        out["bought_by"] = ""  # 001 §7.1/§7.2: nobody bought
    if rules.opt("fehler"):
        out["fehler_by"] = ""
    return out


def form_marks(rules: SchafkopfRules, state: TableState) -> dict[str, str]:
    """The marks of the tap form that follow the table (its ``data-games``: the games a group is
    shown for, space-separated, over every game of the form, ``every_game``): who names a Spieler,
    which games carry a bid or Deckel, which of the round's games name a Trumpf, and which start
    with one Deckel (under Dauerdeckel every
    game but a Mungo, a Sie or a Tout, 001 §4.4). The server renders them (``HandForm``), the phone
    offline sets the same on its fresh copy of the form (``table_facts``' ``marks``)."""
    options = form_options(rules, state)
    every = every_game(rules)
    deckel_one = options["deckel"] and state.deckel_required
    return {
        "declarer": " ".join(g for g in every if GAMES[g].kind in declarer_kinds(state)),
        "bid": " ".join(g for g in every if GAMES[g].kind in options["bid_kinds"]),
        "deckel": " ".join(every) if options["deckel"] else "",
        "suit": " ".join(g for g in state.games or () if GAMES[g].needs_suit),
        "deckel_one": " ".join(g for g in every if GAMES[g].kind not in ("ramsch", "leasters", "sie"))
        if deckel_one
        else "",
    }


def every_game(rules: SchafkopfRules) -> tuple[str, ...]:
    """Every game some round of these rules allows, best first: the tap form has a button for
    each (those the round in force does not allow disabled or hidden), so the phone offline can
    follow the table into any round without the server."""
    games = {g for name in ROUNDS for g in rules.games_for_round(name)}
    return tuple(g for g in (*SOLO_RANKING, "rufspiel", "mungo", "leasters") if g in games)


def table_facts(ruleset: RuleSet, state: TableState) -> dict[str, Any]:
    """The table as the page shows it before the next entry (``_state.html``, the tap form), as
    JSON: the server renders these facts, the phone offline applies the same ones to its page
    after every entry it keeps (``offline-table.js``)."""
    out: dict[str, Any] = {
        "entries": state.entries,
        "dealer": state.dealer,
        "seats": list(state.seats),
        "sitting_out": list(state.sitting_out),
        "round": state.round,
        "bock": state.bock,
        "bock_factor": 2**state.bock,
        "deckel_required": state.deckel_required,
        "vote_pending": state.vote_pending,
        "stock": state.stock,
        "pending_rounds": state.pending_rounds(),
        "stoeckle": [[player, list(games)] for player, games in state.stoeckle],
        "must_play": state.must_play,
        "buyers": list(state.buyers),
    }
    if isinstance(ruleset, SkatRules):
        return out | skat_table_facts(ruleset, state)
    if not isinstance(ruleset, SchafkopfRules):
        return out
    games = tuple(state.games or ())
    normal = ruleset.games_for_round("normal")
    options = form_options(ruleset, state)
    out.update(
        games=list(games),
        games_disabled=[g for g in normal if g not in games],  # shown, with the round as the reason
        # on the form too, hidden: the games only another round has (in the form's order, every_game)
        games_hidden=[g for g in every_game(ruleset) if g not in games and g not in normal],
        form=options,
        declarer_games=[g for g in games if GAMES[g].kind in declarer_kinds(state)],
        bid_games=[g for g in games if GAMES[g].kind in options["bid_kinds"]],
        deckel_games=list(games) if options["deckel"] else [],
        # Under Dauerdeckel every game but a Mungo, a Sie or a Tout starts with one Deckel (001 §4.4).
        deckel_one=[g for g in games if GAMES[g].kind not in ("ramsch", "leasters", "sie")]
        if options["deckel"] and state.deckel_required
        else [],
        mungo_games=[g for g in games if GAMES[g].kind in ("ramsch", "leasters")],
        initial=form_defaults(ruleset, state),
        marks=form_marks(ruleset, state),
        # At five or six the player dealt last sells his seat to a buyer (001 §7.1/§7.2).
        seller=state.seats[-1] if len(state.players) >= 5 and state.seats else None,
    )
    return out
