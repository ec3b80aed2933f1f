"""``rank_open`` (spec §5) for every rule set: a Preisskat (``skat-seeger``, the additions of
2026-11-28) is ranked by ``open_skat``, every other tariff by ``open_ranking``. The one entry the
``rank_open`` command uses; it decides nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.engine import registry
from scoring.engine.core import EngineError

from .open_ranking import rank_open_document as rank_open_general
from .open_skat import rank_open_skat


def rank_open_document(doc: Any) -> dict[str, Any]:
    """Spec §5 → the ranking, by the rules of the document's game (or ``EngineError``)."""
    if isinstance(doc, Mapping) and _is_skat(doc.get("ruleset")):
        return rank_open_skat(doc)
    return rank_open_general(doc)


def _is_skat(spec: Any) -> bool:
    try:
        return registry.load(spec).FAMILY == "skat"
    except EngineError:
        return False  # the general ranking names what is wrong with the rule set
