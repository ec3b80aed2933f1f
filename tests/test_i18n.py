"""German by default, English available; the committed catalogue is complete and compiled."""

import ast
import gettext
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from scoring import engine_texts
from scoring.engine import registry
from scoring.engine.session_rules import table_option_specs
from tests.factories import World

PO = Path(settings.BASE_DIR) / "locale" / "en" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")


def po_entries() -> list[tuple[str | None, str, str, bool]]:
    """(context, msgid, msgstr, fuzzy) for each entry but the header; enough of the format for ours
    (a plural entry gives its singular: msgid and msgstr[0])."""
    entries = []
    for block in PO.read_text(encoding="utf-8").split("\n\n"):
        fields: dict[str, str] = {}
        key = None
        for line in block.splitlines():
            if match := re.match(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d\])?) (".*")$', line):
                key = match.group(1)
                fields[key] = ast.literal_eval(match.group(2))
            elif line.startswith('"') and key:
                fields[key] += ast.literal_eval(line)
        if fields.get("msgid"):
            fuzzy = "#, fuzzy" in block or ", fuzzy" in block
            msgstr = fields.get("msgstr", fields.get("msgstr[0]", ""))
            if "msgid_plural" in fields and not fields.get("msgstr[1]"):
                msgstr = ""  # the plural form is missing
            entries.append((fields.get("msgctxt"), fields["msgid"], msgstr, fuzzy))
    return entries


def test_every_string_has_an_english_translation() -> None:
    entries = po_entries()
    assert len(entries) > 50
    assert [msgid for _, msgid, msgstr, fuzzy in entries if not msgstr or fuzzy] == []


def test_the_compiled_catalogue_matches_the_po_file() -> None:
    """A forgotten compile (make messages) shows up here rather than as German text in English."""
    with MO.open("rb") as handle:
        catalogue = gettext.GNUTranslations(handle)
    for context, msgid, msgstr, _ in po_entries():
        compiled = catalogue.pgettext(context, msgid) if context else catalogue.gettext(msgid)
        assert compiled == msgstr, msgid


def test_german_is_the_default(client: Client) -> None:
    page = client.get(reverse("login")).content.decode()
    assert '<html lang="de">' in page
    assert "Anmelden" in page


def test_the_footer_switches_to_english_and_back(world: World, client_as: Callable[[str], Client]) -> None:
    client = client_as("member")
    response = client.post(reverse("set_language"), {"language": "en", "next": reverse("clubs:my_clubs")}, follow=True)
    page = response.content.decode()
    assert '<html lang="en">' in page
    assert "My clubs" in page
    client.post(reverse("set_language"), {"language": "de"})
    assert "Meine Vereine" in client.get(reverse("clubs:my_clubs")).content.decode()


@pytest.mark.parametrize("header", ["en-US,en;q=0.9", "de-DE,de;q=0.9"])
def test_the_browser_language_is_honoured(client: Client, header: str) -> None:
    page = client.get(reverse("login"), headers={"accept-language": header}).content.decode()
    assert ("Log in" in page) == header.startswith("en")


def test_the_engine_texts_are_all_marked_for_translation() -> None:
    """The pure engine cannot mark its texts; ``scoring/engine_texts.py`` does, and must list
    exactly the engine's option descriptions and preset titles (issue 22, finding 8)."""
    presets = [cls.build() for cls in registry.all_presets().values()]
    docs = {spec.doc for rules in presets for spec in [*rules.option_specs(), *table_option_specs(rules)]}
    titles = {rules.TITLE for rules in presets}
    missing = sorted((docs | titles) - set(engine_texts.OPTION_TEXTS) - set(engine_texts.PRESET_TITLES))
    assert missing == [], f"add gettext_noop(...) lines to scoring/engine_texts.py: {missing}"
    assert set(engine_texts.OPTION_TEXTS) == docs and set(engine_texts.PRESET_TITLES) == titles
    msgids = {msgid for _, msgid, _, _ in po_entries()}
    assert (docs | titles) - msgids == set()  # make messages picked them up


def test_the_rules_page_speaks_english(world: World, client_as: Callable[[str], Client]) -> None:
    """The options' descriptions, the preset titles and the Kasse in English; the option names
    of the JSON format and the game's own words stay as they are."""
    client = client_as("owner")
    client.post(reverse("set_language"), {"language": "en"})
    page = client.get(reverse("scoring:club_rules", kwargs={"slug": world.club.slug})).content.decode()
    assert "Base price Rufspiel" in page
    assert "Schafkopf for money (Bock, Mungo)" in page
    assert "Grundpreis Rufspiel" not in page and "Schafkopf um Geld" not in page
    sessions = client.get(reverse("scoring:session_list", kwargs={"slug": world.club.slug})).content.decode()
    assert "Kitty" in sessions


# --- the club's language (issue 29, item 6) -------------------------------------------------------


def test_the_clubs_language_wins_over_the_browsers(world: World, client_as: Callable[[str], Client]) -> None:
    home = reverse("clubs:home", kwargs={"slug": world.club.slug})
    client = client_as("member")
    assert '<html lang="de">' in client.get(home, headers={"accept-language": "en"}).content.decode()
    world.club.language = "en"
    world.club.save()
    page = client.get(home, headers={"accept-language": "de-DE,de"}).content.decode()
    assert '<html lang="en">' in page and "Evenings" in page
    # Pages outside the club follow the browser; a visitor's own choice in the footer wins.
    assert "Anmelden" in Client().get(reverse("login"), headers={"accept-language": "de"}).content.decode()
    client.post(reverse("set_language"), {"language": "de"})
    assert '<html lang="de">' in client.get(home, headers={"accept-language": "en"}).content.decode()


def test_an_outsiders_not_found_page_does_not_tell_the_clubs_language(
    world: World, client_as: Callable[[str], Client]
) -> None:
    world.club.language = "en"
    world.club.save()
    response = client_as("outsider").get(reverse("clubs:home", kwargs={"slug": world.club.slug}))
    assert response.status_code == 404 and '<html lang="de">' in response.content.decode()


def test_the_owner_sets_the_clubs_language(world: World, client_as: Callable[[str], Client]) -> None:
    url = reverse("clubs:settings", kwargs={"slug": world.club.slug})
    response = client_as("owner").post(url, {"name": world.club.name, "language": "en"}, follow=True)
    world.club.refresh_from_db()
    assert world.club.language == "en" and "Saved." in response.content.decode()
    assert client_as("owner").post(url, {"name": world.club.name, "language": "xx"}).status_code == 200
    world.club.refresh_from_db()
    assert world.club.language == "en"
