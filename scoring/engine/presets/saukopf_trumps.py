"""Saukopf cards and the trump order of every game (seed 000, "Spiele" and "Übersicht").

Used to validate what the table announces (called card, Knorpel, Schlagtrumpf) and to bound the
Laufende a game can have. This module does not play cards or count Laufende itself: the table
counts them and the engine checks the count against the game's number of trumps.

Cards are named ``<suit>_<rank>`` in ASCII (``gras_ober``, ``herz_sau``, ``schellen_zehn``).
"""

from __future__ import annotations

# Within one card rank the trumps rank Eichel, Gras, Herz, Schellen (seed: "Stoßen und Stechen").
SUITS: tuple[str, ...] = ("eichel", "gras", "herz", "schellen")
# Stechkraft within a suit: Sau, 10, König, Ober, Unter, 9, 8, 7.
RANKS: tuple[str, ...] = ("sau", "zehn", "koenig", "ober", "unter", "neun", "acht", "sieben")
CARDS: frozenset[str] = frozenset(f"{suit}_{rank}" for suit in SUITS for rank in RANKS)

# Keiler: Herz König, Schellen 7, Eichel 7 (Maxi, Belli, Soacher from Watten).
MASCHINE: tuple[str, ...] = ("herz_koenig", "schellen_sieben", "eichel_sieben")
GRATTLER = "schellen_zehn"


def _of_rank(rank: str) -> tuple[str, ...]:
    return tuple(f"{suit}_{rank}" for suit in SUITS)


def _suit_cards(suit: str, skip: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(f"{suit}_{rank}" for rank in RANKS if rank not in skip)


def zucht_trumps(suit: str) -> tuple[str, ...]:
    """Zucht (Schafkopf's Solo): all Ober and Unter, then the Farbtrumpf A 10 K 9 8 7."""
    return _of_rank("ober") + _of_rank("unter") + _suit_cards(suit, ("ober", "unter"))


def hauer_trumps(suit: str) -> tuple[str, ...]:
    """Hauer (Farbwenz): all Unter, then the Farbtrumpf A 10 K O 9 8 7."""
    return _of_rank("unter") + _suit_cards(suit, ("unter",))


def keiler_trumps(suit: str, schlagtrumpf: str) -> tuple[str, ...]:
    """Keiler: the Maschine, then the Schlagtrumpf, then the Farbtrumpf ("Keiler-Trümpfe").

    The Maschine has precedence over the Schlagtrumpf and the Schlagtrumpf over the Farbtrumpf,
    so a card appears once, at its highest place. Among the Schlagtrümpfe the Haube (the one of
    the Farbtrumpf's suit) is highest; the others rank by the order of play, which no hand
    records, so they are listed in the usual suit order.
    """
    schlag = [f"{suit}_{schlagtrumpf}"] + [c for c in _of_rank(schlagtrumpf) if not c.startswith(suit + "_")]
    schlag = [c for c in schlag if c not in MASCHINE]
    farb = [c for c in _suit_cards(suit, (schlagtrumpf,)) if c not in MASCHINE]
    return MASCHINE + tuple(schlag) + tuple(farb)


def paarhufer_trumps() -> tuple[str, ...]:
    """Every Paarhufer: the Grattler (Schellen 10), the Ober, the Unter, Herz A 10 K 9 8 7."""
    return (GRATTLER,) + zucht_trumps("herz")


FIXED_TRUMPS: dict[str, tuple[str, ...]] = {
    "eber": _of_rank("ober"),
    "wutz": _of_rank("unter"),
    "hybridschwein": _of_rank("ober") + _of_rank("unter"),
    "ferkelparade": _of_rank("neun") + _of_rank("acht") + _of_rank("sieben"),
    # Feige Sau has the Herz Zucht's trumps.
    "feige_sau": zucht_trumps("herz"),
    "schwarte": paarhufer_trumps(),
    "feiges_mastschwein": paarhufer_trumps(),
    "sauerei": paarhufer_trumps(),
    "unreine_sauerei": paarhufer_trumps(),
    "grosskopferter": paarhufer_trumps(),
}

# How many trumps each game has: the most Laufende it can have. Built once at import so that
# scoring a hand is a dictionary look-up.
TRUMP_COUNT: dict[tuple[str, str | None, str | None], int] = {
    **{(game, None, None): len(trumps) for game, trumps in FIXED_TRUMPS.items()},
    **{("zucht", suit, None): len(zucht_trumps(suit)) for suit in SUITS},
    **{("hauer", suit, None): len(hauer_trumps(suit)) for suit in SUITS},
    **{("keiler", suit, rank): len(keiler_trumps(suit, rank)) for suit in SUITS for rank in RANKS},
    # Knorpel: exactly one trump, the named card.
    ("knorpel", None, None): 1,
}
