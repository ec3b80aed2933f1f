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


def bid_kinds(rules: SchafkopfRules, rnd: Round) -> tuple[str, ...]:
    """The game kinds that carry a bid: in the Gardareizrunde every Solo and the Bettel (its bid
    says how many cards lie open), with Steigern the Solos."""
    if rnd.bid_reaches:
        return ("solo", "bettel")
    return ("solo",) if rules.opt("steigern") else ()


def bid_field(rules: SchafkopfRules, rnd: Round) -> forms.IntegerField | None:
    """The bid, where the round or the rules have one. Its steps are left to the engine, so a
    wrong bid gets the rule as its message ("Gereizt wird ab 62 in Schritten von 2 …")."""
    if not bid_kinds(rules, rnd):
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
    """"Gekauft von" at tables of five and six: the dealer (at six also the Abheber) may buy the
    cards of the player dealt last and play in his seat."""
    if not state.buyers:
        return None
    return forms.ChoiceField(
        label=_("Karten gekauft von"),
        choices=[("", _("niemand")), *((name, name) for name in state.buyers)],
        required=False,
        initial="",
        widget=forms.RadioSelect,
        help_text=_("Der Käufer spielt auf dem Platz des Verkäufers und zahlt ihm den Kaufpreis (001 §7.1, §7.2)."),
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


def declarer_kinds(state: TableState) -> tuple[str, ...]:
    """The game kinds that name a Spieler; in a Stöcklesrunde also the Mungo, each one being a
    player's game whose Stöckle he hands in (001 §5.4)."""
    return ("partner", "solo", "bettel", "sie", *(("ramsch",) if state.stoeckle else ()))
