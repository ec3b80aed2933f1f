"""Issue 16, the server's side of the offline score sheet: the app's files, the table's JSON,
sending an entry typed offline (stored once, stale, refused), and the engine bridge the phone
runs (``scoring.engine.offline``) turning the same posted form into the same facts as the
server's form. Issue 22, a shared phone: every page names its login, and an entry is stored
only under the login that typed it."""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.http import QueryDict
from django.test import Client
from django.urls import reverse

from clubs.models import Member
from offline.logins import HEADER, NOBODY, login_id
from offline.views import ENGINE_DIR, precache_urls
from scoring import selectors, services
from scoring.engine.entry_facts import table_facts
from scoring.engine.offline import OfflineTable, clean
from scoring.forms.entry import EntryContext
from scoring.forms.hand import EventForm, HandForm
from scoring.models import AuditEntry, Entry, Table
from tests.factories import World

PLAYERS = ["Sepp Huber", "Zenzi Mayr", "Girgl Lechner", "Vroni Brandl"]
KWARGS = ("slug", "session_id", "table_id")
PAIR = ["Sepp Huber", "Vroni Brandl"]


@pytest.fixture
def table(world: World) -> Table:
    session = services.session_create(club=world.club, date="2026-11-20", place="Krone", user=None)
    members = [Member.objects.get(club=world.club, display_name=name) for name in PLAYERS]
    return services.table_start(session=session, members=members, rules="allgaeu", user=None)


def _url(name: str, table: Table) -> str:
    values = (table.session.club.slug, table.session_id, table.pk)
    return reverse(f"offline:{name}", kwargs=dict(zip(KWARGS, values, strict=True)))


def _scorer_login() -> str:
    return login_id(get_user_model().objects.get(username="test-scorer"))


def _post(table: Table, **changes: Any) -> dict[str, Any]:
    """A Rufspiel as the phone's form posts it (Sepp deals first, Zenzi plays with Girgl),
    typed by the scorer's login."""
    post = {
        "game": "rufspiel",
        "declarer": "Zenzi Mayr",
        "partner": "Girgl Lechner",
        "called": "eichel",
        "augen": "72",
        "kontra": "0",
        "deckel": "1",
        "dealer": "Sepp Huber",
        "idempotency_key": "k1",
        "expected_number": "1",
        "target": "entry",
        "login": _scorer_login(),
    }
    post.update(changes)
    return {key: value for key, value in post.items() if value is not None}


# --- the installable app ----------------------------------------------------------------------------


def test_every_file_the_service_worker_precaches_is_served(client: Client, db: None) -> None:
    urls = precache_urls()
    assert any(url.endswith("pyodide.asm.wasm") for url in urls)
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        if hasattr(response, "streaming_content"):
            response.close()


def test_the_service_worker_is_served_from_the_root_with_its_cache_list(client: Client) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    body = response.content.decode()
    assert json.dumps(precache_urls()) in body
    assert "cdn" not in body.lower().replace("cdn unless", "")  # Workbox is named, never loaded


def test_the_manifest_names_the_app_and_its_icons(client: Client) -> None:
    doc = json.loads(client.get("/manifest.webmanifest").content)
    assert doc["display"] == "standalone"
    assert {icon["sizes"] for icon in doc["icons"]} == {"192x192", "512x512"}
    for icon in doc["icons"]:
        assert client.get(icon["src"]).status_code == 200


def test_the_engine_zip_is_the_engine_package() -> None:
    data = Client().get("/offline/engine.zip").content
    names = set(zipfile.ZipFile(io.BytesIO(data)).namelist())
    expected = {"scoring/engine/" + p.relative_to(ENGINE_DIR).as_posix() for p in ENGINE_DIR.rglob("*.py")}
    assert names == {"scoring/__init__.py", *expected}
    assert "scoring/engine/offline.py" in names


# --- the table's JSON ---------------------------------------------------------------------------------


def test_the_table_json_has_rules_players_log_keys_and_the_form(client_as: Any, table: Table) -> None:
    services.entry_append(table=table, data=json.loads('{"event": "zusammengeworfen"}'), user=None, idempotency_key="a")
    doc = json.loads(client_as("member").get(_url("table_data", table)).content)
    assert doc["ruleset"] == table.ruleset_spec
    assert doc["players"] == PLAYERS and doc["first_dealer"] == "Sepp Huber"
    assert doc["log"] == [{"event": "zusammengeworfen"}] and doc["keys"] == ["a"]
    assert doc["form"]["kind"] == "schafkopf" and doc["form"]["types"]["augen"] == "int"
    assert doc["form"]["types"]["tout"] == "bool" and doc["form"]["types"]["kontra_by"] == "list"
    assert doc["form"]["types"]["result"] == "str" and doc["form"]["types"]["laufende"] == "int"
    assert doc["can_write"] is False  # a member reads only


