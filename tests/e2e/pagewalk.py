"""Walking every page of a club at a phone's width (issue 29, items 3, 4 and 6): the helpers of
``test_every_page.py``, kept apart so a page can be checked by hand against a running server.

``walk`` follows the links of the club's pages breadth-first, one page per URL pattern (the
evenings are many, their page is one), and asks the browser on each what a person would see:

- anything wider than the screen, a table that scrolls sideways, a select whose chosen text is
  cut (``LAYOUT_JS``);
- an option key (``snake_case``), a section number ("§"), a select offering its raw values, a rule
  set's key, outside the "Details" disclosures (``details.tech``), where a volunteer reads words;
- in English, German words other than the game's own terms and the club's data (``german_words``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from django.urls import Resolver404, resolve
from playwright.sync_api import Page

# What is not a page to look at: files, the admin, leaving, switching language, the service worker.
SKIP = re.compile(
    r"(\.(pdf|xlsx|json|csv|js|webmanifest|png|svg)$)|/(pdf|xlsx|csv|json|svg|chart[\w-]*)/$"
    r"|^/(admin|accounts|i18n|static)/|/export/|/backup"
)

LAYOUT_JS = """
() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
  if (document.documentElement.scrollWidth > width + 1) out.push('the page scrolls sideways: ' +
    document.documentElement.scrollWidth + ' px');
  const visible = (el) => el.checkVisibility ? el.checkVisibility() : !!el.offsetParent;
  const clipped = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o !== 'visible') return true;
    }
    return false;
  };
  for (const el of document.body.querySelectorAll('*')) {
    if (!visible(el)) continue;
    const style = getComputedStyle(el);
    if ((style.overflowX === 'auto' || style.overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1
        && !el.closest('.first-run')) {
      out.push(name(el) + ' scrolls sideways (' + el.scrollWidth + ' > ' + el.clientWidth + ' px): ' +
        (el.innerText || '').slice(0, 60).replace(/\\s+/g, ' '));
    }
    const r = el.getBoundingClientRect();
    if (r.width > 0 && (r.right > width + 1 || r.left < -1) && !clipped(el)) {
      out.push(name(el) + ' runs off the screen (' + Math.round(r.left) + '..' + Math.round(r.right) + ' px): ' +
        (el.innerText || el.value || '').slice(0, 60).replace(/\\s+/g, ' '));
    }
    if (el.tagName === 'SELECT' && el.selectedIndex >= 0) {
      const canvas = document.createElement('canvas').getContext('2d');
      canvas.font = style.font;
      const text = el.options[el.selectedIndex].text;
      const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      if (canvas.measureText(text).width > room + 1) out.push(name(el) + ' cuts its text: ' + text);
    }
  }
  return [...new Set(out)];
}
"""

# The text a person reads: visible text nodes and the options of every select, each with whether
# it lies inside a "Details" disclosure (details.tech), where keys and sections may stand.
TEXT_JS = """
() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || ['SCRIPT', 'STYLE', 'OPTION', 'TEMPLATE', 'NOSCRIPT'].includes(el.tagName)) continue;
    if (el.closest('details.tech, [hidden], [aria-hidden="true"]')) continue;
    if (!(el.checkVisibility ? el.checkVisibility() : el.offsetParent)) continue;
    const text = node.textContent.trim();
    if (text) out.push(text);
  }
  for (const option of document.querySelectorAll('select option')) {
    if (option.closest('details.tech')) continue;
    const text = option.text.trim();
    if (text && text === option.value && /^[a-z][a-z0-9_-]*$/.test(text)) out.push('(raw choice) ' + text);
    else out.push(text);
  }
  for (const input of document.querySelectorAll('input[type=submit], button')) {
    if (input.value && input.tagName === 'INPUT') out.push(input.value);
  }
  return out;
}
"""

SNAKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")

# The ways a date can be written; a page uses one of them (issue 29, item 6: three on one page).
DATE_FORMATS = {
    "30.10.2026": re.compile(r"\b\d{1,2}\.\d{1,2}\.\d{4}\b"),
    "10/30/2026": re.compile(r"\b\d{1,2}/\d{1,2}/\d{4}\b"),
    "2026-10-30": re.compile(r"\b\d{4}-\d{2}-\d{2}\b"),
    "Oct. 30, 2026": re.compile(r"\b[A-Z][a-z]{2,8}\.? \d{1,2}, \d{4}\b"),
    "30. Oktober 2026": re.compile(r"\b\d{1,2}\. [A-ZÄÖÜ][a-zäöü]+ \d{4}\b"),
}


def date_formats(texts: Iterable[str]) -> list[str]:
    """The date formats a page uses, with an example of each, where it uses more than one."""
    seen: dict[str, str] = {}
    for text in texts:
        for name, pattern in DATE_FORMATS.items():
            match = pattern.search(text)
            if match and name not in seen:
                seen[name] = match[0]
    return [f"dates written {len(seen)} ways: {', '.join(seen.values())}"] if len(seen) > 1 else []


@dataclass
class Walk:
    pages: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def route_of(path: str) -> str | None:
    try:
        match = resolve(path)
    except Resolver404:
        return None
    return match.route


def code_words(texts: Iterable[str], keys: Iterable[str], values: Iterable[str] = ()) -> list[str]:
    """Option keys, section numbers and rule set keys in text a person reads; a select offering an
    option's raw ``values`` (``pflicht``) where it should offer words."""
    keys = set(keys)
    values = set(values) | keys
    # Keys that are words of their own (games, stock, standard) are checked in selects only.
    keys = {key for key in keys if "_" in key or "-" in key} | {"allgaeu"}
    found = []
    for text in texts:
        if text.startswith("(raw choice) "):
            if text.removeprefix("(raw choice) ") in values:
                found.append(text)
            continue
        if "§" in text:
            found.append(f"section: {text[:80]}")
        words = set(SNAKE.findall(text)) | {word for word in re.findall(r"[\w-]+", text) if word in keys}
        found += [f"key {word}: {text[:80]}" for word in sorted(words)]
    return found


