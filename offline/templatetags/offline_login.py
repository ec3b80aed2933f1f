"""The offline score sheet's tags: ``{% offline_login %}``, the id of the login the page is made for
(``offline.logins``), ``{% offline_texts %}``, the script's texts (``offline.texts``), and
``{% suit_words preset %}``, the suit words of the table's rule book for the engine's lines."""

from __future__ import annotations

import json
from typing import Any

from django import template
from django.utils.html import json_script

from offline.logins import NOBODY, login_id
from offline.texts import TEXTS
from scoring.labels import SUIT_LABELS, suit_names

register = template.Library()


@register.simple_tag(takes_context=True)
def offline_login(context: dict[str, Any]) -> str:
    request = context.get("request")
    user = getattr(request, "user", None)
    return login_id(user) if user is not None else NOBODY


@register.simple_tag
def offline_texts() -> str:
    """The texts of ``offline-table.js`` in the page's language, as ``<script id="offline-texts">``."""
    return json_script({name: str(text) for name, text in TEXTS.items()}, "offline-texts")


@register.simple_tag
def suit_words(preset: str) -> str:
    """The engine's suit words the rule book of ``preset`` names otherwise, as JSON (``{"Gras":
    "Laub"}`` under Allgäu): the phone's own lines then read as the server's (``club_words``)."""
    suits = suit_names(preset)
    return json.dumps({word: suits[key] for key, word in SUIT_LABELS.items() if suits.get(key, word) != word})


@register.filter
def as_json(value: Any) -> str:
    """A value for a data attribute as JSON (the template escapes it for the attribute)."""
    return json.dumps(value, ensure_ascii=False)
