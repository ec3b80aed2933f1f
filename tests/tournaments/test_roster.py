"""Issue 20, a player arrives late or has to leave: withdrawing and adding between Partien
re-plan the remaining Partien (the played ones stay, repeats at the lower bound), and a
substitute inside a Partie counts as the championship's option says."""

from __future__ import annotations

import io
from collections.abc import Callable
from itertools import combinations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from clubs.models import Club, Member
from scoring import selectors as scoring_selectors
from scoring import services as scoring_services
from scoring.models import AuditEntry, LedgerEntry, Seat, Table
from tests.factories import ClubFactory, MemberFactory, World
from tournaments import selectors, services
from tournaments.engine.plan import (
    AT_MOST_TWICE,
    FEWEST_REPEATS,
    FIVES_WITHIN_TWO,
    plan_seating,
    replan_document,
    replan_seating,
)
from tournaments.exports import RankingReport
from tournaments.models import Event, Participant, SubstitutePoints, Tournament

PLAYED = 2


def hand(names: list[str], k: int) -> dict:
    """Hand k at a table whose first seat deals first: the four who play it (at five the dealer
    sits out), the second of them wins a Rufspiel with the fourth."""
    playing = [names[(k + j) % len(names)] for j in range(1, 5)] if len(names) == 5 else names
    return {
        "game": "rufspiel",
        "declarer": playing[1],
        "partner": playing[3],
        "called": "gras",
        "augen": 70,
        "deckel": 1,
    }


def play(tournament: Tournament, index: int) -> None:
    """Start Partie ``index`` and play every table's games."""
    partie = services.partie_start(tournament=tournament, index=index, seed=index, user=None)
    games = tournament.plan["games_per_table"]
    for row in partie.tables.select_related("table"):
        names = list(row.table.seats.order_by("position").values_list("name", flat=True))
        scoring_services.entries_append(
            table=row.table, log=[hand(names, k) for k in range(games[str(len(names))])], user=None
        )


def championship(
    club: Club,
    players: int,
    games: int = 4,
    played: int = PLAYED,
    partien: int = 4,
    variant: str = "",
    year: int = 2026,
) -> Tournament:
    tournament = services.tournament_create(club=club, year=year, partien=partien, games_per_partie=games, user=None)
    members = MemberFactory.create_batch(players, club=club)
    services.participants_set(tournament=tournament, members=members, user=None)
    if variant:
        services.plan_choose(tournament=tournament, variant=variant, user=None)
    tournament = services.draw_run(tournament=tournament, seed=1, user=None)
    for index in range(1, played + 1):
        play(tournament, index)
    return Tournament.objects.get(pk=tournament.pk)


def assert_replanned(before: list, after: list, numbers: set[int]) -> None:
    assert after[:PLAYED] == before[:PLAYED]  # the played Partien stay as they were
    for partie in after[PLAYED:]:
        seated = [n for table in partie for n in table]
        assert sorted(seated) == sorted(numbers)  # everyone once, nobody else


# --- the engine (no database) ----------------------------------------------------------------------


def test_replan_after_a_withdrawal_keeps_the_played_partien_and_reaches_the_lower_bound() -> None:
    base = plan_seating(13, 4, 0)
    players = [n for n in range(1, 14) if n != 5]
    replan = replan_seating([list(p) for p in base.partien[:2]], players, 4, 0)
    assert replan.partien[:2] == base.partien[:2]
    for partie in replan.partien[2:]:
        assert sorted(n for table in partie for n in table) == players
        assert sorted(len(table) for table in partie) == [4, 4, 4]
    met: dict[tuple[int, int], int] = {}
    for partie in replan.partien:
        for table in partie:
            for pair in combinations(table, 2):
                met[pair] = met.get(pair, 0) + 1
    assert replan.repeat_pairs == sum(m - 1 for m in met.values())
    assert replan.optimal  # the exhaustive search proves no seating has fewer repeats
    assert replan_seating([list(p) for p in base.partien[:2]], players, 4, 0) == replan  # same seed, same plan


