"""The Schafkopf family: presets ``standard``, ``allgaeu``, ``allgaeu-meisterschaft`` and
``reiner-schafkopf``, with the additional rules of Anhang C (003) as options on any of them.

One class computes every preset; the presets differ only in option defaults (tariffs,
thresholds, Deckel and Spritzen rules), which is what "a rule set is a class plus data" means.
Table state (Bock queue, Mungo rounds, Stock) is not decided here: the caller passes the
``Context`` of the hand and this module applies it (doublings, Deckel duty, allowed games).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar

from ..core import Context, EngineError, HandResult, Line, OptionSpec, Outcome, RuleSet, zero_sum_check
from ..fields import HandReader, check_int
from .schafkopf_games import (
    ALIASES,
    ALL_GAME_NAMES,
    CALLABLE,
    GAMES,
    RAMSCH_TRUMPS,
    SOLO_RANKING,
    SUIT_ALIASES,
    SUIT_LABELS,
    SUITS,
    Game,
    last_kontra,
    trump_rank,
)

GAME_CHOICES = (*ALL_GAME_NAMES, *ALIASES)
RESULTS = ("won", "won_schneider", "won_schwarz", "lost", "lost_schneider", "lost_schwarz")
SIDES = ("declarer", "opponents")


@dataclass(frozen=True)
class Round:
    """How a round of the table state changes a hand (001 §5)."""

    deckel: bool  # Deckel are laid (and, under Dauerdeckel, required)
    solo_doubled: bool  # "Solospiele werden wie Bockspiele gehandhabt"
    bock_at_least: int  # doublings the round brings by itself
    games: frozenset[str] | None  # the games allowed, None = the rule set's games
    extra_games: frozenset[str] = frozenset()  # games the round adds (Farbwenz, Geier …)
    bid_reaches: bool = False  # Gardareiz: the bid must be reached, not exceeded


_SOLOS = frozenset({"solo", "wenz", "bettel", "sie"})
_SPECIAL = frozenset({"geier", "farbgeier", "farbwenz"})
ROUNDS: dict[str, Round] = {
    "normal": Round(True, False, 0, None),
    # 001 §5: "Ausnahme: Bockrunde!" — played with Deckel; §5.7 the Abschlussrunde is a Bockrunde.
    "bockrunde": Round(True, False, 1, None),
    "abschlussrunde": Round(True, False, 1, None),
    # 001 §8.4: a deal by the wrong player gives one Bockspiel without Deckel.
    "bockspiel": Round(False, False, 1, None),
    # 001 §5.2: only Einzelspiele or Mungo, with Farbwenz and Geier; no Rufspiel.
    "mungorunde": Round(False, True, 0, _SOLOS | {"mungo", "farbwenz", "geier"}, frozenset({"farbwenz", "geier"})),
    "geschobene_mungorunde": Round(
        False, True, 0, _SOLOS | {"mungo", "farbwenz", "geier"}, frozenset({"farbwenz", "geier"})
    ),
    # 001 §5.3: everyone bids for the Solo; the bid must be reached.
    "gardareizrunde": Round(False, True, 0, _SOLOS | {"mungo"}, bid_reaches=True),
    # 001 §5.4/§5.5: every player plays each listed game once.
    "stoecklesrunde": Round(False, True, 0, frozenset({"solo", "wenz", "bettel", "rufspiel", "mungo", "sie"})),
    "megastoecklesrunde": Round(
        False, True, 0, frozenset({"solo", "wenz", "bettel", "rufspiel", "mungo", "sie"}) | _SPECIAL, _SPECIAL
    ),
    # 001 §5.6: standard rules plus Geier, Farbgeier and Farbwenz.
    "rimini": Round(False, True, 0, None, _SPECIAL),
}
SPECIAL_ROUNDS = tuple(name for name in ROUNDS if name not in ("normal", "bockrunde"))


def _lone_non_spritzer(seats: tuple[str, ...], augen: Mapping[str, int], spritzer: set[str]) -> str | None:
    """001 §4.3.2: three players tied on the fewest Augen, exactly one of whom gave no Spritze."""
    low = min(augen.values())
    tied = [s for s in seats if augen[s] == low]
    clean = [s for s in tied if s not in spritzer]
    return clean[0] if len(tied) == 3 and len(clean) == 1 else None


def _read_trump_cards(r: HandReader, name: str, seats: tuple[str, ...]) -> dict[str, int | None] | None:
    """{player: card} → {player: rank in the Rufspiel trump order (0 = highest), None = no trump}."""
    raw = r.get(name)
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise EngineError("invalid_type", "Erwartet ein Objekt {Name: Karte}.", name)
    out: dict[str, int | None] = {}
    for player, card in raw.items():
        if player not in seats:
            raise EngineError("invalid_value", f"'{player}' sitzt nicht am Tisch.", f"{name}.{player}")
        out[player] = None if card is None else trump_rank(card, f"{name}.{player}")
    return out


def _check_trump_data(
    trumps: Mapping[str, int] | None,
    cards: Mapping[str, int | None] | None,
    tricks: Mapping[str, int] | None,
    card_field: str,
    *,
    highest: bool,
) -> None:
    """Refuse tie-break data no deck can produce (003 §3.1/§3.4: the game has the 14 trumps of the
    Rufspiel, every card exists once, a trick holds four cards)."""
    total = len(RAMSCH_TRUMPS)
    if trumps is not None:
        if sum(trumps.values()) > total:
            raise EngineError(
                "inconsistent",
                f"Zusammen {sum(trumps.values())} Trümpfe in den Stichen: das Spiel hat nur {total}.",
                "trumps_by_player",
            )
        for player, count in trumps.items():
            if tricks is not None and count > 4 * tricks[player]:
                raise EngineError(
                    "inconsistent",
                    f"{player} hat {tricks[player]} Stiche; darin können höchstens {4 * tricks[player]} Trümpfe"
                    f" liegen, nicht {count}.",
                    f"trumps_by_player.{player}",
                )
    if cards is None:
        return
    owner: dict[int, str] = {}
    which = "höchst" if highest else "kleinst"
    for player, rank in cards.items():
        where = f"{card_field}.{player}"
        count = None if trumps is None else trumps.get(player)
        if rank is None:
            if count:
                message = f"{player} hat {count} Trümpfe gezählt, aber keinen {which}en Trumpf angegeben."
                raise EngineError("inconsistent", message, where)
            continue
        card = RAMSCH_TRUMPS[rank]
        if rank in owner:
            raise EngineError(
                "inconsistent", f"{owner[rank]} und {player} können nicht beide die Karte {card} haben.", where
            )
        owner[rank] = player
        if count == 0 or (tricks is not None and tricks[player] == 0):
            raise EngineError("inconsistent", f"{player} hat keinen Trumpf gezählt, aber {card} angegeben.", where)
        # Below the highest (above the smallest) trump there are only so many other trumps.
        most = total - rank if highest else rank + 1
        if count is not None and count > most:
            raise EngineError(
                "inconsistent",
                f"Mit {card} als {which}em Trumpf kann {player} höchstens"
                f" {'einen Trumpf' if most == 1 else f'{most} Trümpfe'} haben, nicht {count}.",
                where,
            )


def _plus_points_only(result: HandResult) -> HandResult:
    """The hand as a plus-points-only tariff writes it: every winner keeps what the zero-sum
    tariff gives him, every loser gets 0 instead of his minus (a Solo won: +15 for the declarer,
    nothing for the three; lost: +5 for each opponent, nothing for the declarer). Applied after
    the zero-sum result is checked, so the amounts themselves stay the tariff's."""
    payouts = {seat: max(amount, 0) for seat, amount in result.payouts.items()}
    lines = (*result.lines, Line("Nur Pluspunkte: den Verlierern wird nichts geschrieben"))
    return result._replace(payouts=payouts, lines=lines)


