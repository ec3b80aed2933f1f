"""One registry that maps preset names to rule set classes.

Presets register themselves with ``@register``; ``load`` turns the spec's ``ruleset`` value
(a name, or ``{"preset": NAME, "options": {...}}``) into a resolved ``RuleSet``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .core import EngineError, RuleSet

PRESETS: dict[str, type[RuleSet]] = {}


def register(cls: type[RuleSet]) -> type[RuleSet]:
    PRESETS[cls.NAME] = cls
    return cls


def _ensure_loaded() -> None:
    # Importing the preset modules registers them; done lazily to avoid import cycles.
    from . import presets  # noqa: F401


def load(spec: Any, field: str = "ruleset") -> RuleSet:
    _ensure_loaded()
    if isinstance(spec, str):
        name, overrides = spec, {}
    elif isinstance(spec, Mapping):
        name = spec.get("preset")
        overrides = spec.get("options") or {}
        if not isinstance(overrides, Mapping):
            raise EngineError("invalid_type", "Die Optionen müssen ein Objekt sein.", f"{field}.options")
        extra = set(spec) - {"preset", "options"}
        if extra:
            raise EngineError("unexpected_field", f"Unbekanntes Feld '{sorted(extra)[0]}'.", field)
    else:
        raise EngineError("missing_field" if spec is None else "invalid_type", "Eine Regel (Preset) fehlt.", field)
    if not isinstance(name, str) or name not in PRESETS:
        known = ", ".join(sorted(PRESETS))
        raise EngineError("unknown_preset", f"Unbekannte Regel '{name}'; bekannt sind: {known}.", field)
    return PRESETS[name].build(overrides)


def all_presets() -> dict[str, type[RuleSet]]:
    _ensure_loaded()
    return dict(sorted(PRESETS.items()))
