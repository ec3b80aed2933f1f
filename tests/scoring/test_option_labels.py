"""Issue 29, item 3: the Regeln page speaks words. Every option, every value of a choice, every
game and every rule set has a German label in ``scoring.option_labels`` (and English in the
catalogue); the keys and the rule books' sections stand only in the "Details" disclosures."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring import option_labels
from scoring.engine import registry
from scoring.engine.session_rules import table_option_specs
from tests.factories import World

SPECS = [
    (name, spec)
    for name, cls in registry.all_presets().items()
    for spec in [*cls.option_specs(), *table_option_specs(cls.build())]
]


def test_every_option_and_value_has_its_words() -> None:
    missing = sorted({spec.name for _, spec in SPECS if spec.name not in option_labels.OPTION_LABELS})
    assert missing == [], f"add a label to scoring/option_labels.py OPTION_LABELS: {missing}"
    values = sorted(
        {
            f"{spec.name}={choice}"
            for _, spec in SPECS
            for choice in spec.choices
            if option_labels.choice_label(spec.name, choice) == choice
        }
    )
    assert values == [], f"add a label to scoring/option_labels.py CHOICE_LABELS: {values}"
    assert set(option_labels.PRESET_LABELS) == set(registry.all_presets())


def test_no_label_names_a_section_or_a_key() -> None:
    with translation.override("de"):
        words = [str(label) for label in option_labels.OPTION_LABELS.values()]
        words += [str(label) for labels in option_labels.CHOICE_LABELS.values() for label in labels.values()]
        words += [option_labels.preset_label(name) for name in registry.all_presets()]
    assert [w for w in words if "§" in w or re.search(r"\b[a-z]+_[a-z_]+\b", w)] == []
    # A rule set is named after what it is, not after a club.
    assert not [w for w in words if "Schafkopf-Freunde" in w]


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_rules_page_shows_keys_only_in_details(
    world: World, client_as: Callable[[str], Client], language: str
) -> None:
    world.club.language = language
    world.club.save()
    client = client_as("owner")
    for preset in ("allgaeu", "doppelkopf", "skat"):
        html = client.get(reverse("scoring:club_rules", kwargs={"slug": world.club.slug}) + f"?preset={preset}")
        page = html.content.decode()
        assert page.count('<details class="tech">') >= 3
        body = page.split("<main", 1)[1].split("</main>", 1)[0]
        visible = re.sub(r'<details class="tech">.*?</details>', "", body, flags=re.S)
        visible = re.sub(r"<[^>]+>", " ", visible)  # text only: keys may stay in names and values
        keys = {spec.name for name, spec in SPECS if "_" in spec.name} | {"allgaeu", "reiner-schafkopf"}
        assert [key for key in keys if re.search(rf"\b{key}\b", visible)] == []
        assert "§" not in visible