def test_replan_with_a_late_player_seats_him_in_every_remaining_partie() -> None:
    base = plan_seating(12, 4, 3)
    replan = replan_seating([list(p) for p in base.partien[:2]], list(range(1, 14)), 4, 3)
    assert replan.partien[:2] == base.partien[:2]
    for partie in replan.partien[2:]:
        assert sorted(n for table in partie for n in table) == list(range(1, 14))
    assert replan.optimal and replan.five_seats[13] >= 1


def test_a_replan_keeps_the_kind_of_plan_it_is_asked_for() -> None:
    """Issue 30 item 7, in the engine: 13 players, Partie 1 played, number 5 withdrawn and a late
    number 14. The fewest repeats put a pair together in every Partie; each other kind keeps its
    promise over all four Partien, the seats at five counted for those who play on."""
    players = [n for n in range(1, 15) if n != 5]
    for variant in (AT_MOST_TWICE, FIVES_WITHIN_TWO):
        played = [list(partie) for partie in plan_seating(13, 4, 0, variant).partien[:1]]
        kept = replan_seating(played, players, 4, 0, variant)
        assert kept.variant == variant and kept.keeps_variant and kept.five_spread <= 2
        assert kept.partien[:1] == plan_seating(13, 4, 0, variant).partien[:1]
        if variant == AT_MOST_TWICE:
            assert kept.max_pair_meetings <= 2
        assert replan_seating(played, players, 4, 0, variant) == kept  # same seed, same plan
    default = replan_seating(played, players, 4, 0)
    assert default.variant == FEWEST_REPEATS and default.max_pair_meetings == 4  # what the issue saw


def test_a_replan_that_cannot_keep_its_kind_says_so_and_offers_the_others() -> None:
    """14 players on "at most twice", re-planned before the last Partie (number 2 out, 15 in): the
    search finds no last Partie that keeps both promises; the one it takes keeps every pair to two,
    says that the seats at five stay three apart, and the others are offered with their figures."""
    played = [list(partie) for partie in plan_seating(14, 4, 0, AT_MOST_TWICE).partien[:3]]
    players = [n for n in range(1, 16) if n != 2]
    doc = replan_document(played, players, 4, 40, 0, AT_MOST_TWICE)
    assert doc["variant"] == AT_MOST_TWICE and doc["variant_kept"] is False
    assert doc["max_pair_meetings"] <= 2 and doc["five_seats_spread"] == 3
    others = {other["variant"]: other for other in doc["alternatives"]}
    assert list(others) == [FEWEST_REPEATS, FIVES_WITHIN_TWO]  # for the owner to choose, with figures
    assert others[FEWEST_REPEATS]["repeat_pairs"] < doc["repeat_pairs"]
    assert others[FIVES_WITHIN_TWO]["variant_kept"] and others[FIVES_WITHIN_TWO]["five_seats_spread"] <= 2


# --- withdraw and add between Partien ---------------------------------------------------------------


@pytest.mark.django_db
def test_withdrawal_after_partie_2_replans_partien_3_and_4() -> None:
    club = ClubFactory()
    tournament = championship(club, 13)
    before = tournament.plan["partien"]
    leaving = Participant.objects.get(tournament=tournament, number=5)
    points = selectors.tournament_ranking(tournament)
    kept = next(row.placing.tally.points for row in points.rows if row.member == leaving.member)

    services.participant_withdraw(tournament=tournament, member=leaving.member, reason="krank", user=None)

    tournament.refresh_from_db()
    plan = tournament.plan
    assert_replanned(before, plan["partien"], set(range(1, 14)) - {5})
    assert plan["repeat_pairs"] == plan["lower_bound"] and plan["replanned_after"] == PLAYED
    # The played tables of five still count as complete (their games are still in the plan).
    assert plan["games_per_table"] == {"4": 4, "5": 5}
    assert all(table.done for table in selectors.partie_view(tournament, PLAYED).tables)
    assert [e.kind for e in tournament.events.order_by("id")] == [Event.Kind.WITHDRAWN, Event.Kind.REPLANNED]
    ranking = selectors.tournament_ranking(tournament)
    last = ranking.rows[-1]  # ranked below everyone who stays, with his points
    assert last.member == leaving.member and last.withdrawn and last.placing.place == 13
    assert last.placing.tally.points == kept
    # Partie 3 is started from the new plan: 3 tables of 4, without him.
    partie = services.partie_start(tournament=tournament, index=3, seed=3, user=None)
    seated = Seat.objects.filter(table__partie_table__partie=partie)
    assert seated.count() == 12 and not seated.filter(member=leaving.member).exists()
    assert [line.text for line in selectors.roster_log(tournament)][0].endswith("krank")


