"""Correcting a saved Doppelkopf or Saukopf hand uses the tap form, like entering one (issue 13
§9): the stored facts fill the form and come back unchanged; facts the form cannot show (a key
it does not know) go to the JSON editor instead."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.urls import reverse

from scoring import selectors, services
from scoring.engine.core import EngineError
from scoring.engine.samples import random_hand
from scoring.forms.entry import EntryContext
from scoring.forms.families import DoppelkopfHandForm, SaukopfHandForm
from scoring.forms.hand import RawEntryForm, entry_form_class
from scoring.models import Table
from tests.factories import World
from tests.scoring.test_forms_families import start

pytestmark = pytest.mark.django_db

DK_HAND = {
    "game": "normal",
    "re": ["Sepp Huber", "Zenzi Mayr"],
    "augen": 150,
    "announcements": {"re": ["re", "keine90"]},
    "extras": [{"side": "re", "kind": "fuchs_gefangen"}, {"side": "contra", "kind": "doppelkopf"}],
}
SK_HAND = {
    "game": "sauerei",
    "declarer": "Girgl Lechner",
    "bid": 56,
    "partner": "Vroni Brandl",
    "called": "schellen",
    "augen": 14,
    "tricks": 5,
    "laufende": 5,
    "laufende_side": "opponents",
    "mueller": "opponents",
}


def context(table: Table) -> EntryContext:
    setup = selectors.table_setup(table)
    return EntryContext(setup, selectors.state_before(table, 1, setup).state, 1)


@pytest.mark.parametrize(
    ("rules", "hand", "form"), [("doppelkopf", DK_HAND, DoppelkopfHandForm), ("saukopf", SK_HAND, SaukopfHandForm)]
)
def test_a_saved_hand_opens_in_the_tap_form_with_its_facts(
    client_as: Any, world: World, rules: str, hand: dict[str, Any], form: type
) -> None:
    table = start(world, rules)
    entry = services.entry_append(table=table, data=hand, user=None)
    assert entry_form_class(context(table), entry.data) is form
    kwargs = {"slug": "test", "session_id": table.session_id, "table_id": table.pk, "entry_id": entry.pk}
    page = client_as("scorer").get(reverse("scoring:entry_edit", kwargs=kwargs)).content.decode()
    tap = page.split('id="entry-form"')[1].split("</form>")[0]
    assert 'name="game"' in tap and 'name="data"' not in tap  # the tap form, not the JSON editor
    assert '<details class="as-json">' in page  # which waits, closed, beside it
    assert 'hx-trigger="load,' in page  # the preview at once


def test_the_doppelkopf_form_shows_every_fact(world: World) -> None:
    table = start(world, "doppelkopf")
    initial = DoppelkopfHandForm.initial_from(DK_HAND, context(table))
    assert initial["re"] == ["Sepp Huber", "Zenzi Mayr"] and initial["ann_re"] == ["re", "keine90"]
    assert initial["re_fuchs_gefangen"] == 1 and initial["contra_doppelkopf"] == 1 and initial["re_charlie"] is False


def test_facts_the_form_cannot_show_go_to_the_json_editor(world: World) -> None:
    table = start(world, "doppelkopf")
    services.entry_append(table=table, data=DK_HAND, user=None)
    assert entry_form_class(context(table), {**DK_HAND, "note": "x"}) is RawEntryForm
    saukopf = start(world, "saukopf")
    assert entry_form_class(context(saukopf), {**SK_HAND, "note": "x"}) is RawEntryForm


def test_a_called_card_and_tricks_per_player_open_in_the_saukopf_tap_form(world: World) -> None:
    """Issue 21: the Großkopferter's called Ober ("herz_ober"), the Unreine Sauerei's Herz-Sau and
    the Ramsch games' tricks per player are on the tap form (the suit button, the tricks fields)."""
    ctx = context(start(world, "saukopf"))
    players = list(ctx.setup.players)
    card = {**SK_HAND, "game": "grosskopferter", "called": "herz_ober"}
    assert entry_form_class(ctx, card) is SaukopfHandForm
    assert SaukopfHandForm.initial_from(card, ctx)["called"] == "herz"
    assert entry_form_class(ctx, {**SK_HAND, "game": "unreine_sauerei", "called": "herz_sau"}) is SaukopfHandForm
    feige = {"game": "feige_sau", "declarer": players[0], "bid": 70,
             "augen_by_player": dict(zip(players, (10, 30, 40, 40), strict=True)),
             "tricks_by_player": dict(zip(players, (1, 2, 3, 2), strict=True))}  # fmt: skip
    assert entry_form_class(ctx, feige) is SaukopfHandForm


@pytest.mark.parametrize("rules", ["doppelkopf", "saukopf"])
def test_sampled_hands_the_form_covers_come_back_unchanged(world: World, rules: str) -> None:
    """Every sampled hand either opens in the tap form (and then its facts survive the round trip,
    which ``covers`` checks) or in the JSON editor; most open in the tap form."""
    table = start(world, rules)
    ctx = context(table)
    rng = random.Random(13)
    covered = 0
    hands = 0
    while hands < 60:
        hand = random_hand(ctx.setup.ruleset, rng, tuple(ctx.setup.players))
        try:
            ctx.setup.ruleset.score(hand, tuple(ctx.setup.players), ctx.state.context)
        except EngineError:
            continue
        hands += 1
        form_class = entry_form_class(ctx, hand)
        covered += form_class is not RawEntryForm
    # Saukopf: every sampled hand (issue 21: 74 of 300 needed the JSON editor before)
    assert covered == hands if rules == "saukopf" else covered >= hands // 2, covered


def test_a_tap_form_hand_can_still_be_corrected_as_json(client_as: Any, world: World) -> None:
    table = start(world, "doppelkopf")
    entry = services.entry_append(table=table, data=DK_HAND, user=None)
    kwargs = {"slug": "test", "session_id": table.session_id, "table_id": table.pk, "entry_id": entry.pk}
    edit = reverse("scoring:entry_edit", kwargs=kwargs)
    client = client_as("scorer")
    refused = client.post(edit, {"data": '{"game": "normal"}', "reason": "x"}).content.decode()
    assert '<details class="as-json" open>' in refused and "Re" in refused  # refused, kept, open
    corrected = {**DK_HAND, "augen": 130}
    client.post(edit, {"data": json.dumps(corrected), "reason": "verzählt"})
    entry.refresh_from_db()
    assert entry.data == corrected
