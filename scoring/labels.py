"""German names for what the engine calls by identifiers (rounds, events, suits), and one-line
descriptions of log entries for the score sheet and the audit trail. The game's own words
(Rufspiel, Bockrunde, Schuss) stay as they are in every language."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.engine.presets.schafkopf_games import GAMES, SUIT_LABELS

ROUND_LABELS = {
    "normal": gettext_lazy("normale Runde"),
    "bockrunde": "Bockrunde",
    "bockspiel": "Bockspiel",
    "mungorunde": "Mungorunde",
    "geschobene_mungorunde": "Geschobene Mungorunde",
    "gardareizrunde": "Gardareizrunde",
    "stoecklesrunde": "Stöcklesrunde",
    "megastoecklesrunde": "Megastöcklesrunde",
    "rimini": "Rimini-Runde",
    "abschlussrunde": "Abschlussrunde",
}
EVENT_LABELS = {
    "zusammengeworfen": gettext_lazy("Zusammengeworfen"),
    "vergeben": gettext_lazy("Vergeben"),
    "verabhebt": gettext_lazy("Verabhebt"),
    "special_round": gettext_lazy("Sonderrunde"),
    "vote": gettext_lazy("Abstimmung"),
    "schmeissen": gettext_lazy("Geschmissen"),
    "end_round": gettext_lazy("Runde beendet"),
}


# 001 §1 names the suits Eichel, Laub, Herz, Schell; the other rule books say Gras and Schellen.
CLUB_SUIT_LABELS = {
    "allgaeu": {**SUIT_LABELS, "gras": "Laub", "schellen": "Schell"},
    "allgaeu-meisterschaft": {**SUIT_LABELS, "gras": "Laub", "schellen": "Schell"},
}


def suit_names(preset: str) -> dict[str, str]:
    """The suits as the rule set's own book names them (engine identifiers → words)."""
    return CLUB_SUIT_LABELS.get(preset, SUIT_LABELS)


def club_words(text: str, suits: Mapping[str, str]) -> str:
    """An engine line (``Solo Gras``) in the suit words of the table's rule book (``Solo Laub``)."""
    for key, word in SUIT_LABELS.items():
        if suits.get(key, word) != word:
            text = re.sub(rf"\b{word}\b", suits[key], text)
    return text


def explain_lines(lines: Sequence[Mapping[str, Any]], suits: Mapping[str, str] = SUIT_LABELS) -> str:
    """Stored explanation lines in one line: ``Rufspiel 10 · Deckel ×2``."""
    parts = []
    for line in lines:
        label = club_words(str(line.get("label", "")), suits)
        amount = line.get("amount")
        parts.append(f"{label} {amount}" if amount is not None else label)
    return " · ".join(parts)


def round_label(name: str) -> str:
    return str(ROUND_LABELS.get(name, name))


def game_label(name: str) -> str:
    game = GAMES.get(name)
    return game.label if game else name.replace("_", " ").capitalize()


def describe(data: Mapping[str, Any], suits: Mapping[str, str] = SUIT_LABELS) -> str:
    """One line for a log entry's raw facts: ``Rufspiel Bert mit Cilli, 75 Augen, 1 Deckel``."""
    if "event" in data:
        return _describe_event(data)
    if set(data) == {"seat", "player"}:  # a seat taken over (``scoring.services.seat_change``)
        return _("Platz %(seat)s: %(player)s") % {"seat": data["seat"], "player": data["player"]}
    parts = [game_label(str(data.get("game", "?")))]
    if data.get("suit") in suits:
        parts[0] += " " + suits[data["suit"]]
    if data.get("tout"):
        parts[0] += " Tout"
    parts[0] += _skat_words(data)
    who = data.get("declarer") or (data.get("re") or [None])[0]
    if who:
        partner = data.get("partner")
        parts.append(_("%(who)s mit %(partner)s") % {"who": who, "partner": partner} if partner else str(who))
    if data.get("augen") is not None:
        parts.append(_("%(augen)s Augen") % {"augen": data["augen"]})
        if data.get("tricks") in (0, 8) and not str(data.get("result", "")).endswith("schwarz"):
            parts.append(_("Schwarz"))
    if data.get("result"):
        parts.append(str(RESULT_LABELS.get(data["result"], data["result"])))
    if data.get("laufende"):
        parts.append(_("%(n)s Laufende") % {"n": data["laufende"]})
    if data.get("kontra"):
        parts.append(_("%(n)s× gestoßen") % {"n": data["kontra"]})
    if data.get("deckel"):
        parts.append(_("%(n)s Deckel") % {"n": data["deckel"]})
    if data.get("dealer"):
        parts.append(_("gegeben von %(who)s") % {"who": data["dealer"]})
    if data.get("bought_by"):
        parts.append(_("Karten gekauft von %(who)s") % {"who": data["bought_by"]})  # 001 §7.1
    if data.get("bid"):
        parts.append(_("Gebot %(bid)s") % {"bid": data["bid"]})
    if data.get("fehler"):
        parts.append(_("Fehler von %(who)s") % {"who": data["fehler"].get("by", "?")})
    return ", ".join(parts)


