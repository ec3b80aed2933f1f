"""The Liste in blocks (issue 33): a head table and blocks of 20 rows, newest first, each with
the same fixed columns, wide enough for the widest amount, total or short name of each player."""

from __future__ import annotations

import re
from typing import Any

import pytest

from scoring import selectors, services
from scoring.models import Table
from scoring.templatetags.score_sheet import sheet_chunks, sheet_columns
from tests.factories import rufspiel
from tests.scoring.test_pages import table as table  # noqa: F401  (a fixture: the four at an Allgäu table)

pytestmark = pytest.mark.django_db


def test_rows_come_in_blocks_of_twenty_newest_first() -> None:
    blocks = sheet_chunks(list(range(1, 46)))
    assert [len(block) for block in blocks] == [20, 20, 5]
    assert blocks[0][0] == 45 and blocks[-1][-1] == 1


def test_the_page_has_one_head_and_blocks_with_the_same_columns(client_as: Any, table: Table) -> None:
    for _ in range(21):
        services.entry_append(table=table, data=rufspiel(table, augen=60), user=None)
    page = client_as("scorer").get(table.get_absolute_url()).content.decode()
    sheet = page[page.index('id="liste"') :]
    assert sheet.count('class="sheet-table"') == 1
    assert sheet.count('class="sheet-chunk"') == 2
    colgroups = re.findall(r"<colgroup>.*?</colgroup>", sheet)
    assert len(colgroups) == 3 and len(set(colgroups)) == 1
    assert sheet.index('id="entry-21"') < sheet.index('id="entry-20"') < sheet.index('id="entry-1"')
    assert sheet.count('id="entry-') == 21


def test_a_column_is_as_wide_as_its_widest_text(table: Table) -> None:
    services.entry_append(table=table, data=rufspiel(table, augen=60), user=None)
    sheet = selectors.table_sheet(table)
    assert [cell.amount for cell in sheet.rows[0].cells] == [20, -20, -20, 20]
    # In quarters of a digit's width: "+0,20" a plus (1.3), three digits, a comma (0.5) = 4.8;
    # Girgl's total "-0,20" in bold 4.1 × 1.1 = 4.51; "Zenzi" 4.6, wider than her total; the
    # head's "Nr." (2.55) wider than the number "1".
    assert sheet_columns(sheet) == {"nr": 11, "players": [20, 19, 19, 20]}
