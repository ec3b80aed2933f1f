"""A Skat club's standings (issue 32 §3): the Seeger-Fabian ranking of its lists, recounted here
from the hands' facts by skat.md §6 alone; a Spielliste in money with won and lost games; the
page, PDF and workbook; who may see them."""

from __future__ import annotations

import datetime
import io
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from clubs.models import Member
from scoring import services
from scoring.models import Session, Table
from scoring.selectors import table_state
from standings.selectors import BlockKind, Period, standings
from tests.factories import World

GRUNDWERT = {"karo": 9, "herz": 10, "pik": 11, "kreuz": 12, "grand": 24}
NAMES = ("Anni", "Bert", "Cilli", "Done")


@pytest.fixture(autouse=True)
def seeger_at_a_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Seeger-Fabian list at a club's table: the skat-table branch lets ``skat-seeger`` play at
    a table (``RuleSet.plays_at_table``); until that is merged, its refusal is lifted here."""
    monkeypatch.setattr(services, "_refuse_non_zero_sum", lambda ruleset, field: None)


@pytest.fixture
def skat_club(world: World) -> World:
    world.club.game = "skat"
    world.club.name = "Skatfreunde Test"  # the test club's name says Schafkopf
    world.club.save()
    for name in NAMES:
        Member.objects.create(club=world.club, display_name=name)
    return world


def _table(world: World, date: datetime.date, names: tuple[str, ...], rules: Any) -> Table:
    session = Session.objects.create(club=world.club, date=date)
    members = [Member.objects.get(club=world.club, display_name=name) for name in names]
    return services.table_start(session=session, members=members, rules=rules, user=None)


@dataclass
class Recount:
    """skat.md §6 by hand: Spielpunkte, won, lost, the 40/30 of the others' lost games."""

    points: dict[str, int]
    won: dict[str, int]
    lost: dict[str, int]
    bonus: dict[str, int]
    lists: dict[str, int]

    def total(self, name: str) -> int:
        return self.points[name] + 50 * (self.won[name] - self.lost[name]) + self.bonus[name]


def _recount() -> Recount:
    return Recount(*(defaultdict(int) for _ in range(5)))


def play(table: Table, games: list[tuple[str, int, str]], recount: Recount) -> None:
    """Append ``(game, spitzen, result)`` hands, the declarer the Vorhand of each deal, and
    recount them: value = Grundwert × (Spitzen + 1), a lost game
    −2 × value (skat.md §2, §4)."""
    seated = [seat.name for seat in table.seats.order_by("position")]
    for name in seated:
        recount.lists[name] += 1
    for game, spitzen, result in games:
        declarer = table_state(table).state.seats[0]  # the next hand's players from the dealer's left
        services.entry_append(
            table=table,
            data={"game": game, "declarer": declarer, "spitzen": spitzen, "result": result},
            user=None,
        )
        value = GRUNDWERT[game] * (spitzen + 1)
        if result == "won":
            recount.points[declarer] += value
            recount.won[declarer] += 1
        else:
            recount.points[declarer] -= 2 * value
            recount.lost[declarer] += 1
            for name in seated:
                if name != declarer:
                    recount.bonus[name] += 40 if len(seated) == 3 else 30


@pytest.fixture
def seeger_lists(skat_club: World) -> Recount:
    """Two evenings: a list of three (Anni, Bert, Cilli) and a list of four (all)."""
    recount = _recount()
    three = _table(skat_club, datetime.date(2026, 3, 5), NAMES[:3], "skat-seeger")
    play(three, [("kreuz", 1, "won"), ("herz", 2, "lost"), ("grand", 1, "won"), ("karo", 3, "lost")], recount)
    four = _table(skat_club, datetime.date(2026, 3, 12), NAMES, "skat-seeger")
    games = [("pik", 1, "won"), ("kreuz", 2, "lost"), ("herz", 1, "won"), ("grand", 2, "won"), ("karo", 1, "lost")]
    play(four, games, recount)
    return recount


def test_seeger_fabian_standings_are_the_recount_of_the_lists(seeger_lists: Recount, skat_club: World) -> None:
    blocks = standings(club=skat_club.club, period=Period.season(2026))
    assert [block.kind for block in blocks] == [BlockKind.SEEGER]
    rows = {row.name: row for row in blocks[0].rows}
    assert set(rows) == set(NAMES)
    for name, row in rows.items():
        assert row.total == seeger_lists.total(name), name
        assert row.points == seeger_lists.points[name], name
        assert (row.declarer_won, row.declarer_lost) == (seeger_lists.won[name], seeger_lists.lost[name]), name
        assert row.lists == seeger_lists.lists[name], name
        assert row.per_list == Fraction(seeger_lists.total(name), seeger_lists.lists[name]), name
    ranked = [row.name for row in blocks[0].rows]
    assert ranked == sorted(NAMES, key=lambda n: (-seeger_lists.total(n), -seeger_lists.won[n], seeger_lists.lost[n]))


