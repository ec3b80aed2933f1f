from __future__ import annotations

import datetime
import re
import secrets
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from clubs.validators import PlainTextFields
from opentournaments import selectors, tariffs
from opentournaments.games import SKAT_LIST, Figure
from opentournaments.models import (
    FIRST_YEAR,
    LAST_YEAR,
    MAX_DAYS,
    MAX_GAMES,
    MAX_ROUNDS,
    MAX_START_NUMBER,
    TIE_BREAKS,
    SoliCount,
)
from scoring.engine import registry
from scoring.engine.session_rules import MAX_VERLUSTSPIELGELD
from tournaments.forms import schafkopf_presets

TIE_BREAK_CHOICES = [
    ("soli,best_round,lot", _("Soli, dann beste Runde, dann Los")),
    ("best_round,soli,lot", _("beste Runde, dann Soli, dann Los")),
    ("soli,best_round", _("Soli, dann beste Runde (sonst geteilter Platz)")),
    ("soli,lot", _("Soli, dann Los")),
    ("", _("keine (geteilter Platz)")),
]
# A Preisskat's tie-breaks (skat.md §6: more won games, then fewer lost games, then the lot);
# labels short enough for the select at 390 px (more won, fewer lost: the Turnierregeln say it).
SKAT_TIE_BREAK_CHOICES = [
    ("won,lost,lot", _("gewonnene, verlorene, dann Los")),
    ("won,lost,best_round,lot", _("gewonnene, verlorene, beste Serie, Los")),
    ("won,lost", _("gewonnene, verlorene (geteilter Platz)")),
    ("", _("keine (geteilter Platz)")),
]
KEEP = ("", _("wie im Tarif"))
KONTRA_CHOICES = [KEEP, ("erlaubt", _("erlaubt")), ("verboten", _("verboten"))]
ALL_PASS_CHOICES = [
    KEEP,
    ("zusammenwerfen", _("zusammenwerfen")),
    ("muss", _("Muss-Spiel (Eichel-Ober ruft)")),
    ("ramsch", _("Ramsch")),
]
LAUFENDE_CHOICES = [KEEP, ("wenz_ab_2", _("ab 3, beim Wenz ab 2")), ("immer_ab_3", _("ab 3, auch beim Wenz"))]
PLUS_CHOICES = [
    KEEP,
    ("nein", _("nein: die Verlierer schreiben ab")),
    ("ja", _("ja: Verlierern wird nichts geschrieben")),
]
MAX_CENTS = 10_000_000  # 100.000 €: more is a typing error


def _euros_to_cents(value: Decimal) -> int:
    return int(value * 100)


class NumberListField(forms.Field):
    """Numbers separated by spaces or semicolons (``30 20 15``), each from 0 to ``maximum``
    with at most ``decimals`` places; a comma separates whole numbers but is the decimal mark
    in amounts of euros."""

    def __init__(self, *, decimals: int = 0, maximum: int, **kwargs: Any) -> None:
        self.decimals = decimals
        self.maximum = maximum
        super().__init__(required=False, **kwargs)

    def to_python(self, value: Any) -> list[Decimal]:
        text = value if isinstance(value, str) else ""
        if len(text) > 400:
            raise forms.ValidationError(_("Höchstens 400 Zeichen."))
        text = text.replace(";", " ")
        if self.decimals == 0:
            text = text.replace(",", " ")
        numbers = []
        for part in text.split():
            try:
                number = Decimal(part.replace(",", "."))
            except ArithmeticError:
                number = Decimal(-1)
            if not number.is_finite() or not 0 <= number <= self.maximum or number != round(number, self.decimals):
                raise forms.ValidationError(
                    _("Erlaubt sind Zahlen von 0 bis %(max)s, durch Leerzeichen getrennt.") % {"max": self.maximum}
                )
            numbers.append(number)
        return numbers