def augen_groups(augen: Mapping[str, int]) -> list[list[str]]:
    """``augen_by_player`` as spec §2.1's ``augen_order``: from fewest to most, equals together."""
    return [[p for p in augen if augen[p] == value] for value in sorted(set(augen.values()))]


def _capped_int(r: HandReader, name: str, most: int, label: str, none_message: str) -> int:
    """A count from 0 to ``most`` (default 0); where the rules allow none at all, a value other
    than 0 is refused with ``none_message`` instead of a range that collapses to "0 bis 0"."""
    if most:
        return r.int(name, 0, most, default=0, label=label)
    value = r.get(name, 0)
    if isinstance(value, bool) or not isinstance(value, int):
        raise EngineError("invalid_type", "Erwartet eine ganze Zahl.", name)
    if value:
        raise EngineError("not_allowed", none_message, name)
    return 0


# Maxima of the amount options (issue 17, docs/rules/standard.md "Maxima"): more than any club
# plays for, and small enough that the largest amount they can produce together — every doubling
# the rules allow, Bock, Tout or the Sie — stays below ``AMOUNT_LIMIT``
# (tests/scoring/test_amount_limits.py multiplies it out).
MAX_PRICE = 1_000  # a game's price or a surcharge: 10 € (1,000 points, 1,000 Zähleinheiten)
MAX_FACTOR = 8  # Tout, Sie
MAX_PENALTY = 10_000  # Fehler (002 §11), paid once, never doubled
MAX_CENTS_PER_UNIT = 100  # 1 € per Zähleinheit
MAX_ROUND_TO = 1_000  # the Mungo three-way tie rounds up to this step


def _option(defaults: dict[str, Any], name: str, doc: str, **kw: Any) -> OptionSpec:
    """One documented option with the preset's default for it."""
    default = defaults[name]
    if isinstance(default, tuple):
        default = list(default)
    kind = kw.pop("kind", "bool" if isinstance(default, bool) else "int")
    if kind == "int":
        kw.setdefault("minimum", 0)
    return OptionSpec(name, default, doc, kind=kind, **kw)


