"""The tariffs of open tournaments (issue 24 item 3): the Tarifvorlagen the create form offers,
the few choices clubs differ on, and the tariff of a tournament in plain German for its rules page.

A template is data: a preset of the engine plus option values, a German label and a one-line
description. The owner picks one and may still change what clubs differ on (``Adjustments``):
Kontra allowed or forbidden, what happens when all pass, Laufende in the Wenz, plus points only.
The result is a preset and options; the service freezes every option value, like today.

"über Kreuz" is not offered when all pass: the seeds use the words only for how the four sit
(002: "Die Spieler sitzen sich über Kreuz gegenüber"), and no seed says how such a game is played
or paid, so there is no rule the engine could follow (docs/open-tournaments.md says so).

``tariff_lines`` reads any frozen preset and options (a template's or not) and says in German
what each game is worth; amounts it names come from the options, the worked examples from the
engine itself, so the printed page is the tariff the engine scores.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from opentournaments.games import game_of_ruleset
from scoring import selectors as scoring_selectors
from scoring.engine import registry
from scoring.engine.core import Context, EngineError, RuleSet
from scoring.engine.presets.schafkopf import SchafkopfRules
from scoring.engine.presets.schafkopf_games import GAMES
from scoring.engine.session_rules import TableRules
from scoring.option_labels import preset_label

# 002 §7/§9/§10: Rufspiel 1, Solo and Wenz 5 (from each of the three), Schneider and Schwarz one
# more each, Laufende one each from 3 (in the Wenz from 2), Tout doubles; 001 §4.2.4 the Sie.
_PREISSCHAFKOPF: dict[str, Any] = {"games": ["rufspiel", "solo", "wenz", "sie"]}


@dataclass(frozen=True)
class TariffTemplate:
    key: str
    label: str
    description: str
    preset: str
    options: Mapping[str, Any] = field(default_factory=dict)


TEMPLATES: tuple[TariffTemplate, ...] = (
    TariffTemplate(
        "preisschafkopf",
        gettext_lazy("Preisschafkopf: Rufspiel 1, Solo 5"),
        gettext_lazy(
            "Solo und Wenz +15/−5, Schneider und Schwarz je 1 mehr, Laufende ab 3 (Wenz ab 2), Tout doppelt,"
            " Sie; Kontra erlaubt; sagen alle weiter, wird zusammengeworfen."
        ),
        "reiner-schafkopf",
        _PREISSCHAFKOPF,
    ),
    TariffTemplate(
        "preisschafkopf-muss",
        gettext_lazy("Preisschafkopf ohne Kontra, mit Muss-Spiel"),
        gettext_lazy(
            "Wie Rufspiel 1, Solo 5, aber ohne Kontra; sagen alle weiter, muss der Eichel-Ober ein Rufspiel machen."
        ),
        "reiner-schafkopf",
        {**_PREISSCHAFKOPF, "max_kontra": 0, "muss_spiel": True},
    ),
    TariffTemplate(
        "preisschafkopf-ramsch",
        gettext_lazy("Preisschafkopf mit Ramsch"),
        gettext_lazy(
            "Wie Rufspiel 1, Solo 5; sagen alle weiter, wird Ramsch gespielt (wer die meisten Augen hat, verliert)."
        ),
        "reiner-schafkopf",
        {**_PREISSCHAFKOPF, "games": [*_PREISSCHAFKOPF["games"], "mungo"]},
    ),
    TariffTemplate(
        "preisschafkopf-plus",
        gettext_lazy("Preisschafkopf nur Pluspunkte"),
        gettext_lazy(
            "Rufspiel 1, Solo 5 von jedem Gegner, aber nur die Gewinner bekommen Punkte geschrieben,"
            " die Verlierer nichts; ohne Strafpunkte."
        ),
        "reiner-schafkopf",
        {**_PREISSCHAFKOPF, "plus_points_only": True, "fehler": False},
    ),
)
TEMPLATES_BY_KEY = {t.key: t for t in TEMPLATES}
DEFAULT_TEMPLATE = TEMPLATES[0].key

# The choices clubs differ on; "" keeps what the template (or preset) says.
KONTRA = {"erlaubt", "verboten"}
ALL_PASS = {"zusammenwerfen", "muss", "ramsch"}
LAUFENDE = {"wenz_ab_2", "immer_ab_3"}
PLUS = {"ja", "nein"}


@dataclass(frozen=True)
class Adjustments:
    kontra: str = ""
    all_pass: str = ""
    laufende: str = ""
    plus_only: str = ""


def tariff_options(preset: str, options: Mapping[str, Any], adjust: Adjustments) -> dict[str, Any]:
    """The options of ``preset`` with ``options`` and the owner's ``adjust`` applied on top; the
    engine validates the result when the tournament is created."""
    out = dict(options)
    defaults = {spec.name: spec.default for spec in registry.all_presets()[preset].option_specs()}
    if adjust.kontra == "verboten":
        out["max_kontra"] = 0
    elif adjust.kontra == "erlaubt":
        out["max_kontra"] = defaults["max_kontra"] or 2  # 002 §8: Stoß and Re
    if adjust.all_pass:
        games = [g for g in out.get("games", defaults["games"]) if g != "mungo"]
        out["muss_spiel"] = adjust.all_pass == "muss"
        if adjust.all_pass == "ramsch":
            games.append("mungo")
            out["mungo_mode"] = "ramsch"
        out["games"] = games
    if adjust.laufende:
        out["laufende_from"] = 3
        out["laufende_from_short"] = 2 if adjust.laufende == "wenz_ab_2" else 3
    if adjust.plus_only:
        out["plus_points_only"] = adjust.plus_only == "ja"
    return out


def _frozen(preset: str, options: Mapping[str, Any]) -> dict[str, Any]:
    ruleset, table = registry.load_with_table({"preset": preset, "options": dict(options)})
    return scoring_selectors.frozen_options(ruleset, table)


def template_for(preset: str, options: Mapping[str, Any]) -> TariffTemplate | None:
    """The template whose frozen options are exactly ``options`` (None: changed or a preset)."""
    return next(
        (t for t in TEMPLATES if t.preset == preset and _frozen(preset, t.options) == dict(options)),
        None,
    )


# --- the tariff in plain German ------------------------------------------------------------------


def _points(n: int) -> str:
    return ngettext("%(n)s Punkt", "%(n)s Punkte", n) % {"n": n}


def _names(names: list[str]) -> str:
    return (
        names[0]
        if len(names) == 1
        else _("%(first)s und %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}
    )


def _example(rules: RuleSet, hand: dict[str, Any]) -> dict[str, int] | None:
    seats = ("A", "B", "C", "D")
    if isinstance(rules, SchafkopfRules) and rules.deckel_required():
        hand = {**hand, "deckel": 1}
    try:
        return dict(rules.score(hand, seats, Context()).payouts)
    except EngineError:
        return None


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else ("±0" if n == 0 else f"−{-n}")


def skat_lines(table: TableRules) -> list[tuple[str, str]]:
    """A Preisskat's scoring in German (skat.md §6): the list by the ISkO, the Seeger-Fabian
    points, and the Verlustspielgeld with the tariff's amounts."""
    lines = [
        (_("Spielliste"), _("Gezählt wird nach der Internationalen Skatordnung; ein verlorenes Spiel zählt doppelt.")),
        (
            _("Seeger-Fabian"),
            _(
                "Gewonnenes Spiel: Spielwert + 50. Verlorenes Spiel: doppelter Spielwert − 50, und jeder andere"
                " Spieler am Tisch bekommt 40 (am Vierertisch 30, auch der Geber, der aussetzt)."
            ),
        ),
        (
            _("Wertung"),
            _("Spielpunkte + 50 × (gewonnen − verloren) + 40 bzw. 30 × die verlorenen Spiele der anderen."),
        ),
    ]
    if table.verlustspielgeld:
        first, later, count = (
            table.verlustspielgeld_first,
            table.verlustspielgeld_later,
            table.verlustspielgeld_first_games,
        )
        lines.append(
            (
                _("Verlustspielgeld"),
                ngettext(
                    "%(first)s für das erste verlorene Spiel einer Liste, ab dem zweiten %(later)s je Spiel.",
                    "%(first)s je verlorenes Spiel für die ersten %(count)s einer Liste, ab dem nächsten %(later)s.",
                    count,
                )
                % {"first": _euros(first), "later": _euros(later), "count": count},
            )
        )
    return lines


