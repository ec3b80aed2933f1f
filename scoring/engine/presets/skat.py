"""Skat by the Internationale Skatordnung (``../shared/rules/skat.md``; sections named ``skat.md §n``
and ``ISkO n.n``): the game value, the list entry and — preset ``skat`` — the settlement of the
Spielliste between the players. Seeger-Fabian (preset ``skat-seeger``) is the subclass in
``skat_seeger``: the same game value and list entry, its own payouts.

One hand is scored from what the Schreiber records (spec §2.4): the game, the declarer, mit/ohne
how many Spitzen, Hand, Ouvert, an announcement, the declarer's Augen (the Skat included) or the
result, the side that took no trick, the bid, Kontra/Re. The house rules (skat.md §7) are options,
off by default: Kontra/Re, Bock by the triggers the option ``bock`` names, Ramsch with Jungfrau,
Durchmarsch and Schieberamsch, only the Buben as Spitzen.

It does not replay tricks or check the bidding (who bid what to whom): a bid is only compared with
the value the game reached. It does not decide who deals, who sits out or when a Bock round runs,
nor count lost games for the Verlustspielgeld: that is the evening fold (``scoring.engine.session``
with the table options of ``session_rules``). Readings taken where the rules page leaves room are
marked ``# skat.md §n`` and recorded in docs/rules/skat.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, NamedTuple

from ..core import Context, EngineError, HandResult, Line, ListEntry, OptionSpec, Outcome, RuleSet, zero_sum_check
from ..fields import HandReader, check_int

# skat.md §2: the Grundwerte; the suit games and the Grand by their engine names.
GRUNDWERTE = {"karo": 9, "herz": 10, "pik": 11, "kreuz": 12, "grand": 24}
SUIT_GAMES = ("karo", "herz", "pik", "kreuz")
GAMES = (*SUIT_GAMES, "grand", "null", "ramsch")
GAME_LABELS = {
    "karo": "Karo",
    "herz": "Herz",
    "pik": "Pik",
    "kreuz": "Kreuz",
    "grand": "Grand",
    "null": "Null",
    "ramsch": "Ramsch",
}
# skat.md §3: Null 23, Null Hand 35, Null ouvert 46, Null ouvert Hand 59 — by (hand, ouvert).
NULL_VALUES = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}
NULL_LABELS = {
    (False, False): "Null",
    (True, False): "Null Hand",
    (False, True): "Null ouvert",
    (True, True): "Null ouvert Hand",
}
# skat.md §2: Spitzen 1..11 in a suit game, 1..4 in a Grand (only the Buben are trumps); the
# stages Spiel, Hand, Schneider, Schneider angesagt, Schwarz, Schwarz angesagt, Ouvert.
MAX_SPITZEN_SUIT = 11
MAX_SPITZEN_BUBEN = 4
STAGES = ("Spiel", "Hand", "Schneider", "Schneider angesagt", "Schwarz", "Schwarz angesagt", "Ouvert")
# skat.md §4: every value a game can have, from the lowest bid 18 up to 264 (Grand ouvert mit 4).
REIZWERTE: tuple[int, ...] = tuple(
    sorted(
        {
            *(g * k for g in (9, 10, 11, 12) for k in range(2, MAX_SPITZEN_SUIT + len(STAGES) + 1)),
            *(24 * k for k in range(2, MAX_SPITZEN_BUBEN + len(STAGES) + 1)),
            *NULL_VALUES.values(),
        }
    )
)
LOWEST_BID, HIGHEST_BID = REIZWERTE[0], REIZWERTE[-1]
_REIZWERT_SET = frozenset(REIZWERTE)

RESULTS = ("won", "won_schneider", "won_schwarz", "lost", "lost_schneider", "lost_schwarz")
SIDES = ("declarer", "opponents")
ANNOUNCEMENTS = ("schneider", "schwarz")
TOTAL_AUGEN = 120
WIN_AUGEN = 61  # ISkO 5.2.2: the 61st Auge wins, 60 lose
SCHNEIDER_AUGEN = 30  # ISkO 5.2.3: a side with 30 Augen or fewer is Schneider
SKAT_MOST_AUGEN = 22  # two Asse: all a declarer without a trick can hold (the Skat counts for him)
TRICKS = 10

# skat.md §7 Bock: the triggers a club can choose, each on its own.
BOCK_TRIGGERS = ("6060", "kontra_re_lost", "grand_hand_won", "hundred")
KONTRA_LABELS = ("Kontra ×2", "Re ×2")
MAX_CENTS_PER_POINT = 100  # 1 € per point, the most any club plays for (spec §2.4: an integer ≥ 1)
MAX_GESCHOBEN = 3  # Schieberamsch: each of the three players may pass the Skat on once

LOST_LINE = Line("verloren ×2", factor=-2)  # skat.md §4: a lost game counts twice, against the declarer
OVERBID = "überreizt"
BOCK_LINE = Line("Bock ×2", factor=2)
GESCHOBEN_LINE = Line("geschoben ×2", factor=2)
# The stage lines of each Grundwert, made once: each stage adds one Grundwert.
_STAGE_LINES = {g: {stage: Line(stage, g) for stage in STAGES} for g in set(GRUNDWERTE.values())}
_GRUNDWERT_LINES = {game: Line(f"Grundwert {GAME_LABELS[game]} {g}") for game, g in GRUNDWERTE.items()}
_SPITZEN_LINES = {
    (g, ohne, n): Line(f"{'ohne' if ohne else 'mit'} {n}", n * g)
    for g in set(GRUNDWERTE.values())
    for ohne in (False, True)
    for n in range(1, MAX_SPITZEN_SUIT + 1)
}


class Play(NamedTuple):
    """How the game went, from the declarer's Augen or the result: ``won`` by play (the Augen and
    the announcement; an overbid is decided on top), and whether either side was Schneider or
    took no trick."""

    won: bool
    schneider: bool
    schwarz: bool


class Scored(NamedTuple):
    """A hand's list entry and explanation, before the preset's settlement."""

    lines: list[Line]
    sheet: ListEntry
    outcome: Outcome
    winner: str | tuple[str, ...]


def read_play(augen: int | None, schwarz: str | None, result: str | None, announced: str | None) -> Play:
    """skat.md §2: who won a suit or Grand game and which stages play reached; ``result`` and
    ``schwarz`` beside the Augen must say the same as the Augen (spec §2.4)."""
    if augen is not None:
        where = "schwarz"
        if schwarz is None and result is not None and result.endswith("_schwarz"):
            # The Augen cannot tell a Schwarz (a trick of 7-8-9 holds none); the result beside them can.
            schwarz, where = ("opponents" if result.startswith("won") else "declarer"), "result"
        if schwarz == "opponents" and augen != TOTAL_AUGEN:
            raise EngineError(
                "inconsistent",
                f"Ohne Stich der Gegenspieler hat der Alleinspieler alle 120 Augen, nicht {augen}.",
                where,
            )
        if schwarz == "declarer" and augen > SKAT_MOST_AUGEN:
            raise EngineError(
                "inconsistent",
                f"Ohne Stich hat der Alleinspieler nur die Augen des Skats (höchstens {SKAT_MOST_AUGEN}),"
                f" nicht {augen}.",
                where,
            )
        opp_schwarz, decl_schwarz = schwarz == "opponents", schwarz == "declarer"
        opp_schneider = TOTAL_AUGEN - augen <= SCHNEIDER_AUGEN
        decl_schneider = augen <= SCHNEIDER_AUGEN
        # ISkO 5.2.5: an announcement not reached loses the game.
        reached = announced is None or opp_schwarz or (announced == "schneider" and opp_schneider)
        won = augen >= WIN_AUGEN and reached
        if result is not None:
            implied = result_name(won, opp_schneider if won else decl_schneider, opp_schwarz or decl_schwarz)
            if result != implied:
                raise EngineError(
                    "inconsistent",
                    f"Mit {augen} Augen{_announced_words(announced)} ist das Spiel '{implied}', nicht '{result}'.",
                    "result",
                )
        return Play(won, opp_schneider or decl_schneider, opp_schwarz or decl_schwarz)
    if result is None:
        raise EngineError("missing_field", "Die Augen (augen) oder das Ergebnis (result) fehlen.", "augen")
    won = result.startswith("won")
    level = result.partition("_")[2]  # "", "schneider" or "schwarz"
    side = ("opponents" if won else "declarer") if level == "schwarz" else None
    if schwarz is not None and schwarz != side:
        raise EngineError(
            "inconsistent",
            f"Ergebnis '{result}' und die Partei ohne Stich ({schwarz}) passen nicht zusammen.",
            "schwarz",
        )
    if won and announced == "schneider" and not level:
        raise EngineError(
            "inconsistent", "Schneider angesagt und gewonnen heißt: won_schneider oder won_schwarz.", "result"
        )
    if won and announced == "schwarz" and side is None:
        raise EngineError("inconsistent", "Schwarz angesagt (oder ouvert) und gewonnen heißt: won_schwarz.", "result")
    return Play(won, bool(level), side is not None)


def result_name(won: bool, schneider: bool, schwarz: bool) -> str:
    """The spec's result from the declarer's view: ``won_schneider`` — the opponents are Schneider;
    ``lost_schneider`` — the declarer is."""
    return ("won" if won else "lost") + ("_schwarz" if schwarz else "_schneider" if schneider else "")


def _announced_words(announced: str | None) -> str:
    return f" und {announced.capitalize()} angesagt" if announced else ""


def overbid_value(bid: int, grundwert: int) -> int:
    """ISkO 5.4: the smallest multiple of the Grundwert that is at least the bid."""
    return -(-bid // grundwert) * grundwert


def null_value(hand: bool, ouvert: bool) -> int:
    return NULL_VALUES[(hand, ouvert)]


def check_bid(value: Any, field: str = "bid") -> int:
    """A Reizwert of skat.md §4 (18..264, only values a game can have)."""
    bid = check_int(value, LOWEST_BID, HIGHEST_BID, field, "Das Gebot")
    if bid not in _REIZWERT_SET:
        below = max(v for v in REIZWERTE if v < bid)
        above = min(v for v in REIZWERTE if v > bid)
        raise EngineError(
            "invalid_value",
            f"{bid} ist kein Reizwert: gereizt wird 18, 20, 22, 23, 24, 27 … (hier {below} oder {above}; skat.md §4).",
            field,
        )
    return bid


def settle_list(written: Mapping[str, int], table: tuple[str, ...]) -> dict[str, int]:
    """skat.md §5: every player at the table settles with every other from the list — a player
    gets ``n × own entry − sum of all entries`` (n = 3 or 4, the one sitting out included). For
    a declarer's game that is the entry from each other player: the declarer ``(n − 1) × list``,
    each other ``−list``."""
    n, total = len(table), sum(written.values())
    return {player: n * written.get(player, 0) - total for player in table}


def _sitting_out(r: HandReader) -> str | None:
    """Spec §2.4: at a table of four the dealer who sits out is named in ``sitting_out``; the
    session's own output gives it as a list of one, which is taken too."""
    raw = r.get("sitting_out")
    if isinstance(raw, list) and len(raw) <= 1:
        raw = raw[0] if raw else None
    if raw is None:
        return None
    if not isinstance(raw, str) or not raw.strip():
        raise EngineError("invalid_type", "Erwartet den Namen dessen, der aussetzt.", "sitting_out")
    if raw in r.seats:
        raise EngineError("invalid_value", f"'{raw}' spielt dieses Spiel mit und setzt nicht aus.", "sitting_out")
    return raw