# --- sending an entry typed offline ------------------------------------------------------------------


def test_an_entry_sent_twice_is_stored_once(client_as: Any, table: Table) -> None:
    client = client_as("scorer")
    first = client.post(_url("entry_send", table), _post(table))
    again = client.post(_url("entry_send", table), _post(table))
    assert first.json() == {"status": "stored", "number": 1, "repeat": False}
    assert again.json() == {"status": "stored", "number": 1, "repeat": True}
    assert Entry.objects.filter(table=table).count() == 1


def test_a_lost_answer_sent_again_after_the_round_changed_is_still_the_stored_entry(
    client_as: Any, table: Table
) -> None:
    client = client_as("scorer")
    assert client.post(_url("entry_send", table), _post(table)).json()["number"] == 1
    schwarz = {"game": "rufspiel", "declarer": "Girgl Lechner", "partner": "Vroni Brandl", "called": "gras",
               "augen": 120, "tricks": 8, "deckel": 1}  # fmt: skip
    services.entry_append(table=table, data=schwarz, user=None)  # the Mungorunde starts: no Rufspiel
    again = client.post(_url("entry_send", table), _post(table))
    assert again.json() == {"status": "stored", "number": 1, "repeat": True}
    assert Entry.objects.filter(table=table).count() == 2


def test_an_entry_for_a_table_that_moved_on_is_stale_and_goes_after_when_sent_again(
    client_as: Any, table: Table
) -> None:
    services.entry_append(table=table, data={"event": "zusammengeworfen"}, user=None, idempotency_key="other")
    client = client_as("scorer")
    stale = client.post(_url("entry_send", table), _post(table, in_turn="1"))
    assert stale.json() == {"status": "stale", "next": 2}
    stored = client.post(_url("entry_send", table), _post(table, in_turn="1", expected_number="2"))
    assert stored.json()["number"] == 2
    # Typed while Sepp was in turn: dealt in turn where it landed, by Zenzi (no Bockspiel).
    assert "dealer" not in Entry.objects.get(table=table, number=2).data


def test_without_in_turn_the_typed_dealer_stays(client_as: Any, table: Table) -> None:
    services.entry_append(table=table, data={"event": "zusammengeworfen"}, user=None, idempotency_key="other")
    client_as("scorer").post(_url("entry_send", table), _post(table, expected_number="2", deckel="0"))
    assert Entry.objects.get(table=table, number=2).data["dealer"] == "Sepp Huber"  # 001 §8.4


def test_a_refused_entry_names_the_reason_and_stores_nothing(client_as: Any, table: Table) -> None:
    response = client_as("scorer").post(_url("entry_send", table), _post(table, partner="Zenzi Mayr"))
    body = response.json()
    assert body["status"] == "refused" and body["errors"]
    assert Entry.objects.filter(table=table).count() == 0


def test_an_event_is_sent_with_its_form_prefix(client_as: Any, table: Table) -> None:
    post = {
        "target": "event",
        "prefix": "vergeben",
        "vergeben-event": "vergeben",
        "vergeben-by": "Sepp Huber",
        "vergeben-idempotency_key": "ev",
        "vergeben-expected_number": "1",
        "login": _scorer_login(),
    }
    assert client_as("scorer").post(_url("entry_send", table), post).json()["number"] == 1
    assert Entry.objects.get(table=table).data == {"event": "vergeben", "by": "Sepp Huber"}


def test_members_cannot_send(client_as: Any, table: Table) -> None:
    assert client_as("member").post(_url("entry_send", table), _post(table)).status_code == 403


# --- a shared phone (issue 22) ------------------------------------------------------------------------


def test_every_page_and_the_tables_json_name_their_login_opaquely(client: Client, world: World, table: Table) -> None:
    login_page = client.get(reverse("login"))
    assert login_page[HEADER] == NOBODY
    client.force_login(world.users["scorer"])
    page = client.get(table.get_absolute_url())
    scorer = login_id(world.users["scorer"])
    assert page[HEADER] == scorer and f'data-login="{scorer}"' in page.content.decode()
    data = client.get(_url("table_data", table))
    assert data[HEADER] == scorer and data.json()["login"] == scorer
    assert client.get(reverse("clubs:my_clubs"))[HEADER] == scorer
    # The same for every session of that login, another for every other login; it tells nothing.
    assert login_id(get_user_model().objects.get(pk=world.users["scorer"].pk)) == scorer
    others = {login_id(world.users[role]) for role in ("owner", "member", "outsider")}
    assert scorer not in others and len(others) == 3
    assert len(scorer) == 32 and str(world.users["scorer"].pk) != scorer
    # What needs no session names nobody: the worker, the engine.
    assert HEADER not in client.get("/sw.js") and HEADER not in client.get("/offline/engine.zip")