@pytest.mark.django_db
def test_late_player_gets_the_next_number_and_the_remaining_partien() -> None:
    club = ClubFactory()
    tournament = championship(club, 12)
    before = tournament.plan["partien"]
    late = MemberFactory(club=club, display_name="Spät Kommer")
    participant = services.participant_add(tournament=tournament, member=late, user=None)
    tournament.refresh_from_db()
    assert participant.number == 13 and participant.joined_at == PLAYED + 1
    assert_replanned(before, tournament.plan["partien"], set(range(1, 14)))
    assert tournament.plan["repeat_pairs"] == tournament.plan["lower_bound"]
    by_player = {p.number: p.tables for p in selectors.plan_by_player(selectors.plan(tournament))}
    assert by_player[13][:PLAYED] == (None, None) and None not in by_player[13][PLAYED:]


@pytest.mark.django_db
def test_roster_changes_are_refused_inside_a_partie_and_for_outsiders() -> None:
    club = ClubFactory()
    tournament = championship(club, 12)
    outsider = MemberFactory(club=ClubFactory())
    with pytest.raises(ValidationError, match="Mitglieder des Vereins"):
        services.participant_add(tournament=tournament, member=outsider, user=None)
    someone = tournament.participants.first().member
    with pytest.raises(ValidationError, match="schon Teilnehmer"):
        services.participant_add(tournament=tournament, member=someone, user=None)
    services.partie_start(tournament=tournament, index=3, seed=3, user=None)  # Partie 3 runs, not played
    with pytest.raises(ValidationError, match="läuft noch"):
        services.participant_withdraw(tournament=tournament, member=someone, user=None)
    with pytest.raises(ValidationError, match="läuft noch"):
        services.participant_add(tournament=tournament, member=MemberFactory(club=club), user=None)
    assert not tournament.events.exists() and tournament.participants.count() == 12


# --- a substitute inside a Partie -------------------------------------------------------------------


def substituted(option: str) -> tuple[Tournament, Member, Member, Table]:
    """Partie 1 of an 8-player championship: at the absent player's table two hands, then the
    substitute takes his seat and plays two more (he declares and wins both)."""
    club = ClubFactory()
    tournament = championship(club, 8, played=0)
    tournament.substitute_points = option
    tournament.save(update_fields=["substitute_points"])
    partie = services.partie_start(tournament=tournament, index=1, seed=3, user=None)
    table = partie.tables.get(number=1).table
    names = list(table.seats.order_by("position").values_list("name", flat=True))
    absent = table.seats.get(position=1).member
    scoring_services.entries_append(table=table, log=[hand(names, k) for k in range(2)], user=None)
    substitute = MemberFactory(club=club, display_name="Ersatz Ede")
    services.partie_substitute(
        tournament=tournament, index=1, absent=absent, substitute=substitute, reason="musste heim", user=None
    )
    # Seat 1 declares both hands after the change, with seat 3.
    later = {"game": "rufspiel", "declarer": names[1], "partner": names[3], "called": "gras", "augen": 70, "deckel": 1}
    scoring_services.entries_append(table=table, log=[later, later], user=None)
    return tournament, absent, substitute, table


