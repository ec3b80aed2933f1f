"""Issue 24 §6: the public tournament link (no login, this tournament only, nothing private), its
QR code on the overview and the seating list, and the Großbild's data (its layout in the browser:
tests/e2e/test_open_room.py)."""

from __future__ import annotations

from unittest.mock import patch

import pytest
import segno
from django.test import Client
from django.urls import reverse

from opentournaments import links, selectors, services, views
from opentournaments.models import OpenTournament
from tests.factories import World, make_open_tournament, open_round_played

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(world: World) -> OpenTournament:
    """Nine guests, one of them Vroni Brandl with start number 10; round 1 played, round 2 drawn."""
    tournament = make_open_tournament(world.club, players=9)
    services.registration_create(tournament=tournament, name="Vroni Brandl", residence="Kempten", user=None)
    open_round_played(services.round_draw(tournament=tournament, seed=1, user=None))
    services.round_draw(tournament=tournament, seed=2, user=None)
    return tournament


def public(tournament: OpenTournament) -> str:
    return links.public_path(tournament)


def test_a_player_finds_his_table_seat_and_place_without_a_login(tournament: OpenTournament) -> None:
    page = Client().get(public(tournament), {"q": "vroni"})
    assert page.status_code == 200
    html = page.content.decode()
    table = next(t for t in tournament.round_set.get(number=2).tables.all() if 10 in t.seats)
    seat = table.seats.index(10) + 1
    row = next(r for r in selectors.open_ranking(tournament).rows if r.number == 10)
    assert f"<strong>Tisch {table.number}</strong>, Platz {seat}" in html
    assert f"<strong>{row.place}. Platz</strong> mit {row.points} Punkten" in html
    # By start number too, and the list links each name to the search by number.
    assert "Vroni Brandl" in Client().get(public(tournament), {"q": "10"}).content.decode()
    assert 'href="?q=10#treffer"' in html


def test_a_wrong_token_or_another_clubs_slug_is_not_found(tournament: OpenTournament, world: World) -> None:
    client = Client()
    slug, token = tournament.club.slug, tournament.public_token
    assert (
        client.get(reverse("opentournaments:public", kwargs={"club_slug": slug, "token": token[:-1] + "x"})).status_code
        == 404
    )
    assert (
        client.get(
            reverse("opentournaments:public", kwargs={"club_slug": world.other_club.slug, "token": token})
        ).status_code
        == 404
    )
    assert client.post(public(tournament)).status_code == 405  # read-only


def test_the_public_page_shows_this_tournament_only_and_nothing_private(
    tournament: OpenTournament, world: World
) -> None:
    other = make_open_tournament(world.club, players=4)
    other.name = "Sommerturnier"
    other.save()
    html = Client().get(public(tournament), {"q": "Gast"}).content.decode()
    assert "Sommerturnier" not in html
    assert "Kempten" not in html  # the Wohnort stays at the desk
    for private in ("bezahlt", "Startgeld", "kassieren", "/clubs/", "Mitglied", "Abmelden"):
        assert private not in html, private
    assert 'name="robots" content="noindex' in html


def test_the_qr_code_carries_the_absolute_link(
    tournament: OpenTournament, client_as, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = "http://testserver" + public(tournament)
    assert links.qr_svg(url) == segno.make_qr(url, error="m").svg_inline(scale=1, border=4, omitsize=True, light="#fff")
    overview = client_as("scorer").get(tournament.get_absolute_url()).content.decode()
    assert f'value="{url}"' in overview and "Link kopieren" in overview
    assert links.qr_svg(url) in overview
    assert "Link kopieren" not in client_as("member").get(tournament.get_absolute_url()).content.decode()
    # The seating list prints it: the code is made from the absolute link of the request.
    given = []
    make = links.qr_svg
    monkeypatch.setattr(views.links, "qr_svg", lambda link: given.append(link) or make(link))
    response = client_as("member").get(
        reverse(
            "opentournaments:round_pdf",
            kwargs={"slug": tournament.club.slug, "open_id": tournament.pk, "round_number": 2},
        )
    )
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
    assert given == [url]


def test_the_big_screen_lists_every_player_in_either_mode(tournament: OpenTournament, client_as) -> None:
    client = client_as("member")
    kwargs = {"slug": tournament.club.slug, "open_id": tournament.pk}
    ranking = client.get(reverse("opentournaments:room", kwargs=kwargs), {"turn": "2"}).content.decode()
    assert ranking.count("data-number=") == 10  # every player
    assert 'data-turn="2"' in ranking and "R1" in ranking and "R2" in ranking
    seating = client.get(reverse("opentournaments:room_seating", kwargs=kwargs), HTTP_HX_REQUEST="true")
    html = seating.content.decode()
    assert "<html" not in html  # htmx gets the board alone
    assert html.count("data-number=") == 10 and "Runde 2: wer sitzt wo" in html
    slow = client.get(reverse("opentournaments:room", kwargs=kwargs), {"turn": "100000"}).content.decode()
    assert 'data-turn="12"' in slow


def test_a_leaked_link_is_replaced_by_a_new_one_and_the_old_one_shows_nothing(
    tournament: OpenTournament, client_as
) -> None:
    old = public(tournament)
    renew = reverse("opentournaments:public_renew", kwargs={"slug": tournament.club.slug, "open_id": tournament.pk})
    assert client_as("scorer").post(renew).status_code == 403  # hands the link out, does not change it
    assert client_as("owner").get(renew).status_code == 405
    response = client_as("owner").post(renew, follow=True)
    assert "Der öffentliche Link ist neu" in response.content.decode()
    tournament.refresh_from_db()
    assert public(tournament) != old
    assert Client().get(old).status_code == 404
    assert Client().get(public(tournament)).status_code == 200
    assert public(tournament) in response.content.decode()  # the overview shows the new link


def test_head_is_answered_like_get_and_one_address_is_slowed_down(tournament: OpenTournament, settings) -> None:
    """Issue 31 §9: HEAD as GET (no 405); from one address at most ``PUBLIC_RATE`` a minute, then
    429 with a wait (django-ratelimit), while another address and another tournament go on. Behind
    the proxy the address is the last one of X-Forwarded-For (config/proxy.py)."""
    limit = int(views.PUBLIC_RATE.split("/")[0])
    head = Client().head(public(tournament))
    assert head.status_code == 200 and head["Content-Type"].startswith("text/html")
    phone = Client(REMOTE_ADDR="192.168.1.23")
    # One minute's window throughout (the counts start anew in the next one).
    with patch("django_ratelimit.core.time.time", return_value=1_800_000_000.0):
        assert all(phone.get(public(tournament)).status_code == 200 for _ in range(limit))
        refused = phone.get(public(tournament), {"q": "vroni"})
        assert refused.status_code == 429 and refused["Retry-After"] == "60"
        assert "Bitte kurz warten" in refused.content.decode() and "Vroni" not in refused.content.decode()
        assert Client(REMOTE_ADDR="192.168.1.24").get(public(tournament)).status_code == 200
        other = make_open_tournament(tournament.club, players=4)
        assert phone.get(public(other)).status_code == 200
        assert phone.get(f"/o/{tournament.club.slug}/{'x' * 32}/").status_code == 404  # a wrong token counts apart
        settings.BEHIND_PROXY = True
        proxied = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="10.0.0.1, 192.168.1.23")
        assert proxied.get(public(tournament)).status_code == 429  # the proxy saw the same phone
        spoofed = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="192.168.1.23, 10.9.9.9")
        assert spoofed.get(public(tournament)).status_code == 200
