import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client

from tests.factories import UserFactory, World, make_world


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