# German words a page in English must not show; the game's own terms (Rufspiel, Solo, Wenz,
# Laufende, Stoß …) and the club's own data (names, places) are not German to be translated.
GERMAN = {
    "und", "oder", "der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "nicht", "mit",
    "für", "von", "vom", "zum", "zur", "bei", "nach", "ist", "sind", "noch", "nur", "auf", "aus",
    "Seite", "Tisch", "Tische", "Runde", "Runden", "Spieler", "Spielerin", "Punkte", "Preis", "Datum",
    "Verein", "Vereins", "Abend", "Abende", "Spielabend", "Spielabende", "Eintrag", "Einträge", "speichern",
    "Speichern", "abmelden", "Abmelden", "zurück", "Wertungszettel", "Platz", "Plätze", "Regel",
    "Regeln", "Gewinn", "Gewinne", "Spiele", "Spiel", "gewonnen", "verloren", "Meisterschaft",
    "Tabelle", "Ergebnis", "Sitzplan", "Startgeld", "Anmeldung", "Wohnort", "bezahlt", "offen",
    "geschlossen", "Summe", "Schnitt", "Anzahl", "Rolle", "Mitglied", "Vorstand",
    "Einstellungen", "Sprache", "Auslosung", "ausgelost", "Preise", "heute", "gestern", "bis", "Uhr",
    "Januar", "Februar", "März", "Mai", "Juni", "Juli",
    "Oktober", "Dezember", "Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag",
    "Sonntag", "Optionen", "Gibt", "gibt", "zuerst", "wählen", "Wählen", "Zahlen", "zahlen",
}  # fmt: skip
GAME_TERMS = {
    "Schafkopf", "Doppelkopf", "Skat", "Saukopf", "Preisschafkopf", "Rufspiel", "Solo", "Soli", "Wenz",
    "Geier", "Farbwenz", "Farbgeier", "Bettel", "Betteln", "Sie", "Tout", "Mungo", "Ramsch", "Leasters",
    "Laufende", "Laufenden", "Schneider", "Schwarz", "Stoß", "Stöße", "Kontra", "Re", "Deckel", "Bock",
    "Bockrunde", "Bockrunden", "Bockspiel", "Mungorunde", "Stock", "Augen", "Spritze", "Klopfer",
    "Vergeben", "Verabhebt", "Zusammengeworfen", "Herz", "Gras", "Eichel", "Schellen", "Laub", "Schell",
    "Ober", "Unter", "Sau", "Hochzeit", "Kasse", "Gardareizrunde", "Stöcklesrunde", "Renonce",
    "Steigern", "Tagessieger", "Königssolo", "Farbsolo", "Vierhaxer", "Dreihaxer", "Zähleinheiten",
    "Partie", "Partien", "Zockmeisterschaft", "Spielzettel", "Sonderpunkte", "Megastöcklesrunde",
    "König", "Könige", "Damen", "Dame", "Buben", "Bube", "Rimini-Runde", "Muss-Spiel", "Zock-König",
    "Zock-Könige", "Mungo-Spieler", "Wanderpokal",
    "Schreiber",  # the championship's word for the one who scores a table (001 §11.2), kept in English

}  # fmt: skip
GERMAN_LETTERS = re.compile(r"[äöüÄÖÜß]")


