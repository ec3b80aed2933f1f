"""The desk of an open tournament (issue 31 §2, §3): a registration sent twice is stored once,
the same name and Wohnort is asked about, registrations are corrected and removed, start numbers
typed by hand, and the search folds ß and umlauts."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from clubs.models import Club
from opentournaments import selectors, services
from opentournaments.models import OpenTournament
from tests.factories import ClubFactory, MemberFactory, World, make_open_tournament, open_round_played

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> Club:
    return ClubFactory()


def url(name: str, tournament: OpenTournament, **kwargs: object) -> str:
    return reverse(f"opentournaments:{name}", kwargs={"slug": tournament.club.slug, "open_id": tournament.pk, **kwargs})


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("weiss", "Weiß"),
        ("WEISS", "Weiß"),
        ("Mueller", "Müller"),
        ("Muller", "Müller"),
        ("müller", "Mueller"),
        ("Goesswein", "Gößwein"),
        ("Bruendl", "Bründl"),
        ("Rene", "René"),
    ],
)
def test_fold_makes_the_spellings_of_a_name_meet(query: str, name: str) -> None:
    assert selectors.fold(query) in selectors.fold(f"Xaver {name}")


def test_a_registration_sent_twice_with_its_key_is_stored_once(club: Club) -> None:
    tournament = make_open_tournament(club, players=0)
    first = services.registration_create(
        tournament=tournament, name="Xaver Bründl", residence="Dorfen", paid=True, key="k1", user=None
    )
    again = services.registration_create(
        tournament=tournament, name="Xaver Bründl", residence="Dorfen", paid=True, key="k1", user=None
    )
    assert again.pk == first.pk and first.start_number == 1
    assert selectors.kasse(tournament).total_cents == 1500


def test_the_same_name_and_wohnort_is_asked_about_before_a_second_registration(club: Club) -> None:
    tournament = make_open_tournament(club, players=0)
    services.registration_create(tournament=tournament, name="Xaver Bründl", residence="Dorfen", user=None)
    with pytest.raises(services.PossibleDuplicate) as asked:
        services.registration_create(tournament=tournament, name="xaver bruendl", residence="Dorfen ", user=None)
    assert "schon angemeldet als Nr. 1" in asked.value.message
    second = services.registration_create(
        tournament=tournament, name="Xaver Bründl", residence="Dorfen", again=True, user=None
    )
    assert second.start_number == 2
    other = services.registration_create(tournament=tournament, name="Xaver Bründl", residence="Erding", user=None)
    assert other.start_number == 3  # another Wohnort: another man


def test_start_numbers_typed_by_hand_are_bounded_and_unique(club: Club) -> None:
    tournament = make_open_tournament(club, players=2)
    card = services.registration_create(tournament=tournament, name="Karte", start_number=17, user=None)
    assert card.start_number == 17
    for number in (0, 10_000, 17):
        with pytest.raises(ValidationError) as error:
            services.registration_create(tournament=tournament, name=f"N{number}", start_number=number, user=None)
        assert "start_number" in error.value.message_dict
    assert selectors.next_start_number(tournament) == 18


def test_a_registration_is_corrected_and_removed_before_its_first_draw_without_reuse(club: Club) -> None:
    tournament = make_open_tournament(club, players=9)
    ninth = tournament.registrations.get(start_number=9)
    services.registration_update(registration=ninth, name="Gast Neun", residence="Dorfen", paid=True, user=None)
    ninth.refresh_from_db()
    assert (ninth.name, ninth.residence, ninth.paid) == ("Gast Neun", "Dorfen", True)
    services.registration_remove(registration=ninth, user=None)
    assert services.registration_create(tournament=tournament, name="Neu", user=None).start_number == 10
    round1 = services.round_draw(tournament=tournament, seed=1, user=None)
    seated = tournament.registrations.get(start_number=1)
    with pytest.raises(ValidationError):
        services.registration_remove(registration=seated, user=None)
    late = services.registration_create(tournament=tournament, name="Spät", user=None)
    services.registration_remove(registration=late, user=None)  # not drawn yet: removable
    open_round_played(round1)
    services.registration_update(registration=seated, name="Anderl", residence="Kempten", paid=False, user=None)
    assert selectors.open_ranking(tournament).rows[0].name in {r.name for r in tournament.registrations.all()}
    assert selectors.next_start_number(tournament) == 12


def test_the_desk_search_says_who_is_registered_and_finds_umlauts(club: Club) -> None:
    earlier = make_open_tournament(club, players=0)
    services.registration_create(tournament=earlier, name="Monika Weiß", residence="Übersee", user=None)
    MemberFactory(club=club, display_name="Sepp Müller")
    tournament = make_open_tournament(club, players=0)
    services.registration_create(tournament=tournament, name="Franz Müller", residence="Dorfen", user=None)
    found = selectors.desk_search(tournament, "weiss")
    assert [g.name for g in found.guests] == ["Monika Weiß"] and found.registered == []
    assert [g.name for g in selectors.desk_search(tournament, "uebersee").guests] == ["Monika Weiß"]
    found = selectors.desk_search(tournament, "Muller")
    assert [(r.number, r.name) for r in found.registered] == [(1, "Franz Müller")]
    assert [g.name for g in found.guests] == ["Sepp Müller"]
    assert selectors.desk_search(tournament, "m") == selectors.DeskSearch([], [])


def test_the_desk_page_stores_a_double_enter_once_and_asks_about_a_duplicate(client_as, world: World) -> None:
    tournament = make_open_tournament(world.club, players=0)
    client = client_as("scorer")
    page = client.get(url("desk", tournament)).content.decode()
    key = page.split('name="key" value="')[1].split('"')[0]
    data = {"name": "Xaver Bründl", "residence": "Dorfen", "paid": "on", "key": key}
    assert client.post(url("desk", tournament), data).status_code == 302
    assert client.post(url("desk", tournament), data).status_code == 302
    assert tournament.registrations.count() == 1
    data["key"] = "another"
    page = client.post(url("desk", tournament), data).content.decode()
    assert "schon angemeldet als Nr. 1" in page and tournament.registrations.count() == 1
    client.post(url("desk", tournament), {**data, "again": "1"})
    assert tournament.registrations.count() == 2
    page = client.get(url("desk", tournament), {"q": "bruendl"}).content.decode()
    assert "schon angemeldet als Nr. 1" in page and "Niemand passt" not in page


def test_the_desk_offers_no_registration_after_the_last_draw(client_as, world: World) -> None:
    tournament = make_open_tournament(world.club, players=8, rounds=1)
    services.round_draw(tournament=tournament, seed=1, user=None)
    page = client_as("scorer").get(url("desk", tournament)).content.decode()
    assert "Nachmeldung ist nicht mehr möglich" in page and 'class="register"' not in page


def test_a_registration_is_corrected_and_removed_on_its_page(client_as, world: World) -> None:
    tournament = make_open_tournament(world.club, players=3)
    third = tournament.registrations.get(start_number=3)
    client = client_as("scorer")
    assert "entfernen" in client.get(url("registration", tournament, registration_id=third.pk)).content.decode()
    response = client.post(
        url("registration", tournament, registration_id=third.pk),
        {"name": "Gast Drei", "residence": "Dorfen", "back": "desk"},
    )
    assert response.url == url("desk", tournament)
    third.refresh_from_db()
    assert (third.residence, third.paid) == ("Dorfen", False)
    client.post(url("remove", tournament, registration_id=third.pk))
    assert list(tournament.registrations.values_list("start_number", flat=True)) == [1, 2]


def test_a_removed_registration_sent_again_or_opened_by_back_is_no_404(client_as, world: World) -> None:
    """The remove form resent (a double click, the browser's resend), Back to the removed one's
    page, or the other desk laptop still correcting him: back to the page with a word, no 404."""
    tournament = make_open_tournament(world.club, players=3)
    third = tournament.registrations.get(start_number=3)
    client = client_as("scorer")
    remove = url("remove", tournament, registration_id=third.pk)
    assert client.post(remove, {"back": "desk"}).url == url("desk", tournament)
    again = client.post(remove, {"back": "desk"}, follow=True)
    assert again.status_code == 200 and "schon entfernt" in again.content.decode()
    page = client.get(url("registration", tournament, registration_id=third.pk) + "?back=desk", follow=True)
    assert page.redirect_chain[-1][0] == url("desk", tournament) and "schon entfernt" in page.content.decode()
    edit = client.post(url("registration", tournament, registration_id=third.pk), {"name": "Gast Drei"})
    assert edit.status_code == 302
    for name in ("paid", "withdraw"):
        assert client.post(url(name, tournament, registration_id=third.pk), {"paid": "1"}).status_code == 302
    assert list(tournament.registrations.values_list("start_number", flat=True)) == [1, 2]
    services.registration_remove(registration=third, user=None)  # the second of two at once: nothing to do


def test_abmelden_sent_twice_is_one_withdrawal_and_no_error(client_as, world: World) -> None:
    """A double click on "abmelden" (or on its undo): the second finds it done and says nothing
    (it used to answer with a red "schon abgemeldet" after the first had worked)."""
    tournament = make_open_tournament(world.club, players=8)
    third = tournament.registrations.get(start_number=3)
    client = client_as("scorer")
    withdraw = url("withdraw", tournament, registration_id=third.pk)
    client.post(withdraw)
    page = client.post(withdraw, follow=True).content.decode()
    assert "schon abgemeldet" not in page
    third.refresh_from_db()
    assert third.withdrawn_before == 1
    client.post(withdraw, {"undo": "1"})
    assert "nicht abgemeldet" not in client.post(withdraw, {"undo": "1"}, follow=True).content.decode()
    third.refresh_from_db()
    assert third.withdrawn_before is None


def test_zuletzt_angemeldet_lists_the_last_registered_first_whatever_their_numbers(client_as, world: World) -> None:
    """Pre-printed cards come to the desk in any order: the registration just made is on top of
    "Zuletzt angemeldet", not pushed out of its eight rows by higher numbers typed before."""
    tournament = make_open_tournament(world.club, players=0)
    client = client_as("scorer")
    for number in (40, 31, 22, 18, 17, 16, 15, 14, 13, 3):
        data = {"name": f"Karte {number}.", "residence": "Dorfen", "start_number": number}
        client.post(url("desk", tournament), data)
    page = client.get(url("desk", tournament)).content.decode()
    latest = page.split("Zuletzt angemeldet")[1]
    assert "Karte 3." in latest and latest.index("Karte 3.") < latest.index("Karte 13.") < latest.index("Karte 14.")
