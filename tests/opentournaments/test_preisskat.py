"""The Preisskat (issue 32 item 4): an open tournament with Skat by Seeger-Fabian – tables of four
and of three, the desk's list figures (Spielpunkte, won, lost) and their plausibility, the ranking
through ``rank_open``, the Verlustspielgeld in the Kasse and the pot."""

from __future__ import annotations

import datetime
import io
import json

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command

from opentournaments import selectors, services
from opentournaments.models import OpenTournament, TableScore, TableTyping
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db

SKAT = {"verlustspielgeld": True}  # 0,50 € for each of the first three lost games, then 1 €


def preisskat(players: int = 27, rounds: int = 2, games: int = 48, **kwargs) -> OpenTournament:
    tournament = services.open_tournament_create(
        club=ClubFactory(),
        name="Preisskat",
        starts_on=datetime.date(2026, 11, 28),
        rounds=rounds,
        games_per_round=games,
        preset="skat-seeger",
        options=SKAT,
        entry_fee_cents=1000,
        user=None,
        **kwargs,
    )
    for n in range(1, players + 1):
        services.registration_create(tournament=tournament, name=f"Spieler {n:02d}", paid=True, user=None)
    return tournament


def enter_list(table, figures: dict[int, tuple[int, int, int]], **kwargs):
    return services.table_figures_enter(
        table=table,
        points={n: figures[n][0] for n in table.seats},
        won={n: figures[n][1] for n in table.seats},
        lost={n: figures[n][2] for n in table.seats},
        user=None,
        **kwargs,
    )


def test_created_with_skat_words_and_defaults() -> None:
    tournament = preisskat(players=0)
    assert tournament.game.keeps_list and tournament.game.title() == "Preisskat"
    assert tournament.tie_breaks == ["won", "lost", "lot"]
    assert tournament.options["verlustspielgeld"] is True
    assert [f.key for f in tournament.game.figures(tournament)] == ["points", "won", "lost"]


@pytest.mark.parametrize("games", [0, 35, 100, 11])
def test_games_per_list_bounded(games: int) -> None:
    with pytest.raises(ValidationError) as error:
        preisskat(players=0, games=games)
    assert "games_per_round" in error.value.message_dict


def test_money_list_and_soli_refused() -> None:
    with pytest.raises(ValidationError) as error:
        services.open_tournament_create(
            club=ClubFactory(), name="x", starts_on=datetime.date(2026, 1, 1), preset="skat", user=None
        )
    assert "preset" in error.value.message_dict
    with pytest.raises(ValidationError) as error:
        preisskat(players=0, tie_breaks=["soli", "lot"])
    assert "tie_breaks" in error.value.message_dict
    assert not OpenTournament.objects.exists()


@pytest.mark.parametrize(("players", "fours", "threes"), [(27, 6, 1), (37, 7, 3), (6, 0, 2)])
def test_draw_tables_of_four_and_three(players: int, fours: int, threes: int) -> None:
    tournament = preisskat(players=players)
    for number in (1, 2):
        round_ = services.round_draw(tournament=tournament, number=number, seed=number, user=None)
        sizes = sorted((len(t.seats) for t in round_.tables.all()), reverse=True)
        assert sizes == [4] * fours + [3] * threes
        assert sorted(n for t in round_.tables.all() for n in t.seats) == list(range(1, players + 1))


def test_five_players_cannot_be_seated() -> None:
    tournament = preisskat(players=5)
    with pytest.raises(ValidationError, match="5 Spieler"):
        services.round_draw(tournament=tournament, user=None)
    assert not tournament.round_set.exists()


def test_same_seed_same_draw() -> None:
    a, b = preisskat(players=27), preisskat(players=27)
    seats = [[t.seats for t in services.round_draw(tournament=x, seed=9, user=None).tables.all()] for x in (a, b)]
    assert seats[0] == seats[1]


def _three_table(tournament):
    round_ = services.round_draw(tournament=tournament, seed=3, user=None)
    return round_, [t for t in round_.tables.all() if len(t.seats) == 3][0]


