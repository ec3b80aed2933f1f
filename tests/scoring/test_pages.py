"""The score-sheet pages: evenings, starting a table, entering a hand (errors at the field, in
German, nothing typed lost), the live preview, stale forms, corrections that say what changed,
undo, the audit trail, the club's rules, closing an evening and the Kasse."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from clubs.models import Club, Member
from scoring import selectors, services
from scoring.forms.evening import TableStartForm
from scoring.models import AuditEntry, ClubRules, Entry, KasseBooking, Session, Table
from tests.factories import World, rufspiel

pytestmark = pytest.mark.django_db

PLAYERS = ["Sepp Huber", "Zenzi Mayr", "Girgl Lechner", "Vroni Brandl"]


@pytest.fixture
def table(world: World) -> Table:
    session = services.session_create(club=world.club, date="2026-11-20", place="Krone", user=None)
    members = [Member.objects.get(club=world.club, display_name=name) for name in PLAYERS]
    return services.table_start(session=session, members=members, rules="allgaeu", user=None)


def url(name: str, table: Table, **extra: Any) -> str:
    kwargs = {"slug": table.session.club.slug, "session_id": table.session_id, "table_id": table.pk, **extra}
    return reverse(f"scoring:{name}", kwargs=kwargs)


def hand_post(table: Table, **fields: Any) -> dict[str, Any]:
    """What the phone form sends for a Rufspiel of the next hand (overridable field by field)."""
    seats = selectors.table_state(table).state.seats
    number = Entry.objects.filter(table=table).count() + 1
    data = {
        "game": "rufspiel",
        "declarer": seats[0],
        "partner": seats[1],
        "augen": "75",
        "deckel": "1",
        "kontra": "0",
        "dealer": selectors.table_state(table).state.dealer,
        "expected_number": str(number),
        "idempotency_key": f"key-{number}",
    }
    data.update(fields)
    return {key: value for key, value in data.items() if value is not None}


def test_a_scorer_creates_an_evening_and_starts_a_table(client_as: Any, world: World) -> None:
    client: Client = client_as("scorer")
    response = client.post(
        reverse("scoring:session_create", kwargs={"slug": "test"}), {"date": "2026-11-20", "place": "Krone"}
    )
    session = Session.objects.get(club=world.club)
    assert response.url == reverse("scoring:table_start", kwargs={"slug": "test", "session_id": session.pk})
    members = {m.display_name: m.pk for m in Member.objects.filter(club=world.club)}
    form = {
        "name": "Tisch 1",
        "preset": "allgaeu",
        "first_dealer": "1",
        **{f"seat_{i}": members[name] for i, name in enumerate(PLAYERS)},
    }
    response = client.post(response.url, form)
    table = Table.objects.get(session=session)
    assert response.url == table.get_absolute_url()
    assert list(table.seats.values_list("name", flat=True)) == PLAYERS
    assert selectors.table_setup(table).first_dealer == "Zenzi Mayr"


def test_a_table_with_too_few_players_or_a_gap_is_refused_in_german(client_as: Any, world: World) -> None:
    client = client_as("scorer")
    session = services.session_create(club=world.club, date="2026-11-20", user=None)
    members = {m.display_name: m.pk for m in Member.objects.filter(club=world.club)}
    path = reverse("scoring:table_start", kwargs={"slug": "test", "session_id": session.pk})
    three = {"name": "T", "preset": "allgaeu", "first_dealer": "0", "seat_0": members["Sepp Huber"]}
    three.update({"seat_1": members["Zenzi Mayr"], "seat_2": members["Girgl Lechner"]})
    response = client.post(path, three)
    assert "Am Tisch sitzen bei dieser Regel 4, 5 oder 6 Spieler, nicht 3." in response.content.decode()
    gap = {**three, "seat_2": "", "seat_3": members["Girgl Lechner"]}
    assert "ohne Lücke" in client.post(path, gap).content.decode()
    assert not Table.objects.exists()


def test_the_table_page_shows_state_form_and_sheet(client_as: Any, table: Table) -> None:
    services.entry_append(table=table, data=rufspiel(table, augen=60), user=None)
    page = client_as("member").get(table.get_absolute_url()).content.decode()
    assert "Es gibt: <strong>Zenzi Mayr</strong>" in page
    assert "Bockrunde" in page and "Deckel Pflicht" in page
    assert 'id="entry-1"' in page and "60 Augen" in page
    assert 'id="entry-form"' not in page  # members read, they do not write
    scorer_page = client_as("scorer").get(table.get_absolute_url()).content.decode()
    assert 'id="entry-form"' in scorer_page and "Nr. 2 speichern" in scorer_page


def test_saving_a_hand_with_htmx_returns_the_fresh_live_part(client_as: Any, table: Table) -> None:
    client = client_as("scorer")
    response = client.post(url("entry_add", table), hand_post(table), HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<div id="table-live">')
    assert "Nr. 1 gespeichert" in body and "Nr. 2 speichern" in body
    entry = Entry.objects.get(table=table)
    assert entry.created_by.username == "test-scorer" and entry.idempotency_key == "key-1"
    assert entry.data == {
        "game": "rufspiel",
        "declarer": "Zenzi Mayr",
        "partner": "Girgl Lechner",
        "augen": 75,
        "deckel": 1,
    }


def test_without_javascript_saving_redirects_to_the_form_for_the_next_hand(client_as: Any, table: Table) -> None:
    response = client_as("scorer").post(url("entry_add", table), hand_post(table))
    assert response.status_code == 302 and response.url.endswith("#entry-form")  # not the foot of the Liste


def test_an_error_is_shown_at_its_field_in_german_and_the_input_is_kept(client_as: Any, table: Table) -> None:
    client = client_as("scorer")
    response = client.post(url("entry_add", table), hand_post(table, deckel="0", augen="83"))
    body = response.content.decode()
    assert not Entry.objects.exists()
    error = re.search(r'id="error-deckel">(.*?)</div>', body, re.S)
    assert error and "Ohne Deckel wird ein Mungo gespielt" in error.group(1)
    assert 'value="83"' in body  # the Augen typed are still there
    assert re.search(r'value="rufspiel"[^>]*checked', body)


def test_a_django_field_error_is_german_too(client_as: Any, table: Table) -> None:
    body = client_as("scorer").post(url("entry_add", table), hand_post(table, augen="130")).content.decode()
    error = re.search(r'id="error-augen">(.*?)</div>', body, re.S)
    assert error and "kleiner oder gleich 120" in error.group(1)


def test_a_missing_partner_is_flagged_at_the_partner(client_as: Any, table: Table) -> None:
    body = client_as("scorer").post(url("entry_add", table), hand_post(table, partner=None)).content.decode()
    error = re.search(r'id="error-partner">(.*?)</div>', body, re.S)
    assert error and "Bitte angeben." in error.group(1)


def test_the_preview_shows_every_payout_and_the_lines(client_as: Any, table: Table) -> None:
    response = client_as("scorer").post(url("entry_preview", table), hand_post(table))
    body = response.content.decode()
    assert "+0,20" in body and "-0,20" in body  # 10 + Deckel ×2, each side
    assert "Rufspiel 10" in body and "Deckel ×2" in body
    assert not Entry.objects.exists()


def test_the_preview_names_what_is_still_missing_and_flags_errors_out_of_band(client_as: Any, table: Table) -> None:
    client = client_as("scorer")
    body = client.post(url("entry_preview", table), hand_post(table, declarer=None)).content.decode()
    assert "Noch offen: Spieler" in body
    body = client.post(url("entry_preview", table), hand_post(table, deckel="0")).content.decode()
    assert re.search(r'id="error-deckel" hx-swap-oob="true">.*Ohne Deckel', body, re.S)


def test_a_double_tap_saves_once(client_as: Any, table: Table) -> None:
    client = client_as("scorer")
    post = hand_post(table)
    client.post(url("entry_add", table), post, HTTP_HX_REQUEST="true")
    client.post(url("entry_add", table), post, HTTP_HX_REQUEST="true")
    assert Entry.objects.filter(table=table).count() == 1


def test_a_stale_form_is_told_so_and_shown_again(client_as: Any, table: Table) -> None:
    client = client_as("scorer")
    stale = hand_post(table, augen="91")
    services.entry_append(table=table, data=rufspiel(table), user=None)  # the other phone
    body = client.post(url("entry_add", table), stale, HTTP_HX_REQUEST="true").content.decode()
    assert "Ein anderes Telefon hat inzwischen gespeichert" in body  # issue 30: what, and the choice
    assert Entry.objects.filter(table=table).count() == 1
    assert 'value="91"' in body
    assert 'name="expected_number" value="2"' in body
    # "Ein anderes Spiel" appends as number 2 (the next dealer's seats differ: choose them anew).
    again = hand_post(table, augen="91", two_phones="another")
    client.post(url("entry_add", table), again, HTTP_HX_REQUEST="true")
    assert list(Entry.objects.filter(table=table).values_list("number", flat=True)) == [1, 2]


def test_events_are_entered_from_their_own_small_forms(client_as: Any, table: Table) -> None:
    client = client_as("scorer")
    post = {"prefix": "vergeben", "vergeben-event": "vergeben", "vergeben-by": "", "vergeben-expected_number": "1"}
    client.post(url("event_add", table), post)
    entry = Entry.objects.get(table=table)
    assert entry.kind == "vergeben" and entry.data == {"event": "vergeben"}
    assert selectors.table_state(table).state.stock == 50


def test_a_correction_says_what_changed_and_marks_the_rows(client_as: Any, table: Table) -> None:
    first = services.entry_append(table=table, data=rufspiel(table, augen=75), user=None)
    services.entry_append(table=table, data=rufspiel(table), user=None)
    client = client_as("scorer")
    edit = url("entry_edit", table, entry_id=first.pk)
    page = client.get(edit).content.decode()
    assert 'value="75"' in page and "Korrektur speichern" in page
    seats = first.data
    post = {
        "game": "rufspiel",
        "declarer": seats["declarer"],
        "partner": seats["partner"],
        "augen": "60",
        "deckel": "1",
        "kontra": "0",
        "dealer": "Sepp Huber",
        "reason": "60:60 verzählt",
    }
    response = client.post(edit, post)
    assert response.status_code == 302
    assert "?changed=1,2" in response.url
    page = client.get(response.url).content.decode()
    assert "Nr. 1 korrigiert. Neu berechnet: Nr. 1, 2." in page
    assert 'class="bock changed"' in page
    assert AuditEntry.objects.get(action="correct").reason == "60:60 verzählt"


def test_a_correction_needs_a_reason(client_as: Any, table: Table) -> None:
    first = services.entry_append(table=table, data=rufspiel(table), user=None)
    client = client_as("scorer")
    post = {**hand_post(table), "declarer": first.data["declarer"], "augen": "40"}
    body = client.post(url("entry_edit", table, entry_id=first.pk), post).content.decode()
    assert re.search(r'id="error-quick">.*Bitte einen Grund antippen oder eintragen', body, re.S)
    assert Entry.objects.get(pk=first.pk).data["augen"] == 75


def test_a_correction_takes_a_quick_reason_by_a_tap_and_an_own_text_beside_it(client_as: Any, table: Table) -> None:
    """Issue 21: no keyboard needed; a typed text adds to the tapped reason."""
    first = services.entry_append(table=table, data=rufspiel(table), user=None)
    client = client_as("scorer")
    page = client.get(url("entry_edit", table, entry_id=first.pk)).content.decode()
    for reason in ("falsch getippt", "Schneider vergessen", "Laufende vergessen", "falscher Spieler"):
        assert page.count(f"<span>{reason}</span>") == 3  # the tap form, the JSON form, deleting
    hand = {"game": "rufspiel", "declarer": first.data["declarer"], "partner": first.data["partner"], "augen": "40"}
    post = {**hand, "deckel": "1", "kontra": "0", "dealer": "Sepp Huber", "quick": "falscher Spieler"}
    assert client.post(url("entry_edit", table, entry_id=first.pk), post).status_code == 302
    assert AuditEntry.objects.get(action="correct").reason == "falscher Spieler"
    second = services.entry_append(table=table, data=rufspiel(table), user=None)
    delete = {"delete-quick": "falsch getippt", "delete-reason": "doppelt"}
    assert client.post(url("entry_delete", table, entry_id=second.pk), delete).status_code == 302
    assert AuditEntry.objects.get(action="delete").reason == "falsch getippt: doppelt"


def test_delete_with_a_reason_and_undo(client_as: Any, table: Table) -> None:
    first = services.entry_append(table=table, data=rufspiel(table), user=None)
    services.entry_append(table=table, data=rufspiel(table), user=None)
    client = client_as("scorer")
    response = client.post(url("entry_delete", table, entry_id=first.pk), {"delete-reason": ""})
    assert Entry.objects.filter(table=table).count() == 2 and "eintraege" in response.url
    client.post(url("entry_delete", table, entry_id=first.pk), {"delete-reason": "doppelt"})
    assert list(Entry.objects.filter(table=table).values_list("number", flat=True)) == [1]
    body = client.post(url("entry_undo", table), HTTP_HX_REQUEST="true").content.decode()
    assert "Nr. 1 rückgängig gemacht" in body
    assert not Entry.objects.filter(table=table).exists()
    audit = client_as("member").get(url("table_audit", table)).content.decode()
    assert "rückgängig" in audit and "gelöscht" in audit and "doppelt" in audit


def test_other_families_enter_hands_as_json(client_as: Any, world: World) -> None:
    session = services.session_create(club=world.club, date="2026-11-20", user=None)
    members = [Member.objects.get(club=world.club, display_name=name) for name in PLAYERS]
    table = services.table_start(session=session, members=members, rules="doppelkopf", user=None)
    client = client_as("scorer")
    page = client.get(table.get_absolute_url()).content.decode()
    assert "Angaben (JSON)" in page
    hand = '{"game": "normal", "re": ["Sepp Huber", "Zenzi Mayr"], "augen": 150}'
    client.post(url("entry_add", table), {"data": hand, "expected_number": "1"})
    assert Entry.objects.get(table=table).game == "normal"
    body = client.post(url("entry_add", table), {"data": '{"game": "normal"}'}).content.decode()
    assert re.search(r'id="error-data">.*fehlt', body, re.S)


def test_the_club_rules_page_validates_previews_and_saves(client_as: Any, world: World, table: Table) -> None:
    client = client_as("owner")
    path = reverse("scoring:club_rules", kwargs={"slug": "test"})
    page = client.get(path).content.decode()
    assert "So zahlen typische Spiele" in page and "price_rufspiel" in page
    bad = _rules_post(client, path, price_rufspiel="-5")
    body = client.post(path, bad).content.decode()
    assert re.search(r"price_rufspiel.*?Dieser Wert muss größer oder gleich 0 sein", body, re.S)
    preview = client.post(
        reverse("scoring:club_rules_preview", kwargs={"slug": "test"}), _rules_post(client, path, price_rufspiel="50")
    ).content.decode()
    assert "Rufspiel 50" in preview
    response = client.post(path, _rules_post(client, path, price_rufspiel="50", winnings_to_kasse="on"))
    assert response.status_code == 302
    rules = ClubRules.objects.get(club=world.club)
    assert rules.options == {"price_rufspiel": 50} and rules.winnings_to_kasse
    assert table.options["price_rufspiel"] == 10  # the started table keeps its rules
    assert client_as("scorer").get(path).status_code == 403


def _rules_post(client: Client, path: str, **changes: str) -> dict[str, Any]:
    """The rules form as the page shows it, with ``changes``."""
    form = client.get(path).context["form"]
    data: dict[str, Any] = {"preset": form.preset}
    for field in form.option_fields:
        value = field.value()
        if isinstance(value, bool):
            if value:
                data[field.name] = "on"
        elif isinstance(value, list | tuple):
            data[field.name] = list(value)
        else:
            data[field.name] = value
    data.update(changes)
    return data


def test_choosing_another_preset_shows_its_options(client_as: Any, world: World) -> None:
    world.club.game = "doppelkopf"
    world.club.save()
    page = client_as("owner").get(reverse("scoring:club_rules", kwargs={"slug": "test"}) + "?preset=doppelkopf")
    assert "vergeben_limit" in page.content.decode()


def test_closing_an_evening_books_the_kasse_and_an_owner_reopens_it(client_as: Any, world: World, table: Table) -> None:
    services.entry_append(table=table, data=rufspiel(table), user=None)
    session = table.session
    detail = client_as("member").get(session.get_absolute_url()).content.decode()
    assert "Wer wem zahlt" in detail and "zahlt" in detail
    client_as("scorer").post(
        reverse("scoring:session_close", kwargs={"slug": "test", "session_id": session.pk}), {"book_to_kasse": "on"}
    )
    session.refresh_from_db()
    assert session.is_closed and KasseBooking.objects.filter(session=session).count() == 2
    assert "Der Abend ist abgeschlossen." in client_as("scorer").get(table.get_absolute_url()).content.decode()
    kasse = client_as("member").get(reverse("scoring:kasse", kwargs={"slug": "test"})).content.decode()
    assert "0,40" in kasse
    reopen = reverse("scoring:session_reopen", kwargs={"slug": "test", "session_id": session.pk})
    assert client_as("member").post(reopen).status_code == 403
    client_as("owner").post(reopen)
    session.refresh_from_db()
    assert not session.is_closed and selectors.kasse_balance(world.club) == {"cent": 0}


def test_the_evenings_list(client_as: Any, table: Table) -> None:
    services.entry_append(table=table, data=rufspiel(table), user=None)
    page = client_as("member").get(reverse("scoring:session_list", kwargs={"slug": "test"})).content.decode()
    assert "20.11.2026" in page and "Krone" in page and "offen" in page


def test_the_english_locale_translates_the_sheet(client_as: Any, table: Table) -> None:
    client = client_as("scorer")
    client.cookies["django_language"] = "en"
    page = client.get(table.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Deals:" in page and "Save no. 1" in page


def test_a_skat_club_saves_its_rules_with_money_per_point_left_empty(client_as: Any, world: World) -> None:
    world.club.game = "skat"
    world.club.save()
    client = client_as("owner")
    path = reverse("scoring:club_rules", kwargs={"slug": "test"}) + "?preset=skat"
    data = _rules_post(client, path, kontra_re="on")
    assert data["cents_per_point"] is None
    response = client.post(reverse("scoring:club_rules", kwargs={"slug": "test"}), {**data, "cents_per_point": ""})
    assert response.status_code == 302
    rules = ClubRules.objects.get(club=world.club)
    assert (rules.preset, rules.options) == ("skat", {"kontra_re": True})


def test_turning_the_special_rounds_off_saves_and_the_stock_follows(client_as: Any, world: World) -> None:
    """Allgäu's Stock is played in the special rounds: with them off its Stock choice is gone, and
    the page saves "kein Stock" instead of refusing with the option's key and raw values."""
    client = client_as("owner")
    path = reverse("scoring:club_rules", kwargs={"slug": "test"})
    data = _rules_post(client, path + "?preset=allgaeu")
    assert data["special_rounds"] == "on" and data["stock"] == "allgaeu"
    del data["special_rounds"]
    response = client.post(path, data)
    assert response.status_code == 302, response.context["form"].errors
    rules = ClubRules.objects.get(club=world.club)
    assert rules.options["special_rounds"] is False and "stock" not in rules.options  # kein Stock, the default
    shown = client.get(path).context["form"]
    assert shown["special_rounds"].value() is False and shown["stock"].value() == "none"
    assert client.post(path, _rules_post(client, path)).status_code == 302  # saved again unchanged
    assert ClubRules.objects.get(club=world.club).options == rules.options


