"""The phone forms of the other families: a Doppelkopf hand (spec §2.3) and a Saukopf hand
(spec §2.2). Like ``HandForm`` every field is on the form, ``visible_for`` tells the page which
game shows which field, and ``to_data`` sends only the facts the chosen game reads (the engine
refuses unexpected ones); ``form_field`` maps the engine's field of a refusal back to the form."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.datastructures import MultiValueDict
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring.engine.presets import doppelkopf as dk
from scoring.engine.presets import saukopf as sk
from scoring.engine.presets.saukopf_trumps import RANKS as SK_RANKS
from scoring.engine.presets.saukopf_trumps import SUITS as SK_SUITS
from scoring.forms.entry import EntryContext, SubmissionFields


def _number(label: Any, lo: int, hi: int, **kwargs: Any) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        min_value=lo,
        max_value=hi,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
        **kwargs,
    )


def _switch(label: Any) -> forms.BooleanField:
    return forms.BooleanField(label=label, required=False, widget=forms.CheckboxInput(attrs={"role": "switch"}))


class FamilyHandForm(SubmissionFields):
    """What the two family forms share: the players, the mapping of engine fields to form fields."""

    layout = ""
    # engine field (before any "." or "[") → form field
    FIELD_MAP: dict[str, str | None] = {}

    def __init__(self, *args: Any, context: EntryContext, **kwargs: Any) -> None:
        super().__init__(*args, context=context, **kwargs)
        self.players = list(context.setup.players)
        self.player_choices = [(name, name) for name in self.players]

    def form_field(self, engine_field: str | None) -> str | None:
        if not engine_field:
            return None
        head = re.split(r"[.\[]", engine_field, maxsplit=1)[0]
        mapped = self.FIELD_MAP.get(head, head)
        return mapped if mapped in self.fields else None

    @classmethod
    def initial_from(cls, data: Mapping[str, Any], context: EntryContext) -> dict[str, Any]:
        """The form's initial values for stored facts (the inverse of ``to_data``)."""
        raise NotImplementedError

    @classmethod
    def covers(cls, data: Mapping[str, Any], context: EntryContext) -> bool:
        """Whether the tap form shows the stored ``data`` without losing a fact: the facts, put
        on the form and read back, are the same facts (lists compared as sets). Else the
        correction is made as JSON."""
        if "event" in data:
            return False
        try:
            initial = cls.initial_from(data, context)
        except (AttributeError, KeyError, TypeError, ValueError):
            return False
        form = cls(as_post(initial), context=context)
        return form.is_valid() and cls.same_facts(form.to_data(), data)

    @classmethod
    def same_facts(cls, typed: Mapping[str, Any], stored: Mapping[str, Any]) -> bool:
        return _canonical(typed) == _canonical(stored)


def as_post(initial: Mapping[str, Any]) -> MultiValueDict:
    """Initial values as a browser would post them (a switch is "on" or absent)."""
    post = MultiValueDict()
    for key, value in initial.items():
        if value is None or value is False:
            continue
        if isinstance(value, list):
            post.setlist(key, [str(v) for v in value])
        else:
            post[key] = "on" if value is True else str(value)
    return post


def _canonical(value: Any) -> Any:
    """Facts compared regardless of the order of lists (the Re side, announcements, extras);
    a switch stored as false, or an empty list, is the same fact as one left out."""
    if isinstance(value, Mapping):
        out = {key: _canonical(v) for key, v in value.items()}
        return {key: v for key, v in out.items() if v is not False and v is not None and v != [] and v != {}}
    if isinstance(value, list):
        return sorted((_canonical(v) for v in value), key=repr)
    return value


# --- Doppelkopf -----------------------------------------------------------------------------------