MAX_PRIZE_PLACE = 400  # models.MAX_PLAYERS: no place below it
_PLACED = re.compile(r"^\s*(\d{1,4})\s*[.:)]\s*(.*)$")
# The whole word only (longest first): "Lastenrad" is a prize, "letzter Platz: …" the last place's.
_LAST = re.compile(r"^\s*(letzter platz|letzter|letzte|last)\b\s*[.:)]?\s*(.*)$", re.IGNORECASE)


class PrizeItemsField(forms.CharField):
    """Sachpreise, a line each: "11: Brotzeitkorb" for place 11, "letzter: Trostpreis" for the
    last place, a line without a place for the place after the one above (the first line: place
    1). Cleaned to (items by place, "" where a place has none; the last place's item)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, max_length=4000, widget=forms.Textarea(attrs={"rows": 4}), **kwargs)

    def clean(self, value: Any) -> tuple[list[str], str]:
        text = super().clean(value)
        items: dict[int, str] = {}
        last = ""
        place = 0
        for line in text.splitlines():
            if not line.strip():
                continue
            if match := _LAST.match(line):
                if last or not match.group(2).strip():
                    raise forms.ValidationError(_("Ein Sachpreis für den letzten Platz: „letzter: …“, einmal."))
                last = match.group(2).strip()
                continue
            if match := _PLACED.match(line):
                place, item = int(match.group(1)), match.group(2).strip()
            else:
                place, item = place + 1, line.strip()
            if not 1 <= place <= MAX_PRIZE_PLACE or not item:
                raise forms.ValidationError(
                    _("Je Zeile ein Platz von 1 bis %(max)s und der Preis, z. B. „11: Brotzeitkorb“.")
                    % {"max": MAX_PRIZE_PLACE}
                )
            if place in items:
                raise forms.ValidationError(_("Platz %(place)s steht zweimal da.") % {"place": place})
            if len(item) > 200:
                raise forms.ValidationError(_("Ein Sachpreis hat höchstens 200 Zeichen."))
            items[place] = item
        by_place = [items.get(p, "") for p in range(1, max(items, default=0) + 1)]
        return by_place, last


def prize_items_text(items: list[str], last: str) -> str:
    """The stored Sachpreise as the field takes them: "1: …" per place with one, "letzter: …"."""
    lines = [f"{place}: {item}" for place, item in enumerate(items, start=1) if item]
    if last:
        lines.append(f"letzter: {last}")
    return "\n".join(lines)


class PrizeFields(forms.Form):
    """Startgeld and prizes, as created and as edited, with the payout helper: "70 % auf 10
    Plätze" fills the shares (its button saves nothing)."""

    entry_fee = forms.DecimalField(
        label=_("Startgeld (€)"),
        localize=True,
        min_value=0,
        max_value=Decimal(MAX_CENTS) / 100,
        decimal_places=2,
        initial=10,
    )
    prize_shares = NumberListField(
        label=_("Preisgeld als Anteile (%)"),
        maximum=100,
        help_text=_("Je Platz ein Prozentsatz des eingenommenen Startgelds, z. B. „30 20 15 10 5“."),
    )
    payout_percent = forms.IntegerField(
        label=_("Ausschüttung (%)"), required=False, min_value=1, max_value=100, initial=70, localize=True
    )
    payout_places = forms.IntegerField(
        label=_("auf Plätze"), required=False, min_value=1, max_value=MAX_PRIZE_PLACE, initial=10
    )
    prize_whole_euros = forms.BooleanField(
        label=_("Preisgeld auf volle Euro abrunden"),
        required=False,
        help_text=_("Der Rest bleibt in der Kasse."),
    )
    prize_amounts = NumberListField(
        label=_("oder feste Preisgelder (€)"),
        decimals=2,
        maximum=MAX_CENTS // 100,
        help_text=_("Je Platz ein Betrag, z. B. „100 50 25“."),
    )
    prize_items = PrizeItemsField(
        label=_("Sachpreise"),
        help_text=_(
            "Eine Zeile je Platz, ab Platz 1; „11: Brotzeitkorb“ für einen bestimmten Platz, "
            "„letzter: Trostpreis“ für den letzten."
        ),
    )

    def payout(self) -> list[int] | None:
        """The helper's shares for the percent and places typed (None: the helper was not asked or
        cannot share so; the error is on the form)."""
        percent = self.cleaned_data.get("payout_percent")
        places = self.cleaned_data.get("payout_places")
        if percent is None or places is None:
            self.add_error("payout_places", _("Bitte Prozent und Zahl der Plätze angeben."))
            return None
        shares = selectors.payout_shares(percent, places)
        if not shares:
            self.add_error("payout_places", _("Zu viele Plätze: jeder bekommt mindestens 1 %."))
            return None
        return shares

    def prize_arguments(self) -> dict[str, Any]:
        data = self.cleaned_data
        items, last = data["prize_items"]
        return {
            "entry_fee_cents": _euros_to_cents(data["entry_fee"]),
            "prize_shares": [int(s) for s in data["prize_shares"]],
            "prize_amounts": [_euros_to_cents(a) for a in data["prize_amounts"]],
            "prize_items": items,
            "prize_item_last": last,
            "prize_whole_euros": data["prize_whole_euros"],
        }


