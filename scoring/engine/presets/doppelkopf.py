"""Doppelkopf after the house rules of seed 004 (preset ``doppelkopf``).

Scores one played hand from the facts the Schreiber records (spec §2.3: the game, the Re side,
the Re side's Augen and tricks, the announcements, the Sonderpunkte) into points per player, with
every term of the Abrechnung (004 §10) as a line. It also offers the pure helpers the evening fold
needs for the table events of 004 §5 and §10 (Vergeben, Schmeißen, five at a table).

It does not replay tricks, does not check whether an announcement came in time or whether a
Pflichtansage was missed (004 §8, §9 are rules of play: announcements are scored as recorded),
with one exception: the Re of a Hochzeit or an Armut "gilt als schon gesagt" (004 §9) and counts
whether or not it was recorded,
and does not decide who deals, who sits out or when a Bock round runs: the caller passes the
number of Bock doublings in ``Context.bock``.

Readings taken where the seed leaves room are marked ``# 004 §<n>`` and recorded in
docs/rules/doppelkopf.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple

from ..core import Context, EngineError, HandResult, Line, OptionSpec, Outcome, RuleSet, zero_sum_check
from ..fields import HandReader

SOLOS = ("trumpfsolo", "farbsolo", "damensolo", "bubensolo", "fleischlos")
GAMES = ("normal", "hochzeit", "stille_hochzeit", "armut", *SOLOS)
# 004 §9: the Re that counts as said whether or not the Schreiber wrote it down. Not the Stille
# Hochzeit: it announces no Vorbehalt (004 §7), so there is no Hochzeit to make the Re Pflicht.
PFLICHT_RE = frozenset({"hochzeit", "armut"})
# "Bei/Im <game>" for messages.
AT_GAME = {
    "normal": "Beim Normalspiel",
    "hochzeit": "Bei der Hochzeit",
    "stille_hochzeit": "Bei der Stillen Hochzeit",
    "armut": "Bei der Armut",
    "trumpfsolo": "Beim Trumpfsolo",
    "farbsolo": "Im Farbsolo",
    "damensolo": "Im Damensolo",
    "bubensolo": "Im Bubensolo",
    "fleischlos": "Im Fleischlosen",
}
# How many players the Re side has: a solo and the Stille Hochzeit one, a wedding one or two (alone
# when no partner is found by the third trick, 004 §7), the rest two.
RE_SIZES = {game: (1,) for game in (*SOLOS, "stille_hochzeit")} | {"normal": (2,), "armut": (2,), "hochzeit": (1, 2)}
SUITS = ("kreuz", "pik", "herz")  # 004 §4: a Karo-Solo is the Trumpfsolo
SIDES = ("re", "contra")
PARTY = {"re": "Re", "contra": "Contra"}
OTHER = {"re": "contra", "contra": "re"}
WINNER = {"re": "declarer", "contra": "opponents"}

# 004 §8: the announcements of one side, in the order in which they must be made.
ABSAGEN = ("keine90", "keine60", "keine30", "schwarz")
ANNOUNCEMENTS = ("re", "contra", *ABSAGEN)
ABSAGE_LABELS = {"keine90": "keine 90", "keine60": "keine 60", "keine30": "keine 30", "schwarz": "schwarz"}
_LADDERS = {side: [side, *ABSAGEN] for side in SIDES}
_MAPPING = (dict, Mapping)  # dict first: JSON's case, checked without the ABC machinery

# 004 §10: the levels of the loser's Augen, one point each. The first is the win itself ("keine
# 120"), named "Gewonnen" because Contra also wins at 120:120, where Re did reach 120.
LEVEL_LABELS = ("Gewonnen", "keine 90", "keine 60", "keine 30", "schwarz")
# The Augen the other side reaches against an announced level k (level k fails there); the mark
# of level 1 is where the win changes hands: Contra 120, Re 121.
MARKS = {1: "120", 2: "90", 3: "60", 4: "30"}

EXTRA_KINDS = ("charlie", "charlie_gefangen", "fuchs_gefangen", "doppelkopf", "herz10")
EXTRA_LABELS = {
    "charlie": "Charlie",
    "charlie_gefangen": "Charlie gefangen",
    "fuchs_gefangen": "Fuchs gefangen",
    "doppelkopf": "Doppelkopf",
    "herz10": "Herz-10 fängt Herz-10",
}
# 004 §10: "Bei Solospielen gibt es nur bei Trumpfsoli alle Sonderpunkte, bei allen anderen gibt es
# nur den Doppelkopf". The Stille Hochzeit and the wedding played alone keep the normal trumps, so
# they count like a Trumpfsolo.
DOPPELKOPF_ONLY = frozenset({"farbsolo", "damensolo", "bubensolo", "fleischlos"})
_ALLOWED_EXTRAS = {
    game: frozenset(
        (side, kind) for side in SIDES for kind in EXTRA_KINDS if game not in DOPPELKOPF_ONLY or kind == "doppelkopf"
    )
    for game in GAMES
}
# How often an event can happen in one hand at all: one last trick, two Füchse, two Herz-10.
EXTRA_MAX = {"charlie": 1, "charlie_gefangen": 1, "fuchs_gefangen": 2, "herz10": 1}
# Fewest Augen the trick behind a Sonderpunkt brings its taker. (With MAX_AUGEN this also keeps
# the Doppelköpfe of a side within its tricks: t tricks never hold 40·(t+1) Augen.)
EXTRA_MIN_AUGEN = {"doppelkopf": 40, "fuchs_gefangen": 11, "herz10": 20}

TOTAL_AUGEN = 240
TRICKS = 12
# The most Augen t tricks can hold: the 4t highest cards (8 each of As 11, Zehn 10, König 4,
# Dame 3, Bube 2, Neun 0). Bounds the Augen a side can have with its tricks.
_CARD_VALUES = sorted([11, 10, 4, 3, 2, 0] * 8, reverse=True)
MAX_AUGEN = tuple(sum(_CARD_VALUES[: 4 * t]) for t in range(TRICKS + 1))

VERGEBEN_LIMIT = 3  # 004 §5: the third Vergeben of one dealer costs that dealer

# Lines are immutable; the ones every hand uses are made once.
LEVEL_LINES = tuple(Line(label, 1) for label in LEVEL_LABELS)
ABSAGE_LINES = tuple(Line(f"{ABSAGE_LABELS[a]} angesagt", 1) for a in ABSAGEN)
BONUS_LINES = {side: Line(f"{PARTY[side]} angesagt", 2) for side in SIDES}
GEGEN_DIE_ALTEN = Line("gegen die Alten", 1)
SOLO_LINE = Line("Solo: dreifach für den Solospieler", factor=3)
# The order of the Sonderpunkt lines, per side the lines speak for: that side's first, each side's
# in EXTRA_KINDS order.
EXTRA_RANK = {
    view: {(side, kind): (side != view, i) for side in SIDES for i, kind in enumerate(EXTRA_KINDS)} for view in SIDES
}
EXTRA_LINES = {
    (side, kind, sign): Line(f"{EXTRA_LABELS[kind]} ({PARTY[side]})", sign)
    for side in SIDES
    for kind in EXTRA_KINDS
    for sign in (1, -1)
}

OFFENE_HOCHZEIT_CHOICES = ("opponents_simple", "wedding_simple", "as_solo")
BOTH_FAIL_CHOICES = ("net", "void")


class DoppelkopfHand(NamedTuple):
    """The validated facts of one hand; ``re`` in the order given. Immutable like the frozen
    dataclasses elsewhere, but a NamedTuple: one is built per hand, and tuples build fastest.

    ``announced`` says how far each side went up its ladder (004 §8 allows no gaps, so a count says
    it all): 0 nothing, 1 Re resp. Contra, 2 keine 90, 3 keine 60, 4 keine 30, 5 schwarz.
    """

    game: str
    suit: str | None
    re: tuple[str, ...]
    augen: int  # of the Re side
    tricks: int | None  # of the Re side; None when not counted
    announced: Mapping[str, int]
    extras: tuple[tuple[str, str], ...]  # (side, kind) in input order

    @property
    def solo(self) -> bool:
        """One against three: the solos, the Stille Hochzeit and a wedding without partner."""
        return len(self.re) == 1

    def no_trick(self, side: str) -> bool:
        # Without a trick count a side with 0 Augen is taken to have no trick: a trick of four
        # Neunen is too rare to make the Schreiber count tricks on every hand.
        if self.tricks is None:
            return self.augen == (0 if side == "re" else TOTAL_AUGEN)
        return self.tricks == (0 if side == "re" else TRICKS)

    def side_augen(self, side: str) -> int:
        return self.augen if side == "re" else TOTAL_AUGEN - self.augen


def _with_pflicht_re(raw: Any) -> Any:
    """004 §9: "Bei Hochzeit und Armut ist eine Re-Ansage Pflicht und gilt als schon gesagt" — the
    Re counts whether or not it was recorded, so "keine 90" alone is no gap in the ladder."""
    if raw is None:
        return {"re": ["re"]}
    if isinstance(raw, _MAPPING) and isinstance(raw.get("re", []), list | type(None)):
        said = list(raw.get("re") or [])
        return {**raw, "re": said if "re" in said else ["re", *said]}
    return raw  # not an object: refused as such by _read_announcements


def _read_announcements(raw: Any) -> dict[str, int]:
    if raw is None:
        return {"re": 0, "contra": 0}
    if type(raw) is dict and len(raw) == ("re" in raw) + ("contra" in raw):
        # The usual case, each list written in order: how far it goes up the ladder.
        re, contra = raw.get("re"), raw.get("contra")
        re = [] if re is None else re
        contra = [] if contra is None else contra
        if (
            type(re) is list
            and type(contra) is list
            and re == _LADDERS["re"][: len(re)]
            and contra == _LADDERS["contra"][: len(contra)]
        ):
            return {"re": len(re), "contra": len(contra)}
    if not isinstance(raw, _MAPPING):
        raise EngineError("invalid_type", 'Erwartet ein Objekt {"re": [...], "contra": [...]}.', "announcements")
    for key in raw:
        if key not in SIDES:
            raise EngineError(
                "unexpected_field", f"Ansagen gibt es nur von 're' und 'contra', nicht '{key}'.", f"announcements.{key}"
            )
    out: dict[str, int] = {}
    for side in SIDES:
        where = f"announcements.{side}"
        value = raw.get(side)
        if value is None:
            value = []
        if not isinstance(value, list):
            raise EngineError("invalid_type", "Erwartet eine Liste von Ansagen.", where)
        seen: list[str] = []
        for i, item in enumerate(value):
            if not isinstance(item, str) or item not in ANNOUNCEMENTS:
                raise EngineError(
                    "invalid_value", f"Unbekannte Ansage; möglich: {', '.join(ANNOUNCEMENTS)}.", f"{where}[{i}]"
                )
            if item in SIDES and item != side:
                raise EngineError(
                    "invalid_value",
                    f"Die {PARTY[side]}-Partei kann nicht '{item}' ansagen.",
                    f"{where}[{i}]",
                )
            if item in seen:
                raise EngineError("invalid_value", f"'{item}' steht doppelt in der Liste.", f"{where}[{i}]")
            seen.append(item)
        # 004 §8: "keine Ansage kann ausgelassen werden" — the set must be a start of the ladder;
        # the order in which the Schreiber lists them does not matter.
        ladder = _LADDERS[side]
        for lower, higher in zip(ladder, ladder[1:], strict=False):
            if higher in seen and lower not in seen:
                raise EngineError(
                    "invalid_value",
                    f"'{higher}' ohne '{lower}' geht nicht: keine Ansage darf ausgelassen werden (004 §8).",
                    where,
                )
        out[side] = len(seen)
    return out


def _read_extras(raw: Any, game: str) -> tuple[tuple[str, str], ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise EngineError("invalid_type", 'Erwartet eine Liste von {"side": ..., "kind": ...}.', "extras")
    allowed = _ALLOWED_EXTRAS[game]
    out: list[tuple[str, str]] = []
    for i, item in enumerate(raw):
        if type(item) is dict and len(item) == 2:
            pair = (item.get("side"), item.get("kind"))
            if type(pair[0]) is str and type(pair[1]) is str and pair in allowed:
                out.append(pair)  # the usual case
                continue
        out.append(_read_extra(item, game, f"extras[{i}]"))
    return tuple(out)


def _read_extra(item: Any, game: str, where: str) -> tuple[str, str]:
    """One Sonderpunkt outside the usual shape: read it field by field, naming what is wrong."""
    if not isinstance(item, _MAPPING):
        raise EngineError("invalid_type", 'Erwartet ein Objekt {"side": ..., "kind": ...}.', where)
    for key in item:
        if key not in ("side", "kind"):
            raise EngineError("unexpected_field", f"Unbekanntes Feld '{key}'.", f"{where}.{key}")
    side, kind = item.get("side"), item.get("kind")
    if side is None or kind is None:
        missing = "side" if side is None else "kind"
        raise EngineError("missing_field", f"Das Feld '{missing}' fehlt.", f"{where}.{missing}")
    if not isinstance(side, str) or side not in SIDES:
        raise EngineError("invalid_value", "Die Partei ist 're' oder 'contra'.", f"{where}.side")
    if not isinstance(kind, str) or kind not in EXTRA_KINDS:
        raise EngineError(
            "invalid_value", f"Unbekannter Sonderpunkt; möglich: {', '.join(EXTRA_KINDS)}.", f"{where}.kind"
        )
    if game in DOPPELKOPF_ONLY and kind != "doppelkopf":  # 004 §10
        raise EngineError(
            "invalid_value", f"{AT_GAME[game]} zählt nur der Doppelkopf als Sonderpunkt (004 §10).", f"{where}.kind"
        )
    return side, kind


def _stiche(n: int) -> str:
    return "1 Stich" if n == 1 else f"{n} Stichen"


def _check_tricks(augen: int, tricks: int) -> None:
    if augen > MAX_AUGEN[tricks]:
        raise EngineError(
            "inconsistent",
            f"Mit {_stiche(tricks)} hat die Re-Partei höchstens {MAX_AUGEN[tricks]} Augen, nicht {augen}.",
            "augen",
        )
    least = TOTAL_AUGEN - MAX_AUGEN[TRICKS - tricks]
    if augen < least:
        raise EngineError(
            "inconsistent",
            f"Mit {_stiche(tricks)} hat die Re-Partei mindestens {least} Augen, nicht {augen}.",
            "augen",
        )


def _check_extras(hand: DoppelkopfHand) -> None:
    """Refuse Sonderpunkte that cannot have happened together with the rest of the hand."""
    kinds = [kind for _, kind in hand.extras]
    if len(kinds) > 1:  # one alone is never too many
        for kind, most in EXTRA_MAX.items():
            if kinds.count(kind) > most:
                times = "einmal" if most == 1 else f"{most}-mal"
                raise EngineError(
                    "inconsistent", f"'{EXTRA_LABELS[kind]}' kann es in einem Spiel nur {times} geben.", "extras"
                )
        # The last trick has one winner: Charlie took it, or a Karo-Dame caught the first Charlie
        # played in it (004 §10) — never both.
        if "charlie" in kinds and "charlie_gefangen" in kinds:
            raise EngineError(
                "inconsistent",
                "Charlie kann nicht zugleich den letzten Stich machen und darin gefangen werden.",
                "extras",
            )
    for side in SIDES:
        mine = [kind for s, kind in hand.extras if s == side]
        if not mine:
            continue
        if hand.no_trick(side):
            raise EngineError(
                "inconsistent",
                f"Die {PARTY[side]}-Partei hat keinen Stich gemacht und kann keinen Sonderpunkt haben.",
                "extras",
            )
        augen = hand.side_augen(side)
        for kind, least in EXTRA_MIN_AUGEN.items():
            n = mine.count(kind)
            if n * least > augen:
                raise EngineError(
                    "inconsistent",
                    f"{n}× '{EXTRA_LABELS[kind]}' bringt der {PARTY[side]}-Partei mindestens {n * least} Augen, "
                    f"sie hat aber nur {augen}.",
                    "extras",
                )


def read_hand(raw: Any, seats: tuple[str, ...]) -> DoppelkopfHand:
    """Validate the spec §2.3 fields of one hand; every refusal names its field in German."""
    r = HandReader(raw, seats)
    game = r.choice("game", GAMES)
    suit = r.choice("suit", SUITS) if game == "farbsolo" else None
    if not r.has("re"):
        raise EngineError("missing_field", "Das Feld 're' fehlt: wer spielt Re?", "re")
    re = tuple(r.names("re"))
    if len(re) not in RE_SIZES[game]:
        if game == "hochzeit":
            message = (
                "Bei der Hochzeit stehen in 're' die Hochzeit und ihr Partner, oder die Hochzeit allein "
                "(ohne Partner bis zum dritten Stich)."
            )
        elif RE_SIZES[game] == (1,):
            message = f"{AT_GAME[game]} steht in 're' genau ein Name: wer allein spielt."
        else:
            message = f"{AT_GAME[game]} stehen in 're' zwei Namen."
        raise EngineError("invalid_value", message, "re")
    augen = r.int("augen", 0, TOTAL_AUGEN, label="Die Augenzahl der Re-Partei")
    tricks = r.int("tricks", 0, TRICKS, default=None, label="Die Stichzahl der Re-Partei")
    if tricks is not None:
        _check_tricks(augen, tricks)
    raw_announcements = r.get("announcements")
    if game in PFLICHT_RE:
        raw_announcements = _with_pflicht_re(raw_announcements)
    announced = _read_announcements(raw_announcements)
    extras = _read_extras(r.get("extras"), game)
    r.finish()
    hand = DoppelkopfHand(game, suit, re, augen, tricks, announced, extras)
    if extras:
        _check_extras(hand)
    return hand


def _position(hand: DoppelkopfHand) -> int:
    """Where the hand ended on the ladder of 004 §10, from Re's view.

    1..5: Re won and the Contra side stayed under 120 (Re reached 121), under 90, 60, 30, took no
    trick. 0, -1 .. -4: Contra won (Re reached at most 120), Re under 90, 60, 30, Re took no trick.
    The Contra side's view of the same hand is ``1 - position``.
    """
    re, contra = hand.augen, TOTAL_AUGEN - hand.augen
    if re >= 121:  # 004 §10: "Die Re-Partei muss immer 121 Punkte ... erzielen"
        return 1 + (contra < 90) + (contra < 60) + (contra < 30) + (contra == 0 and hand.no_trick("contra"))
    return 0 - (re < 90) - (re < 60) - (re < 30) - (re == 0 and hand.no_trick("re"))


@dataclass(frozen=True)
class GameValue:
    """The game's part of the Abrechnung, before Sonderpunkte, Bock and the solo share.

    ``lines`` speak for ``speaks_for`` (the winner; Re when nobody won) and add up to ``value``.
    """

    winner: str | None  # "re", "contra", or None: nobody won (both Absagen missed, Nullspiel)
    speaks_for: str
    lines: tuple[Line, ...]
    value: int
    nullspiel: bool = False  # 004 §8: nothing counts, not even the Sonderpunkte


def _mirror_lines(loser: str, loser_target: int, earner: str, level: int, sign: int) -> list[Line]:
    """The points a side earns against the other side's failed Absage (004 §10).

    "so bekommt der Gegner die Punkte, die im Gewinnfall die ansagende Partei bekommen hätte"
    (its levels up to the Absage plus one per Absage: 2·target − 1), and "jede weitere Stufe einen
    zusätzlichen Punkt": every level the earning side got beyond the announced mark, continuing
    into its own levels (keine 90 …) once it reached the win line. ``level`` is the earning side's
    position on the ladder (``_position`` from its view); ``sign`` writes the lines for or against
    the side the lines speak for.
    """
    highest = ABSAGEN[loser_target - 2]
    lines = [
        Line(
            f"Absage {ABSAGE_LABELS[highest]} der {PARTY[loser]}-Partei verfehlt",
            sign * (2 * loser_target - 1),
        )
    ]
    for step in range(1, loser_target + level - 1):
        level = loser_target - step  # the loser's level this step breaks; <= 0: the earner's own
        if level >= 1:
            label = f"{'121' if level == 1 and earner == 're' else MARKS[level]} erreicht"
        else:
            label = LEVEL_LABELS[1 - level]
        lines.append(Line(f"weitere Stufe: {label}", sign))
    return lines


def _value(winner: str | None, speaks_for: str, lines: list[Line], nullspiel: bool = False) -> GameValue:
    return GameValue(winner, speaks_for, tuple(lines), sum(line.amount or 0 for line in lines), nullspiel)


@cache
def game_value(
    position: int,
    announced_re: int,
    announced_contra: int,
    solo: bool,
    wedding_alone: bool,
    both_fail: str,
    versaeumte_ansage: bool,
    offene_hochzeit_unter_30: str,
) -> GameValue:
    """004 §7, §8, §10: who won and the game value, from where the hand ended on the ladder
    (``_position``) and how far each side announced (``DoppelkopfHand.announced``).

    Every Augen threshold of the rules is a ladder step (under 60 for the loser: the winner's
    level >= 3; Contra 120 or more: position <= 0; the wedding under 30: position <= -3), so these
    small integers decide everything, and the result is cached per combination.
    """
    announced = {"re": announced_re, "contra": announced_contra}
    target = {side: max(1, n) for side, n in announced.items()}  # 1 + one per Absage
    level_of = {"re": position, "contra": 1 - position}

    # 004 §7 Offene Hochzeit: "Bekommt die SpielerIn weniger als 30 Punkte, so gilt das Spiel als
    # einfach gewertet gewonnen" — read as a simple win, value 1, for the side the option names.
    if wedding_alone and position <= -3 and offene_hochzeit_unter_30 != "as_solo":
        side = "contra" if offene_hochzeit_unter_30 == "opponents_simple" else "re"
        return _value(side, side, [Line("Offene Hochzeit unter 30 Augen: einfach gewertet", 1)])

    if level_of["re"] >= target["re"]:
        winner = "re"
    elif level_of["contra"] >= target["contra"]:
        winner = "contra"
    elif target["re"] > 1 and target["contra"] > 1:
        return _both_fail(target, level_of, both_fail)
    else:
        # Only one side made an Absage and missed it: the other side wins by reaching the mark
        # that Absage denied it (004 §10), even below its own 121/120.
        winner = "contra" if target["re"] > 1 else "re"
    loser = OTHER[winner]
    level = level_of[winner]

    if versaeumte_ansage and target[loser] == 1:
        # 004 §8 "Wird keine Ansage getätigt und die Gegnerpartei bekommt weniger als 60 Punkte, so
        # gilt das Spiel für die Gegnerpartei als gewonnen. Wurde es versäumt, keine 90 anzusagen
        # und die Gegnerpartei erreicht weniger als 30 Punkte, so wird das Spiel als Nullspiel
        # gewertet." Read for the side that won: silent → the win goes over, simply valued;
        # announced without keine 90 → nobody scores. Not applied when the loser made an Absage:
        # then the winner won by the loser's failure, not by dominating a silent game.
        if announced[winner] == 0 and level >= 3:
            lines = [Line(f"Gewonnen: keine Ansage der {PARTY[winner]}-Partei (004 §8)", 1)]
            return _value(loser, loser, lines + _announcement_bonus(announced))
        if announced[winner] == 1 and level >= 4:
            label = f"Nullspiel: keine 90 der {PARTY[winner]}-Partei versäumt (004 §8)"
            return _value(None, "re", [Line(label, 0)], nullspiel=True)

    # A winner against a failed Absage gets its points; else its own levels, one each.
    lines = _mirror_lines(loser, target[loser], winner, level, 1) if target[loser] > 1 else list(LEVEL_LINES[:level])
    lines += ABSAGE_LINES[: target[winner] - 1]
    # 004 §10 "gegen die Alten": only when Contra reached 120 or more (position <= 0), and "bei
    # einem Verlust des Spiels nicht" for a soloist.
    if winner == "contra" and not solo and position <= 0:
        lines.append(GEGEN_DIE_ALTEN)
    return _value(winner, winner, lines + _announcement_bonus(announced))


def _both_fail(target: Mapping[str, int], level_of: Mapping[str, int], both_fail: str) -> GameValue:
    """Both sides made an Absage and neither reached its target (the seed is silent).

    ``net``: each side earns against the other's failed Absage what 004 §10 gives the opponent of
    a failed Absage; the Re/Contra points would go to either side and cancel out. The side with
    more points wins the difference. ``void``: the game counts nothing.
    """
    if both_fail == "void":
        return _value(None, "re", [Line("Beide Absagen verfehlt: kein Spielwert", 0)])
    earned = {side: level_of[side] + 3 * (target[OTHER[side]] - 1) for side in SIDES}
    winner: str | None = None
    if earned["re"] != earned["contra"]:
        winner = "re" if earned["re"] > earned["contra"] else "contra"
    speaks_for = winner or "re"
    lines: list[Line] = []
    for side in (speaks_for, OTHER[speaks_for]):
        sign = 1 if side == speaks_for else -1
        lines += _mirror_lines(OTHER[side], target[OTHER[side]], side, level_of[side], sign)
    return _value(winner, speaks_for, lines)


@cache
def _bock_line(bock: int) -> Line:
    return Line("Bock" if bock == 1 else f"{bock}× Bock", factor=2**bock)


def _announcement_bonus(announced: Mapping[str, int]) -> list[Line]:
    # 004 §10: "Die Ansage von Re bzw. Contra werden jeweils 2 Punkte dazu addiert" — to the
    # winner's value, whichever side announced.
    return [BONUS_LINES[side] for side in SIDES if announced[side]]


class Doppelkopf(RuleSet):
    NAME = "doppelkopf"
    FAMILY = "doppelkopf"
    UNIT = "point"
    TITLE = "Doppelkopf (Hausregeln)"
    SEED = "004_d47b93dbfb2484ce.txt"
    SEAT_COUNTS = (4,)
    OPTIONS = (
        OptionSpec(
            "bock_doubles",
            True,
            "Each Bock doubling in force (context.bock) doubles the hand's value, Sonderpunkte included. "
            "Off: the club plays without Bock, and a hand under Bock is refused.",
            kind="bool",
        ),
        OptionSpec(
            "both_fail",
            "net",
            "Both sides made an Absage and neither reached its target: each side earns the points for "
            "the other's failed Absage and the two are netted (net), or the game counts nothing and "
            "only the Sonderpunkte are scored (void).",
            kind="choice",
            choices=BOTH_FAIL_CHOICES,
        ),
        OptionSpec(
            "versaeumte_ansage",
            True,
            "004 §8: a side that won without any announcement while the other side stayed under 60 "
            "loses the game (the other side wins, simply valued); a side that announced but not "
            "'keine 90' while the other side stayed under 30 scores a Nullspiel (0 for everyone).",
            kind="bool",
        ),
        OptionSpec(
            "offene_hochzeit_unter_30",
            "opponents_simple",
            "004 §7: a wedding without partner (scored as a solo) in which the wedding player took under "
            "30 Augen 'gilt als einfach gewertet gewonnen': the opponents win with a game value of 1 "
            "(opponents_simple), the wedding player wins with 1 (wedding_simple), or no special rule "
            "(as_solo).",
            kind="choice",
            choices=OFFENE_HOCHZEIT_CHOICES,
        ),
    )

    def score(self, hand: Mapping[str, Any], seats: tuple[str, ...], context: Context) -> HandResult:
        if context.bock and not self.options["bock_doubles"]:
            raise EngineError("invalid_value", "Diese Regel spielt ohne Bockrunden.", "context.bock")
        facts = read_hand(hand, seats)
        solo = facts.solo
        position = _position(facts)
        game = game_value(
            position,
            facts.announced["re"],
            facts.announced["contra"],
            solo,
            solo and facts.game == "hochzeit",
            # Positional: the cache key is then a plain tuple (options: see OPTIONS).
            self.options["both_fail"],
            self.options["versaeumte_ansage"],
            self.options["offene_hochzeit_unter_30"],
        )
        tail: list[Line] = []  # what follows the game's own lines
        value = game.value
        if facts.extras and not game.nullspiel:
            # 004 §10: Sonderpunkte of both sides, netted against each other and against the game
            # value, from the view the lines speak for: first that side's, then the other's.
            mine = game.speaks_for
            for side, kind in sorted(facts.extras, key=EXTRA_RANK[mine].__getitem__):
                sign = 1 if side == mine else -1
                tail.append(EXTRA_LINES[side, kind, sign])
                value += sign
        multiplier = 2**context.bock
        if context.bock:
            tail.append(_bock_line(context.bock))
            value *= multiplier
        if solo:
            # 004 §10: "erhält bei einem Solo die SolospielerIn das dreifache des Spielwerts"
            tail.append(SOLO_LINE)
        re_value = value if game.speaks_for == "re" else -value
        re_share = 3 * re_value if solo else re_value
        payouts = dict.fromkeys(seats, -re_value)
        for seat in facts.re:
            payouts[seat] = re_share
        zero_sum_check(payouts)
        winner = game.winner
        loser_augen = None if winner is None else facts.side_augen(OTHER[winner])
        # Positions 5 and -4 are the ends of the ladder: one side took no trick.
        outcome = Outcome(
            game=facts.game,
            declarer=facts.re[0],
            partner=facts.re[1] if len(facts.re) == 2 else None,
            declarer_won=None if winner is None else winner == "re",
            augen=facts.augen,
            schneider=loser_augen is not None and loser_augen < 30,
            schwarz=position in (5, -4),
            suit=facts.suit,
            solo=solo,
        )
        return HandResult(
            self.UNIT,
            () if winner is None else WINNER[winner],
            payouts,
            game.lines + tuple(tail) if tail else game.lines,
            outcome,
            abs(value),
            multiplier,
        )


# --- Table events (004 §5, §10), for the evening fold -------------------------------------------


def _check_table(players: Sequence[str]) -> None:
    if len(set(players)) != len(players) or not 4 <= len(players) <= 6:
        raise EngineError("invalid_value", "Am Tisch sitzen 4 bis 6 verschiedene Spieler.", "players")


def vergeben_payouts(players_at_table: Sequence[str], dealer: str) -> dict[str, int]:
    """004 §5, §10: after the third Vergeben every player at the table gets one point, the one
    sitting out included, and the dealer is written the sum as minus."""
    _check_table(players_at_table)
    if dealer not in players_at_table:
        raise EngineError("invalid_value", f"'{dealer}' sitzt nicht am Tisch.", "dealer")
    others = len(players_at_table) - 1
    return {p: -others if p == dealer else 1 for p in players_at_table}


def schmeissen_payouts(players_at_table: Sequence[str]) -> dict[str, int]:
    """004 §5: a thrown hand is not played and scores nothing; the same dealer deals again."""
    _check_table(players_at_table)
    return dict.fromkeys(players_at_table, 0)


def table_payouts(players_at_table: Sequence[str], hand_payouts: Mapping[str, int]) -> dict[str, int]:
    """A hand's payouts for everyone at the table: whoever sat out (at five the dealer) gets 0
    (004 §10 "Wird eine 5-er Runde gespielt erhält die GeberIn immer 0 Punkte")."""
    _check_table(players_at_table)
    strangers = [p for p in hand_payouts if p not in players_at_table]
    if strangers:
        raise EngineError("invalid_value", f"'{strangers[0]}' sitzt nicht am Tisch.", "seats")
    return {p: hand_payouts.get(p, 0) for p in players_at_table}