class SchafkopfRules(RuleSet):
    FAMILY = "schafkopf"
    UNIT = "cent"
    SEAT_COUNTS = (4,)
    KONTRA_LABELS: ClassVar[tuple[str, ...]] = ("Kontra", "Re", "Sup", "Hirsch")
    DEFAULTS: ClassVar[dict[str, Any]] = {}
    NON_ZERO_SUM_OPTIONS: ClassVar[tuple[str, ...]] = ("plus_points_only",)

    @classmethod
    def build(cls, overrides: Mapping[str, Any] | None = None) -> RuleSet:
        rules = super().build(overrides)
        if rules.options["plus_points_only"] and rules.unit() == "cent":
            # Money changes hands: what a winner gets, a loser pays. Only points can be written
            # to the winners alone.
            raise EngineError(
                "not_allowed",
                "Nur Pluspunkte gibt es nur bei Punkten oder Zähleinheiten, nicht bei Geld"
                " (dort zahlt der Verlierer, was der Gewinner bekommt).",
                "ruleset.options.plus_points_only",
            )
        if not rules.options["games"]:
            # Only the Mungo/Ramsch (nobody plays) would be left: a list with no game is a slip.
            raise EngineError("not_allowed", "Mindestens ein Spiel muss erlaubt sein.", "ruleset.options.games")
        return rules

    @classmethod
    def option_specs(cls) -> tuple[OptionSpec, ...]:
        d = {**BASE_DEFAULTS, **cls.DEFAULTS}

        def _o(name: str, doc: str, **kw: Any) -> OptionSpec:
            return _option(d, name, doc, **kw)

        return (
            _o("price_rufspiel", "Grundpreis Rufspiel", maximum=MAX_PRICE),
            _o("price_solo", "Grundpreis Solo, Wenz, Geier, Farbwenz … (jedes Einzelspiel)", maximum=MAX_PRICE),
            _o("price_bettel", "Grundpreis Bettel/Betteln", maximum=MAX_PRICE),
            _o("price_mungo", "Grundpreis Mungo/Ramsch", maximum=MAX_PRICE),
            _o("price_leasters", "Grundpreis Leasters (003 §3.4)", maximum=MAX_PRICE),
            _o("price_schneider", "Aufschlag Schneider", maximum=MAX_PRICE),
            _o("price_schwarz", "Aufschlag Schwarz (zusätzlich zum Schneider)", maximum=MAX_PRICE),
            _o("price_laufende", "Aufschlag je Laufender", maximum=MAX_PRICE),
            _o("laufende_from", "Laufende werden ab dieser Zahl bezahlt", minimum=1, maximum=14),
            _o("laufende_from_short", "… bei Wenz, Geier, Königssolo", minimum=1, maximum=14),
            _o("laufende_ober_unter_only", "Nur Ober und Unter zählen als Laufende"),
            _o("win_augen", "Augen, die die Spielerpartei zum Gewinnen braucht", minimum=1, maximum=120),
            _o(
                "schneider_declarer_max",
                "Spielerpartei ist mit höchstens so vielen Augen Schneider",
                maximum=59,
            ),
            _o(
                "schneider_opponents_max",
                "Gegenpartei ist mit höchstens so vielen Augen Schneider",
                maximum=59,
            ),
            _o(
                "spritze_uebernimmt",
                "Spritze übernimmt das Spiel: bei 60:60 und mit genau 30 Augen verliert bzw. ist Schneider,"
                " wer zuletzt gespritzt hat (001 §6.2)",
            ),
            _o("max_kontra", "Höchstzahl der Stöße/Spritzen", maximum=8),
            _o(
                "deckel",
                "Deckel/Klopfer: none = gibt es nicht, optional, pflicht = Dauerdeckel"
                " (ohne Deckel nur Mungo, Tout oder Sie)",
                kind="choice",
                choices=("none", "optional", "pflicht"),
            ),
            _o("deckel_counts", "Jeder Deckel verdoppelt den Preis"),
            _o("max_deckel", "Höchstzahl der Deckel", maximum=8),
            _o("tout_factor", "Faktor für Tout", minimum=1, maximum=MAX_FACTOR),
            _o("sie_factor", "Faktor für Sie", minimum=1, maximum=MAX_FACTOR),
            _o("games", "Erlaubte Spiele", kind="list", choices=ALL_GAME_NAMES),
            _o(
                "mungo_mode",
                "mungo = die zwei mit den wenigsten Augen gewinnen (001 §4.3.2);"
                " ramsch = wer die meisten Augen hat, verliert (003 §3.1)",
                kind="choice",
                choices=("mungo", "ramsch"),
            ),
            _o(
                "mungo_three_tie",
                "Gleichstand dreier Mungospieler: aufgeteilt wird der Spielpreis (price) oder das Doppelte (double)",
                kind="choice",
                choices=("price", "double"),
            ),
            _o(
                "mungo_round_to",
                "Anteile beim Dreier-Gleichstand werden auf dieses Vielfache aufgerundet",
                minimum=1,
                maximum=MAX_ROUND_TO,
            ),
            _o("special_rounds", "Spezielle Runden (001 §5) gibt es"),
            _o("steigern", "Steigern (003 §2.1): gebotene Augen + 1 zum Gewinnen"),
            _o("renonce", "Renonce (003 §2.5.1) erlaubt"),
            _o("muss_spiel", "Muss-Spiel (003 §3.3): kein Stoß erlaubt"),
            _o("fehler", "Strafwertung bei Fehlern (002 §11)"),
            _o("fehler_rufspiel", "Minuspunkte für einen Fehler im Rufspiel (002 §11)", maximum=MAX_PENALTY),
            _o("fehler_solo", "Minuspunkte für einen Fehler im Solo, Wenz oder Tout (002 §11)", maximum=MAX_PENALTY),
            _o("cents_per_unit", "Cent je Zähleinheit; 0 = in Zähleinheiten abrechnen", maximum=MAX_CENTS_PER_UNIT),
            _o(
                "plus_points_only",
                "Nur Pluspunkte (Preisschafkopf): die Gewinner bekommen ihre Punkte, den Verlierern wird"
                " nichts geschrieben; nicht Null-Summe, nur bei Punkten oder Zähleinheiten",
            ),
        )

    # --- public helpers for the entry form and the table state ---------------------------

    def unit(self) -> str:
        return "cent" if self.options["cents_per_unit"] else self.UNIT

    def games_for_round(self, round_name: str = "normal") -> tuple[str, ...]:
        """Games the entry form offers in this round, highest ranking first (003 §2.0)."""
        cached = self._games_cache.get(round_name)
        if cached is None:
            cached = self._games_cache[round_name] = self._games_for_round(round_name)
        return cached

    @cached_property
    def _games_cache(self) -> dict[str, tuple[str, ...]]:
        return {}

    def _games_for_round(self, round_name: str) -> tuple[str, ...]:
        rnd = ROUNDS.get(round_name, ROUNDS["normal"])
        enabled = set(self.options["games"]) | rnd.extra_games
        if rnd.games is not None:
            enabled &= rnd.games | rnd.extra_games
        order = [*SOLO_RANKING, "rufspiel", "mungo", "leasters"]
        return tuple(name for name in order if name in enabled)

    def deckel_required(self, round_name: str = "normal") -> bool:
        rnd = ROUNDS.get(round_name, ROUNDS["normal"])
        return self.options["deckel"] == "pflicht" and rnd.deckel

    # --- scoring -------------------------------------------------------------------------

    def score(self, hand: Mapping[str, Any], seats: tuple[str, ...], context: Context) -> HandResult:
        r = HandReader(hand, seats)
        raw_game = r.choice("game", GAME_CHOICES)
        game = GAMES[ALIASES.get(raw_game, raw_game)]
        rnd = self._round(context)
        allowed = self.games_for_round(context.round)
        if game.name not in allowed:
            if game.name in self.options["games"] or (rnd.extra_games and game.name in rnd.extra_games):
                msg = f"{game.label} ist in dieser Runde ({context.round}) nicht erlaubt."
                raise EngineError("not_allowed", msg, "game")
            raise EngineError("not_allowed", f"{game.label} ist bei dieser Regel nicht freigeschaltet.", "game")
        bock = max(context.bock, rnd.bock_at_least)
        if r.has("fehler"):
            result = self._fehler(r, game)
        elif game.kind in ("ramsch", "leasters"):
            result = self._all_against_all(r, game, rnd, bock)
        else:
            result = self._two_sided(r, game, rnd, bock)
        r.finish()
        zero_sum_check(result.payouts)
        if self.options["plus_points_only"]:
            result = _plus_points_only(result)
        return result

    def _round(self, context: Context) -> Round:
        rnd = ROUNDS.get(context.round)
        if rnd is None:
            known = ", ".join(ROUNDS)
            raise EngineError(
                "invalid_value", f"Unbekannte Runde '{context.round}'; bekannt: {known}.", "context.round"
            )
        if context.round in SPECIAL_ROUNDS and not self.options["special_rounds"]:
            raise EngineError("not_allowed", "Spezielle Runden gibt es bei dieser Regel nicht.", "context.round")
        return rnd

    def _unit_factor(self) -> int:
        return self.options["cents_per_unit"] or 1

    def _deckel(self, r: HandReader, game: Game, tout: bool, rnd: Round) -> int:
        mode = self.options["deckel"]
        most = 0 if mode == "none" else self.options["max_deckel"]
        deckel = _capped_int(r, "deckel", most, "Die Zahl der Deckel", "Bei dieser Regel gibt es keine Deckel.")
        if mode == "none":
            return 0
        if not rnd.deckel and deckel:
            # 001 §5 "Bei den Spezialrunden wird ohne Deckeln gespielt"; §8.4 the same for the Bockspiel.
            raise EngineError("not_allowed", "In dieser Runde wird ohne Deckel gespielt.", "deckel")
        if mode == "pflicht" and rnd.deckel and not deckel and game.kind not in ("ramsch", "sie") and not tout:
            # 001 §4.4 Dauerdeckel: without a Deckel a Mungo is played, unless someone has Tout or Sie.
            raise EngineError(
                "deckel_required",
                "Ohne Deckel wird ein Mungo gespielt (Dauerdeckel); nur Tout und Sie gehen ohne Deckel.",
                "deckel",
            )
        return deckel

    def _multiply(
        self, total: int, lines: list[Line], *, kontra: int, deckel: int, bock: int, special_solo: bool
    ) -> tuple[int, int]:
        """Apply the doublings in a fixed order; returns (price, table multiplier)."""
        for i in range(kontra):
            total *= 2
            lines.append(Line(f"{self.KONTRA_LABELS[min(i, len(self.KONTRA_LABELS) - 1)]} ×2", factor=2))
        if self.options["deckel_counts"]:
            for _ in range(deckel):
                total *= 2
                lines.append(Line("Deckel ×2", factor=2))
        multiplier = 1
        if special_solo:
            multiplier *= 2
            lines.append(Line("Solo in der Sonderrunde wie Bockspiel ×2", factor=2))
        for _ in range(bock):
            multiplier *= 2
            lines.append(Line("Bock ×2", factor=2))
        return total * multiplier, multiplier

    def _read_suit(self, r: HandReader, game: Game) -> str | None:
        if not game.needs_suit:
            return None
        value = r.get("suit")
        if isinstance(value, str):
            value = SUIT_ALIASES.get(value.lower(), value.lower())
        if value not in SUITS:
            if value is None:
                raise EngineError("missing_field", f"Beim {game.label} fehlt die Trumpffarbe.", "suit")
            raise EngineError("invalid_value", f"Trumpffarbe muss eine von {', '.join(SUITS)} sein.", "suit")
        return value

    def _read_kontra(self, r: HandReader, *, allowed: bool) -> tuple[int, str | None]:
        kontra = _capped_int(
            r, "kontra", self.options["max_kontra"], "Die Zahl der Stöße", "Bei dieser Regel gibt es keine Stöße."
        )
        if kontra and not allowed:
            raise EngineError("not_allowed", "Beim Muss-Spiel ist kein Stoß erlaubt (003 §3.3).", "kontra")
        last = r.choice("last_kontra", SIDES, required=False)
        if kontra and last is None:
            raise EngineError("missing_field", "Wer zuletzt gestoßen hat (last_kontra), fehlt.", "last_kontra")
        if kontra:
            expected = last_kontra(kontra)
            if last != expected:
                msg = f"Bei {kontra} Stößen kam der letzte von der Seite '{expected}', nicht '{last}'."
                raise EngineError("inconsistent", msg, "last_kontra")
        return kontra, (last if kontra else None)

    def _read_play(self, r: HandReader) -> tuple[int | None, int | None, str | None]:
        augen = r.int("augen", 0, 120, default=None, label="Die Augenzahl")
        tricks = r.int("tricks", 0, 8, default=None, label="Die Stichzahl")
        result = r.choice("result", RESULTS, required=False)
        if augen is not None and tricks is not None:
            if tricks == 0 and augen != 0:
                raise EngineError("inconsistent", "Ohne Stich kann die Partei keine Augen haben.", "augen")
            if tricks == 8 and augen != 120:
                raise EngineError("inconsistent", "Mit allen Stichen hat die Partei alle 120 Augen.", "augen")
        return augen, tricks, result

    def _two_sided(self, r: HandReader, game: Game, rnd: Round, bock: int) -> HandResult:
        seats = r.seats
        declarer = r.seat("declarer")
        partner = None
        if game.kind == "partner":
            partner = r.seat("partner")
            if partner == declarer:
                raise EngineError("invalid_value", "Spieler und Mitspieler müssen verschieden sein.", "partner")
            r.choice("called", CALLABLE, required=False)
            if r.bool("renonce") and not self.options["renonce"]:
                raise EngineError("not_allowed", "Renonce ist bei dieser Regel nicht erlaubt.", "renonce")
        muss = game.kind == "partner" and r.bool("muss_spiel")
        if muss and not self.options["muss_spiel"]:
            raise EngineError("not_allowed", "Muss-Spiel ist bei dieser Regel nicht vorgesehen.", "muss_spiel")
        suit = self._read_suit(r, game)
        tout = r.bool("tout")
        if tout and game.kind != "solo":
            raise EngineError("not_allowed", f"Tout gibt es nur bei Solospielen, nicht beim {game.label}.", "tout")
        kontra, last_kontra = self._read_kontra(r, allowed=not muss and game.kind != "sie")
        deckel = self._deckel(r, game, tout, rnd)
        max_lauf = game.max_laufende(self.options["laufende_ober_unter_only"])
        if game.kind == "sie":
            # 001 §4.2.4: "Laufende: die acht Buben" — a Sie always has exactly eight.
            laufende = r.get("laufende", 8)
            if laufende != 8:
                raise EngineError("out_of_range", "Beim Sie sind es immer acht Laufende (001 §4.2.4).", "laufende")
        else:
            laufende = _capped_int(
                r, "laufende", max_lauf, "Die Zahl der Laufenden", f"Beim {game.label} gibt es keine Laufenden."
            )
        bid = self._read_bid(r, game, tout, rnd)

        augen, tricks, result = (None, None, None) if game.kind == "sie" else self._read_play(r)
        won, schneider, schwarz = self._decide(
            game, tout, augen, tricks, result, bid, rnd.bid_reaches, kontra, last_kontra
        )

        lines: list[Line] = []
        base = self._base_price(game)
        total = base
        lines.append(Line(f"{game.label}{' ' + SUIT_LABELS[suit] if suit else ''}", base))
        if bid is not None and game.kind == "bettel":
            # 001 §5.3: "für jede Reizstufe (2 Augen) muss eine Karte offen auf den Tisch gelegt werden".
            lines.append(Line(f"Gereizt bis {bid}: {(bid - 60) // 2} Karten offen"))
        pays_schneider = game.kind in ("partner", "solo") and not tout
        if pays_schneider and schneider:
            total += self.options["price_schneider"]
            lines.append(Line("Schneider", self.options["price_schneider"]))
            # 001 §6.2: Schwarz is only paid where there is a Schneider as well.
            if schwarz:
                total += self.options["price_schwarz"]
                lines.append(Line("Schwarz", self.options["price_schwarz"]))
        threshold = self.options["laufende_from_short"] if game.short_run else self.options["laufende_from"]
        paid_laufende = laufende if game.kind != "bettel" and laufende >= threshold else 0
        if paid_laufende:
            amount = paid_laufende * self.options["price_laufende"]
            total += amount
            lines.append(Line(f"{paid_laufende} Laufende", amount))
        if tout:
            total *= self.options["tout_factor"]
            lines.append(Line(f"Tout ×{self.options['tout_factor']}", factor=self.options["tout_factor"]))
        if game.kind == "sie":
            total *= self.options["sie_factor"]
            lines.append(Line(f"Sie ×{self.options['sie_factor']}", factor=self.options["sie_factor"]))
        special_solo = rnd.solo_doubled and game.kind != "partner"
        price, multiplier = self._multiply(
            total, lines, kontra=kontra, deckel=deckel, bock=bock, special_solo=special_solo
        )
        price *= self._unit_factor()

        team = {declarer, partner} if partner else {declarer}
        payouts: dict[str, int] = {}
        for seat in seats:
            sign = 1 if (seat in team) == won else -1
            share = 3 if (partner is None and seat == declarer) else 1
            payouts[seat] = sign * share * price
        outcome = Outcome(
            game=game.name,
            declarer=declarer,
            partner=partner,
            declarer_won=won,
            augen=augen,
            schneider=schneider and pays_schneider,
            schwarz=schwarz,
            laufende=paid_laufende,
            kontra=kontra,
            last_kontra=last_kontra,
            deckel=deckel,
            tout=tout,
            suit=suit,
            solo=partner is None,
        )
        winner = "declarer" if won else "opponents"
        return HandResult(self.unit(), winner, payouts, tuple(lines), outcome, price, multiplier)

    def _read_bid(self, r: HandReader, game: Game, tout: bool, rnd: Round) -> int | None:
        """The bid of the Gardareizrunde (001 §5.3) or of Steigern (003 §2.1.1), checked against the
        steps the rules allow; ``None`` where the hand has no bid."""
        if rnd.bid_reaches:
            if game.kind not in ("solo", "bettel"):
                return None
            bid = r.get("bid")
            if bid is None:
                raise EngineError(
                    "missing_field",
                    f"In der Gardareizrunde wird um das Spiel gereizt: beim {game.label} fehlt das Gebot"
                    " (62, 64, … 120).",
                    "bid",
                )
            bid = check_int(bid, 0, 120, "bid", "Das Gebot")
            if bid < 62 or bid % 2:
                raise EngineError(
                    "invalid_value",
                    f"Gereizt wird ab 62 in Schritten von 2 Augen (62, 64, … 120); {bid} gibt es nicht (001 §5.3).",
                    "bid",
                )
            if game.kind == "bettel" and bid > 76:
                raise EngineError(
                    "not_allowed", "Ab 78 gereizten Augen darf kein Bettel mehr gespielt werden (001 §5.3).", "bid"
                )
            return bid
        if not self.options["steigern"] or game.kind != "solo" or tout:
            return None
        bid = r.int("bid", 70, 120, default=None, label="Das Gebot")
        if bid is not None and bid % 10:
            raise EngineError(
                "invalid_value",
                f"Gesteigert wird in Zehnern: 70, 80, 90, 100, 110, 120; {bid} gibt es nicht (003 §2.1.1).",
                "bid",
            )
        return bid

    def _base_price(self, game: Game) -> int:
        if game.kind == "partner":
            return self.options["price_rufspiel"]
        if game.kind == "bettel":
            return self.options["price_bettel"]
        return self.options["price_solo"]

    def _decide(
        self,
        game: Game,
        tout: bool,
        augen: int | None,
        tricks: int | None,
        result: str | None,
        bid: int | None,
        bid_reaches: bool,
        kontra: int,
        last_kontra: str | None,
    ) -> tuple[bool, bool, bool]:
        """Who won, and whether the losing side is Schneider / Schwarz."""
        if game.kind == "sie":
            return True, False, False
        if result is not None:
            r_won = result.startswith("won")
            r_schneider = result.endswith(("schneider", "schwarz"))
            r_schwarz = result.endswith("schwarz")
        if game.kind == "bettel" or tout:
            # Bettel: the declarer must take no trick; Tout: must take all (001 §4.2.3/§4.2.5).
            if tricks is None:
                if result is None:
                    raise EngineError(
                        "missing_field", "Die Stiche (tricks) oder das Ergebnis (result) fehlen.", "tricks"
                    )
                return r_won, False, False
            won = tricks == 0 if game.kind == "bettel" else tricks == 8
            if result is not None and r_won != won:
                raise EngineError("inconsistent", "Ergebnis und Stiche passen nicht zusammen.", "result")
            return won, False, False
        if augen is None:
            if result is None:
                raise EngineError("missing_field", "Die Augen (augen) oder das Ergebnis (result) fehlen.", "augen")
            if tricks is not None and r_schwarz and tricks not in (0, 8):
                raise EngineError("inconsistent", "Schwarz heißt: eine Partei hat keinen Stich.", "result")
            return r_won, r_schneider, r_schwarz
        need = self.options["win_augen"]
        if bid is not None:
            # 003 §2.1.3: a bid of 70 needs 71; Gardareiz (001 §5.3) needs the bid itself.
            need = bid if bid_reaches else min(bid + 1, 120)
        won = augen >= need
        spritze = self.options["spritze_uebernimmt"] and kontra > 0
        if spritze and augen == 60 and need == 61:
            # 001 §6.2 "Spritze übernimmt das Spiel": at 60:60 the side that gave the last Spritze loses.
            won = last_kontra == "opponents"
        losing_side = "opponents" if won else "declarer"
        losing_augen = 120 - augen if won else augen
        limit = self.options["schneider_opponents_max" if won else "schneider_declarer_max"]
        schneider = losing_augen <= limit or (spritze and losing_augen == 30 and last_kontra == losing_side)
        schwarz = tricks is not None and tricks == (8 if won else 0)
        if result is not None and (r_won, r_schneider) != (won, schneider):
            raise EngineError("inconsistent", "Ergebnis und Augen passen nicht zusammen.", "result")
        if result is not None and tricks is not None and r_schwarz != schwarz:
            raise EngineError("inconsistent", "Ergebnis und Stiche passen nicht zusammen.", "result")
        return won, schneider, schwarz or bool(result and r_schwarz)

    # --- Mungo / Ramsch / Leasters --------------------------------------------------------

    def _all_against_all(self, r: HandReader, game: Game, rnd: Round, bock: int) -> HandResult:
        seats = r.seats
        tricks = r.per_player_ints("tricks_by_player", 0, 8, total=8, required=False)
        augen = self._augen_or_order(r, tricks, sweep_counts=game.kind == "ramsch")
        spritzer = r.names("kontra_by")
        if game.kind == "ramsch" and not self.options["max_kontra"] and spritzer:
            raise EngineError("not_allowed", "Bei dieser Regel gibt es keine Spritzen.", "kontra_by")
        deckel = self._deckel(r, game, False, rnd)
        lines: list[Line] = []
        base = self.options["price_leasters" if game.kind == "leasters" else "price_mungo"]
        label = "Ramsch" if (game.kind == "ramsch" and self.options["mungo_mode"] == "ramsch") else game.label
        lines.append(Line(label, base))
        price, multiplier = self._multiply(
            base, lines, kontra=len(spritzer), deckel=deckel, bock=bock, special_solo=False
        )
        price *= self._unit_factor()
        # Durchmarsch: one player took every trick (without trick counts: all 120 Augen).
        sweep = next(
            (s for s in seats if (tricks[s] == 8 if tricks else augen[s] == 120)),
            None,
        )
        if game.kind == "leasters":
            winners, losers = self._narrow(r, seats, augen, tricks, worst=False), None
        elif self.options["mungo_mode"] == "ramsch":
            if sweep:
                winners, losers = [sweep], None  # 003 §3.1: a Durchmarsch wins alone
                lines.append(Line(f"Durchmarsch von {sweep}"))
            else:
                winners, losers = None, self._narrow(r, seats, augen, tricks, worst=True)
        else:
            return self._mungo(seats, augen, sweep, set(spritzer), price, multiplier, lines, deckel, game)
        payouts = dict.fromkeys(seats, 0)
        if winners is not None:
            losers = [s for s in seats if s not in winners]
        else:
            assert losers is not None
            winners = [s for s in seats if s not in losers]
        for winner in winners:
            for loser in losers:
                payouts[winner] += price
                payouts[loser] -= price
        outcome = Outcome(game=game.name, deckel=deckel, kontra=len(spritzer), schwarz=sweep is not None)
        return HandResult(self.unit(), tuple(winners), payouts, tuple(lines), outcome, price, multiplier)

    def _augen_or_order(self, r: HandReader, tricks: Mapping[str, int] | None, *, sweep_counts: bool) -> dict[str, int]:
        """Each player's Augen (``augen_by_player``), or where nobody counted their place in
        ``augen_order`` (spec §2.1: 0 = fewest, equals share a place). Every comparison the
        outcome makes (fewest, most, equal, 120 = every trick) reads the same from either, except
        the Durchmarsch: three equal at the bottom may hold 0 Augen each or 20 each, so there the
        order alone is refused unless ``tricks_by_player`` tells (``sweep_counts``: the game has one)."""
        seats = r.seats
        order = r.order("augen_order")
        if order is None or r.has("augen_by_player"):
            augen = r.per_player_ints("augen_by_player", 0, 120, total=120)
            assert augen is not None
            if tricks:
                for seat in seats:
                    if tricks[seat] == 0 and augen[seat]:
                        raise EngineError(
                            "inconsistent", f"{seat} hat keinen Stich, aber Augen.", f"augen_by_player.{seat}"
                        )
            if order is not None and [set(g) for g in order] != [set(g) for g in augen_groups(augen)]:
                raise EngineError("inconsistent", "Reihenfolge und Augen passen nicht zusammen.", "augen_order")
            return augen
        places = {player: place for place, group in enumerate(order) for player in group}
        if tricks:
            for seat in seats:
                if tricks[seat] == 0 and places[seat]:
                    raise EngineError(
                        "inconsistent",
                        f"{seat} hat keinen Stich, also keine Augen: ganz vorn einordnen.",
                        "augen_order",
                    )
            return places  # the Durchmarsch is read from the tricks
        if sweep_counts and len(order) == 2 and len(order[0]) == len(seats) - 1:
            last = order[1][0]
            raise EngineError(
                "missing_field",
                f"Drei gleich wenige Augen: ob {last} alle Stiche gemacht hat, sagen nur die Augen je Spieler.",
                "augen_by_player",
            )
        return places

    def _mungo(
        self,
        seats: tuple[str, ...],
        augen: dict[str, int],
        sweep: str | None,
        spritzer: set[str],
        price: int,
        multiplier: int,
        lines: list[Line],
        deckel: int,
        game: Game,
    ) -> HandResult:
        """001 §4.3.2: the two with the fewest Augen win; ties and Spritzen as the seed says."""
        payouts = dict.fromkeys(seats, 0)
        if sweep:
            # "Sollte ein Spieler alle Stiche machen, muss er allein an alle zahlen."
            lines.append(Line(f"{sweep} macht alle Stiche und zahlt an alle"))
            for seat in seats:
                if seat != sweep:
                    payouts[seat] += price
                    payouts[sweep] -= price
        elif (lone := _lone_non_spritzer(seats, augen, spritzer)) is not None:
            # "Ausnahme ist wieder, wenn einer von den drei nicht gespritzt hat und die anderen zwei
            # schon. Dann ist der Nicht-Spritzer Sieger und die zwei Spritzer Verlierer." With the three
            # tied at the bottom the fourth, most Augen, loses as well: one winner against three
            # losers, settled like the Durchmarsch the other way round — each loser pays him the price.
            lines.append(Line(f"Gleichstand zu dritt: {lone} hat nicht gespritzt und gewinnt allein"))
            for seat in seats:
                if seat != lone:
                    payouts[seat] -= price
                    payouts[lone] += price
        else:
            # Spritze übernimmt das Spiel: among equal Augen the one who gave a Spritze ranks worse.
            key = {s: (augen[s], s in spritzer) for s in seats}
            ranked = sorted(seats, key=lambda s: key[s])
            boundary = key[ranked[1]]
            if boundary != key[ranked[2]]:
                for s in ranked[:2]:
                    payouts[s] = price
                for s in ranked[2:]:
                    payouts[s] = -price
            else:
                tied = [s for s in ranked if key[s] == boundary]
                others = [s for s in ranked if key[s] != boundary]
                if len(tied) == 2:
                    # "gelten beide als Gewinner und gleichzeitig Verlierer und verrechnen untereinander nichts"
                    payouts[ranked[0]], payouts[ranked[3]] = price, -price
                    lines.append(Line(f"Gleichstand {tied[0]}/{tied[1]}: verrechnen nichts"))
                elif len(tied) == 3:
                    # "zahlen/erhalten alle 3 den aufgeteilten Betrag … auf volle 0,10 € aufgerundet"
                    amount = price * (2 if self.options["mungo_three_tie"] == "double" else 1)
                    step = self.options["mungo_round_to"] * self._unit_factor()
                    share = -(-amount // (3 * step)) * step
                    fourth = others[0]
                    sign = 1 if key[fourth] < boundary else -1
                    payouts[fourth] = sign * 3 * share
                    for s in tied:
                        payouts[s] = -sign * share
                    lines.append(Line(f"Gleichstand dreier Spieler: je {share} aufgeteilt"))
                else:
                    lines.append(Line("Alle gleich: keine Zahlung"))
        winners = tuple(s for s in seats if payouts[s] > 0)
        outcome = Outcome(game=game.name, deckel=deckel, kontra=len(spritzer), schwarz=sweep is not None)
        return HandResult(self.unit(), winners, payouts, tuple(lines), outcome, price, multiplier)

    def _narrow(
        self,
        r: HandReader,
        seats: tuple[str, ...],
        augen: dict[str, int],
        tricks: dict[str, int] | None,
        *,
        worst: bool,
    ) -> list[str]:
        """003 §3.1 (Ramsch, ``worst``: who loses) and §3.4 (Leasters: who wins): compare Augen,
        then tricks, then trumps in the tricks, then a trump card: in the Ramsch the highest trump in
        a player's tricks loses ("Wer den höheren Trumpf in seinen Stichen hat, verliert"), in the
        Leasters the smallest wins ("Wer den kleinsten Trumpf in seinen Stichen hat, gewinnt"). A
        later criterion is only required while players are still tied; players tied after all of
        them (also players without any trump, who have no card to compare) share the result."""
        card_field = "top_trump_by_player" if worst else "low_trump_by_player"
        trumps = r.per_player_ints("trumps_by_player", 0, 14, required=False, complete=False)
        cards = _read_trump_cards(r, card_field, seats)
        _check_trump_data(trumps, cards, tricks, card_field, highest=worst)
        # Higher trump = larger number; a player without trump has no card to compare.
        values = None if cards is None else {s: 100 - rank for s, rank in cards.items() if rank is not None}
        group = list(seats)
        criteria = (
            ("augen_by_player", augen),
            ("tricks_by_player", tricks),
            ("trumps_by_player", trumps),
            (card_field, values),
        )
        # Ramsch: the most of everything and the higher trump lose; Leasters: the fewest of
        # everything and the smallest trump win.
        pick = max if worst else min
        for field, criterion in criteria:
            if len(group) == 1:
                break
            if field == card_field and trumps is not None and all(trumps.get(s) == 0 for s in group):
                break  # tied without a single trump: nothing left to compare
            if criterion is None or any(s not in criterion for s in group):
                raise EngineError("missing_field", f"Gleichstand: zur Entscheidung fehlt {field}.", field)
            best = pick(criterion[s] for s in group)
            group = [s for s in group if criterion[s] == best]
        return group

    # --- Fehler (002 §11) ----------------------------------------------------------------

    def _fehler(self, r: HandReader, game: Game) -> HandResult:
        if not self.options["fehler"]:
            raise EngineError(
                "not_allowed", "Eine Strafwertung (Fehler) ist bei dieser Regel nicht vorgesehen.", "fehler"
            )
        raw = r.get("fehler")
        if not isinstance(raw, Mapping):
            raise EngineError("invalid_type", 'Erwartet ein Objekt {"by": Name}.', "fehler")
        sub = HandReader(raw, r.seats)
        offender = sub.seat("by")
        # 002 §11: whoever exposes his cards before the referee comes takes the offender's penalty.
        exposed = sub.seat("exposed_by", required=False)
        try:
            sub.finish()
        except EngineError as exc:
            raise exc.with_prefix("fehler") from None
        if game.kind not in ("partner", "solo", "bettel"):
            raise EngineError("not_allowed", f"Für {game.label} gibt es keine Strafwertung.", "game")
        declarer = r.seat("declarer")
        partner = r.seat("partner") if game.kind == "partner" else None
        if partner == declarer:
            raise EngineError("invalid_value", "Spieler und Mitspieler müssen verschieden sein.", "partner")
        # "Die Anzahl der Stiche, der Spiel- und Punktestand oder ein Stoss spielen dabei keine Rolle."
        for ignored in (
            "augen",
            "tricks",
            "result",
            "kontra",
            "last_kontra",
            "laufende",
            "called",
            "suit",
            "tout",
            "deckel",
        ):
            r.get(ignored)
        guilty = exposed or offender
        unit = self._unit_factor()
        payouts = dict.fromkeys(r.seats, 0)
        lines: list[Line] = []
        if game.kind == "partner":
            team = {declarer, partner}
            mine = team if guilty in team else set(r.seats) - team
            penalty = self.options["fehler_rufspiel"]
            payouts[guilty] = -penalty * unit
            for seat in r.seats:
                if seat not in mine:
                    payouts[seat] = penalty // 2 * unit
            payouts[guilty] -= sum(payouts.values())  # keeps an odd penalty zero-sum
        else:
            penalty = self.options["fehler_solo"]
            payouts[guilty] = -penalty * unit
            if guilty == declarer:
                for seat in r.seats:
                    if seat != declarer:
                        payouts[seat] = penalty // 3 * unit
                payouts[guilty] = -sum(v for s, v in payouts.items() if s != guilty)
            else:
                payouts[declarer] = penalty * unit
        lines.append(Line(f"Fehler von {guilty}: {penalty} Minuspunkte", -penalty * unit))
        declarer_side = {declarer, partner} if partner else {declarer}
        outcome = Outcome(
            game=game.name,
            declarer=declarer,
            partner=partner,
            declarer_won=guilty not in declarer_side,
            penalty=True,
            solo=partner is None,
        )
        winner = "opponents" if guilty in declarer_side else "declarer"
        return HandResult(self.unit(), winner, payouts, tuple(lines), outcome, penalty * unit)


BASE_DEFAULTS: dict[str, Any] = {
    "price_rufspiel": 20,
    "price_solo": 50,
    "price_bettel": 50,
    "price_mungo": 20,
    "price_leasters": 20,
    "price_schneider": 10,
    "price_schwarz": 10,
    "price_laufende": 10,
    "laufende_from": 3,
    "laufende_from_short": 2,
    "laufende_ober_unter_only": False,
    "win_augen": 61,
    "schneider_declarer_max": 30,
    "schneider_opponents_max": 29,
    "spritze_uebernimmt": False,
    "max_kontra": 2,
    "deckel": "optional",
    "deckel_counts": True,
    "max_deckel": 4,
    "tout_factor": 2,
    "sie_factor": 4,
    "games": ("rufspiel", "solo", "wenz", "geier", "farbwenz", "farbgeier", "bettel", "sie"),
    "mungo_mode": "ramsch",
    "mungo_three_tie": "price",
    "mungo_round_to": 10,
    "special_rounds": False,
    "steigern": False,
    "renonce": False,
    "muss_spiel": False,
    "fehler": False,
    "fehler_rufspiel": 40,
    "fehler_solo": 90,
    "cents_per_unit": 0,
    "plus_points_only": False,
}


class Standard(SchafkopfRules):
    NAME = "standard"
    TITLE = "Bayerischer Schafkopf (Standardtarif)"
    SEED = "spec §1"


class Allgaeu(SchafkopfRules):
    NAME = "allgaeu"
    TITLE = "Schafkopf-Freunde Allgäu (Geld)"
    SEED = "001"
    KONTRA_LABELS = ("Schuss", "Re", "Bock", "Hirsch")  # 001 §6.2
    DEFAULTS: ClassVar[dict[str, Any]] = {
        # 001 §4: Grundpreise; §6.1 Aufschlag.
        "price_rufspiel": 10,
        "price_solo": 25,
        "price_bettel": 25,
        "price_mungo": 10,
        "price_leasters": 10,
        "price_schneider": 5,
        "price_schwarz": 5,
        "price_laufende": 5,
        # 001 §2.2 Laufende are only Ober and Unter; Schneider "weniger als 30".
        "laufende_ober_unter_only": True,
        "schneider_declarer_max": 29,
        "spritze_uebernimmt": True,
        "max_kontra": 4,
        "deckel": "pflicht",
        "games": ("rufspiel", "solo", "wenz", "bettel", "mungo", "sie"),
        "mungo_mode": "mungo",
        "special_rounds": True,
        "fehler_rufspiel": 20,
        "fehler_solo": 45,
    }


class AllgaeuMeisterschaft(SchafkopfRules):
    NAME = "allgaeu-meisterschaft"
    TITLE = "Zockmeisterschaft der Schafkopf-Freunde Allgäu (Punkte)"
    SEED = "001 §11"
    UNIT = "point"
    KONTRA_LABELS = ("Schuss", "Re", "Bock", "Hirsch")
    DEFAULTS: ClassVar[dict[str, Any]] = {
        **Allgaeu.DEFAULTS,
        # 001 §11.5 Punktwertung.
        "price_rufspiel": 2,
        "price_solo": 5,
        "price_bettel": 5,
        "price_mungo": 1,
        "price_leasters": 1,
        "price_schneider": 1,
        "price_schwarz": 1,
        "price_laufende": 1,
        # 001 §11.4: "Die Deckel gehen aber nicht in die Punktwertung mit ein" — but without one
        # a Pflicht-Mungo is still played; no special rounds.
        "deckel_counts": False,
        "special_rounds": False,
        "mungo_round_to": 1,
        "fehler_rufspiel": 4,
        "fehler_solo": 9,
    }

    def _round(self, context: Context) -> Round:
        if context.bock:
            raise EngineError(
                "not_allowed", "In der Meisterschaft gibt es keine Bockrunden (001 §11.4).", "context.bock"
            )
        return super()._round(context)


class ReinerSchafkopf(SchafkopfRules):
    NAME = "reiner-schafkopf"
    TITLE = "Der reine Schafkopf (Zähleinheiten)"
    SEED = "002"
    UNIT = "unit"
    KONTRA_LABELS = ("Stoß", "Re")  # 002 §8
    DEFAULTS: ClassVar[dict[str, Any]] = {
        # 002 §7, §9, §10: Rufspiel 1, Schneider +1, Schwarz +1, Solo/Wenz 5, Laufende 1 each.
        "price_rufspiel": 1,
        "price_solo": 5,
        "price_bettel": 5,
        "price_mungo": 1,
        "price_leasters": 1,
        "price_schneider": 1,
        "price_schwarz": 1,
        "price_laufende": 1,
        "max_kontra": 2,
        "deckel": "none",
        "games": ("rufspiel", "solo", "wenz"),
        "fehler": True,
        "fehler_rufspiel": 4,
        "fehler_solo": 9,
        "mungo_round_to": 1,
    }