def _option(name: str, default: Any, doc: str, **kw: Any) -> OptionSpec:
    kind = kw.pop("kind", "bool" if isinstance(default, bool) else "int")
    return OptionSpec(name, default, doc, kind=kind, **kw)


COMMON_OPTIONS = (
    _option(
        "kontra_re",
        False,
        "Kontra und Re (Hausregel, skat.md §7): jedes verdoppelt den Spielwert und den Listeneintrag"
        " (kontra: 1 = Kontra, 2 = Re)",
    ),
    _option(
        "bock",
        [],
        "Bockrunden (Hausregel, skat.md §7): nach einem Auslöser zählt die nächste Runde (ein Spiel je Spieler"
        " am Tisch) doppelt. 6060 = ein Spiel 60:60 verloren, kontra_re_lost = ein Spiel nach Kontra und Re"
        " verloren, grand_hand_won = ein Grand Hand gewonnen, hundred = ein Listenstand wird ein Vielfaches"
        " von 100; true = alle",
        kind="list",
        choices=BOCK_TRIGGERS,
    ),
    _option(
        "ramsch",
        False,
        "Ramsch, wenn alle passen (Hausregel, skat.md §7): wer die meisten Augen hat, wird mit so vielen"
        " Punkten minus geschrieben",
    ),
    _option("ramsch_jungfrau", True, "Ramsch: ein Spieler ohne Stich (Jungfrau) verdoppelt den Wert"),
    _option("ramsch_durchmarsch", True, "Ramsch: wer alle Stiche macht (Durchmarsch), wird mit +120 geschrieben"),
    _option(
        "schieberamsch",
        False,
        "Schieberamsch: jeder, der den Skat ungesehen weitergibt, verdoppelt den Wert des Ramschs (geschoben)",
    ),
    _option(
        "spitzen_only_buben",
        False,
        "Nur die Buben zählen als Spitzen (manche Vereins- und Preislisten): im Farbspiel höchstens mit/ohne 4",
    ),
)