# A Skat club's pages never offer Schafkopf's words (issue 32 §3): its games, its rounds and
# counters. Bock and Kontra are Skat house rules too (skat.md §7) and may stand where switched on.
SCHAFKOPF_WORDS = re.compile(
    r"\b(Rufspiel\w*|Sau|Sauspiel|Laufenden?|Stock|Deckel|Mungo\w*|Solos?|Wenz|Geier|Tout|Schafkopf\w*|Stöckle\w*)\b"
)


def foreign_words(texts: Iterable[str], pattern: re.Pattern[str] | None, data: Iterable[str] = ()) -> list[str]:
    """Words of another game (``pattern``) in text a person reads, but for the club's own data
    (a player's name may hold any word)."""
    if pattern is None:
        return []
    data = sorted({d for d in data if d}, key=len, reverse=True)
    found = []
    for text in texts:
        for item in data:
            text = text.replace(item, " ")
        found += [f"says {match!r}: {text[:60]!r}" for match in sorted(set(pattern.findall(text)))]
    return found


def german_words(texts: Iterable[str], data: Iterable[str]) -> list[str]:
    """German words in texts that should be English, but for the game's terms and the data."""
    data = sorted({d for d in data if d}, key=len, reverse=True)
    found = []
    for text in texts:
        text = text.removeprefix("(raw choice) ")
        for item in data:
            text = text.replace(item, " ")
        for token in re.findall(r"\w+(?:-\w+)*", text):
            if token in GAME_TERMS:  # a hyphenated term whole (Rimini-Runde), else word by word
                continue
            for word in token.split("-"):
                if word in GAME_TERMS or word.isdigit():
                    continue
                if word in GERMAN or GERMAN_LETTERS.search(word):
                    found.append(f"{word}: {text.strip()[:80]}")
    return found


def walk(
    page: Page,
    base: str,
    start: str,
    *,
    keys: Iterable[str],
    values: Iterable[str] = (),
    data: Iterable[str] = (),
    english: bool = False,
    routes: set[str] | None = None,
    foreign: re.Pattern[str] | None = None,
    leave_out: re.Pattern[str] | None = None,
) -> Walk:
    """Visit ``start`` and every page it leads to under the club's address, one per URL pattern
    (``routes`` already seen are skipped, so a second walk visits only what the first missed);
    ``foreign``: words the club's pages must not say (``SCHAFKOPF_WORDS``); ``leave_out``: paths
    not to visit."""
    keys = list(keys)
    values = list(values)
    data = list(data)
    seen_routes = routes if routes is not None else set()
    queue = [start]
    queued = {start}
    result = Walk()
    club_prefix = start.rstrip("/") + "/"
    while queue:
        path = queue.pop(0)
        route = route_of(urlsplit(path).path)
        if route is None or route in seen_routes:
            continue
        seen_routes.add(route)
        response = page.goto(base + path)
        if response is None or response.status >= 400:
            result.problems.append(f"{path}: HTTP {response.status if response else '?'}")
            continue
        result.pages.append(path)
        found = [f"{path}: {p}" for p in page.evaluate(LAYOUT_JS)]
        texts = page.evaluate(TEXT_JS)
        found += [f"{path}: {p}" for p in code_words(texts, keys, values)]
        found += [f"{path}: {p}" for p in date_formats(texts)]
        if english:
            found += [f"{path}: German {p}" for p in german_words(texts, data)]
        found += [f"{path}: {p}" for p in foreign_words(texts, foreign, data)]
        result.problems += found
        for href in page.eval_on_selector_all("a[href]", "els => els.map(a => a.getAttribute('href'))"):
            parts = urlsplit(href)
            if parts.scheme or parts.netloc or not parts.path.startswith(("/clubs/", "/o/")):
                continue
            if not (parts.path.startswith(club_prefix) or parts.path.startswith("/o/")) or SKIP.search(parts.path):
                continue
            if leave_out is not None and leave_out.search(parts.path):
                continue
            target = parts.path + (f"?{parts.query}" if parts.query else "")
            if target not in queued:
                queued.add(target)
                queue.append(target)
    return result
