"""Issue 20 item 1: a finished championship does not change silently. Everything that decides the
result is read-only (the Partie evenings and their entries, the Stechen, the Korrekturen, the
participants) and says why and how to go on; the owner reopens with a reason, which the ranking,
the trophy page and the ranking PDF show; finishing again says which places moved; deleting a
Stechen asks first."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from clubs.models import Club
from scoring import services as scoring_services
from scoring.models import AuditEntry, Entry, LedgerEntry, Session, Table
from tests.factories import ClubFactory, World, abort_short_tables, make_playoff, make_tournament
from tests.factories import seat_names as names
from tournaments import selectors, services
from tournaments.models import Adjustment, Event, Participant, Partie, Playoff, Status, Tournament

pytestmark = pytest.mark.django_db

FINISHED = "Die Meisterschaft ist abgeschlossen. Zum Ändern zuerst die Meisterschaft wieder öffnen"


def finished(club: Club) -> Tournament:
    """Two Partien of 8 players, their tables broken off short, finished: at Tisch 1 of Partie 1
    the 2nd and 3rd seat win a Rufspiel (2nd place, shared), at Tisch 2 the 2nd seat a Solo
    (alone first, no Stechen)."""
    tournament = make_tournament(club)
    partie = services.partie_start(tournament=tournament, index=1, seed=1, user=None)
    one, two = (row.table for row in partie.tables.select_related("table").order_by("number"))
    a, b = names(one), names(two)
    ruf = {"game": "rufspiel", "declarer": a[1], "partner": a[2], "called": "eichel", "augen": 70, "deckel": 1}
    scoring_services.entry_append(table=one, data=ruf, user=None)
    solo = {"game": "solo", "suit": "herz", "declarer": b[1], "augen": 70, "deckel": 1}
    scoring_services.entry_append(table=two, data=solo, user=None)
    services.partie_start(tournament=tournament, index=2, seed=2, user=None)
    abort_short_tables(tournament)
    return services.tournament_finish(tournament=Tournament.objects.get(pk=tournament.pk), user=None)


def first_table(tournament: Tournament) -> Table:
    return Partie.objects.get(tournament=tournament, index=1).tables.get(number=1).table


def test_a_finished_championships_partie_refuses_every_change_of_its_sheets() -> None:
    tournament = finished(ClubFactory())
    table = first_table(tournament)
    entry = Entry.objects.get(table=table, number=1)
    session = table.session
    seated = [seat.member for seat in table.seats.all()]
    writes: dict[str, Callable[[], object]] = {
        "append": lambda: scoring_services.entry_append(table=table, data=entry.data, user=None),
        "append in bulk": lambda: scoring_services.entries_append(table=table, log=[entry.data], user=None),
        "correct": lambda: scoring_services.entry_correct(
            entry=entry, data=dict(entry.data, augen=40), user=None, reason="verschrieben"
        ),
        "delete": lambda: scoring_services.entry_delete(entry=entry, user=None, reason="doppelt"),
        "undo": lambda: scoring_services.entry_undo_last(table=table, user=None),
        "reopen the evening": lambda: scoring_services.session_reopen(session=session, user=None),
        "close the evening": lambda: scoring_services.session_close(session=session, user=None),
        "start a table": lambda: scoring_services.table_start(session=session, members=seated, user=None),
    }
    ledger = list(LedgerEntry.objects.filter(table=table).values_list("member", "amount"))
    audits = AuditEntry.objects.count()
    for name, write in writes.items():
        with pytest.raises(ValidationError) as refused:
            write()
        assert refused.value.messages[0].startswith(FINISHED), name
    session.refresh_from_db()
    assert session.is_closed and session.tables.count() == 2
    assert list(Entry.objects.filter(table=table).values_list("data", flat=True)) == [entry.data]
    assert list(LedgerEntry.objects.filter(table=table).values_list("member", "amount")) == ledger
    assert AuditEntry.objects.count() == audits


def test_a_finished_championship_refuses_stechen_korrekturen_and_participants() -> None:
    tournament = finished(ClubFactory())
    playoff = make_playoff(tournament)  # as if recorded before finishing
    adjustment = Adjustment.objects.create(tournament=tournament, points=2, reason="verschrieben")
    members = [p.member for p in tournament.participants.select_related("member")]
    writes: dict[str, Callable[[], object]] = {
        "playoff add": lambda: services.playoff_record(
            tournament=tournament, players=members[:2], winner=members[0], user=None
        ),
        "playoff delete": lambda: services.playoff_delete(playoff=playoff, user=None),
        "adjustment add": lambda: services.adjustment_record(
            tournament=tournament, players=members[:1], points=3, reason="verschrieben", user=None
        ),
        "adjustment delete": lambda: services.adjustment_delete(adjustment=adjustment, user=None),
        "participants": lambda: services.participants_set(tournament=tournament, members=members[:4], user=None),
    }
    for name, write in writes.items():
        with pytest.raises(ValidationError) as refused:
            write()
        assert refused.value.messages[0].startswith(FINISHED), name
    assert list(Playoff.objects.filter(tournament=tournament)) == [playoff]
    assert list(Adjustment.objects.filter(tournament=tournament)) == [adjustment]
    assert Participant.objects.filter(tournament=tournament).count() == 8
    assert Tournament.objects.get(pk=tournament.pk).status == Status.FINISHED


def test_reopening_needs_a_reason_and_is_logged() -> None:
    tournament = finished(ClubFactory())
    for reason in ("", "   ", "x" * 201):
        with pytest.raises(ValidationError) as refused:
            services.tournament_reopen(tournament=tournament, reason=reason, user=None)
        assert "reason" in refused.value.error_dict
    assert Tournament.objects.get(pk=tournament.pk).status == Status.FINISHED
    assert not Event.objects.filter(kind=Event.Kind.REOPENED).exists()
    services.tournament_reopen(tournament=tournament, reason=" Spiel 1 an Tisch 1 verschrieben ", user=None)
    event = Event.objects.get(tournament=tournament, kind=Event.Kind.REOPENED)
    assert event.reason == "Spiel 1 an Tisch 1 verschrieben"
    assert not first_table(tournament).session.is_closed  # the evening is open again for the correction
    assert [note.reason for note in selectors.reopen_notes(tournament)] == [event.reason]
    assert selectors.reopen_notes(tournament)[0].moved is None  # not finished again yet


def test_finishing_again_records_the_places_that_moved() -> None:
    tournament = finished(ClubFactory())
    first = Event.objects.get(tournament=tournament, kind=Event.Kind.FINISHED)
    assert "moved" not in first.data and len(first.data["places"]) == 8
    table = first_table(tournament)
    a = names(table)
    services.tournament_reopen(tournament=tournament, reason="Spiel 1 verschrieben", user=None)
    entry = Entry.objects.get(table=table, number=1)
    # The Rufspiel was lost (40 Augen): its two winners (2nd, shared) and the two others swap.
    scoring_services.entry_correct(entry=entry, data=dict(entry.data, augen=40), user=None, reason="verschrieben")
    before = {row["name"]: row["place"] for row in first.data["places"]}
    services.tournament_finish(tournament=tournament, user=None)
    moved = Event.objects.filter(kind=Event.Kind.FINISHED).latest("id").data["moved"]
    after = {row.member.display_name: row.placing.place for row in selectors.tournament_ranking(tournament).rows}
    assert {m["name"] for m in moved} == {name for name in before if before[name] != after[name]} >= set(a)
    assert all(m["from"] == before[m["name"]] and m["to"] == after[m["name"]] for m in moved)
    assert [str(move) for move in selectors.finish_moves(tournament)] == [
        f"{m['name']} {m['from']} → {m['to']}" for m in moved
    ]
    # Reopened and finished once more without a change: "keine Änderung".
    services.tournament_reopen(tournament=tournament, reason="nur nachgesehen", user=None)
    services.tournament_finish(tournament=tournament, user=None)
    assert selectors.finish_moves(tournament) == ()
    assert [note.moved == () for note in selectors.reopen_notes(tournament)] == [False, True]


def url(name: str, tournament: Tournament, **kwargs: object) -> str:
    return reverse(f"tournaments:{name}", kwargs={"slug": "test", "tournament_id": tournament.pk, **kwargs})


def test_the_owner_reopens_with_a_reason_and_the_ranking_trophies_and_pdf_say_so(
    world: World, client_as: Callable[[str], Client]
) -> None:
    tournament = finished(world.club)
    owner = client_as("owner")
    table = first_table(tournament)
    # While finished: the sheets and the ranking say why nothing changes, and how to go on.
    page = owner.get(table.get_absolute_url()).content.decode()
    assert FINISHED in page
    page = owner.get(table.session.get_absolute_url()).content.decode()
    assert FINISHED in page and "Abend wieder öffnen" not in page
    ids = {"session_id": table.session_id, "table_id": table.pk, "entry_id": table.entries.get(number=1).pk}
    edit = reverse("scoring:entry_edit", kwargs={"slug": "test", **ids})
    page = owner.get(edit).content.decode()
    assert FINISHED in page and "löschen" not in page.lower().split("</h2>", 1)[1]
    page = owner.get(url("ranking", tournament)).content.decode()
    assert "Korrektur eintragen" not in page and url("reopen", tournament) in page
    response = owner.post(reverse("scoring:session_reopen", kwargs={"slug": "test", "session_id": table.session_id}))
    assert response.status_code == 302 and Session.objects.get(pk=table.session_id).is_closed

    # The reason is required, at its field; the tick too.
    page = owner.post(url("reopen", tournament), {"reason": " ", "confirm": "on"}).content.decode()
    assert "Dieses Feld ist zwingend erforderlich." in page
    assert Tournament.objects.get(pk=tournament.pk).status == Status.FINISHED
    response = owner.post(url("reopen", tournament), {"reason": "Spiel 1 an Tisch 1 verschrieben", "confirm": "on"})
    assert response.status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).status == Status.RUNNING
    entry = Entry.objects.get(table=table, number=1)
    scoring_services.entry_correct(entry=entry, data=dict(entry.data, augen=40), user=None, reason="verschrieben")
    page = owner.post(url("finish", tournament), {"confirm": "on"}, follow=True).content.decode()
    assert "Gegenüber dem letzten Abschluss: Platz geändert: " in page

    today = timezone.localdate().strftime("%d.%m.%Y")
    note = f"wieder geöffnet am {today} von test-owner: Spiel 1 an Tisch 1 verschrieben · erneut abgeschlossen: "
    note += "Platz geändert: "
    assert note in owner.get(url("ranking", tournament)).content.decode()
    assert note in owner.get(reverse("tournaments:trophies", kwargs={"slug": "test"})).content.decode()
    pdf = PdfReader(io.BytesIO(owner.get(url("ranking_pdf", tournament)).content))
    text = " ".join(pdf.pages[0].extract_text().split())
    assert f"wieder geöffnet am {today} von test-owner: Spiel 1 an Tisch 1 verschrieben" in text


def test_deleting_a_stechen_asks_first_and_only_the_post_deletes(
    world: World, client_as: Callable[[str], Client]
) -> None:
    tournament = make_tournament(world.club)
    playoff = make_playoff(tournament)
    owner = client_as("owner")
    ranking = owner.get(url("ranking", tournament)).content.decode()
    delete = url("playoff_delete", tournament, playoff_id=playoff.pk)
    assert f'href="{delete}"' in ranking  # a link to the question, no one-tap form
    page = owner.get(delete).content.decode()
    players = ", ".join(sorted(p.display_name for p in playoff.players.all()))
    assert f"Stechen {players}, gewonnen von {playoff.winner.display_name} löschen?" in page
    assert 'method="post"' in page
    assert Playoff.objects.filter(pk=playoff.pk).exists()
    response = owner.post(delete)
    assert response.status_code == 302 and response.url == url("ranking", tournament)
    assert not Playoff.objects.filter(pk=playoff.pk).exists()


def test_a_finished_championships_stechen_is_not_deleted_from_the_page(
    world: World, client_as: Callable[[str], Client]
) -> None:
    tournament = finished(world.club)
    playoff = make_playoff(tournament)
    owner = client_as("owner")
    delete = url("playoff_delete", tournament, playoff_id=playoff.pk)
    assert delete not in owner.get(url("ranking", tournament)).content.decode()
    page = owner.get(delete).content.decode()
    assert FINISHED in page and '<button type="submit">Löschen</button>' not in page
    page = owner.post(delete, follow=True).content.decode()
    assert FINISHED in page and Playoff.objects.filter(pk=playoff.pk).exists()
