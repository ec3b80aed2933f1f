import os

import pytest
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from django.utils import translation
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from tests.factories import UserFactory, World, make_world

# Property tests run on small shared machines (two cores, CI): timing-based checks fail there
# on load, not on bugs. Correctness checks stay as they are.
hypothesis_settings.register_profile("project", deadline=None, suppress_health_check=[HealthCheck.too_slow])
hypothesis_settings.load_profile("project")

# `make test` runs the suite on SQLite whole and then, with TEST_SCOPE=database, on PostgreSQL
# only what the database can change: every test that uses it (a django_db mark, or a fixture
# that opens it, the browser tests' live server included), except those marked ``no_db_variance``
# (they open it only to serve a page whose result the database cannot change). What needs no
# database (the pure engines, the planner, most property tests) runs once.
DATABASE_FIXTURES = frozenset(
    {"db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback", "live_server"}
)


def uses_database(item: pytest.Item) -> bool:
    if item.get_closest_marker("no_db_variance") is not None:
        return False
    return item.get_closest_marker("django_db") is not None or bool(
        DATABASE_FIXTURES.intersection(getattr(item, "fixturenames", ()))
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    scope = os.environ.get("TEST_SCOPE", "all")
    if scope not in ("all", "database"):
        raise pytest.UsageError(f"TEST_SCOPE={scope!r}: 'all' (the default) or 'database'")
    if scope == "database":
        kept, dropped = [], []
        for item in items:
            (kept if uses_database(item) else dropped).append(item)
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept
    items[:] = long_tests_first(items, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))


def long_tests_first(items: list[pytest.Item], workers: int) -> list[pytest.Item]:
    """The order for xdist's worksteal, which gives each worker a contiguous share of the list and
    lets an idle worker take tests from the end of a busy one's: the tests marked ``long`` open
    the shares, each to the share with the least seconds so far, so none of them starts last
    and leaves the other workers idle at the end. Every worker sorts the same way (xdist
    checks that they collected the same order)."""

    def seconds(item: pytest.Item) -> float:
        marker = item.get_closest_marker("long")
        return marker.args[0] if marker else 0

    long = sorted((item for item in items if seconds(item)), key=seconds, reverse=True)
    if workers < 2 or not long:
        return items
    rest = [item for item in items if not seconds(item)]
    sizes, left = [], len(items)
    for share in range(workers):  # as xdist deals the list out: what is left ÷ the workers left
        sizes.append(left // (workers - share))
        left -= sizes[-1]
    shares: list[list[pytest.Item]] = [[] for _ in sizes]
    for item in long:
        open_shares = [k for k in range(workers) if len(shares[k]) < sizes[k]]
        least = min(open_shares, key=lambda k: sum(map(seconds, shares[k])))
        shares[least].append(item)
    for share, size in zip(shares, sizes, strict=True):
        room = size - len(share)
        share.extend(rest[:room])
        del rest[:room]
    return [item for share in shares for item in share]


@pytest.fixture(autouse=True)
def default_language() -> None:
    """Each test starts in the default language: a request in English (the LocaleMiddleware
    activates the request's language for the thread and leaves it) must not turn the next test's
    messages English."""
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def world(db: None) -> World:
    return make_world()


@pytest.fixture
def client_as(client: Client, world: World):
    """client_as("owner") → the test client logged in with that role's login."""

    def login(role: str) -> Client:
        client.force_login(world.users[role])
        return client

    return login


@pytest.fixture
def new_user(db: None) -> AbstractBaseUser:
    return UserFactory()
