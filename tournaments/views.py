"""Championship pages. Each view: access → form → service → redirect (see clubs/access.py).

Owners set up, draw, record playoffs and adjustments and finish; scorers start a Partie (the
seat draw) and enter hands on the score sheets; every member reads plan, Partien, ranking and
trophies, prints the PDFs and downloads the ranking as Excel.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from clubs.access import ClubAccess, Need, club_view
from clubs.models import Member
from standings.exports import pdf_bytes
from tournaments import selectors, services
from tournaments.engine.ranking import CRITERIA
from tournaments.exports import CRITERION_LABELS, RankingReport, ranking_workbook
from tournaments.forms import (
    AdjustmentForm,
    DrawRecordForm,
    DrawRunForm,
    ParticipantsForm,
    PartieStartForm,
    PlayoffForm,
    TournamentEditForm,
    TournamentForm,
)
from tournaments.models import Adjustment, Playoff, Status, Tournament

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _apply(form: Form, error: ValidationError) -> None:
    if hasattr(error, "error_dict"):
        for field, errors in error.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error)


def _report(request: HttpRequest, error: ValidationError) -> None:
    for message in error.messages:
        messages.error(request, message)


def _tournament(access: ClubAccess, tournament_id: int) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("club"), club=access.club, pk=tournament_id)


def _context(access: ClubAccess, tournament: Tournament, **extra: object) -> dict[str, object]:
    return {"access": access, "tournament": tournament, "Status": Status, **extra}


def _pdf(template: str, context: dict[str, object], filename: str) -> HttpResponse:
    response = HttpResponse(pdf_bytes(template, context), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}.pdf"'
    return response


def _criteria_heads() -> list[tuple[str, str]]:
    return [(str(CRITERION_LABELS[name][0]), str(CRITERION_LABELS[name][1])) for name in CRITERIA]


# --- list, create, overview ------------------------------------------------------------------------


@club_view(Need.READ, methods=["GET"])
def tournament_list(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    return render(
        request,
        "tournaments/list.html",
        {"access": access, "tournaments": selectors.club_tournaments(access.club)},
    )


@club_view(Need.MANAGE)
def tournament_create(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if form.is_valid():
        try:
            tournament = services.tournament_create(club=access.club, user=request.user, **form.cleaned_data)
        except ValidationError as error:
            _apply(form, error)
        else:
            messages.success(request, _("Meisterschaft angelegt. Jetzt die Teilnehmer festlegen."))
            return redirect("tournaments:setup", slug=access.club.slug, tournament_id=tournament.pk)
    return render(request, "tournaments/create.html", {"access": access, "form": form})


@club_view(Need.READ, methods=["GET"])
def tournament_detail(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    tournament = _tournament(access, tournament_id)
    return render(
        request,
        "tournaments/detail.html",
        _context(
            access,
            tournament,
            participants=selectors.participants(tournament),
            partien=selectors.partien(tournament),
        ),
    )


# --- setting up ---------------------------------------------------------------------------------


def _participants_form(access: ClubAccess, tournament: Tournament, data: object = None) -> ParticipantsForm:
    chosen = list(tournament.participants.values_list("member_id", flat=True))
    members = Member.objects.filter(club=access.club).filter(is_active=True) | Member.objects.filter(pk__in=chosen)
    return ParticipantsForm(data, members=members.distinct().order_by("display_name"), initial={"members": chosen})


@club_view(Need.MANAGE)
def tournament_setup(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    tournament = _tournament(access, tournament_id)
    initial = {
        "title": tournament.title,
        "place": tournament.place,
        "partien": tournament.partien,
        "games_per_partie": tournament.games_per_partie,
    }
    form = TournamentEditForm(request.POST or None, initial=initial)
    if form.is_valid():
        try:
            services.tournament_update(tournament=tournament, user=request.user, **form.cleaned_data)
        except ValidationError as error:
            _apply(form, error)
        else:
            messages.success(request, _("Gespeichert."))
            return redirect("tournaments:setup", slug=access.club.slug, tournament_id=tournament.pk)
    return render(
        request,
        "tournaments/setup.html",
        _context(
            access,
            tournament,
            form=form,
            participants_form=_participants_form(access, tournament),
            participants=selectors.participants(tournament),
        ),
    )


@club_view(Need.MANAGE, methods=["POST"])
def participants(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    tournament = _tournament(access, tournament_id)
    form = _participants_form(access, tournament, request.POST)
    if form.is_valid():
        try:
            services.participants_set(tournament=tournament, members=form.cleaned_data["members"], user=request.user)
        except ValidationError as error:
            _apply(form, error)
        else:
            messages.success(
                request, _("%(count)s Teilnehmer gespeichert.") % {"count": len(form.cleaned_data["members"])}
            )
            return redirect("tournaments:draw", slug=access.club.slug, tournament_id=tournament.pk)
    initial = {"title": tournament.title, "place": tournament.place, "partien": tournament.partien}
    initial["games_per_partie"] = tournament.games_per_partie
    return render(
        request,
        "tournaments/setup.html",
        _context(
            access,
            tournament,
            form=TournamentEditForm(initial=initial),
            participants_form=form,
            participants=selectors.participants(tournament),
        ),
    )


# --- the number draw (001 §11.2) --------------------------------------------------------------------


def _draw_page(
    request: HttpRequest, access: ClubAccess, tournament: Tournament, run: Form, paper: Form
) -> HttpResponse:
    return render(
        request,
        "tournaments/draw.html",
        _context(
            access,
            tournament,
            order=selectors.draw_preview(tournament),
            run_form=run,
            paper_form=paper,
            logs=selectors.draw_logs(tournament),
            previous=selectors.previous_tournament(tournament),
        ),
    )


@club_view(Need.MANAGE)
def draw(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    tournament = _tournament(access, tournament_id)
    run = DrawRunForm(request.POST or None)
    if run.is_valid():
        try:
            services.draw_run(tournament=tournament, seed=run.cleaned_data["seed"], user=request.user)
        except ValidationError as error:
            _apply(run, error)
        else:
            messages.success(request, _("Die Nummern sind gezogen."))
            return redirect("tournaments:draw", slug=access.club.slug, tournament_id=tournament.pk)
    paper = DrawRecordForm(participants=selectors.draw_preview(tournament))
    return _draw_page(request, access, tournament, run, paper)


@club_view(Need.MANAGE, methods=["POST"])
def draw_paper(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    tournament = _tournament(access, tournament_id)
    paper = DrawRecordForm(request.POST, participants=selectors.draw_preview(tournament))
    if paper.is_valid():
        try:
            services.draw_record(tournament=tournament, numbers=paper.numbers(), user=request.user)
        except ValidationError as error:
            _apply(paper, error)
        else:
            messages.success(request, _("Die gezogenen Nummern sind eingetragen."))
            return redirect("tournaments:draw", slug=access.club.slug, tournament_id=tournament.pk)
    return _draw_page(request, access, tournament, DrawRunForm(), paper)


# --- the plan and the Partien ----------------------------------------------------------------------


@club_view(Need.READ, methods=["GET"])
def plan(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    tournament = _tournament(access, tournament_id)
    partien = selectors.plan(tournament)
    context = _context(access, tournament, plan=partien, by_player=selectors.plan_by_player(partien))
    return render(request, "tournaments/plan.html", context)


@club_view(Need.READ, methods=["GET"])
def plan_pdf(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    tournament = _tournament(access, tournament_id)
    partien = selectors.plan(tournament)
    context = {"tournament": tournament, "plan": partien, "by_player": selectors.plan_by_player(partien)}
    return _pdf("tournaments/pdf/plan.html", context, f"spielplan-{tournament.year}")


def _partie_index(tournament: Tournament, partie_index: int) -> int:
    if not 1 <= partie_index <= tournament.partien:
        raise Http404
    return partie_index


@club_view(Need.READ, methods=["GET"])
def partie(request: HttpRequest, access: ClubAccess, tournament_id: int, partie_index: int) -> HttpResponse:
    tournament = _tournament(access, tournament_id)
    index = _partie_index(tournament, partie_index)
    return render(
        request,
        "tournaments/partie.html",
        _context(access, tournament, partie=selectors.partie_view(tournament, index), form=PartieStartForm()),
    )


@club_view(Need.WRITE, methods=["POST"])
def partie_start(request: HttpRequest, access: ClubAccess, tournament_id: int, partie_index: int) -> HttpResponse:
    tournament = _tournament(access, tournament_id)
    index = _partie_index(tournament, partie_index)
    form = PartieStartForm(request.POST)
    if form.is_valid():
        try:
            services.partie_start(tournament=tournament, index=index, seed=form.cleaned_data["seed"], user=request.user)
        except ValidationError as error:
            _report(request, error)
        else:
            messages.success(
                request, _("Die %(index)s. Partie beginnt; die Sitzordnung ist gezogen.") % {"index": index}
            )
    else:
        messages.error(request, _("Der Seed ist ungültig."))
    return redirect("tournaments:partie", slug=access.club.slug, tournament_id=tournament.pk, partie_index=index)


@club_view(Need.READ, methods=["GET"])
def sheets_pdf(request: HttpRequest, access: ClubAccess, tournament_id: int, partie_index: int) -> HttpResponse:
    """Blank score sheets, one page per table, with the players' names: the paper backup."""
    tournament = _tournament(access, tournament_id)
    view = selectors.partie_view(tournament, _partie_index(tournament, partie_index))
    tables = [
        {
            "table": table,
            # The deal goes round clockwise from the first seat (the sheet's first dealer).
            "rows": [
                (k, table.seats[(k - 1) % len(table.seats)].name if view.started else "")
                for k in range(1, table.games + 1)
            ],
        }
        for table in view.tables
    ]
    context = {"tournament": tournament, "partie": view, "tables": tables}
    return _pdf("tournaments/pdf/sheets.html", context, f"spielzettel-{tournament.year}-partie-{view.index}")


