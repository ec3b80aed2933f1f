"""No single request ends in a 500 (issue 22, finding 6): a crafted query parameter, posted field
or address is refused at its field (a German message) or answered 404/400, on SQLite and on
PostgreSQL alike.

First the cases that were found, each with the backend it failed on; then a sweep over every URL
of the project: each parameter a view reads (found by watching which keys it reads from
``request.GET`` and ``request.POST``) gets each hostile value of ``HOSTILE``, and each id in the
address a number beyond any column. The sweep finds a new view's parameters by itself.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.forms import BaseForm
from django.http import QueryDict
from django.test import Client
from django.urls import reverse
from django.utils.datastructures import MultiValueDict

from clubs.ids import MAX_ID, parse_id, parse_ids
from clubs.models import Member
from offline.logins import login_id
from scoring import services
from scoring.models import Entry, Session, Table
from tests.access_matrix import ClubURL, all_urls, sample_kwargs
from tests.factories import MemberFactory, SessionFactory, World, make_entry, make_table, make_tournament, rufspiel
from tournaments.models import Adjustment, Playoff, Tournament

ROOT = Path(__file__).resolve().parents[1]
APPS = ("clubs", "scoring", "standings", "offline", "imports", "tournaments", "opentournaments", "config")

# One of each class of value that once ended in a 500, or could.
HOSTILE: dict[str, str] = {
    "superscript_two": "²",  # str.isdigit() says yes, int() says no
    "arabic_indic_three": "٣",  # int() takes it: not an ASCII id all the same
    "exponent": "1e309",  # a float beyond float
    "thirty_digits": "9" * 30,  # beyond SQLite's integer: OverflowError in a query
    "beyond_bigint": str(MAX_ID + 1),
    "minus_one": "-1",
    "nul": "\x00",  # PostgreSQL refuses NUL in text, in a query as in a row
    "digit_then_nul": "1\x00",
    "ten_thousand_chars": "x" * 10_000,
    "five_thousand_digits": "9" * 5_000,  # int() refuses more than 4,300 digits
    "lone_surrogate": "\ud800",  # sent as its CESU bytes; Django reads U+FFFD
}
BIG = HOSTILE["thirty_digits"]


def _encoded(fields: dict[str, str | list[str]]) -> str:
    pairs = [(key, v) for key, value in fields.items() for v in (value if isinstance(value, list) else [value])]
    return "&".join(f"{quote(key)}={quote(value, errors='surrogatepass')}" for key, value in pairs)


def post(client: Client, path: str, fields: dict[str, str | list[str]], query: str = "") -> Any:
    """Posted as a careless client sends it (a lone surrogate as its CESU bytes)."""
    return client.post(path + query, _encoded(fields), content_type="application/x-www-form-urlencoded")


@pytest.fixture
def owner(client_as: Any) -> Client:
    client: Client = client_as("owner")
    client.raise_request_exception = False  # a 500 is an answer here, to be asserted on
    return client


@pytest.fixture
def table(world: World) -> Table:
    return make_table(SessionFactory(club=world.club))


def table_url(name: str, table: Table, **extra: Any) -> str:
    kwargs = {"slug": table.session.club.slug, "session_id": table.session_id, "table_id": table.pk, **extra}
    return reverse(name, kwargs=kwargs)


# --- the id parser ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("1", 1), ("0042", 42), (str(MAX_ID), MAX_ID), (7, 7)]
    + [(value, None) for value in HOSTILE.values()]
    + [(value, None) for value in ("", "0", " 1", "1 ", "+1", "1.0", "0x1", "１", None, True, 0, MAX_ID + 1)],
)
def test_an_id_is_ascii_digits_within_the_id_columns(raw: object, expected: int | None) -> None:
    assert parse_id(raw) == expected


def test_a_list_of_ids_keeps_only_the_ids() -> None:
    assert parse_ids("3,²,4,٣,,-1," + BIG + ",5") == [3, 4, 5]


# --- the cases of finding 6, each on the backend it failed on ---------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["stats:chart_running", "stats:chart_games"])
@pytest.mark.parametrize("value", ["²", "٣", BIG, "1e309"])
def test_a_chart_of_a_member_that_is_no_id_is_not_found(owner: Client, world: World, name: str, value: str) -> None:
    """``charts/running.svg?member=²`` was a 500 on both backends (``isdigit`` then ``int``)."""
    path = reverse(name, kwargs={"slug": world.club.slug})
    assert owner.get(f"{path}?{_encoded({'member': value})}").status_code == 404
    member = Member.objects.filter(club=world.club).first()
    assert owner.get(f"{path}?member={member.pk}").status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["²", "٣", BIG, "1e309"])
def test_the_preview_of_an_entry_that_is_no_id_is_not_found(owner: Client, table: Table, value: str) -> None:
    """``vorschau/?entry=²`` was a 500 on both backends."""
    entry = make_entry(table)
    path = table_url("scoring:entry_preview", table)
    assert post(owner, path, {"game": "rufspiel"}, "?" + _encoded({"entry": value})).status_code == 404
    assert post(owner, path, {"game": "rufspiel"}, f"?entry={entry.pk}").status_code == 200
    assert post(owner, path, {"game": "rufspiel"}, "?entry=").status_code == 200  # no entry: a new one


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["²", "1,²,2", BIG, "٣"])
def test_the_sheet_ignores_changed_and_blocked_that_are_no_numbers(owner: Client, table: Table, value: str) -> None:
    """``?changed=`` (the table page) and ``?blocked=`` (an entry's page) were 500s for ``²``."""
    entry = make_entry(table)
    query = "?" + _encoded({"changed": value})
    assert owner.get(table_url("scoring:table", table) + query).status_code == 200
    query = "?" + _encoded({"blocked": value})
    assert owner.get(table_url("scoring:entry_edit", table, entry_id=entry.pk) + query).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("key", ["\x00", "k\x00", "x" * 65])
def test_an_offline_entry_whose_key_is_not_plain_text_is_refused_at_the_key(
    owner: Client, world: World, table: Table, key: str
) -> None:
    """A NUL in ``idempotency_key`` was looked up before the form was checked: a 500 on
    PostgreSQL. Now the key is looked up only when its field takes it; the entry is refused."""
    fields = {name: str(value) for name, value in rufspiel(table).items()} | {
        "idempotency_key": key,
        "login": login_id(world.users["owner"]),  # the sender's own entry (a shared phone's check passes)
    }
    response = post(owner, table_url("offline:entry_send", table), fields | {"expected_number": "1"})
    assert response.status_code == 200
    answer = response.json()
    assert answer["status"] == "refused" and "idempotency_key" in answer["errors"]
    assert not Entry.objects.filter(table=table).exists()


def _tournament_posts(tournament: Tournament) -> dict[str, tuple[str, dict[str, str | list[str]], str]]:
    """(URL, form, field) of each form that picks members by id."""
    kwargs = {"slug": tournament.club.slug, "tournament_id": tournament.pk}
    member = tournament.participants.first().member_id
    return {
        "participants": (reverse("tournaments:participants", kwargs=kwargs), {"members": [str(member), BIG]}, ""),
        "playoff_players": (
            reverse("tournaments:playoff_add", kwargs=kwargs),
            {"players": [str(member), BIG], "winner": str(member)},
            "Spieler",
        ),
        "playoff_winner": (
            reverse("tournaments:playoff_add", kwargs=kwargs),
            {"players": [str(member)], "winner": BIG},
            "Sieger",
        ),
        "adjustment": (
            reverse("tournaments:adjustment_add", kwargs=kwargs),
            {"players": [BIG], "points": "2", "reason": "verschrieben"},
            "Betroffene Spieler",
        ),
    }


@pytest.mark.django_db
@pytest.mark.parametrize("case", ["participants", "playoff_players", "playoff_winner", "adjustment"])
def test_a_member_id_of_thirty_digits_is_refused_at_its_field(owner: Client, world: World, case: str) -> None:
    """A 30-digit id among the members was a 500 on SQLite (``IN (…)`` overflowed its integer)."""
    tournament = make_tournament(world.club, drawn=False)
    before = (tournament.participants.count(), Playoff.objects.count(), Adjustment.objects.count())
    path, fields, label = _tournament_posts(tournament)[case]
    response = owner.post(path, fields, follow=True)
    assert response.status_code == 200
    said = [str(message) for message in response.context["messages"]] if label else []
    if label:  # the ranking's forms answer with a message naming the field
        assert f"{label}: Diese Auswahl gibt es nicht." in said, said
    else:
        assert response.context["participants_form"].errors["members"] == ["Diese Auswahl gibt es nicht."]
    assert (tournament.participants.count(), Playoff.objects.count(), Adjustment.objects.count()) == before


@pytest.mark.django_db
@pytest.mark.parametrize("value", [BIG, "²", "-1", "\x00"])
def test_a_seat_or_login_player_that_is_no_id_is_refused_at_its_field(owner: Client, world: World, value: str) -> None:
    """The other forms that pick a row by id (a table's seats, a login's player) refuse the same."""
    session = SessionFactory(club=world.club)
    path = reverse("scoring:table_start", kwargs={"slug": world.club.slug, "session_id": session.pk})
    seats = {f"seat_{i}": value for i in range(3)}
    response = post(owner, path, {"preset": "allgaeu", "first_dealer": "0", **seats})
    assert response.status_code == 200 and response.context["form"].errors["seat_0"] == ["Diese Auswahl gibt es nicht."]
    path = reverse("clubs:logins", kwargs={"slug": world.club.slug})
    response = post(owner, path, {"username": "neu", "role": "member", "member": value})
    assert response.status_code == 200 and response.context["form"].errors["member"] == ["Diese Auswahl gibt es nicht."]
    assert not Table.objects.filter(session=session).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["\uff44emo-scorer", "\uff54est-member", "TEST-\uff2dEMBER"])
