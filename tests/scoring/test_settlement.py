"""The settlement pays every balance with the fewest transfers (checked against brute force)."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.selectors import fewest_transfers
from tests.properties import examples


def most_zero_groups(amounts: tuple[int, ...]) -> int:
    """Brute force: the most disjoint groups of zero sum that partition ``amounts``."""
    if not amounts:
        return 0
    first, rest = amounts[0], amounts[1:]
    best = 0
    indices = range(len(rest))
    for size in range(len(rest) + 1):
        for chosen in combinations(indices, size):
            if first + sum(rest[i] for i in chosen) == 0:
                others = tuple(rest[i] for i in indices if i not in chosen)
                best = max(best, 1 + most_zero_groups(others))
    return best


@settings(max_examples=examples(150))
@given(st.lists(st.sampled_from([-30, -20, -10, -5, 5, 10, 20, 30, 0]), min_size=0, max_size=6))
def test_fewest_transfers_settles_everything_with_the_minimum(amounts: list[int]) -> None:
    balances = [*amounts, -sum(amounts)]
    transfers = fewest_transfers(balances)
    left = list(balances)
    for payer, payee, amount in transfers:
        assert amount > 0 and balances[payer] < 0 < balances[payee]
        left[payer] += amount
        left[payee] -= amount
    assert not any(left)
    nonzero = tuple(b for b in balances if b)
    assert len(transfers) == len(nonzero) - most_zero_groups(nonzero)


def test_pairs_that_cancel_settle_directly() -> None:
    assert fewest_transfers([20, -20, 5, -5]) == [(1, 0, 20), (3, 2, 5)]
    assert len(fewest_transfers([30, -10, -20, 15, -15])) == 3


def test_many_parties_still_settle() -> None:
    balances = [10 * (i + 1) for i in range(8)] + [-10 * (i + 1) for i in range(7)] + [-80]
    transfers = fewest_transfers(balances)
    assert len(transfers) <= len(balances) - 1
