"""The tariffs of open tournaments (issue 24 item 3): the Tarifvorlagen score the stated prices
through the engine, the club's adjustments, Kontra forbidden, plus points only at the desk, and the
Turnierregeln as a page and as one A4 PDF page."""

from __future__ import annotations

import datetime
import io
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from clubs.models import Club
from opentournaments import selectors, services, tariffs
from opentournaments.forms import OpenTournamentForm
from opentournaments.models import OpenTournament, TableScore
from scoring.engine import registry
from scoring.engine.core import Context, EngineError
from tests.factories import World

SEATS = ("Anna", "Bert", "Cilli", "Done")

RUFSPIEL = {"game": "rufspiel", "declarer": "Anna", "partner": "Cilli", "augen": 70}
SOLO_SCHNEIDER = {"game": "solo", "suit": "eichel", "declarer": "Anna", "augen": 95}
WENZ_2_LAUFENDE = {"game": "wenz", "declarer": "Anna", "augen": 70, "laufende": 2}
TOUT = {"game": "solo", "suit": "gras", "declarer": "Anna", "tout": True, "tricks": 8}
SIE = {"game": "sie", "declarer": "Anna"}


def _payouts(template: str, hand: dict[str, Any], **adjust: str) -> tuple[int, ...]:
    t = tariffs.TEMPLATES_BY_KEY[template]
    options = tariffs.tariff_options(t.preset, t.options, tariffs.Adjustments(**adjust))
    result = registry.load({"preset": t.preset, "options": options}).score(hand, SEATS, Context())
    return tuple(result.payouts[s] for s in SEATS)


ZERO_SUM_TEMPLATES = ["preisschafkopf", "preisschafkopf-muss", "preisschafkopf-ramsch"]


@pytest.mark.parametrize("template", ZERO_SUM_TEMPLATES)
@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        (RUFSPIEL, (1, -1, 1, -1)),  # Rufspiel 1
        (SOLO_SCHNEIDER, (18, -6, -6, -6)),  # Solo 5 + Schneider 1, from each of three
        (WENZ_2_LAUFENDE, (21, -7, -7, -7)),  # Wenz 5 + 2 Laufende (from 2 in the Wenz)
        (TOUT, (30, -10, -10, -10)),  # Solo 5, Tout doubled, no Schneider or Schwarz
        (SIE, (156, -52, -52, -52)),  # (Solo 5 + 8 Laufende) × 4
    ],
    ids=["rufspiel", "solo_schneider", "wenz_2_laufende", "tout", "sie"],
)
def test_templates_score_the_stated_prices(template: str, hand: dict[str, Any], expected: tuple[int, ...]) -> None:
    assert _payouts(template, hand) == expected


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        (RUFSPIEL, (1, 0, 1, 0)),
        (SOLO_SCHNEIDER, (18, 0, 0, 0)),
        (WENZ_2_LAUFENDE, (21, 0, 0, 0)),
        (TOUT, (30, 0, 0, 0)),
        (SIE, (156, 0, 0, 0)),
        ({**SOLO_SCHNEIDER, "augen": 40}, (0, 5, 5, 5)),  # lost: each opponent gets his 5, the declarer nothing
    ],
    ids=["rufspiel", "solo_schneider", "wenz_2_laufende", "tout", "sie", "solo_lost"],
)
def test_plus_points_only_template_writes_nothing_to_losers(hand: dict[str, Any], expected: tuple[int, ...]) -> None:
    assert _payouts("preisschafkopf-plus", hand) == expected


def test_laufende_from_3_also_in_the_wenz() -> None:
    assert _payouts("preisschafkopf", WENZ_2_LAUFENDE, laufende="immer_ab_3") == (15, -5, -5, -5)


def test_plus_points_adjustment_on_a_zero_sum_template_and_back() -> None:
    assert _payouts("preisschafkopf", SOLO_SCHNEIDER, plus_only="ja") == (18, 0, 0, 0)
    assert _payouts("preisschafkopf-plus", SOLO_SCHNEIDER, plus_only="nein") == (18, -6, -6, -6)


def test_kontra_forbidden_refuses_a_stoss() -> None:
    stoss = {**SOLO_SCHNEIDER, "kontra": 1, "last_kontra": "opponents"}
    assert _payouts("preisschafkopf", stoss) == (36, -12, -12, -12)
    for template, adjust in (("preisschafkopf-muss", {}), ("preisschafkopf", {"kontra": "verboten"})):
        with pytest.raises(EngineError, match="keine Stöße"):
            _payouts(template, stoss, **adjust)
    assert _payouts("preisschafkopf-muss", stoss, kontra="erlaubt") == (36, -12, -12, -12)


