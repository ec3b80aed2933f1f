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

from tests.factories import World

PO = Path(settings.BASE_DIR) / "locale" / "en" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")


def po_entries() -> list[tuple[str | None, str, str, bool]]:
    """(context, msgid, msgstr, fuzzy) for each entry but the header; enough of the format for ours."""
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
            entries.append((fields.get("msgctxt"), fields["msgid"], fields.get("msgstr", ""), fuzzy))
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