GAME_SHORT = {"rufspiel": "Ruf", "farbwenz": "F-Wenz", "farbgeier": "F-Geier", "ramsch": "Ramsch"}


def paper_numbers(kinds: Sequence[str]) -> list[str]:
    """The "Nr." of each log entry as the paper sheet counts (issue 21): the hands 1, 2, 3 …;
    an event (Vergeben, a special round …) is no hand and takes the number of the hand before it
    with a letter (``12a``, ``12b``; ``0a`` before the first hand), so the numbers never drift
    from the paper. ``kinds`` are the entries' kinds in log order ("hand" or the event)."""
    out: list[str] = []
    hands = 0
    letters = 0
    for kind in kinds:
        if kind == "hand":
            hands += 1
            letters = 0
            out.append(str(hands))
        else:
            out.append(f"{hands}{chr(ord('a') + letters % 26)}")
            letters += 1
    return out


SHORT_MAX = 7  # characters that fit a player's column of the Liste at six players on a 390 px phone


def short_names(names: Sequence[str]) -> dict[str, str]:
    """A short name per player for a narrow column, distinct at the table and at most
    ``SHORT_MAX`` characters (issue 21: two "Maximilian …" must not both read "Maximi…"): the
    first name; else its start and the last name's initial (``Maxi H.``); else the first initial
    and the last name's start (``M. Hube``); else the start of the full name and the seat number."""

    def clip(word: str, size: int) -> str:
        return word if len(word) <= size else word[: size - 1] + "."

    def first(name: str) -> str:
        return clip(name.split()[0] if name.split() else name, SHORT_MAX)

    def first_and_initial(name: str) -> str:
        words = name.split()
        return f"{clip(words[0], SHORT_MAX - 3)} {words[-1][0]}." if len(words) > 1 else clip(name, SHORT_MAX)

    def initial_and_last(name: str) -> str:
        words = name.split()
        return f"{words[0][0]}. {clip(words[-1], SHORT_MAX - 3)}" if len(words) > 1 else clip(name, SHORT_MAX)

    out: dict[str, str] = {}
    for shorten in (first, first_and_initial, initial_and_last):
        candidates = [shorten(name) for name in names]
        taken = set(out.values())
        for name, short in zip(names, candidates, strict=True):
            if name not in out and candidates.count(short) == 1 and short not in taken:
                out[name] = short
    for seat, name in enumerate(names, start=1):
        if name not in out:
            out[name] = f"{clip(name, SHORT_MAX - 2)}{seat}"
    return out


def describe_short(data: Mapping[str, Any], short: Mapping[str, str], suits: Mapping[str, str] = SUIT_LABELS) -> str:
    """A few characters for the Liste on a phone: the game and who played (the full line is a
    tap away): ``Ruf Sepp``, ``Solo H Tout Zenzi``, ``Vergeben``."""
    if "event" in data:
        return str(EVENT_LABELS.get(str(data.get("event")), data.get("event")))
    game = str(data.get("game", "?"))
    text = GAME_SHORT.get(game, game_label(game))
    if data.get("suit") in suits:
        text += " " + suits[data["suit"]]
    if data.get("tout"):
        text += " Tout"
    if type(data.get("spitzen")) is int:  # Skat: "Kreuz m2 H Sepp" (mit 2, Hand)
        text += f" {'o' if data.get('ohne') else 'm'}{data['spitzen']}"
    if data.get("hand") is True:
        text += " H"
    if data.get("ouvert") is True:
        text += " O"
    who = data.get("declarer") or (data.get("re") or [None])[0]
    if who:
        text += " " + short.get(str(who), str(who))
    return text


