"""The Schafkopf family's game kinds: trump sets (for Laufende), the solo ranking and the cards
Ramsch tie-breaks compare. Data only; pricing lives in ``schafkopf.py``."""

from __future__ import annotations

from dataclasses import dataclass

from ..core import EngineError


@dataclass(frozen=True)
class Game:
    name: str
    label: str
    kind: str  # partner | solo | bettel | sie | ramsch | leasters
    trumps: int  # length of the trump order: the most Laufende possible (spec §2.1)
    buben: int  # Ober and Unter among the trumps: the most Laufende where only they count (001 §2.2)
    needs_suit: bool = False
    short_run: bool = False  # Laufende paid from the lower threshold (Wenz, Geier: spec §1 "from 2")
    anhang_c: bool = False  # one of the additional games of 003 §1/§3

    def max_laufende(self, ober_unter_only: bool) -> int:
        return self.buben if ober_unter_only else self.trumps


GAMES: dict[str, Game] = {
    g.name: g
    for g in (
        Game("rufspiel", "Rufspiel", "partner", 14, 8),
        Game("solo", "Solo", "solo", 14, 8, needs_suit=True),
        Game("wenz", "Wenz", "solo", 4, 4, short_run=True),
        Game("geier", "Geier", "solo", 4, 4, short_run=True),
        # 003 §1.1/§1.3: the four Unter (Ober) plus the seven other cards of the trump suit.
        Game("farbwenz", "Farbwenz", "solo", 11, 4, needs_suit=True),
        Game("farbgeier", "Farbgeier", "solo", 11, 4, needs_suit=True),
        Game("bettel", "Bettel", "bettel", 0, 0),
        Game("sie", "Sie", "sie", 8, 8),
        Game("mungo", "Mungo", "ramsch", 0, 0),
        # 003 §1.4–§1.10 and §3.4: only when the rule set enables them.
        Game("wenz_koenig", "Wenz-König", "solo", 8, 4, anhang_c=True),
        Game("geier_wenz", "Geier-Wenz", "solo", 8, 8, anhang_c=True),
        Game("wenz_geier", "Buben-Damen-Solo", "solo", 8, 8, anhang_c=True),
        Game("koenigssolo", "Königssolo", "solo", 4, 0, short_run=True, anhang_c=True),
        Game("damen_buben_koenig", "Damen-Buben-König-Solo", "solo", 12, 8, anhang_c=True),
        Game("reines_farbsolo", "Reines Farbsolo", "solo", 8, 0, needs_suit=True, anhang_c=True),
        Game("betteln", "Betteln", "bettel", 0, 0, anhang_c=True),
        Game("leasters", "Leasters", "leasters", 0, 0, anhang_c=True),
    )
}
ALIASES = {"ramsch": "mungo", "farbsolo": "solo"}
ALL_GAME_NAMES = tuple(GAMES)
KONTRA_KINDS = ("partner", "solo", "bettel")  # the kinds a side plays against the other: Stöße count


def last_kontra(kontra: int) -> str:
    """The side that gave the last of ``kontra`` Stöße (``kontra`` ≥ 1): 001 §6.2 / 002 §8, the
    opponents give the first, then the sides alternate. The engine holds a hand to it; the tap
    form and the import fill it in from the number (``entry_facts.with_last_kontra``)."""
    return "opponents" if kontra % 2 else "declarer"


# 003 §2.0: the ranking of all solos decides who plays when several want to (the entry form
# offers games in this order). The seed's table did not survive; this is the usual order:
# more trumps and harder games rank higher, Tout above everything but Sie.
SOLO_RANKING = (
    "sie",
    "solo",
    "damen_buben_koenig",
    "geier_wenz",
    "wenz_geier",
    "wenz",
    "wenz_koenig",
    "geier",
    "farbwenz",
    "farbgeier",
    "reines_farbsolo",
    "koenigssolo",
    "bettel",
    "betteln",
)

SUITS = ("eichel", "gras", "herz", "schellen")
SUIT_ALIASES = {"laub": "gras", "gruen": "gras", "grün": "gras", "blatt": "gras", "schell": "schellen"}
SUIT_LABELS = {"eichel": "Eichel", "gras": "Gras", "herz": "Herz", "schellen": "Schellen"}
CALLABLE = ("eichel", "gras", "schellen")  # 002 §5: every Sau but the trump (Herz) Sau

# The Rufspiel trump order (002 §3), used by the Ramsch/Leasters tie-break "highest trump"
# (003 §3.1). Index 0 is the highest trump.
_RANK_ALIASES = {
    "sau": "ass",
    "as": "ass",
    "a": "ass",
    "10": "zehn",
    "k": "koenig",
    "könig": "koenig",
    "9": "neun",
    "8": "acht",
    "7": "sieben",
    "o": "ober",
    "u": "unter",
}
RAMSCH_TRUMPS = tuple(
    [f"{s}_ober" for s in SUITS]
    + [f"{s}_unter" for s in SUITS]
    + [f"herz_{r}" for r in ("ass", "zehn", "koenig", "neun", "acht", "sieben")]
)


def trump_rank(card: object, field: str) -> int:
    """Position of ``card`` in the Rufspiel trump order, 0 = highest (``eichel_ober``)."""
    if not isinstance(card, str):
        raise EngineError("invalid_type", "Erwartet eine Karte wie 'eichel_ober'.", field)
    text = card.strip().lower().replace("-", "_").replace(" ", "_")
    suit, _, rank = text.partition("_")
    suit = SUIT_ALIASES.get(suit, suit)
    rank = _RANK_ALIASES.get(rank, rank)
    name = f"{suit}_{rank}"
    if name not in RAMSCH_TRUMPS:
        raise EngineError("invalid_value", f"'{card}' ist kein Trumpf im Ramsch.", field)
    return RAMSCH_TRUMPS.index(name)
