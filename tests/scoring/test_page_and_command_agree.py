"""The page and ``manage.py score_session`` agree: the same log entered through the services and
shown on the score sheet gives what the command prints for it, entry by entry — payouts, dealer,
round, multiplier — and the totals, the Stock and the rounds still to come."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client

from clubs.models import Member
from scoring import selectors, services
from scoring.amounts import EURO, format_amount
from tests.factories import World
from tests.scoring.test_score_session_command import EVENING

pytestmark = pytest.mark.django_db


def run_command(doc: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict:
    """``manage.py score_session evening.json`` in this process (it writes to standard output)."""
    path = tmp_path / "evening.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    capsys.readouterr()
    call_command("score_session", str(path))
    return json.loads(capsys.readouterr().out)


def test_the_page_and_the_command_agree(
    world: World, client_as: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    printed = run_command(EVENING, tmp_path, capsys)

    members = [Member.objects.create(club=world.club, display_name=name) for name in EVENING["players"]]
    session = services.session_create(club=world.club, date="2026-11-20", user=None)
    first = next(m for m in members if m.display_name == EVENING["first_dealer"])
    table = services.table_start(
        session=session, members=members, first_dealer=first, rules=EVENING["ruleset"], user=None
    )
    for hand in EVENING["hands"]:
        services.entry_append(table=table, data=hand, user=None)

    sheet = selectors.table_sheet(table)
    assert len(sheet.rows) == len(printed["hands"])
    for row, hand in zip(sheet.rows, printed["hands"], strict=True):
        amounts = {cell.name: cell.amount or 0 for cell in row.cells}
        assert amounts == hand["payouts"], row.entry.number
        assert (row.entry.number, row.entry.dealer, row.entry.round, row.entry.multiplier) == (
            hand["number"],
            hand["dealer"],
            hand["round"],
            hand["multiplier"],
        )
        assert row.entry.lines == hand["lines"]
        sat_out = {cell.name for cell in row.cells if cell.amount is None}
        # A dash for whoever sat out, unless the entry booked something for them (a Vergeben).
        assert sat_out == {name for name in hand["sitting_out"] if not hand["payouts"][name]}
    assert dict(sheet.final) == printed["totals"]
    assert sheet.stock == printed["stock"]
    state = selectors.table_state(table)
    assert state.state.pending_rounds() == printed["pending_rounds"]

    # And the page shows those totals.
    client: Client = client_as("member")  # type: ignore[operator]
    page = client.get(table.get_absolute_url()).content.decode()
    # The Liste's totals row, in seat order; the unit is in its heading ("Summe €"), not in each cell.
    sums = re.search(r'<tr class="sum">(.*?)</tr>', page, re.S)
    assert sums is not None
    cells = re.findall(r'<th class="num total[^"]*">([^<]*)</th>', sums.group(1))
    shown = [format_amount(total, printed["unit"]).replace(EURO, "") for total in printed["totals"].values()]
    assert cells == shown
