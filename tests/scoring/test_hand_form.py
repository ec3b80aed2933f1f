"""The Schafkopf phone form (issue 13): result buttons instead of typed Augen, the tie lines as
Augen, Bettel and Tout won or lost, Deckel defaults per game, games a round forbids shown
disabled, the club's suit names."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models import Member
from scoring import selectors, services
from scoring.forms.entry import EntryContext
from scoring.forms.hand import HandForm
from scoring.models import Table
from tests.factories import World

pytestmark = pytest.mark.django_db

PLAYERS = ["Sepp Huber", "Zenzi Mayr", "Girgl Lechner", "Vroni Brandl"]


def make_table(world: World, rules: Any = "allgaeu") -> Table:
    session = services.session_create(club=world.club, date="2026-11-20", user=None)
    members = [Member.objects.get(club=world.club, display_name=name) for name in PLAYERS]
    return services.table_start(session=session, members=members, rules=rules, user=None)


def form_for(table: Table, **post: Any) -> HandForm:
    setup = selectors.table_setup(table)
    result = selectors.table_state(table, setup)
    context = EntryContext(setup, result.state, len(result.entries) + 1)
    seats = result.state.seats
    data = {"declarer": seats[0], "partner": seats[1], "dealer": result.state.dealer, **post}
    return HandForm(data, context=context)


def facts(table: Table, **post: Any) -> dict[str, Any]:
    form = form_for(table, **post)
    assert form.is_valid(), form.errors
    data = form.to_data()
    data.pop("declarer", None)
    data.pop("partner", None)
    return data


def test_a_result_button_is_the_spec_result(world: World) -> None:
    table = make_table(world)
    assert facts(table, game="rufspiel", result="won_schneider", deckel="1") == {
        "game": "rufspiel",
        "result": "won_schneider",
        "deckel": 1,
    }


def test_a_tie_line_button_records_its_augen(world: World) -> None:
    table = make_table(world)
    assert facts(table, game="rufspiel", result="a60", deckel="1") == {"game": "rufspiel", "augen": 60, "deckel": 1}
    assert facts(table, game="rufspiel", result="a90", augen="90", deckel="1")["augen"] == 90
    form = form_for(table, game="rufspiel", result="a60", augen="75", deckel="1")
    assert not form.is_valid() and "60:60" in form.errors["augen"][0]


def test_counted_augen_decide_and_schwarz_records_the_tricks(world: World) -> None:
    table = make_table(world)
    data = facts(table, game="rufspiel", augen="120", result="won_schwarz", deckel="1")
    assert data == {"game": "rufspiel", "augen": 120, "tricks": 8, "result": "won_schwarz", "deckel": 1}
    assert facts(table, game="rufspiel", augen="75", deckel="1") == {"game": "rufspiel", "augen": 75, "deckel": 1}


def test_bettel_and_tout_are_won_or_lost(world: World) -> None:
    table = make_table(world)
    assert facts(table, game="bettel", result="lost_schneider", deckel="1")["result"] == "lost"
    tout = facts(table, game="solo", suit="herz", tout="on", result="won_schwarz", laufende="3")
    assert tout == {"game": "solo", "suit": "herz", "tout": True, "result": "won", "laufende": 3}


def test_the_tie_lines_are_offered_where_the_augen_decide(world: World) -> None:
    # allgaeu: Bock on 60:60 and 30:90 and "Spritze übernimmt das Spiel" (001 §5.1, §6.2).
    assert [value for value, _ in form_for(make_table(world)).ties] == ["a60", "a90", "a30"]
    # standard: no Bock triggers, no Spritze rule: the six result buttons are all.
    assert form_for(make_table(world, "standard")).ties == []


def test_under_dauerdeckel_mungo_and_sie_start_without_a_deckel(world: World) -> None:
    form = form_for(make_table(world))
    assert form.fields["deckel"].initial == 1
    one = form.deckel_games.split()
    assert "rufspiel" in one and "solo" in one and "mungo" not in one and "sie" not in one


def test_a_game_the_round_forbids_is_shown_disabled_with_the_reason(world: World) -> None:
    table = make_table(world)
    # The first Schwarz of the evening queues a Mungorunde (001 §5.2); it starts with the next hand.
    seats = selectors.table_state(table).state.seats
    hand = {"game": "rufspiel", "declarer": seats[0], "partner": seats[1], "result": "won_schwarz", "deckel": 1}
    services.entry_append(table=table, data=hand, user=None)
    form = form_for(table)
    assert form.context.state.round == "mungorunde"
    options = {radio.data["value"]: radio.data for radio in form["game"]}
    assert options["rufspiel"]["attrs"].get("disabled") is True
    assert str(options["rufspiel"]["pill"]["reason"]) == "nicht in der Mungorunde"
    assert not options["solo"]["attrs"].get("disabled")


def test_suits_are_named_as_the_rule_book_names_them(world: World) -> None:
    allgaeu = dict(form_for(make_table(world)).fields["suit"].choices)
    assert allgaeu["gras"] == "Laub" and allgaeu["schellen"] == "Schell"  # 001 §1
    standard = dict(form_for(make_table(world, "standard")).fields["suit"].choices)
    assert standard["gras"] == "Gras" and standard["schellen"] == "Schellen"
