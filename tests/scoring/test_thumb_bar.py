"""Issue 21 on the server's side: the table page's bar (every total, the Liste, the save button),
no page kept for Back, short names that stay distinct."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models import Member
from scoring import services
from scoring.amounts import format_amount
from scoring.engine.core import EngineError
from scoring.labels import SHORT_MAX, paper_numbers, short_names, triggered_news
from scoring.models import Table
from scoring.templatetags.score_sheet import bare
from tests.factories import World, rufspiel
from tests.scoring.test_pages import hand_post, table, url

__all__ = ["table"]  # the fixture, shared with test_pages


def test_pages_with_money_or_a_table_state_are_never_kept_for_back(client_as: Any, table: Table) -> None:
    services.entry_append(table=table, data=rufspiel(table), user=None)
    client = client_as("scorer")
    for page in (table.session.get_absolute_url(), table.get_absolute_url(), url("table_audit", table)):
        response = client.get(page)
        assert response.status_code == 200
        assert "no-store" in response["Cache-Control"], page
    assert "no-store" in client.post(url("entry_add", table), hand_post(table), HTTP_HX_REQUEST="true")["Cache-Control"]


def test_the_bar_shows_every_total_the_way_to_the_liste_and_the_save_button(client_as: Any, table: Table) -> None:
    services.entry_append(table=table, data=rufspiel(table), user=None)
    body = client_as("scorer").post(url("entry_add", table), hand_post(table), HTTP_HX_REQUEST="true").content.decode()
    bar = body[body.index('id="thumb-bar"') :]
    for name, value in services.selectors.table_sheet(table).final:
        assert f'data-strip-total="{name}">{bare(format_amount(value, table.unit))}</strong>' in bar
    assert 'href="#liste"' in bar and "Nr. 3 speichern" in bar
    assert "Nr. 2 gespeichert" in bar  # the message of the save, under the thumb
    assert 'id="liste"' in body


def test_a_reader_sees_no_bar(client_as: Any, table: Table) -> None:
    assert "thumb-bar" not in client_as("member").get(table.get_absolute_url()).content.decode()


def test_short_names_stay_distinct_and_short() -> None:
    names = ["Maximilian Huber", "Maximilian Mayr", "Maximilian Hofer", "Sepp Huber", "Zenzi Mayr", "Zenzi Maier"]
    short = short_names(names)
    assert len(set(short.values())) == len(names)
    assert all(len(value) <= SHORT_MAX for value in short.values())
    assert short["Sepp Huber"] == "Sepp"
    assert short["Maximilian Mayr"] == "Max. M."
    assert short_names(["Sepp Huber", "Zenzi Mayr"]) == {"Sepp Huber": "Sepp", "Zenzi Mayr": "Zenzi"}


def test_a_bockrunde_triggered_inside_a_running_one_says_it_is_queued() -> None:
    running = {"round": "bockrunde", "games": 2, "in_force": True}
    queued = {"round": "bockrunde", "games": 4, "in_force": False}
    assert triggered_news(["bockrunde"], [running, queued]) == [
        "Bockrunde ausgelöst: sie kommt nach der laufenden Runde."
    ]
    stacked = {"round": "bockrunde", "games": 4, "in_force": True}
    assert triggered_news(["bockrunde"], [running, stacked]) == [
        "Noch eine Bockrunde: die nächsten 4 Spiele zusätzlich doppelt."
    ]
    assert triggered_news(["bockrunde"], [stacked]) == ["Bockrunde: die nächsten 4 Spiele doppelt."]


def test_buying_at_a_doppelkopf_table_of_five_is_refused_as_004_has_none(world: World) -> None:
    session = services.session_create(club=world.club, date="2026-11-20", user=None)
    Member.objects.create(club=world.club, display_name="Resi Gruber")
    members = list(Member.objects.filter(club=world.club).order_by("pk")[:5])
    table = services.table_start(session=session, members=members, rules="doppelkopf", user=None)
    state = services.selectors.table_state(table).state
    hand = {"game": "normal", "re": list(state.seats[:2]), "augen": 150, "bought_by": state.sitting_out[0]}
    with pytest.raises(EngineError) as refused:
        services.entry_append(table=table, data=hand, user=None)
    assert "Doppelkopf (004) gibt es kein Kaufen" in str(refused.value)
    assert "001" not in str(refused.value)


def test_the_offline_lines_say_the_rule_books_suit_words(client_as: Any, table: Table) -> None:
    """Issue 21: under Allgäu the phone's own lines say Laub, as the server's do (not Gras)."""
    page = client_as("scorer").get(table.get_absolute_url()).content.decode()
    assert 'data-suit-words="{&quot;Gras&quot;: &quot;Laub&quot;, &quot;Schellen&quot;: &quot;Schell&quot;}"' in page


def test_the_json_help_shows_a_hand_of_the_tables_own_game(client_as: Any, table: Table) -> None:
    page = client_as("scorer").get(table.get_absolute_url()).content.decode()
    assert "&quot;game&quot;: &quot;rufspiel&quot;, &quot;declarer&quot;: &quot;" in page
    assert "&quot;re&quot;" not in page  # no Doppelkopf example on a Schafkopf table


def test_the_misdealer_pays_the_stock_and_after_the_kasse_every_loser_pays_the_kasse(
    client_as: Any, table: Table
) -> None:
    """Issue 21 (001 §8.1, §10): the Stock is paid by who misdealt, not by whoever the fewest
    transfers pick; with the winnings in the Kasse nobody pays a winner."""
    for deckel in (1, 3, 3):  # the dealer of the fourth hand wins the second and third: ahead
        services.entry_append(table=table, data=rufspiel(table, deckel=deckel), user=None)
    misdealer = services.selectors.table_state(table).state.dealer
    services.entry_append(table=table, data={"event": "vergeben", "by": misdealer}, user=None)
    assert (
        dict((b.member.display_name, b.amount) for b in services.selectors.session_balances(table.session) if b.member)[
            misdealer
        ]
        > 0
    )
    transfers = services.selectors.session_settlement(table.session)
    into_stock = [t for t in transfers if t.payee is None]
    assert [(t.payer_name, t.amount) for t in into_stock] == [(misdealer, 50)]
    client = client_as("owner")
    page = client.get(table.session.get_absolute_url()).content.decode()
    assert f"{misdealer} zahlt {format_amount(50, table.unit)} in den Stock" in page
    services.session_close(session=table.session, user=None, book_to_kasse=True)
    table.session.refresh_from_db()
    transfers = services.selectors.session_settlement(table.session)
    losers = {
        b.member.display_name for b in services.selectors.session_balances(table.session) if b.member and b.amount < 0
    }
    assert transfers and all(t.kasse and t.payer_name in losers for t in transfers)
    assert "in die Kasse" in client.get(table.session.get_absolute_url()).content.decode()


def test_hands_are_numbered_as_on_paper_and_events_take_a_letter() -> None:
    kinds = ["vergeben", "hand", "hand", "special_round", "vergeben", "hand"]
    assert paper_numbers(kinds) == ["0a", "1", "2", "2a", "2b", "3"]


def test_the_save_button_and_the_liste_count_hands_not_events(client_as: Any, table: Table) -> None:
    services.entry_append(table=table, data=rufspiel(table), user=None)
    services.entry_append(table=table, data={"event": "special_round", "kind": "stoecklesrunde"}, user=None)
    client = client_as("scorer")
    page = client.get(table.get_absolute_url()).content.decode()
    assert "Nr. 2 speichern" in page and ">1a</a>" in page
    body = client.post(url("entry_add", table), hand_post(table), HTTP_HX_REQUEST="true").content.decode()
    assert "Nr. 2 gespeichert" in body and "Nr. 3 speichern" in body