def test_a_full_width_username_on_zugaenge_is_refused_at_its_field(owner: Client, world: World, name: str) -> None:
    """``ｄemo-scorer`` was normalised after the existence check: an IntegrityError, a 500 (fixed
    by commit 472d587: names compare NFKC + case-folded). A name that is new is created as NFKC."""
    logins = get_user_model().objects.count()
    response = post(
        owner,
        reverse("clubs:logins", kwargs={"slug": world.club.slug}),
        {"username": name, "password": "Schafkopf-2026", "role": "member"},
    )
    if name == "\uff44emo-scorer":
        assert response.status_code == 302
        assert get_user_model().objects.filter(username="demo-scorer").exists()
        response = post(
            owner,
            reverse("clubs:logins", kwargs={"slug": world.club.slug}),
            {"username": "demo-\uff53corer", "password": "Schafkopf-2026", "role": "member"},
        )
        logins += 1
    assert response.status_code == 200
    [said] = response.context["form"].errors["username"]
    assert said.startswith("Diesen Benutzernamen gibt es schon")
    assert get_user_model().objects.count() == logins


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["place", "table_name", "players", "first_dealer"])
def test_the_history_import_refuses_nul_in_its_text_fields(owner: Client, world: World, field: str) -> None:
    """The upload form was the one form whose text fields took NUL (and went on to the services:
    a 500 on PostgreSQL for the place and the table's name)."""
    csv = "Spiel;Spieler;Mitspieler;Ruf;Farbe;Augen;Ergebnis\nSauspiel;Sepp Huber;Zenzi Mayr;eichel;;75;\n"
    data: dict[str, Any] = {
        "date": "2024-05-03",
        "table_name": "Tisch 1",
        "players": "Sepp Huber,Zenzi Mayr,Girgl Lechner,Vroni Brandl",
        "first_dealer": "",
        "place": "Krone",
    }
    data[field] = data[field] + "\x00"
    data["file"] = SimpleUploadedFile("abend.csv", csv.encode())
    response = owner.post(reverse("scoring:history_import", kwargs={"slug": world.club.slug}), data)
    assert response.status_code == 200
    assert "ist nicht erlaubt" in str(response.context["form"].errors[field])
    assert not Session.objects.filter(club=world.club).exists()


