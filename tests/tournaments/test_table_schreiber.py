"""Issue 20, items 3 and 5: at a championship each table is written by its Schreiber's login
(assigned by the Vorstand, else the first scorer to save there) and the Vorstand; another scorer
gets 403 with the name of who may, on the pages and in the phone's sending. The seat order drawn
per Partie is shown on the plan, and a table starts with the first dealer it chose."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from clubs.models import Member, Role
from offline.logins import login_id
from scoring import selectors as scoring_selectors
from scoring import services as scoring_services
from scoring.forms.entry import EntryContext
from scoring.forms.hand import HandForm
from scoring.models import Entry, Table
from tests.factories import ClubFactory, MemberFactory, MembershipFactory, World, make_tournament
from tournaments import services
from tournaments.models import Event, PartieTable, Tournament
from tournaments.views import sheet_rows

pytestmark = pytest.mark.django_db
REFUSED = "Diesen Tisch schreibt Hias (Login „hias“). Nur er und der Vorstand können hier eintragen"


@pytest.fixture
def hias(world: World) -> AbstractBaseUser:
    """A second scorer login, the player Hias."""
    user = MembershipFactory(club=world.club, role=Role.SCORER, user__username="hias").user
    MemberFactory(club=world.club, display_name="Hias", user=user)
    return user


@pytest.fixture
def tournament(world: World) -> Tournament:
    return make_tournament(world.club)


def seats(table: Table) -> list[str]:
    return list(table.seats.order_by("position").values_list("name", flat=True))


def rufspiel(table: Table) -> dict[str, object]:
    names = seats(table)
    return {"game": "rufspiel", "declarer": names[1], "partner": names[2], "called": "eichel", "augen": 70, "deckel": 1}


def kwargs(table: Table) -> dict[str, object]:
    return {"slug": table.session.club.slug, "session_id": table.session_id, "table_id": table.pk}


def as_login(user: AbstractBaseUser) -> Client:
    client = Client()
    client.force_login(user)
    return client


def first_table(tournament: Tournament, index: int = 1) -> PartieTable:
    services.partie_start(tournament=tournament, index=index, seed=7, user=None)
    return PartieTable.objects.select_related("table__session__club").get(partie__tournament=tournament, number=1)


def test_the_first_scorer_to_save_claims_the_table_and_another_scorer_gets_403_with_his_name(
    world: World, tournament: Tournament, hias: AbstractBaseUser
) -> None:
    row = first_table(tournament)
    table, other = row.table, as_login(world.users["scorer"])
    scoring_services.entry_append(table=table, data=rufspiel(table), user=hias)
    assert PartieTable.objects.get(pk=row.pk).schreiber_login == hias

    # Every way to change the table refuses the other scorer, with the name of who may.
    entry = Entry.objects.get(table=table)
    posts = [
        reverse("scoring:entry_add", kwargs=kwargs(table)),
        reverse("scoring:event_add", kwargs=kwargs(table)),
        reverse("scoring:entry_undo", kwargs=kwargs(table)),
        reverse("scoring:table_first_dealer", kwargs=kwargs(table)),
        reverse("scoring:entry_delete", kwargs={**kwargs(table), "entry_id": entry.pk}),
    ]
    for url in posts:
        response = other.post(url, {"reason": "x", "delete-reason": "x"})
        assert response.status_code == 403, url
        assert REFUSED in response.content.decode()
    edit = other.get(reverse("scoring:entry_edit", kwargs={**kwargs(table), "entry_id": entry.pk}))
    assert edit.status_code == 403
    with pytest.raises(PermissionDenied, match="Diesen Tisch schreibt Hias"):
        scoring_services.entry_correct(entry=entry, data=rufspiel(table), user=world.users["scorer"], reason="x")
    assert Entry.objects.filter(table=table).count() == 1

    # He still reads the table: its page without the form, saying who writes it.
    page = other.get(table.get_absolute_url()).content.decode()
    assert REFUSED in page and 'id="entry-form"' not in page
    # The claimer writes on; so does the Vorstand, who claims nothing.
    assert 'id="entry-form"' in as_login(hias).get(table.get_absolute_url()).content.decode()
    scoring_services.entry_append(table=table, data=rufspiel(table), user=hias)
    scoring_services.entry_append(table=table, data=rufspiel(table), user=world.users["owner"])
    assert Entry.objects.filter(table=table).count() == 3
    assert PartieTable.objects.get(pk=row.pk).schreiber_login == hias


def test_the_vorstand_writes_anywhere_and_claims_no_table(world: World, tournament: Tournament) -> None:
    row = first_table(tournament)
    scoring_services.entry_append(table=row.table, data=rufspiel(row.table), user=world.users["owner"])
    assert PartieTable.objects.get(pk=row.pk).schreiber_login is None
    scoring_services.entry_append(table=row.table, data=rufspiel(row.table), user=world.users["scorer"])
    assert PartieTable.objects.get(pk=row.pk).schreiber_login == world.users["scorer"]


def test_the_vorstand_assigns_the_schreiber_on_the_partie_page_and_it_is_logged(
    world: World, tournament: Tournament, hias: AbstractBaseUser
) -> None:
    row = first_table(tournament)
    scoring_services.entry_append(table=row.table, data=rufspiel(row.table), user=world.users["scorer"])
    url = reverse(
        "tournaments:partie_schreiber",
        kwargs={"slug": "test", "tournament_id": tournament.pk, "partie_index": 1, "table_number": 1},
    )
    assert as_login(world.users["scorer"]).post(url, {"t1-login": hias.pk}).status_code == 403  # Vorstand only
    owner = as_login(world.users["owner"])
    page = owner.get(
        reverse("tournaments:partie", kwargs={"slug": "test", "tournament_id": tournament.pk, "partie_index": 1})
    )
    assert "Hias (hias)" in page.content.decode()  # the scorer logins to choose from, by player
    owner.post(url, {"t1-login": hias.pk})
    assert PartieTable.objects.get(pk=row.pk).schreiber_login == hias
    event = Event.objects.get(tournament=tournament, kind=Event.Kind.SCHREIBER)
    assert (event.partie, event.data, event.by) == (1, {"table": 1, "login": "hias"}, world.users["owner"])
    # Now the assigned login writes; the one that started is refused.
    scoring_services.entry_append(table=row.table, data=rufspiel(row.table), user=hias)
    with pytest.raises(PermissionDenied, match="Diesen Tisch schreibt Hias"):
        scoring_services.entry_undo_last(table=row.table, user=world.users["scorer"])
    # Only scorer logins can be assigned (a plain member's login is not among the choices).
    owner.post(url, {"t1-login": world.users["member"].pk})
    assert PartieTable.objects.get(pk=row.pk).schreiber_login == hias


def test_outside_championships_any_scorer_writes_any_table(world: World, hias: AbstractBaseUser) -> None:
    session = scoring_services.session_create(club=world.club, date="2026-11-20", user=None)
    members = list(Member.objects.filter(club=world.club).exclude(display_name="Hias")[:4])
    table = scoring_services.table_start(session=session, members=members, rules="allgaeu", user=None)
    scoring_services.entry_append(table=table, data=rufspiel(table), user=hias)
    scoring_services.entry_append(table=table, data=rufspiel(table), user=world.users["scorer"])
    scoring_services.entry_undo_last(table=table, user=world.users["scorer"])
    page = as_login(world.users["scorer"]).get(table.get_absolute_url()).content.decode()
    assert 'id="entry-form"' in page and "Diesen Tisch schreibt" not in page


def test_the_phone_of_another_scorer_is_refused_with_403_and_the_name(
    world: World, tournament: Tournament, hias: AbstractBaseUser
) -> None:
    table = first_table(tournament).table
    scoring_services.entry_append(table=table, data=rufspiel(table), user=hias)
    scorer = world.users["scorer"]
    client = as_login(scorer)
    data = client.get(reverse("offline:table_data", kwargs=kwargs(table))).json()
    assert data["can_write"] is False
    names = seats(table)
    post = {"game": "rufspiel", "declarer": names[1], "partner": names[2], "called": "eichel", "augen": "72"}
    post |= {"kontra": "0", "deckel": "1", "expected_number": "2", "idempotency_key": "k" * 32, "in_turn": "1"}
    response = client.post(reverse("offline:entry_send", kwargs=kwargs(table)), {**post, "login": login_id(scorer)})
    assert response.status_code == 403
    assert response.json()["status"] == "refused" and REFUSED in response.json()["errors"]["__all__"][0]
    assert Entry.objects.filter(table=table).count() == 1
    # The Schreiber's own phone sends.
    mine = as_login(hias).post(reverse("offline:entry_send", kwargs=kwargs(table)), {**post, "login": login_id(hias)})
    assert mine.json()["status"] == "stored", mine.json()


# --- the first dealer and the seat order (item 5) ------------------------------------------------


def test_the_first_dealer_chosen_deals_hand_1_and_the_deal_and_who_sits_out_go_round_from_him(
    world: World,
) -> None:
    tournament = make_tournament(ClubFactory(), players=5)
    row = first_table(tournament)
    table = row.table
    names = seats(table)
    assert names[0] == row.schreiber.display_name  # the Schreiber sits first and deals by default
    scoring_services.table_first_dealer_set(table=table, member=Member.objects.get(display_name=names[3]), user=None)
    state = scoring_selectors.table_state(table).state
    assert (state.dealer, state.sitting_out) == (names[3], (names[3],))  # at five the dealer sits out
    for _ in range(3):
        scoring_services.entry_append(table=table, data=rufspiel_without(table, state.sitting_out), user=None)
        state = scoring_selectors.table_state(table).state
    assert list(Entry.objects.filter(table=table).values_list("dealer", flat=True)) == [names[3], names[4], names[0]]
    assert state.dealer == names[1]
    # Once a hand is on the sheet, the first dealer stays (a hand names another dealer itself).
    with pytest.raises(Exception, match="nur vor dem ersten Eintrag"):
        scoring_services.table_first_dealer_set(
            table=table, member=Member.objects.get(display_name=names[0]), user=None
        )


def rufspiel_without(table: Table, out: tuple[str, ...]) -> dict[str, object]:
    playing = [name for name in seats(table) if name not in out]
    return {
        "game": "rufspiel",
        "declarer": playing[0],
        "partner": playing[1],
        "called": "eichel",
        "augen": 70,
        "deckel": 1,
    }


def test_the_table_page_asks_who_deals_first_before_the_first_hand_only(world: World, tournament: Tournament) -> None:
    table = first_table(tournament).table
    names = seats(table)
    client = as_login(world.users["scorer"])
    assert "Wer gibt zuerst?" in client.get(table.get_absolute_url()).content.decode()
    third = Member.objects.get(display_name=names[2])
    client.post(reverse("scoring:table_first_dealer", kwargs=kwargs(table)), {"member": third.pk})
    assert scoring_selectors.table_setup(table).first_dealer == names[2]
    # The claim comes with the first entry, not with the choice; the page names the seat order.
    page = client.get(table.get_absolute_url()).content.decode()
    assert f"Es gibt zuerst: {names[2]}" in page and " → ".join(names) in page
    scoring_services.entry_append(table=table, data=rufspiel(table), user=world.users["scorer"])
    assert "Wer gibt zuerst?" not in client.get(table.get_absolute_url()).content.decode()


def test_gegeben_hat_says_what_it_does_at_a_championship_table(tournament: Tournament) -> None:
    table = first_table(tournament).table
    setup = scoring_selectors.table_setup(table)
    form = HandForm(context=EntryContext(setup, scoring_selectors.table_state(table, setup).state, 1))
    help_text = str(form.fields["dealer"].help_text)
    assert "kein Bockspiel" in help_text and "§8.4" not in help_text


def test_the_plan_and_the_sheets_show_the_drawn_seat_order_and_the_first_dealer(
    world: World, tournament: Tournament
) -> None:
    row = first_table(tournament)
    names = seats(row.table)
    scoring_services.table_first_dealer_set(
        table=row.table, member=Member.objects.get(display_name=names[1]), user=None
    )
    client = as_login(world.users["member"])
    base = {"slug": "test", "tournament_id": tournament.pk}
    page = client.get(reverse("tournaments:plan", kwargs=base)).content.decode()
    assert f"{names[0]} <small>(Schreiber)</small>" in page and f"{names[1]} <small>(gibt zuerst)</small>" in page
    assert "die Sitzordnung wird beim Beginn der Partie gezogen" in page  # Partie 2, not begun

    def pdf_text(name: str, **extra: object) -> str:
        response = client.get(reverse(f"tournaments:{name}", kwargs={**base, **extra}))
        return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)

    plan = " ".join(pdf_text("plan_pdf").split())
    assert "S = Schreiber" in plan and "G = gibt zuerst" in plan
    sheets = " ".join(pdf_text("sheets_pdf", partie_index=1).split())
    assert " → ".join(names) in sheets and f"Es gibt zuerst: {names[1]}" in sheets


def test_the_blank_sheet_deals_round_from_the_first_dealer() -> None:
    rows = sheet_rows(5, 6, ["A", "B", "C", "D", "E"], first=3)
    assert [row["dealer"] for row in rows] == ["D", "E", "A", "B", "C", "D"]
    assert rows[0]["out"] == [False, False, False, True, False]
    six = sheet_rows(6, 2, ["A", "B", "C", "D", "E", "F"], first=0)
    assert six[0]["out"] == [True, False, False, False, False, True]  # the dealer and the Abheber