DK_GAME_LABELS = {
    "normal": _("Normalspiel"),
    "hochzeit": _("Hochzeit"),
    "stille_hochzeit": _("Stille Hochzeit"),
    "armut": _("Armut"),
    "trumpfsolo": _("Trumpfsolo"),
    "farbsolo": _("Farbsolo"),
    "damensolo": _("Damensolo"),
    "bubensolo": _("Bubensolo"),
    "fleischlos": _("Fleischloser"),
}
DK_SUIT_LABELS = {"kreuz": _("Kreuz"), "pik": _("Pik"), "herz": _("Herz")}
DK_ABSAGE_LABELS = {
    "keine90": _("keine 90"),
    "keine60": _("keine 60"),
    "keine30": _("keine 30"),
    "schwarz": _("schwarz"),
}
DK_SIDE_LABELS = {"re": _("Re"), "contra": _("Contra")}
DK_EXTRA_LABELS = {
    "charlie": _("Charlie"),
    "charlie_gefangen": _("Charlie gefangen"),
    "fuchs_gefangen": _("Fuchs gefangen"),
    "doppelkopf": _("Doppelkopf"),
    "herz10": _("Herz-10 fängt Herz-10"),
}
DK_SWITCH_EXTRAS = ("charlie", "charlie_gefangen", "herz10")


