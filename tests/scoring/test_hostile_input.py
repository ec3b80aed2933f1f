"""Hostile input never crashes a command or a page (issue 17).

Each class of ``tests.hostile`` — nesting 100,000 deep, an integer of 5,000 digits, a lone
surrogate in a value or a key, NUL and other control characters — goes through ``score_hand``,
``score_session``, ``rank_tournament`` and the pages: refused with the spec's error object (exit
2) or a German message at the field, nothing stored, the sheet unchanged. Then the same classes
as hypothesis strategies, through the commands and the JSON form.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs import plaintext
from clubs.models import Member
from scoring import safejson, selectors, services
from scoring.engine.core import EngineError
from scoring.models import AuditEntry, Entry, LedgerEntry, Table
from tests.factories import World, rufspiel
from tests.hostile import HUGE, hostile_hands, hostile_json_text, hostile_text, hostile_values, run_command
from tests.properties import examples

ROOT = Path(__file__).resolve().parents[2]
SEATS = ["Anna", "Bert", "Cilli", "Done"]
HANDS = hostile_hands(SEATS)


def score_hand_text(hand: str) -> bytes:
    return ('{"ruleset": "standard", "seats": ["Anna", "Bert", "Cilli", "Done"], ' + hand[1:]).encode()


def score_session_text(hand: str) -> bytes:
    good = hand_json = json.dumps({"game": "solo", "suit": "herz", "declarer": "Cilli", "augen": 80})
    doc = '{"ruleset": "standard", "players": ["Anna", "Bert", "Cilli", "Done"], "first_dealer": "Done", '
    return (doc + f'"hands": [{good}, {hand}, {hand_json}]' + "}").encode()


def assert_refused(code: int, out: str, err: str, field_prefix: str = "") -> dict[str, Any]:
    assert code == 2, (code, out, err)
    error = json.loads(out)["error"]
    assert error["code"] == "invalid_json" and error["message"]
    assert (error["field"] or "").startswith(field_prefix)
    assert err.startswith("Fehler") and err.count("\n") == 1 and "Traceback" not in err
    return error


def test_the_valid_hand_of_the_cases_is_scored() -> None:
    """The cases differ from a valid hand only in the hostile part."""
    code, out, _err = run_command("score_hand", score_hand_text(hostile_hands(SEATS)["huge"].replace(HUGE, "70")))
    assert code == 0 and json.loads(out)["payouts"]["Anna"] == 20


@pytest.mark.parametrize("case", sorted(HANDS))
def test_score_hand_refuses_every_class_with_the_error_object(case: str) -> None:
    assert_refused(*run_command("score_hand", score_hand_text(HANDS[case])))


@pytest.mark.parametrize("case", sorted(HANDS))
def test_score_session_refuses_every_class_with_the_error_object(case: str) -> None:
    error = assert_refused(*run_command("score_session", score_session_text(HANDS[case])))
    assert error["field"] is None or error["field"].startswith("hands[1]")


def test_the_field_names_where_the_bad_text_is() -> None:
    error = assert_refused(*run_command("score_session", score_session_text(HANDS["surrogate_declarer"])))
    assert error["field"] == "hands[1].declarer"
    assert "U+D800" in error["message"]


def test_rank_tournament_refuses_deep_nesting_and_surrogates() -> None:
    for text in ('{"ruleset": "allgaeu-meisterschaft", "players": ' + "[" * 100_000, '{"players": ["\\ud800"]}'):
        assert_refused(*run_command("rank_tournament", text.encode()))


def test_input_that_is_not_utf8_or_too_long_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    assert_refused(*run_command("score_hand", b'{"seats": ["\xff"]}'))
    monkeypatch.setattr(safejson, "MAX_JSON_CHARS", 100)
    error = assert_refused(*run_command("score_hand", score_hand_text(hand_of(" " * 200))))
    assert "zu lang" in error["message"]
    monkeypatch.setattr(safejson, "MAX_JSON_BYTES", 400)  # cut inside an umlaut: still "too long"
    error = assert_refused(*run_command("score_hand", score_hand_text(hand_of("ä" * 300))))
    assert "zu lang" in error["message"]


def hand_of(padding: str) -> str:
    return "{" + padding + HANDS["huge"][1:].replace(HUGE, "70")


@pytest.mark.parametrize("command", ["score_hand", "score_session"])
def test_a_real_process_prints_the_error_object_and_exits_2(command: str) -> None:
    """The whole program, as a shell runs it: no traceback, nothing but the error object."""
    if command == "score_hand":
        text = score_hand_text(HANDS["surrogate_declarer"])
    else:
        text = score_session_text(HANDS["deep"])
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), command],
        input=text,
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert json.loads(done.stdout)["error"]["code"] == "invalid_json"
    assert b"Traceback" not in done.stderr


def test_a_command_line_argument_with_broken_bytes_prints_an_escape() -> None:
    """``--players`` of bytes that are not UTF-8 arrive as lone surrogates: echoed, not crashed."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "plan_tournament", "--players", os.fsdecode(b"\xff\xfe")],
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    done.stdout.decode("utf-8")  # valid UTF-8 …
    assert json.loads(done.stdout)["error"]["field"] == "players"  # … and valid JSON


