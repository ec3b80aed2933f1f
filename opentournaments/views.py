"""Open tournament pages (issue 24). Each view: access → form → service → redirect.

Every member reads the tournament, its registrations and the seating; scorers work the desk
(registration, Startgeld, withdrawals, the figures of the tables); owners create tournaments and
draw the rounds.
"""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe
from django_ratelimit.core import is_ratelimited

from clubs.access import ClubAccess, Need, club_language_activate, club_view
from clubs.ids import parse_id
from clubs.models import Member
from clubs.words import words_for
from opentournaments import exports, links, selectors, services
from opentournaments.forms import (
    DrawForm,
    GuestSearchForm,
    OpenTournamentEditForm,
    OpenTournamentForm,
    RegistrationEditForm,
    RegistrationForm,
    RoundDayForm,
    TableFiguresForm,
    form_key,
)
from opentournaments.games import SKAT_LIST
from opentournaments.models import OpenTournament, Registration, Round, RoundTable, Typing
from standings.exports import XLSX, download_name, file_response, pdf_response


def _apply(form: Form, error: ValidationError, aliases: dict[str, str] | None = None) -> None:
    if hasattr(error, "error_dict"):
        for key, errors in error.error_dict.items():
            field = (aliases or {}).get(key, key)
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error)


def _report(request: HttpRequest, error: ValidationError) -> None:
    for message in error.messages:
        messages.error(request, message)


def _tournament(access: ClubAccess, open_id: int) -> OpenTournament:
    return get_object_or_404(OpenTournament.objects.select_related("club"), club=access.club, pk=open_id)


def _registration(tournament: OpenTournament, registration_id: int) -> Registration:
    return get_object_or_404(Registration, tournament=tournament, pk=registration_id)


def _removed(request: HttpRequest, tournament: OpenTournament, registration_id: int) -> HttpResponse | None:
    """Back to the desk or the overview, with a word, where the registration was removed already
    (a remove form sent twice, Back to his page, the other desk laptop): no 404 on the day."""
    if Registration.objects.filter(tournament=tournament, pk=registration_id).exists():
        return None
    messages.info(request, _("Diese Anmeldung ist schon entfernt."))
    return _back(request, tournament)


def _round(tournament: OpenTournament, round_number: int) -> Round:
    return get_object_or_404(
        Round.objects.select_related("tournament__club"), tournament=tournament, number=round_number
    )


def _context(access: ClubAccess, tournament: OpenTournament, **extra: object) -> dict[str, object]:
    return {"access": access, "tournament": tournament, "rounds": selectors.rounds(tournament), **extra}


def _entry_context(
    access: ClubAccess, tournament: OpenTournament, seating: selectors.Seating, forms: list
) -> dict[str, object]:
    return _context(
        access,
        tournament,
        seating=seating,
        forms=forms,
        zero_sum=selectors.tariff_is_zero_sum(tournament),
        plus_only=selectors.tariff_is_plus_only(tournament),
        phone_refusal=selectors.phone_refusal(tournament),
        game=tournament.game,
        figures=tournament.game.figures(tournament),
    )


