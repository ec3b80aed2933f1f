"""Table options: the rules of an evening's table state, as opposed to the rules of one hand.

Bock triggers and whether Bock rounds queue or stack, the Mungorunde, the Stock, what a deal by
the wrong player means, the Doppelkopf Vergeben penalty: a club chooses these like any tariff,
in the same ``{"preset": ..., "options": {...}}`` object, but the presets do not read them —
only the evening fold (``scoring.engine.session``) does. ``registry.load_with_table`` splits
them off the preset's options and builds a ``TableRules`` here.

Defaults follow the preset: where the preset plays the special rounds of 001 §5
(``special_rounds``, i.e. ``allgaeu``) the table plays them the Allgäu way (Bock on 60:60 and
30:90, Mungorunde, the Stock of 001 §8, the Bockspiel of 001 §8.4); everywhere else every table
option is off until the club switches it on. A Skat table (skat.md) takes its Bock triggers from
the preset's option ``bock`` and adds the Verlustspielgeld of a list. Every option and reading is documented in
docs/rules/table-state.md.

This module decides nothing about a hand; it does not fold anything.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .core import EngineError, OptionSpec, RuleSet
from .presets.doppelkopf import VERGEBEN_LIMIT

# Bock triggers a club can choose (001 §5.1, 003 §4.1 "nach folgenden Kriterien (optional)",
# whose list did not survive; these are the usual ones).
SCHAFKOPF_TRIGGERS = ("6060", "3090", "kontra_lost", "schwarz", "herz_solo_lost", "four_deckel")
DOPPELKOPF_TRIGGERS = ("120120", "kontra_lost", "schwarz")

# Rounds a table may start by choice (``{"event": "special_round", "kind": ...}``).
SPECIAL_KINDS = (
    "rimini",
    "stoecklesrunde",
    "megastoecklesrunde",
    "gardareizrunde",
    "abschlussrunde",
    "geschobene_mungorunde",
)

# Players at one table per family: 3 only for a Saukopf Dreihaxer (000); with 5 the dealer sits
# out, with 6 the dealer and the player to his right (001 §7; 004 §5/§10 name a sixth player).
# Skat is played by three: at a table of four the dealer sits out (skat.md §1).
TABLE_SIZES = {"schafkopf": (4, 5, 6), "saukopf": (3, 4, 5, 6), "doppelkopf": (4, 5, 6), "skat": (3, 4)}
DEALER_SITS_OUT_FROM = {"skat": 4}  # every other family: from five at the table

# 001 §11.4: "Es werden keine speziellen Runden (Kapitel 5) gespielt" — and no Bock.
_NO_BOCK_PRESETS = frozenset({"allgaeu-meisterschaft"})

ALL_TABLE_OPTIONS = (
    "bock_triggers",
    "bock_overlap",
    "mungorunde",
    "stock",
    "stock_first",
    "stock_repeat",
    "stock_double_cap",
    "wrong_dealer",
    "vergeben_limit",
    "buy_price",
    "verlustspielgeld",
    "verlustspielgeld_first",
    "verlustspielgeld_later",
    "verlustspielgeld_first_games",
)


@dataclass(frozen=True)
class TableRules:
    """The resolved table options of one table, plus what the family allows.

    ``options`` holds the option values as chosen (for storing with a session, so a later
    change of the club's defaults never rewrites a past evening); the typed fields are the same
    values for the fold to read.
    """

    family: str
    table_sizes: tuple[int, ...]
    bock: bool = False  # Bock rounds exist (by trigger, vote or choice)
    bock_triggers: tuple[str, ...] = ()
    bock_overlap: str = "queue"  # queue: one round after the other (001 §5); stack: they overlap
    special_kinds: tuple[str, ...] = ()  # kinds a special_round event may start
    mungorunde: bool = False  # 001 §5.2: a Schwarz starts a Mungorunde
    stock: str = "none"  # none | allgaeu (001 §8.1/§8.2, §5.3) | anhang_c (003 §3.2)
    stock_first: int = 50
    stock_repeat: int = 100
    stock_double_cap: int = 200
    wrong_dealer: str = "continue"  # bockspiel (001 §8.4) | continue
    vergeben_limit: int = 0  # Doppelkopf (004 §5): the n-th Vergeben in a row is paid; 0 = never
    schmeissen: bool = False  # Doppelkopf (004 §5)
    buying: bool = False  # Schafkopf family: the cards can be bought at five and six (001 §7.1/§7.2)
    buy_price: int = 0
    dealer_sits_out_from: int = 5  # the dealer sits out from this many at the table (Skat: four)
    # Skat (skat.md §6): each lost game of a list costs its declarer a fee into the Kasse, in cents:
    # ``verlustspielgeld_first`` for each of the first ``verlustspielgeld_first_games``, then
    # ``verlustspielgeld_later``. Money beside the list's points, never part of the payouts.
    verlustspielgeld: bool = False
    verlustspielgeld_first: int = 50
    verlustspielgeld_later: int = 100
    verlustspielgeld_first_games: int = 3
    options: Mapping[str, Any] = field(default_factory=dict)

    def verlustspielgeld_for(self, lost: int) -> int:
        """The fee of a player's ``lost``-th lost game of the list (0 where the table has none)."""
        if not self.verlustspielgeld or lost < 1:
            return 0
        return self.verlustspielgeld_first if lost <= self.verlustspielgeld_first_games else self.verlustspielgeld_later

    def verlustspielgeld_total(self, lost: int) -> int:
        """The fees of a player's ``lost`` lost games of one list together."""
        first = min(lost, self.verlustspielgeld_first_games)
        return self.verlustspielgeld_for(1) * first + self.verlustspielgeld_for(lost) * (lost - first)


# Maxima of the table options (issue 17, docs/rules/table-state.md): a payment into the Stock
# and the cap of its doubling at most 100 € (the seed's cap is 2 €), a Vergeben limit a table
# can reach in one evening.
MAX_STOCK_PRICE = 10_000
MAX_VERGEBEN_LIMIT = 20
# Buying the cards (001 §7.1/§7.2, issue 12): at most what a Stock payment may be, never doubled.
MAX_BUY_PRICE = MAX_STOCK_PRICE
# Skat's Verlustspielgeld: a fee of at most 100 € a lost game; the fee changes after at most a
# tournament list's 48 games.
MAX_VERLUSTSPIELGELD = MAX_STOCK_PRICE
MAX_LIST_GAMES = 48


def table_option_specs(ruleset: RuleSet) -> tuple[OptionSpec, ...]:
    """The table options this (resolved) rule set offers, with their defaults."""
    specs: list[OptionSpec] = []
    if ruleset.FAMILY == "schafkopf":
        special = bool(ruleset.opt("special_rounds"))
        if ruleset.NAME not in _NO_BOCK_PRESETS:
            specs += _bock_specs(SCHAFKOPF_TRIGGERS, ("6060", "3090") if special else ())
        if special:
            specs.append(
                OptionSpec(
                    "mungorunde",
                    True,
                    "Nach einem Spiel, in dem eine Partei keinen Stich macht (nicht Bettel oder Mungo), wird eine"
                    " Mungorunde gespielt; die erste des Abends zwingend, danach wird abgestimmt (001 §5.2)",
                    kind="bool",
                )
            )
        specs.append(
            OptionSpec(
                "buy_price",
                _buy_price_default(ruleset),
                "Karten kaufen zu fünft und zu sechst: der Käufer zahlt dem Verkäufer so viel, nie verdoppelt"
                " (001 §7.1 'Entweder er zahlt und spielt'; der Betrag steht dort nicht: voreingestellt ist"
                " der Grundpreis eines Rufspiels)",
                minimum=0,
                maximum=MAX_BUY_PRICE,
            )
        )
        stock_choices = ("none", "allgaeu", "anhang_c") if special else ("none", "anhang_c")
        specs.append(
            OptionSpec(
                "stock",
                "allgaeu" if special else "none",
                "Stock: allgaeu = Vergeben/Verabheben zahlen in den Stock, er wird in der Gardareizrunde mit"
                " einem gewonnenen Herz-Solo gewonnen (001 §8.1, §8.2, §5.3); anhang_c = bei"
                " 'zusammengeworfen' zahlt jeder Mitspieler eine Einheit (den Rufspiel-Preis), das nächste"
                " gewonnene Rufspiel holt ihn, ein verlorenes doppelt ihn auf (003 §3.2); none = kein Stock",
                kind="choice",
                choices=stock_choices,
            )
        )
        if special:
            specs += [
                OptionSpec(
                    "stock_first",
                    50,
                    "Stock: das erste Vergeben/Verabheben eines Spielers kostet",
                    minimum=0,
                    maximum=MAX_STOCK_PRICE,
                ),
                OptionSpec(
                    "stock_repeat",
                    100,
                    "Stock: jedes weitere Vergeben/Verabheben kostet",
                    minimum=0,
                    maximum=MAX_STOCK_PRICE,
                ),
                OptionSpec(
                    "stock_double_cap",
                    200,
                    "Stock: ein verlorenes Herz-Solo in der Gardareizrunde doppelt den Stock auf, höchstens um"
                    " diesen Betrag (001 §5.3 'max. 2 €')",
                    minimum=0,
                    maximum=MAX_STOCK_PRICE,
                ),
                OptionSpec(
                    "wrong_dealer",
                    "bockspiel",
                    "Gibt einer, der nicht an der Reihe ist: bockspiel = ein Bockspiel ohne Deckel, danach gibt,"
                    " wer an der Reihe war (001 §8.4); continue = normal gewertet, es geht bei ihm weiter",
                    kind="choice",
                    choices=("bockspiel", "continue"),
                ),
            ]
    elif ruleset.FAMILY == "skat":
        specs += _skat_specs(ruleset)
    elif ruleset.FAMILY == "doppelkopf":
        if ruleset.opt("bock_doubles"):
            specs += _bock_specs(DOPPELKOPF_TRIGGERS, ())
        specs.append(
            OptionSpec(
                "vergeben_limit",
                VERGEBEN_LIMIT,
                "Das so-vielte Vergeben derselben Geberin in Folge bringt jeder Spielerin am Tisch einen Punkt,"
                " die Geberin zahlt die Summe (004 §5); 0 = nie",
                minimum=0,
                maximum=MAX_VERGEBEN_LIMIT,
            )
        )
    return tuple(specs)


def _buy_price_default(ruleset: RuleSet) -> int:
    """The preset's Grundpreis of a Rufspiel (the preset's, not a club's changed tariff, so the
    default stays fixed while a club edits its prices); nothing in the championship, whose points
    001 §11.5 lists without any for buying."""
    if ruleset.NAME in _NO_BOCK_PRESETS:
        return 0
    defaults = {spec.name: spec.default for spec in type(ruleset).option_specs()}
    return int(defaults["price_rufspiel"]) * (int(defaults["cents_per_unit"]) or 1)


def _bock_specs(triggers: tuple[str, ...], default: tuple[str, ...]) -> list[OptionSpec]:
    return [
        OptionSpec(
            "bock_triggers",
            list(default),
            "Was eine Bockrunde auslöst: 6060/120120 = Gleichstand, 3090 = 30:90, kontra_lost = die Partei,"
            " die zuletzt gestoßen (Kontra/Re) hat, verliert, schwarz = eine Partei ohne Stich,"
            " herz_solo_lost = ein Herz-Solo verloren, four_deckel = mindestens vier Deckel (001 §5.1, 003 §4.1)",
            kind="list",
            choices=triggers,
        ),
        _overlap_spec(),
    ]


def _overlap_spec() -> OptionSpec:
    return OptionSpec(
        "bock_overlap",
        "queue",
        "queue = Runden werden nie gemeinsam gespielt, sondern nacheinander (001 §5); stack = Bockrunden"
        " überlagern sich, jede laufende verdoppelt noch einmal",
        kind="choice",
        choices=("queue", "stack"),
    )


def _skat_specs(ruleset: RuleSet) -> list[OptionSpec]:
    """Skat: the Bock triggers are the preset's own option ``bock`` (a hand scored alone checks
    its Bock against them); the table adds how Bock rounds overlap and the Verlustspielgeld."""
    specs = [_overlap_spec()] if ruleset.opt("bock") else []
    return [
        *specs,
        OptionSpec(
            "verlustspielgeld",
            False,
            "Verlustspielgeld (skat.md §6): jedes verlorene Spiel einer Liste kostet den Alleinspieler eine"
            " Gebühr in die Kasse, in Cent, neben den Punkten der Liste",
            kind="bool",
        ),
        OptionSpec(
            "verlustspielgeld_first",
            50,
            "Verlustspielgeld je verlorenes Spiel für die ersten Spiele einer Liste (Cent)",
            minimum=0,
            maximum=MAX_VERLUSTSPIELGELD,
        ),
        OptionSpec(
            "verlustspielgeld_later",
            100,
            "Verlustspielgeld je weiteres verlorenes Spiel einer Liste (Cent)",
            minimum=0,
            maximum=MAX_VERLUSTSPIELGELD,
        ),
        OptionSpec(
            "verlustspielgeld_first_games",
            3,
            "So viele verlorene Spiele einer Liste kosten den ersten Betrag, jedes weitere den zweiten",
            minimum=0,
            maximum=MAX_LIST_GAMES,
        ),
    ]


def build_table_rules(ruleset: RuleSet, overrides: Mapping[str, Any] | None = None) -> TableRules:
    """Resolve the table options for ``ruleset``; refuses options this rule set does not offer."""
    specs = {spec.name: spec for spec in table_option_specs(ruleset)}
    values = {name: spec.default for name, spec in specs.items()}
    for name, value in (overrides or {}).items():
        if name not in specs:
            raise EngineError(
                "unknown_option",
                f"Die Tischoption '{name}' gibt es bei der Regel '{ruleset.NAME}' (mit diesen Optionen) nicht.",
                f"ruleset.options.{name}",
            )
        values[name] = specs[name].check(value)
    for name, spec in specs.items():
        if spec.kind == "list":
            values[name] = tuple(values[name])
    family = ruleset.FAMILY
    bock = "bock_overlap" in specs
    special = family == "schafkopf" and bool(ruleset.opt("special_rounds"))
    kinds = (("bockrunde",) if bock else ()) + (SPECIAL_KINDS if special else ())
    triggers = tuple(ruleset.opt("bock")) if family == "skat" else values.get("bock_triggers", ())
    return TableRules(
        family=family,
        table_sizes=TABLE_SIZES.get(family, (4,)),
        bock=bock,
        bock_triggers=triggers,
        bock_overlap=values.get("bock_overlap", "queue"),
        special_kinds=kinds,
        mungorunde=values.get("mungorunde", False),
        stock=values.get("stock", "none"),
        stock_first=values.get("stock_first", 50),
        stock_repeat=values.get("stock_repeat", 100),
        stock_double_cap=values.get("stock_double_cap", 200),
        wrong_dealer=values.get("wrong_dealer", "continue"),
        vergeben_limit=values.get("vergeben_limit", 0),
        schmeissen=family == "doppelkopf",
        buying=family == "schafkopf",
        buy_price=values.get("buy_price", 0),
        dealer_sits_out_from=DEALER_SITS_OUT_FROM.get(family, 5),
        verlustspielgeld=values.get("verlustspielgeld", False),
        verlustspielgeld_first=values.get("verlustspielgeld_first", 50),
        verlustspielgeld_later=values.get("verlustspielgeld_later", 100),
        verlustspielgeld_first_games=values.get("verlustspielgeld_first_games", 3),
        options={name: list(v) if isinstance(v, tuple) else v for name, v in values.items()},
    )


def table_options_document(ruleset: RuleSet) -> dict[str, Any]:
    """The table options of ``ruleset`` for ``manage.py rulesets``."""
    return {spec.name: spec.as_dict() for spec in table_option_specs(ruleset)}
