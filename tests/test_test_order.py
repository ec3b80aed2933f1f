"""The order the suite hands to xdist (tests/conftest.py, ``long_tests_first``): each worker's
share opens with the long tests, spread by their seconds, and every test is there once."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tests.conftest import long_tests_first


@dataclass
class Marker:
    args: tuple[float, ...]


@dataclass
class Item:
    name: str
    seconds: float = 0

    def get_closest_marker(self, name: str) -> Marker | None:
        return Marker((self.seconds,)) if name == "long" and self.seconds else None


def shares(order: list[Item], workers: int) -> list[list[str]]:
    """The contiguous shares xdist's worksteal deals out at the start."""
    out, left, start = [], len(order), 0
    for share in range(workers):
        size = left // (workers - share)
        out.append([item.name for item in order[start : start + size]])
        start, left = start + size, left - size
    return out


def test_each_share_opens_with_long_tests_balanced_by_their_seconds() -> None:
    items = [Item(f"t{n}") for n in range(20)]
    items[19].seconds, items[18].seconds, items[3].seconds, items[11].seconds = 200, 90, 90, 60
    order = long_tests_first(items, 2)  # type: ignore[arg-type]
    assert sorted(item.name for item in order) == sorted(item.name for item in items)
    first, second = shares(order, 2)
    # 200 alone against 90 + 90 + 60: each long test went to the share with the fewest seconds.
    assert first[0] == "t19" and second[:3] == ["t3", "t18", "t11"]
    # The others follow in their own order.
    rest = [name for name in first[1:] + second[3:]]
    assert rest == [f"t{n}" for n in range(20) if n not in (3, 11, 18, 19)]


@pytest.mark.parametrize("workers", [1, 3])
def test_one_worker_keeps_the_order_and_three_share_it(workers: int) -> None:
    items = [Item(f"t{n}", 10 * (n % 4 == 0)) for n in range(10)]
    order = long_tests_first(items, workers)  # type: ignore[arg-type]
    if workers == 1:
        assert order == items
    else:
        assert [share[0] for share in shares(order, 3)] == ["t0", "t4", "t8"]
