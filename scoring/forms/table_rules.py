"""Small pieces of the phone form and the table state for the table rules of issue 12: the bid of
the Gardareizrunde and of Steigern (001 §5.3, 003 §2.1.1), buying the cards at five and six
(001 §7.1/§7.2) and the Stöckle of the Stöcklesrunde (001 §5.4/§5.5).

Kept apart from ``scoring/forms/hand.py`` so the hand form only asks these functions which field to
add and which facts to send; the engine decides and refuses, the form shows its message at the
field it names (``bid``, ``bought_by``, ``game``)."""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.engine.presets.schafkopf import Round, SchafkopfRules
from scoring.engine.presets.schafkopf_games import GAMES
from scoring.engine.session import TableState
from scoring.forms.widgets import PillSelect


def bid_field(rules: SchafkopfRules, rnd: Round) -> forms.IntegerField | None:
    """The bid, where the rules have one in some round (Steigern, or the Gardareizrunde among
    the special rounds): on the form in every round, shown where the round has it, so the phone
    offline can follow the table into the Gardareizrunde. Its steps are left to the engine, so a
    wrong bid gets the rule as its message ("Gereizt wird ab 62 in Schritten von 2 …")."""
    if not (rules.opt("steigern") or rules.opt("special_rounds")):
        return None
    help_text = _("62, 64 … 120; Bettel bis 76") if rnd.bid_reaches else _("70, 80 … 120")
    return forms.IntegerField(
        label=_("Gebot (Augen)"),
        min_value=0,
        max_value=120,
        required=False,
        help_text=help_text,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )


def bought_by_field(state: TableState) -> forms.ChoiceField | None:
    """ "Gekauft von" at tables of five and six: the dealer (at six also the Abheber) may buy the
    cards of the player dealt last and play in his seat. Every player has a button, only the
    buyers' are shown (the phone offline shows those of the next deal; the engine checks)."""
    if len(state.players) < 5:
        return None
    hidden = {name: {"hidden": True} for name in state.players if name not in state.buyers}
    return forms.ChoiceField(
        label=_("Karten gekauft von"),
        choices=[("", _("niemand")), *((name, name) for name in state.players)],
        required=False,
        initial="",
        widget=PillSelect(choice_attrs=hidden),
        help_text=_("Der Käufer spielt auf dem Platz des Verkäufers und zahlt ihm den Kaufpreis."),
    )


@dataclass(frozen=True)
class StoeckleRow:
    player: str
    games: tuple[str, ...]  # labels of the games still to play
    must_play: bool


def stoeckle_rows(state: TableState) -> list[StoeckleRow]:
    """The sheet's view of a Stöcklesrunde: each player's games still to play, and who must play
    if nobody wants to (001 §5.4)."""
    return [
        StoeckleRow(player, tuple(GAMES[game].label for game in games), player == state.must_play)
        for player, games in state.stoeckle
    ]
