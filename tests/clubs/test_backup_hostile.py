"""``import_club`` reads a club backup like typed input (issue 22, finding 4): every hostile
document of the table below is refused with the spec's error object and exit 2, and nothing of it
is stored — no club, no login, no row. Each case is a finding of the attack on the old command
(which stored the slug ``bad slug/../x``, the game ``nonsense``, a ledger that no longer summed
to zero, a 10,000-character name and seat 70000, and ended in a traceback on deep nesting, a
5,000-digit number and a lone surrogate)."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command

from clubs.backup import export_club
from clubs.models import Club, Member, Membership
from scoring.models import Entry, LedgerEntry, Seat, Table
from tests.factories import ClubFactory, MembershipFactory, SessionFactory, make_entry, make_table

pytestmark = pytest.mark.django_db

Doc = dict[str, Any]


@pytest.fixture
def backup() -> Doc:
    """A small club: an owner login, one evening, one table of four with three hands."""
    club = ClubFactory(name="Schafkopf-Freunde Quelle", slug="quelle")
    owner = MembershipFactory(club=club, role="owner", user__username="quelle-owner").user
    table = make_table(SessionFactory(club=club), players=4)
    for _ in range(3):
        make_entry(table)
    doc = export_club(club)
    assert owner.username in [u["username"] for u in doc["users"]]
    return doc


def counts() -> tuple[int, ...]:
    User = get_user_model()
    models = (Club, User, Member, Membership, Table, Seat, Entry, LedgerEntry)
    return tuple(model.objects.count() for model in models)


def run(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, *args: str) -> tuple[int, dict[str, Any]]:
    path = tmp_path / "backup.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    with pytest.raises(SystemExit) as exit_info:
        call_command("import_club", str(path), *args)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert len(err.strip().splitlines()) == 1  # one line for the person at the console
    return exit_info.value.code, json.loads(out)["error"]


def entry_rows(doc: Doc) -> list[dict[str, Any]]:
    return doc["models"]["scoring.entry"]


def ledger_rows(doc: Doc, entry: int) -> list[dict[str, Any]]:
    return [row for row in doc["models"]["scoring.ledgerentry"] if row["entry"] == entry]


def _set(path: str, value: Any) -> Callable[[Doc], None]:
    """A change of the document: ``models.scoring.seat.0.position`` = value."""

    def change(doc: Doc) -> None:
        *parents, last = path.split(".")
        target: Any = doc
        i = 0
        while i < len(parents):
            part = parents[i]
            if part == "models":  # the model labels hold a dot themselves
                target = target["models"][f"{parents[i + 1]}.{parents[i + 2]}"]
                i += 3
                continue
            target = target[int(part)] if isinstance(target, list) else target[part]
            i += 1
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value

    return change


def _ledger_not_zero_sum(doc: Doc) -> None:
    ledger_rows(doc, 2)[0]["amount"] += 10


def _ledger_swapped(doc: Doc) -> None:
    """Still zero-sum, but not what the hand made: two players' amounts exchanged."""
    rows = ledger_rows(doc, 2)
    first, other = rows[0], next(r for r in rows if r["amount"] != rows[0]["amount"])
    first["amount"], other["amount"] = other["amount"], first["amount"]


def _ledger_row_missing(doc: Doc) -> None:
    doc["models"]["scoring.ledgerentry"].remove(ledger_rows(doc, 3)[0])


def _users_twice(doc: Doc) -> None:
    doc["users"].append({**doc["users"][0], "username": doc["users"][0]["username"].upper()})


def _fullwidth_twice(doc: Doc) -> None:
    name = doc["users"][0]["username"]
    doc["users"].append({**doc["users"][0], "username": "\uff51" + name[1:]})  # ｑuelle-owner


def _entry_gap(doc: Doc) -> None:
    entry_rows(doc)[2]["number"] = 7


def _unknown_model(doc: Doc) -> None:
    doc["models"]["evil.model"] = []


def _raw(doc: Doc, old: str, new: str) -> str:
    text = json.dumps(doc, ensure_ascii=False)
    assert old in text
    return text.replace(old, new, 1)


