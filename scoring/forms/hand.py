"""Forms of an entry on the score sheet: a hand on a phone (the tap form), an event, the JSON
fallback. The hand form turns taps into the raw facts of spec §3 (``to_data``);
the engine validates them, and ``apply_engine_error`` puts its refusal on the field it names."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring import safejson
from scoring.engine.core import EngineError
from scoring.engine.entry_facts import (
    TIE_AUGEN,
    event_facts,
    every_game,
    form_defaults,
    form_marks,
    form_options,
    hand_facts,
)
from scoring.engine.presets.schafkopf import ROUNDS
from scoring.engine.presets.schafkopf_games import CALLABLE, GAMES, SUITS
from scoring.forms.entry import EntryContext, SubmissionFields
from scoring.forms.families import DoppelkopfHandForm, FamilyHandForm, SaukopfHandForm, as_post
from scoring.forms.skat import SkatHandForm
from scoring.forms.table_rules import bid_field, bought_by_field
from scoring.forms.widgets import PillSelect
from scoring.labels import EVENT_LABELS, round_label, suit_names

# --- a hand ---------------------------------------------------------------------------------------


# spec §2.1 ``result``, from the declarer's side; the tie lines set the Augen instead.
RESULT_CHOICES = [
    ("won", _("gewonnen")),
    ("won_schneider", _("Schneider")),
    ("won_schwarz", _("Schwarz")),
    ("lost", _("verloren")),
    ("lost_schneider", _("Schneider")),
    ("lost_schwarz", _("Schwarz")),
]
TIE_CHOICES = [("a60", "60:60"), ("a90", "90:30"), ("a30", "30:90")]
_HAND_KEYS = frozenset(
    {
        "game",
        "declarer",
        "partner",
        "called",
        "suit",
        "augen",
        "tricks",
        "result",
        "laufende",
        "kontra",
        "last_kontra",
        "deckel",
        "tout",
        "bid",
        "augen_by_player",
        "augen_order",
        "kontra_by",
        "dealer",
        "fehler",
        "bought_by",
    }
)


def dealer_help(context: EntryContext) -> str:
    """What changing "Gegeben hat" does at this table: a Bockspiel where the rules say so
    (001 §8.4); else (a championship, 001 §11.4: no special rounds) the hand counts as usual and
    the deal goes on from whoever dealt. Who deals the first hand is chosen above the form
    before it ("Wer gibt zuerst?", ``scoring.services.table_first_dealer_set``)."""
    if context.setup.rules.wrong_dealer == "bockspiel":
        return str(_("Nur ändern, wenn nicht der gegeben hat, der dran war."))
    return str(
        _(
            "Nur ändern, wenn nicht der gegeben hat, der dran war: das Spiel zählt wie sonst, und es geht bei "
            "ihm im Uhrzeigersinn weiter (kein Bockspiel)."
        )
    )


def tie_lines(context: EntryContext) -> list[tuple[str, str]]:
    """The tie-line result buttons this table's form offers. Where nobody counted, a result
    button will do; Augen decide only on a tie line: 60:60, the 30 line with a Spritze
    (001 §6.2), the Bock triggers 60:60 and 30:90 (001 §5.1)."""
    rules = context.schafkopf
    triggers = set(context.setup.rules.bock_triggers)
    spritze = rules is not None and bool(rules.opt("spritze_uebernimmt"))
    lines = {"a60": spritze or "6060" in triggers, "a90": spritze or "3090" in triggers}
    return [(value, label) for value, label in TIE_CHOICES if lines["a60" if value == "a60" else "a90"]]


class HandForm(SubmissionFields):
    """One hand of the Schafkopf family, with only the fields its rules and round have.

    Every field is on the form, but ``to_data`` takes only what the chosen game needs, so a
    partner tapped before switching to a Solo is never sent; the page hides the others
    (``visible_for``)."""

    def __init__(self, *args: Any, context: EntryContext, **kwargs: Any) -> None:
        super().__init__(*args, context=context, **kwargs)
        rules = context.schafkopf
        assert rules is not None, "HandForm is for the Schafkopf family"
        self.rules = rules
        state = context.state
        players = [(name, name) for name in context.setup.players]
        self.round = ROUNDS.get(state.round, ROUNDS["normal"])
        self.games = tuple(state.games or ())
        self.options = form_options(rules, state)
        # Games the rules know but this round forbids are shown disabled, with the reason (001 §5);
        # the games only another round has are on the form too, hidden (the phone offline shows
        # them when its own fold enters that round).
        self.all_games = every_game(rules)
        known = [g for g in rules.games_for_round("normal") if g not in self.games]
        other = [g for g in self.all_games if g not in self.games and g not in known]
        reason = _("nicht in der %(round)s") % {"round": round_label(state.round)}
        attrs: dict[str, dict[str, Any]] = {name: {"disabled": True, "reason": reason} for name in known}
        attrs.update({name: {"disabled": True, "hidden": True} for name in other})
        self.fields["game"] = forms.ChoiceField(
            label=_("Spiel"),
            choices=[(name, GAMES[name].label) for name in (*self.games, *known, *other)],
            widget=PillSelect(choice_attrs=attrs),
        )
        self.fields["tout"] = forms.BooleanField(
            label=_("Tout"), required=False, widget=forms.CheckboxInput(attrs={"role": "switch"})
        )
        self.fields["declarer"] = forms.ChoiceField(
            label=pgettext_lazy("one", "Spieler"), choices=players, widget=forms.RadioSelect, required=False
        )
        self.fields["partner"] = forms.ChoiceField(
            label=_("Mitspieler"), choices=players, widget=forms.RadioSelect, required=False
        )
        suit_labels = suit_names(context.setup.ruleset.NAME)
        self.fields["called"] = forms.ChoiceField(
            label=_("Gerufen"),
            choices=[(s, suit_labels[s]) for s in CALLABLE],
            widget=forms.RadioSelect,
            required=False,
        )
        self.fields["suit"] = forms.ChoiceField(
            label=_("Trumpf"), choices=[(s, suit_labels[s]) for s in SUITS], widget=forms.RadioSelect, required=False
        )
        self.ties = tie_lines(context)
        self.fields["result"] = forms.ChoiceField(
            label=_("Ergebnis"),
            choices=[*RESULT_CHOICES, *self.ties],
            widget=PillSelect(choice_attrs=self._result_attrs()),
            required=False,
        )
        self.fields["augen"] = forms.IntegerField(
            label=_("Augen der Spieler"),
            min_value=0,
            max_value=120,
            required=False,
            widget=forms.NumberInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
            help_text=_("Nur wenn gezählt: dann entscheiden die Augen."),
        )
        ober_unter = rules.opt("laufende_ober_unter_only")
        most = max((GAMES[g].max_laufende(ober_unter) for g in self.all_games), default=0)
        self.fields["laufende"] = forms.TypedChoiceField(
            label=_("Laufende"),
            coerce=int,
            choices=[(n, str(n)) for n in range(most + 1)],
            widget=PillSelect(
                choice_attrs={
                    n: {"games": " ".join(g for g in self.all_games if GAMES[g].max_laufende(ober_unter) >= n)}
                    for n in range(1, most + 1)
                }
            ),
            initial=0,
            required=False,
        )
        max_kontra = rules.opt("max_kontra")
        if max_kontra:
            labels = [_("keiner"), *rules.KONTRA_LABELS]
            self.fields["kontra"] = forms.TypedChoiceField(
                label=_("Gestoßen"),
                coerce=int,
                choices=[(n, labels[min(n, len(labels) - 1)]) for n in range(max_kontra + 1)],
                widget=forms.RadioSelect,
                initial=0,
                required=False,
            )
            self.fields["kontra_by"] = forms.MultipleChoiceField(
                label=_("Gespritzt haben"), choices=players, widget=forms.CheckboxSelectMultiple, required=False
            )
        self.deckel = self.options["deckel"]
        if rules.opt("deckel") != "none":  # on the form in every round, shown where it has Deckel
            self.fields["deckel"] = forms.TypedChoiceField(
                label=_("Deckel"),
                coerce=int,
                choices=[(n, str(n)) for n in range(rules.opt("max_deckel") + 1)],
                widget=forms.RadioSelect,
                required=False,
            )
        bid = bid_field(rules, self.round)
        self.bid = self.options["bid"]
        # After a Reiz (001 §5.3) a Tout carries its bid too; with Steigern it has none.
        self.bid_hidden_for_tout = not self.round.bid_reaches
        if bid is not None:
            self.fields["bid"] = bid
        bought_by = bought_by_field(state)
        if bought_by is not None:
            self.fields["bought_by"] = bought_by
        # A Mungo by taps (spec §2.1 augen_order): the players from fewest to most Augen, as the
        # page's order buttons write it (JSON; score-entry.js).
        self.fields["augen_order"] = forms.CharField(
            label=_("Reihenfolge der Augen"), required=False, widget=forms.HiddenInput, max_length=2000
        )
        for i, name in enumerate(context.setup.players):
            self.fields[f"augen_{i}"] = forms.IntegerField(
                label=name,
                min_value=0,
                max_value=120,
                required=False,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
            )
        self.fields["dealer"] = forms.ChoiceField(
            label=_("Gegeben hat"),
            choices=players,
            help_text=dealer_help(context),
        )
        if rules.opt("fehler"):
            self.fields["fehler_by"] = forms.ChoiceField(
                label=_("Fehler von"),
                choices=[("", "–"), *players],
                required=False,
                help_text=_("Gewertet wird dann die Strafe statt des Spiels."),
            )
        # The next hand's defaults (Deckel under Dauerdeckel, the dealer in turn, …): one pure function,
        # which the phone offline applies to a fresh copy of this form after every entry it keeps.
        for name, value in form_defaults(rules, state).items():
            if name in self.fields:
                self.fields[name].initial = value

    # --- which field a game needs -------------------------------------------------------------

    def _games(self, *kinds: str) -> list[str]:
        """The form's games of these kinds (every round's: which one is chosen, the round decides)."""
        return [g for g in self.all_games if GAMES[g].kind in kinds]

    def _result_attrs(self) -> dict[str, dict[str, Any]]:
        """Bettel and Tout are won or lost; Schneider, Schwarz and the tie lines only where
        the Augen count (a Rufspiel or a Solo without Tout). Each side of the result on its row."""
        two_sided = " ".join(self._games("partner", "solo"))
        attrs: dict[str, dict[str, Any]] = {}
        for value, _label in RESULT_CHOICES:
            plain = value in ("won", "lost")
            games = " ".join(self._games("bettel", "partner", "solo")) if plain else two_sided
            attrs[value] = {"games": games, "hide_tout": not plain, "row": value == "lost"}
        for i, (value, _label) in enumerate(self.ties):
            attrs[value] = {"games": two_sided, "hide_tout": True, "row": i == 0}
        return attrs

    @property
    def visible_for(self) -> dict[str, str]:
        """Field (or group) → the games it is shown for, space-separated (read by score-entry.js)."""
        two_sided = self._games("partner", "solo")
        ober_unter = self.rules.opt("laufende_ober_unter_only")
        marks = form_marks(self.rules, self.context.state)
        return {
            # what the round decides: form_marks, which the phone offline sets the same way
            **{name: marks[name] for name in ("declarer", "bid", "deckel", "suit")},
            "partner": " ".join(self._games("partner")),
            "called": " ".join(self._games("partner")),
            "augen": " ".join(two_sided),
            "result": " ".join(self._games("bettel", "partner", "solo")),
            "laufende": " ".join(g for g in two_sided if GAMES[g].max_laufende(ober_unter)),
            "kontra": " ".join(self._games("partner", "solo", "bettel")),
            "mungo": " ".join(self._games("ramsch", "leasters")),
            "tout": " ".join(self._games("solo")),
        }

    @property
    def deckel_games(self) -> str:
        """The games that start with one Deckel (score-entry.js sets the Deckel when the game
        changes): under Dauerdeckel every game but a Mungo, a Sie or a Tout, which go without
        one (001 §4.4); elsewhere none."""
        return form_marks(self.rules, self.context.state)["deckel_one"]

    @property
    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"augen_{i}"] for i in range(len(self.context.setup.players))]

    @property
    def augen_typed(self) -> bool:
        """Someone counted the Mungo's Augen (or got an error there): their fields open."""
        return any(f.value() not in (None, "") or f.errors for f in self.seat_fields)

    @property
    def extra_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in ("dealer", "fehler_by") if name in self.fields]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        result, augen = data.get("result"), data.get("augen")
        if result in TIE_AUGEN and augen is not None and augen != TIE_AUGEN[result]:
            self.add_error("augen", _("Passt nicht zu %(line)s.") % {"line": dict(TIE_CHOICES)[result]})
        return data

    # --- facts ------------------------------------------------------------------------------

    def to_data(self) -> dict[str, Any]:
        """The raw facts of spec §3 for the chosen game (call after ``is_valid``)."""
        return hand_facts(self.cleaned_data, **self.facts_options())

    def facts_options(self) -> dict[str, Any]:
        """What ``hand_facts`` needs of this form besides the values (the offline page gets it too)."""
        # issue 12: the Gardareiz bid of a Bettel and a Tout (001 §5.3), the Stöcklesrunde's Mungo owner
        return {"players": list(self.context.setup.players), "dealer": self.context.state.dealer, **self.options}

    @classmethod
    def covers(cls, data: Mapping[str, Any], context: EntryContext | None = None) -> bool:
        """Whether the form shows ``data`` as it was entered (else: edit it as JSON): only keys
        the form has and, given the ``context`` it was entered in, the facts put on the form and
        read back are the very same facts (issue 30: no correction that silently changes them)."""
        if "event" in data or not set(data) <= _HAND_KEYS:
            return False
        if "tricks" in data and (data["tricks"] not in (0, 8) or data.get("augen") is None):
            return False
        fehler = data.get("fehler")
        if fehler is not None and not (isinstance(fehler, Mapping) and set(fehler) == {"by"}):
            return False
        if context is None:
            return True
        try:
            initial = cls.initial_from(data, context)
        except (AttributeError, KeyError, TypeError, ValueError):
            return False
        form = cls(as_post(initial), context=context)
        try:
            return form.is_valid() and cls.same_facts(form.to_data(), data)
        except EngineError:
            return False

    @classmethod
    def same_facts(cls, typed: Mapping[str, Any], stored: Mapping[str, Any]) -> bool:
        """Identical, but for the Schwarz button beside counted Augen: a hand stored as "120 Augen,
        8 Stiche" (an import, the demo) opens with "Schwarz" tapped, which the form sends as
        ``result`` beside them; the engine reads the Augen and the tricks either way."""
        tricks = stored.get("tricks")
        schwarz = {8: "won_schwarz", 0: "lost_schwarz"}.get(tricks) if type(tricks) is int else None
        if schwarz is not None and typed.get("result") == schwarz and "result" not in stored and "augen" in stored:
            typed = {key: value for key, value in typed.items() if key != "result"}
        return super().same_facts(typed, stored)

    @classmethod
    def initial_from(cls, data: Mapping[str, Any], context: EntryContext) -> dict[str, Any]:
        """The form's initial values for stored facts (the inverse of ``to_data``)."""
        initial: dict[str, Any] = {
            key: data[key]
            for key in ("game", "declarer", "partner", "called", "suit", "augen", "laufende", "bid", "bought_by")
            if key in data
        }
        initial["game"] = {"ramsch": "mungo", "farbsolo": "solo"}.get(initial.get("game", ""), initial.get("game"))
        initial["tout"] = bool(data.get("tout"))
        initial["kontra"] = data.get("kontra", 0)
        initial["deckel"] = data.get("deckel", 0)
        initial["laufende"] = data.get("laufende", 0)
        if data.get("result"):
            initial["result"] = data["result"]
        elif "tricks" in data:
            initial["result"] = "won_schwarz" if data["tricks"] == 8 else "lost_schwarz"
        elif (line := _tie_line(data.get("augen"), context)) is not None:
            # Augen on a tie line and no result: what its button stores; it opens selected
            # (issue 30), not as typed Augen a result button beside them would not change.
            initial["result"] = line
            del initial["augen"]
        if data.get("augen_order"):
            initial["augen_order"] = json.dumps(data["augen_order"], ensure_ascii=False)
        for i, name in enumerate(context.setup.players):
            value = (data.get("augen_by_player") or {}).get(name)
            if value is not None:
                initial[f"augen_{i}"] = value
        initial["kontra_by"] = list(data.get("kontra_by") or [])
        initial["dealer"] = data.get("dealer", context.state.dealer)
        if isinstance(data.get("fehler"), Mapping):
            initial["fehler_by"] = data["fehler"].get("by", "")
        return initial

    def form_field(self, engine_field: str | None) -> str | None:
        if not engine_field:
            return None
        head, _dot, rest = engine_field.partition(".")
        if head == "augen_order":
            return "augen_order"
        if head == "augen_by_player":
            players = list(self.context.setup.players)
            return f"augen_{players.index(rest)}" if rest in players else None
        if head == "fehler":
            return "fehler_by" if "fehler_by" in self.fields else None
        if head == "augen" and not self.data.get("augen"):
            return "result"  # nothing counted: the result is what is missing
        mapped = {"last_kontra": "kontra", "tricks": "result", "context": None}.get(head, head)
        return mapped if mapped in self.fields else None


