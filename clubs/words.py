"""The words a club's pages speak, one set per game (issue 32 §3): a Skat club reads "Liste",
"Alleinspieler", "Spielpunkte"; a Schafkopf club "Spielabend", "Spieler", "Laufende".

Templates read them as ``words`` (the context processor ``clubs.context_processors.game_words``
puts the words of the club the request is about there), Python code through ``words_for``. A
page that says something only one game has takes the word from here, or includes the game's own
partial named here (``counts_template``): no template asks which game a club plays.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clubs.games import Game


@dataclass(frozen=True)
class Words:
    game: Promise  # the game's name: the page title, the brand in the header
    declarer: Promise  # who plays the game against the others (a column, a chart's title)
    as_declarer: Promise  # "als Spieler" / "als Alleinspieler"
    declarer_games: Promise  # a section: the member's games as declarer
    all_declarer_games: Promise  # the sum line of that section
    games_by_type: Promise  # the chart of games by type, for a member
    counts_template: str  # the member page's block of the game's own counts
    open_intro: Promise  # what the club's open tournaments are, on their list
    # The club's championship (``tournaments``: Partien, Meisterschaft) is played with Schafkopf's
    # rule sets; the pages of another game do not lead there.
    championship: bool = False
    # A Skat club's open tournament is a Preisskat: the list offers no Preisschafkopf and the new
    # tournament's form is the Preisskat's (issue 32 §3, §4).
    preisskat_only: bool = False
    # What the game has, for the columns of the club's exports: a partner of the declarer (a
    # Rufspiel's Mitspieler), a Stock between the hands, Solos and Tout among the games. Skat has
    # none of them (skat.md §1: the Alleinspieler against the two others, no pot).
    partner: bool = True
    stock: bool = True
    solos: bool = True


_SCHAFKOPF = Words(
    game=_("Schafkopf"),
    declarer=pgettext_lazy("declarer", "Spieler"),
    as_declarer=_("als Spieler"),
    declarer_games=_("Als Spieler"),
    all_declarer_games=_("Alle Spiele als Spieler"),
    games_by_type=_("Spiele nach Art als Spieler"),
    counts_template="standings/_counts.html",
    open_intro=_(
        "Preisschafkopf, Schafkopfrennen und Preisskat: Gäste und Mitglieder, Startgeld an der Kasse,"
        " Tische je Runde neu ausgelost."
    ),
    championship=True,
)


WORDS: dict[str, Words] = {
    Game.SCHAFKOPF: _SCHAFKOPF,
    # Doppelkopf speaks as Schafkopf does, but has no championship of its own rule sets.
    Game.DOPPELKOPF: replace(_SCHAFKOPF, game=_("Doppelkopf"), championship=False),
    # skat.md §5, §6: the declarer is the Alleinspieler.
    Game.SKAT: Words(
        game=_("Skat"),
        declarer=_("Alleinspieler"),
        as_declarer=_("als Alleinspieler"),
        declarer_games=_("Als Alleinspieler"),
        all_declarer_games=_("Alle Spiele als Alleinspieler"),
        games_by_type=_("Spiele nach Art als Alleinspieler"),
        counts_template="standings/_counts_skat.html",
        open_intro=_("Preisskat: Gäste und Mitglieder, Startgeld an der Kasse, Tische je Runde neu ausgelost."),
        preisskat_only=True,
        partner=False,
        stock=False,
        solos=False,
    ),
}


def words_for(game: str | None) -> Words:
    """The words of ``game``; Schafkopf's (the app's first game) for a page of no club."""
    return WORDS.get(game or Game.SCHAFKOPF, WORDS[Game.SCHAFKOPF])