@pytest.mark.parametrize(
    ("figures", "field"),
    [
        ({0: (10, 20, 17)}, None),  # 37 games at a table of three with a list of 36
        ({0: (10, -1, 0)}, "won"),
        ({0: (10, 0, -2)}, "lost"),
        ({0: (10, 37, 0)}, "won"),
        ({0: (100_000, 0, 0)}, "points"),
        ({0: ("zehn", 0, 0)}, "points"),
        ({0: (10, True, 0)}, "won"),
    ],
)
def test_desk_refuses_implausible_lists(figures, field) -> None:
    tournament = preisskat(players=27)
    _round, table = _three_table(tournament)
    base = {n: (0, 0, 0) for n in table.seats}
    first = table.seats[0]
    base[first] = figures[0]
    with pytest.raises(ValidationError) as error:
        enter_list(table, base)
    if field:
        assert f"{field}_{first}" in error.value.message_dict
    else:
        assert "36 Spiele" in error.value.messages[0]
    assert not TableScore.objects.exists() and not TableTyping.objects.exists()


def test_seeger_total_resend_and_ranking_equal_rank_open(tmp_path, capsys) -> None:
    tournament = preisskat(players=27, rounds=1)
    tournament.prize_shares = [50, 30]
    tournament.save()
    round_, three = _three_table(tournament)
    a, b, c = three.seats
    figures = {a: (500, 10, 2), b: (300, 8, 1), c: (-40, 3, 5)}  # 29 games of 36
    typing = enter_list(three, figures, key="k1")
    assert enter_list(three, figures, key="k1").pk == typing.pk  # a resend is the same typing
    assert TableTyping.objects.count() == 1
    seated = next(t for t in selectors.seating(round_).tables if t.table.pk == three.pk)
    # skat.md §6: points + 50 × (won − lost) + 40 × the others' lost games (table of three).
    assert seated.auswertung[a].total == 500 + 50 * 8 + 40 * 6
    assert seated.auswertung[c].total == -40 + 50 * -2 + 40 * 3
    for table in round_.tables.exclude(pk=three.pk):
        enter_list(table, {n: (n * 10, n % 5, n % 3) for n in table.seats})
    ranking = selectors.open_ranking(tournament)
    row = next(r for r in ranking.rows if r.number == a)
    assert (row.points, row.won, row.lost, row.soli) == (1140, 10, 2, None)
    path = tmp_path / "skat.json"
    path.write_text(json.dumps(selectors.ranking_document(tournament)))
    capsys.readouterr()
    call_command("rank_open", str(path))
    printed = json.loads(capsys.readouterr().out)
    assert [(r["number"], r["points"], r["won"], r["lost"]) for r in printed["ranking"]] == [
        (r.number, r.points, r.won, r.lost) for r in ranking.rows
    ]


def test_ties_by_won_then_lost() -> None:
    tournament = preisskat(players=8, rounds=1)
    round_ = services.round_draw(tournament=tournament, seed=1, user=None)
    t1, t2 = round_.tables.all()
    # Everyone on the same total: 0 points, won = lost, nobody else lost … except by design below.
    enter_list(t1, {t1.seats[0]: (100, 2, 0), t1.seats[1]: (150, 1, 0), t1.seats[2]: (0, 0, 0), t1.seats[3]: (0, 0, 0)})
    enter_list(t2, {t2.seats[0]: (200, 0, 0), t2.seats[1]: (0, 0, 0), t2.seats[2]: (0, 0, 0), t2.seats[3]: (0, 0, 0)})
    rows = selectors.open_ranking(tournament).rows
    top = [(r.number, r.points, r.decided_by) for r in rows[:3]]
    # 100 + 2 × 50 = 200 and 150 + 50 = 200 and 200: more won games first, then the lot.
    assert [p for _n, p, _d in top] == [200, 200, 200]
    assert top[0][0] == t1.seats[0] and top[1][2] == "won" and top[2][2] == "won"
    assert rows[1].decided_label == "gewonnene Spiele"