class DaysMixin:
    """What the create and the edit form of a tournament share: the days as the service bounds
    them (``OpenTournament.clean``: a plausible year, the last day not before the first, at most
    ``MAX_DAYS`` days) and the arguments both give the service alike."""

    def clean(self) -> dict[str, Any]:
        data = super().clean()  # type: ignore[misc]
        self.clean_days(data)
        return data

    def common_arguments(self) -> dict[str, Any]:
        form: Any = self
        data = form.cleaned_data
        same = ("name", "starts_on", "ends_on", "rounds", "games_per_round", "soli_count", "double_entry")
        return {
            **{name: data[name] for name in same if name in form.fields},
            "tie_breaks": [t for t in data["tie_breaks"].split(",") if t],
            **form.prize_arguments(),
        }

    def clean_days(self, data: dict[str, Any]) -> None:
        form: Any = self
        for name in ("starts_on", "ends_on"):
            day = data.get(name)
            if day is not None and not FIRST_YEAR <= day.year <= LAST_YEAR:
                form.add_error(
                    name,
                    _("Bitte ein Datum zwischen %(first)s und %(last)s.") % {"first": FIRST_YEAR, "last": LAST_YEAR},
                )
        first, last = data.get("starts_on"), data.get("ends_on")
        if first is not None and last is not None and not form.errors:
            if last < first:
                form.add_error("ends_on", _("Der letzte Tag liegt nicht vor dem ersten."))
            elif (last - first).days >= MAX_DAYS:
                form.add_error("ends_on", _("Ein Turnier dauert höchstens %(days)s Tage.") % {"days": MAX_DAYS})

    def skat_fields(self) -> None:
        """A Preisskat's form (issue 32 item 4): Skat words, games per list, the tie-breaks by
        games; no Soli, no Schafkopf choices, no phone tables (the desk types the lists)."""
        form: Any = self
        for name in ("kontra", "all_pass", "laufende", "plus_only", "soli_count", "in_club_standings"):
            form.fields.pop(name, None)
        games = form.fields["games_per_round"]
        games.label = _("Spiele je Liste (am Vierertisch)")
        games.min_value, games.max_value = 12, 96
        games.help_text = _(
            "Ein Vielfaches von 4; der Dreiertisch spielt 3/4 davon: 48 am Vierertisch, 36 am Dreiertisch "
            "(DSkV), so gibt jeder gleich oft."
        )
        games.widget.attrs.update(min=12, max=96, step=4)
        tie_breaks = form.fields["tie_breaks"]
        tie_breaks.choices = SKAT_TIE_BREAK_CHOICES
        tie_breaks.label = _("Bei gleichen Punkten")
        form.fields["prize_shares"].help_text = _(
            "Je Platz ein Prozentsatz der Kasse (Startgeld und Verlustspielgeld), z. B. „30 20 15 10 5“."
        )

    def date_widgets(self) -> None:
        form: Any = self
        for name in ("starts_on", "ends_on"):
            form.fields[name].widget.attrs.update(min=f"{FIRST_YEAR}-01-01", max=f"{LAST_YEAR}-12-31")