def test_the_offline_page_the_worker_keeps_for_everyone_names_no_login(client_as: Any, world: World) -> None:
    body = client_as("scorer").get(reverse("offline:page")).content.decode()
    assert "test-scorer" not in body and "Abmelden" not in body


@pytest.mark.parametrize("login", ["owner", None, ""], ids=["another-login", "no-login", "empty"])
def test_an_entry_another_login_typed_is_not_stored_under_the_sender(
    client_as: Any, world: World, table: Table, login: str | None
) -> None:
    """The owner's session sends what the scorer typed on the shared phone (or an entry that
    names no login): refused as ``foreign``, nothing stored, nothing in the audit."""
    post = _post(table, login=login_id(world.users[login]) if login else login)
    answer = client_as("scorer").post(_url("entry_send", table), post)
    assert answer.status_code == 200 and answer.json() == {"status": "foreign"}
    assert not Entry.objects.filter(table=table).exists() and not AuditEntry.objects.filter(table=table).exists()


def test_a_stored_entry_sent_again_by_another_login_is_foreign_too(client_as: Any, world: World, table: Table) -> None:
    assert client_as("scorer").post(_url("entry_send", table), _post(table)).json()["status"] == "stored"
    assert client_as("owner").post(_url("entry_send", table), _post(table)).json() == {"status": "foreign"}


def test_an_entry_sent_under_its_own_login_is_stored_and_audited_under_it(
    client_as: Any, world: World, table: Table
) -> None:
    """What the owner chose to send as their own (the phone rewrote its login) is the owner's."""
    post = _post(table, login=login_id(world.users["owner"]))
    assert client_as("owner").post(_url("entry_send", table), post).json()["status"] == "stored"
    entry = Entry.objects.get(table=table)
    assert entry.created_by == world.users["owner"]
    assert AuditEntry.objects.get(table=table, number=1).user == world.users["owner"]


# --- the bridge the phone runs ------------------------------------------------------------------------


def _offline_table(client: Client, table: Table) -> OfflineTable:
    return OfflineTable(client.get(_url("table_data", table)).content.decode())


@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"augen": "", "result": "won_schneider"},  # no Augen: a result button (issue 13)
        {"augen": "", "result": "a60"},  # a tie-line button: its Augen
        {"game": "solo", "suit": "herz", "partner": None, "called": None, "laufende": "3", "kontra": "1"},
        {"game": "solo", "suit": "gras", "tout": "on", "result": "lost"},
        {"game": "wenz", "augen": "120", "result": "won_schwarz", "deckel": "2"},
        {"game": "bettel", "result": "won", "augen": "50"},
        {"game": "mungo", "augen_0": "30", "augen_1": "40", "augen_2": "20", "augen_3": "30", "kontra_by": PAIR},
        {"dealer": "Zenzi Mayr", "deckel": "0"},
    ],
)
def test_the_phone_turns_a_posted_form_into_the_servers_facts(
    client_as: Any, table: Table, changes: dict[str, Any]
) -> None:
    fields = {key: value if isinstance(value, list) else [value] for key, value in _post(table, **changes).items()}
    post = QueryDict(mutable=True)
    for key, values in fields.items():
        post.setlist(key, values)
    setup = selectors.table_setup(table)
    form = HandForm(post, context=EntryContext(setup, selectors.table_state(table, setup).state, 1))
    assert form.is_valid(), form.errors
    engine = _offline_table(client_as("scorer"), table)
    answer = json.loads(engine.facts(json.dumps({"target": "entry", "fields": fields})))
    assert answer == {"ok": True, "entry": form.to_data()}


def test_the_phone_folds_waiting_entries_and_previews_after_them(client_as: Any, table: Table) -> None:
    engine = _offline_table(client_as("scorer"), table)
    first = {"game": "rufspiel", "declarer": "Zenzi Mayr", "partner": "Girgl Lechner", "called": "eichel",
             "augen": 72, "deckel": 1}  # fmt: skip
    folded = json.loads(engine.fold(json.dumps([first, {"game": "nonsense"}, None])))
    assert [e["ok"] for e in folded["entries"]] == [True, False, False]
    assert folded["entries"][1]["error"]["field"] == "game" and folded["entries"][2] == {"ok": False, "unknown": True}
    assert folded["state"]["dealer"] == "Zenzi Mayr"  # the refused and the unknown are left out
    server = services.entry_append(table=table, data=first, user=None)
    assert folded["entries"][0]["result"]["payouts"] == {
        row.member.display_name: row.amount for row in server.ledger.select_related("member")
    }
    preview = json.loads(engine.preview(json.dumps({"target": "event", "fields": {"prefix": ["zusammengeworfen"],
                                                    "zusammengeworfen-event": ["zusammengeworfen"]}})))  # fmt: skip
    assert preview["ok"] and preview["result"]["dealer"] == "Zenzi Mayr"