def test_verlustspielgeld_in_the_kasse_and_the_pot() -> None:
    tournament = preisskat(players=8, rounds=1)
    tournament.prize_shares = [100]
    tournament.save()
    round_ = services.round_draw(tournament=tournament, seed=1, user=None)
    t1, t2 = round_.tables.all()
    # Lost games per list 0, 1, 3, 5 and 4, 0, 0, 2: 0,50 € each of the first three, 1 € on.
    enter_list(t1, dict(zip(t1.seats, [(0, 0, 0), (0, 0, 1), (0, 0, 3), (0, 0, 5)], strict=True)))
    enter_list(t2, dict(zip(t2.seats, [(0, 0, 4), (0, 0, 0), (0, 0, 0), (0, 0, 2)], strict=True)))
    fees = 50 + 150 + (150 + 200) + (150 + 100) + 100
    kasse = selectors.kasse(tournament)
    assert (kasse.entry_cents, kasse.lost_games_cents, kasse.lost_games) == (8000, fees, 15)
    assert kasse.total_cents == 8000 + fees
    assert selectors.ranking_document(tournament)["prizes"]["pot"] == 8000 + fees
    # A correction of the list changes the fee with it.
    enter_list(t2, dict(zip(t2.seats, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0)], strict=True)))
    assert selectors.kasse(tournament).lost_games_cents == 50 + 150 + 350


def test_double_entry_and_correction_of_a_list() -> None:
    tournament = preisskat(players=8, rounds=1, double_entry=True)
    round_ = services.round_draw(tournament=tournament, seed=1, user=None)
    t1 = round_.tables.first()
    figures = {n: (10, 1, 0) for n in t1.seats}
    assert enter_list(t1, figures).outcome == "pending"
    assert enter_list(t1, {**figures, t1.seats[0]: (11, 1, 0)}).outcome == "mismatch"
    assert enter_list(t1, figures).outcome == "confirmed"
    assert selectors.counted_figures(t1) == {str(n): [10, 1, 0] for n in t1.seats}
    assert enter_list(t1, {**figures, t1.seats[0]: (12, 1, 0)}).outcome == "pending"
    assert enter_list(t1, {**figures, t1.seats[0]: (12, 1, 0)}).outcome == "confirmed"
    seated = selectors.seating(round_).tables[0]
    assert seated.corrections[-1].changes[0].old == (10, 1, 0)
    assert seated.corrections[-1].changes[0].new == (12, 1, 0)


