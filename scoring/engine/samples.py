"""Random valid hands for a rule set: the realistic game mix the benchmark and the property
tests draw from. Pure and seeded (``random.Random``), so a run can be repeated.

It does not check anything itself: every hand it makes must pass the preset's validation, and
the property tests hold it to that.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from .core import RuleSet
from .presets.doppelkopf_samples import doppelkopf_hand
from .presets.saukopf_samples import saukopf_hand
from .presets.schafkopf import ROUNDS, SchafkopfRules
from .presets.schafkopf_games import GAMES, RAMSCH_TRUMPS, SUITS, last_kontra
from .presets.skat import SkatRules
from .presets.skat_samples import skat_hand
from .shares import split

# Roughly what a club evening looks like: mostly Rufspiele, some solos, the odd Bettel or Mungo.
_WEIGHTS = {"rufspiel": 60, "solo": 12, "wenz": 8, "mungo": 10, "bettel": 3, "geier": 2, "farbwenz": 2, "sie": 0.05}


def _trump_tie_breaks(
    rng: random.Random, seats: tuple[str, ...], tricks: list[int], *, leasters: bool
) -> dict[str, Any]:
    """Tie-break data of 003 §3.1/§3.4 a real deal could produce: the 14 trumps of the Rufspiel
    order spread over the tricks (at most four cards a trick), each card with one player; the
    Ramsch names each player's highest trump, the Leasters the smallest."""
    deck = list(RAMSCH_TRUMPS)
    rng.shuffle(deck)
    held: dict[str, list[str]] = {}
    for seat, taken in zip(seats, tricks, strict=True):
        count = rng.randint(0, min(4 * taken, len(deck), 3))
        held[seat] = [deck.pop() for _ in range(count)]
    rank = RAMSCH_TRUMPS.index
    pick = max if leasters else min  # the smallest trump has the largest index
    cards = {seat: pick(mine, key=rank) if mine else None for seat, mine in held.items()}
    return {
        "trumps_by_player": {seat: len(mine) for seat, mine in held.items()},
        "low_trump_by_player" if leasters else "top_trump_by_player": cards,
    }


def schafkopf_hand(
    rules: SchafkopfRules,
    rng: random.Random,
    seats: tuple[str, ...],
    round_name: str = "normal",
    stoeckle: Mapping[str, Sequence[str]] | None = None,
) -> dict[str, Any]:
    """A random hand for ``seats`` in ``round_name``; in a Stöcklesrunde (``stoeckle``: the games
    each player has left, 001 §5.4) only a game its declarer still holds a Stöckle for."""
    games = rules.games_for_round(round_name)
    owner = None
    pairs = [(player, g) for player in seats for g in (stoeckle or {}).get(player, ()) if g in games]
    if pairs:
        owner, name = rng.choice(pairs)
    elif stoeckle:
        name = "sie"  # nobody seated holds a Stöckle: only the Sie is left to play
    else:
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
            hand.update(_trump_tie_breaks(rng, seats, tricks, leasters=game.kind == "leasters"))
        if rules.opt("max_kontra") and rng.random() < 0.1:
            hand["kontra_by"] = rng.sample(seats, rng.choice((1, 1, 2)))  # 001 §4.3.2: each may give one
        if owner is not None:
            hand["declarer"] = owner  # whose Mungo-Stöckle it is (read by the fold, not the preset)
        return hand
    declarer = owner or rng.choice(seats)
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
        hand["last_kontra"] = last_kontra(kontra)
    if ROUNDS[round_name].bid_reaches and game.kind in ("solo", "bettel"):
        # 001 §5.3: the Reiz goes from 62 in steps of 2; a Bettel only after 62..76.
        hand["bid"] = rng.randrange(62, 78 if game.kind == "bettel" else 122, 2)
    elif rules.opt("steigern") and game.kind == "solo" and not tout:
        hand["bid"] = rng.choice((70, 80, 90, 100, 110, 120))
    return hand


def seated_hand(
    rules: SchafkopfRules,
    rng: random.Random,
    seats: tuple[str, ...],
    buyers: Sequence[str],
    round_name: str = "normal",
    stoeckle: Mapping[str, Sequence[str]] | None = None,
) -> dict[str, Any]:
    """A hand for the evening fold: as ``schafkopf_hand``, and at five or six (``buyers``: who may
    buy, from ``TableState.buyers``) now and then with the cards bought (001 §7.1/§7.2): the buyer
    plays in the seat of the player dealt last."""
    bought_by = rng.choice(buyers) if buyers and rng.random() < 0.2 else None
    if bought_by is not None:
        seats = (*seats[:-1], bought_by)
    hand = schafkopf_hand(rules, rng, seats, round_name, stoeckle)
    if bought_by is not None:
        hand["bought_by"] = bought_by
    return hand


def random_hand(rules: RuleSet, rng: random.Random, seats: tuple[str, ...]) -> dict[str, Any]:
    """A random valid hand of ``rules``' family for ``seats`` (Skat: the three who play it)."""
    if isinstance(rules, SchafkopfRules):
        return schafkopf_hand(rules, rng, seats)
    if isinstance(rules, SkatRules):
        return skat_hand(rules, rng, seats)
    if rules.FAMILY == "saukopf":
        return saukopf_hand(rng, seats)
    if rules.FAMILY == "doppelkopf":
        return doppelkopf_hand(rng, seats)
    raise NotImplementedError(f"no sampler for {rules.NAME}")
