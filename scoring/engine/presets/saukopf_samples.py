"""Random valid Saukopf hands in a club evening's mix, for ``manage.py bench --engine-only`` and the
property tests.

Pure and seeded (``random.Random``), so a run can be repeated. It checks nothing itself: every
hand it makes must pass the preset's validation, which the property tests hold it to.
"""

from __future__ import annotations

import random
from typing import Any

from ..shares import split
from .saukopf import CALL_GAMES, MAST_GAMES, PAARHUFER, RAMSCH_GAMES, SONDERPUNKT_GAMES, SUIT_GAMES, TRICKS
from .saukopf_trumps import CARDS, RANKS, SUITS, TRUMP_COUNT

# Mostly Paarhufer at four, solos at three; the Ramsch games now and then.
_WEIGHTS = {
    "sauerei": 30,
    "unreine_sauerei": 8,
    "grosskopferter": 8,
    "schwarte": 5,
    "feiges_mastschwein": 4,
    "zucht": 12,
    "wutz": 6,
    "hauer": 6,
    "eber": 3,
    "hybridschwein": 3,
    "ferkelparade": 2,
    "knorpel": 2,
    "keiler": 4,
    "feige_sau": 6,
}
SEATS = ("Anna", "Bert", "Cilli", "Done")
_KNORPEL = sorted(CARDS)


def saukopf_hand(rng: random.Random, seats: tuple[str, ...] = SEATS) -> dict[str, Any]:
    n = len(seats)
    games = [g for g in _WEIGHTS if n == 4 or g not in PAARHUFER]
    game = rng.choices(games, [_WEIGHTS[g] for g in games])[0]
    declarer = rng.choice(seats)
    others = [p for p in seats if p != declarer]
    hand: dict[str, Any] = {"game": game, "declarer": declarer}
    bid: Any = rng.randint(55, 100) if rng.random() < 0.97 else "schwarz"
    partner = None
    if game in MAST_GAMES:
        partner = rng.choice(others)
        bid = rng.randint(55, 100)
        hand["mast_bid"] = bid + rng.randint(1, 10)
    elif game in CALL_GAMES and rng.random() < 0.9:
        partner = rng.choice(others)
    hand["bid"] = bid
    if partner is not None:
        hand["partner"] = partner
    if game in SUIT_GAMES:
        hand["suit"] = rng.choice(SUITS)
    if game == "keiler":
        hand["schlagtrumpf"] = rng.choice(RANKS)
    if game == "knorpel":
        hand["knorpel"] = rng.choice(_KNORPEL)
    if game == "sauerei":
        hand["called"] = rng.choice(("eichel", "gras", "schellen"))
    elif game == "unreine_sauerei":
        hand["called"] = "herz_sau"
    elif game == "grosskopferter":
        hand["called"] = rng.choice(SUITS) + "_ober"
    if rng.random() < 0.1:
        hand["spiess"] = True
    if rng.random() < 0.1:
        hand["haxnspalter"] = rng.choice(("aufschlag", "hinterhalt"))
    if partner is None and rng.random() < 0.1:
        hand["offen"] = True
    if rng.random() < 0.2:
        hand["huftritt"] = True
        hand["gegenhieb"] = rng.random() < 0.3
    trog = n == 3 and rng.random() < 0.5
    if trog:
        hand["trog"] = True

    # Tricks per player, then the Augen in play to the players who took one.
    tricks = split(rng, TRICKS[n], n)
    out_of_play = 0 if n == 4 or trog else rng.randint(0, 22)
    takers = [i for i, t in enumerate(tricks) if t]
    shares = iter(split(rng, 120 - out_of_play, len(takers)))
    augen = [next(shares) if t else 0 for t in tricks]
    side = {declarer, partner}
    if game in RAMSCH_GAMES:
        hand["augen_by_player"] = dict(zip(seats, augen, strict=True))
        hand["tricks_by_player"] = dict(zip(seats, tricks, strict=True))
        return hand
    hand["augen"] = sum(a for p, a in zip(seats, augen, strict=True) if p in side)
    if out_of_play:
        hand["augen_opponents"] = 120 - out_of_play - hand["augen"]
    hand["tricks"] = sum(t for p, t in zip(seats, tricks, strict=True) if p in side)
    if game != "knorpel":
        key = (game, hand.get("suit"), hand.get("schlagtrumpf")) if game in SUIT_GAMES else (game, None, None)
        hand["laufende"] = rng.randint(1, min(6, TRUMP_COUNT[key]))
        hand["laufende_side"] = rng.choice(("declarer", "opponents"))
    if game in SONDERPUNKT_GAMES:
        if rng.random() < 0.15:
            hand["saukopf"] = "opponents" if game == "unreine_sauerei" else rng.choice(("declarer", "opponents"))
        if rng.random() < 0.15:
            hand["mueller"] = rng.choice(("declarer", "opponents"))
    return hand