def test_the_pages_speak_skat(client_as, world, tmp_path) -> None:
    """Create through the form (?spiel=skat), draw, type a table at the desk, and read every page
    and printout: won and lost games, no Soli."""
    from django.urls import reverse
    from openpyxl import load_workbook

    from tests.opentournaments.test_prints import pdf_text

    client = client_as("owner")
    create = reverse("opentournaments:create", kwargs={"slug": world.club.slug})
    form = client.get(create, {"spiel": "skat"}).content.decode()
    assert "Verlustspielgeld" in form and "Soli" not in form and "Kontra" not in form
    data = {
        "game": "skat",
        "name": "Preisskat",
        "starts_on": "2026-12-05",
        "rounds": "2",
        "games_per_round": "48",
        "tariff": "skat-seeger",
        "tie_breaks": "won,lost,lot",
        "verlustspielgeld": "on",
        "verlustspielgeld_first": "0,50",
        "verlustspielgeld_first_games": "3",
        "verlustspielgeld_later": "1,00",
        "entry_fee": "10",
        "prize_shares": "50 30",
        "key": "once",
    }
    assert client.post(create, data).status_code == 302
    assert client.post(create, data).status_code == 302  # sent twice: one tournament
    tournament = OpenTournament.objects.get()
    assert (tournament.preset, tournament.games_per_round, tournament.options["verlustspielgeld_later"]) == (
        "skat-seeger",
        48,
        100,
    )
    bad = client.post(create, {**data, "key": "two", "games_per_round": "50"}).content.decode()
    assert "Vielfaches von 4" in bad and OpenTournament.objects.count() == 1
    for n in range(1, 8):
        services.registration_create(tournament=tournament, name=f"Gast {n}", paid=True, user=None)
    round_ = services.round_draw(tournament=tournament, seed=5, user=None)
    four, three = sorted(round_.tables.all(), key=lambda t: -len(t.seats))

    def url(name: str, **kwargs) -> str:
        return reverse(f"opentournaments:{name}", kwargs={"slug": world.club.slug, "open_id": tournament.pk, **kwargs})

    entry = client.get(url("entry", round_number=1)).content.decode()
    assert "Spielpunkte" in entry and "gewonnen" in entry and "Soli" not in entry
    post = {f"t{three.number}-key": "k"}
    for i, n in enumerate(three.seats):
        post |= {
            f"t{three.number}-points_{n}": str(100 * i),
            f"t{three.number}-won_{n}": "20",
            f"t{three.number}-lost_{n}": "0",
        }
    page = client.post(url("table_entry", round_number=1, table_no=three.number), post).content.decode()
    assert "60 gewonnene und verlorene Spiele" in page and "36 Spiele" in page and not TableScore.objects.exists()
    post |= {f"t{three.number}-won_{n}": "5" for n in three.seats} | {f"t{three.number}-lost_{three.seats[0]}": "4"}
    post[f"t{three.number}-key"] = "k2"
    assert client.post(url("table_entry", round_number=1, table_no=three.number), post).status_code == 302
    assert TableScore.objects.count() == 3
    ranking = client.get(url("ranking")).content.decode()
    assert "gew." in ranking and "verl." in ranking and "Soli" not in ranking and "–" in ranking
    board = client.get(url("room")).content.decode()
    assert "gew." in board and "Soli" not in board
    rules = client.get(url("rules")).content.decode()
    assert "Seeger-Fabian" in rules and "Verlustspielgeld" in rules and "Soli" not in rules
    pdf = pdf_text(client.get(url("ranking_pdf")).content)
    assert "gew." in pdf and "Soli" not in pdf
    sheets = pdf_text(client.get(url("sheets_pdf", round_number=1)).content)
    assert "Spielwert" in sheets and "verl. Spiele der anderen × 40" in sheets and "× 30" in sheets
    assert "Soli" not in sheets
    (tmp_path / "sheets.pdf").write_bytes(client.get(url("sheets_pdf", round_number=1)).content)
    book = load_workbook(io.BytesIO(client.get(url("ranking_xlsx")).content))
    heads = [c.value for c in next(book.active.iter_rows(min_row=1, max_row=5)) if c.value]
    rows = [[c.value for c in row] for row in book.active.iter_rows()]
    assert any("gewonnen" in (row or []) for row in rows) and not any("Soli" in (row or []) for row in rows), heads
    prizes = pdf_text(client.get(url("prizes_pdf")).content)
    assert "Verlustspielgeld" in prizes
    detail = client.get(url("detail")).content.decode()
    assert "Verlustspielgeld" in detail
    edit = client.get(url("edit")).content.decode()
    assert "Spiele je Liste" in edit and "Soli" not in edit and "gewonnene" in edit


def test_a_skat_clubs_open_tournament_is_a_preisskat(client_as, world) -> None:
    """Issue 32 §3: a Skat club's list of open tournaments offers the Preisskat only, and its
    "new tournament" form is the Preisskat's without ``?spiel=skat``; a Schafkopf club has both."""
    from django.urls import reverse

    from tests.e2e.pagewalk import SCHAFKOPF_WORDS

    client = client_as("owner")
    listing = reverse("opentournaments:list", kwargs={"slug": world.club.slug})
    create = reverse("opentournaments:create", kwargs={"slug": world.club.slug})
    schafkopf = client.get(listing).content.decode()
    assert "Neues Turnier" in schafkopf and "Neuer Preisskat" in schafkopf
    assert "Soli" in client.get(create).content.decode()
    world.club.game = "skat"
    world.club.save()
    skat = client.get(listing).content.decode()
    assert "Neues Turnier" not in skat and "Neuer Preisskat" in skat
    form = client.get(create).content.decode()
    assert "Verlustspielgeld" in form and "Soli" not in form
    for page in (skat, form):  # the club's own name may say anything
        assert not SCHAFKOPF_WORDS.search(page.split("<main", 1)[-1].replace(world.club.name, ""))
