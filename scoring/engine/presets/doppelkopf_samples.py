"""Random valid Doppelkopf hands in a club evening's mix, for ``manage.py bench --engine-only`` and the
property tests.

Pure and seeded (``random.Random``), so a run can be repeated. It checks nothing itself: every
hand it makes must pass the preset's validation, which the property tests hold it to.
"""

from __future__ import annotations

import random
from typing import Any

from .doppelkopf import ABSAGEN, DOPPELKOPF_ONLY, MAX_AUGEN, SUITS, TOTAL_AUGEN, TRICKS

# Mostly normal games, the occasional solo, wedding or Armut.
_GAMES = {
    "normal": 70,
    "hochzeit": 5,
    "stille_hochzeit": 1,
    "armut": 4,
    "trumpfsolo": 6,
    "farbsolo": 3,
    "damensolo": 4,
    "bubensolo": 3,
    "fleischlos": 1,
}
SEATS = ("Anna", "Bert", "Cilli", "Done")


def _announcements(rng: random.Random, side: str) -> list[str]:
    ladder = [side, *ABSAGEN]
    return ladder[: rng.choices((0, 1, 2, 3), (55, 30, 12, 3))[0]]


def doppelkopf_hand(rng: random.Random, seats: tuple[str, ...] = SEATS) -> dict[str, Any]:
    game = rng.choices(list(_GAMES), list(_GAMES.values()))[0]
    if game in ("normal", "armut") or (game == "hochzeit" and rng.random() < 0.85):
        re = rng.sample(seats, 2)
    else:
        re = [rng.choice(seats)]
    hand: dict[str, Any] = {"game": game, "re": re}
    if game == "farbsolo":
        hand["suit"] = rng.choice(SUITS)
    tricks = min(TRICKS, max(0, round(rng.gauss(6, 2.5))))
    augen = rng.randint(TOTAL_AUGEN - MAX_AUGEN[TRICKS - tricks], MAX_AUGEN[tricks])
    hand["augen"] = augen
    if rng.random() < 0.8:
        hand["tricks"] = tricks
    else:
        # Without a count, 0 and 240 Augen mean schwarz; keep such hands counted.
        hand["tricks"] = tricks if augen in (0, TOTAL_AUGEN) else None
    hand["announcements"] = {"re": _announcements(rng, "re"), "contra": _announcements(rng, "contra")}
    hand["extras"] = _extras(rng, game, augen, tricks)
    return hand


def _extras(rng: random.Random, game: str, augen: int, tricks: int) -> list[dict[str, str]]:
    sides = {"re": (augen, tricks), "contra": (TOTAL_AUGEN - augen, TRICKS - tricks)}
    out: list[dict[str, str]] = []
    for side, (side_augen, side_tricks) in sides.items():
        if not side_tricks:
            continue
        for _ in range(min(side_augen // 40, rng.choices((0, 1, 2), (60, 30, 10))[0])):
            out.append({"side": side, "kind": "doppelkopf"})
    if game in DOPPELKOPF_ONLY:
        return out
    takers = [side for side, (a, t) in sides.items() if t]
    last = rng.choice(takers)  # who took the last trick
    roll = rng.random()
    if roll < 0.15:
        out.append({"side": last, "kind": "charlie"})
    elif roll < 0.2:
        out.append({"side": last, "kind": "charlie_gefangen"})
    rich = [side for side, (a, t) in sides.items() if t and a >= 22]
    for _ in range(rng.choices((0, 1, 2), (70, 25, 5))[0] if rich else 0):
        out.append({"side": rng.choice(rich), "kind": "fuchs_gefangen"})
    if rich and rng.random() < 0.1:
        out.append({"side": rng.choice(rich), "kind": "herz10"})
    return out