# --- the ranking (001 §11.3) ------------------------------------------------------------------------


@club_view(Need.READ, methods=["GET"])
def ranking(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    tournament = _tournament(access, tournament_id)
    result = selectors.tournament_ranking(tournament)
    return render(
        request,
        "tournaments/ranking.html",
        _context(
            access,
            tournament,
            ranking=result,
            heads=_criteria_heads(),
            playoff_form=PlayoffForm(tournament=tournament),
            adjustment_form=AdjustmentForm(tournament=tournament),
        ),
    )


@club_view(Need.READ, methods=["GET"])
def live(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    """The big screen: the ranking and the Partie's progress; htmx reloads the board every 20 s."""
    tournament = _tournament(access, tournament_id)
    running = [view for view in selectors.partien(tournament) if view.started]
    context = _context(
        access,
        tournament,
        ranking=selectors.tournament_ranking(tournament),
        heads=_criteria_heads(),
        partie=running[-1] if running else None,
    )
    template = "tournaments/_live_board.html" if request.htmx else "tournaments/live.html"
    return render(request, template, context)


@club_view(Need.READ, methods=["GET"])
def ranking_pdf(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    tournament = _tournament(access, tournament_id)
    result = selectors.tournament_ranking(tournament)
    report = RankingReport(result)
    context = {
        "tournament": tournament,
        "ranking": result,
        "columns": report.columns(),
        "rows": list(report.rows()),
        "heads": _criteria_heads(),
    }
    return _pdf("tournaments/pdf/ranking.html", context, f"rangliste-{tournament.year}")


@club_view(Need.READ, methods=["GET"])
def ranking_xlsx(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    tournament = _tournament(access, tournament_id)
    response = HttpResponse(ranking_workbook(selectors.tournament_ranking(tournament)), content_type=XLSX)
    response["Content-Disposition"] = f'attachment; filename="rangliste-{tournament.year}.xlsx"'
    return response


def _to_ranking(access: ClubAccess, tournament: Tournament) -> HttpResponse:
    return redirect("tournaments:ranking", slug=access.club.slug, tournament_id=tournament.pk)


def _form_errors(request: HttpRequest, form: Form) -> None:
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        for error in errors:
            messages.error(request, f"{label}: {error}" if label else error)


def _record(
    request: HttpRequest, form: Form, service: Callable[..., object], tournament: Tournament, done: str
) -> None:
    """Validate a ranking form and hand it to its service; errors become messages."""
    if not form.is_valid():
        _form_errors(request, form)
        return
    try:
        service(tournament=tournament, user=request.user, **form.cleaned_data)
    except ValidationError as error:
        _report(request, error)
    else:
        messages.success(request, done)


@club_view(Need.MANAGE, methods=["POST"])
def playoff_add(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    tournament = _tournament(access, tournament_id)
    form = PlayoffForm(request.POST, tournament=tournament)
    _record(request, form, services.playoff_record, tournament, _("Stechen eingetragen."))
    return _to_ranking(access, tournament)


@club_view(Need.MANAGE, methods=["POST"])
def playoff_delete(request: HttpRequest, access: ClubAccess, tournament_id: int, playoff_id: int) -> HttpResponse:
    tournament = _tournament(access, tournament_id)
    playoff = get_object_or_404(Playoff, tournament=tournament, pk=playoff_id)
    services.playoff_delete(playoff=playoff, user=request.user)
    messages.success(request, _("Stechen gelöscht."))
    return _to_ranking(access, tournament)


@club_view(Need.MANAGE, methods=["POST"])
def adjustment_add(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    tournament = _tournament(access, tournament_id)
    form = AdjustmentForm(request.POST, tournament=tournament)
    _record(request, form, services.adjustment_record, tournament, _("Korrektur eingetragen."))
    return _to_ranking(access, tournament)


@club_view(Need.MANAGE, methods=["POST"])
def adjustment_delete(request: HttpRequest, access: ClubAccess, tournament_id: int, adjustment_id: int) -> HttpResponse:
    tournament = _tournament(access, tournament_id)
    adjustment = get_object_or_404(Adjustment, tournament=tournament, pk=adjustment_id)
    services.adjustment_delete(adjustment=adjustment, user=request.user)
    messages.success(request, _("Korrektur gelöscht."))
    return _to_ranking(access, tournament)


@club_view(Need.MANAGE, methods=["POST"])
def finish(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    tournament = _tournament(access, tournament_id)
    try:
        services.tournament_finish(tournament=tournament, user=request.user)
    except ValidationError as error:
        _report(request, error)
    else:
        messages.success(request, _("Die Meisterschaft ist abgeschlossen."))
    return redirect(tournament)


@club_view(Need.MANAGE, methods=["POST"])
def reopen(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    tournament = _tournament(access, tournament_id)
    try:
        services.tournament_reopen(tournament=tournament, user=request.user)
    except ValidationError as error:
        _report(request, error)
    else:
        messages.success(request, _("Die Meisterschaft ist wieder offen."))
    return redirect(tournament)


# --- trophies (001 §11.6) ------------------------------------------------------------------------


@club_view(Need.READ, methods=["GET"])
def trophies(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    return render(
        request, "tournaments/trophies.html", {"access": access, "history": selectors.trophy_history(access.club)}
    )