# (name, change of the document or of its text, expected code, a word the message or field holds)
CASES: list[tuple[str, Callable[[Doc], Any], str, str]] = [
    ("slug with a path", _set("club.slug", "bad slug/../x"), "invalid_backup", "club.slug"),
    ("slug too long", _set("club.slug", "x" * 51), "invalid_backup", "club.slug"),
    ("club name of 10,000 characters", _set("club.name", "N" * 10_000), "invalid_backup", "club.name"),
    ("club name empty", _set("club.name", "  "), "invalid_backup", "club.name"),
    (
        "player name of 10,000 characters",
        _set("models.clubs.member.0.display_name", "A" * 10_000),
        "invalid_backup",
        "display_name",
    ),
    (
        "player name with a line break",
        _set("models.clubs.member.0.display_name", "Sepp\nHuber"),
        "invalid_backup",
        "U+000A",
    ),
    ("player name a number", _set("models.clubs.member.0.display_name", 17), "invalid_backup", "Text"),
    ("seat 70000", _set("models.scoring.seat.0.position", 70_000), "invalid_backup", "position"),
    ("seat -1", _set("models.scoring.seat.0.position", -1), "invalid_backup", "position"),
    ("seat 1.5", _set("models.scoring.seat.0.position", 1.5), "invalid_backup", "position"),
    ("seat 9 at a table of four", _set("models.scoring.seat.3.position", 9), "invalid_backup", "Plätze"),
    ("entry game nonsense", _set("models.scoring.entry.1.data.game", "nonsense"), "invalid_backup", "Eintrag 2"),
    ("entry data not an object", _set("models.scoring.entry.1.data", "Rufspiel"), "invalid_backup", "Eintrag 2"),
    ("derived game nonsense", _set("models.scoring.entry.0.game", "nonsense"), "invalid_backup", "Eintrag 1"),
    ("entry numbers with a gap", _entry_gap, "invalid_backup", "nummeriert"),
    ("ledger not summing to zero", _ledger_not_zero_sum, "invalid_backup", "Eintrag 2"),
    ("ledger zero-sum but not the fold", _ledger_swapped, "invalid_backup", "Neuberechnung"),
    ("ledger row missing", _ledger_row_missing, "invalid_backup", "Eintrag 3"),
    ("ledger amount beyond 64 bits", _set("models.scoring.ledgerentry.0.amount", 10**19), "invalid_backup", "amount"),
    ("table rules unknown", _set("models.scoring.table.0.preset", "nonsense"), "invalid_backup", "scoring.table"),
    ("unit unknown", _set("models.scoring.table.0.unit", "gold"), "invalid_backup", "unit"),
    ("role king", _set("models.clubs.membership.0.role", "king"), "invalid_backup", "role"),
    ("active as text", _set("models.clubs.member.0.is_active", "yes"), "invalid_backup", "is_active"),
    ("required field null", _set("models.scoring.seat.0.name", None), "invalid_backup", "name"),
    ("date no date", _set("models.scoring.session.0.date", "gestern"), "invalid_backup", "date"),
    ("time a number", _set("models.scoring.entry.0.created_at", 1700000000), "invalid_backup", "created_at"),
    ("time without zone", _set("club.created_at", "2026-11-20T19:00:00"), "invalid_backup", "Zeitzone"),
    ("reference to nothing", _set("models.scoring.seat.0.member", 999), "invalid_backup", "verweist"),
    ("row id twice", _set("models.clubs.member.1.id", 1), "invalid_backup", "zweimal"),
    ("e-mail no e-mail", _set("users.0.email", "nicht@@da"), "invalid_backup", "email"),
    ("username with a slash", _set("users.0.username", "bad/name"), "invalid_backup", "username"),
    ("username twice, other case", _users_twice, "invalid_backup", "zweimal"),
    ("username twice, full width", _fullwidth_twice, "invalid_backup", "zweimal"),
    ("login made an administrator", _set("users.0.is_superuser", True), "invalid_backup", "unbekannte Felder"),
    ("unknown model", _unknown_model, "invalid_backup", "evil.model"),
    (
        "place with NUL",
        lambda d: _raw(d, '"place": "Gasthof Post"', '"place": "Gast\\u0000hof"'),
        "invalid_json",
        "U+0000",
    ),
    ("lone surrogate", lambda d: _raw(d, '"place": "Gasthof Post"', '"place": "\\ud800"'), "invalid_json", "Surrogat"),
    (
        "nesting 100,000 deep",
        lambda d: _raw(d, '"note": ""', '"note": ' + "[" * 100_000 + "]" * 100_000),
        "invalid_json",
        "verschachtelt",
    ),
    ("5,000-digit number", lambda d: _raw(d, '"position": 0', '"position": ' + "9" * 5_000), "invalid_json", "Stellen"),
    ("not JSON", lambda d: '{"format": "schafkopf-club-backup", ', "invalid_json", "JSON"),
    ("not a backup", lambda d: "[1, 2, 3]", "invalid_backup", "format"),
]


