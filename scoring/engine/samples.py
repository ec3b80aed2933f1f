"""Random valid hands for a rule set: the realistic game mix the benchmark and the property
tests draw from. Pure and seeded (``random.Random``), so a run can be repeated.

It does not check anything itself: every hand it makes must pass the preset's validation, and
the property tests hold it to that.
"""

from __future__ import annotations

import random
from typing import Any

from .core import RuleSet
from .presets.doppelkopf_samples import doppelkopf_hand
from .presets.saukopf_samples import saukopf_hand
from .presets.schafkopf import SchafkopfRules
from .presets.schafkopf_games import GAMES, SUITS
from .shares import split

# Roughly what a club evening looks like: mostly Rufspiele, some solos, the odd Bettel or Mungo.
_WEIGHTS = {"rufspiel": 60, "solo": 12, "wenz": 8, "mungo": 10, "bettel": 3, "geier": 2, "farbwenz": 2, "sie": 0.05}


def schafkopf_hand(
    rules: SchafkopfRules, rng: random.Random, seats: tuple[str, ...], round_name: str = "normal"
) -> dict[str, Any]:
    games = rules.games_for_round(round_name)
    weights = [_WEIGHTS.get(g, 1) for g in games]
    name = rng.choices(games, weights)[0]
    game = GAMES[name]
    hand: dict[str, Any] = {"game": name}
    required = rules.deckel_required(round_name) and game.kind not in ("ramsch", "sie")
    if required or (rules.opt("deckel") == "optional" and rng.random() < 0.3):
        hand["deckel"] = rng.choice((1, 1, 1, 2, 2, 3))
    if game.kind in ("ramsch", "leasters"):
        tricks = [0] * len(seats)
        for _ in range(8):
            tricks[rng.randrange(len(seats))] += 1
        # Augen only where there are tricks: split 120 among the players who took one.
        takers = [i for i, t in enumerate(tricks) if t]
        shares = iter(split(rng, 120, len(takers)))
        augen = [next(shares) if t else 0 for t in tricks]
        hand["augen_by_player"] = dict(zip(seats, augen, strict=True))
        hand["tricks_by_player"] = dict(zip(seats, tricks, strict=True))
        if game.kind == "leasters" or rules.opt("mungo_mode") == "ramsch":
            # Tie-breaks of 003 §3.1/§3.4 (only read by those games).
            hand["trumps_by_player"] = {s: rng.randint(0, 3) for s in seats}
            tops = rng.sample(
                ["eichel_ober", "gras_ober", "herz_ober", "schellen_ober", "eichel_unter", "herz_ass"], len(seats)
            )
            hand["top_trump_by_player"] = dict(zip(seats, tops, strict=True))
        if rules.opt("max_kontra") and rng.random() < 0.1:
            hand["kontra_by"] = [rng.choice(seats)]
        return hand
    declarer = rng.choice(seats)
    hand["declarer"] = declarer
    if game.kind == "partner":
        hand["partner"] = rng.choice([s for s in seats if s != declarer])
        hand["called"] = rng.choice(("eichel", "gras", "schellen"))
    if game.needs_suit:
        hand["suit"] = rng.choice(SUITS)
    if game.kind == "sie":
        return hand
    tout = game.kind == "solo" and rng.random() < 0.03
    if tout:
        hand["tout"] = True
        tricks = rng.choice((8, 8, 7))
        hand["tricks"] = tricks
        hand["augen"] = 120 if tricks == 8 else rng.randint(90, 120)
    elif game.kind == "bettel":
        hand["tricks"] = rng.choice((0, 0, 1, 2))
    else:
        augen = rng.randint(0, 120)
        hand["augen"] = augen
        hand["tricks"] = 0 if augen == 0 else 8 if augen == 120 else rng.randint(1, 7)
    maximum = game.max_laufende(rules.opt("laufende_ober_unter_only"))
    if maximum and game.kind != "bettel":
        hand["laufende"] = rng.randint(1, min(maximum, 5))
    if rng.random() < 0.15 and rules.opt("max_kontra"):
        kontra = rng.randint(1, rules.opt("max_kontra"))
        hand["kontra"] = kontra
        hand["last_kontra"] = "opponents" if kontra % 2 else "declarer"
    if rules.opt("steigern") and game.kind == "solo" and not tout:
        hand["bid"] = rng.choice((70, 80, 90))
    return hand


def random_hand(rules: RuleSet, rng: random.Random, seats: tuple[str, ...]) -> dict[str, Any]:
    """A random valid hand of ``rules``' family for ``seats``."""
    if isinstance(rules, SchafkopfRules):
        return schafkopf_hand(rules, rng, seats)
    if rules.FAMILY == "saukopf":
        return saukopf_hand(rng, seats)
    if rules.FAMILY == "doppelkopf":
        return doppelkopf_hand(rng, seats)
    raise NotImplementedError(f"no sampler for {rules.NAME}")