def _tie_line(augen: Any, context: EntryContext) -> str | None:
    """The tie-line button of the form that stores exactly ``augen`` (``TIE_AUGEN``), if any."""
    offered = {value for value, _label in tie_lines(context)}
    return next((line for line, value in TIE_AUGEN.items() if value == augen and line in offered), None)


class RawEntryForm(SubmissionFields):
    """An entry as its JSON facts (spec §3): Saukopf and Doppelkopf tables, and corrections of
    facts the phone form does not show."""

    data = forms.CharField(
        label=_("Angaben (JSON)"),
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false", "autocapitalize": "off"}),
    )

    def __init__(self, *args: Any, context: EntryContext, **kwargs: Any) -> None:
        # Ids of its own: on the table page it sits beside a tap form (the JSON fallback).
        kwargs.setdefault("auto_id", "json-%s")
        super().__init__(*args, context=context, **kwargs)
        # Issue 21: the example is a hand of the table's own game with its own players.
        example = json_example(context.setup.rules.family, context.setup.players)
        self.fields["data"].help_text = _("Wie im JSON-Format, z. B. %(example)s.") % {"example": example}

    def clean_data(self) -> dict[str, Any]:
        try:
            value = safejson.loads(self.cleaned_data["data"])
        except EngineError as error:
            raise ValidationError(_where(error)) from None  # the reader says what and where, in German
        if not isinstance(value, dict):
            raise ValidationError(_("Erwartet ein JSON-Objekt."))
        return value

    def to_data(self) -> dict[str, Any]:
        return self.cleaned_data["data"]

    def form_field(self, engine_field: str | None) -> str | None:
        return "data"


