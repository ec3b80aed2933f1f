"""A club's backup (`export_club`, `import_club`): the demo club goes out and comes back with
every hand, ledger row, audit row, Kasse booking, standing and ranking as it was."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command

from clubs.backup import FORMAT, club_models, export_club, import_club
from clubs.models import Club, Member, Membership
from opentournaments import services as open_services
from scoring.models import AuditEntry, Entry, KasseBooking, LedgerEntry
from standings import selectors as stats
from tests.factories import World, make_open_tournament, make_playoff
from tools.demo.clubs import seed_demo_clubs
from tools.demo.evenings import seed_demo_evenings
from tools.demo.tournaments import seed_demo_tournaments
from tournaments import services as tournament_services
from tournaments.models import Tournament
from tournaments.selectors import tournament_ranking

pytestmark = pytest.mark.django_db(transaction=False)

ENTRY_FIELDS = [f.name for f in Entry._meta.concrete_fields if f.name not in ("id", "table", "declarer", "partner")]


@pytest.fixture
def demo() -> Club:
    """The demo club with its evenings and championships, plus a reopening, an adjustment and a
    playoff (the demo has none) so every kind of row is in the file."""
    club = seed_demo_clubs().demo
    owner = get_user_model().objects.get(username="demo-owner")
    seed_demo_evenings(club, user=owner)
    seed_demo_tournaments(club, user=owner)
    tournament = Tournament.objects.filter(club=club).order_by("year").first()
    players = [p.member for p in tournament.participants.all()[:2]]
    # The oldest championship is finished: reopened (a log row) to take the adjustment.
    tournament_services.tournament_reopen(tournament=tournament, reason="Zettel nachgereicht", user=owner)
    tournament_services.adjustment_record(
        tournament=tournament, players=players, points=3, reason="Zettel unleserlich", user=owner
    )
    make_playoff(tournament)
    # An open tournament with a withdrawal, a late registration, a round and a table's figures.
    open_tournament = make_open_tournament(club, players=8)
    open_services.registration_withdraw(registration=open_tournament.registrations.get(start_number=8), user=None)
    open_services.registration_create(tournament=open_tournament, name="Spät", residence="Kempten", user=None)
    table = open_services.round_draw(tournament=open_tournament, seed=1, user=None).tables.first()
    open_services.table_figures_enter(
        table=table,
        points=dict(zip(table.seats, [5, -5, 0, 0], strict=True)),
        soli=dict.fromkeys(table.seats, 1),
        user=owner,
    )
    return club


def hands(club: Club) -> list[tuple[Any, ...]]:
    """Every entry of every table, by date, table name and number, with every field."""
    rows = Entry.objects.filter(table__session__club=club).select_related("table__session", "declarer", "partner")
    return sorted(
        (
            e.table.session.date.isoformat(),
            e.table.name,
            e.table.created_at.isoformat(),
            e.number,
            e.declarer.display_name if e.declarer else None,
            e.partner.display_name if e.partner else None,
            *(json.dumps(getattr(e, name), sort_keys=True, default=str) for name in ENTRY_FIELDS),
        )
        for e in rows
    )


def ledger(club: Club) -> list[tuple[Any, ...]]:
    rows = LedgerEntry.objects.filter(club=club).select_related("entry", "table", "member")
    return sorted(
        (r.table.created_at.isoformat(), r.entry.number, r.member.display_name, r.date, r.unit, r.amount, r.role, r.won)
        for r in rows
    )


def audit(club: Club) -> list[tuple[Any, ...]]:
    rows = AuditEntry.objects.filter(session__club=club).select_related("table", "user")
    return sorted(
        (
            r.at.isoformat(),
            r.table.name if r.table else None,
            r.number,
            r.action,
            json.dumps(r.before, sort_keys=True),
            json.dumps(r.after, sort_keys=True),
            r.reason,
            r.user.username if r.user else None,
        )
        for r in rows
    )


def kasse(club: Club) -> list[tuple[Any, ...]]:
    rows = KasseBooking.objects.filter(club=club).select_related("member")
    return sorted(
        (r.at.isoformat(), r.member.display_name if r.member else None, r.unit, r.amount, r.text) for r in rows
    )


def standings(club: Club) -> list[tuple[Any, ...]]:
    return [
        (block.unit, row.rank, row.name, row.total, row.games, row.declared, row.won)
        for block in stats.standings(club=club, period=stats.Period.all_time())
        for row in block.rows
    ]


def rankings(club: Club) -> dict[int, list[tuple[Any, ...]]]:
    return {
        t.year: [(r.placing.place, r.placing.name, r.number, str(r.placing)) for r in tournament_ranking(t).rows]
        for t in Tournament.objects.filter(club=club)
    }


def logins(club: Club) -> list[tuple[str, str]]:
    return sorted(Membership.objects.filter(club=club).values_list("user__username", "role"))


def snapshot(club: Club) -> dict[str, Any]:
    return {
        "hands": hands(club),
        "ledger": ledger(club),
        "audit": audit(club),
        "kasse": kasse(club),
        "standings": standings(club),
        "rankings": rankings(club),
        "logins": logins(club),
        "members": sorted(Member.objects.filter(club=club).values_list("display_name", "is_active", "user__username")),
    }


def without_volatile(doc: dict[str, Any]) -> dict[str, Any]:
    return {**doc, "exported_at": None, "club": {**doc["club"], "slug": None, "name": None}}


def test_the_backup_covers_every_model_of_a_club() -> None:
    labels = {spec.label for spec in club_models()}
    assert labels == {
        "clubs.member",
        "clubs.membership",
        "clubs.invitation",
        "scoring.clubrules",
        "scoring.session",
        "scoring.table",
        "scoring.seat",
        "scoring.seatchange",
        "scoring.entry",
        "scoring.ledgerentry",
        "scoring.auditentry",
        "scoring.kassebooking",
        "tournaments.tournament",
        "tournaments.participant",
        "tournaments.drawlog",
        "tournaments.partie",
        "tournaments.partietable",
        "tournaments.playoff",
        "tournaments.adjustment",
        "tournaments.event",
        "opentournaments.opentournament",
        "opentournaments.registration",
        "opentournaments.round",
        "opentournaments.roundtable",
        "opentournaments.tablescore",
        "opentournaments.tabletyping",
    }


def test_the_demo_club_round_trips_beside_itself(demo: Club, tmp_path: Path) -> None:
    before = snapshot(demo)
    assert before["hands"] and before["ledger"] and before["audit"] and before["kasse"] and before["rankings"]
    path = tmp_path / "demo.json"
    call_command("export_club", demo.slug, output=str(path))
    doc = json.loads(path.read_text())
    assert doc["format"] == FORMAT and doc["version"] == 1
    labels = (
        "tournaments.adjustment",
        "tournaments.playoff",
        "tournaments.drawlog",
        "scoring.seat",
        "opentournaments.tablescore",
    )
    assert all(doc["models"][label] for label in labels)
    assert doc["models"]["tournaments.playoff"][0]["players"]  # many-to-many as row numbers
    # Full-precision timestamps: microseconds and the offset.
    assert doc["models"]["scoring.auditentry"][0]["at"].endswith("+00:00")
    assert "." in doc["models"]["scoring.auditentry"][0]["at"]

    call_command("import_club", str(path), slug="demo-kopie", name="Kopie")
    copy = Club.objects.get(slug="demo-kopie")
    assert snapshot(copy) == before
    # Lossless: the copy exports to the very same document (ids are the file's own numbers),
    # but for the keys a copy gets anew: its open tournaments' public links (issue 31 §9).
    copied = export_club(copy)
    tokens = [
        (row["public_token"], mine["public_token"])
        for row, mine in zip(
            doc["models"]["opentournaments.opentournament"],
            copied["models"]["opentournaments.opentournament"],
            strict=True,
        )
    ]
    assert tokens and all(theirs != mine for theirs, mine in tokens)
    for row in (*doc["models"]["opentournaments.opentournament"], *copied["models"]["opentournaments.opentournament"]):
        row["public_token"] = None
    assert without_volatile(copied) == without_volatile(doc)
    # Nothing of the original moved over to the copy or back.
    assert Member.objects.filter(club=demo).count() == Member.objects.filter(club=copy).count()
    assert snapshot(demo) == before


def test_a_slug_in_use_is_refused_and_nothing_is_stored(
    demo: Club, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "demo.json"
    call_command("export_club", demo.slug, output=str(path))
    clubs, users = Club.objects.count(), get_user_model().objects.count()
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_info:
        call_command("import_club", str(path))
    error = json.loads(capsys.readouterr().out)["error"]
    assert exit_info.value.code == 2 and error["field"] == "club.slug"
    assert "Kürzel „demo“ gibt es in dieser Datenbank schon" in error["message"]
    assert (Club.objects.count(), get_user_model().objects.count()) == (clubs, users)


def test_a_broken_file_is_refused_and_nothing_is_stored(demo: Club) -> None:
    doc = export_club(demo)
    doc["models"]["scoring.entry"][5]["table"] = 999  # a table the file does not have
    clubs, entries = Club.objects.count(), Entry.objects.count()
    with pytest.raises(Exception, match="scoring.entry\\[5\\].table: verweist auf scoring.table 999"):
        import_club(doc, slug="kaputt")
    assert (Club.objects.count(), Entry.objects.count()) == (clubs, entries)
    with pytest.raises(Exception, match="Version 99"):
        import_club({**doc, "version": 99}, slug="kaputt")


@pytest.mark.long(15)
def test_a_club_restores_into_an_empty_database(demo: Club, tmp_path: Path) -> None:
    """export_club, then migrate and import_club in a fresh database in another process: the
    restored club exports to the same document (its logins with their password hashes)."""
    path = tmp_path / "demo.json"
    call_command("export_club", demo.slug, output=str(path))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    env |= {"DJANGO_DEBUG": "1", "DJANGO_ENV_FILE": os.devnull}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'empty.sqlite3'}"

    def manage(*args: str) -> str:
        result = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=settings.BASE_DIR, env=env, capture_output=True, text=True
        )
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout

    manage("migrate", "--no-input", "--verbosity", "0")
    out = manage("import_club", str(path))
    assert "Zugänge angelegt" in out and "demo-owner" in out
    manage("export_club", "demo", "--output", str(tmp_path / "again.json"))
    again = json.loads((tmp_path / "again.json").read_text())
    assert {**again, "exported_at": None} == {**json.loads(path.read_text()), "exported_at": None}


def test_export_club_writes_its_file_and_the_partial_0600_whatever_the_umask(
    world: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file holds the logins' password hashes (issue 30 item 10): 0600 like deploy/backup.py,
    under a umask of 000, over a readable file and a stale readable .partial of an earlier run."""
    path = tmp_path / "club.json"
    path.write_text("alt")
    path.chmod(0o644)
    partial = tmp_path / "club.json.partial"
    partial.write_text("halb")
    partial.chmod(0o666)
    modes: list[int] = []
    rename = os.replace

    def replace(source: str, target: str) -> None:
        modes.append(os.stat(source).st_mode & 0o777)  # the .partial just before the rename
        rename(source, target)

    monkeypatch.setattr(os, "replace", replace)
    old = os.umask(0)
    try:
        call_command("export_club", world.club.slug, output=str(path))
    finally:
        os.umask(old)
    assert modes == [0o600]
    assert path.stat().st_mode & 0o777 == 0o600
    assert not partial.exists()
    assert json.loads(path.read_text())["format"] == FORMAT


def test_the_clubs_language_goes_out_and_comes_back(world: World) -> None:
    world.club.language = "en"
    world.club.save()
    doc = export_club(world.club)
    assert doc["club"]["language"] == "en"
    import_club(doc, slug="kopie", name="Kopie")
    assert Club.objects.get(slug="kopie").language == "en"
    older = {**doc, "club": {k: v for k, v in doc["club"].items() if k != "language"}}  # before the setting
    import_club(older, slug="aelter", name="Älter")
    assert Club.objects.get(slug="aelter").language == "de"
    with pytest.raises(Exception, match="club.language"):
        import_club({**doc, "club": {**doc["club"], "language": "xx"}}, slug="falsch", name="Falsch")
    assert not Club.objects.filter(slug="falsch").exists()
