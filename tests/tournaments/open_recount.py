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
    points: Mapping[int, list[int]],
    soli: Mapping[int, int],
    tie_breaks: Sequence[str],
    seed: int,
) -> None:
    """``ranking``'s rows (place, number, points, rounds, soli, decided_by) agree with ``points``
    (start number → points of each round, 0 where he sat at no counted table) and ``soli``."""
    assert sorted(row["number"] for row in ranking) == sorted(points)
    lot = sorted(points)
    random.Random(seed).shuffle(lot)
    figures = {"soli": soli, "best_round": {n: max(rs) for n, rs in points.items()}}
    for row in ranking:
        assert row["rounds"] == points[row["number"]] and row["points"] == sum(row["rounds"])
        assert row["soli"] == soli[row["number"]]

    def key(number: int) -> tuple[int, ...]:
        out = [sum(points[number])]
        for name in tie_breaks:
            out.append(-lot.index(number) if name == "lot" else figures[name][number])
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