def json_example(family: str, players: Sequence[str]) -> str:
    """One typical hand of ``family`` in the JSON format (spec §3), with the table's players."""
    first, second = (list(players) + ["Anna", "Bert"])[:2]
    hand: dict[str, Any]
    if family == "doppelkopf":
        hand = {"game": "normal", "re": [first, second], "augen": 130}
    elif family == "saukopf":
        hand = {"game": "sauerei", "declarer": first, "bid": 56, "partner": second, "called": "schellen", "augen": 70}
    else:
        hand = {"game": "rufspiel", "declarer": first, "partner": second, "called": "eichel", "augen": 75}
    return json.dumps(hand, ensure_ascii=False)


def _where(error: EngineError) -> str:
    return f"{error.field}: {error.message}" if error.field else error.message


class EventForm(SubmissionFields):
    """A table event (spec §3): zusammengeworfen, Vergeben, Verabhebt, a special round, a vote,
    Schmeißen, the end of a round."""

    event = forms.ChoiceField(label=_("Ereignis"), widget=forms.HiddenInput)
    by = forms.ChoiceField(label=_("Wer"), required=False)
    kind = forms.ChoiceField(label=_("Runde"), required=False)
    choice = forms.ChoiceField(label=_("Ergebnis der Abstimmung"), required=False)
    dealer = forms.ChoiceField(label=_("Es gibt"), required=False)

    def __init__(self, *args: Any, context: EntryContext, **kwargs: Any) -> None:
        super().__init__(*args, context=context, **kwargs)
        players = [("", "–"), *((name, name) for name in context.setup.players)]
        self.fields["event"].choices = [(e, str(EVENT_LABELS[e])) for e in event_kinds(context)]
        self.fields["by"].choices = players
        self.fields["dealer"].choices = players
        self.fields["kind"].choices = [("", "–"), *((k, round_label(k)) for k in context.setup.rules.special_kinds)]
        self.fields["choice"].choices = [
            ("mungorunde", round_label("mungorunde")),
            ("bockrunde", round_label("bockrunde")),
        ]

    def to_data(self) -> dict[str, Any]:
        return event_facts(self.cleaned_data)

    def form_field(self, engine_field: str | None) -> str | None:
        return engine_field if engine_field in ("by", "kind", "choice", "dealer") else None