def own_points(table: Table, member: Member, upto: int) -> int:
    rows = LedgerEntry.objects.filter(table__partie_table__partie__tournament=table.partie_table.partie.tournament)
    return sum(rows.filter(member=member).exclude(table=table, entry__number__gt=upto).values_list("amount", flat=True))


@pytest.mark.django_db
@pytest.mark.parametrize("option", [SubstitutePoints.NOBODY, SubstitutePoints.ABSENT, SubstitutePoints.SUBSTITUTE])
def test_substitute_points_count_as_the_option_says(option: str) -> None:
    tournament, absent, substitute, table = substituted(option)
    # The ledger books the hands to who played them: the played hands stay the absent player's.
    assert LedgerEntry.objects.filter(table=table, entry__number__lte=2, member=absent).count() == 2
    assert LedgerEntry.objects.filter(table=table, entry__number__gt=2, member=substitute).count() == 2
    his = sum(LedgerEntry.objects.filter(table=table, member=substitute).values_list("amount", flat=True))
    assert his > 0
    rows = {row.member: row for row in selectors.tournament_ranking(tournament).rows}
    before = own_points(table, absent, 2)
    expected = {"nobody": before, "absent": before + his, "substitute": before}[option]
    assert rows[absent].placing.tally.points == expected
    assert substitute not in rows  # not a participant: his points show nowhere in the ranking
    assert sum(row.placing.tally.points for row in rows.values()) == (0 if option == "absent" else -his)
    assert AuditEntry.objects.filter(table=table, action=AuditEntry.Action.SEAT, number=3).exists()
    assert "Ersatz Ede (für" in str(selectors.partie_view(tournament, 1).tables[0].seats)
    assert scoring_selectors.seat_notes(table)[0].startswith("Ab Spiel 3 spielt Ersatz Ede auf dem Platz von")


@pytest.mark.django_db
def test_a_substitute_already_seated_or_from_another_club_is_refused() -> None:
    tournament, absent, substitute, table = substituted(SubstitutePoints.NOBODY)
    elsewhere = tournament.partie_set.get(index=1).tables.get(number=2).schreiber
    with pytest.raises(ValidationError, match="schon"):
        services.partie_substitute(tournament=tournament, index=1, absent=substitute, substitute=elsewhere, user=None)
    with pytest.raises(ValidationError, match="Mitglied des Vereins"):
        services.partie_substitute(
            tournament=tournament, index=1, absent=substitute, substitute=MemberFactory(club=ClubFactory()), user=None
        )
    # The absent player comes back: the seat is his again from the next hand on.
    services.partie_substitute(tournament=tournament, index=1, absent=substitute, substitute=absent, user=None)
    assert Event.objects.filter(tournament=tournament, kind=Event.Kind.SUBSTITUTE).count() == 2
    assert "wieder selbst" in selectors.roster_log(tournament)[-1].text


@pytest.mark.django_db
def test_a_seat_change_survives_a_deleted_hand_before_it_and_the_restore_check() -> None:
    tournament, absent, substitute, table = substituted(SubstitutePoints.NOBODY)
    assert scoring_services.table_differences(table) is None  # the ledger is the fold's, seat changes included
    seat = table.seats.get(member=absent)
    with pytest.raises(ValidationError, match="spielt schon an diesem Tisch"):
        scoring_services.seat_change(table=table, seat=seat, member=table.seats.get(position=0).member, user=None)
    scoring_services.entry_delete(entry=table.entries.get(number=1), user=None, reason="doppelt")
    assert table.seat_changes.get().from_number == 2  # still the first hand the substitute played
    assert list(LedgerEntry.objects.filter(table=table, member=substitute).values_list("entry__number", flat=True)) in (
        [2, 3],
        [3, 2],
    )
    assert scoring_services.table_differences(table) is None


# --- issue 30: the organiser's kind of plan survives the re-plan; absent Partien read "–" ------------