# --- pages -------------------------------------------------------------------------------------

PLAYERS = ["Sepp Huber", "Zenzi Mayr", "Girgl Lechner", "Vroni Brandl"]
PAGE_HANDS = hostile_hands(PLAYERS, deckel=True)


@pytest.fixture
def table(world: World) -> Table:
    session = services.session_create(club=world.club, date=datetime.date(2026, 11, 20), place="Krone", user=None)
    members = [Member.objects.get(club=world.club, display_name=name) for name in PLAYERS]
    return services.table_start(session=session, members=members, rules="allgaeu", user=None)


def url(name: str, table: Table, **extra: Any) -> str:
    kwargs = {"slug": table.session.club.slug, "session_id": table.session_id, "table_id": table.pk, **extra}
    return reverse(f"scoring:{name}", kwargs=kwargs)


def sheet(table: Table) -> tuple[list[Any], list[Any], int]:
    entries = list(Entry.objects.filter(table=table).order_by("number").values_list("number", "data"))
    ledger = sorted(LedgerEntry.objects.filter(table=table).values_list("entry__number", "member_id", "amount"))
    return entries, ledger, AuditEntry.objects.filter(table=table).count()


@pytest.mark.django_db
@pytest.mark.parametrize("case", sorted(PAGE_HANDS))
def test_the_json_form_refuses_every_class_at_the_field(client_as: Any, table: Table, case: str) -> None:
    services.entry_append(table=table, data=rufspiel(table), user=None)
    before = sheet(table)
    client: Client = client_as("scorer")
    response = client.post(url("entry_add", table), {"data": PAGE_HANDS[case], "expected_number": "2"})
    assert response.status_code == 200
    body = response.content.decode()
    assert re.search(r'id="error-data">(?:(?!</div>).)*(JSON|zeichen|Zahl)', body, re.S | re.I)
    assert sheet(table) == before
    assert client.get(table.get_absolute_url()).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("case", ["deep", "huge", "surrogate_declarer", "nul_key", "nul_note"])
def test_the_json_edit_form_of_a_stored_entry_refuses_and_keeps_it(client_as: Any, world: World, case: str) -> None:
    """A Doppelkopf hand is corrected as JSON: the hostile correction is refused at the field."""
    session = services.session_create(club=world.club, date="2026-11-20", user=None)
    members = [Member.objects.get(club=world.club, display_name=name) for name in PLAYERS]
    table = services.table_start(session=session, members=members, rules="doppelkopf", user=None)
    hand = {"game": "normal", "re": PLAYERS[:2], "augen": 150}
    first = services.entry_append(table=table, data=hand, user=None)
    before = sheet(table)
    client: Client = client_as("scorer")
    edit = url("entry_edit", table, entry_id=first.pk)
    assert "Sepp Huber" in client.get(edit).content.decode()
    response = client.post(edit, {"data": PAGE_HANDS[case], "reason": "verzählt"})
    assert response.status_code == 200
    assert re.search(r'id="error-data">(?:(?!</div>).)*(JSON|zeichen|Zahl)', response.content.decode(), re.S | re.I)
    assert sheet(table) == before


