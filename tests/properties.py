"""How many examples a property test draws: in ``make test`` at most a quarter of its full number
and never fewer than Hypothesis's default of 100, enough to find what a change breaks in one run;
``PROPERTY_EXAMPLES=full`` (a nightly or manual run) draws the full number."""

from __future__ import annotations

import os

FULL = os.environ.get("PROPERTY_EXAMPLES", "") == "full"


def examples(full: int) -> int:
    return full if FULL else min(full, max(100, full // 4))
