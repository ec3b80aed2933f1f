"""The Skat phone form (spec §2.4, ``../shared/rules/skat.md``): one game by taps — the game
(♣ ♠ ♥ ♦, Grand, Null), the declarer, mit/ohne how many Spitzen, Hand, Ouvert, an announcement,
the result (won or lost, Schneider or Schwarz reached) or the counted Augen, the bid where the game
can be overbid; Kontra/Re and the Ramsch only where the table's options play them.

Like the other families' forms (``families``): every field is on the form, ``visible_for`` tells
the page which game shows which field, ``to_data`` sends only what the chosen game reads — through
``skat_hand_facts``, the pure function the phone offline shares — and ``form_field`` maps the
engine's refusal back to the field. A typical game is four taps and the save: game, declarer,
Spitzen, result ("mit" is preset).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext as _

from scoring.engine.core import EngineError
from scoring.engine.presets import skat as sk
from scoring.engine.presets.skat_facts import skat_hand_facts
from scoring.forms.entry import EntryContext
from scoring.forms.families import FamilyHandForm, _number, _switch
from scoring.forms.widgets import PillSelect
from scoring.labels import RESULT_LABELS

# The order a Skat player names the games: the suits by their Grundwert from the top, Grand, Null.
GAME_ORDER = ("kreuz", "pik", "herz", "karo", "grand", "null", "ramsch")
SUIT_SIGNS = {"kreuz": "♣", "pik": "♠", "herz": "♥", "karo": "♦"}
OVERBID_GAMES = (*sk.SUIT_GAMES, "grand")  # skat.md §4: only a game with a Grundwert can be overbid


def game_labels() -> dict[str, str]:
    """The game buttons in the active language (the suits with their sign)."""
    names = {
        "kreuz": _("Kreuz"),
        "pik": _("Pik"),
        "herz": _("Herz"),
        "karo": _("Karo"),
        "grand": _("Grand"),
        "null": _("Null"),
        "ramsch": _("Ramsch"),
    }
    return {game: f"{SUIT_SIGNS[game]} {name}" if game in SUIT_SIGNS else name for game, name in names.items()}


class SkatHandForm(FamilyHandForm):
    """One Skat game at a table of three or four (the dealer sits out at four, skat.md §1)."""

    layout = "skat"
    FIELD_MAP = {
        "ohne": "mit_ohne",
        "schwarz": "result",
        "sitting_out": None,
        "context": None,
        "seats": None,
        "augen_by_player": None,
        "tricks_by_player": None,
    }

    def __init__(self, *args: Any, context: EntryContext, **kwargs: Any) -> None:
        super().__init__(*args, context=context, **kwargs)
        rules = context.setup.ruleset
        assert isinstance(rules, sk.SkatRules), "SkatHandForm is for the Skat family"
        self.rules = rules
        played = rules.games()
        self.games = tuple(g for g in GAME_ORDER if g in played)
        labels = game_labels()
        self.fields["game"] = forms.ChoiceField(
            label=_("Spiel"), choices=[(g, labels[g]) for g in self.games], widget=PillSelect
        )
        self.fields["declarer"] = forms.ChoiceField(
            label=_("Alleinspieler"), choices=self.player_choices, widget=PillSelect, required=False
        )
        self.fields["mit_ohne"] = forms.ChoiceField(
            label=_("mit oder ohne"),
            choices=[("mit", _("mit")), ("ohne", _("ohne"))],
            widget=PillSelect,
            initial="mit",
            required=False,
        )
        suits = " ".join(g for g in self.games if g in sk.SUIT_GAMES)
        most = max((rules.spitzen_max(g) for g in self.games if g in sk.GRUNDWERTE), default=sk.MAX_SPITZEN_BUBEN)
        self.fields["spitzen"] = forms.TypedChoiceField(
            label=_("Spitzen"),
            coerce=int,
            choices=[(n, str(n)) for n in range(1, most + 1)],
            # Above four only a suit game has Spitzen (the Grand: the four Buben, skat.md §2).
            widget=PillSelect(choice_attrs={n: {"games": suits} for n in range(sk.MAX_SPITZEN_BUBEN + 1, most + 1)}),
            required=False,
            empty_value=None,
        )
        self.fields["hand"] = _switch(_("Hand"))
        self.fields["ouvert"] = _switch(_("Ouvert"))
        self.fields["announced"] = forms.ChoiceField(
            label=_("Angesagt (nur Hand)"),
            choices=[("", _("nichts")), ("schneider", _("Schneider")), ("schwarz", _("Schwarz"))],
            widget=PillSelect,
            initial="",
            required=False,
        )
        two_sided = " ".join(g for g in self.games if g in OVERBID_GAMES)
        declared = " ".join(g for g in self.games if g != "ramsch")
        result_labels = {
            "won": _("gewonnen"),
            "won_schneider": _("Schneider"),
            "won_schwarz": _("Schwarz"),
            # The row says who: lost with the declarer Schneider or Schwarz himself (as the
            # Schafkopf form's second row).
            "lost": _("verloren"),
            "lost_schneider": _("Schneider"),
            "lost_schwarz": _("Schwarz"),
        }
        self.fields["result"] = forms.ChoiceField(
            label=_("Ergebnis"),
            choices=[(r, result_labels[r]) for r in sk.RESULTS],
            widget=PillSelect(
                choice_attrs={
                    r: {"games": declared if r in ("won", "lost") else two_sided, "row": r == "lost"}
                    for r in sk.RESULTS
                }
            ),
            required=False,
        )
        self.fields["augen"] = _number(
            _("Augen des Alleinspielers (mit Skat)"), 0, sk.TOTAL_AUGEN, help_text=_("61 gewinnt, 60 verliert.")
        )
        self.fields["bid"] = forms.TypedChoiceField(
            label=_("Gereizt bis"),
            coerce=int,
            choices=[("", "–"), *((v, str(v)) for v in sk.REIZWERTE)],
            required=False,
            empty_value=None,
            help_text=_("Nur nötig, wenn der Spielwert nicht reicht (überreizt, skat.md §4)."),
        )
        if rules.opt("kontra_re"):
            self.fields["kontra"] = forms.TypedChoiceField(
                label=_("Kontra/Re"),
                coerce=int,
                choices=[(0, "–"), (1, _("Kontra")), (2, _("Re"))],
                widget=PillSelect,
                initial=0,
                required=False,
                empty_value=0,
            )
        if "ramsch" in self.games:
            for i, name in enumerate(self.players):
                self.fields[f"augen_{i}"] = _number(name, 0, sk.TOTAL_AUGEN)
                self.fields[f"tricks_{i}"] = _number(name, 0, sk.TRICKS)
            if rules.opt("schieberamsch"):
                self.fields["geschoben"] = forms.TypedChoiceField(
                    label=_("Geschoben"),
                    coerce=int,
                    choices=[(n, str(n) if n else "–") for n in range(sk.MAX_GESCHOBEN + 1)],
                    widget=PillSelect,
                    initial=0,
                    required=False,
                    empty_value=0,
                )
        self.fields["dealer"] = forms.ChoiceField(
            label=_("Gegeben hat"),
            choices=self.player_choices,
            initial=context.state.dealer,
            required=False,
            help_text=_("Nur ändern, wenn nicht der gegeben hat, der dran war."),
        )

    # --- the page ------------------------------------------------------------------------------

    @property
    def visible_for(self) -> dict[str, str]:
        """Field (or group) → the games it is shown for, space-separated (score-entry.js)."""
        two_sided = " ".join(g for g in self.games if g in OVERBID_GAMES)
        declared = " ".join(g for g in self.games if g != "ramsch")
        return {
            "declarer": declared,
            "spitzen": two_sided,
            "hand": declared,
            "announced": two_sided,
            "result": declared,
            "augen": two_sided,
            "bid": two_sided,
            "kontra": declared,
            "ramsch": "ramsch" if "ramsch" in self.games else "",
        }

    @property
    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"augen_{i}"] for i in range(len(self.players)) if f"augen_{i}" in self.fields]

    @property
    def trick_fields(self) -> list[forms.BoundField]:
        return [self[f"tricks_{i}"] for i in range(len(self.players)) if f"tricks_{i}" in self.fields]

    @property
    def details_open(self) -> bool:
        """Counted Augen or a bid typed (or refused there): their fold opens."""
        return any(self[name].value() not in (None, "") or self[name].errors for name in ("augen", "bid"))

    # --- facts ---------------------------------------------------------------------------------

    def to_data(self) -> dict[str, Any]:
        cd = self.cleaned_data
        values = {key: value for key, value in cd.items() if key not in ("mit_ohne", "idempotency_key")}
        values["ohne"] = cd.get("mit_ohne") == "ohne"
        values["announced"] = cd.get("announced") or None
        return skat_hand_facts(values, players=self.players, dealer=self.context.state.dealer)

    @classmethod
    def initial_from(cls, data: Mapping[str, Any], context: EntryContext) -> dict[str, Any]:
        """The form's values for stored facts (the inverse of ``to_data``)."""
        initial: dict[str, Any] = {
            key: data[key]
            for key in ("game", "declarer", "spitzen", "announced", "augen", "bid", "kontra", "geschoben")
            if key in data
        }
        initial["mit_ohne"] = "ohne" if data.get("ohne") else "mit"
        initial["hand"] = bool(data.get("hand"))
        initial["ouvert"] = bool(data.get("ouvert"))
        if data.get("result"):
            initial["result"] = data["result"]
        elif data.get("schwarz") in sk.SIDES:
            # Counted Augen and the side without a trick: the Schwarz button beside the Augen.
            initial["result"] = "won_schwarz" if data["schwarz"] == "opponents" else "lost_schwarz"
        players = list(context.setup.players)
        for key, prefix in (("augen_by_player", "augen"), ("tricks_by_player", "tricks")):
            by_player = data.get(key) or {}
            if not isinstance(by_player, Mapping) or not set(by_player) <= set(players):
                raise ValueError(key)
            for i, name in enumerate(players):
                if by_player.get(name) is not None:
                    initial[f"{prefix}_{i}"] = by_player[name]
        initial["dealer"] = data.get("dealer", context.state.dealer)
        return initial

    @classmethod
    def same_facts(cls, typed: Mapping[str, Any], stored: Mapping[str, Any]) -> bool:
        """Identical, but for the Schwarz button beside counted Augen: facts stored as "120
        Augen, the opponents without a trick" (an import) open with "Schwarz" tapped, which the
        form sends as ``result`` beside them; the engine reads the same game either way."""
        if "result" in typed and "result" not in stored and "augen" in stored and "schwarz" in stored:
            typed = {key: value for key, value in typed.items() if key != "result"}
        return super().same_facts(typed, stored)

    def apply_engine_error(self, error: EngineError) -> None:
        """The engine names results as the JSON does ('won_schneider'); the form says them as its
        buttons do ("gewonnen, Schneider")."""
        message = error.message
        for name in sorted(sk.RESULTS, key=len, reverse=True):
            message = message.replace(f"'{name}'", f"„{RESULT_LABELS[name]}“")
        super().apply_engine_error(EngineError(error.code, message, error.field))

    def form_field(self, engine_field: str | None) -> str | None:
        head, _dot, rest = (engine_field or "").partition(".")
        if head in ("augen_by_player", "tricks_by_player") and rest in self.players:
            name = f"{head.split('_')[0]}_{self.players.index(rest)}"
            return name if name in self.fields else None
        if head == "augen" and self.data.get(self.add_prefix("augen")) in (None, ""):
            return "result"  # nothing counted: the result is what is missing
        return super().form_field(engine_field)