class DoppelkopfHandForm(FamilyHandForm):
    """One Doppelkopf hand: the game, the Re players tapped, the Re side's Augen, the
    announcements and the Sonderpunkte of each side."""

    layout = "doppelkopf"
    FIELD_MAP = {"announcements": "ann_re"}

    def __init__(self, *args: Any, context: EntryContext, **kwargs: Any) -> None:
        super().__init__(*args, context=context, **kwargs)
        self.fields["game"] = forms.ChoiceField(
            label=_("Spiel"), choices=[(g, DK_GAME_LABELS[g]) for g in dk.GAMES], widget=forms.RadioSelect
        )
        self.fields["suit"] = forms.ChoiceField(
            label=_("Farbe"), choices=list(DK_SUIT_LABELS.items()), widget=forms.RadioSelect, required=False
        )
        self.fields["re"] = forms.MultipleChoiceField(
            label=_("Re-Partei"),
            choices=self.player_choices,
            widget=forms.CheckboxSelectMultiple,
            required=False,
            help_text=_("Einen Namen bei Solo und Stiller Hochzeit, sonst zwei."),
        )
        self.fields["augen"] = _number(_("Augen der Re-Partei"), 0, dk.TOTAL_AUGEN)
        self.fields["tricks"] = _number(_("Stiche der Re-Partei"), 0, dk.TRICKS, help_text=_("Nur wenn gezählt."))
        for side in dk.SIDES:
            ladder = [(side, DK_SIDE_LABELS[side]), *((a, DK_ABSAGE_LABELS[a]) for a in dk.ABSAGEN)]
            self.fields[f"ann_{side}"] = forms.MultipleChoiceField(
                label=_("Ansagen %(side)s") % {"side": DK_SIDE_LABELS[side]},
                choices=ladder,
                widget=forms.CheckboxSelectMultiple,
                required=False,
            )
            for kind in dk.EXTRA_KINDS:
                label = DK_EXTRA_LABELS[kind]
                name = f"{side}_{kind}"
                if kind in DK_SWITCH_EXTRAS:
                    self.fields[name] = _switch(label)
                elif kind == "fuchs_gefangen":
                    self.fields[name] = forms.TypedChoiceField(
                        label=label,
                        coerce=int,
                        choices=[(n, str(n)) for n in range(dk.EXTRA_MAX[kind] + 1)],
                        widget=forms.RadioSelect,
                        initial=0,
                        required=False,
                    )
                else:
                    self.fields[name] = _number(label, 0, dk.TRICKS, initial=0)
        self._extra_fields: list[str] = []  # the form field of each Sonderpunkt sent, in order

    @property
    def visible_for(self) -> dict[str, str]:
        return {
            "suit": "farbsolo",
            "extras": " ".join(g for g in dk.GAMES if g not in dk.DOPPELKOPF_ONLY),
            "doppelkopf": " ".join(dk.GAMES),
            "all": " ".join(dk.GAMES),
        }

    def extra_rows(self, side: str) -> dict[str, Any]:
        """The Sonderpunkte of one side for the page: switches, the Füchse, the Doppelköpfe."""
        return {
            "label": DK_SIDE_LABELS[side],
            "switches": [self[f"{side}_{kind}"] for kind in DK_SWITCH_EXTRAS],
            "fuchs": self[f"{side}_fuchs_gefangen"],
            "doppelkopf": self[f"{side}_doppelkopf"],
        }

    @property
    def extra_sides(self) -> list[dict[str, Any]]:
        return [self.extra_rows(side) for side in dk.SIDES]

    @classmethod
    def initial_from(cls, data: Mapping[str, Any], context: EntryContext) -> dict[str, Any]:
        initial: dict[str, Any] = {key: data[key] for key in ("game", "suit", "augen", "tricks") if key in data}
        initial["re"] = list(data.get("re") or [])
        announcements = data.get("announcements") or {}
        for side in dk.SIDES:
            initial[f"ann_{side}"] = list(announcements.get(side) or [])
        counts: dict[str, int] = {}
        for extra in data.get("extras") or []:
            name = f"{extra['side']}_{extra['kind']}"
            counts[name] = counts.get(name, 0) + 1
        for side in dk.SIDES:
            for kind in dk.EXTRA_KINDS:
                name = f"{side}_{kind}"
                count = counts.pop(name, 0)
                initial[name] = bool(count) if kind in DK_SWITCH_EXTRAS else count
        if counts:  # a Sonderpunkt the form does not know: not covered
            raise ValueError(sorted(counts))
        return initial

    def to_data(self) -> dict[str, Any]:
        cd = self.cleaned_data
        game = cd["game"]
        data: dict[str, Any] = {"game": game}
        if game == "farbsolo" and cd.get("suit"):
            data["suit"] = cd["suit"]
        chosen = set(cd.get("re") or ())
        if chosen:  # none tapped yet: the engine names the Re side as missing
            data["re"] = [name for name in self.players if name in chosen]
        if cd.get("augen") is not None:
            data["augen"] = cd["augen"]
        if cd.get("tricks") is not None:
            data["tricks"] = cd["tricks"]
        announcements = {}
        for side in dk.SIDES:
            said = set(cd.get(f"ann_{side}") or ())
            if side == "re" and game in dk.PFLICHT_RE:
                said.add("re")  # 004 §9: "gilt als schon gesagt" — the sheet records it, tapped or not
            if said:
                announcements[side] = [a for a in (side, *dk.ABSAGEN) if a in said]
        if announcements:
            data["announcements"] = announcements
        extras: list[dict[str, str]] = []
        self._extra_fields = []
        for side in dk.SIDES:
            for kind in dk.EXTRA_KINDS:
                if game in dk.DOPPELKOPF_ONLY and kind != "doppelkopf":
                    continue
                name = f"{side}_{kind}"
                value = cd.get(name)
                count = int(value or 0) if not isinstance(value, bool) else int(value)
                extras += [{"side": side, "kind": kind}] * count
                self._extra_fields += [name] * count
        if extras:
            data["extras"] = extras
        return data

    def form_field(self, engine_field: str | None) -> str | None:
        if engine_field and engine_field.startswith("announcements.contra"):
            return "ann_contra"
        match = re.match(r"extras\[(\d+)\]", engine_field or "")
        if match and int(match.group(1)) < len(self._extra_fields):
            return self._extra_fields[int(match.group(1))]
        return super().form_field(engine_field)


# --- Saukopf --------------------------------------------------------------------------------------