def test_all_pass_adjustments() -> None:
    muss = {**RUFSPIEL, "muss_spiel": True}
    assert _payouts("preisschafkopf-muss", muss) == (1, -1, 1, -1)
    with pytest.raises(EngineError, match="Muss-Spiel"):
        _payouts("preisschafkopf", muss, all_pass="zusammenwerfen")
    ramsch = {"game": "mungo", "augen_by_player": {"Anna": 50, "Bert": 30, "Cilli": 20, "Done": 20}}
    assert _payouts("preisschafkopf", ramsch, all_pass="ramsch") == (-3, 1, 1, 1)
    with pytest.raises(EngineError, match="nicht freigeschaltet"):
        _payouts("preisschafkopf-ramsch", ramsch, all_pass="muss")


def test_templates_are_data_with_labels_and_load() -> None:
    presets = set(registry.all_presets())
    for t in tariffs.TEMPLATES:
        assert t.key not in presets and str(t.label) and str(t.description)
        frozen = tariffs._frozen(t.preset, t.options)
        assert tariffs.template_for(t.preset, frozen) == t
    assert len(tariffs.TEMPLATES_BY_KEY) == len(tariffs.TEMPLATES)


def test_the_lines_follow_the_frozen_tariff() -> None:
    def lines(template: str, **adjust: str) -> dict[str, str]:
        t = tariffs.TEMPLATES_BY_KEY[template]
        options = tariffs.tariff_options(t.preset, t.options, tariffs.Adjustments(**adjust))
        return dict(tariffs.tariff_lines(*registry.load_with_table({"preset": t.preset, "options": options})))

    plain = lines("preisschafkopf")
    assert "+15" in plain["Solo und Wenz"] and "−5" in plain["Solo und Wenz"]
    assert plain["Laufende"].startswith("ab 3, beim Wenz ab 2")
    assert plain["Kontra"].startswith("Stoß und Re")
    assert plain["Sagen alle weiter"] == "Es wird zusammengeworfen; der Nächste gibt."
    assert "52 Punkte" in plain["Sie"] and "×2" in plain["Tout"]
    assert plain["Beispiel Solo"] == "gewonnen mit Schneider: der Spieler +18, jeder Gegner −6."
    changed = lines("preisschafkopf", kontra="verboten", all_pass="muss", laufende="immer_ab_3", plus_only="ja")
    assert changed["Kontra"] == "Kontra (Stoß) gibt es nicht."
    assert changed["Sagen alle weiter"].startswith("Muss-Spiel")
    assert changed["Laufende"].startswith("ab 3, auch beim Wenz")
    assert "Abrechnung" not in changed and "nichts geschrieben" in changed["Nur Pluspunkte"]
    assert changed["Beispiel Solo"] == "gewonnen mit Schneider: der Spieler +18, jeder Gegner ±0."


# --- the create form, the desk, the pages --------------------------------------------------------


def _form(**data: str) -> OpenTournamentForm:
    base = {"name": "Preisschafkopf", "starts_on": "2026-12-05", "rounds": "3", "games_per_round": "32"}
    base.update({"entry_fee": "10", "tie_breaks": "soli,best_round,lot", **data})
    return OpenTournamentForm(base)


def test_the_form_turns_a_template_and_adjustments_into_preset_and_options() -> None:
    form = _form(tariff="preisschafkopf", kontra="verboten", plus_only="ja")
    assert form.is_valid(), form.errors
    tariff = form.chosen_tariff()
    assert tariff["preset"] == "reiner-schafkopf"
    assert tariff["options"]["max_kontra"] == 0 and tariff["options"]["plus_points_only"] is True
    assert _form(tariff="allgaeu-meisterschaft").is_valid()  # a points preset of the engine as it stands
    assert "tariff" in _form(tariff="allgaeu").errors  # money is not offered: a tournament counts points


@pytest.mark.django_db
def test_creating_freezes_the_template_and_refuses_money(client_as, world: World) -> None:
    client: Client = client_as("owner")
    create = reverse("opentournaments:create", kwargs={"slug": world.club.slug})
    data = {"name": "Rennen", "starts_on": "2026-12-05", "rounds": "3", "games_per_round": "32"}
    data.update({"entry_fee": "10", "tie_breaks": "soli,best_round,lot", "tariff": "preisschafkopf-plus"})
    assert client.post(create, data).status_code == 302
    tournament = OpenTournament.objects.get()
    assert tournament.preset == "reiner-schafkopf" and tournament.options["plus_points_only"] is True
    assert selectors.rules_sheet(tournament).tariff_title == "Preisschafkopf nur Pluspunkte"
    page = client.post(create, {**data, "tariff": "standard", "plus_only": "ja"})  # money: not offered
    assert page.status_code == 200 and "standard ist keine gültige Auswahl" in page.content.decode()
    assert OpenTournament.objects.count() == 1


def _plus_tournament(club: Club) -> OpenTournament:
    t = tariffs.TEMPLATES_BY_KEY["preisschafkopf-plus"]
    tournament = services.open_tournament_create(
        club=club,
        name="Nur Plus",
        starts_on=datetime.date(2026, 11, 28),
        preset=t.preset,
        options=t.options,
        entry_fee_cents=1000,
        prize_shares=[50, 30],
        prize_items=["Brotzeitkorb"],
        user=None,
    )
    for n in range(8):
        services.registration_create(tournament=tournament, name=f"G{n}", user=None)
    return tournament


