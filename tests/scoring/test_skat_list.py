"""The Spielliste and its settlement on the table page (issue 32 item 2, skat.md §5, §6), against
an independent recount made here from the facts alone (no engine call): per game the declarer's
+value or −2 × value, the running totals, won and lost games; under ``skat`` who pays whom, under
``skat-seeger`` the Auswertung; the Verlustspielgeld of the list."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from clubs.models import Member
from scoring import selectors, services
from scoring.models import Table
from tests.factories import World

pytestmark = pytest.mark.django_db

PLAYERS = ["Sepp Huber", "Zenzi Mayr", "Girgl Lechner", "Vroni Brandl"]
GRUND = {"karo": 9, "herz": 10, "pik": 11, "kreuz": 12, "grand": 24}
NULL = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}


def start(world: World, rules: Any, seats: int) -> Table:
    session = services.session_create(club=world.club, date="2026-11-20", place="Krone", user=None)
    members = [Member.objects.get(club=world.club, display_name=name) for name in PLAYERS[:seats]]
    return services.table_start(session=session, members=members, rules=rules, user=None)


def value(game: dict[str, Any]) -> tuple[int, bool]:
    """skat.md §2–§4 recounted: the game value and whether the declarer won."""
    won = game["result"].startswith("won")
    if game["game"] == "null":
        return NULL[(bool(game.get("hand")), bool(game.get("ouvert")))], won
    stages = 1 + bool(game.get("hand")) + (game["result"] != "won" and game["result"] != "lost")
    stages += game["result"].endswith("schwarz")
    return GRUND[game["game"]] * (game["spitzen"] + stages), won


def random_game(rng: random.Random, declarer: str) -> dict[str, Any]:
    kind = rng.choice(["kreuz", "pik", "herz", "karo", "grand", "grand", "null"])
    game: dict[str, Any] = {"game": kind, "declarer": declarer}
    if kind == "null":
        game["result"] = rng.choice(["won", "won", "lost"])
        if rng.random() < 0.3:
            game["hand"] = True
        return game
    game["spitzen"] = rng.randint(1, 4 if kind == "grand" else 6)
    if rng.random() < 0.3:
        game["ohne"] = True
    if rng.random() < 0.2:
        game["hand"] = True
    game["result"] = rng.choice(["won", "won", "won", "won_schneider", "lost", "lost_schneider", "won_schwarz"])
    return game


def play(world: World, rules: Any, seats: int, games: int, seed: int) -> tuple[Table, list[dict[str, Any]]]:
    table = start(world, rules, seats)
    rng = random.Random(seed)
    played = []
    for _ in range(games):
        state = selectors.table_state(table).state
        game = random_game(rng, rng.choice(state.seats))
        services.entry_append(table=table, data=game, user=None)
        played.append({**game, "out": list(state.sitting_out)})
    return table, played


def recount(played: list[dict[str, Any]], names: list[str]) -> dict[str, Any]:
    totals = dict.fromkeys(names, 0)
    won = dict.fromkeys(names, 0)
    lost = dict.fromkeys(names, 0)
    entries = []
    for game in played:
        worth, ok = value(game)
        entry = worth if ok else -2 * worth
        totals[game["declarer"]] += entry
        (won if ok else lost)[game["declarer"]] += 1
        entries.append(entry)
    return {"totals": totals, "won": won, "lost": lost, "entries": entries}


def numbers(html: str, marker: str) -> list[str]:
    return [
        re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(rf"<t[hd][^>]*{marker}[^>]*>(.*?)</t[hd]>", html)
    ]


def row(html: str, name: str) -> list[str]:
    body = html.split(f'data-row="{name}"', 1)[1].split("</tr>", 1)[0]
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", body)]


@pytest.mark.parametrize("seats", [3, 4])
def test_the_seeger_list_and_auswertung_are_the_recount(world: World, client_as: Any, seats: int) -> None:
    table, played = play(world, "skat-seeger", seats, 24, seed=seats)
    names = list(table.seats.order_by("position").values_list("name", flat=True))
    expected = recount(played, names)
    html = client_as("member").get(table.get_absolute_url()).content.decode()
    assert numbers(html, "data-list-total") == [str(expected["totals"][n]) for n in names]
    assert numbers(html, "data-list-games") == [f"{expected['won'][n]} / {expected['lost'][n]}" for n in names]
    cells = re.findall(r'data-cell="(-?\d+)"', html)
    assert [int(c) for c in reversed(cells)] == expected["entries"]  # newest first on the page
    bonus = {3: 40, 4: 30}[seats]
    all_lost = sum(expected["lost"].values())
    totals = []
    for n in names:
        w, lo, pts = expected["won"][n], expected["lost"][n], expected["totals"][n]
        totals.append(pts + 50 * (w - lo) + bonus * (all_lost - lo))
    assert row(html, "points") == [str(expected["totals"][n]) for n in names]
    assert row(html, "won_lost") == [str(50 * (expected["won"][n] - expected["lost"][n])) for n in names]
    assert row(html, "others_lost") == [
        f"{all_lost - expected['lost'][n]} → {bonus * (all_lost - expected['lost'][n])}" for n in names
    ]
    assert row(html, "total") == [str(t) for t in totals]
    # The ledger (what standings add up) is the same Seeger-Fabian total, hand by hand.
    balances = {b.member.display_name: b.amount for b in selectors.session_balances(table.session)}
    assert balances == dict(zip(names, totals, strict=True))


def test_the_money_list_says_who_pays_whom(world: World, client_as: Any) -> None:
    table, played = play(world, {"preset": "skat", "options": {"cents_per_point": 1}}, 4, 20, seed=7)
    names = list(table.seats.order_by("position").values_list("name", flat=True))
    expected = recount(played, names)
    html = client_as("member").get(table.get_absolute_url()).content.decode()
    total = sum(expected["totals"].values())
    owed = {n: 4 * expected["totals"][n] - total for n in names}  # skat.md §5, cents
    assert row(html, "balance") == [str(owed[n]) for n in names]
    paid = dict.fromkeys(names, 0)
    for payer, payee, amount in re.findall(r"<li data-transfer>(.+?) zahlt (.+?) ([\d.,]+)\s*€</li>", html):
        cents = int(amount.replace(".", "").replace(",", ""))
        paid[payer] -= cents
        paid[payee] += cents
    assert paid == owed
    balances = {b.member.display_name: b.amount for b in selectors.session_balances(table.session)}
    assert balances == owed


def test_verlustspielgeld_is_shown_and_booked_once_into_the_kasse(world: World, client_as: Any) -> None:
    rules = {"preset": "skat-seeger", "options": {"verlustspielgeld": True}}
    table = start(world, rules, 3)
    seats = selectors.table_state(table).state.seats
    sepp = seats[0]
    for _ in range(5):  # five lost games: 3 × 0,50 € + 2 × 1 € = 3,50 €
        services.entry_append(table=table, data={"game": "null", "declarer": sepp, "result": "lost"}, user=None)
    html = client_as("member").get(table.get_absolute_url()).content.decode()
    assert f"{sepp} 3,50" in html
    entry = table.entries.order_by("number").first()
    # A correction that keeps the game lost, and one that makes it won: the list is refolded.
    services.entry_correct(
        entry=entry, data={"game": "null", "declarer": sepp, "result": "lost", "hand": True}, user=None, reason="x"
    )
    services.entry_correct(entry=entry, data={"game": "null", "declarer": sepp, "result": "won"}, user=None, reason="x")
    evening = client_as("scorer").get(table.session.get_absolute_url()).content.decode()
    assert "Verlustspielgeld in die Vereinskasse gebucht (bisher 2,50" in evening
    services.session_close(session=table.session, user=None)
    member = Member.objects.get(club=world.club, display_name=sepp)
    booked = selectors.kasse_balance(world.club)
    assert booked == {"cent": 250}  # four lost games: 3 × 0,50 € + 1 €
    assert selectors.session_kasse_totals(table.session)[(member.pk, "cent")] == 250
    services.session_reopen(session=table.session, user=None)
    assert selectors.kasse_balance(world.club) == {"cent": 0}
    services.entry_delete(entry=table.entries.order_by("number").last(), user=None, reason="x")
    services.session_close(session=table.session, user=None)
    assert selectors.kasse_balance(world.club) == {"cent": 150}  # three lost games left
    # The settlement of the evening is not the Kasse's: Seeger points are not money.
    assert not [t for t in selectors.session_settlement(table.session) if t.kasse]


def test_a_club_sets_the_verlustspielgeld_on_its_rules_page_and_the_kasse_names_it(
    world: World, client_as: Any
) -> None:
    world.club.game = "skat"  # the Regeln page offers a club its own game's rule sets
    world.club.save()
    owner = client_as("owner")
    page = owner.get("/clubs/test/regeln/?preset=skat").content.decode()
    assert 'name="verlustspielgeld"' in page and 'name="verlustspielgeld_later"' in page
    options = {"verlustspielgeld": True, "verlustspielgeld_first": 100, "verlustspielgeld_later": 200}
    services.club_rules_save(club=world.club, preset="skat", options=options, winnings_to_kasse=False, user=None)
    session = services.session_create(club=world.club, date="2026-11-20", place="Krone", user=None)
    members = [Member.objects.get(club=world.club, display_name=name) for name in PLAYERS[:3]]
    table = services.table_start(session=session, members=members, user=None)  # the club's rules
    seats = selectors.table_state(table).state.seats
    for _ in range(4):
        services.entry_append(table=table, data={"game": "null", "declarer": seats[1], "result": "lost"}, user=None)
    services.session_close(session=session, user=None)
    assert selectors.kasse_balance(world.club) == {"cent": 3 * 100 + 200}
    kasse = owner.get("/clubs/test/kasse/").content.decode()
    assert "Verlustspielgeld 20.11.2026" in kasse and "5,00" in kasse