SK_GAME_LABELS = {
    "zucht": _("Zucht"),
    "eber": _("Eber"),
    "wutz": _("Wutz"),
    "hauer": _("Hauer"),
    "hybridschwein": _("Hybridschwein"),
    "ferkelparade": _("Ferkelparade"),
    "knorpel": _("Knorpel"),
    "keiler": _("Keiler"),
    "feige_sau": _("Feige Sau"),
    "schwarte": _("Schwarte"),
    "feiges_mastschwein": _("Feiges Mastschwein"),
    "sauerei": _("Sauerei"),
    "unreine_sauerei": _("Unreine Sauerei"),
    "grosskopferter": _("Großkopferter"),
}
SK_SUIT_LABELS = {"eichel": _("Eichel"), "gras": _("Gras"), "herz": _("Herz"), "schellen": _("Schellen")}
SK_RANK_LABELS = {
    "sau": _("Sau"),
    "zehn": _("Zehn"),
    "koenig": _("König"),
    "ober": _("Ober"),
    "unter": _("Unter"),
    "neun": _("Neun"),
    "acht": _("Acht"),
    "sieben": _("Sieben"),
}
SK_SIDE_LABELS = {"declarer": _("Spielerpartei"), "opponents": _("Nichtspieler")}
SK_SWITCHES = ("offen", "spiess", "huftritt", "gegenhieb", "trog")