@pytest.mark.django_db
def test_the_replan_after_a_withdrawal_and_a_late_player_keeps_the_chosen_kind() -> None:
    """The issue's night: 13 players on "höchstens zweimal dasselbe Paar", after Partie 1 a
    withdrawal and a late player. Each re-plan keeps the kind (no pair a third time, the seats at
    five within two), offers the fewest repeats beside it, may be swapped until Partie 2 begins
    (logged), and the log names the kind."""
    club = ClubFactory()
    tournament = championship(club, 13, played=1, variant=AT_MOST_TWICE)
    leaving = Participant.objects.get(tournament=tournament, number=5).member
    services.participant_withdraw(tournament=tournament, member=leaving, reason="krank", user=None)
    services.participant_add(tournament=tournament, member=MemberFactory(club=club, display_name="Spät"), user=None)
    tournament.refresh_from_db()
    plan = tournament.plan
    assert plan["variant"] == AT_MOST_TWICE and plan["variant_kept"] and plan["replanned_after"] == 1
    assert plan["max_pair_meetings"] <= 2 and plan["five_seats_spread"] <= 2
    assert_replanned_from(1, plan["partien"], set(range(1, 15)) - {5})
    variants = selectors.plan_variants(tournament)
    assert [v.variant for v in variants][0] == FEWEST_REPEATS and variants[0].max_pair_meetings == 4
    assert next(v for v in variants if v.in_force).variant == AT_MOST_TWICE
    texts = [line.text for line in selectors.roster_log(tournament)]
    assert "als „höchstens zweimal dasselbe Paar“" in texts[-1] and "nicht mehr ganz" not in texts[-1]

    kept = plan["partien"]
    assert selectors.plan_choice_open(tournament)
    services.plan_choose(tournament=tournament, variant=FEWEST_REPEATS, user=None)
    tournament.refresh_from_db()
    assert tournament.plan["variant"] == FEWEST_REPEATS and tournament.plan["partien"][:1] == kept[:1]
    assert "gewählt: „wenigste Wiederholungen“" in selectors.roster_log(tournament)[-1].text
    services.plan_choose(tournament=tournament, variant=AT_MOST_TWICE, user=None)
    tournament.refresh_from_db()
    assert tournament.plan["partien"] == kept
    services.partie_start(tournament=tournament, index=2, seed=2, user=None)
    assert not selectors.plan_choice_open(tournament)
    with pytest.raises(ValidationError, match="vor der nächsten"):
        services.plan_choose(tournament=tournament, variant=FEWEST_REPEATS, user=None)


def assert_replanned_from(played: int, partien: list, numbers: set[int]) -> None:
    for partie in partien[played:]:
        assert sorted(n for table in partie for n in table) == sorted(numbers)


def finished_with_roster_changes(world: World) -> tuple[Tournament, Member, Member]:
    """12 players over 3 Partien of 4 games, number 5 withdrawn after Partie 1 and a late player
    from Partie 2, finished (a Stechen where first place is shared): (championship, withdrawn,
    late). Shared with the Großbild's browser test."""
    tournament = championship(world.club, 12, played=1, partien=3)
    leaving = Participant.objects.get(tournament=tournament, number=5).member
    leaving.display_name = "Maximilian Obermaier-Gschwendtner"  # a long name beside the mark
    leaving.save(update_fields=["display_name"])
    late = MemberFactory(club=world.club, display_name="Kreszenz Spätkommer")
    services.participant_withdraw(tournament=tournament, member=leaving, user=None)
    services.participant_add(tournament=tournament, member=late, user=None)
    tournament.refresh_from_db()
    play(tournament, 2)
    play(tournament, 3)
    tied = [row.member for row in selectors.tournament_ranking(tournament).rows if row.placing.place == 1]
    if len(tied) > 1:  # the Wanderpokal has one holder (001 §11.6)
        services.playoff_record(tournament=tournament, players=tied, winner=tied[0], user=None)
    services.tournament_finish(tournament=tournament, user=None)
    tournament.refresh_from_db()
    return tournament, leaving, late


