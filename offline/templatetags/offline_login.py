"""The offline score sheet's tags: ``{% offline_login %}``, the id of the login the page is made for
(``offline.logins``), and ``{% offline_texts %}``, the script's texts (``offline.texts``)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import json_script

from offline.logins import NOBODY, login_id
from offline.texts import TEXTS

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