class SaukopfHandForm(FamilyHandForm):
    """One Saukopf hand (Vierhaxer or Dreihaxer): the game, declarer and partner, the Grunzer,
    the Augen, the Laufenden, the Zusatzansagen and Stöße, the Sonderpunkte."""

    layout = "saukopf"
    FIELD_MAP = {"augen_by_player": None, "tricks_by_player": "tricks", "context": None}

    def __init__(self, *args: Any, context: EntryContext, **kwargs: Any) -> None:
        super().__init__(*args, context=context, **kwargs)
        self.seats = len(self.players)
        self.games = tuple(g for g in sk.GAMES if self.seats == 4 or g not in sk.PAARHUFER)
        self.fields["game"] = forms.ChoiceField(
            label=_("Spiel"), choices=[(g, SK_GAME_LABELS[g]) for g in self.games], widget=forms.RadioSelect
        )
        self.fields["declarer"] = forms.ChoiceField(
            label=pgettext_lazy("one", "Spieler"), choices=self.player_choices, widget=forms.RadioSelect, required=False
        )
        self.fields["partner"] = forms.ChoiceField(
            label=_("Mitspieler"),
            choices=[("", _("allein")), *self.player_choices],
            widget=forms.RadioSelect,
            required=False,
            help_text=_("Allein: Unechter Paarhufer."),
        )
        suits = list(SK_SUIT_LABELS.items())
        self.fields["suit"] = forms.ChoiceField(
            label=_("Farbe"), choices=suits, widget=forms.RadioSelect, required=False
        )
        self.fields["called"] = forms.ChoiceField(
            label=_("Gerufen"), choices=suits, widget=forms.RadioSelect, required=False
        )
        self.fields["knorpel"] = forms.ChoiceField(
            label=_("Knorpel"),
            choices=[("", "–")]
            + [(f"{s}_{r}", f"{SK_SUIT_LABELS[s]}-{SK_RANK_LABELS[r]}") for s in SK_SUITS for r in SK_RANKS],
            required=False,
        )
        self.fields["schlagtrumpf"] = forms.ChoiceField(
            label=_("Schlagtrumpf"), choices=list(SK_RANK_LABELS.items()), widget=forms.RadioSelect, required=False
        )
        self.fields["bid"] = _number(_("Gebot (Grunzer)"), 1, 120)
        self.fields["bid_schwarz"] = _switch(_("Schwarz geboten"))
        self.fields["mast_bid"] = _number(_("Gebot beim Mastgrunzen"), 1, 120)
        self.fields["augen"] = _number(_("Augen der Spielerpartei"), 0, 120)
        self.fields["augen_opponents"] = _number(
            _("Augen der Nichtspieler"), 0, 120, help_text=_("Nur beim Dreihaxer ohne Trog nötig.")
        )
        self.fields["tricks"] = _number(_("Stiche der Spielerpartei"), 0, sk.TRICKS[self.seats])
        self.fields["laufende"] = _number(_("Laufende"), 1, sk.MOST_TRUMPS)
        self.fields["laufende_side"] = forms.ChoiceField(
            label=_("Laufende hatte"),
            choices=list(SK_SIDE_LABELS.items()),
            widget=forms.RadioSelect,
            required=False,
        )
        switch_labels = {
            "offen": _("Offen"),
            "spiess": _("Am Spieß"),
            "huftritt": _("Huftritt"),
            "gegenhieb": _("Gegenhieb"),
            "trog": _("Trog genommen"),
        }
        for name in self.switch_names:
            self.fields[name] = _switch(switch_labels[name])
        self.fields["haxnspalter"] = forms.ChoiceField(
            label=_("Haxnspalter"),
            choices=[("", "–"), ("aufschlag", _("Aufschlag")), ("hinterhalt", _("Hinterhalt"))],
            required=False,
        )
        sides = [("", "–"), *SK_SIDE_LABELS.items()]
        self.fields["saukopf"] = forms.ChoiceField(label=_("Saukopf geholt von"), choices=sides, required=False)
        self.fields["mueller"] = forms.ChoiceField(label=_("Müller geholt von"), choices=sides, required=False)
        for i, name in enumerate(self.players):
            self.fields[f"augen_{i}"] = _number(name, 0, 120)
            # the Ramsch games' tricks of each player (spec §2.2 tricks_by_player), where counted
            self.fields[f"tricks_{i}"] = _number(name, 0, sk.TRICKS[self.seats])

    @property
    def switch_names(self) -> tuple[str, ...]:
        return tuple(s for s in SK_SWITCHES if s != "trog" or self.seats == 3)

    def _only(self, games: Any) -> str:
        return " ".join(g for g in self.games if g in games)

    @property
    def visible_for(self) -> dict[str, str]:
        not_ramsch = [g for g in self.games if g not in sk.RAMSCH_GAMES]
        return {
            "partner": self._only(sk.PAARHUFER),
            "suit": self._only(sk.SUIT_GAMES),
            "called": self._only(("sauerei", "grosskopferter")),
            "knorpel": "knorpel",
            "schlagtrumpf": "keiler",
            "mast_bid": self._only(sk.MAST_GAMES),
            "augen": " ".join(not_ramsch),
            "augen_opponents": " ".join(not_ramsch) if self.seats == 3 else "",
            "laufende": " ".join(not_ramsch),
            "sonderpunkte": self._only(sk.SONDERPUNKT_GAMES),
            "by_player": self._only(sk.RAMSCH_GAMES),
            "all": " ".join(self.games),
        }

    @property
    def switch_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.switch_names]

    @property
    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"augen_{i}"] for i in range(self.seats)]

    @property
    def trick_fields(self) -> list[forms.BoundField]:
        return [self[f"tricks_{i}"] for i in range(self.seats)]

    @property
    def tricks_typed(self) -> bool:
        return any(f.value() not in (None, "") or f.errors for f in self.trick_fields)

    @classmethod
    def same_facts(cls, typed: Mapping[str, Any], stored: Mapping[str, Any]) -> bool:
        """The called card as the game names it, however it was written ("gras" is the
        Gras-Sau at a Sauerei and the Gras-Ober at a Großkopferter; the Unreine Sauerei calls
        the Herz-Sau without saying so)."""
        return _canonical(_called_card(typed)) == _canonical(_called_card(stored))

    @classmethod
    def initial_from(cls, data: Mapping[str, Any], context: EntryContext) -> dict[str, Any]:
        keys = ("game", "declarer", "partner", "mast_bid", "suit", "schlagtrumpf", "knorpel", "called", "haxnspalter")
        keys += ("augen", "augen_opponents", "laufende", "laufende_side", "tricks", "saukopf", "mueller")
        initial: dict[str, Any] = {key: data[key] for key in keys if key in data}
        if data.get("bid") == "schwarz":
            initial["bid_schwarz"] = True
        elif "bid" in data:
            initial["bid"] = data["bid"]
        for name in SK_SWITCHES:
            initial[name] = bool(data.get(name))
        if isinstance(initial.get("called"), str):
            initial["called"] = initial["called"].split("_")[0]  # the form taps the suit: "herz_ober" → Herz
        by_player = data.get("augen_by_player") or {}
        tricks = data.get("tricks_by_player") or {}
        for i, name in enumerate(context.setup.players):
            if by_player.get(name) is not None:
                initial[f"augen_{i}"] = by_player[name]
            if tricks.get(name) is not None:
                initial[f"tricks_{i}"] = tricks[name]
        return initial

    def to_data(self) -> dict[str, Any]:
        cd = self.cleaned_data
        game = cd["game"]
        ramsch = game in sk.RAMSCH_GAMES
        data: dict[str, Any] = {"game": game, "declarer": cd.get("declarer") or None}
        if game in sk.PAARHUFER and cd.get("partner"):
            data["partner"] = cd["partner"]
        data["bid"] = "schwarz" if cd.get("bid_schwarz") else cd.get("bid")
        if game in sk.MAST_GAMES:
            data["mast_bid"] = cd.get("mast_bid")
        if game in sk.SUIT_GAMES:
            data["suit"] = cd.get("suit") or None
        if game == "keiler":
            data["schlagtrumpf"] = cd.get("schlagtrumpf") or None
        if game == "knorpel":
            data["knorpel"] = cd.get("knorpel") or None
        if game in ("sauerei", "grosskopferter"):
            data["called"] = cd.get("called") or None
        for name in self.switch_names:
            if cd.get(name):
                data[name] = True
        if cd.get("haxnspalter"):
            data["haxnspalter"] = cd["haxnspalter"]
        if ramsch:
            data["augen_by_player"] = {
                name: cd[f"augen_{i}"] for i, name in enumerate(self.players) if cd.get(f"augen_{i}") is not None
            }
            tricks = {
                name: cd[f"tricks_{i}"] for i, name in enumerate(self.players) if cd.get(f"tricks_{i}") is not None
            }
            if tricks:
                data["tricks_by_player"] = tricks
        else:
            data["augen"] = cd.get("augen")
            if self.seats == 3 and cd.get("augen_opponents") is not None:
                data["augen_opponents"] = cd["augen_opponents"]
            data["laufende"] = cd.get("laufende")
            data["laufende_side"] = cd.get("laufende_side") or None
        if cd.get("tricks") is not None:
            data["tricks"] = cd["tricks"]
        if game in sk.SONDERPUNKT_GAMES:
            for name in ("saukopf", "mueller"):
                if cd.get(name):
                    data[name] = cd[name]
        return {key: value for key, value in data.items() if value is not None}

    def form_field(self, engine_field: str | None) -> str | None:
        head, _dot, rest = (engine_field or "").partition(".")
        if head == "augen_by_player" and rest in self.players:
            return f"augen_{self.players.index(rest)}"
        if head == "tricks_by_player" and rest in self.players:
            return f"tricks_{self.players.index(rest)}"
        return super().form_field(engine_field)


def _called_card(data: Mapping[str, Any]) -> Mapping[str, Any]:
    game, called = data.get("game"), data.get("called")
    if game == "unreine_sauerei" and called in (None, "herz", "herz_sau"):
        return {key: value for key, value in data.items() if key != "called"}  # only the Herz-Sau can be called
    if game in ("sauerei", "grosskopferter") and isinstance(called, str) and "_" not in called:
        return {**data, "called": f"{called}_{'ober' if game == 'grosskopferter' else 'sau'}"}
    return data
