"""What a club volunteer reads for the engine's identifiers of rule sets (issue 29, item 3): the
name of each rule set, a German label for each option and for each value of a choice, in one
place. The pages show these words; the identifiers (``price_rufspiel``, ``pflicht``) and the rule
books' sections (``001 §6.2``, in the engine's option descriptions) stand only in a "Details"
disclosure beside them, for whoever writes the JSON format or checks a reading in docs/rules/.

An option without a label here falls back to the engine's description (``scoring.engine_texts``);
``tests/scoring/test_option_labels.py`` checks that every option and value of every preset has its
words here, so a new option cannot reach the page as a key.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from clubs.games import FAMILIES
from scoring.engine import registry
from scoring.engine.core import OptionSpec, RuleSet
from scoring.engine.presets.schafkopf_games import GAMES
from scoring.engine_texts import translated

# A rule set named after what it is, not after the club whose book it comes from.
PRESET_LABELS: dict[str, Promise] = {
    "allgaeu": _("Schafkopf um Geld (Bock, Mungo)"),
    "allgaeu-meisterschaft": _("Schafkopf-Meisterschaft um Punkte"),
    "standard": _("Bayerischer Schafkopf (Standardtarif)"),
    "reiner-schafkopf": _("Der reine Schafkopf (Zähleinheiten)"),
    "saukopf": _("Saukopf (Vierhaxer und Dreihaxer)"),
    "doppelkopf": _("Doppelkopf (Hausregeln)"),
    "skat": _("Skat (Spielliste nach ISkO)"),
    "skat-seeger": _("Skat nach Seeger-Fabian (Turnierliste)"),
}

# Options that are an amount, in the rule set's own unit (``RuleSet.UNIT``: a Zähleinheiten list
# with ``cents_per_unit`` still prices its games in Zähleinheiten).
AMOUNT_OPTIONS = frozenset(
    {
        "price_rufspiel",
        "price_solo",
        "price_bettel",
        "price_mungo",
        "price_leasters",
        "price_schneider",
        "price_schwarz",
        "price_laufende",
        "buy_price",
        "stock_first",
        "stock_repeat",
        "stock_double_cap",
    }
)
AMOUNT_UNITS: dict[str, Promise] = {
    "cent": _("in Cent (10 = 0,10 €)"),
    "point": _("in Punkten"),
    "unit": _("in Zähleinheiten"),
}

OPTION_LABELS: dict[str, Promise] = {
    # Schafkopf: prices
    "price_rufspiel": _("Grundpreis Rufspiel"),
    "price_solo": _("Grundpreis Solo, Wenz, Geier, Farbwenz … (jedes Einzelspiel)"),
    "price_bettel": _("Grundpreis Bettel/Betteln"),
    "price_mungo": _("Grundpreis Mungo/Ramsch"),
    "price_leasters": _("Grundpreis Leasters"),
    "price_schneider": _("Aufschlag Schneider"),
    "price_schwarz": _("Aufschlag Schwarz (zusätzlich zum Schneider)"),
    "price_laufende": _("Aufschlag je Laufender"),
    "laufende_from": _("Laufende werden ab dieser Zahl bezahlt"),
    "laufende_from_short": _("… bei Wenz, Geier, Königssolo"),
    "laufende_ober_unter_only": _("Nur Ober und Unter zählen als Laufende"),
    "win_augen": _("Augen, die die Spielerpartei zum Gewinnen braucht"),
    "schneider_declarer_max": _("Spielerpartei ist mit höchstens so vielen Augen Schneider"),
    "schneider_opponents_max": _("Gegenpartei ist mit höchstens so vielen Augen Schneider"),
    "spritze_uebernimmt": _(
        "Spritze übernimmt das Spiel: bei 60:60 und mit genau 30 Augen verliert bzw. ist Schneider, wer zuletzt"
        " gespritzt hat"
    ),
    "max_kontra": _("Höchstzahl der Stöße/Spritzen"),
    "deckel": _("Deckel (Klopfer)"),
    "deckel_counts": _("Jeder Deckel verdoppelt den Preis"),
    "max_deckel": _("Höchstzahl der Deckel"),
    "tout_factor": _("Faktor für Tout"),
    "sie_factor": _("Faktor für Sie"),
    "games": _("Erlaubte Spiele"),
    "mungo_mode": _("Wenn keiner spielt"),
    "mungo_three_tie": _("Gleichstand dreier Mungospieler: aufgeteilt wird"),
    "mungo_round_to": _("Anteile beim Dreier-Gleichstand werden auf dieses Vielfache aufgerundet"),
    "special_rounds": _("Besondere Runden (Bockrunde, Mungorunde …)"),
    "steigern": _("Steigern: gebotene Augen + 1 zum Gewinnen"),
    "renonce": _("Renonce erlaubt"),
    "muss_spiel": _("Muss-Spiel: kein Stoß erlaubt"),
    "fehler": _("Strafwertung bei Fehlern"),
    "fehler_rufspiel": _("Minuspunkte für einen Fehler im Rufspiel"),
    "fehler_solo": _("Minuspunkte für einen Fehler im Solo, Wenz oder Tout"),
    "cents_per_unit": _("Cent je Zähleinheit; 0 = in Zähleinheiten abrechnen"),
    "plus_points_only": _("Nur Pluspunkte: die Gewinner bekommen ihre Punkte, den Verlierern wird nichts geschrieben"),
    # The table: Bock, Mungorunde, Stock, dealing
    "bock_triggers": _("Was eine Bockrunde auslöst"),
    "bock_overlap": _("Mehrere Bockrunden auf einmal"),
    "mungorunde": _(
        "Mungorunde nach einem Spiel, in dem eine Partei keinen Stich macht (nicht Bettel oder Mungo); die erste"
        " des Abends zwingend, danach wird abgestimmt"
    ),
    "buy_price": _("Karten kaufen zu fünft und zu sechst: so viel zahlt der Käufer dem Verkäufer (nie verdoppelt)"),
    "stock": _("Stock"),
    "stock_first": _("Stock: das erste Vergeben/Verabheben eines Spielers kostet"),
    "stock_repeat": _("Stock: jedes weitere Vergeben/Verabheben kostet"),
    "stock_double_cap": _(
        "Stock: ein verlorenes Herz-Solo in der Gardareizrunde doppelt den Stock auf, höchstens um diesen Betrag"
    ),
    "wrong_dealer": _("Gibt einer, der nicht an der Reihe ist"),
    "vergeben_limit": _(
        "Das so-vielte Vergeben derselben Geberin in Folge bringt jeder Spielerin einen Punkt, die Geberin zahlt"
        " (0 = nie)"
    ),
    # Doppelkopf
    "bock_doubles": _("Bock verdoppelt den Wert des Spiels, Sonderpunkte eingeschlossen (aus: ohne Bock)"),
    "both_fail": _("Beide Parteien haben angesagt, keine erreicht ihr Ziel"),
    "versaeumte_ansage": _("Versäumte Ansage wird bestraft"),
    "offene_hochzeit_unter_30": _("Hochzeit ohne Partner, unter 30 Augen"),
    # Saukopf
    "schneider_below": _("Die Verliererpartei ist Schneider mit weniger Augen als"),
    "feige_sau_strict_half": _(
        "Feige Sau: unter der Hälfte von 120 minus Gebot bleiben, statt sie nicht zu überschreiten"
    ),
    # Skat
    "kontra_re": _("Kontra und Re (Hausregel): jedes verdoppelt den Spielwert"),
    "bock": _("Bockrunden (Hausregel): nach einem Auslöser zählt die nächste Runde doppelt"),
    "ramsch": _("Ramsch, wenn alle passen (Hausregel)"),
    "ramsch_jungfrau": _("Ramsch: ein Spieler ohne Stich (Jungfrau) verdoppelt den Wert"),
    "ramsch_durchmarsch": _("Ramsch: wer alle Stiche macht (Durchmarsch), wird mit +120 geschrieben"),
    "schieberamsch": _("Schieberamsch: jeder, der den Skat ungesehen weitergibt, verdoppelt den Wert"),
    "spitzen_only_buben": _("Nur die Buben zählen als Spitzen"),
    "cents_per_point": _("Cent je Punkt der Liste; leer = in Punkten abrechnen"),
    "verlustspielgeld": _("Verlustspielgeld: jedes verlorene Spiel kostet den Alleinspieler eine Gebühr in die Kasse"),
    "verlustspielgeld_first": _("Verlustspielgeld je verlorenes Spiel für die ersten Spiele einer Liste (Cent)"),
    "verlustspielgeld_later": _("Verlustspielgeld je weiteres verlorenes Spiel einer Liste (Cent)"),
    "verlustspielgeld_first_games": _("So viele verlorene Spiele einer Liste kosten den ersten Betrag"),
}

# The values of choice and list options; a game of the ``games`` list is named as the sheet names it.
CHOICE_LABELS: dict[str, dict[str, Promise]] = {
    "deckel": {
        "none": _("gibt es nicht"),
        "optional": _("freiwillig"),
        "pflicht": _("Pflicht (Dauerdeckel: ohne Deckel nur Mungo, Tout oder Sie)"),
    },
    "mungo_mode": {
        "mungo": _("Mungo: die zwei mit den wenigsten Augen gewinnen"),
        "ramsch": _("Ramsch: wer die meisten Augen hat, verliert"),
    },
    "mungo_three_tie": {"price": _("der Spielpreis"), "double": _("das Doppelte")},
    "bock_triggers": {
        "6060": _("60:60 (Gleichstand)"),
        "120120": _("120:120 (Gleichstand)"),
        "3090": _("30:90"),
        "kontra_lost": _("wer zuletzt gestoßen hat, verliert"),
        "schwarz": _("eine Partei ohne Stich"),
        "herz_solo_lost": _("ein Herz-Solo verloren"),
        "four_deckel": _("mindestens vier Deckel"),
    },
    "bock_overlap": {
        "queue": _("nacheinander spielen"),
        "stack": _("überlagern sich: jede laufende verdoppelt noch einmal"),
    },
    "stock": {
        "none": _("kein Stock"),
        "allgaeu": _("Vergeben und Verabheben zahlen ein, ein Herz-Solo in der Gardareizrunde gewinnt ihn"),
        "anhang_c": _("bei Zusammengeworfen zahlt jeder ein, das nächste gewonnene Rufspiel holt ihn"),
    },
    "wrong_dealer": {
        "bockspiel": _("ein Bockspiel ohne Deckel, danach gibt, wer an der Reihe war"),
        "continue": _("normal gewertet, es geht bei ihm weiter"),
    },
    "both_fail": {
        "net": _("jede bekommt die Punkte der verfehlten Absage der anderen, verrechnet"),
        "void": _("das Spiel zählt nichts, nur die Sonderpunkte"),
    },
    "offene_hochzeit_unter_30": {
        "opponents_simple": _("die Gegenpartei gewinnt einfach"),
        "wedding_simple": _("die Hochzeit gewinnt einfach"),
        "as_solo": _("wie ein Solo gewertet"),
    },
    "bock": {
        "6060": _("ein Spiel 60:60 verloren"),
        "kontra_re_lost": _("ein Spiel nach Kontra und Re verloren"),
        "grand_hand_won": _("ein Grand Hand gewonnen"),
        "hundred": _("ein Listenstand wird ein Vielfaches von 100"),
    },
}


def preset_label(name: str) -> str:
    """The rule set as a volunteer reads it: ``Schafkopf um Geld (Bock, Mungo)``."""
    label = PRESET_LABELS.get(name)
    if label is not None:
        return str(label)
    preset = registry.all_presets().get(name)
    return translated(preset.TITLE) if preset is not None else name


def preset_choices(
    family: str | None = None, *, evening: bool = False, game: str | None = None
) -> list[tuple[str, str]]:
    """(key, label) of every rule set (of one family), for a select; ``evening``: only those an
    evening settled between its players can play (not Seeger-Fabian's points); ``game``: only
    those of the club's game (``Club.game``)."""
    presets = evening_presets(game) if evening else game_presets(registry.all_presets(), game)
    return [(name, preset_label(name)) for name, cls in presets.items() if family is None or family == cls.FAMILY]


def evening_presets(game: str | None = None) -> dict[str, type[RuleSet]]:
    """The rule sets a club's evening can play: those whose defaults sum every hand to zero, and
    a list scored by points that the table adds up (Seeger-Fabian, ``RuleSet.plays_at_table``);
    with ``game``, only those of that game (issue 32 §3: a Skat club is offered Skat)."""
    presets = {name: cls for name, cls in registry.all_presets().items() if cls.build().plays_at_table()}
    return game_presets(presets, game)


def game_presets(presets: dict[str, type[RuleSet]], game: str | None) -> dict[str, type[RuleSet]]:
    """``presets`` of the rule-set families of ``game`` (``clubs.games.FAMILIES``); all for None."""
    if game is None:
        return presets
    families = FAMILIES.get(game, ())
    return {name: cls for name, cls in presets.items() if cls.FAMILY in families}


def option_label(spec: OptionSpec) -> str:
    label = OPTION_LABELS.get(spec.name)
    return str(label) if label is not None else translated(spec.doc)


def choice_label(option: str, value: Any) -> str:
    if option == "games" and value in GAMES:
        return GAMES[value].label
    label = CHOICE_LABELS.get(option, {}).get(str(value))
    return str(label) if label is not None else str(value)
