"""The fairness table of docs/tournaments.md: for every number of players, the default plan (fewest
repeats) and, where offered, the alternative (no pair more than twice, seats at tables of five at
most two apart), seed 0.

    python -m tournaments.plan_table [FIRST LAST [PARTIEN]]   # default 12 40 4

Prints the Markdown table; ``tests/tournaments/engine/test_plan.py`` holds the docs to it. Pure: no
Django.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from scoring.engine.core import EngineError
from tournaments.engine.plan import SeatingPlan, plan_alternative, plan_seating, table_sizes

HEAD = (
    "| players | tables | repeats | lower bound | fewest opponents | most meetings of a pair | five-seats | spread "
    "| alt. repeats | alt. fewest opponents | alt. most meetings | alt. five-seats | alt. spread |"
)


def _figures(plan: SeatingPlan | None) -> list[str]:
    if plan is None:
        return ["–"] * 5
    if max(plan.table_sizes) > 4:
        five, spread = f"{min(plan.five_seats)}–{max(plan.five_seats)}", str(plan.five_spread)
    else:
        five = spread = "–"
    return [str(plan.repeat_pairs), str(plan.min_distinct_opponents), str(plan.max_pair_meetings), five, spread]


def plans(players: int, partien: int = 4) -> tuple[SeatingPlan, SeatingPlan | None]:
    """The default plan (seed 0) and the alternative offered beside it."""
    plan = plan_seating(players, partien)
    return plan, plan_alternative(plan)


def fairness_table(
    first: int = 12,
    last: int = 40,
    partien: int = 4,
    planner: Callable[[int, int], tuple[SeatingPlan, SeatingPlan | None]] = plans,
) -> str:
    """The Markdown table for ``first`` to ``last`` players (those no tables seat are left out);
    ``planner`` gives the two plans (a test passes a cached one, shared with its other checks)."""
    lines = [HEAD, "| ---: | --- |" + " ---: |" * 11]
    for players in range(first, last + 1):
        try:
            table_sizes(players)
        except EngineError:
            continue
        plan, alternative = planner(players, partien)
        repeats, opponents, meetings, five, spread = _figures(plan)
        tables = " + ".join(str(size) for size in plan.table_sizes)
        row = [str(players), tables, repeats, str(plan.lower_bound), opponents, meetings, five, spread]
        lines.append("| " + " | ".join(row + _figures(alternative)) + " |")
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    numbers = [int(arg) for arg in argv]
    print(fairness_table(*numbers))


if __name__ == "__main__":
    main(sys.argv[1:])
