"""Random valid Skat hands (presets ``skat``, ``skat-seeger``) for the benchmark, the property tests
and the rules page's examples: roughly a club list's mix — mostly suit games and Grands, the odd
Null, Hand or announced game, a few overbid ones, a Ramsch where the rules play it. Pure and
seeded; every hand it makes must pass the preset's validation (the property tests hold it to that).
"""

from __future__ import annotations

import random
from typing import Any

from ..shares import split
from .skat import (
    GRUNDWERTE,
    MAX_GESCHOBEN,
    REIZWERTE,
    SKAT_MOST_AUGEN,
    TOTAL_AUGEN,
    TRICKS,
    SkatRules,
    null_value,
    result_name,
)

_WEIGHTS = {"karo": 10, "herz": 12, "pik": 14, "kreuz": 16, "grand": 20, "null": 6, "ramsch": 8}
_LOW_BIDS = tuple(v for v in REIZWERTE if v <= 60)


def skat_hand(rules: SkatRules, rng: random.Random, seats: tuple[str, ...]) -> dict[str, Any]:
    """A random hand for the three ``seats``."""
    games = rules.games()
    game = rng.choices(games, [_WEIGHTS[g] for g in games])[0]
    if game == "ramsch":
        return _ramsch(rules, rng, seats)
    hand: dict[str, Any] = {"game": game, "declarer": rng.choice(seats)}
    if rules.opt("kontra_re") and rng.random() < 0.1:
        hand["kontra"] = rng.choice((1, 1, 2))
    if game == "null":
        played_hand, ouvert = rng.random() < 0.3, rng.random() < 0.3
        hand |= {"hand": played_hand, "ouvert": ouvert, "result": "won" if rng.random() < 0.7 else "lost"}
        if rng.random() < 0.5:
            hand["bid"] = rng.choice([v for v in REIZWERTE if v <= null_value(played_hand, ouvert)])
        return hand
    hand["spitzen"] = min(rules.spitzen_max(game), rng.choice((1, 1, 1, 2, 2, 3, 4, 5)))
    if rng.random() < 0.3:
        hand["ohne"] = True
    announced = None
    if rng.random() < 0.15:
        hand["hand"] = True
        pick = rng.random()
        if pick < 0.03:
            hand["ouvert"] = True
            announced = "schwarz"
        elif pick < 0.1:
            announced = hand["announced"] = rng.choice(("schneider", "schneider", "schwarz"))
    augen = min(TOTAL_AUGEN, max(0, round(rng.gauss(78, 22))))
    schwarz = None
    if augen == TOTAL_AUGEN and rng.random() < 0.6:
        schwarz = "opponents"
    elif augen <= SKAT_MOST_AUGEN and rng.random() < 0.3:
        schwarz = "declarer"
    if schwarz:
        hand["schwarz"] = schwarz
    if announced is None and rng.random() < 0.1:
        # Nobody counted: the result instead of the Augen.
        won = augen >= 61
        schneider = augen >= 90 if won else augen <= 30
        hand["result"] = result_name(won, schneider, schwarz is not None)
        hand.pop("schwarz", None)
    else:
        hand["augen"] = augen
    if rng.random() < 0.6:
        # Mostly a bid the game's value covers; now and then one it does not (overbid).
        value = GRUNDWERTE[game] * (hand["spitzen"] + 1 + int(hand.get("hand", False)))
        covered = [v for v in REIZWERTE if v <= value]
        hand["bid"] = rng.choice(covered) if rng.random() < 0.93 else rng.choice(_LOW_BIDS)
    return hand


def _ramsch(rules: SkatRules, rng: random.Random, seats: tuple[str, ...]) -> dict[str, Any]:
    tricks = [0] * len(seats)
    for _ in range(TRICKS):
        tricks[rng.randrange(len(seats))] += 1
    takers = [i for i, t in enumerate(tricks) if t]
    shares = iter(split(rng, TOTAL_AUGEN, len(takers)))
    augen = [next(shares) if t else 0 for t in tricks]
    hand: dict[str, Any] = {
        "game": "ramsch",
        "augen_by_player": dict(zip(seats, augen, strict=True)),
        "tricks_by_player": dict(zip(seats, tricks, strict=True)),
    }
    if rules.opt("schieberamsch"):
        hand["geschoben"] = rng.randint(0, MAX_GESCHOBEN)
    return hand
