"""One registry that maps preset names to rule set classes.

The presets are listed here, explicitly: a new preset is one more class in ``PRESETS``. ``load``
turns the spec's ``ruleset`` value (a name, or ``{"preset": NAME, "options": {...}}``) into a
resolved ``RuleSet``.

The same ``options`` object also carries the table options of an evening (Bock triggers, Stock …,
``session_rules``): ``load_with_table`` splits them off and resolves both; ``load`` validates them
and returns the rule set alone, so a hand scored on its own accepts a session's rule set as is.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .core import EngineError, RuleSet
from .presets.doppelkopf import Doppelkopf
from .presets.saukopf import Saukopf
from .presets.schafkopf import Allgaeu, AllgaeuMeisterschaft, ReinerSchafkopf, Standard
from .presets.skat import Skat
from .presets.skat_seeger import SkatSeeger
from .session_rules import ALL_TABLE_OPTIONS, TableRules, build_table_rules

PRESETS: dict[str, type[RuleSet]] = {
    cls.NAME: cls
    for cls in (Standard, Allgaeu, AllgaeuMeisterschaft, ReinerSchafkopf, Saukopf, Doppelkopf, Skat, SkatSeeger)
}


def load(spec: Any, field: str = "ruleset") -> RuleSet:
    return load_with_table(spec, field)[0]


_CACHE: dict[str, tuple[RuleSet, TableRules]] = {}


def load_with_table(spec: Any, field: str = "ruleset") -> tuple[RuleSet, TableRules]:
    """The rule set and the table options of ``spec``; an option the preset itself defines
    always belongs to the preset, never to the table.

    Rule sets are immutable, so a resolved spec is remembered by its JSON text: scoring a stream
    of hands under one rule set resolves it once."""
    try:
        key = json.dumps(spec, sort_keys=True) + field
    except (TypeError, ValueError):
        key = None
    if key is not None and key in _CACHE:
        return _CACHE[key]
    result = _resolve(spec, field)
    if key is not None and len(_CACHE) < 256:
        _CACHE[key] = result
    return result


def _resolve(spec: Any, field: str) -> tuple[RuleSet, TableRules]:
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
    cls = PRESETS[name]
    own = {spec.name for spec in cls.option_specs()}
    table_names = {key for key in overrides if key in ALL_TABLE_OPTIONS and key not in own}
    ruleset = cls.build({key: value for key, value in overrides.items() if key not in table_names})
    table = build_table_rules(ruleset, {key: overrides[key] for key in table_names})
    return ruleset, table


def all_presets() -> dict[str, type[RuleSet]]:
    return dict(sorted(PRESETS.items()))
