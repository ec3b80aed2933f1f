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
    if scope == "all":
        return
    if scope != "database":
        raise pytest.UsageError(f"TEST_SCOPE={scope!r}: 'all' (the default) or 'database'")
    kept, dropped = [], []
    for item in items:
        (kept if uses_database(item) else dropped).append(item)
    config.hook.pytest_deselected(items=dropped)
    items[:] = kept


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