def test_clean_reads_posted_strings_like_the_form() -> None:
    types = {"augen": "int", "schwarz": "bool", "kontra_by": "list", "game": "str"}
    assert clean({"augen": ["72"], "kontra_by": ["A", "B"], "game": ["wenz"]}, types) == {
        "augen": 72,
        "schwarz": False,
        "kontra_by": ["A", "B"],
        "game": "wenz",
    }
    assert clean({}, types)["augen"] is None
    with pytest.raises(Exception, match="ganze Zahl"):
        clean({"augen": ["7x"]}, types)


# --- issue 21: the phone's form follows its own fold --------------------------------------------

# An evening as the phone's tap form posts it (Sepp deals first): a 60:60 sets off a Bockrunde, a
# Schwarz the Mungorunde behind it, a Mungo tapped in order of the Augen, a Solo in the Mungorunde
# whose Deckel field still holds a stale tap, a second Schwarz sets off a vote, the vote.
EVENING: list[dict[str, Any]] = [
    {"game": "rufspiel", "declarer": "Zenzi Mayr", "partner": "Girgl Lechner", "called": "eichel", "result": "a60",
     "deckel": "1"},
    {"game": "solo", "declarer": "Vroni Brandl", "suit": "herz", "result": "won_schwarz", "deckel": "1"},
    {"game": "mungo", "augen_order": '[["Sepp Huber"], ["Zenzi Mayr", "Girgl Lechner"], ["Vroni Brandl"]]',
     "deckel": "0"},
    {"game": "wenz", "declarer": "Sepp Huber", "result": "lost", "deckel": "2"},
    {"game": "rufspiel", "declarer": "Girgl Lechner", "partner": "Sepp Huber", "called": "gras", "result": "won",
     "deckel": "1"},
    {"game": "solo", "declarer": "Sepp Huber", "suit": "eichel", "result": "won", "deckel": "1"},
    {"game": "mungo", "augen_order": '[["Vroni Brandl"], ["Girgl Lechner"], ["Sepp Huber"], ["Zenzi Mayr"]]',
     "kontra_by": ["Zenzi Mayr"]},
    {"game": "wenz", "declarer": "Zenzi Mayr", "result": "won_schwarz"},
    {"event": "vote", "choice": "bockrunde"},
    {"game": "solo", "declarer": "Vroni Brandl", "suit": "schellen", "augen": "75", "deckel": "1"},
]  # fmt: skip


def _submission(tapped: dict[str, Any]) -> dict[str, Any]:
    if "event" in tapped:
        fields = {"prefix": ["vote"], "vote-event": ["vote"], "vote-choice": [tapped["choice"]]}
        return {"target": "event", "fields": fields}
    return {"target": "entry", "fields": {k: v if isinstance(v, list) else [v] for k, v in tapped.items()}}


def test_after_waiting_entries_the_phone_shows_the_table_and_makes_the_facts_the_server_does(
    client_as: Any, table: Table
) -> None:
    """The phone's engine was built before the first entry; after each one it keeps, its fold
    gives the table facts the server renders for the same log (dealer, rounds, vote, the form's
    options) and turns the next tapped form into the facts the server's form makes there."""
    engine = _offline_table(client_as("scorer"), table)
    setup = selectors.table_setup(table)
    waiting: list[dict[str, Any]] = []
    seen = set()
    for number, tapped in enumerate(EVENING, start=1):
        folded = json.loads(engine.fold(json.dumps(waiting)))
        state = selectors.table_state(table, setup).state
        assert folded["state"] == table_facts(setup.ruleset, state), f"before Nr. {number}"
        seen.update([state.round, *(["vote"] if state.vote_pending else [])])
        if "event" not in tapped:
            tapped = {**tapped, "dealer": folded["state"]["dealer"]}  # the dealer select, moved along
        answer = json.loads(engine.facts(json.dumps(_submission(tapped))))
        context = EntryContext(setup, state, number)
        if "event" in tapped:
            vote = {"vote-event": "vote", "vote-choice": tapped["choice"]}
            form: Any = EventForm(vote, context=context, prefix="vote")
        else:
            post = QueryDict(mutable=True)
            for key, value in tapped.items():
                post.setlist(key, value if isinstance(value, list) else [value])
            form = HandForm(post, context=context)
        assert form.is_valid(), form.errors
        assert answer == {"ok": True, "entry": form.to_data()}, f"Nr. {number}"
        services.entry_append(table=table, data=answer["entry"], user=None)
        waiting.append(answer["entry"])
    assert {"bockrunde", "mungorunde", "vote"} <= seen
    assert "augen_order" in waiting[2] and "deckel" not in waiting[5]  # no Deckel in the Mungorunde (001 §5)