@pytest.mark.django_db
@pytest.mark.parametrize("bad", ["\x00", "\ud800", "\x1b", "Sepp\x07"])
def test_the_tap_form_refuses_control_characters_and_surrogates(client_as: Any, table: Table, bad: str) -> None:
    before = sheet(table)
    seats = selectors.table_state(table).state.seats
    post = {
        "game": "rufspiel",
        "declarer": bad,
        "partner": seats[1],
        "augen": "75",
        "deckel": "1",
        "expected_number": "1",
        "idempotency_key": "k" + bad,
    }
    # Percent-encoded as a client that does not care would send it (a surrogate as CESU bytes).
    body = "&".join(f"{key}={quote(value, errors='surrogatepass')}" for key, value in post.items())
    response = client_as("scorer").post(url("entry_add", table), body, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 200
    assert sheet(table) == before


@pytest.mark.django_db
@pytest.mark.parametrize("bad", ["Sepp\x00", "Sepp\x01Huber", "Zeile\nzwei", "Se\u0085pp"])
def test_a_member_name_with_a_control_character_is_refused_at_the_field(client_as: Any, world: World, bad: str) -> None:
    client: Client = client_as("owner")
    before = Member.objects.count()
    response = client.post(reverse("clubs:member_add", kwargs={"slug": "test"}), {"display_name": bad})
    body = response.content.decode()
    assert response.status_code == 200
    assert re.search(r"(nicht erlaubt|Null-Zeichen|Nullzeichen)", body), body[-2000:]
    assert Member.objects.count() == before


@pytest.mark.django_db
def test_a_reason_with_nul_is_refused_and_the_entry_stays(client_as: Any, table: Table) -> None:
    first = services.entry_append(table=table, data=rufspiel(table), user=None)
    before = sheet(table)
    response = client_as("scorer").post(url("entry_delete", table, entry_id=first.pk), {"delete-reason": "weg\x1b"})
    assert response.status_code in (200, 302)
    assert sheet(table) == before


@pytest.mark.django_db
def test_the_service_refuses_what_a_form_would(table: Table) -> None:
    """An entry that comes another way (an import, a script) is checked at the store's edge."""
    nested: Any = 0
    for _ in range(200):
        nested = [nested]
    for extra in ({"\x00": 0}, {"note": "\ud800"}, {"x": nested}, {"augen": 10**5000}, {"augen": float("nan")}):
        before = sheet(table)
        with pytest.raises(EngineError):
            services.entry_append(table=table, data={**rufspiel(table), **extra}, user=None)
        assert sheet(table) == before


# --- properties ------------------------------------------------------------------------------------


@settings(max_examples=examples(150), suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(
    command=st.sampled_from(["score_hand", "score_session", "rank_tournament"]),
    bad=hostile_json_text(),
    where=st.integers(0, 2),
)
def test_hostile_text_anywhere_gives_the_error_object_never_a_crash(command: str, bad: str, where: int) -> None:
    hand = hand_text_with(bad, where)
    data = score_hand_text(hand) if command == "score_hand" else score_session_text(hand)
    code, out, err = run_command(command, data)
    assert code in (0, 2), (code, out, err)
    doc = json.loads(out)
    if code == 2:
        assert set(doc["error"]) == {"code", "message", "field"} and err.startswith("Fehler")


def hand_text_with(bad: str, where: int) -> str:
    base = hostile_hands(SEATS)["huge"]
    if where == 0:
        return base.replace(HUGE, bad)  # as a value
    if where == 1:
        return base[:-1] + f", {bad}: 0" + "}" if bad.startswith('"') else base.replace(HUGE, bad)  # as a key
    return base.replace('"Anna"', bad, 1)  # as the declarer


@pytest.mark.django_db
@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(extra=st.dictionaries(st.sampled_from(["note", "x", "augen", "declarer"]), hostile_values, min_size=1))
def test_hostile_values_in_a_stored_entry_are_refused_or_stored_intact(table: Table, extra: dict[str, Any]) -> None:
    """Random hostile values posted to the service: either the entry is refused and the sheet is
    unchanged, or it is stored and reads back exactly (on PostgreSQL too)."""
    before = sheet(table)
    data = {**rufspiel(table), **extra}
    try:
        entry = services.entry_append(table=table, data=data, user=None)
    except EngineError as error:
        assert error.message
        assert sheet(table) == before
        return
    assert Entry.objects.get(pk=entry.pk).data == data


def _form_body(fields: dict[str, str]) -> str:
    """Percent-encoded as a careless client sends it: a lone surrogate as its CESU bytes."""
    return "&".join(f"{key}={quote(value, errors='surrogatepass')}" for key, value in fields.items())


FORMS = ["club_settings", "member_add", "session_create", "table_start", "entry_json", "entry_delete"]


@pytest.mark.django_db
@settings(max_examples=80, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(form=st.sampled_from(FORMS), text=hostile_text | hostile_json_text())
def test_hostile_text_posted_to_every_form_is_refused_or_stored_clean(
    client_as: Any, table: Table, form: str, text: str
) -> None:
    """Random hostile text in a text field of each form: never a 500, and nothing with NUL, a
    control character or a surrogate reaches the database (on PostgreSQL too)."""
    client: Client = client_as("owner")
    slug = {"slug": table.session.club.slug}
    first = services.entry_append(table=table, data=rufspiel(table), user=None) if form == "entry_delete" else None
    before = sheet(table)
    targets: dict[str, tuple[str, dict[str, str]]] = {
        "club_settings": (reverse("clubs:settings", kwargs=slug), {"name": text}),
        "member_add": (reverse("clubs:member_add", kwargs=slug), {"display_name": text}),
        "session_create": (reverse("scoring:session_create", kwargs=slug), {"date": "2026-11-21", "place": text}),
        "table_start": (
            reverse("scoring:table_start", kwargs={**slug, "session_id": table.session_id}),
            {"name": text, "preset": "allgaeu", "first_dealer": "0", "seat_0": "", "seat_1": "", "seat_2": ""},
        ),
        "entry_json": (url("entry_add", table), {"data": text, "expected_number": str(len(before[0]) + 1)}),
        "entry_delete": (url("entry_delete", table, entry_id=first.pk if first else 0), {"delete-reason": text}),
    }
    path, fields = targets[form]
    response = client.post(path, _form_body(fields), content_type="application/x-www-form-urlencoded")
    assert response.status_code < 500
    for model, column in [(Member, "display_name"), (Table, "name"), (AuditEntry, "reason")]:
        for value in model.objects.values_list(column, flat=True):
            assert plaintext.bad_character(value, multiline=False) is None, (model, value)
    # What the server reads: the bytes of a lone surrogate are not UTF-8, Django decodes them as U+FFFD.
    received = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace").strip()
    if form == "entry_json" or (form == "entry_delete" and plaintext.bad_character(received, multiline=False)):
        assert sheet(table) == before  # never a valid hand; a reason with a bad character deletes nothing


@pytest.mark.django_db
@pytest.mark.parametrize("number", ["99999999999999999999", "9" * 5_000])
def test_huge_numbers_in_addresses_are_not_found_never_an_error(client_as: Any, table: Table, number: str) -> None:
    """An id beyond any column (PostgreSQL's integer is 32-bit) is simply not found."""
    client: Client = client_as("owner")
    slug = table.session.club.slug
    paths = [
        f"/clubs/{slug}/abende/{number}/",
        url("table", table).replace(f"/{table.pk}/", f"/{number}/"),
        reverse("stats:standings", kwargs={"slug": slug}) + f"?period=evening&session={number}",
        reverse("stats:member", kwargs={"slug": slug, "member_id": 1}).replace("/1/", f"/{number}/"),
    ]
    for path in paths:
        assert client.get(path).status_code in (200, 404), path


json_with_hostile_text = st.recursive(
    st.none() | st.integers(-(10**6), 10**6) | hostile_text,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(hostile_text, children, max_size=3),
    max_leaves=8,
)


@settings(max_examples=examples(400))
@given(value=json_with_hostile_text, ascii_only=st.booleans())
def test_the_reader_refuses_text_exactly_when_the_full_check_does(value: Any, ascii_only: bool) -> None:
    """The reader skips the look at each string when the text shows no bad character at all: that
    shortcut refuses exactly what checking every string refuses, escaped or raw."""
    try:
        safejson.check(value)
    except EngineError:
        expected = False
    else:
        expected = True
    try:
        read = safejson.loads(json.dumps(value, ensure_ascii=ascii_only))
    except EngineError:
        assert not expected
    else:
        assert expected and read == value


@pytest.mark.django_db
@pytest.mark.parametrize("username", ["test-owner\x00", "\ud800", "a\x1b[2Jb"])
def test_a_login_with_hostile_text_is_refused_never_an_error(client: Client, world: World, username: str) -> None:
    """The lockout (django-axes) records failed logins by username: NUL must not reach it."""
    body = _form_body({"username": username, "password": "x\x00"})
    response = client.post(reverse("login"), body, content_type="application/x-www-form-urlencoded")
    assert response.status_code in (200, 403)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "query", ["period=month&month=%00", "period=range&from=%00&to=%ED%A0%80", "sort=%00", "page=%00"]
)
def test_hostile_query_strings_are_never_an_error(client_as: Any, table: Table, query: str) -> None:
    client: Client = client_as("owner")
    slug = table.session.club.slug
    for name in ("stats:standings", "clubs:member_list"):
        path = reverse(name, kwargs={"slug": slug})
        assert client.get(f"{path}?{query}").status_code in (200, 404), (path, query)