class SkatRules(RuleSet):
    """The game value and list entry of skat.md §2–§4 and §7; subclasses settle them
    (``_settle``): ``skat`` between the players, ``skat-seeger`` by Seeger-Fabian."""

    FAMILY = "skat"
    UNIT = "point"
    SEED = "rules/skat.md"
    SEAT_COUNTS = (3,)
    SITTING_OUT_SETTLES = True
    KEEPS_LIST = True
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = COMMON_OPTIONS

    @classmethod
    def build(cls, overrides: Mapping[str, Any] | None = None) -> RuleSet:
        # ``"bock": true`` switches every trigger on, ``false`` none: a club that "plays Bock"
        # without naming triggers plays all of skat.md §7's.
        values = dict(overrides or {})
        if isinstance(values.get("bock"), bool):
            values["bock"] = list(BOCK_TRIGGERS) if values["bock"] else []
        return super().build(values)

    # --- what the entry form and the evening need ----------------------------------------------

    def games(self) -> tuple[str, ...]:
        """The games a hand may be, best first as a Skat player names them."""
        return GAMES if self.options["ramsch"] else GAMES[:-1]

    def spitzen_max(self, game: str) -> int:
        """The most Spitzen ``game`` can be played mit or ohne; 0 for Null and Ramsch."""
        if game not in GRUNDWERTE:
            return 0
        if game == "grand" or self.options["spitzen_only_buben"]:
            return MAX_SPITZEN_BUBEN
        return MAX_SPITZEN_SUIT

    # --- scoring -----------------------------------------------------------------------------------

    def score(self, hand: Mapping[str, Any], seats: tuple[str, ...], context: Context) -> HandResult:
        if len(seats) != 3:
            raise EngineError(
                "invalid_value",
                f"Beim Skat spielen drei Spieler jedes Spiel, nicht {len(seats)}; bei vieren setzt der Geber aus"
                " (sitting_out).",
                "seats",
            )
        bock = self._bock(context)
        r = HandReader(hand, seats)
        out = _sitting_out(r)
        game = r.choice("game", GAMES)
        if game == "ramsch":
            if not self.options["ramsch"]:
                raise EngineError(
                    "not_allowed",
                    "Ramsch spielt diese Regel nicht; passen alle, wird neu gegeben (Option ramsch).",
                    "game",
                )
            scored = self._ramsch(r, bock)
        elif game == "null":
            scored = self._null(r, bock)
        else:
            scored = self._suit_or_grand(r, game, bock)
        r.finish()
        return self._settle(scored, (*seats, out) if out else seats, 2**bock)

    def _settle(self, scored: Scored, table: tuple[str, ...], multiplier: int) -> HandResult:
        raise NotImplementedError

    def _bock(self, context: Context) -> int:
        if context.round not in ("normal", "bockrunde"):
            raise EngineError(
                "invalid_value", f"Beim Skat gibt es keine Runde '{context.round}' (nur Bockrunden).", "context.round"
            )
        bock = max(context.bock, 1 if context.round == "bockrunde" else 0)
        if bock and not self.options["bock"]:
            raise EngineError("not_allowed", "Bockrunden spielt diese Regel nicht (Option bock).", "context.bock")
        return bock

    def _read_kontra(self, r: HandReader) -> int:
        kontra = r.int("kontra", 0, len(KONTRA_LABELS), default=0, label="Kontra/Re (1 = Kontra, 2 = Re)")
        if kontra and not self.options["kontra_re"]:
            raise EngineError("not_allowed", "Kontra und Re spielt diese Regel nicht (Option kontra_re).", "kontra")
        return kontra

    def _doublings(self, value: int, lines: list[Line], kontra: int, bock: int) -> int:
        """skat.md §7: Kontra, Re and each Bock double the game value (and so the list entry)."""
        for label in KONTRA_LABELS[:kontra]:
            lines.append(Line(label, factor=2))
            value *= 2
        for _ in range(bock):
            lines.append(BOCK_LINE)
            value *= 2
        return value

    def _declared(self, lines: list[Line], value: int, overbid: bool, outcome: Outcome) -> Scored:
        """The list entry of a declarer's game: +value won, −2 × value lost (skat.md §4)."""
        declarer, won = outcome.declarer, bool(outcome.declarer_won)
        assert declarer is not None
        if not won:
            lines.append(LOST_LINE)
        sheet = ListEntry(value, won, overbid, {declarer: value if won else -2 * value})
        return Scored(lines, sheet, outcome, "declarer" if won else "opponents")

    def _suit_or_grand(self, r: HandReader, game: str, bock: int) -> Scored:
        declarer = r.seat("declarer")
        spitzen = self._read_spitzen(r, game)
        ohne = r.bool("ohne")
        hand = r.bool("hand")
        ouvert = r.bool("ouvert")
        announced = r.choice("announced", ANNOUNCEMENTS, required=False)
        if announced and not hand:
            raise EngineError(
                "not_allowed", "Schneider oder Schwarz ansagen kann nur, wer Hand spielt (skat.md §2).", "announced"
            )
        if ouvert and not hand:
            raise EngineError(
                "not_allowed", "Ouvert gibt es im Farb- und Grandspiel nur aus der Hand (skat.md §2).", "ouvert"
            )
        if ouvert and announced == "schneider":
            raise EngineError("inconsistent", "Ouvert gespielt heißt Schwarz angesagt (ISkO 5.2.6).", "announced")
        if ouvert:
            announced = "schwarz"  # ISkO 5.2.6: an open suit or Grand game is Schwarz angesagt
        kontra = self._read_kontra(r)
        bid = check_bid(r.get("bid")) if r.has("bid") else None
        augen = r.int("augen", 0, TOTAL_AUGEN, default=None, label="Die Augenzahl")
        schwarz = r.choice("schwarz", SIDES, required=False)
        result = r.choice("result", RESULTS, required=False)
        play = read_play(augen, schwarz, result, announced)

        grundwert = GRUNDWERTE[game]
        stage_lines = _STAGE_LINES[grundwert]
        lines = [_GRUNDWERT_LINES[game], _SPITZEN_LINES[grundwert, ohne, spitzen], stage_lines["Spiel"]]
        if hand:
            lines.append(stage_lines["Hand"])
        if play.schneider or announced:
            lines.append(stage_lines["Schneider"])
        if announced:
            lines.append(stage_lines["Schneider angesagt"])
        if play.schwarz or announced == "schwarz":
            lines.append(stage_lines["Schwarz"])
        if announced == "schwarz":
            lines.append(stage_lines["Schwarz angesagt"])
        if ouvert:
            lines.append(stage_lines["Ouvert"])
        stages = len(lines) - 2  # the Grundwert and the Spitzen lines are no stages
        reached = grundwert * (spitzen + stages)
        overbid = bid is not None and reached < bid
        value = reached
        if overbid:
            assert bid is not None
            # ISkO 5.4: lost whatever the Augen, at the smallest multiple of the Grundwert that
            # reaches the bid; the line adds what the value lacked.
            value = overbid_value(bid, grundwert)
            lines.append(Line(OVERBID, value - reached))
        value = self._doublings(value, lines, kontra, bock)
        outcome = Outcome(
            game=game,
            declarer=declarer,
            declarer_won=play.won and not overbid,
            augen=augen,
            schneider=play.schneider,
            schwarz=play.schwarz,
            kontra=kontra,
            solo=True,  # every Skat game is one against the others
        )
        return self._declared(lines, value, overbid, outcome)

    def _read_spitzen(self, r: HandReader, game: str) -> int:
        """skat.md §2: mit or ohne 1..11 in a suit game, 1..4 in a Grand (or in every game where
        only the Buben count)."""
        raw = r.get("spitzen")
        if raw is None:
            raise EngineError("missing_field", "Mit oder ohne wie viele Spitzen (spitzen)?", "spitzen")
        most = self.spitzen_max(game)
        if type(raw) is int and raw < 1:
            raise EngineError("out_of_range", f"Mit oder ohne 1 bis {most} Spitzen, nicht {raw}.", "spitzen")
        spitzen = check_int(raw, 1, 10**6, "spitzen", "Die Zahl der Spitzen")
        if spitzen > most:
            why = (
                "im Grand sind nur die vier Buben Trumpf"
                if game == "grand"
                else "es zählen nur die Buben (Option spitzen_only_buben)"
                if most == MAX_SPITZEN_BUBEN
                else "ein Farbspiel hat elf Trümpfe"
            )
            raise EngineError(
                "out_of_range", f"Höchstens mit oder ohne {most} Spitzen, nicht {spitzen}: {why}.", "spitzen"
            )
        return spitzen

    def _null(self, r: HandReader, bock: int) -> Scored:
        declarer = r.seat("declarer")
        for name, why in (
            ("spitzen", "Beim Nullspiel gibt es keine Spitzen"),
            ("announced", "Beim Nullspiel wird nichts angesagt"),
            ("augen", "Beim Nullspiel zählen keine Augen, nur gewonnen oder verloren (result)"),
            ("schwarz", "Beim Nullspiel zählt nur gewonnen oder verloren (result)"),
            ("ohne", "Beim Nullspiel gibt es kein mit oder ohne"),
        ):
            if r.raw.get(name) not in (None, False, 0, ""):
                raise EngineError("not_allowed", f"{why} (skat.md §3).", name)
        hand = r.bool("hand")
        ouvert = r.bool("ouvert")
        value = null_value(hand, ouvert)
        if r.has("bid"):
            bid = check_bid(r.get("bid"))
            if value < bid:
                # skat.md §3: a Null below the bid held is no game (it may not be announced).
                raise EngineError(
                    "not_allowed",
                    f"{NULL_LABELS[(hand, ouvert)]} ist {value} wert und reicht nicht an das Gebot {bid}: so darf"
                    " kein Null gespielt werden (skat.md §3).",
                    "bid",
                )
        result = r.choice("result", ("won", "lost"))
        kontra = self._read_kontra(r)
        lines = [Line(NULL_LABELS[(hand, ouvert)], value)]
        value = self._doublings(value, lines, kontra, bock)
        outcome = Outcome(game="null", declarer=declarer, declarer_won=result == "won", kontra=kontra, solo=True)
        return self._declared(lines, value, False, outcome)

    def _ramsch(self, r: HandReader, bock: int) -> Scored:
        """skat.md §7: the most Augen are written minus; a Jungfrau doubles, a Durchmarsch is +120,
        each pass of the Skat (Schieberamsch) doubles."""
        seats = r.seats
        augen = r.per_player_ints("augen_by_player", 0, TOTAL_AUGEN, total=TOTAL_AUGEN)
        tricks = r.per_player_ints("tricks_by_player", 0, TRICKS, total=TRICKS, required=False)
        assert augen is not None
        if tricks is not None:
            for seat in seats:
                # The Skat goes to the winner of the last trick: without a trick no Augen.
                if tricks[seat] == 0 and augen[seat]:
                    raise EngineError(
                        "inconsistent", f"{seat} hat keinen Stich, also keine Augen.", f"augen_by_player.{seat}"
                    )
                if tricks[seat] == TRICKS and augen[seat] != TOTAL_AUGEN:
                    raise EngineError(
                        "inconsistent", f"{seat} hat alle Stiche, also alle 120 Augen.", f"augen_by_player.{seat}"
                    )
        geschoben = r.int("geschoben", 0, MAX_GESCHOBEN, default=0, label="Wie oft geschoben wurde")
        if geschoben and not self.options["schieberamsch"]:
            raise EngineError(
                "not_allowed", "Schieberamsch spielt diese Regel nicht (Option schieberamsch).", "geschoben"
            )
        # Without trick counts a player with 0 Augen took no trick, and one with 120 took them all
        # (docs/rules/skat.md, "Ramsch").
        no_trick = [s for s in seats if (tricks[s] == 0 if tricks else augen[s] == 0)]
        sweeper = next((s for s in seats if (tricks[s] == TRICKS if tricks else augen[s] == TOTAL_AUGEN)), None)
        lines: list[Line]
        if sweeper is not None and self.options["ramsch_durchmarsch"]:
            lines = [Line(f"Durchmarsch ({sweeper})", TOTAL_AUGEN)]
            written_players, won, value = [sweeper], True, TOTAL_AUGEN
        else:
            most = max(augen.values())
            written_players = [s for s in seats if augen[s] == most]
            lines = [Line(f"Ramsch: {' und '.join(written_players)} mit {most} Augen", -most)]
            won, value = False, most
            if self.options["ramsch_jungfrau"]:
                for seat in no_trick:
                    lines.append(Line(f"Jungfrau ({seat}) ×2", factor=2))
                    value *= 2
        for _ in range(geschoben):
            lines.append(GESCHOBEN_LINE)
            value *= 2
        value = self._doublings(value, lines, 0, bock)
        entry = value if won else -value
        sheet = ListEntry(value, won, False, dict.fromkeys(written_players, entry))
        winner = tuple(written_players) if won else tuple(s for s in seats if s not in written_players)
        outcome = Outcome(game="ramsch", schwarz=sweeper is not None)
        return Scored(lines, sheet, outcome, winner)


class Skat(SkatRules):
    """``skat``: the Spielliste's values settled between the players (skat.md §5), in points or,
    with ``cents_per_point``, in cents."""

    NAME = "skat"
    LIST_SETTLEMENT = "money"
    TITLE = "Skat (Spielliste nach ISkO)"
    OPTIONS = (
        *COMMON_OPTIONS,
        _option(
            "cents_per_point",
            None,
            "Cent je Punkt der Liste (eine ganze Zahl ab 1); leer = in Punkten abrechnen",
            minimum=1,
            maximum=MAX_CENTS_PER_POINT,
        ),
    )

    def unit(self) -> str:
        return "cent" if self.options["cents_per_point"] else "point"

    def _settle(self, scored: Scored, table: tuple[str, ...], multiplier: int) -> HandResult:
        cents = self.options["cents_per_point"] or 1
        payouts = {player: amount * cents for player, amount in settle_list(scored.sheet.written, table).items()}
        zero_sum_check(payouts)
        return HandResult(
            self.unit(), scored.winner, payouts, tuple(scored.lines), scored.outcome, None, multiplier, scored.sheet
        )