# --- the sweep: every parameter of every URL ----------------------------------------------------------

URLS = all_urls()
SKIPPED_KEYS = {"csrfmiddlewaretoken", "_probe"}
SENTINEL = 987_654_321  # an id in the address, to be replaced by one beyond any column


# The classes the sweep sends (the rest of ``HOSTILE`` are variants of these).
SWEPT = ["superscript_two", "exponent", "thirty_digits", "minus_one", "nul", "ten_thousand_chars"]
# A PDF or Excel export reads its parameters through the form of its page, which the sweep covers;
# rendering a document for every hostile value would only cost time (make test's ten minutes).
EXPORTS = ("_pdf", "_xlsx")


@dataclass
class KeysRead:
    """The keys a request read from ``request.GET`` and ``request.POST``: by a form's field, or
    by the view itself (``request.GET.get("member")``)."""

    by_forms: set[str] = field(default_factory=set)
    by_views: set[str] = field(default_factory=set)


@contextmanager
def keys_read() -> Iterator[KeysRead]:
    """Watch which keys of any ``QueryDict`` are read meanwhile, and by whom."""
    keys = KeysRead()
    in_form = [0]

    def record(key: str) -> None:
        (keys.by_forms if in_form[0] else keys.by_views).add(key)

    def watching(name: str) -> Any:
        original = getattr(MultiValueDict, name)

        def read(self: QueryDict, key: str, *args: Any, **kwargs: Any) -> Any:
            record(key)
            return original(self, key, *args, **kwargs)

        return read

    form_value = BaseForm._widget_data_value

    def field_value(self: BaseForm, widget: Any, html_name: str) -> Any:
        in_form[0] += 1
        try:
            return form_value(self, widget, html_name)
        finally:
            in_form[0] -= 1

    with pytest.MonkeyPatch.context() as patch:
        for name in ("__getitem__", "get", "getlist"):
            patch.setattr(QueryDict, name, watching(name))
        patch.setattr(QueryDict, "__contains__", lambda self, key: record(key) or dict.__contains__(self, key))
        patch.setattr(BaseForm, "_widget_data_value", field_value)
        yield keys