def event_kinds(context: EntryContext) -> list[str]:
    """The events this table can record now (all of them, for a correction)."""
    rules = context.setup.rules
    kinds = ["zusammengeworfen"] if not rules.schmeissen else ["schmeissen"]
    kinds += ["vergeben", "verabhebt"] if rules.family != "doppelkopf" else ["vergeben"]
    if rules.special_kinds:
        kinds.append("special_round")
    kinds += ["vote", "end_round"]
    return kinds


def family_form_class(family: str) -> type[FamilyHandForm] | None:
    """The tap form of a family other than Schafkopf (``scoring.forms.families``, ``.skat``)."""
    return {"doppelkopf": DoppelkopfHandForm, "saukopf": SaukopfHandForm, "skat": SkatHandForm}.get(family)


def entry_form_class(context: EntryContext, data: Mapping[str, Any] | None = None) -> type[SubmissionFields]:
    """The phone form for Schafkopf hands it can show, the event form for events, else JSON."""
    if data is not None and "event" in data:
        return EventForm
    if context.schafkopf is not None and (data is None or HandForm.covers(data, context)):
        return HandForm
    family = family_form_class(context.setup.family)
    if family is not None and (data is None or family.covers(data, context)):
        return family
    return RawEntryForm


def posted_form_class(context: EntryContext, post: Mapping[str, Any]) -> type[SubmissionFields]:
    """The form a new entry was posted from: the JSON fallback sends ``data``, else the tap form."""
    return RawEntryForm if "data" in post else entry_form_class(context)
