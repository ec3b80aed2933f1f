"""Saukopf (seed 000, saukopf.eu): Vierhaxer (4 seats) and Dreihaxer (3 seats, with the Trog).

Scores one hand from the facts the table records (spec §2.2): who won by the bid's criterion
("Gewinner ermitteln"), the Kopfgeld from the winners' view and the Grobschlächterstrafpunkte the
declarer alone pays after a defeat ("Schlachtfest"). It does not replay tricks, count Laufende or
check the bidding order: the table reports those counts and the engine checks that they can be.

Readings taken where the seed leaves room are marked ``# 000 <section>`` and recorded in
docs/rules/saukopf.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core import Context, EngineError, HandResult, Line, OptionSpec, Outcome, RuleSet, zero_sum_check
from ..fields import HandReader, check_int
from .saukopf_trumps import CARDS, RANKS, SUITS, TRUMP_COUNT

SOLOS = ("zucht", "eber", "wutz", "hauer", "hybridschwein", "ferkelparade", "knorpel", "keiler", "feige_sau")
PAARHUFER = ("schwarte", "feiges_mastschwein", "sauerei", "unreine_sauerei", "grosskopferter")
GAMES = SOLOS + PAARHUFER
CALL_GAMES = frozenset({"sauerei", "unreine_sauerei", "grosskopferter"})
MAST_GAMES = frozenset({"schwarte", "feiges_mastschwein"})
RAMSCH_GAMES = frozenset({"feige_sau", "feiges_mastschwein"})
SUIT_GAMES = frozenset({"zucht", "hauer", "keiler"})
# Saukopf and Müller count in every Paarhufer except the Ramsch Feiges Mastschwein, also when a
# call game is played alone (000 "Stoßen und Stechen").
SONDERPUNKT_GAMES = frozenset({"schwarte", "sauerei", "unreine_sauerei", "grosskopferter"})
SIDES = ("declarer", "opponents")
HAXNSPALTER = ("aufschlag", "hinterhalt")

SCHWARZ = 121  # the bid "schwarz" overbids 120 (000 "Grunzen")
RAUBORSTIG_FROM = 75  # 000 "Paarhufer": echte Paarhufer from a bid of 75
TROG_CARDS_MAX_AUGEN = 22  # the two Trog cards hold at most two Säue
SAU_CALLS = frozenset({"eichel_sau", "gras_sau", "schellen_sau"})
TRICKS = {4: 8, 3: 10}  # a Trog card is never a trick


def _read_bid(value: Any, field: str) -> int:
    if value == "schwarz":
        return SCHWARZ
    if isinstance(value, bool) or not isinstance(value, int):
        raise EngineError("invalid_type", 'Erwartet eine Augenzahl (1 bis 120) oder "schwarz".', field)
    return check_int(value, 1, 120, field, "Das Gebot")


def _read_card(value: Any, field: str) -> str:
    if not isinstance(value, str):
        raise EngineError("invalid_type", "Erwartet eine Karte wie 'gras_ober'.", field)
    if value not in CARDS:
        raise EngineError(
            "invalid_value", f"'{value}' ist keine Karte; erwartet <Farbe>_<Rang>, z.B. 'gras_ober'.", field
        )
    return value


def _read_called(reader: HandReader, game: str) -> str:
    value = reader.get("called")
    if value is None:
        if game == "unreine_sauerei":  # only one card can be called
            return "herz_sau"
        raise EngineError("missing_field", "Das Feld 'called' fehlt: welche Karte wurde gerufen?", "called")
    kind = "ober" if game == "grosskopferter" else "sau"
    # The bare suit names the game's kind of card ("gras" is the Gras-Sau or the Gras-Ober).
    card = _read_card(f"{value}_{kind}" if value in SUITS else value, "called")
    if game == "sauerei" and card not in SAU_CALLS:
        if card == "herz_sau":
            raise EngineError(
                "invalid_value", "Wer die Herz-Sau ruft, spielt eine Unreine Sauerei, keine Sauerei.", "called"
            )
        raise EngineError(
            "invalid_value", "Bei der Sauerei wird eine Farbsau gerufen (Eichel, Gras, Schellen).", "called"
        )
    if game == "unreine_sauerei" and card != "herz_sau":
        raise EngineError("invalid_value", "Bei der Unreinen Sauerei wird die Herz-Sau gerufen.", "called")
    if game == "grosskopferter" and not card.endswith("_ober"):
        raise EngineError("invalid_value", "Beim Großkopferten wird ein Ober gerufen.", "called")
    return card


# The explanation lines, built once: a Line is frozen, so every hand can share them.
SIEG = Line("Sieg", 2)
HUFTRITT = Line("Huftritt", 2)
GEGENHIEB = Line("Gegenhieb", 2)
OFFEN = Line("Offen", 1)
SCHNEIDER_LINE = Line("Schneider", 1)
SCHWARZ_LINE = Line("Schwarz", 1)
MOST_TRUMPS = max(TRUMP_COUNT.values())
OHNE = {1: Line("Ohne 1 Laufenden", 1)} | {n: Line(f"Ohne {n} Laufende", n) for n in range(2, MOST_TRUMPS + 1)}
GLUECKSSCHWEIN = {n: Line(f"Glücksschwein (mit {n} Laufenden)", -1) for n in range(4, MOST_TRUMPS + 1)}
SAUKOPF = {True: Line("Saukopf", 1), False: Line("Saukopf der Verlierer", -1)}
MUELLER = {True: Line("Müller", 1), False: Line("Müller der Verlierer", -1)}
QUIEKER = Line("Strafpunkt Quieker (Spieß)", 1)
STALLGERUCH = Line("Strafpunkt Stallgeruch (Unreine Sauerei)", 1)
RAUBORSTIGKEIT = Line(f"Strafpunkt Rauborstigkeit (Gebot ab {RAUBORSTIG_FROM})", 1)
BOLZENSCHUSS = Line("Strafpunkte Bolzenschuss (Großkopferter)", 2)
TROGSAUGER = Line("Strafpunkte Trogsauger", 2)
HAXNSPALTER_LINES = {kind: Line(f"Strafpunkte Haxnspalter ({kind.capitalize()})", 3) for kind in HAXNSPALTER}


class Saukopf(RuleSet):
    NAME = "saukopf"
    FAMILY = "saukopf"
    UNIT = "point"
    TITLE = "Saukopf (Vierhaxer und Dreihaxer)"
    SEED = "000_846b6c10b5017672.txt"
    SEAT_COUNTS = (4, 3)
    OPTIONS = (
        OptionSpec(
            "schneider_below",
            30,
            "Die Verliererpartei ist Schneider mit weniger Augen als diesen (000 Kopfgeld: 'unter 30 Augen')",
            minimum=1,
            maximum=61,
        ),
        OptionSpec(
            "feige_sau_strict_half",
            False,
            "Feige Sau: der Spieler muss unter der Hälfte von 120 minus Gebot bleiben, statt sie nicht zu "
            "überschreiten (entscheidet nur bei ganzer Hälfte: Gebot 90, 15 Augen verlieren)",
            kind="bool",
        ),
    )

    def score(self, hand: Mapping[str, Any], seats: tuple[str, ...], context: Context) -> HandResult:
        if context.bock or context.round != "normal":
            raise EngineError("invalid_value", "Saukopf kennt keine Bock- oder Sonderrunden.", "context")
        r = HandReader(hand, seats)
        options = self.options
        n = len(seats)
        game = r.choice("game", GAMES)
        if n != 4 and game in PAARHUFER:
            raise EngineError("invalid_value", "Paarhufer (2 gegen 2) gibt es nur beim Vierhaxer.", "game")
        ramsch = game in RAMSCH_GAMES
        declarer = r.seat("declarer")
        partner: str | None = None
        if game in PAARHUFER:
            # A call game without partner is an Unechter Paarhufer; a Mästung always has one,
            # otherwise the declarer had to announce another game (000 "Wenn sich kein Mitspieler findet").
            partner = r.seat("partner", required=game in MAST_GAMES)
            if partner == declarer:
                raise EngineError(
                    "invalid_value", "Spieler und Mitspieler müssen verschiedene Personen sein.", "partner"
                )
        alone = partner is None

        bid = r.get("bid")
        if bid is None:
            raise EngineError("missing_field", "Das Feld 'bid' fehlt (das Gebot beim Grunzen).", "bid")
        bid = _read_bid(bid, "bid")
        rauborstig_bid = bid
        if game in MAST_GAMES:
            mast_bid = r.get("mast_bid")
            if mast_bid is None:
                raise EngineError("missing_field", "Das Feld 'mast_bid' fehlt (Gebot beim Mastgrunzen).", "mast_bid")
            mast_bid = _read_bid(mast_bid, "mast_bid")
            if bid == SCHWARZ:
                raise EngineError(
                    "invalid_value", "Nach dem Gebot Schwarz kann beim Mastgrunzen niemand mehr überbieten.", "mast_bid"
                )
            if mast_bid <= bid:
                raise EngineError(
                    "invalid_value", f"Beim Mastgrunzen muss das Gebot {bid} überboten werden.", "mast_bid"
                )
            # 000 "Paarhufer": for Rauborstigkeit the Mastgrunzen bid counts; the criterion stays
            # the declarer's bid (example "Gewinnkriterium Feiges Mastschwein").
            rauborstig_bid = mast_bid

        suit = None
        schlag = None
        if game in SUIT_GAMES:
            suit = r.choice("suit", SUITS)
        elif game == "feige_sau":
            suit = r.choice("suit", ("herz",), required=False) or "herz"
        if game == "keiler":
            schlag = r.choice("schlagtrumpf", RANKS)
        elif game == "knorpel":
            knorpel = r.get("knorpel")
            if knorpel is None:
                raise EngineError("missing_field", "Das Feld 'knorpel' fehlt: welche Karte ist der Knorpel?", "knorpel")
            _read_card(knorpel, "knorpel")
        if game in CALL_GAMES:
            _read_called(r, game)

        # Most hands carry no Zusatzansage and no Stoß: skip the reader for fields not given.
        spiess = "spiess" in hand and r.bool("spiess")
        haxnspalter = r.choice("haxnspalter", HAXNSPALTER, required=False) if "haxnspalter" in hand else None
        offen = "offen" in hand and r.bool("offen")
        if offen and not alone:
            raise EngineError(
                "invalid_value", "Offen spielt nur, wer allein spielt: Solo oder Unechter Paarhufer.", "offen"
            )
        trog = "trog" in hand and r.bool("trog")
        if trog and n != 3:
            raise EngineError("invalid_value", "Einen Trog gibt es nur beim Dreihaxer.", "trog")
        huftritt = "huftritt" in hand and r.bool("huftritt")
        gegenhieb = "gegenhieb" in hand and r.bool("gegenhieb")
        if gegenhieb and not huftritt:
            raise EngineError("invalid_value", "Ein Gegenhieb ist nur nach einem Huftritt möglich.", "gegenhieb")

        side = (declarer,) if alone else (declarer, partner)
        opponents = tuple([p for p in seats if p not in side])
        tricks_total = TRICKS[n]
        # With the Trog the declarer's two laid-away cards count to his Augen but are no trick.
        trick_free_augen = TROG_CARDS_MAX_AUGEN if trog else 0

        by_player: dict[str, int] | None = None
        if ramsch:
            by_player = r.per_player_ints("augen_by_player", 0, 120)
            assert by_player is not None
            augen = by_player[declarer] if alone else by_player[declarer] + by_player[partner]  # type: ignore[index]
            augen_opp = sum(by_player.values()) - augen
            given = r.int("augen", 0, 120, default=None)
            if given is not None and given != augen:
                raise EngineError("inconsistent", f"'augen_by_player' ergibt {augen} für die Spielerpartei.", "augen")
            given = r.int("augen_opponents", 0, 120, default=None)
            if given is not None and given != augen_opp:
                raise EngineError(
                    "inconsistent", f"'augen_by_player' ergibt {augen_opp} für die Nichtspieler.", "augen_opponents"
                )
            augen_field = "augen_by_player"
        else:
            augen = r.int("augen", 0, 120, label="Die Augenzahl")
            augen_opp = r.int("augen_opponents", 0, 120, default=120 - augen, label="Die Augenzahl der Gegenpartei")
            augen_field = "augen_opponents"
        total = augen + augen_opp
        if n == 4 or trog:
            if total != 120:
                raise EngineError("inconsistent", f"Die Augen beider Parteien ergeben {total}, nicht 120.", augen_field)
        elif not 120 - TROG_CARDS_MAX_AUGEN <= total <= 120:
            # 000 "Trogsaugen": without the Trog only its two cards' Augen belong to nobody.
            raise EngineError(
                "inconsistent",
                f"Die Augen beider Parteien ergeben {total}; ohne Trog fehlen höchstens die "
                f"{TROG_CARDS_MAX_AUGEN} Augen der zwei Trogkarten.",
                augen_field,
            )

        tricks = r.int("tricks", 0, tricks_total, default=None, label="Die Stichzahl")
        if ramsch:
            by_tricks = r.per_player_ints("tricks_by_player", 0, tricks_total, total=tricks_total, required=False)
            if by_tricks is not None:
                assert by_player is not None
                for p in seats:
                    allowed = trick_free_augen if p == declarer else 0
                    if by_tricks[p] == 0 and by_player[p] > allowed:
                        raise EngineError(
                            "inconsistent", f"{p} hat keinen Stich, aber {by_player[p]} Augen.", f"tricks_by_player.{p}"
                        )
                side_tricks = by_tricks[declarer] if alone else by_tricks[declarer] + by_tricks[partner]  # type: ignore[index]
                if tricks is not None and tricks != side_tricks:
                    raise EngineError(
                        "inconsistent", f"'tricks_by_player' ergibt {side_tricks} Stiche der Spielerpartei.", "tricks"
                    )
                tricks = side_tricks
        if tricks is not None:
            if tricks == 0 and augen > trick_free_augen:
                raise EngineError("inconsistent", f"Ohne Stich hat die Spielerpartei keine {augen} Augen.", "tricks")
            if tricks == tricks_total and augen_opp > 0:
                raise EngineError(
                    "inconsistent", f"Ohne Stich haben die Nichtspieler keine {augen_opp} Augen.", "tricks"
                )

        def no_trick(declarer_side: bool) -> bool:
            """Whether a side stayed without a trick; Augen decide it unless they are (nearly) zero."""
            if tricks is not None:
                return tricks == 0 if declarer_side else tricks == tricks_total
            if (augen > trick_free_augen) if declarer_side else (augen_opp > 0):
                return False
            raise EngineError(
                "missing_field",
                "Das Feld 'tricks' fehlt: bei so wenigen Augen einer Partei entscheidet die Stichzahl über Schwarz.",
                "tricks",
            )

        laufende = 0
        laufende_side = None
        if game == "knorpel":
            # The Knorpel is the only trump and sits with an opponent (000 "Knorpel").
            laufende = r.get("laufende", 1)
            if laufende != 1:
                # A range of "1 bis 1" would read as no rule at all: say the rule.
                raise EngineError(
                    "out_of_range", "Beim Knorpel gibt es genau einen Laufenden: den Knorpel selbst.", "laufende"
                )
            laufende_side = r.choice("laufende_side", SIDES, required=False) or "opponents"
            if laufende_side != "opponents":
                raise EngineError(
                    "invalid_value", "Beim Knorpel hält ein Nichtspieler den einzigen Trumpf.", "laufende_side"
                )
        elif not ramsch:
            most = TRUMP_COUNT[(game, suit if game != "feige_sau" else None, schlag)]
            laufende = r.int("laufende", 1, most, label="Die Zahl der Laufenden")
            laufende_side = r.choice("laufende_side", SIDES)

        saukopf = mueller = None
        if game in SONDERPUNKT_GAMES:
            saukopf = r.choice("saukopf", SIDES, required=False)
            mueller = r.choice("mueller", SIDES, required=False)
            if saukopf == "declarer" and game == "unreine_sauerei":
                raise EngineError(
                    "invalid_value",
                    "Bei der Unreinen Sauerei hat die Spielerpartei die Herz-Sau; "
                    "den Saukopf können nur die Nichtspieler holen.",
                    "saukopf",
                )
        r.finish()

        # 000 "Gewinner ermitteln"
        if game == "feige_sau":
            if bid == SCHWARZ:
                won = no_trick(True)
            else:
                lowest = min([by_player[p] for p in opponents])  # type: ignore[index]
                # 95 -> 12 (12.5 rounded down), 85 -> 17; "höchstens" (Übersicht), so 90 -> 15.
                # The strict reading ("unter 15", 000 "Feige Sau") keeps below the half: 90 -> 14.
                limit = (119 - bid) // 2 if options["feige_sau_strict_half"] else (120 - bid) // 2
                won = augen <= limit and augen <= lowest
        elif game == "feiges_mastschwein":
            if bid == SCHWARZ:
                won = no_trick(True)
            else:
                lowest = min([by_player[p] for p in opponents])  # type: ignore[index]
                won = augen <= 120 - bid and max([by_player[p] for p in side]) <= lowest  # type: ignore[index]
        elif bid == SCHWARZ:
            won = no_trick(False)
        else:
            won = augen >= bid
        winner = "declarer" if won else "opponents"

        # 000 "Kopfgeld berechnen", always from the winners' view, in the table's order.
        lines = [SIEG]
        kopfgeld = 2
        if huftritt:
            lines.append(HUFTRITT)
            kopfgeld += 2
        if gegenhieb:
            lines.append(GEGENHIEB)
            kopfgeld += 2
        if offen:
            lines.append(OFFEN)
            kopfgeld += 1
        schneider = not ramsch and (augen_opp if won else augen) < options["schneider_below"]
        if schneider:
            lines.append(SCHNEIDER_LINE)
            kopfgeld += 1
        # Schwarz: the winners took every trick; in the Ramsch games the winners took none.
        schwarz = no_trick(won) if ramsch else no_trick(not won)
        if schwarz:
            lines.append(SCHWARZ_LINE)
            kopfgeld += 1
        laufende_paid = 0
        if laufende_side is not None:
            if laufende_side != winner:
                laufende_paid = laufende
                lines.append(OHNE[laufende])
                kopfgeld += laufende
            elif laufende >= 4:
                lines.append(GLUECKSSCHWEIN[laufende])
                kopfgeld -= 1
        if saukopf is not None:
            kopfgeld += 1 if saukopf == winner else -1
            lines.append(SAUKOPF[saukopf == winner])
        if mueller is not None:
            kopfgeld += 1 if mueller == winner else -1
            lines.append(MUELLER[mueller == winner])
        if kopfgeld < 0:
            # Negative Kopfgeld pays nobody and is not set against the penalties (000 Kopfgeld).
            lines.append(Line("Negatives Kopfgeld verfällt", -kopfgeld))
            kopfgeld = 0

        # 000 "Grobschlächterstrafpunkte": only after a defeat, the declarer alone pays each opponent.
        penalty = 0
        if not won:
            if spiess:
                lines.append(QUIEKER)
                penalty += 1
            if game == "unreine_sauerei":
                lines.append(STALLGERUCH)
                penalty += 1
            if not alone and rauborstig_bid >= RAUBORSTIG_FROM:
                lines.append(RAUBORSTIGKEIT)
                penalty += 1
            if game == "grosskopferter":
                lines.append(BOLZENSCHUSS)
                penalty += 2
            if trog:
                lines.append(TROGSAUGER)
                penalty += 2
            if haxnspalter is not None:
                lines.append(HAXNSPALTER_LINES[haxnspalter])
                penalty += 3

        payouts = dict.fromkeys(seats, 0)
        winners, losers = (side, opponents) if won else (opponents, side)
        if kopfgeld:
            # Each winner gets it and each loser pays it; a lone player once per head opposite.
            gain = kopfgeld * len(losers) if len(winners) == 1 else kopfgeld
            loss = kopfgeld * len(winners) if len(losers) == 1 else kopfgeld
            for p in winners:
                payouts[p] += gain
            for p in losers:
                payouts[p] -= loss
        if penalty:
            payouts[declarer] -= penalty * len(opponents)
            for p in opponents:
                payouts[p] += penalty
        zero_sum_check(payouts)

        outcome = Outcome(
            game=game,
            declarer=declarer,
            partner=partner,
            declarer_won=won,
            augen=augen,
            schneider=schneider,
            schwarz=schwarz,
            laufende=laufende_paid,
            kontra=huftritt + gegenhieb,
            last_kontra="declarer" if gegenhieb else "opponents" if huftritt else None,
            tout=bid == SCHWARZ and not ramsch,
            suit=suit,
            solo=alone,
        )
        return HandResult(self.UNIT, winner, payouts, tuple(lines), outcome, kopfgeld)