def _methods(url: ClubURL) -> list[str]:
    return [method for method in ("GET", "POST") if url.rule is None or url.rule.allows(method)]


def _send(client: Client, method: str, path: str, fields: dict[str, str]) -> Any:
    query = "?" + _encoded(fields) if fields else ""
    return client.get(path + query) if method == "GET" else post(client, path, fields, query)


@pytest.fixture
def everything(world: World) -> World:
    """A club with an evening under way and a member without a table, so the pages have rows."""
    table = make_table(SessionFactory(club=world.club))
    for _ in range(3):
        services.entry_append(table=table, data=rufspiel(table), user=None)
    MemberFactory(club=world.club, display_name="Ohne Tisch")
    return world


def test_the_sweep_finds_the_pages_and_their_parameters() -> None:
    """Guards the walk: the URLs of finding 6 are among those swept."""
    names = {url.name for url in URLS}
    assert {"stats:chart_running", "scoring:entry_preview", "offline:entry_send", "tournaments:participants"} <= names
    assert {"login", "clubs:my_clubs", "clubs:invitation_accept"} <= names


@pytest.mark.django_db
@pytest.mark.parametrize("url", URLS, ids=lambda url: url.name)
def test_no_hostile_value_in_any_parameter_is_a_500(owner: Client, everything: World, url: ClubURL) -> None:
    """For each class of ``SWEPT``: every key a form of the view reads gets it at once (a form
    checks each field on its own), each key the view reads itself gets it alone (it may stop at
    the first); in the query and, for a POST, in the form too. Then each id of the address
    beyond any column. Nothing may answer 500."""
    kwargs = sample_kwargs(url, everything.club)
    path = reverse(url.name, kwargs=kwargs)
    failed = []
    for method in _methods(url):
        with keys_read() as keys:
            _send(owner, method, path, {"_probe": "1"})
        by_views = sorted(keys.by_views - keys.by_forms - SKIPPED_KEYS)
        by_forms = sorted(keys.by_forms - SKIPPED_KEYS)
        for case in [] if url.name.endswith(EXPORTS) else SWEPT:
            value = HOSTILE[case]
            tries = [dict.fromkeys(by_forms, value)] if by_forms else []
            for fields in tries + [{key: value} for key in by_views]:
                status = _send(owner, method, path, fields).status_code
                if status >= 500:
                    failed.append(f"{method} {','.join(fields)}={case}: {status}")
        for kwarg in sorted(k for k, v in kwargs.items() if isinstance(v, int)):
            for number in (BIG, str(MAX_ID + 1)):
                far = reverse(url.name, kwargs={**kwargs, kwarg: SENTINEL}).replace(f"/{SENTINEL}/", f"/{number}/")
                status = _send(owner, method, far, {}).status_code
                if status >= 500:
                    failed.append(f"{method} {kwarg}={number[:8]}…: {status}")
    assert not failed, f"{path}: {failed}"


# --- guards: the same class of bug cannot come back ----------------------------------------------------


def _sources() -> Iterator[tuple[Path, ast.Module]]:
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" not in path.parts and "engine" not in path.parts:
                yield path, ast.parse(path.read_text(), filename=str(path))


def test_no_request_data_is_judged_by_isdigit_and_no_form_picks_rows_unbounded() -> None:
    """``str.isdigit`` takes ``²``; a plain ``ModelChoiceField`` takes a 30-digit id to SQLite.
    Ids from requests go through ``clubs.ids`` (``config/hosts.py`` reads the command line)."""
    allowed = {"isdigit": "config/hosts.py", "isdecimal": "", "isnumeric": ""}
    allowed |= {"ModelChoiceField": "clubs/ids.py", "ModelMultipleChoiceField": "clubs/ids.py"}
    found = []
    for path, tree in _sources():
        name = path.relative_to(ROOT).as_posix()
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in allowed and name != allowed[node.attr]:
                found.append(f"{name}:{node.lineno} .{node.attr}")
    assert not found, found
