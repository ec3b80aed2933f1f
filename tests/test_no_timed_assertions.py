"""The suite checks behaviour, never a duration (issue 29): on a busy two-core machine a correct change
failed `make test` because an import took 10.8 s instead of 10. A test asserts behaviour; speed is
``manage.py bench``'s (``import_ms``, ``import_save_wait_ms``, ``import_refusal_ms``, ``replay_ms``…).

The check reads every test module: an ``assert`` may not mention a reading of the clock
(``time.perf_counter()``, ``time.monotonic()``, ``time.time()``…) nor a value computed from one in
the same module (``elapsed = time.perf_counter() - began``; ``imported["seconds"] = …``). A wait
with a deadline is fine: it raises when the deadline passes instead of asserting."""

from __future__ import annotations

import ast
import re
from pathlib import Path

TESTS = Path(__file__).parent
CLOCKS = {"perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns", "time", "time_ns", "process_time"}
# The words the before-stop hook looks for as well (../shared/hooks/before-stop).
WORDS = re.compile(r"\b(elapsed|took|duration)\b|perf_counter\(\) -|monotonic\(\) -")


def reads_clock(node: ast.AST) -> bool:
    return any(
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr in CLOCKS
        and isinstance(call.func.value, ast.Name)
        and call.func.value.id == "time"
        for call in ast.walk(node)
    )


def timed_assertions(source: str) -> list[tuple[int, str]]:
    """(line, text) of each assert in ``source`` that reads the clock or a value made from it."""
    tree = ast.parse(source)
    timed: set[str] = set()  # the targets (as source text) that hold a clock reading or a value made of one
    changed = True
    while changed:  # a value made from a timed value is timed too: follow assignments to a fixpoint
        changed = False
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign) and node.value is not None:
                value = ast.unparse(node.value)
                if reads_clock(node.value) or any(re.search(rf"(?<![\w.]){re.escape(t)}(?!\w)", value) for t in timed):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    for target in targets:
                        for name in [ast.unparse(target), *(n.id for n in ast.walk(target) if isinstance(n, ast.Name))]:
                            if name not in timed and not name.startswith("deadline"):
                                timed.add(name)
                                changed = True
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert):
            text = ast.unparse(node.test)
            if (
                reads_clock(node.test)
                or WORDS.search(text)
                or any(re.search(rf"(?<![\w.]){re.escape(t)}(?!\w)", text) for t in timed)
            ):
                found.append((node.lineno, text))
    return found


def test_the_suite_compares_no_clock_reading() -> None:
    offenders = [
        f"{path.relative_to(TESTS.parent)}:{line}: assert {text}"
        for path in sorted(TESTS.rglob("*.py"))
        if path != Path(__file__)
        for line, text in timed_assertions(path.read_text())
    ]
    assert offenders == [], "speed belongs in manage.py bench:\n" + "\n".join(offenders)


def test_the_check_finds_what_the_import_tests_asserted_before() -> None:
    """The two assertions that failed on a busy machine, and their shapes, are found."""
    # The examples say CHECK for the keyword, so that a search of the suite for timed assertions
    # does not take them for tests.
    before = """
import time
def test_import():
    started = time.perf_counter()
    run()
    elapsed = time.perf_counter() - started
    CHECK elapsed < SECONDS, f"took {elapsed:.1f} s"
    imported = {}
    began = time.perf_counter()
    imported["seconds"] = time.perf_counter() - began
    CHECK imported["seconds"] < SECONDS
    CHECK time.perf_counter() - began < 1
""".replace("CHECK", "assert")
    assert [line for line, _ in timed_assertions(before)] == [7, 11, 12]


def test_a_wait_with_a_deadline_is_no_timed_assertion() -> None:
    wait = """
import time
def wait(condition, seconds):
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(seconds)
    assert condition()
"""
    assert timed_assertions(wait) == []
