"""A club chooses its game (issue 32 §3): the settings page stores it, the Regeln page and "Tisch
starten" offer only its rule sets, a switch keeps past evenings readable, the backup carries it."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from clubs import services
from clubs.backup import BackupError, export_club, import_club
from clubs.models import Club, Member
from scoring import services as scoring_services
from scoring.models import Session
from scoring.selectors import club_rules_spec
from standings.selectors import Period, standings
from tests.factories import World, make_table, rufspiel


def _settings(client: Any, **data: str) -> Any:
    return client.post(reverse("clubs:settings", kwargs={"slug": "test"}), {"name": "Test", **data})


def test_the_owner_chooses_skat_and_an_unchanged_save_writes_nothing(client_as: Any, world: World) -> None:
    client = client_as("owner")
    assert 'value="skat"' in client.get(reverse("clubs:settings", kwargs={"slug": "test"})).content.decode()
    assert _settings(client, game="skat").status_code == 302
    world.club.refresh_from_db()
    assert world.club.game == "skat"
    assert 'value="skat" selected' in client.get(reverse("clubs:settings", kwargs={"slug": "test"})).content.decode()


def test_an_unknown_game_is_refused_at_the_field_and_changes_nothing(client_as: Any, world: World) -> None:
    response = _settings(client_as("owner"), game="poker")
    assert response.status_code == 200 and "game" in response.context["form"].errors
    world.club.refresh_from_db()
    assert world.club.game == "schafkopf"
    with pytest.raises(ValidationError):
        services.club_set_game(club=world.club, game="poker")


@pytest.mark.parametrize("role", ["scorer", "member"])
def test_only_the_owner_sets_the_game(client_as: Any, world: World, role: str) -> None:
    assert _settings(client_as(role), game="skat").status_code == 403
    world.club.refresh_from_db()
    assert world.club.game == "schafkopf"


def test_an_outsider_gets_404(client_as: Any, world: World) -> None:
    assert _settings(client_as("outsider"), game="skat").status_code == 404


def _offered(html: str) -> set[str]:
    return {name for name in ("allgaeu", "standard", "saukopf", "doppelkopf", "skat") if f'value="{name}"' in html}


@pytest.mark.parametrize(
    ("game", "offered"),
    [
        ("schafkopf", {"allgaeu", "standard", "saukopf"}),
        ("doppelkopf", {"doppelkopf"}),
        ("skat", {"skat"}),
    ],
)
def test_the_rules_page_and_table_start_offer_the_games_rule_sets(
    client_as: Any, world: World, game: str, offered: set[str]
) -> None:
    services.club_set_game(club=world.club, game=game)
    client = client_as("owner")
    rules = client.get(reverse("scoring:club_rules", kwargs={"slug": "test"})).content.decode()
    assert _offered(rules) == offered
    session = Session.objects.create(club=world.club, date=datetime.date(2026, 11, 20))
    start = client.get(reverse("scoring:table_start", kwargs={"slug": "test", "session_id": session.pk}))
    assert _offered(start.content.decode()) == offered
    assert club_rules_spec(world.club)["preset"] in offered  # new tables start with the game's rules


def test_the_rules_of_another_game_are_refused(world: World) -> None:
    services.club_set_game(club=world.club, game="skat")
    with pytest.raises(ValidationError) as refused:
        scoring_services.club_rules_save(
            club=world.club, preset="allgaeu", options={}, winnings_to_kasse=False, user=None
        )
    assert "preset" in refused.value.message_dict


def test_switching_the_game_keeps_past_evenings_readable(client_as: Any, world: World) -> None:
    table = make_table(Session.objects.create(club=world.club, date=datetime.date(2026, 3, 1)))
    scoring_services.entry_append(table=table, data=rufspiel(table), user=None)
    before = standings(club=world.club, period=Period.all_time())
    services.club_set_game(club=world.club, game="skat")
    assert standings(club=world.club, period=Period.all_time()) == before
    client = client_as("member")
    assert client.get(table.get_absolute_url()).status_code == 200
    assert client.get(table.session.get_absolute_url()).status_code == 200
    page = client.get(reverse("stats:standings", kwargs={"slug": "test"}) + "?period=all").content.decode()
    assert all(row.name in page for block in before for row in block.rows)


def test_the_backup_carries_the_game(world: World) -> None:
    services.club_set_game(club=world.club, game="skat")
    doc = export_club(world.club)
    assert doc["club"]["game"] == "skat"
    copy = import_club(doc, slug="kopie", name="Kopie").club
    assert Club.objects.get(pk=copy.pk).game == "skat"
    older = export_club(world.club)
    del older["club"]["game"]  # a backup from before the club chose a game: Schafkopf, as it was
    assert import_club(older, slug="alt", name="Alt").club.game == "schafkopf"
    older["club"]["game"] = "poker"
    with pytest.raises(BackupError):
        import_club(older, slug="falsch", name="Falsch")
    assert not Club.objects.filter(slug="falsch").exists()
    assert Member.objects.filter(club__slug="kopie").count() == Member.objects.filter(club=world.club).count()


def test_the_migration_gives_a_club_with_skat_or_doppelkopf_rules_that_game(world: World) -> None:
    from importlib import import_module

    from django.apps import apps

    from scoring.models import ClubRules

    migration = import_module("clubs.migrations.0005_club_game_from_rules")
    ClubRules.objects.create(club=world.club, preset="skat-seeger")
    ClubRules.objects.create(club=world.other_club, preset="allgaeu")
    migration.game_from_rules(apps, None)
    assert Club.objects.get(pk=world.club.pk).game == "skat"
    assert Club.objects.get(pk=world.other_club.pk).game == "schafkopf"
