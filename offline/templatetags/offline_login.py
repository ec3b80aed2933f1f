"""``{% offline_login %}``: the id of the login the page is made for (``offline.logins``)."""

from __future__ import annotations

from typing import Any

from django import template

from offline.logins import NOBODY, login_id

register = template.Library()


@register.simple_tag(takes_context=True)
def offline_login(context: dict[str, Any]) -> str:
    request = context.get("request")
    user = getattr(request, "user", None)
    return login_id(user) if user is not None else NOBODY