@pytest.mark.django_db
def test_the_desk_takes_plus_points_that_do_not_sum_to_zero_but_refuses_minus(world: World) -> None:
    tournament = _plus_tournament(world.club)
    assert not selectors.tariff_is_zero_sum(tournament) and selectors.tariff_is_plus_only(tournament)
    table = services.round_draw(tournament=tournament, seed=1, user=None).tables.first()
    a, b, c, d = table.seats
    soli = dict.fromkeys(table.seats, 0)
    services.table_figures_enter(table=table, points={a: 40, b: 12, c: 0, d: 7}, soli=soli, user=None)
    with pytest.raises(ValidationError) as caught:
        services.table_figures_enter(table=table, points={a: 40, b: -12, c: 0, d: 7}, soli=soli, user=None)
    assert f"points_{b}" in caught.value.error_dict
    assert dict(TableScore.objects.values_list("registration__start_number", "points"))[b] == 12
    ranking = selectors.open_ranking(tournament)
    assert ranking is not None and ranking.rows[0].points == 40


@pytest.mark.django_db
def test_plus_points_only_tables_stay_on_paper(client_as, world: World) -> None:
    """A phone table is a club score sheet, settled between its players: under plus points only
    the desk types the tables, and the round's page says so instead of offering the phone."""
    tournament = _plus_tournament(world.club)
    table = services.round_draw(tournament=tournament, seed=1, user=None).tables.first()
    with pytest.raises(ValidationError, match="nur Pluspunkte"):
        services.table_phone_start(table=table, user=None)
    table.refresh_from_db()
    assert table.phone_table is None
    kwargs = {"slug": world.club.slug, "open_id": tournament.pk, "round_number": 1}
    desk = client_as("scorer").get(reverse("opentournaments:entry", kwargs=kwargs)).content.decode()
    assert "Am Handy schreiben" not in desk and "vom Zettel eingetragen" in desk


def _rules_url(name: str, tournament: OpenTournament) -> str:
    return reverse(f"opentournaments:{name}", kwargs={"slug": tournament.club.slug, "open_id": tournament.pk})


@pytest.mark.django_db
def test_the_rules_page_shows_the_tariff_rounds_tie_breaks_and_prizes(client_as, world: World) -> None:
    tournament = _plus_tournament(world.club)
    page = client_as("member").get(_rules_url("rules", tournament)).content.decode()
    for text in (
        "Preisschafkopf nur Pluspunkte",
        "den Verlierern wird nichts geschrieben",
        "Es wird zusammengeworfen",
        "2 Runden" if tournament.rounds == 2 else "3 Runden",
        "32 Spiele je Runde",
        "mehr Soli, dann die beste Runde, dann das Los",
        "50 % der Startgelder",
        "Brotzeitkorb",
    ):
        assert text in page, text
    overview = client_as("member").get(_rules_url("detail", tournament)).content.decode()
    assert _rules_url("rules", tournament) in overview and _rules_url("rules_pdf", tournament) in overview


@pytest.mark.django_db
def test_the_rules_print_on_one_a4_page_with_the_key_lines(client_as, world: World) -> None:
    tournament = _plus_tournament(world.club)
    response = client_as("member").get(_rules_url("rules_pdf", tournament))
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert (round(float(box.width) * 25.4 / 72), round(float(box.height) * 25.4 / 72)) == (210, 297)
    text = " ".join(reader.pages[0].extract_text().split())
    for key in ("Turnierregeln", "Rufspiel", "Schneider", "Laufende", "Tout", "Sie", "Kontra", "Nur Pluspunkte"):
        assert key in text, key


@pytest.mark.django_db
@pytest.mark.parametrize(("role", "status"), [("member", 200), ("outsider", 404)])
def test_the_rules_are_read_by_members_only(client_as, world: World, role: str, status: int) -> None:
    tournament = _plus_tournament(world.club)
    assert client_as(role).get(_rules_url("rules", tournament)).status_code == status
    assert client_as(role).get(_rules_url("rules_pdf", tournament)).status_code == status


@pytest.mark.django_db
@pytest.mark.parametrize("preset", ["allgaeu-meisterschaft", "reiner-schafkopf"])
def test_the_longest_rules_still_fit_one_a4_page(world: World, preset: str) -> None:
    from standings.exports import pdf_bytes

    tournament = services.open_tournament_create(
        club=world.club,
        name="Ein recht langer Name eines Preisschafkopfs",
        starts_on=datetime.date(2026, 1, 1),
        preset=preset,
        prize_amounts=[10_000] * 10,
        prize_items=["ein Sachpreis mit längerem Namen"] * 10,
        user=None,
    )
    data = pdf_bytes(
        "opentournaments/pdf/rules.html", {"tournament": tournament, "sheet": selectors.rules_sheet(tournament)}
    )
    assert len(PdfReader(io.BytesIO(data)).pages) == 1
