"""The straightforward recount of an open tournament's ranking (spec §5), shared by the engine's
property test (tables by totals) and the services' (tables typed at the desk and written on a
phone): given each player's points per round and his Soli, the ranked rows must be in order of
points, then the tie-breaks, with places and ``decided_by`` as the spec says."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any


def assert_recounted(
    ranking: Sequence[Mapping[str, Any]],
    points: Mapping[int, list[int | None]],
    soli: Mapping[int, int],
    tie_breaks: Sequence[str],
    seed: int,
) -> None:
    """``ranking``'s rows (place, number, points, rounds, soli, decided_by) agree with ``points``
    (start number → points of each round, None where he sat at no counted table) and ``soli``.
    The best round is the best of the rounds played; a player who played none ranks below
    everyone who played one on that tie-break (spec §5, additions of 2026-11-28)."""
    assert sorted(row["number"] for row in ranking) == sorted(points)
    lot = sorted(points)
    random.Random(seed).shuffle(lot)
    played = {n: [p for p in rs if p is not None] for n, rs in points.items()}
    best = {n: (1, max(ps)) if ps else (0, 0) for n, ps in played.items()}
    for row in ranking:
        assert row["rounds"] == points[row["number"]] and row["points"] == sum(played[row["number"]])
        assert row["soli"] == soli[row["number"]]

    def key(number: int) -> tuple[Any, ...]:
        out: list[Any] = [sum(played[number])]
        for name in tie_breaks:
            if name == "lot":
                out.append(-lot.index(number))
            else:
                out.append(soli[number] if name == "soli" else best[number])
        return tuple(out)

    rows = list(ranking)
    for above, below in zip(rows, rows[1:], strict=False):
        a, b = key(above["number"]), key(below["number"])
        assert a >= b
        if a == b:
            assert (below["place"], below["decided_by"]) == (above["place"], "geteilt")
            assert "lot" not in tie_breaks
        else:
            assert below["place"] == rows.index(below) + 1
            assert below["decided_by"] == (
                None if a[0] != b[0] else next(n for n, x, y in zip(tie_breaks, a[1:], b[1:], strict=True) if x != y)
            )