def _skat_words(data: Mapping[str, Any]) -> str:
    """A Skat game's mit/ohne, Hand, Ouvert and announcement (spec §2.4): ``mit 2 Hand``."""
    words = []
    if type(data.get("spitzen")) is int:
        words.append((_("ohne %(n)s") if data.get("ohne") else _("mit %(n)s")) % {"n": data["spitzen"]})
    if data.get("hand") is True:
        words.append(_("Hand"))
    if data.get("ouvert") is True:
        words.append(_("ouvert"))
    if data.get("announced") == "schneider":
        words.append(_("Schneider angesagt"))
    elif data.get("announced") == "schwarz":
        words.append(_("Schwarz angesagt"))
    return "".join(f" {word}" for word in words)


def _describe_event(data: Mapping[str, Any]) -> str:
    kind = str(data.get("event"))
    text = str(EVENT_LABELS.get(kind, kind))
    if data.get("by"):
        text += f" ({data['by']})"
    if data.get("kind"):
        text += f": {round_label(str(data['kind']))}"
    if data.get("choice"):
        text += f": {round_label(str(data['choice']))}"
    return text


RESULT_LABELS = {
    "won": gettext_lazy("gewonnen"),
    "won_schneider": gettext_lazy("gewonnen, Schneider"),
    "won_schwarz": gettext_lazy("gewonnen, Schwarz"),
    "lost": gettext_lazy("verloren"),
    "lost_schneider": gettext_lazy("verloren, Schneider"),
    "lost_schwarz": gettext_lazy("verloren, Schwarz"),
}


def triggered_news(triggered: Sequence[str], pending: Sequence[Mapping[str, Any]]) -> list[str]:
    """What a hand set off, said at once (001 §5.1, §5.2): ``triggered`` of the entry, and the
    rounds pending after it (``TableState.pending_rounds()``) for how long and when."""
    news = []
    for kind in triggered:
        # The round just set off is the last of its kind: a Bockrunde triggered inside a running
        # one is queued behind it, or (bock_overlap "stack") runs on top of it (issue 21).
        slots = [s for s in pending if s["round"] == kind]
        slot = slots[-1] if slots else None
        games = slot["games"] if slot else None
        if kind == "vote":
            news.append(_("Abstimmung fällig: Mungorunde oder Bockrunde? Erst danach wird weitergespielt."))
        elif slot is not None and not slot["in_force"]:
            news.append(_("%(round)s ausgelöst: sie kommt nach der laufenden Runde.") % {"round": round_label(kind)})
        elif kind == "bockrunde" and len(slots) > 1:
            news.append(_("Noch eine Bockrunde: die nächsten %(n)s Spiele zusätzlich doppelt.") % {"n": games})
        elif kind == "bockrunde":
            news.append(_("Bockrunde: die nächsten %(n)s Spiele doppelt.") % {"n": games})
        elif kind == "mungorunde":
            text = _("Mungorunde: die nächsten %(n)s Spiele nur Einzelspiele oder Mungo, kein Rufspiel.")
            news.append(text % {"n": games})
    return news


def triggered_label(kind: str) -> str:
    """The preview's word for what the hand would set off."""
    if kind == "vote":
        return _("eine Abstimmung (Mungorunde oder Bockrunde)")
    return round_label(kind)


def unpaid_notes(ruleset: Any, data: Mapping[str, Any], outcome: Any) -> list[str]:
    """What the hand as typed has but the rules do not pay, and why: Laufende below the
    rule set's threshold (``2 Laufende – beim Solo erst ab 3``), Schneider at a Tout."""
    game = GAMES.get(str(data.get("game")))
    if game is None or outcome is None or not hasattr(ruleset, "opt") or outcome.penalty:
        return []
    notes = []
    laufende = data.get("laufende") or 0
    if laufende and not outcome.laufende and game.kind in ("partner", "solo"):
        threshold = ruleset.opt("laufende_from_short" if game.short_run else "laufende_from")
        notes.append(
            _("%(n)s Laufende – beim %(game)s erst ab %(from)s")
            % {"n": laufende, "game": game.label, "from": threshold}
        )
    if outcome.tout:
        notes.append(_("Schneider und Schwarz – beim Tout nicht"))
    return notes
