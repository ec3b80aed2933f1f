"""Closing and reopening an evening (issue 13 §8): owners reopen any evening; the scorer who
closed it reopens it the same day; nobody else. Closing, reopening and deleting ask first."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubs.models import Member, Role
from scoring import services
from scoring.models import Session, Table
from tests.factories import MembershipFactory, World, rufspiel
from tests.scoring.test_pages import PLAYERS

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(world: World) -> Table:
    session = services.session_create(club=world.club, date="2026-11-20", user=None)
    members = [Member.objects.get(club=world.club, display_name=name) for name in PLAYERS]
    table = services.table_start(session=session, members=members, rules="allgaeu", user=None)
    services.entry_append(table=table, data=rufspiel(table), user=None)
    return table


def path(name: str, session: Session) -> str:
    return reverse(f"scoring:{name}", kwargs={"slug": "test", "session_id": session.pk})


def test_the_scorer_who_closed_it_reopens_it_the_same_day(client_as: Any, world: World, table: Table) -> None:
    session = table.session
    scorer = client_as("scorer")
    scorer.post(path("session_close", session))
    detail = scorer.get(session.get_absolute_url()).content.decode()
    assert "Abend wieder öffnen" in detail and "data-confirm" in detail
    assert scorer.post(path("session_reopen", session)).status_code == 302
    session.refresh_from_db()
    assert not session.is_closed


def test_the_next_day_only_an_owner_reopens_it(client_as: Any, world: World, table: Table) -> None:
    session = table.session
    client_as("scorer").post(path("session_close", session))
    Session.objects.filter(pk=session.pk).update(closed_at=timezone.now() - datetime.timedelta(days=1))
    scorer = client_as("scorer")
    assert "Abend wieder öffnen" not in scorer.get(session.get_absolute_url()).content.decode()
    assert scorer.post(path("session_reopen", session)).status_code == 403
    assert client_as("owner").post(path("session_reopen", session)).status_code == 302
    session.refresh_from_db()
    assert not session.is_closed


def test_another_scorer_or_a_member_does_not_reopen_it(client_as: Any, world: World, table: Table) -> None:
    session = table.session
    client_as("scorer").post(path("session_close", session))
    other = MembershipFactory(club=world.club, role=Role.SCORER).user
    client = Client()
    client.force_login(other)
    assert client.post(path("session_reopen", session)).status_code == 403
    assert client_as("member").post(path("session_reopen", session)).status_code == 403
    session.refresh_from_db()
    assert session.is_closed


def test_deleting_an_entry_asks_first(client_as: Any, table: Table) -> None:
    entry = table.entries.get(number=1)
    kwargs = {"slug": "test", "session_id": table.session_id, "table_id": table.pk, "entry_id": entry.pk}
    page = client_as("scorer").get(reverse("scoring:entry_edit", kwargs=kwargs)).content.decode()
    assert 'data-confirm="Nr. 1 wirklich löschen?' in page and "js/confirm.js" in page