def test_a_refused_value_is_named_in_words_under_the_examples(client_as: Any) -> None:
    client = client_as("owner")
    path = reverse("scoring:club_rules", kwargs={"slug": "test"})
    preview = client.post(
        reverse("scoring:club_rules_preview", kwargs={"slug": "test"}), _rules_post(client, path, price_rufspiel="-5")
    ).content.decode()
    assert "Dieser Wert muss größer oder gleich 0 sein" in preview and "price_rufspiel" not in preview


def test_both_skat_lists_are_offered_for_an_evening(client_as: Any, world: World) -> None:
    """Issue 32: Seeger-Fabian writes points that do not sum to zero, but they are a list the table
    adds up (its Auswertung), not money settled between the players: most club lists play it
    (skat.md §6, ``RuleSet.plays_at_table``)."""
    world.club.game = "skat"
    world.club.save()
    client = client_as("owner")
    rules = client.get(reverse("scoring:club_rules", kwargs={"slug": "test"})).content.decode()
    assert 'value="skat"' in rules and 'value="skat-seeger"' in rules
    form = TableStartForm(players=Member.objects.none(), club_preset="allgaeu")
    offered = [name for name, _label in form.fields["preset"].choices]
    assert "skat" in offered and "skat-seeger" in offered


def test_saving_the_rules_unchanged_changes_nothing(client_as: Any, world: World) -> None:
    client = client_as("owner")
    path = reverse("scoring:club_rules", kwargs={"slug": "test"})
    assert client.post(path, _rules_post(client, path, price_rufspiel="20")).status_code == 302
    saved = ClubRules.objects.get(club=world.club)
    other = client_as("owner")
    assert other.post(path, _rules_post(other, path)).status_code == 302
    again = ClubRules.objects.get(club=world.club)
    assert again.options == saved.options and again.updated_at == saved.updated_at