@pytest.mark.django_db
def test_a_withdrawn_and_a_late_player_read_dash_and_are_marked_on_all_four_outputs(
    world: World, client_as: Callable[[str], Client]
) -> None:
    """Issue 30 item 8: 12 players over 3 Partien, number 5 withdrawn after Partie 1 and a late
    player from Partie 2, then finished. A Partie not played is "–" on the page, the Großbild and
    the PDF and an empty cell in Excel (never 0); the withdrawal and the late entry stand beside the
    name, in Excel in a column of their own. After the finish the Großbild reads the final result,
    and a hand's page is no "korrigieren" but offers the owner to reopen."""
    tournament, leaving, late = finished_with_roster_changes(world)
    rows = {row.member: row for row in selectors.tournament_ranking(tournament).rows}
    assert rows[leaving].partie_points[1:] == (None, None) and rows[leaving].partie_points[0] is not None
    assert rows[late].partie_points[0] is None and None not in rows[late].partie_points[1:]
    assert all(None not in row.partie_points for m, row in rows.items() if m not in (leaving, late))

    owner = client_as("owner")
    kwargs = {"slug": world.club.slug, "tournament_id": tournament.pk}
    marks = ("zurückgezogen nach P1", "nachgemeldet ab P2")

    def dashes(html: str) -> int:
        return html.count('class="num partie-points">–</td>')

    page = owner.get(reverse("tournaments:ranking", kwargs=kwargs)).content.decode()
    live = owner.get(reverse("tournaments:live", kwargs=kwargs)).content.decode()
    for html in (page, live):
        assert all(mark in html for mark in marks) and dashes(html) == 3
    assert "Endstand" in live and "Tisch 1 ·" not in live

    pdf = PdfReader(io.BytesIO(owner.get(reverse("tournaments:ranking_pdf", kwargs=kwargs)).content))
    text = " ".join(" ".join(sheet.extract_text().split()) for sheet in pdf.pages)  # a long name wraps
    assert all(mark in text for mark in marks)
    report = RankingReport(selectors.tournament_ranking(tournament), printed=True)  # the PDF's cells
    p1 = [column.title for column in report.columns()].index("P1")
    printed = {row.member: cells for row, cells in zip(report.ranking.rows, report.rows(), strict=True)}
    assert printed[leaving][p1 : p1 + 3][1:] == ["–", "–"] and printed[late][p1] == "–"
    assert printed[leaving][2].endswith("(zurückgezogen nach P1)")

    book = load_workbook(io.BytesIO(owner.get(reverse("tournaments:ranking_xlsx", kwargs=kwargs)).content))
    sheet = list(book.active.iter_rows(values_only=True))
    header = list(sheet[1])
    by_name = {row[header.index("Spieler")]: row for row in sheet[2:]}
    assert {leaving.display_name, late.display_name} <= set(by_name)  # the name cell: the name only
    p1, note = header.index("P1"), header.index("Teilnahme")
    assert by_name[leaving.display_name][p1 + 1 : p1 + 3] == (None, None)  # empty cells, not 0
    assert by_name[late.display_name][p1] is None and by_name[late.display_name][p1 + 1] is not None
    assert by_name[leaving.display_name][note] == "zurückgezogen nach P1"
    assert by_name[late.display_name][note] == "nachgemeldet ab P2"
    assert sum(1 for row in by_name.values() if row[note] is None) == len(by_name) - 2

    table = tournament.partie_set.get(index=1).tables.first().table
    entry = table.entries.first()
    edit = reverse(
        "scoring:entry_edit",
        kwargs={"slug": world.club.slug, "session_id": table.session_id, "table_id": table.pk, "entry_id": entry.pk},
    )
    for role, offered in (("owner", True), ("scorer", False)):
        html = client_as(role).get(edit).content.decode()
        assert "korrigieren" not in html.split("</h2>")[0] and "Die Meisterschaft ist abgeschlossen" in html
        assert (reverse("tournaments:reopen", kwargs=kwargs) in html) is offered