@club_view(Need.READ, methods=["GET"])
def open_list(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    return render(
        request,
        "opentournaments/list.html",
        {"access": access, "tournaments": selectors.club_open_tournaments(access.club)},
    )


def _payout(request: HttpRequest, form: OpenTournamentForm | OpenTournamentEditForm) -> QueryDict | None:
    """The payout helper's button ("70 % auf 10 Plätze, auf volle Euro"): the form's data with the
    shares it computed, fixed amounts cleared and whole euros ticked; nothing saved. None where
    it was not asked, or cannot share so (the error is on ``form``)."""
    if "payout" not in request.POST or not form.is_valid():
        return None
    shares = form.payout()
    if shares is None:
        return None
    data = request.POST.copy()
    data["prize_shares"] = " ".join(str(share) for share in shares)
    data["prize_amounts"] = ""
    data["prize_whole_euros"] = "on"
    del data["payout"]
    messages.info(
        request,
        _("Anteile ausgerechnet: %(shares)s %% – noch nicht gespeichert.") % {"shares": " · ".join(map(str, shares))},
    )
    return data


@club_view(Need.MANAGE)
def open_create(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    """Create a tournament; the form's one-time key makes a form sent twice create one."""
    # ?spiel=skat: a Preisskat (issue 32 item 4); the form carries the choice when sent. A Skat
    # club's open tournament is always one (``clubs.words``).
    skat = SKAT_LIST.key
    asked = request.POST.get("game") or request.GET.get("spiel")
    game = skat if asked == skat or words_for(access.club.game).preisskat_only else ""
    form = OpenTournamentForm(request.POST or None, game=game)
    if (data := _payout(request, form)) is not None:
        context = {"access": access, "form": OpenTournamentForm(data, game=game)}
        return render(request, "opentournaments/create.html", context)
    if form.is_valid():
        try:
            tournament = services.open_tournament_create(
                club=access.club, user=request.user, **form.service_arguments()
            )
        except ValidationError as error:
            _apply(form, error, {"preset": "tariff"})
        else:
            messages.success(request, _("Turnier angelegt. Jetzt die Spieler an der Kasse anmelden."))
            return redirect("opentournaments:desk", slug=access.club.slug, open_id=tournament.pk)
    return render(request, "opentournaments/create.html", {"access": access, "form": form})


EDIT_ALIASES = {"entry_fee_cents": "entry_fee", "prize_item_last": "prize_items"}


@club_view(Need.MANAGE)
def open_edit(request: HttpRequest, access: ClubAccess, open_id: int) -> HttpResponse:
    """Change the tournament: name, days, Startgeld, prizes and Sachpreise; what a draw or an
    entered figure depends on is shown locked with the reason."""
    tournament = _tournament(access, open_id)
    locks = selectors.edit_locks(tournament)
    form = OpenTournamentEditForm(request.POST or None, tournament=tournament, locks=locks)
    if (data := _payout(request, form)) is not None:
        form = OpenTournamentEditForm(data, tournament=tournament, locks=locks)
    elif request.method == "POST" and form.is_valid():
        try:
            services.open_tournament_update(tournament=tournament, user=request.user, **form.service_arguments())
        except ValidationError as error:
            _apply(form, error, EDIT_ALIASES)
        else:
            messages.success(request, _("Turnier gespeichert."))
            return redirect("opentournaments:detail", slug=access.club.slug, open_id=tournament.pk)
    return render(
        request,
        "opentournaments/edit.html",
        _context(access, tournament, form=form, locks=locks, tariff=selectors.rules_sheet(tournament).tariff_title),
    )


@club_view(Need.READ, methods=["GET"])
def open_detail(request: HttpRequest, access: ClubAccess, open_id: int) -> HttpResponse:
    tournament = _tournament(access, open_id)
    return render(
        request,
        "opentournaments/detail.html",
        _context(
            access,
            tournament,
            registrations=selectors.registrations(tournament),
            kasse=selectors.kasse(tournament),
            paid_locked=selectors.prizes_final(tournament),
            **_public_link(request, access, tournament),
            day_form=_day_form(tournament, selectors.next_round_day(tournament, timezone.localdate())),
        ),
    )


def _public_link(request: HttpRequest, access: ClubAccess, tournament: OpenTournament) -> dict[str, str]:
    """The public link and its QR code, for those who work the tournament (they hand it out)."""
    if not access.membership.can_write:
        return {}
    url = links.public_url(request, tournament)
    return {"public_url": url, "public_qr": links.qr_svg(url)}


def _day_form(tournament: OpenTournament, day: datetime.date) -> RoundDayForm | None:
    """The select of the round's day, only where the tournament has more than one."""
    days = tournament.days
    return RoundDayForm(days=days, initial={"day": day.isoformat()}) if len(days) > 1 else None


@club_view(Need.WRITE)
def desk(request: HttpRequest, access: ClubAccess, open_id: int) -> HttpResponse:
    """The registration desk: register (name, Wohnort, Startgeld), find a returning guest by a
    few letters (a plain GET search, umlauts folded), the next start number shown big. Every
    form carries a one-time key, so a double Enter registers once; the same name and Wohnort
    again is asked about first. After the last draw nobody can join: no form."""
    tournament = _tournament(access, open_id)
    search = GuestSearchForm(request.GET or None)
    query = search.cleaned_data["q"] if search.is_valid() else ""
    form = RegistrationForm(request.POST or None)
    duplicate = None
    if request.method == "POST" and form.is_valid():
        member = None
        member_id = parse_id(request.POST.get("member", ""))
        if member_id is not None:
            member = Member.objects.filter(club=access.club, pk=member_id).first()
        try:
            registration = services.registration_create(
                tournament=tournament,
                name=form.cleaned_data["name"],
                residence=form.cleaned_data["residence"],
                paid=form.cleaned_data["paid"],
                member=member,
                start_number=form.cleaned_data["start_number"],
                key=form.cleaned_data["key"],
                again=form.cleaned_data["again"],
                user=request.user,
            )
        except services.PossibleDuplicate as error:
            duplicate = error
        except ValidationError as error:
            _apply(form, error)
        else:
            messages.success(
                request,
                _("Startnummer %(number)s: %(name)s")
                % {"number": registration.start_number, "name": registration.name},
            )
            return redirect("opentournaments:desk", slug=access.club.slug, open_id=tournament.pk)
    found = selectors.desk_search(tournament, query)
    return render(
        request,
        "opentournaments/desk.html",
        _context(
            access,
            tournament,
            form=form,
            duplicate=duplicate,
            member_id=request.POST.get("member", "") if duplicate else "",
            search=search,
            query=query,
            found=found,
            guests=[(guest, form_key()) for guest in found.guests],
            closed=tournament.round_set.count() >= tournament.rounds,
            next_number=selectors.next_start_number(tournament),
            kasse=selectors.kasse(tournament),
            paid_locked=selectors.prizes_final(tournament),
            latest=selectors.registrations(tournament).order_by("-pk")[:8],  # the last registered first
        ),
    )


@club_view(Need.WRITE)
def registration_edit(request: HttpRequest, access: ClubAccess, open_id: int, registration_id: int) -> HttpResponse:
    """Correct a registration's name, Wohnort and Startgeld (at any time); remove one made by
    mistake while he is not drawn yet."""
    tournament = _tournament(access, open_id)
    if (gone := _removed(request, tournament, registration_id)) is not None:
        return gone
    registration = _registration(tournament, registration_id)
    initial = {"name": registration.name, "residence": registration.residence, "paid": registration.paid}
    form = RegistrationEditForm(request.POST or None, initial=initial)
    if selectors.prizes_final(tournament):  # services._paid_may_change: the pot is announced
        form.fields["paid"].disabled = True
        form.fields["paid"].help_text = services.PAID_LOCKED
    if request.method == "POST" and form.is_valid():
        try:
            services.registration_update(registration=registration, user=request.user, **form.cleaned_data)
        except ValidationError as error:
            _apply(form, error)
        else:
            messages.success(request, _("Nr. %(number)s gespeichert.") % {"number": registration.start_number})
            return _back(request, tournament)
    return render(
        request,
        "opentournaments/registration.html",
        _context(
            access,
            tournament,
            registration=registration,
            form=form,
            removable=selectors.removable(registration),
            back=request.GET.get("back") or request.POST.get("back", ""),
        ),
    )


@club_view(Need.WRITE, methods=["POST"])
def registration_remove(request: HttpRequest, access: ClubAccess, open_id: int, registration_id: int) -> HttpResponse:
    tournament = _tournament(access, open_id)
    if (gone := _removed(request, tournament, registration_id)) is not None:
        return gone
    registration = _registration(tournament, registration_id)
    try:
        services.registration_remove(registration=registration, user=request.user)
    except ValidationError as error:
        _report(request, error)
    else:
        messages.success(
            request,
            _("Nr. %(number)s (%(name)s) ist entfernt; die Nummer wird nicht wieder vergeben.")
            % {"number": registration.start_number, "name": registration.name},
        )
    return _back(request, tournament)


def _back(request: HttpRequest, tournament: OpenTournament) -> HttpResponse:
    # Back to the page the button was on (the desk or the overview), never elsewhere.
    back = request.POST.get("back") or request.GET.get("back")
    target = "opentournaments:desk" if back == "desk" else "opentournaments:detail"
    return redirect(target, slug=tournament.club.slug, open_id=tournament.pk)


@club_view(Need.WRITE, methods=["POST"])
def registration_paid(request: HttpRequest, access: ClubAccess, open_id: int, registration_id: int) -> HttpResponse:
    tournament = _tournament(access, open_id)
    if (gone := _removed(request, tournament, registration_id)) is not None:
        return gone
    registration = _registration(tournament, registration_id)
    try:
        paid = request.POST.get("paid") == "1"
        services.registration_set_paid(registration=registration, paid=paid, user=request.user)
    except ValidationError as error:
        _report(request, error)
    return _back(request, tournament)


@club_view(Need.WRITE, methods=["POST"])
def registration_withdraw(request: HttpRequest, access: ClubAccess, open_id: int, registration_id: int) -> HttpResponse:
    tournament = _tournament(access, open_id)
    if (gone := _removed(request, tournament, registration_id)) is not None:
        return gone
    registration = _registration(tournament, registration_id)
    try:
        if request.POST.get("undo") == "1":
            services.registration_return(registration=registration, user=request.user)
        else:
            services.registration_withdraw(registration=registration, user=request.user)
    except ValidationError as error:
        _report(request, error)
    return _back(request, tournament)


@club_view(Need.MANAGE, methods=["POST"])
def round_draw(request: HttpRequest, access: ClubAccess, open_id: int) -> HttpResponse:
    """Draw the round the form names; a form sent again (or a second desk at the same moment)
    lands on the round drawn by the first, and nothing more is drawn."""
    tournament = _tournament(access, open_id)
    overview = redirect("opentournaments:detail", slug=access.club.slug, open_id=tournament.pk)
    form = DrawForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Die Seite war veraltet; bitte neu laden und noch einmal auslosen."))
        return overview
    day = None
    if len(tournament.days) > 1:
        day_form = RoundDayForm(request.POST, days=tournament.days)
        day = day_form.cleaned_data["day"] if day_form.is_valid() else None
    try:
        round_ = services.round_draw(
            tournament=tournament, number=form.cleaned_data["round"], day=day, user=request.user
        )
    except services.DrawnMeanwhile as twice:
        messages.info(request, twice.message)
        if twice.meant > twice.drawn:
            return overview
        return redirect("opentournaments:round", slug=access.club.slug, open_id=tournament.pk, round_number=twice.meant)
    except ValidationError as error:
        _report(request, error)
        return overview
    messages.success(request, _("Runde %(number)s ist ausgelost.") % {"number": round_.number})
    return redirect("opentournaments:round", slug=access.club.slug, open_id=tournament.pk, round_number=round_.number)


@club_view(Need.MANAGE, methods=["POST"])
def public_link_renew(request: HttpRequest, access: ClubAccess, open_id: int) -> HttpResponse:
    tournament = services.public_token_renew(tournament=_tournament(access, open_id), user=request.user)
    messages.success(
        request, _("Der öffentliche Link ist neu; der alte und die mit ihm gedruckten QR-Codes gelten nicht mehr.")
    )
    return redirect("opentournaments:detail", slug=access.club.slug, open_id=tournament.pk)


@club_view(Need.READ, methods=["GET"])
def round_seating(request: HttpRequest, access: ClubAccess, open_id: int, round_number: int) -> HttpResponse:
    tournament = _tournament(access, open_id)
    round_ = _round(tournament, round_number)
    return render(
        request,
        "opentournaments/round.html",
        _context(
            access, tournament, seating=selectors.seating(round_), day_form=_day_form(tournament, round_.played_on)
        ),
    )


@club_view(Need.MANAGE, methods=["POST"])
def round_day(request: HttpRequest, access: ClubAccess, open_id: int, round_number: int) -> HttpResponse:
    """Set (or correct) the day a round is played, for the Tagessieger."""
    tournament = _tournament(access, open_id)
    round_ = _round(tournament, round_number)
    form = RoundDayForm(request.POST, days=tournament.days)
    if form.is_valid():
        try:
            services.round_set_day(round_=round_, day=form.cleaned_data["day"], user=request.user)
        except ValidationError as error:
            _report(request, error)
        else:
            messages.success(request, _("Spieltag gespeichert."))
    else:
        messages.error(request, _("Bitte einen der Turniertage wählen."))
    return redirect("opentournaments:round", slug=access.club.slug, open_id=tournament.pk, round_number=round_.number)


@club_view(Need.READ, methods=["GET"])
def round_seating_pdf(request: HttpRequest, access: ClubAccess, open_id: int, round_number: int) -> HttpResponse:
    """The seating list to pin on the wall: by name (large, two columns), then by table."""
    tournament = _tournament(access, open_id)
    round_ = _round(tournament, round_number)
    url = links.public_url(request, tournament)
    context = {
        "tournament": tournament,
        "seating": selectors.seating(round_),
        "public_url": url,
        "public_qr": links.qr_svg(url),
    }
    return pdf_response(
        "opentournaments/pdf/seating.html",
        context,
        _file_name(tournament, "sitzplan-runde", round_.number, extension="pdf"),
    )


def _ranking(tournament: OpenTournament, round_number: int | None) -> selectors.OpenRanking | None:
    if round_number is not None:
        _round(tournament, round_number)  # 404 for a round not drawn
    return selectors.open_ranking(tournament, round_number)


def _ranking_heading(round_number: int | None) -> str:
    if round_number is None:
        return _("Gesamtrangliste")
    return _("Rangliste nach Runde %(number)s") % {"number": round_number}


def _file_name(tournament: OpenTournament, *content: object, extension: str) -> str:
    """A printout's file name after club, tournament and content (issue 29 §5):
    ``demo-preisschafkopf-kirchweih-2026-rangliste-runde-2.pdf``; the year only where the
    tournament's name does not hold it already."""
    year = tournament.starts_on.year
    when = () if str(year) in tournament.name else (year,)
    return download_name(tournament.club.slug, tournament.name, *when, *content, extension=extension)


def _ranking_filename(tournament: OpenTournament, round_number: int | None, extension: str) -> str:
    content = ("rangliste-runde", round_number) if round_number else ("rangliste",)
    return _file_name(tournament, *content, extension=extension)


@club_view(Need.READ, methods=["GET"])
def ranking_pdf(
    request: HttpRequest, access: ClubAccess, open_id: int, round_number: int | None = None
) -> HttpResponse:
    """The ranking, A4, to pin on the wall: overall with the prizes, or after ``round_number``."""
    tournament = _tournament(access, open_id)
    ranking_ = _ranking(tournament, round_number)
    context = {
        "tournament": tournament,
        "ranking": ranking_,
        "round_number": round_number,
        "round_numbers": range(1, (ranking_.after_round if ranking_ else 0) + 1),
    }
    return pdf_response("opentournaments/pdf/ranking.html", context, _ranking_filename(tournament, round_number, "pdf"))


@club_view(Need.READ, methods=["GET"])
def ranking_xlsx(
    request: HttpRequest, access: ClubAccess, open_id: int, round_number: int | None = None
) -> HttpResponse:
    """The ranking as an Excel workbook (overall or after ``round_number``), numbers as numbers."""
    tournament = _tournament(access, open_id)
    ranking_ = _ranking(tournament, round_number)
    if ranking_ is None:
        raise Http404(_("Noch niemand angemeldet."))
    data = exports.ranking_workbook(tournament, ranking_, _ranking_heading(round_number))
    return file_response(data, XLSX, _ranking_filename(tournament, round_number, "xlsx"))


@club_view(Need.READ, methods=["GET"])
def prizes_pdf(request: HttpRequest, access: ClubAccess, open_id: int) -> HttpResponse:
    """The prize list for the wall: who takes which prize home, and the Kasse."""
    tournament = _tournament(access, open_id)
    context = {"tournament": tournament, "prizes": selectors.prize_list(tournament)}
    return pdf_response(
        "opentournaments/pdf/prizes.html", context, _file_name(tournament, "preisliste", extension="pdf")
    )


@club_view(Need.READ, methods=["GET"])
def rules(request: HttpRequest, access: ClubAccess, open_id: int) -> HttpResponse:
    """The Turnierregeln: the tariff in plain German, rounds, tie-breaks, Startgeld and prizes."""
    tournament = _tournament(access, open_id)
    return render(
        request, "opentournaments/rules.html", _context(access, tournament, sheet=selectors.rules_sheet(tournament))
    )


@club_view(Need.READ, methods=["GET"])
def rules_pdf(request: HttpRequest, access: ClubAccess, open_id: int) -> HttpResponse:
    """The Turnierregeln on one A4 page, to lay out on the tables."""
    tournament = _tournament(access, open_id)
    context = {"tournament": tournament, "sheet": selectors.rules_sheet(tournament)}
    return pdf_response(
        "opentournaments/pdf/rules.html", context, _file_name(tournament, "turnierregeln", extension="pdf")
    )


@club_view(Need.READ, methods=["GET"])
def round_sheets_pdf(request: HttpRequest, access: ClubAccess, open_id: int, round_number: int) -> HttpResponse:
    """A Wertungszettel per table: round, table, start numbers and names, the dealer of every game."""
    tournament = _tournament(access, open_id)
    round_ = _round(tournament, round_number)
    context = {
        "tournament": tournament,
        "round": round_,
        "sheets": selectors.score_sheets(round_),
        "zero_sum": selectors.tariff_is_zero_sum(tournament),
    }
    return pdf_response(
        "opentournaments/pdf/sheets.html",
        context,
        _file_name(tournament, "wertungszettel-runde", round_.number, extension="pdf"),
    )


def _entry_forms(
    seating: selectors.Seating, focus: int | None, bound: tuple[int, Form] | None = None
) -> list[tuple[selectors.SeatedTable, Form]]:
    forms = []
    for seated in seating.tables:
        number = seated.table.number
        if bound is not None and bound[0] == number:
            forms.append((seated, bound[1]))
            continue
        forms.append(
            (
                seated,
                TableFiguresForm(
                    seats=[(seat.number, seat.name) for seat in seated.seats],
                    initial_scores=seated.scores,
                    focus=number == focus and bound is None,
                    figures=seating.round.tournament.game.figures(seating.round.tournament),
                    prefix=f"t{number}",
                ),
            )
        )
    return forms


def _next_open(seating: selectors.Seating, after: int) -> int | None:
    """The first table after ``after`` without figures, else the first one without figures."""
    open_tables = [t.table.number for t in seating.tables if not t.entered and t.phone is None]
    later = [n for n in open_tables if n > after]
    return (later or open_tables or [None])[0]


def _typing_message(outcome: str, table_no: int) -> str:
    if outcome == Typing.PENDING:
        return _("Tisch %(number)s einmal erfasst; er zählt, wenn die Zweiterfassung übereinstimmt.") % {
            "number": table_no
        }
    if outcome == Typing.CONFIRMED:
        return _("Tisch %(number)s bestätigt: die Erfassungen stimmen überein.") % {"number": table_no}
    return _("Tisch %(number)s gespeichert.") % {"number": table_no}


def _entry_url(access: ClubAccess, tournament: OpenTournament, round_: Round) -> str:
    return reverse(
        "opentournaments:entry",
        kwargs={"slug": access.club.slug, "open_id": tournament.pk, "round_number": round_.number},
    )


@club_view(Need.WRITE, methods=["GET"])
def round_entry(request: HttpRequest, access: ClubAccess, open_id: int, round_number: int) -> HttpResponse:
    """The desk's quick entry: one form per table; the next table's first field has the focus."""
    tournament = _tournament(access, open_id)
    seating = selectors.seating(_round(tournament, round_number))
    focus = parse_id(request.GET.get("focus", ""))
    if focus is None:
        focus = _next_open(seating, 0)
    return render(
        request,
        "opentournaments/entry.html",
        _entry_context(access, tournament, seating, _entry_forms(seating, focus)),
    )


@club_view(Need.WRITE, methods=["POST"])
def table_entry(
    request: HttpRequest, access: ClubAccess, open_id: int, round_number: int, table_no: int
) -> HttpResponse:
    tournament = _tournament(access, open_id)
    round_ = _round(tournament, round_number)
    table = get_object_or_404(RoundTable, round=round_, number=table_no)
    seating = selectors.seating(round_)
    seated = next(t for t in seating.tables if t.table.pk == table.pk)
    if seated.phone is not None:
        messages.error(
            request,
            _("Tisch %(number)s wird am Handy geschrieben: seine Punkte und Soli kommen aus seinen Spielen.")
            % {"number": table_no},
        )
        return redirect(_entry_url(access, tournament, round_) + f"#t{table_no}")
    form = TableFiguresForm(
        request.POST,
        seats=[(seat.number, seat.name) for seat in seated.seats],
        initial_scores={},
        focus=True,
        figures=tournament.game.figures(tournament),
        prefix=f"t{table_no}",
    )
    if form.is_valid():
        try:
            typing = services.table_figures_enter(
                table=table, key=form.cleaned_data["key"], user=request.user, **form.figures()
            )
        except ValidationError as error:
            _apply(form, error)
        else:
            url = _entry_url(access, tournament, round_)
            if typing.outcome == Typing.MISMATCH:
                messages.warning(
                    request,
                    _("Tisch %(number)s: die Erfassungen weichen ab – bitte den Zettel ansehen und richtig eintragen.")
                    % {"number": table_no},
                )
                return redirect(f"{url}?focus={table_no}")
            messages.success(request, _typing_message(typing.outcome, table_no))
            focus = _next_open(selectors.seating(round_), table_no)
            # No fragment with a table to focus: a page opened at a fragment's target skips
            # autofocus (HTML's autofocus rules), and the focused field scrolls into view anyway.
            return redirect(f"{url}?focus={focus}" if focus else f"{url}#t{table_no}")
    return render(
        request,
        "opentournaments/entry.html",
        _entry_context(access, tournament, seating, _entry_forms(seating, table_no, (table_no, form))),
        status=200,
    )


@club_view(Need.WRITE, methods=["POST"])
def table_phone_start(
    request: HttpRequest, access: ClubAccess, open_id: int, round_number: int, table_no: int
) -> HttpResponse:
    """Write the table game by game on a phone: on to its score sheet."""
    tournament = _tournament(access, open_id)
    round_ = _round(tournament, round_number)
    table = get_object_or_404(RoundTable, round=round_, number=table_no)
    try:
        table = services.table_phone_start(table=table, user=request.user)
    except ValidationError as error:
        _report(request, error)
        return redirect(_entry_url(access, tournament, round_) + f"#t{table_no}")
    assert table.phone_table is not None
    return redirect(table.phone_table.get_absolute_url())


@club_view(Need.WRITE, methods=["POST"])
def table_phone_stop(
    request: HttpRequest, access: ClubAccess, open_id: int, round_number: int, table_no: int
) -> HttpResponse:
    """Hand a phone table without games back to the desk's figures."""
    tournament = _tournament(access, open_id)
    round_ = _round(tournament, round_number)
    table = get_object_or_404(RoundTable, round=round_, number=table_no)
    try:
        services.table_phone_stop(table=table, user=request.user)
    except ValidationError as error:
        _report(request, error)
    else:
        messages.success(request, _("Tisch %(number)s wird wieder vom Zettel eingetragen.") % {"number": table_no})
    return redirect(_entry_url(access, tournament, round_) + f"?focus={table_no}#t{table_no}")


@club_view(Need.READ, methods=["GET"])
def ranking(request: HttpRequest, access: ClubAccess, open_id: int, round_number: int | None = None) -> HttpResponse:
    """The ranking over all rounds, or after ``round_number``: points, the tie-breaks, the
    round winners and the prizes."""
    tournament = _tournament(access, open_id)
    return render(
        request,
        "opentournaments/ranking.html",
        _context(access, tournament, ranking=_ranking(tournament, round_number), round_number=round_number),
    )


# The big screen (issue 24 §6): every player on a projector, paged by static/opentournaments/
# room.js where they do not fit; htmx reloads the board's data every ROOM_REFRESH seconds, and a
# page stands ROOM_TURN seconds (``?turn=`` sets it, 1 to ROOM_TURN_MAX: the browser test turns fast).
ROOM_REFRESH = 30
ROOM_TURN = 12
ROOM_TURN_MAX = 120


@club_view(Need.READ, methods=["GET"])
def room(request: HttpRequest, access: ClubAccess, open_id: int, mode: str = "ranking") -> HttpResponse:
    """The Großbild: the overall ranking (place, start number, name, points per round, total) of
    every player, or in ``mode`` "seating" the current round's seating by name."""
    tournament = _tournament(access, open_id)
    turn = parse_id(request.GET.get("turn", ""))
    context: dict[str, object] = {
        "tournament": tournament,
        "mode": mode,
        "turn": turn if turn is not None and turn <= ROOM_TURN_MAX else ROOM_TURN,
        "refresh": ROOM_REFRESH,
    }
    if mode == "seating":
        round_ = selectors.current_round(tournament)
        context["seating"] = selectors.seating(round_) if round_ else None
    else:
        ranking_ = selectors.open_ranking(tournament)
        context["ranking"] = ranking_
        context["round_numbers"] = range(1, (ranking_.after_round if ranking_ else 0) + 1)
    template = "opentournaments/_room_board.html" if request.htmx else "opentournaments/room.html"
    return render(request, template, context)


PUBLIC_QUERY_MAX = 100
# Requests per address and minute to one tournament's public link (issue 31 §9): a player looks
# himself up a few times a round; a phone reloading every two seconds still gets through.
PUBLIC_RATE = "30/m"


@require_safe
def public(request: HttpRequest, club_slug: str, token: str) -> HttpResponse:
    """The read-only tournament link (no login, so not through clubs.access): only this
    tournament, found by its club and its unguessable token (404 otherwise); a player looks
    himself up by name or start number and finds his table and seat in the current round and his
    place and points. Nothing of the desk (Startgeld, Wohnort, members) and no way into the club.
    HEAD is answered like GET; more than ``PUBLIC_RATE`` from one address gets 429 with a wait,
    before anything is read (a wrong token counts too)."""
    if is_ratelimited(request, group=f"open-public:{club_slug}/{token}", key="ip", rate=PUBLIC_RATE, increment=True):
        response = render(request, "opentournaments/public_wait.html", status=429)
        response["Retry-After"] = "60"
        return response
    tournament = get_object_or_404(
        OpenTournament.objects.select_related("club"), club__slug=club_slug, public_token=token
    )
    club_language_activate(request, tournament.club)
    view = selectors.public_view(tournament)
    query = request.GET.get("q", "")[:PUBLIC_QUERY_MAX].strip()
    response = render(
        request,
        "opentournaments/public.html",
        {"tournament": tournament, "view": view, "query": query, "found": view.search(query)},
    )
    response["X-Robots-Tag"] = "noindex, nofollow"  # the link is for the players, not for search engines
    return response