def test_a_price_says_its_unit(client_as: Any) -> None:
    """ "Grundpreis Rufspiel 10": ten cents in a money club, ten points in a points list."""
    client = client_as("owner")
    path = reverse("scoring:club_rules", kwargs={"slug": "test"})
    money = client.get(path + "?preset=allgaeu").context["form"]
    assert money["price_rufspiel"].help_text == "in Cent (10 = 0,10 €)" == money["stock_first"].help_text
    assert not money["max_kontra"].help_text
    points = client.get(path + "?preset=allgaeu-meisterschaft")
    assert points.context["form"]["price_rufspiel"].help_text == "in Punkten"
    assert "in Punkten" in points.content.decode()


def test_a_club_cannot_allow_no_game_at_all(client_as: Any, world: World) -> None:
    client = client_as("owner")
    path = reverse("scoring:club_rules", kwargs={"slug": "test"})
    data = _rules_post(client, path + "?preset=allgaeu")
    del data["games"]
    response = client.post(path, data)
    assert response.status_code == 200
    assert response.context["form"].errors["games"] == ["Mindestens ein Spiel muss erlaubt sein."]
    assert not ClubRules.objects.filter(club=world.club).exclude(options={}).exists()


def test_an_english_clubs_kasse_bookings_write_the_date_its_way(client_as: Any, world: World, table: Table) -> None:
    Club.objects.filter(pk=world.club.pk).update(language="en")
    services.entry_append(table=table, data=rufspiel(table), user=None)
    session = table.session
    client_as("scorer").post(
        reverse("scoring:session_close", kwargs={"slug": "test", "session_id": session.pk}), {"book_to_kasse": "on"}
    )
    texts = list(KasseBooking.objects.filter(session=session).values_list("text", flat=True))
    assert texts and all("11/20/2026" in text and "20.11.2026" not in text for text in texts), texts


