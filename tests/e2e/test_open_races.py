"""Issue 31 §9, at the same moment from two threads with their own database connections: two
draws of one round draw it once; the phone's first game and the desk taking the table back to
paper end in one of the two, the other refused with its reason, never a server error. On
PostgreSQL the rows are locked; SQLite runs one writer at a time (IMMEDIATE transactions, the
second waiting), as a club's server runs it.

No browser here, but with the browser tests: their SQLite database is a file (TEST_SQLITE_FILE,
as the live server's thread needs). The suite's in-memory one is shared-cache, where a second
writer gets "database table is locked" at once instead of waiting, which no server sees."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from opentournaments import services
from opentournaments.models import OpenTournament, RoundTable
from scoring import selectors as scoring_selectors
from scoring import services as scoring_services
from scoring.models import Entry, Table
from tests.factories import ClubFactory, make_open_tournament
from tests.scoring.test_concurrency import at_once

pytestmark = pytest.mark.django_db(transaction=True)

TIMES = 6


def test_two_desks_drawing_the_same_round_at_once_draw_it_once() -> None:
    tournament = make_open_tournament(ClubFactory(), players=12, rounds=TIMES)
    for number in range(1, TIMES + 1):

        def draw(seed: int, number: int = number) -> object:
            return services.round_draw(
                tournament=OpenTournament.objects.get(pk=tournament.pk), number=number, seed=seed, user=None
            )

        results = at_once(lambda: draw(1), lambda: draw(2))
        drawn = [r for r in results if not isinstance(r, Exception)]
        twice = [r for r in results if isinstance(r, services.DrawnMeanwhile)]
        assert len(drawn) == 1 and len(twice) == 1, results
        assert drawn[0].number == number and twice[0].meant == number
    assert list(tournament.round_set.values_list("number", flat=True)) == list(range(1, TIMES + 1))


def test_the_phones_first_game_and_the_desk_taking_the_table_back_never_fail() -> None:
    tournament = make_open_tournament(ClubFactory(), players=8 * TIMES, rounds=1)
    round_ = services.round_draw(tournament=tournament, seed=1, user=None)
    for table in round_.tables.all():
        sheet = services.table_phone_start(table=table, user=None).phone_table
        assert sheet is not None
        hand = {
            "game": "rufspiel",
            "declarer": scoring_selectors.table_setup(sheet).players[1],
            "partner": scoring_selectors.table_setup(sheet).players[2],
            "augen": 75,
        }

        def phone(sheet: Table = sheet, hand: dict = hand) -> object:
            return scoring_services.entry_append(table=sheet, data=hand, user=None)

        def desk(table: RoundTable = table) -> object:
            return services.table_phone_stop(table=RoundTable.objects.get(pk=table.pk), user=None)

        saved, back = at_once(phone, desk)
        if isinstance(saved, Entry):  # the phone first: the table stays on the phone, with its game
            assert isinstance(back, ValidationError), back
            assert RoundTable.objects.get(pk=table.pk).phone_table_id == sheet.pk
        else:  # the desk first: the game is refused with the reason, the table is on paper
            assert isinstance(saved, scoring_selectors.TableGone), saved
            assert isinstance(back, RoundTable) and back.phone_table is None
            assert not Table.objects.filter(pk=sheet.pk).exists()
