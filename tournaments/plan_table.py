"""The fairness table of docs/tournaments.md: for every number of players, the default plan (fewest
repeats) and the plans offered beside it (no pair more than twice with the seats at tables of five
at most two apart; the seats at five at most two apart alone), seed 0.

    python -m tournaments.plan_table [FIRST LAST [PARTIEN]]   # default 12 40 4

Prints the Markdown table; ``tests/tournaments/engine/test_plan.py`` holds the docs to it. Pure: no
Django.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from scoring.engine.core import EngineError
from tournaments.engine.plan import (
    AT_MOST_TWICE,
    FIVES_WITHIN_TWO,
    SeatingPlan,
    plan_alternatives,
    plan_seating,
    table_sizes,
)

HEAD = "| players | tables | lower bound | fewest repeats | at most twice | five-seats within two |"


def _figures(plan: SeatingPlan | None) -> str:
    """One plan's cell: repeats / fewest opponents / most meetings of a pair / five-seats."""
    if plan is None:
        return "–"
    five = f"{min(plan.five_seats)}–{max(plan.five_seats)}" if max(plan.table_sizes) > 4 else "–"
    return f"{plan.repeat_pairs} / {plan.min_distinct_opponents} / {plan.max_pair_meetings}× / {five}"


def plans(players: int, partien: int = 4) -> tuple[SeatingPlan, tuple[SeatingPlan, ...]]:
    """The default plan (seed 0) and the plans offered beside it."""
    plan = plan_seating(players, partien)
    return plan, plan_alternatives(plan)


def fairness_table(
    first: int = 12,
    last: int = 40,
    partien: int = 4,
    planner: Callable[[int, int], tuple[SeatingPlan, tuple[SeatingPlan, ...]]] = plans,
) -> str:
    """The Markdown table for ``first`` to ``last`` players (those no tables seat are left out);
    ``planner`` gives the plans (a test passes a cached one, shared with its other checks)."""
    lines = [HEAD, "| ---: | --- | ---: | --- | --- | --- |"]
    for players in range(first, last + 1):
        try:
            table_sizes(players)
        except EngineError:
            continue
        plan, offered = planner(players, partien)
        by_kind = {other.variant: other for other in offered}
        tables = " + ".join(str(size) for size in plan.table_sizes)
        row = [str(players), tables, str(plan.lower_bound), _figures(plan)]
        row += [_figures(by_kind.get(AT_MOST_TWICE)), _figures(by_kind.get(FIVES_WITHIN_TWO))]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    numbers = [int(arg) for arg in argv]
    print(fairness_table(*numbers))


if __name__ == "__main__":
    main(sys.argv[1:])