@pytest.mark.parametrize(("change", "code", "word"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_hostile_backup_is_refused_and_nothing_is_stored(
    backup: Doc,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    change: Callable[[Doc], Any],
    code: str,
    word: str,
) -> None:
    doc = copy.deepcopy(backup)
    doc["club"]["slug"], doc["club"]["name"] = "kopie", "Kopie"  # beside the original
    result = change(doc)
    text = result if isinstance(result, str) else json.dumps(doc, ensure_ascii=False)
    before = counts()
    exit_code, error = run(tmp_path, capsys, text)
    assert exit_code == 2
    assert error["code"] == code
    assert word in f"{error['message']} {error['field']}"
    assert len(error["message"]) < 600  # a 10,000-character value is not echoed
    assert counts() == before
    assert not Club.objects.filter(slug="kopie").exists()


def test_the_unchanged_backup_restores_beside_the_original(
    backup: Doc, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The control of the table above: the same document without a change is stored."""
    path = tmp_path / "backup.json"
    path.write_text(json.dumps(backup), encoding="utf-8")
    call_command("import_club", str(path), slug="kopie", name="Kopie")
    copy_ = Club.objects.get(slug="kopie")
    assert Entry.objects.filter(table__session__club=copy_).count() == 3
    assert LedgerEntry.objects.filter(club=copy_).count() == 12


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (("--slug", "../etc"), "slug"),
        (("--slug", "kopie", "--name", "N" * 101), "name"),
        (("--slug", "kopie", "--name", "a\x1bb"), "name"),
    ],
)
def test_a_hostile_slug_or_name_argument_is_refused(
    backup: Doc, tmp_path: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, str], field: str
) -> None:
    before = counts()
    exit_code, error = run(tmp_path, capsys, json.dumps(backup), *args)
    assert (exit_code, error["code"], error["field"]) == (2, "invalid_backup", field)
    assert counts() == before


def test_a_backup_into_a_database_never_migrated_says_migrate_first(backup: Doc, tmp_path: Path) -> None:
    path = tmp_path / "backup.json"
    path.write_text(json.dumps(backup), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    env |= {"DJANGO_DEBUG": "1", "DJANGO_ENV_FILE": os.devnull}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'never-migrated.sqlite3'}"
    result = subprocess.run(
        [sys.executable, "manage.py", "import_club", str(path)],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2, result.stderr
    assert json.loads(result.stdout)["error"]["code"] == "not_migrated"
    assert "manage.py migrate" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        (_set("models.scoring.entry.1.data.game", "nonsense"), "models.scoring.entry[id=2].data.game", "Eintrag 2:"),
        (_ledger_not_zero_sum, "models.scoring.entry[id=2]", "die Neuberechnung ergibt"),
    ],
)
def test_a_refused_table_names_the_table_the_entry_and_its_row_in_the_file(
    backup: Doc,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    change: Callable[[Doc], Any],
    field: str,
    message: str,
) -> None:
    doc = copy.deepcopy(backup)
    change(doc)
    _, error = run(tmp_path, capsys, json.dumps(doc), "--slug", "kopie")
    assert error["field"] == field
    assert error["message"].startswith("Tisch „Tisch 1“ vom 20.11.2026 (scoring.table id 1)")
    assert message in error["message"]
