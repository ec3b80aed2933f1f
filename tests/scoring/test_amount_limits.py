"""Amounts have limits (issue 17): every amount option has a documented maximum, refused beyond it
in the rules form and in ``ruleset.options``; the largest amount those maxima can produce — the
largest prices, every doubling the rules allow, Bock, Tout or the Sie's factor, the most cents per
unit — stays below the engine's ``AMOUNT_LIMIT``, and the ledger's columns hold it."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from clubs.models import Member
from scoring import services
from scoring.engine import registry
from scoring.engine.api import score_hand_document
from scoring.engine.core import AMOUNT_LIMIT, EngineError
from scoring.engine.presets.schafkopf import (
    MAX_CENTS_PER_UNIT,
    MAX_FACTOR,
    MAX_PRICE,
    ROUNDS,
    SchafkopfRules,
)
from scoring.engine.samples import schafkopf_hand
from scoring.engine.session import score_session_document
from scoring.engine.session_rules import table_option_specs
from scoring.models import ClubRules, Entry, KasseBooking, LedgerEntry
from tests.factories import World, make_tournament
from tests.hostile import run_command
from tests.properties import examples
from tournaments.forms import AdjustmentForm

SEATS = ["Anna", "Bert", "Cilli", "Done"]
SCHAFKOPF = [name for name, cls in registry.all_presets().items() if issubclass(cls, SchafkopfRules)]
BIGINT_MAX = 2**63 - 1  # BigIntegerField on SQLite and PostgreSQL
MAX_CONTEXT_BOCK = 10  # what score_hand's "context.bock" takes (scoring/engine/api.py)
AMOUNT_OPTIONS = re.compile(r"^(price_\w+|\w+_factor|cents_per_unit|max_kontra|max_deckel)$")


def maxed(preset: str) -> dict[str, Any]:
    """Every option that makes an amount larger at its maximum (and the special rounds on)."""
    specs = registry.all_presets()[preset].option_specs()
    options: dict[str, Any] = {s.name: s.maximum for s in specs if AMOUNT_OPTIONS.match(s.name)}
    options["deckel"] = "optional"
    options["laufende_ober_unter_only"] = False  # 14 Laufende in a Solo, not 8
    if preset != "allgaeu-meisterschaft":
        options["special_rounds"] = True
    return options


def worst_case_bound() -> int:
    """The loose upper bound: the three-fold payout of a Solo player, of a base of every price that
    can add up in one hand (game, Schneider, Schwarz, 14 Laufende), times the larger of Tout and
    Sie, every Stoß (8) and Deckel (8), the most Bock doublings plus the special round's, and the
    most cents per unit."""
    doublings = 8 + 8 + MAX_CONTEXT_BOCK + 1
    return 3 * MAX_PRICE * (1 + 1 + 1 + 14) * MAX_FACTOR * 2**doublings * MAX_CENTS_PER_UNIT


def test_every_integer_option_of_every_preset_has_a_maximum() -> None:
    for name, cls in registry.all_presets().items():
        ruleset = cls.build()
        for spec in (*cls.option_specs(), *table_option_specs(ruleset)):
            if spec.kind == "int":
                assert spec.maximum is not None, f"{name}: {spec.name}"
                assert json.loads(json.dumps(spec.as_dict()))["max"] == spec.maximum  # `rulesets` shows it


def test_the_worst_case_bound_fits_the_limit_and_the_limit_fits_the_column() -> None:
    assert worst_case_bound() <= AMOUNT_LIMIT < BIGINT_MAX
    assert worst_case_bound() > 2**31  # why the ledger needs 64-bit columns


@pytest.mark.parametrize("preset", [p for p in SCHAFKOPF if p != "allgaeu-meisterschaft"])
def test_the_largest_tout_is_the_maxima_multiplied_out(preset: str) -> None:
    """Solo Tout with 14 Laufende, 8 Stöße, 8 Deckel and 10 Bock doublings, every maximum set."""
    hand = {
        "ruleset": {"preset": preset, "options": maxed(preset)},
        "seats": SEATS,
        "game": "solo",
        "suit": "eichel",
        "declarer": "Anna",
        "tout": True,
        "tricks": 8,
        "laufende": 14,
        "kontra": 8,
        "last_kontra": "declarer",
        "deckel": 8,
        "context": {"bock": MAX_CONTEXT_BOCK},
    }
    result = score_hand_document(hand)
    price = (MAX_PRICE + 14 * MAX_PRICE) * MAX_FACTOR * 2**8 * 2**8 * 2**MAX_CONTEXT_BOCK * MAX_CENTS_PER_UNIT
    assert result["price"] == price
    assert result["payouts"]["Anna"] == 3 * price <= worst_case_bound()


def test_the_largest_sie_is_the_maxima_multiplied_out() -> None:
    hand = {
        "ruleset": {"preset": "standard", "options": maxed("standard")},
        "seats": SEATS,
        "game": "sie",
        "declarer": "Anna",
        "deckel": 8,
        "context": {"bock": MAX_CONTEXT_BOCK},
    }
    result = score_hand_document(hand)
    price = (MAX_PRICE + 8 * MAX_PRICE) * MAX_FACTOR * 2**8 * 2**MAX_CONTEXT_BOCK * MAX_CENTS_PER_UNIT
    assert result["payouts"]["Anna"] == 3 * price <= worst_case_bound()


@settings(max_examples=examples(300))
@given(
    preset=st.sampled_from(SCHAFKOPF),
    seed=st.integers(0, 2**32),
    bock=st.integers(0, MAX_CONTEXT_BOCK),
    round_name=st.sampled_from(sorted(ROUNDS)),
)
def test_no_hand_under_the_maxima_exceeds_the_bound(preset: str, seed: int, bock: int, round_name: str) -> None:
    ruleset = registry.load({"preset": preset, "options": maxed(preset)})
    assert isinstance(ruleset, SchafkopfRules)
    rng = random.Random(seed)
    hand = schafkopf_hand(ruleset, rng, tuple(SEATS), round_name)
    doc = {"ruleset": {"preset": preset, "options": maxed(preset)}, "seats": SEATS, **hand}
    doc["context"] = {"bock": bock if preset != "allgaeu-meisterschaft" else 0, "round": round_name}
    try:
        result = score_hand_document(doc)
    except EngineError:
        return  # a hand this round or rule set does not allow
    assert max(abs(v) for v in result["payouts"].values()) <= worst_case_bound()


def test_a_stock_doubled_without_end_is_refused_at_the_limit() -> None:
    """Anhang C 3.2 doubles the Stock with every lost Rufspiel and sets no cap: the entry that
    would pass the limit is refused with the error object, naming it."""
    lost = {"game": "rufspiel", "declarer": "Anna", "partner": "Bert", "augen": 40}
    options = {"stock": "anhang_c", "price_rufspiel": MAX_PRICE, "cents_per_unit": MAX_CENTS_PER_UNIT}
    doc = {
        "ruleset": {"preset": "standard", "options": options},
        "players": SEATS,
        "first_dealer": "Anna",
        "hands": [{"event": "zusammengeworfen"}, *[lost] * 60],
    }
    code, out, _err = run_command("score_session", json.dumps(doc).encode())
    assert code == 2
    assert json.loads(out)["error"] == {
        "code": "out_of_range",
        "message": "Ein Betrag wäre größer als 9.007.199.254.740.991; so viel rechnet niemand ab.",
        "field": "hands[35]",
    }
    doc["hands"] = doc["hands"][:35]
    assert score_session_document(doc)["stock"] <= AMOUNT_LIMIT


@pytest.mark.parametrize("command", ["score_hand", "score_session"])
@pytest.mark.parametrize("value", [MAX_PRICE + 1, 3_000_000_000])  # the last: 30 million euros
def test_the_commands_refuse_a_price_beyond_the_maximum(command: str, value: int) -> None:
    ruleset = {"preset": "standard", "options": {"price_rufspiel": value}}
    hand = {"game": "rufspiel", "declarer": "Anna", "partner": "Bert", "augen": 70}
    if command == "score_hand":
        doc: dict[str, Any] = {"ruleset": ruleset, "seats": SEATS, **hand}
    else:
        doc = {"ruleset": ruleset, "players": SEATS, "first_dealer": "Done", "hands": [hand]}
    code, out, _err = run_command(command, json.dumps(doc).encode())
    assert code == 2
    error = json.loads(out)["error"]
    assert error["field"] == "ruleset.options.price_rufspiel" and str(MAX_PRICE) in error["message"]


# --- the database ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_rules_form_refuses_a_price_beyond_the_maximum(client_as: Any, world: World) -> None:
    from tests.scoring.test_pages import _rules_post

    client = client_as("owner")
    path = reverse("scoring:club_rules", kwargs={"slug": "test"})
    for price in (str(MAX_PRICE + 1), "3000000000"):
        body = client.post(path, _rules_post(client, path, price_rufspiel=price)).content.decode()
        assert re.search(rf"price_rufspiel.*?kleiner oder gleich {MAX_PRICE}", body, re.S)
    assert not ClubRules.objects.filter(club=world.club).exclude(options={}).exists()  # nothing saved


@pytest.mark.django_db
def test_the_ledger_holds_the_largest_amount(world: World) -> None:
    """A hand under maxed rules (8 Stöße, 8 Deckel: 2.4 × 10^12 cents) is stored and read back
    exactly, and the columns hold the engine's limit itself, both signs (SQLite and PostgreSQL)."""
    session = services.session_create(club=world.club, date="2026-11-20", user=None)
    members = list(Member.objects.filter(club=world.club).order_by("display_name"))
    table = services.table_start(
        session=session, members=members, rules={"preset": "standard", "options": maxed("standard")}, user=None
    )
    seats = [m.display_name for m in members]
    tout = {
        "game": "solo",
        "suit": "eichel",
        "declarer": seats[1],
        "tout": True,
        "tricks": 8,
        "laufende": 14,
        "kontra": 8,
        "last_kontra": "declarer",
        "deckel": 8,
    }
    entry = services.entry_append(table=table, data=tout, user=None)
    amount = 3 * (MAX_PRICE + 14 * MAX_PRICE) * MAX_FACTOR * 2**16 * MAX_CENTS_PER_UNIT
    stored = dict(LedgerEntry.objects.filter(entry=entry).values_list("member__display_name", "amount"))
    assert stored[seats[1]] == amount > 2**31
    row = LedgerEntry.objects.filter(entry=entry).first()
    assert row is not None
    for value in (AMOUNT_LIMIT, -AMOUNT_LIMIT):
        LedgerEntry.objects.filter(pk=row.pk).update(amount=value)
        Entry.objects.filter(pk=entry.pk).update(stock_after=value)
        booking = KasseBooking.objects.create(club=world.club, amount=value, text="Grenze")
        assert LedgerEntry.objects.get(pk=row.pk).amount == value
        assert Entry.objects.get(pk=entry.pk).stock_after == value
        assert KasseBooking.objects.get(pk=booking.pk).amount == value


@pytest.mark.django_db
def test_a_championship_adjustment_has_bounds(world: World) -> None:
    """Points added by hand to a championship's ranking: a real correction, not 2^31."""
    tournament = make_tournament(world.club)
    player = tournament.participants.first()
    assert player is not None
    for points, ok in (("10000", True), ("-10000", True), ("10001", False), ("9" * 30, False)):
        data = {"players": [player.member_id], "points": points, "reason": "Fehler"}
        form = AdjustmentForm(data, tournament=tournament)
        assert form.is_valid() is ok, (points, form.errors)
