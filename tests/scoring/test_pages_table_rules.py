"""The phone form and the table page for the rules of issue 12: the Gardareiz bid with its errors
at the field (001 §5.3), "Karten gekauft von" at tables of five and six (001 §7.1/§7.2), and the
Stöckle each player still has to play with who must play (001 §5.4)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.http import QueryDict
from django.urls import reverse

from scoring import selectors, services
from scoring.engine.offline import OfflineTable
from scoring.forms.entry import EntryContext
from scoring.forms.hand import HandForm
from scoring.models import Entry, Session, Table
from tests.factories import World, make_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def session(world: World) -> Session:
    return services.session_create(club=world.club, date="2026-11-20", place="Krone", user=None)


def url(name: str, table: Table) -> str:
    kwargs = {"slug": table.session.club.slug, "session_id": table.session_id, "table_id": table.pk}
    return reverse(f"scoring:{name}", kwargs=kwargs)


def post(table: Table, **fields: Any) -> dict[str, Any]:
    state = selectors.table_state(table).state
    number = Entry.objects.filter(table=table).count() + 1
    data = {
        "dealer": state.dealer,
        "kontra": "0",
        "expected_number": str(number),
        "idempotency_key": f"key-{table.pk}-{number}",
        **fields,
    }
    return {key: value for key, value in data.items() if value is not None}


def error_at(body: str, field: str) -> str:
    found = re.search(rf'id="error-{field}">(.*?)</div>', body, re.S)
    return found.group(1) if found else ""


def test_gardareiz_bid_errors_are_shown_at_the_bid_field_001_5_3(client_as: Any, session: Session) -> None:
    table = make_table(session)
    services.entry_append(table=table, data={"event": "special_round", "kind": "gardareizrunde"}, user=None)
    seats = selectors.table_state(table).state.seats
    client = client_as("scorer")
    solo = {"game": "solo", "suit": "eichel", "declarer": seats[0], "augen": "70"}
    page = client.get(table.get_absolute_url()).content.decode()
    assert "62, 64 … 120; Bettel bis 76" in page
    body = client.post(url("entry_add", table), post(table, **solo)).content.decode()
    assert "fehlt das Gebot" in error_at(body, "bid")
    body = client.post(url("entry_add", table), post(table, **solo, bid="65")).content.decode()
    assert "Gereizt wird ab 62 in Schritten von 2 Augen" in error_at(body, "bid")
    bettel = {"game": "bettel", "declarer": seats[0], "result": "won", "bid": "78"}
    body = client.post(url("entry_add", table), post(table, **bettel)).content.decode()
    assert "Ab 78 gereizten Augen darf kein Bettel" in error_at(body, "bid")
    assert Entry.objects.filter(table=table).count() == 1  # only the event: nothing refused was saved
    client.post(url("entry_add", table), post(table, **solo, bid="70"))
    entry = Entry.objects.filter(table=table).order_by("number").last()
    assert entry is not None and entry.data["bid"] == 70
    assert "Gebot 70" in client.get(table.get_absolute_url()).content.decode()


def test_the_phone_form_offers_gekauft_von_at_five_and_books_the_purchase_001_7_1(
    client_as: Any, session: Session
) -> None:
    table = make_table(session, players=5)
    state = selectors.table_state(table).state
    dealer, seller = state.dealer, state.seats[-1]
    client = client_as("scorer")
    page = client.get(table.get_absolute_url()).content.decode()
    assert "Karten gekauft von" in page
    hand = {"game": "rufspiel", "declarer": dealer, "partner": state.seats[0], "augen": "75", "deckel": "1"}
    body = client.post(url("entry_add", table), post(table, **hand)).content.decode()
    assert "sitzt bei diesem Spiel nicht mit am Tisch" in error_at(body, "declarer")
    client.post(url("entry_add", table), post(table, **hand, bought_by=dealer))
    entry = Entry.objects.get(table=table)
    assert entry.data["bought_by"] == dealer
    page = client.get(table.get_absolute_url()).content.decode()
    assert f"Karten gekauft von {dealer}" in page
    amounts = dict(entry.ledger.values_list("member__display_name", "amount"))
    assert amounts[seller] == 10  # 001 §7.1: the buyer pays; one Rufspiel price by default


def test_no_gekauft_von_at_four(client_as: Any, session: Session) -> None:
    table = make_table(session)
    assert "Karten gekauft von" not in client_as("scorer").get(table.get_absolute_url()).content.decode()


def test_the_sheet_shows_the_stoeckle_still_to_play_and_who_must_play_001_5_4(client_as: Any, session: Session) -> None:
    table = make_table(session)
    services.entry_append(table=table, data={"event": "special_round", "kind": "stoecklesrunde"}, user=None)
    state = selectors.table_state(table).state
    last = state.seats[-1]
    client = client_as("scorer")
    page = client.get(table.get_absolute_url()).content.decode()
    assert "Stöckle noch zu spielen" in page
    assert f"Will keiner spielen, muss <strong>{last}</strong> spielen" in page
    player = state.seats[0]
    wenz = {"game": "wenz", "declarer": player, "augen": "80"}
    client.post(url("entry_add", table), post(table, **wenz))
    assert Entry.objects.filter(table=table).count() == 2
    page = client.get(table.get_absolute_url()).content.decode()
    row = re.search(rf"<th scope=\"row\">{player}</th><td>(.*?)</td>", page, re.S)
    assert row and "Wenz" not in row.group(1) and "Solo" in row.group(1)
    body = client.post(url("entry_add", table), post(table, **wenz)).content.decode()
    assert "hat Wenz in dieser Runde schon gespielt" in error_at(body, "game")
    # A Mungo in the round names whose Stöckle it was.
    players = list(selectors.table_setup(table).players)
    augen = {f"augen_{i}": str(a) for i, a in enumerate((10, 20, 40, 50))}
    client.post(url("entry_add", table), post(table, game="mungo", declarer=player, **augen))
    entry = Entry.objects.filter(table=table).order_by("number").last()
    assert entry is not None and entry.data["declarer"] == player and len(players) == 4


def test_the_doppelkopf_form_records_the_pflicht_re_of_a_hochzeit_004_9(client_as: Any, world: World) -> None:
    table = make_table(services.session_create(club=world.club, date="2026-11-20", user=None), rules="doppelkopf")
    players = list(selectors.table_setup(table).players)
    number = Entry.objects.filter(table=table).count() + 1
    hand = {
        "game": "hochzeit",
        "re": players[:2],
        "augen": "150",
        "ann_re": ["keine90"],  # "keine 90" tapped, the Re not: it counts as said anyway
        "expected_number": str(number),
        "idempotency_key": f"dk-{number}",
    }
    client_as("scorer").post(url("entry_add", table), hand)
    entry = Entry.objects.get(table=table)
    assert entry.data["announcements"] == {"re": ["re", "keine90"]}


# --- the offline phone makes the same facts (issue 16's bridge, issue 12's fields) ---------------


def _same_facts_offline(client: Any, table: Table, fields: dict[str, Any]) -> dict[str, Any]:
    """The server's form and the phone's engine bridge turn ``fields`` into the same facts."""
    posted = {key: value if isinstance(value, list) else [value] for key, value in post(table, **fields).items()}
    query = QueryDict(mutable=True)
    for key, values in posted.items():
        query.setlist(key, values)
    setup = selectors.table_setup(table)
    form = HandForm(query, context=EntryContext(setup, selectors.table_state(table, setup).state, 1))
    assert form.is_valid(), form.errors
    kwargs = {"slug": table.session.club.slug, "session_id": table.session_id, "table_id": table.pk}
    engine = OfflineTable(client.get(reverse("offline:table_data", kwargs=kwargs)).content.decode())
    answer = json.loads(engine.facts(json.dumps({"target": "entry", "fields": posted})))
    assert answer == {"ok": True, "entry": form.to_data()}
    return form.to_data()


def test_offline_facts_carry_the_gardareiz_bid_the_mungo_owner_and_the_purchase(
    client_as: Any, session: Session
) -> None:
    client = client_as("scorer")
    garda = make_table(session)
    services.entry_append(table=garda, data={"event": "special_round", "kind": "gardareizrunde"}, user=None)
    seats = selectors.table_state(garda).state.seats
    bettel = _same_facts_offline(client, garda, {"game": "bettel", "declarer": seats[0], "result": "won", "bid": "70"})
    assert bettel["bid"] == 70
    tout = {"game": "solo", "suit": "herz", "declarer": seats[0], "tout": "on", "result": "won", "bid": "64"}
    assert _same_facts_offline(client, garda, tout)["bid"] == 64
    stoeckle = make_table(session)
    services.entry_append(table=stoeckle, data={"event": "special_round", "kind": "stoecklesrunde"}, user=None)
    owner = selectors.table_state(stoeckle).state.seats[1]
    augen = {f"augen_{i}": str(a) for i, a in enumerate((10, 20, 40, 50))}
    assert _same_facts_offline(client, stoeckle, {"game": "mungo", "declarer": owner, **augen})["declarer"] == owner
    five = make_table(session, players=5)
    state = selectors.table_state(five).state
    hand = {"game": "rufspiel", "declarer": state.dealer, "partner": state.seats[0], "augen": "75", "deckel": "1"}
    assert _same_facts_offline(client, five, {**hand, "bought_by": state.dealer})["bought_by"] == state.dealer


def test_a_vote_due_shows_its_buttons_where_the_games_are_and_is_saved_by_one_tap_001_5_2(
    client_as: Any, session: Session
) -> None:
    """Issue 21: after a second Mungorunde trigger the page shows "Mungorunde" / "Bockrunde" as
    buttons instead of the game buttons; a hand posted meanwhile is refused in plain German."""
    table = make_table(session)
    client = client_as("scorer")
    for _ in range(2):  # every trick twice: the Mungorunde, then the vote
        seats = selectors.table_state(table).state.seats
        schwarz = {"game": "solo", "declarer": seats[0], "suit": "herz", "result": "won_schwarz", "deckel": "1"}
        client.post(url("entry_add", table), post(table, **schwarz))
    assert selectors.table_state(table).state.vote_pending
    page = client.get(table.get_absolute_url()).content.decode()
    vote = page[page.index('id="vote-form"') : page.index("</form>", page.index('id="vote-form"'))]
    assert " hidden" not in vote.split(">", 1)[0] and 'value="bockrunde">Bockrunde</button>' in vote
    assert re.search(r'id="entry-form"[^>]*\bhidden\b', page)
    seats = selectors.table_state(table).state.seats
    wenz = {"game": "wenz", "declarer": seats[0], "result": "won", "deckel": "1"}
    body = client.post(url("entry_add", table), post(table, **wenz)).content.decode()
    assert '{"event"' not in body and "wird abgestimmt" in body
    number = str(Entry.objects.filter(table=table).count() + 1)
    tapped = {"prefix": "vote", "vote-event": "vote", "vote-choice": "bockrunde", "vote-expected_number": number}
    client.post(url("event_add", table), tapped)
    assert Entry.objects.filter(table=table).order_by("number").last().data == {"event": "vote", "choice": "bockrunde"}
    page = client.get(table.get_absolute_url()).content.decode()
    assert re.search(r'id="vote-form"[^>]*\bhidden\b', page)