def test_one_evening_ranks_its_own_list(seeger_lists: Recount, skat_club: World) -> None:
    evening = Session.objects.get(club=skat_club.club, date=datetime.date(2026, 3, 12))
    rows = standings(club=skat_club.club, period=Period.evening(evening))[0].rows
    assert all(row.lists == 1 for row in rows) and len(rows) == 4


def test_equal_lists_share_the_place(skat_club: World) -> None:
    """Two lists of three, one won Karo mit 1 each (9 × 2 + 50 = 68): the two declarers share
    the first place, the four others (nothing written) the third."""
    recount = _recount()
    play(_table(skat_club, datetime.date(2026, 4, 1), NAMES[:3], "skat-seeger"), [("karo", 1, "won")], recount)
    play(_table(skat_club, datetime.date(2026, 4, 2), NAMES[1:], "skat-seeger"), [("karo", 1, "won")], recount)
    rows = standings(club=skat_club.club, period=Period.season(2026))[0].rows
    winners = sorted(name for name in NAMES if recount.won[name])
    assert [(row.rank, row.name, row.total) for row in rows[:2]] == [(1, winners[0], 68), (1, winners[1], 68)]
    assert [(row.rank, row.total) for row in rows[2:]] == [(3, 0), (3, 0)]


# Lists of three (Anni deals first, so Bert, Cilli, Anni, Bert declare) whose totals tie (found
# by a search over four games): skat.md §6 breaks the tie by more won games, then fewer lost.
MORE_WON = [("herz", 3, "won"), ("karo", 1, "won"), ("karo", 2, "lost"), ("grand", 2, "lost")]
FEWER_LOST = [("karo", 1, "lost"), ("karo", 1, "won"), ("grand", 3, "lost"), ("pik", 2, "lost")]


@pytest.mark.parametrize(
    ("games", "expected"),
    [
        # Bert: 40 + 50 + 40 − 194 = −64 with one won; Anni: 40 + 40 + 40 + 40 − 106 − 118 = −64, none won.
        (MORE_WON, [("Cilli", 148, 1, 0), ("Bert", -64, 1, 1), ("Anni", -64, 0, 1)]),
        (FEWER_LOST, [("Cilli", 188, 1, 0), ("Anni", -162, 0, 1), ("Bert", -162, 0, 2)]),
    ],
    ids=["more_won_first", "fewer_lost_first"],
)
def test_equal_totals_rank_by_won_then_lost(skat_club: World, games: list, expected: list) -> None:
    recount = _recount()
    play(_table(skat_club, datetime.date(2026, 5, 1), NAMES[:3], "skat-seeger"), games, recount)
    rows = standings(club=skat_club.club, period=Period.season(2026))[0].rows
    got = [(row.name, row.total, row.declarer_won, row.declarer_lost) for row in rows]
    assert got == expected
    assert [row.rank for row in rows] == [1, 2, 3]
    assert [recount.total(name) for name, *_ in expected] == [total for _, total, *_ in expected]


def test_a_money_list_keeps_money_and_counts_won_and_lost(skat_club: World) -> None:
    """Under ``skat`` with a price per point the standings are money as for Schafkopf, and the
    unit's block shows the games won and lost as Alleinspieler."""
    recount = _recount()
    table = _table(
        skat_club, datetime.date(2026, 6, 1), NAMES[:3], {"preset": "skat", "options": {"cents_per_point": 1}}
    )
    play(table, [("kreuz", 1, "won"), ("herz", 1, "lost"), ("grand", 1, "won")], recount)
    [block] = standings(club=skat_club.club, period=Period.season(2026))
    assert (block.unit, block.kind) == ("cent", BlockKind.LIST)
    rows = {row.name: row for row in block.rows}
    for name in NAMES[:3]:
        assert (rows[name].declarer_won, rows[name].declarer_lost) == (recount.won[name], recount.lost[name])
        # skat.md §5: a balance of 3 × own list total − the sum of all totals, a cent per point.
        assert rows[name].total == 3 * recount.points[name] - sum(recount.points.values())
    assert sum(row.total for row in block.rows) == 0


