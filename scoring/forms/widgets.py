"""Widgets of the phone forms."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms


class PillSelect(forms.RadioSelect):
    """Radio buttons drawn as pills (``_pills.html``) whose choices may carry attributes of
    their own: ``games`` (shown only for these games, read by score-entry.js), ``hide_tout``,
    ``disabled`` with a ``reason`` shown beside it, ``row`` (a line break before the choice)."""

    def __init__(self, *args: Any, choice_attrs: Mapping[Any, Mapping[str, Any]] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.choice_attrs = dict(choice_attrs or {})

    def create_option(self, name: str, value: Any, label: Any, selected: Any, index: int, **kwargs: Any) -> dict:
        option = super().create_option(name, value, label, selected, index, **kwargs)
        extra = dict(self.choice_attrs.get(value, {}))
        if extra.get("disabled"):
            option["attrs"]["disabled"] = True
        option["pill"] = extra
        return option