def _euros(cents: int) -> str:
    return f"{cents // 100},{cents % 100:02d} €"


def tariff_lines(rules: RuleSet, table: TableRules) -> list[tuple[str, str]]:
    """The tariff as (topic, sentence) pairs in German: what each game is worth, Schneider and
    Schwarz, Laufende, Tout, Sie, Kontra, when all pass, Deckel, Bock, Stock, Fehler, plus
    points only; two worked examples scored by the engine. A Spielliste (Skat): ``skat_lines``."""
    if game_of_ruleset(rules).keeps_list:
        return skat_lines(table)
    o = rules.options
    games = list(o["games"])
    plus = bool(o.get("plus_points_only"))
    lines: list[tuple[str, str]] = []
    r, s = o["price_rufspiel"], o["price_solo"]
    if "rufspiel" in games:
        text = (
            _("Jeder der beiden Gewinner bekommt %(price)s, die Verlierer nichts.")
            if plus
            else _("Jeder der beiden Gewinner bekommt %(price)s, jeder Verlierer %(minus)s.")
        )
        lines.append((_("Rufspiel"), text % {"price": _signed(r), "minus": _signed(-r)}))
    solos = [GAMES[g].label for g in games if GAMES[g].kind == "solo"]
    if solos:
        text = (
            _(
                "%(price)s von jedem der drei Gegner: gewinnt der Spieler, bekommt er %(three)s; verliert er,"
                " bekommt jeder Gegner %(one)s. Den Verlierern wird nichts geschrieben."
            )
            if plus
            else _(
                "%(price)s von jedem der drei Gegner: gewinnt der Spieler, bekommt er %(three)s und jeder"
                " Gegner %(minus_one)s; verliert er, %(minus_three)s für ihn und %(one)s für jeden Gegner."
            )
        )
        values = {
            "price": _points(s),
            "three": _signed(3 * s),
            "one": _signed(s),
            "minus_one": _signed(-s),
            "minus_three": _signed(-3 * s),
        }
        lines.append((_names(solos), text % values))
    if "bettel" in games or "betteln" in games:
        lines.append(
            (
                _("Bettel"),
                _("%(price)s von jedem Gegner, ohne Schneider und Laufende.") % {"price": _points(o["price_bettel"])},
            )
        )
    lines.append(
        (
            _("Schneider und Schwarz"),
            _(
                "Schneider (Spieler mit höchstens %(decl)s Augen, Gegner mit höchstens %(opp)s)"
                " kostet %(schneider)s mehr, Schwarz (kein Stich) noch einmal %(schwarz)s mehr."
            )
            % {
                "decl": o["schneider_declarer_max"],
                "opp": o["schneider_opponents_max"],
                "schneider": _points(o["price_schneider"]),
                "schwarz": _points(o["price_schwarz"]),
            },
        )
    )
    short = o["laufende_from_short"]
    where = (
        _("ab %(n)s, beim Wenz ab %(short)s") % {"n": o["laufende_from"], "short": short}
        if short != o["laufende_from"]
        else _("ab %(n)s, auch beim Wenz") % {"n": o["laufende_from"]}
    )
    which = _("nur Ober und Unter") if o["laufende_ober_unter_only"] else _("die höchsten Trümpfe ohne Lücke")
    lines.append(
        (
            _("Laufende"),
            _("%(where)s (%(which)s): je Laufendem %(price)s mehr.")
            % {"where": where, "which": which, "price": _points(o["price_laufende"])},
        )
    )
    if solos:
        lines.append(
            (
                _("Tout"),
                _("Ein angesagtes Tout (alle Stiche) zählt ×%(factor)s, ohne Schneider und Schwarz; verloren ebenso.")
                % {"factor": o["tout_factor"]},
            )
        )
    if "sie" in games:
        sie = (s + 8 * o["price_laufende"]) * o["sie_factor"]
        lines.append(
            (
                _("Sie"),
                _("Alle vier Ober und Unter: (Solo + 8 Laufende) ×%(factor)s = %(price)s von jedem Gegner.")
                % {"factor": o["sie_factor"], "price": _points(sie)},
            )
        )
    kontra = o["max_kontra"]
    if kontra == 0:
        lines.append((_("Kontra"), _("Kontra (Stoß) gibt es nicht.")))
    else:
        labels = list(getattr(rules, "KONTRA_LABELS", ("Kontra",)))[:kontra]
        lines.append(
            (
                _("Kontra"),
                _("%(labels)s: jedes verdoppelt den Preis, höchstens %(n)s.") % {"labels": _names(labels), "n": kontra},
            )
        )
    if o["deckel"] == "pflicht" and "mungo" in games:
        all_pass = _("Ohne Deckel wird Mungo gespielt (%(price)s).") % {"price": _points(o["price_mungo"])}
    elif o["muss_spiel"]:
        all_pass = _("Muss-Spiel: der Inhaber des Eichel-Obers muss ein Rufspiel machen, ohne Stoß.")
    elif "mungo" in games and o["mungo_mode"] == "ramsch":
        all_pass = _(
            "Ramsch: wer die meisten Augen hat, verliert an jeden der anderen %(price)s; ein Durchmarsch gewinnt."
        ) % {"price": _points(o["price_mungo"])}
    elif "mungo" in games:
        all_pass = _("Mungo: die zwei mit den wenigsten Augen gewinnen %(price)s.") % {
            "price": _points(o["price_mungo"])
        }
    else:
        all_pass = _("Es wird zusammengeworfen; der Nächste gibt.")
    lines.append((_("Sagen alle weiter"), all_pass))
    if o["deckel"] != "none":
        counts = _("jeder verdoppelt den Preis") if o["deckel_counts"] else _("sie zählen nicht in die Punkte")
        kind = _("Dauerdeckel") if o["deckel"] == "pflicht" else _("Deckel erlaubt")
        lines.append((_("Deckel"), f"{kind}: {counts}."))
    if table.bock and table.bock_triggers:
        lines.append((_("Bockrunden"), _("Eine Bockrunde verdoppelt die Preise.")))
    if table.stock != "none":
        lines.append((_("Stock"), _("Es wird mit Stock gespielt: die Punkte eines Tisches gehen nicht auf null auf.")))
    if o["fehler"]:
        fehler = _("%(r)s beim Rufspiel, %(s)s beim Solo, Wenz oder Tout.") % {
            "r": _points(o["fehler_rufspiel"]),
            "s": _points(o["fehler_solo"]),
        }
        lines.append((_("Fehler"), fehler))
    if plus:
        lines.append(
            (_("Nur Pluspunkte"), _("Die Gewinner bekommen ihre Punkte, den Verlierern wird nichts geschrieben."))
        )
    else:
        lines.append(
            (
                _("Abrechnung"),
                _("Was die Gewinner bekommen, schreiben die Verlierer ab: jeder Tisch geht auf null auf."),
            )
        )
    examples = [
        (
            _("Beispiel Rufspiel"),
            _("gewonnen mit Schneider und 3 Laufenden"),
            {"game": "rufspiel", "declarer": "A", "partner": "C", "augen": 100, "laufende": 3},
        ),
        (
            _("Beispiel Solo"),
            _("gewonnen mit Schneider"),
            {"game": "solo", "suit": "herz", "declarer": "A", "augen": 95},
        ),
    ]
    for topic, what, hand in examples:
        if hand["game"] not in games:
            continue
        payouts = _example(rules, hand)
        if payouts is None:
            continue
        if hand["game"] == "rufspiel":
            text = _("%(what)s: die Spieler je %(win)s, die Gegner je %(lose)s.")
            values = {"win": _signed(payouts["A"]), "lose": _signed(payouts["B"])}
        else:
            text = _("%(what)s: der Spieler %(win)s, jeder Gegner %(lose)s.")
            values = {"win": _signed(payouts["A"]), "lose": _signed(payouts["B"])}
        lines.append((topic, text % {"what": what, **values}))
    return lines


def tariff_title(preset: str, options: Mapping[str, Any]) -> str:
    """The template's label; else the preset's title, "angepasst" where options differ from it."""
    template = template_for(preset, options)
    if template is not None:
        return str(template.label)
    title = preset_label(preset)
    return title if _frozen(preset, {}) == dict(options) else _("%(title)s, angepasst") % {"title": title}
