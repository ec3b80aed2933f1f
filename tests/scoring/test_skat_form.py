"""The Skat tap form (issue 32 item 2): a game posted by taps is stored as the facts of spec §2.4
with its ledger; every stored game reopens in the correction form exactly as entered and an
unchanged save writes nothing; bad input is refused at its field in German and stores nothing;
house-rule fields appear only where the table's options play them."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from clubs.models import Member
from scoring import selectors, services
from scoring.forms.entry import EntryContext
from scoring.forms.families import as_post
from scoring.forms.hand import entry_form_class
from scoring.forms.skat import SkatHandForm
from scoring.models import AuditEntry, Entry, LedgerEntry, Table
from tests.factories import World

pytestmark = pytest.mark.django_db

PLAYERS = ["Sepp Huber", "Zenzi Mayr", "Girgl Lechner", "Vroni Brandl"]


def start(world: World, rules: Any = "skat", seats: int = 3) -> Table:
    session = services.session_create(club=world.club, date="2026-11-20", place="Krone", user=None)
    members = [Member.objects.get(club=world.club, display_name=name) for name in PLAYERS[:seats]]
    return services.table_start(session=session, members=members, rules=rules, user=None)


def url(name: str, table: Table, **extra: Any) -> str:
    kwargs = {"slug": table.session.club.slug, "session_id": table.session_id, "table_id": table.pk, **extra}
    return reverse(f"scoring:{name}", kwargs=kwargs)


def post(table: Table, **fields: Any) -> dict[str, Any]:
    number = Entry.objects.filter(table=table).count() + 1
    data = {"expected_number": str(number), "idempotency_key": f"key-{number}", **fields}
    return {key: value for key, value in data.items() if value is not None}


def context(table: Table) -> EntryContext:
    setup = selectors.table_setup(table)
    result = selectors.table_state(table, setup)
    return EntryContext(setup, result.state, len(result.entries) + 1)


def context_before(table: Table, number: int) -> EntryContext:
    return EntryContext(selectors.table_setup(table), selectors.state_before(table, number).state, number)


def ledger(entry: Entry) -> dict[str, int]:
    return {row.member.display_name: row.amount for row in LedgerEntry.objects.filter(entry=entry)}


def test_a_skat_table_gets_the_skat_form(world: World) -> None:
    table = start(world)
    assert entry_form_class(context(table)) is SkatHandForm


@pytest.mark.parametrize("preset", ["skat", "skat-seeger"])
def test_tisch_starten_offers_both_skat_presets_and_starts_a_table_of_four(
    world: World, client_as: Any, preset: str
) -> None:
    world.club.game = "skat"  # a Skat club is offered Skat (issue 32 §3)
    world.club.save()
    session = services.session_create(club=world.club, date="2026-11-20", place="Krone", user=None)
    client = client_as("scorer")
    page = client.get(reverse("scoring:table_start", kwargs={"slug": world.club.slug, "session_id": session.pk}))
    assert f'value="{preset}"' in page.content.decode()
    members = [Member.objects.get(club=world.club, display_name=name) for name in PLAYERS]
    response = client.post(
        reverse("scoring:table_start", kwargs={"slug": world.club.slug, "session_id": session.pk}),
        {"name": "Tisch 1", "preset": preset, "first_dealer": "0"} | {f"seat_{i}": m.pk for i, m in enumerate(members)},
    )
    table = Table.objects.get(session=session)
    assert response.status_code == 302
    assert table.preset == preset and table.seats.count() == 4


def test_a_typical_game_by_taps_is_stored_as_its_facts(world: World, client_as: Any) -> None:
    table = start(world)
    client = client_as("scorer")
    seats = selectors.table_state(table).state.seats
    response = client.post(
        url("entry_add", table), post(table, game="kreuz", declarer=seats[0], mit_ohne="mit", spitzen="2", result="won")
    )
    assert response.status_code == 302
    entry = Entry.objects.get(table=table)
    assert entry.data == {"game": "kreuz", "declarer": seats[0], "spitzen": 2, "result": "won"}
    # skat.md §8: Kreuz mit 2 = 36; at three the declarer gets 36 from each other player.
    assert ledger(entry) == {seats[0]: 72, seats[1]: -36, seats[2]: -36}


def test_the_preview_shows_the_value_and_the_list_entry(world: World, client_as: Any) -> None:
    table = start(world, "skat-seeger")
    client = client_as("scorer")
    seats = selectors.table_state(table).state.seats
    fields = post(table, game="karo", declarer=seats[1], mit_ohne="ohne", spitzen="2", result="lost")
    html = client.post(url("entry_preview", table), fields).content.decode()
    assert "Spielwert 27" in html  # skat.md §8: Karo ohne 2, lost: 27, list −54
    assert 'data-amount="-54"' in html


STORED = [
    {"game": "kreuz", "declarer": "{0}", "spitzen": 2, "result": "won"},
    {"game": "pik", "declarer": "{1}", "spitzen": 1, "ohne": True, "augen": 70, "bid": 23},
    {"game": "grand", "declarer": "{2}", "spitzen": 4, "hand": True, "announced": "schneider", "augen": 89},
    {"game": "grand", "declarer": "{0}", "spitzen": 4, "hand": True, "ouvert": True, "result": "won_schwarz"},
    {"game": "herz", "declarer": "{1}", "spitzen": 3, "augen": 120, "schwarz": "opponents"},
    {"game": "karo", "declarer": "{2}", "spitzen": 11, "result": "lost_schneider"},
    {"game": "null", "declarer": "{0}", "result": "won"},
    {"game": "null", "declarer": "{1}", "hand": True, "ouvert": True, "result": "lost"},
    {"game": "kreuz", "declarer": "{2}", "spitzen": 1, "result": "won", "dealer": "{0}"},
]


def facts(template: dict[str, Any], seats: tuple[str, ...]) -> dict[str, Any]:
    return {k: v.format(*seats) if isinstance(v, str) and "{" in v else v for k, v in template.items()}


@pytest.mark.parametrize("template", STORED)
def test_every_stored_game_reopens_as_entered_and_an_unchanged_save_writes_nothing(
    world: World, client_as: Any, template: dict[str, Any]
) -> None:
    table = start(world)
    seats = selectors.table_state(table).state.seats
    data = facts(template, seats)
    entry = services.entry_append(table=table, data=data, user=None)
    ctx = EntryContext(selectors.table_setup(table), selectors.state_before(table, 1).state, 1)
    assert SkatHandForm.covers(data, ctx)
    initial = SkatHandForm.initial_from(data, ctx)
    form = SkatHandForm(as_post(initial), context=ctx)
    assert form.is_valid(), form.errors
    assert SkatHandForm.same_facts(form.to_data(), data)
    client = client_as("scorer")
    edit = url("entry_edit", table, entry_id=entry.pk)
    assert client.get(edit).status_code == 200
    audits = AuditEntry.objects.count()
    response = client.post(edit, {k: v for k, v in as_post(initial).lists() for v in v[:1]} | {"reason": ""})
    assert response.status_code == 302
    assert AuditEntry.objects.count() == audits
    assert Entry.objects.get(pk=entry.pk).data == data


def test_a_correction_by_taps_is_stored(world: World, client_as: Any) -> None:
    table = start(world)
    seats = selectors.table_state(table).state.seats
    entry = services.entry_append(table=table, data=facts(STORED[0], seats), user=None)
    client = client_as("scorer")
    fields = {"game": "kreuz", "declarer": seats[0], "mit_ohne": "mit", "spitzen": "3", "result": "won"}
    fields |= {"dealer": selectors.state_before(table, 1).state.dealer, "quick": "falsch getippt"}
    response = client.post(url("entry_edit", table, entry_id=entry.pk), fields)
    assert response.status_code == 302
    assert Entry.objects.get(pk=entry.pk).data["spitzen"] == 3
    assert ledger(Entry.objects.get(pk=entry.pk))[seats[0]] == 2 * 48


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"game": "grand", "spitzen": "5", "result": "won"}, "spitzen", "Höchstens"),
        ({"game": "kreuz", "spitzen": "1", "announced": "schneider", "result": "won_schneider"}, "announced", "Hand"),
        ({"game": "kreuz", "spitzen": "1", "ouvert": "on", "result": "won"}, "ouvert", "Hand"),
        ({"game": "kreuz", "spitzen": "1", "augen": "121"}, "augen", "120"),
        ({"game": "kreuz", "spitzen": "1", "bid": "17", "result": "won"}, "bid", "gültige"),
        ({"game": "kreuz", "spitzen": "1", "augen": "50", "result": "won"}, "result", "„verloren“, nicht „gewonnen“"),
        ({"game": "kreuz", "result": "won"}, "spitzen", "wie viele Spitzen"),
        ({"game": "skat", "spitzen": "1", "result": "won"}, "game", "gültige"),
        ({"game": "kreuz", "spitzen": "1", "result": "won", "kontra": "1"}, None, None),
    ],
)
def test_bad_input_is_refused_at_its_field_in_german_and_stores_nothing(
    world: World, client_as: Any, fields: dict[str, str], field: str | None, words: str | None
) -> None:
    table = start(world)
    client = client_as("scorer")
    seats = selectors.table_state(table).state.seats
    response = client.post(url("entry_add", table), post(table, declarer=seats[0], **fields))
    if field is None:
        # Kontra/Re is no field where the table does not play it: the posted value is ignored.
        assert Entry.objects.get(table=table).data.get("kontra") is None
        return
    assert response.status_code == 200
    html = response.content.decode()
    error = html.split(f'id="error-{field}"', 1)[1].split("</div>", 1)[0]
    assert words in error, error
    assert not Entry.objects.filter(table=table).exists()


def test_house_rule_fields_only_where_the_options_play_them(world: World, client_as: Any) -> None:
    client = client_as("scorer")
    plain = start(world)
    html = client.get(plain.get_absolute_url()).content.decode()
    assert 'name="kontra"' not in html and 'name="augen_0"' not in html and 'value="ramsch"' not in html
    house = start(world, {"preset": "skat", "options": {"kontra_re": True, "ramsch": True, "schieberamsch": True}})
    html = client.get(house.get_absolute_url()).content.decode()
    assert 'name="kontra"' in html and 'name="augen_0"' in html and 'value="ramsch"' in html
    assert 'name="geschoben"' in html
    seats = selectors.table_state(house).state.seats
    response = client.post(
        url("entry_add", house),
        post(house, game="ramsch", augen_0="60", augen_1="40", augen_2="20", geschoben="1"),
    )
    assert response.status_code == 302
    entry = Entry.objects.get(table=house)
    assert entry.data["augen_by_player"] == dict(
        zip(house.seats.values_list("name", flat=True), [60, 40, 20], strict=True)
    )
    assert SkatHandForm.covers(entry.data, context_before(house, 1))
    response = client.post(
        url("entry_add", house),
        post(house, game="pik", declarer=seats[0], spitzen="1", result="lost", kontra="2"),
    )
    assert Entry.objects.filter(table=house).last().data["kontra"] == 2
