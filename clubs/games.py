"""The game a club plays (issue 32 §3): Schafkopf (with its Saukopf variant), Doppelkopf or Skat.

A club chooses one (``Club.game``, on its settings page). The choice decides which rule sets the
club's pages offer (the Regeln page, "Tisch starten"), the club's rules for new tables when the
stored ones belong to another game, and the words its pages speak (``clubs.words``). It never
touches a table already played: a table keeps the rule set it was started with, so a club that
switches its game still reads its past evenings as they were scored.

Plain strings only: the rule sets name their family (``RuleSet.FAMILY``) and the layer above
(``scoring``) matches the two; the tenant knows no engine.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Game(models.TextChoices):
    SCHAFKOPF = "schafkopf", _("Schafkopf")
    DOPPELKOPF = "doppelkopf", _("Doppelkopf")
    SKAT = "skat", _("Skat")


# The rule-set families (``RuleSet.FAMILY``) each game offers; Saukopf is a Schafkopf of its own
# (seven cards, the Sau as trump) that Schafkopf clubs play on the side.
FAMILIES: dict[str, tuple[str, ...]] = {
    Game.SCHAFKOPF: ("schafkopf", "saukopf"),
    Game.DOPPELKOPF: ("doppelkopf",),
    Game.SKAT: ("skat",),
}

# The rule set a club of the game starts with until its Vorstand chooses another (Skat: the
# Spielliste settled between the players, skat.md §5; docs/rules/skat.md).
DEFAULT_PRESETS: dict[str, str] = {
    Game.SCHAFKOPF: "allgaeu",
    Game.DOPPELKOPF: "doppelkopf",
    Game.SKAT: "skat",
}


def game_of_family(family: str) -> str:
    """The game a rule-set family belongs to (Schafkopf for an unknown one, the app's first game)."""
    return next((game for game, families in FAMILIES.items() if family in families), Game.SCHAFKOPF)
