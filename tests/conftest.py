import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from tests.factories import UserFactory, World, make_world

# Property tests run on small shared machines (two cores, CI): timing-based checks fail there
# on load, not on bugs. Correctness checks stay as they are.
hypothesis_settings.register_profile("project", deadline=None, suppress_health_check=[HealthCheck.too_slow])
hypothesis_settings.load_profile("project")


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