def test_the_kasse_tells_an_evenings_bookings_in_the_pages_language(client_as: Any, world: World, table: Table) -> None:
    """Booked while the club spoke German ("Gewinn 20.11.2026"), shown after it switched to
    English: the Kasse tells the booking again ("Winnings 11/20/2026"); an owner's own text stays."""
    services.entry_append(table=table, data=rufspiel(table), user=None)
    session = table.session
    client_as("scorer").post(
        reverse("scoring:session_close", kwargs={"slug": "test", "session_id": session.pk}), {"book_to_kasse": "on"}
    )
    KasseBooking.objects.create(club=world.club, amount=500, text="Ausflug 20.11.2026")
    assert KasseBooking.objects.filter(text="Gewinn 20.11.2026").count() == 2
    Club.objects.filter(pk=world.club.pk).update(language="en")
    page = client_as("member").get(reverse("scoring:kasse", kwargs={"slug": "test"})).content.decode()
    assert page.count("Winnings 11/20/2026") == 2 and "Gewinn" not in page
    assert "Ausflug 20.11.2026" in page


def test_the_kasse_names_one_player_per_booking_in_english(client_as: Any, world: World) -> None:
    Club.objects.filter(pk=world.club.pk).update(language="en")
    KasseBooking.objects.create(club=world.club, amount=500, text="Ausflug", member=world.club.members.first())
    page = client_as("member").get(reverse("scoring:kasse", kwargs={"slug": "test"})).content.decode()
    assert 'data-label="Player"' in page and 'data-label="Players"' not in page
