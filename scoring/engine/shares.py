"""Random shares of a total (card points, tricks) for the samplers of ``samples`` and the
presets' ``*_samples`` modules. Pure and seeded."""

from __future__ import annotations

import random


def split(rng: random.Random, total: int, parts: int) -> list[int]:
    """``total`` cut at random into ``parts`` non-negative shares that add up to it."""
    cuts = sorted(rng.randint(0, total) for _ in range(parts - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]