# --- pages, downloads, access -------------------------------------------------------------------


def _url(name: str, query: str = "period=season&year=2026") -> str:
    return reverse(name, kwargs={"slug": "test"}) + "?" + query


@pytest.mark.parametrize("role", ["owner", "scorer", "member"])
def test_every_role_reads_the_seeger_standings(seeger_lists: Recount, client_as, role: str) -> None:
    html = client_as(role).get(_url("stats:standings")).content.decode()
    assert "Seeger-Fabian" in html and "je Liste" in html and "Spielpunkte" in html


def test_an_outsider_gets_404(seeger_lists: Recount, client: Client, skat_club: World) -> None:
    client.force_login(skat_club.users["outsider"])
    for name in ("stats:standings", "stats:standings_pdf", "stats:standings_xlsx"):
        assert client.get(_url(name)).status_code == 404


def test_the_workbook_has_the_seeger_sheet(seeger_lists: Recount, client_as) -> None:
    response = client_as("member").get(_url("stats:standings_xlsx"))
    assert response.status_code == 200
    book = load_workbook(io.BytesIO(response.content))
    assert book.sheetnames[0] == "Seeger-Fabian"
    header = [cell.value for cell in book["Seeger-Fabian"][2]]
    assert header == ["Platz", "Name", "Wertung", "Spielpunkte", "gewonnen", "verloren", "Listen", "je Liste"]
    rows = {row[1]: row for row in book["Seeger-Fabian"].iter_rows(min_row=3, values_only=True)}
    for name in NAMES:
        _rank, _name, total, points, won, lost, lists, per_list = rows[name]
        assert (total, points, won, lost, lists) == (
            seeger_lists.total(name),
            seeger_lists.points[name],
            seeger_lists.won[name],
            seeger_lists.lost[name],
            seeger_lists.lists[name],
        )
        assert per_list == pytest.approx(seeger_lists.total(name) / seeger_lists.lists[name], abs=0.05)


def test_the_workbooks_games_and_players_sheets_have_skats_columns(seeger_lists: Recount, client_as) -> None:
    """A Skat club's "Spiele" and "Spieler" sheets: the Alleinspieler, no Mitspieler, no Stock,
    no Solos or Tout (Skat has none), and every row as wide as its header."""
    book = load_workbook(io.BytesIO(client_as("member").get(_url("stats:standings_xlsx")).content))
    games = [[cell.value for cell in row] for row in book["Spiele"].iter_rows(min_row=2)]
    header, rows = games[0], games[1:]
    assert header[:7] == ["Datum", "Tisch", "Nr.", "Spiel", "Alleinspieler", "gewonnen", "Einheit"]
    assert header[-1] == "Erklärung" and not {"Mitspieler", "Stock"} & set(header)
    assert rows and all(len(row) == len(header) for row in rows)
    assert {row[4] for row in rows} <= set(NAMES)
    players = [[cell.value for cell in row] for row in book["Spieler"].iter_rows(min_row=2)]
    assert "als Alleinspieler" in players[0] and not {"Solos", "Tout"} & set(players[0])
    assert all(len(row) == len(players[0]) for row in players[1:])
    played = {row[0]: row[players[0].index("als Alleinspieler")] for row in players[1:]}
    for name in NAMES:
        assert played[name] == seeger_lists.won[name] + seeger_lists.lost[name]


def test_the_pdf_prints_the_seeger_ranking(seeger_lists: Recount, client_as) -> None:
    response = client_as("member").get(_url("stats:standings_pdf"))
    assert response.status_code == 200
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    assert "Seeger-Fabian" in text and "je Liste" in text and "Spielpunkte" in text
    for name in NAMES:
        assert name in text


def test_a_skat_clubs_standings_speak_skat(seeger_lists: Recount, client_as, skat_club: World) -> None:
    member = Member.objects.get(club=skat_club.club, display_name="Anni")
    pages = [
        _url("stats:standings"),
        reverse("stats:member", kwargs={"slug": "test", "member_id": member.pk}) + "?period=all",
    ]
    for path in pages:
        html = client_as("member").get(path).content.decode()
        assert "Alleinspieler" in html or "Seeger-Fabian" in html, path
        for word in SCHAFKOPF_WORDS:
            assert word not in html, (path, word)


SCHAFKOPF_WORDS = ("Rufspiel", "Laufende", "Deckel", "Mungo", "Schafkopf", "Solo", "Tout", "Mitspieler (gerufen)")