def _date_field(label: str, **kwargs: Any) -> forms.DateField:
    return forms.DateField(label=label, widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}), **kwargs)


class OpenTournamentForm(DaysMixin, PlainTextFields, PrizeFields):
    name = forms.CharField(label=_("Name"), max_length=100, initial=_("Preisschafkopf"))
    starts_on = forms.DateField(
        label=_("erster Tag"), widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"})
    )
    ends_on = forms.DateField(
        label=_("letzter Tag"),
        required=False,
        widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}),
        help_text=_("Nur bei mehreren Tagen (höchstens eine Woche)."),
    )
    rounds = forms.IntegerField(label=_("Runden"), min_value=1, max_value=MAX_ROUNDS, initial=3)
    games_per_round = forms.IntegerField(
        label=_("Spiele je Runde"),
        min_value=1,
        max_value=MAX_GAMES,
        initial=32,
        help_text=_("Je Spieler: ein Fünfertisch gibt 5/4 davon, ein Sechsertisch 6/4, damit jeder gleich oft spielt."),
    )
    tariff = forms.ChoiceField(label=_("Tarif"), initial=tariffs.DEFAULT_TEMPLATE)
    kontra = forms.ChoiceField(label=_("Kontra"), choices=KONTRA_CHOICES, required=False)
    all_pass = forms.ChoiceField(label=_("Wenn alle weiter sagen"), choices=ALL_PASS_CHOICES, required=False)
    laufende = forms.ChoiceField(label=_("Laufende"), choices=LAUFENDE_CHOICES, required=False)
    plus_only = forms.ChoiceField(label=_("Nur Pluspunkte"), choices=PLUS_CHOICES, required=False)
    tie_breaks = forms.ChoiceField(
        label=_("Bei Punktgleichheit"), choices=TIE_BREAK_CHOICES, initial=",".join(TIE_BREAKS), required=False
    )
    # Most Preisschafkopf rules count the won Soli (circled on the list): offered first.
    soli_count = forms.TypedChoiceField(
        label=_("Soli zählen"),
        choices=[(SoliCount.WON, SoliCount.WON.label), (SoliCount.DECLARED, SoliCount.DECLARED.label)],
        initial=SoliCount.WON,
        required=False,
        empty_value=SoliCount.WON,
        help_text=_("Gilt für die Zahl der Soli bei Punktgleichheit; das Feld der Turnierleitung sagt es auch."),
    )
    in_club_standings = forms.BooleanField(
        label=_("Spiele am Handy zählen in der Vereinswertung"),
        required=False,
        help_text=_(
            "Sonst bleiben die Turnierspiele aus der Jahreswertung des Vereins. Gäste stehen nie darin, "
            "nur die Mitglieder."
        ),
    )
    double_entry = forms.BooleanField(
        label=_("Zweiterfassung"),
        required=False,
        help_text=_(
            "Jeder Zettel wird zweimal eingetragen, unabhängig (zwei Laptops, oder später noch einmal); ein "
            "Tisch zählt erst, wenn beide übereinstimmen."
        ),
    )
    key = forms.CharField(required=False, max_length=40, widget=forms.HiddenInput)
    field_order = [
        "name",
        "starts_on",
        "ends_on",
        "rounds",
        "games_per_round",
        "tariff",
        "kontra",
        "all_pass",
        "laufende",
        "plus_only",
        "tie_breaks",
        "soli_count",
        "in_club_standings",
        "double_entry",
        "entry_fee",
        "prize_shares",
        "payout_percent",
        "payout_places",
        "prize_whole_euros",
        "prize_amounts",
        "prize_items",
    ]

    def __init__(self, *args: Any, game: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.skat = game == SKAT_LIST.key
        self.fields["game"] = forms.CharField(required=False, initial=game, widget=forms.HiddenInput)
        if self.skat:
            self._skat_create()
            return
        # A template (preset + options) or a points preset of the engine as it stands (money
        # presets are refused by the service: an open tournament counts points); the adjustments
        # below apply to either, and the engine refuses what does not fit.
        self.templates = tariffs.TEMPLATES
        self.fields["tariff"].choices = [
            (_("Tarifvorlagen"), [(t.key, t.label) for t in tariffs.TEMPLATES]),
            (
                _("Regeln des Programms"),
                [(name, title) for name, title in schafkopf_presets() if registry.load(name).unit() != "cent"],
            ),
        ]
        self.fields["starts_on"].initial = datetime.date.today()
        self.fields["key"].initial = secrets.token_urlsafe(16)
        self.date_widgets()

    def service_arguments(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            **self.common_arguments(),
            **self.chosen_tariff(),
            "in_club_standings": data.get("in_club_standings", False),
            "key": data["key"],
        }

    def _skat_create(self) -> None:
        """The Preisskat's create form: Skat by Seeger-Fabian and the Verlustspielgeld's amounts."""
        self.skat_fields()
        self.templates = ()
        self.fields["name"].initial = _("Preisskat")
        self.fields["games_per_round"].initial = 48
        self.fields["rounds"].initial = 2
        self.fields["tie_breaks"].initial = "won,lost,lot"
        self.fields["tariff"].choices = [(SKAT_LIST.preset, _("Skat nach Seeger-Fabian (Turnierliste)"))]
        self.fields["tariff"].initial = SKAT_LIST.preset
        euros = {"localize": True, "min_value": 0, "max_value": Decimal(MAX_VERLUSTSPIELGELD) / 100}
        self.fields["verlustspielgeld"] = forms.BooleanField(
            label=_("Verlustspielgeld"),
            required=False,
            initial=True,
            help_text=_("Jedes verlorene Spiel einer Liste kostet den Alleinspieler eine Gebühr in die Kasse."),
        )
        self.fields["verlustspielgeld_first"] = forms.DecimalField(
            label=_("je verlorenes Spiel (€)"), decimal_places=2, initial=Decimal("0.50"), **euros
        )
        self.fields["verlustspielgeld_first_games"] = forms.IntegerField(
            label=_("für die ersten … verlorenen Spiele einer Liste"), min_value=0, max_value=48, initial=3
        )
        self.fields["verlustspielgeld_later"] = forms.DecimalField(
            label=_("ab dem nächsten verlorenen Spiel (€)"), decimal_places=2, initial=Decimal("1.00"), **euros
        )
        self.order_fields(
            [f for f in self.field_order if f in self.fields][:6]
            + ["verlustspielgeld", "verlustspielgeld_first", "verlustspielgeld_first_games", "verlustspielgeld_later"]
        )

    def chosen_tariff(self) -> dict[str, Any]:
        """The chosen tariff as ``preset`` and ``options`` for the service."""
        data = self.cleaned_data
        if self.skat:
            return {
                "preset": SKAT_LIST.preset,
                "options": {
                    "verlustspielgeld": data["verlustspielgeld"],
                    "verlustspielgeld_first": _euros_to_cents(data["verlustspielgeld_first"]),
                    "verlustspielgeld_first_games": data["verlustspielgeld_first_games"],
                    "verlustspielgeld_later": _euros_to_cents(data["verlustspielgeld_later"]),
                },
            }
        template = tariffs.TEMPLATES_BY_KEY.get(data["tariff"])
        preset, options = (template.preset, template.options) if template else (data["tariff"], {})
        adjust = tariffs.Adjustments(
            kontra=data["kontra"], all_pass=data["all_pass"], laufende=data["laufende"], plus_only=data["plus_only"]
        )
        return {"preset": preset, "options": tariffs.tariff_options(preset, options, adjust)}


def form_key() -> str:
    """A form's one-time key: the same form sent twice stores once (``services.registration_create``)."""
    return secrets.token_urlsafe(16)


class KeyField(forms.CharField):
    """The hidden one-time key a form carries (made when the empty form is shown)."""

    def __init__(self) -> None:
        super().__init__(required=False, max_length=40, widget=forms.HiddenInput, initial=form_key)


# Service field → the edit form's fields it locks.
LOCKED_FIELDS = {
    "entry_fee_cents": ("entry_fee",),
    "prize_shares": ("prize_shares", "payout_percent", "payout_places"),
    "prize_item_last": (),  # with prize_items: one field
}


class OpenTournamentEditForm(DaysMixin, PlainTextFields, PrizeFields):
    """Change a tournament after creating it: what a draw or an entered figure depends on is
    shown locked, with the reason (``selectors.edit_locks``); the tariff stays as frozen."""

    name = forms.CharField(label=_("Name"), max_length=100)
    starts_on = _date_field(_("erster Tag"))
    ends_on = _date_field(
        _("letzter Tag"), required=False, help_text=_("Nur bei mehreren Tagen (höchstens eine Woche).")
    )
    rounds = forms.IntegerField(label=_("Runden"), min_value=1, max_value=MAX_ROUNDS)
    games_per_round = forms.IntegerField(label=_("Spiele je Runde"), min_value=1, max_value=MAX_GAMES)
    tie_breaks = forms.ChoiceField(label=_("Bei Punktgleichheit"), choices=TIE_BREAK_CHOICES, required=False)
    soli_count = forms.TypedChoiceField(
        label=_("Soli zählen"),
        choices=[(SoliCount.WON, SoliCount.WON.label), (SoliCount.DECLARED, SoliCount.DECLARED.label)],
        required=False,
        empty_value=SoliCount.WON,
    )
    double_entry = forms.BooleanField(
        label=_("Zweiterfassung"),
        required=False,
        help_text=_(
            "Jeder Zettel wird zweimal eingetragen, unabhängig (zwei Laptops, oder später noch einmal); ein "
            "Tisch zählt erst, wenn beide übereinstimmen."
        ),
    )
    field_order = [
        "name",
        "starts_on",
        "ends_on",
        "rounds",
        "games_per_round",
        "tie_breaks",
        "soli_count",
        "double_entry",
        "entry_fee",
        "prize_shares",
        "payout_percent",
        "payout_places",
        "prize_whole_euros",
        "prize_amounts",
        "prize_items",
    ]

    def __init__(self, *args: Any, tournament: Any, locks: dict[str, str], **kwargs: Any) -> None:
        initial = {
            "name": tournament.name,
            "starts_on": tournament.starts_on,
            "ends_on": tournament.ends_on,
            "rounds": tournament.rounds,
            "games_per_round": tournament.games_per_round,
            "tie_breaks": ",".join(tournament.tie_breaks),
            "soli_count": tournament.soli_count,
            "double_entry": tournament.double_entry,
            "entry_fee": Decimal(tournament.entry_fee_cents) / 100,
            "prize_shares": " ".join(str(s) for s in tournament.prize_shares),
            "prize_whole_euros": tournament.prize_whole_euros,
            "prize_amounts": " ".join(f"{Decimal(a) / 100:f}".replace(".", ",") for a in tournament.prize_amounts),
            "prize_items": prize_items_text(list(tournament.prize_items), tournament.prize_item_last),
            "payout_percent": 70,
            "payout_places": 10,
        }
        super().__init__(*args, initial=initial, **kwargs)
        self.date_widgets()
        if tournament.game.keeps_list:
            self.skat_fields()
        self.locks = locks
        for field, reason in locks.items():
            for name in LOCKED_FIELDS.get(field, (field,)):
                if name in self.fields:
                    self.fields[name].disabled = True
                    self.fields[name].help_text = reason

    def service_arguments(self) -> dict[str, Any]:
        return self.common_arguments()


class RegistrationForm(PlainTextFields, forms.Form):
    name = forms.CharField(
        label=_("Name"), max_length=100, widget=forms.TextInput(attrs={"autofocus": True, "autocomplete": "off"})
    )
    residence = forms.CharField(
        label=_("Wohnort"), max_length=100, required=False, widget=forms.TextInput(attrs={"autocomplete": "off"})
    )
    paid = forms.BooleanField(label=_("Startgeld bezahlt"), required=False, initial=True)
    start_number = forms.IntegerField(
        label=_("Startnummer von der Karte"),
        required=False,
        min_value=1,
        max_value=MAX_START_NUMBER,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
        help_text=_("Nur bei vorgedruckten Karten; sonst leer lassen."),
    )
    key = KeyField()
    # Set by the "trotzdem anmelden" button after the desk was asked about the same name and Wohnort.
    again = forms.BooleanField(required=False, widget=forms.HiddenInput)


class RegistrationEditForm(PlainTextFields, forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100, widget=forms.TextInput(attrs={"autocomplete": "off"}))
    residence = forms.CharField(
        label=_("Wohnort"), max_length=100, required=False, widget=forms.TextInput(attrs={"autocomplete": "off"})
    )
    paid = forms.BooleanField(label=_("Startgeld bezahlt"), required=False)


class GuestSearchForm(PlainTextFields, forms.Form):
    q = forms.CharField(label=_("Gast suchen"), max_length=100, required=False)


class TableFiguresForm(forms.Form):
    """One table's figures from its Wertungszettel, per seated start number the game's figures
    (``opentournaments.games``): a Preisschafkopf's points and Soli, a Preisskat's Spielpunkte,
    won and lost games. Tab goes from figure to figure and player to player; Enter saves."""

    def __init__(
        self,
        *args: Any,
        seats: list[tuple[int, str]],
        initial_scores: dict[int, tuple[int, ...]],
        focus: bool,
        figures: list[Figure],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["key"] = KeyField()  # one typing however often the form is sent
        self.numbers = [number for number, _name in seats]
        self.keys = [figure.key for figure in figures]
        for index, (number, name) in enumerate(seats):
            values = initial_scores.get(number, (None,) * len(figures))
            for position, figure in enumerate(figures):
                attrs = {"inputmode": "numeric", "autocomplete": "off", f"data-{figure.key}": ""}
                if position == 0:
                    label, minimum, maximum = f"{number} {name}", -MAX_FIGURE, MAX_FIGURE
                    if focus and index == 0:
                        attrs["autofocus"] = True
                else:
                    label, minimum, maximum = figure.label, 0, MAX_GAMES
                    attrs["aria-label"] = f"{figure.label}: {number} {name}"
                self.fields[f"{figure.key}_{number}"] = forms.IntegerField(
                    label=label,
                    initial=values[position],
                    min_value=minimum,
                    max_value=maximum,
                    widget=forms.TextInput(attrs=attrs),
                )

    def rows(self) -> list[list[forms.BoundField]]:
        return [[self[f"{key}_{n}"] for key in self.keys] for n in self.numbers]

    def figures(self) -> dict[str, dict[int, int]]:
        """Figure key → start number → value, as ``services.table_figures_enter`` takes them."""
        data = self.cleaned_data
        return {key: {n: data[f"{key}_{n}"] for n in self.numbers} for key in self.keys}


MAX_FIGURE = 1_000_000  # the points field's bound (the game's check bounds them closer)


class DrawForm(forms.Form):
    """The draw button's form: the round it means to draw, so a form sent twice draws one round
    (``services.round_draw``)."""

    round = forms.IntegerField(min_value=1, max_value=MAX_ROUNDS, widget=forms.HiddenInput)


class RoundDayForm(forms.Form):
    """The day a round is played: one of the tournament's days (a select, so nothing to mistype)."""

    day = forms.TypedChoiceField(label=_("Spieltag"), coerce=datetime.date.fromisoformat)

    def __init__(self, *args: Any, days: list[datetime.date], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["day"].choices = [(day.isoformat(), date_format(day, "D j. F")) for day in days]
