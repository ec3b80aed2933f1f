"""Championship pages. Each view: access → form → service → redirect (see clubs/access.py).

Owners set up, draw, record playoffs and adjustments and finish; scorers start a Partie (the
seat draw) and enter hands on the score sheets; every member reads plan, Partien, ranking and
trophies, prints the PDFs and downloads the ranking as Excel.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from clubs.access import ClubAccess, Need, club_view
from clubs.models import Member
from imports import history
from imports.forms import SheetForm
from standings.exports import XLSX, download_name, file_response, pdf_response
from tournaments import selectors, services
from tournaments.engine.ranking import CRITERIA
from tournaments.exports import CRITERION_LABELS, RankingReport, ranking_workbook
from tournaments.forms import (
    AdjustmentForm,
    DrawRecordForm,
    DrawRunForm,
    FinishForm,
    ParticipantsForm,
    PartieStartForm,
    PlanChoiceForm,
    PlayoffForm,
    ReopenForm,
    RosterForm,
    SchreiberForm,
    SubstituteForm,
    TableAbortForm,
    TournamentEditForm,
    TournamentForm,
)
from tournaments.models import Adjustment, PartieTable, Playoff, Status, Tournament


def _apply(form: Form, error: ValidationError) -> None:
    if hasattr(error, "error_dict"):
        for field, errors in error.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error)


def _report(request: HttpRequest, error: ValidationError) -> None:
    for message in error.messages:
        messages.error(request, message)


def _form_errors(request: HttpRequest, form: Form) -> None:
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        for error in errors:
            messages.error(request, f"{label}: {error}" if label else error)


def _act(request: HttpRequest, form: Form | None, action: Callable[[dict[str, Any]], object], done: str) -> None:
    """The shape of every confirm-then-act POST: check the form (when there is one), run the
    service with its cleaned data, and say what happened as a message; nothing is rendered."""
    if form is not None and not form.is_valid():
        _form_errors(request, form)
        return
    try:
        action(form.cleaned_data if form is not None else {})
    except ValidationError as error:
        _report(request, error)
    else:
        messages.success(request, done)


def _tournament(access: ClubAccess, tournament_id: int) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("club"), club=access.club, pk=tournament_id)


def _download(tournament: Tournament, *content: object, extension: str) -> str:
    """``demo-meisterschaft-2026-rangliste.pdf``: the club, the championship, the content."""
    return download_name(tournament.club.slug, "meisterschaft", tournament.year, *content, extension=extension)


def _context(access: ClubAccess, tournament: Tournament, **extra: object) -> dict[str, object]:
    return {"access": access, "tournament": tournament, "Status": Status, **extra}


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
            roster_forms=_roster_forms(access, tournament)
            if tournament.status == Status.RUNNING and access.membership.can_manage
            else None,
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
        "substitute_points": tournament.substitute_points,
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
    initial["substitute_points"] = tournament.substitute_points
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
            unfinished=selectors.unfinished_before(tournament),
        ),
    )


def _redraw(tournament: Tournament) -> bool:
    return tournament.status == Status.DRAWN


@club_view(Need.MANAGE)
def draw(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    tournament = _tournament(access, tournament_id)
    run = DrawRunForm(request.POST or None, redraw=_redraw(tournament))
    if run.is_valid():
        try:
            services.draw_run(tournament=tournament, seed=run.cleaned_data["seed"], user=request.user)
        except ValidationError as error:
            _apply(run, error)
        else:
            messages.success(request, _("Die Nummern sind gezogen."))
            return redirect("tournaments:draw", slug=access.club.slug, tournament_id=tournament.pk)
    paper = DrawRecordForm(participants=selectors.draw_preview(tournament), redraw=_redraw(tournament))
    return _draw_page(request, access, tournament, run, paper)


@club_view(Need.MANAGE, methods=["POST"])
def draw_paper(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    tournament = _tournament(access, tournament_id)
    paper = DrawRecordForm(request.POST, participants=selectors.draw_preview(tournament), redraw=_redraw(tournament))
    if paper.is_valid():
        try:
            services.draw_record(tournament=tournament, numbers=paper.numbers(), user=request.user)
        except ValidationError as error:
            _apply(paper, error)
        else:
            messages.success(request, _("Die gezogenen Nummern sind eingetragen."))
            return redirect("tournaments:draw", slug=access.club.slug, tournament_id=tournament.pk)
    return _draw_page(request, access, tournament, DrawRunForm(redraw=_redraw(tournament)), paper)


# --- the plan and the Partien ----------------------------------------------------------------------


@club_view(Need.READ, methods=["GET"])
def plan(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    tournament = _tournament(access, tournament_id)
    partien = selectors.plan(tournament)
    context = _context(
        access,
        tournament,
        plan=partien,
        by_player=selectors.plan_by_player(partien),
        variants=selectors.plan_variants(tournament),
        variant_label=selectors.variant_label((tournament.plan or {}).get("variant", "fewest_repeats")),
        choice_open=selectors.plan_choice_open(tournament),
    )
    return render(request, "tournaments/plan.html", context)


@club_view(Need.MANAGE, methods=["POST"])
def plan_choose(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    """The organiser takes one of the offered plans (issues 14 and 30), before the first Partie or
    after a re-plan before the next."""
    tournament = _tournament(access, tournament_id)
    _act(
        request,
        PlanChoiceForm(request.POST),
        lambda data: services.plan_choose(tournament=tournament, variant=data["variant"], user=request.user),
        _("Der gewählte Spielplan gilt."),
    )
    return redirect("tournaments:plan", slug=access.club.slug, tournament_id=tournament.pk)


@club_view(Need.READ, methods=["GET"])
def plan_pdf(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    tournament = _tournament(access, tournament_id)
    partien = selectors.plan(tournament)
    columns, points = wall_layout(partien[0].tables if partien else ())
    context = {
        "tournament": tournament,
        "plan": partien,
        "walls": [(partie, wall_rows(partie.tables, columns)) for partie in partien],
        "by_player": selectors.plan_by_player(partien),
        "wall_columns": columns,
        "wall_pt": points,
    }
    return pdf_response("tournaments/pdf/plan.html", context, _download(tournament, "spielplan", extension="pdf"))


# The seating plan on the wall (issue 14): one Partie per landscape A4 page, read from two metres.
WALL_WIDTH_MM, WALL_HEIGHT_MM = 273, 160  # the page body under the Partie's heading
NAME_CHARS = 15  # a name this long still fits its card on one line (longer ones are cut with …)
PT_MM = 0.3528


def wall_layout(tables: Sequence[selectors.PlanTable]) -> tuple[int, int]:
    """(columns of table cards, type size in pt): the layout with the largest type that fits. From
    two metres a name wants about 14 pt and up; 3 tables of 5 get 24 pt, 12 tables about 14 pt."""
    count = max(1, len(tables))
    lines = max((len(t.seats) for t in tables), default=4) + 1.6  # the names and the card's heading

    def size(columns: int) -> int:
        rows = -(-count // columns)
        by_height = (WALL_HEIGHT_MM / rows - 6) / lines / 1.3 / PT_MM
        by_width = (WALL_WIDTH_MM / columns - 8) / (NAME_CHARS * 0.6 + 2.5) / PT_MM
        return int(min(28, by_height, by_width))

    columns = max(range(1, min(count, 6) + 1), key=lambda c: (size(c), -c))
    return columns, max(9, size(columns))


def wall_rows(tables: Sequence[selectors.PlanTable], columns: int) -> list[list[selectors.PlanTable | None]]:
    """The cards in rows of ``columns``, the last row filled up with blanks (a fixed table layout)."""
    cards: list[selectors.PlanTable | None] = list(tables)
    cards += [None] * (-len(cards) % columns)
    return [cards[i : i + columns] for i in range(0, len(cards), columns)]


def _partie_index(tournament: Tournament, partie_index: int) -> int:
    if not 1 <= partie_index <= tournament.partien:
        raise Http404
    return partie_index


def _substitute_form(access: ClubAccess, tournament: Tournament, index: int, data: object = None) -> SubstituteForm:
    partie = tournament.partie_set.filter(index=index).first()
    playing = list(selectors.partie_occupants(partie)) if partie is not None else []
    return SubstituteForm(
        data,
        playing=Member.objects.filter(pk__in=playing).order_by("display_name"),
        members=Member.objects.filter(club=access.club, is_active=True)
        .exclude(pk__in=playing)
        .order_by("display_name"),
    )


@club_view(Need.READ, methods=["GET"])
def partie(request: HttpRequest, access: ClubAccess, tournament_id: int, partie_index: int) -> HttpResponse:
    tournament = _tournament(access, tournament_id)
    index = _partie_index(tournament, partie_index)
    view = selectors.partie_view(tournament, index)
    schreiber_forms = (
        {
            t.number: SchreiberForm(club=access.club, prefix=f"t{t.number}", initial={"login": t.writer_id})
            for t in view.tables
            if t.table is not None
        }
        if access.membership.can_manage and not tournament.is_finished
        else {}
    )
    substitute = (
        _substitute_form(access, tournament, index)
        if view.started and tournament.status == Status.RUNNING and access.membership.can_manage
        else None
    )
    return render(
        request,
        "tournaments/partie.html",
        _context(
            access,
            tournament,
            partie=view,
            form=PartieStartForm(),
            schreiber_forms=schreiber_forms,
            substitute_form=substitute,
            abort_form=TableAbortForm(),
        ),
    )


@club_view(Need.MANAGE, methods=["POST"])
def partie_schreiber(
    request: HttpRequest, access: ClubAccess, tournament_id: int, partie_index: int, table_number: int
) -> HttpResponse:
    """The Vorstand names the login that writes a table of the Partie (issue 20)."""
    tournament = _tournament(access, tournament_id)
    index = _partie_index(tournament, partie_index)
    partie_table = get_object_or_404(
        PartieTable, partie__tournament=tournament, partie__index=index, number=table_number
    )
    form = SchreiberForm(request.POST, club=access.club, prefix=f"t{table_number}")

    def assign(data: dict[str, Any]) -> object:
        return services.partie_table_schreiber_assign(partie_table=partie_table, login=data["login"], user=request.user)

    _act(request, form, assign, _("Tisch %(number)s: Schreiber gespeichert.") % {"number": table_number})
    return redirect("tournaments:partie", slug=access.club.slug, tournament_id=tournament.pk, partie_index=index)


@club_view(Need.MANAGE, methods=["POST"])
def partie_substitute(request: HttpRequest, access: ClubAccess, tournament_id: int, partie_index: int) -> HttpResponse:
    """A substitute takes an absent player's seat from his table's next hand on (issue 20)."""
    tournament = _tournament(access, tournament_id)
    index = _partie_index(tournament, partie_index)
    _act(
        request,
        _substitute_form(access, tournament, index, request.POST),
        lambda data: services.partie_substitute(tournament=tournament, index=index, user=request.user, **data),
        _("Der Ersatzspieler sitzt; er spielt ab dem nächsten Spiel seines Tisches."),
    )
    return redirect("tournaments:partie", slug=access.club.slug, tournament_id=tournament.pk, partie_index=index)


def _roster_forms(access: ClubAccess, tournament: Tournament, data: object = None) -> tuple[RosterForm, RosterForm]:
    """(withdraw, add): the participants who play on; the club's members who do not take part."""
    taking_part = tournament.participants.values("member_id")
    staying = tournament.participants.filter(withdrawn_after__isnull=True).values("member_id")
    return (
        RosterForm(data, members=Member.objects.filter(pk__in=staying).order_by("display_name"), prefix="withdraw"),
        RosterForm(
            data,
            members=Member.objects.filter(club=access.club, is_active=True)
            .exclude(pk__in=taking_part)
            .order_by("display_name"),
            prefix="add",
        ),
    )


@club_view(Need.MANAGE, methods=["POST"])
def roster_withdraw(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    tournament = _tournament(access, tournament_id)
    _act(
        request,
        _roster_forms(access, tournament, request.POST)[0],
        lambda data: services.participant_withdraw(tournament=tournament, user=request.user, **data),
        _("Zurückgezogen; die restlichen Partien sind neu geplant."),
    )
    return redirect("tournaments:detail", slug=access.club.slug, tournament_id=tournament.pk)


@club_view(Need.MANAGE, methods=["POST"])
def roster_add(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    tournament = _tournament(access, tournament_id)
    _act(
        request,
        _roster_forms(access, tournament, request.POST)[1],
        lambda data: services.participant_add(tournament=tournament, user=request.user, **data),
        _("Nachgemeldet; die restlichen Partien sind neu geplant."),
    )
    return redirect("tournaments:detail", slug=access.club.slug, tournament_id=tournament.pk)


@club_view(Need.WRITE, methods=["POST"])
def partie_start(request: HttpRequest, access: ClubAccess, tournament_id: int, partie_index: int) -> HttpResponse:
    tournament = _tournament(access, tournament_id)
    index = _partie_index(tournament, partie_index)
    _act(
        request,
        PartieStartForm(request.POST),
        lambda data: services.partie_start(tournament=tournament, index=index, seed=data["seed"], user=request.user),
        _("Die %(index)s. Partie beginnt; die Sitzordnung ist gezogen.") % {"index": index},
    )
    return redirect("tournaments:partie", slug=access.club.slug, tournament_id=tournament.pk, partie_index=index)


def _paper_rows(form: SheetForm, confirm: bool) -> tuple[list[history.Row], list[Any] | None, str, int | None]:
    """(the rows, the players a JSON document names or None, the file's name, the number the
    preview showed for the first row or None) of the upload or, confirming, of the rows the
    preview carried (never a file chosen after it). ``HistoryFileError`` where unreadable."""
    data = form.cleaned_data
    if confirm or not data.get("file"):
        setup, rows = history.carried_document(data.get("document") or "")
        return rows, setup["players"], setup["source"], setup["first_number"]
    upload = data["file"]
    doc, rows = history.read_file(upload.name, upload.read())
    players = doc.get("players") if doc is not None and "players" in doc else None
    return rows, players, history.source_name(upload.name), None


@club_view(Need.MANAGE)
def partie_paper(
    request: HttpRequest, access: ClubAccess, tournament_id: int, partie_index: int, table_number: int
) -> HttpResponse:
    """A table that went on on paper (issue 20): the owner uploads its sheet (the history
    import's template as CSV or Excel, or spec JSON); a preview shows every row's amounts or
    error; confirmed, the rows are appended after the hands the table holds, all or none."""
    tournament = _tournament(access, tournament_id)
    index = _partie_index(tournament, partie_index)
    partie_table = selectors.partie_table(tournament, index, table_number)
    table = partie_table.table
    form = SheetForm(request.POST or None, request.FILES or None)
    table_view = next(t for t in selectors.partie_view(tournament, index).tables if t.number == partie_table.number)
    context = _context(access, tournament, partie_table=partie_table, table_view=table_view, form=form, index=index)
    if request.method == "POST" and form.is_valid():
        confirm = "confirm" in request.POST
        try:
            rows, players, source, expected = _paper_rows(form, confirm)
        except history.HistoryFileError as error:
            form.add_error("file", str(error))
            return render(request, "tournaments/partie_paper.html", context)
        checked = history.table_preview(table=table, rows=rows, players=players)
        if confirm and checked.valid:  # checked again: the carried rows come from the browser
            try:
                entries = history.table_import(
                    table=table, rows=rows, players=players, user=request.user, expected_number=expected
                )
            except history.HistoryRefused as refused:
                checked = refused.preview
            else:
                messages.success(
                    request,
                    _("Tisch %(number)s: %(count)s Einträge vom Papierzettel angehängt.")
                    % {"number": partie_table.number, "count": len(entries)},
                )
                return redirect(
                    "tournaments:partie", slug=access.club.slug, tournament_id=tournament.pk, partie_index=index
                )
        form = SheetForm(initial={"document": history.carry(checked, source) if checked.valid else ""})
        context |= {"form": form, "preview": checked, "source": source}
    return render(request, "tournaments/partie_paper.html", context)


def _to_partie(access: ClubAccess, tournament: Tournament, index: int) -> HttpResponse:
    return redirect("tournaments:partie", slug=access.club.slug, tournament_id=tournament.pk, partie_index=index)


@club_view(Need.MANAGE, methods=["POST"])
def table_abort(
    request: HttpRequest, access: ClubAccess, tournament_id: int, partie_index: int, table_number: int
) -> HttpResponse:
    """The owner marks a table short of its games as broken off, with the reason (issue 20)."""
    tournament = _tournament(access, tournament_id)
    index = _partie_index(tournament, partie_index)
    _act(
        request,
        TableAbortForm(request.POST),
        lambda data: services.table_abort(
            tournament=tournament, partie=index, table=table_number, reason=data["reason"], user=request.user
        ),
        _("Tisch %(number)s ist als abgebrochen markiert.") % {"number": table_number},
    )
    return _to_partie(access, tournament, index)


@club_view(Need.MANAGE, methods=["POST"])
def table_abort_undo(
    request: HttpRequest, access: ClubAccess, tournament_id: int, partie_index: int, table_number: int
) -> HttpResponse:
    tournament = _tournament(access, tournament_id)
    index = _partie_index(tournament, partie_index)
    _act(
        request,
        None,
        lambda _data: services.table_abort_undo(
            tournament=tournament, partie=index, table=table_number, user=request.user
        ),
        _("Der Abbruch von Tisch %(number)s ist zurückgenommen.") % {"number": table_number},
    )
    return _to_partie(access, tournament, index)


# The blank sheet: one A4 page per table (issue 14). The body of the page holds this many mm of
# rows; a table of 40 games gets roomy rows, one of 60 (six players) rows of 3.8 mm.
SHEET_ROWS_MM = 214
SHEET_ROW_MAX_MM = 5.4
# The sheet's columns (mm) and the type of its names (pt): each name is set smaller until it fits
# (issue 20: no name cut that fits), down to the smallest size still read at the table; only a
# name too long even then is cut. A seat's head takes its name on up to two lines.
SHEET_WIDTH_MM = 190
SHEET_FIXED_MM = 7 + 32 + 20  # Nr., Geber, Spiel
SHEET_DEALER_MM = 32
SHEET_NAME_PT = (7.5, 5.5)
SHEET_HEAD_PT = (7.5, 6)
_WORDS = re.compile(r"\S+?-(?=\S)|\S+")  # a line may break after a space or a hyphen


def _lines(words: Sequence[str], chars: float) -> int:
    """The lines ``words`` take, set greedily in lines of ``chars`` characters."""
    lines, used = 1, 0.0
    for word in words:
        if used and used + len(word) + (0 if used and word[:1] == "-" else 1) > chars:
            lines, used = lines + 1, len(word)
        else:
            used += len(word) + (1 if used else 0)
    return lines


def fit_pt(text: str, width_mm: float, sizes: tuple[float, float], *, lines: int = 1, advance: float = 0.58) -> float:
    """The largest type size (in half points, between ``sizes``) at which ``text`` fits in
    ``lines`` lines of ``width_mm``, by DejaVu Sans's average advance of about 0.58 em (0.7
    bold); the smallest where it does not fit at all."""
    largest, smallest = sizes
    words = _WORDS.findall(text) if lines > 1 else [text]
    size = largest
    while size > smallest:
        chars = (width_mm - 2.4) / (advance * PT_MM * size)
        if max((len(word) for word in words), default=0) <= chars and _lines(words, chars) <= lines:
            return size
        size -= 0.5
    return smallest


def sheet_rows(seats: int, games: int, names: list[str], first: int = 0) -> list[dict[str, object]]:
    """Each game of a blank sheet: its number, the dealer, and which seats sit out (001 §7.1 at
    five: the dealer; §7.2 at six: also the Abheber to the dealer's right). The deal goes round
    clockwise from seat ``first`` (the table's first dealer; the Schreiber's seat until the table
    chose another)."""
    rows = []
    for number in range(1, games + 1):
        dealer = (first + number - 1) % seats
        out = {dealer} if seats >= 5 else set()
        if seats == 6:
            out.add((dealer - 1) % seats)
        name = names[dealer] if names else ""
        rows.append(
            {
                "number": number,
                "dealer": name,
                "dealer_pt": f"{fit_pt(name, SHEET_DEALER_MM, SHEET_NAME_PT):.1f}",
                "out": [k in out for k in range(seats)],
            }
        )
    return rows


@club_view(Need.READ, methods=["GET"])
def sheets_pdf(request: HttpRequest, access: ClubAccess, tournament_id: int, partie_index: int) -> HttpResponse:
    """Blank score sheets, one A4 page per table, with the players' names: the paper backup."""
    tournament = _tournament(access, tournament_id)
    view = selectors.partie_view(tournament, _partie_index(tournament, partie_index))
    tables = []
    for table in view.tables:
        names = [seat.name for seat in table.seats] if view.started else []
        first = names.index(table.first_dealer) if table.first_dealer in names else 0
        height = min(SHEET_ROW_MAX_MM, SHEET_ROWS_MM / (table.games + 3))  # the games, the head, the sum
        seat_mm = (SHEET_WIDTH_MM - SHEET_FIXED_MM) / max(1, len(table.seats))
        tables.append(
            {
                "table": table,
                "rows": sheet_rows(len(table.seats), table.games, names, first),
                "row_mm": f"{height:.2f}",
                "heads": [
                    (seat, f"{fit_pt(seat.name, seat_mm, SHEET_HEAD_PT, lines=2, advance=0.7):.1f}")
                    for seat in table.seats
                ],
            }
        )
    context = {"tournament": tournament, "partie": view, "tables": tables}
    return pdf_response(
        "tournaments/pdf/sheets.html", context, _download(tournament, "spielzettel-partie", view.index, extension="pdf")
    )


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
            reopens=selectors.reopen_notes(tournament),
            roster_log=selectors.roster_log(tournament),
        ),
    )


# The big screen (issue 20): up to this many players in one table with every criterion; more are
# split into side-by-side columns of at most LIVE_ROWS rows showing place, name, points, games and
# the Partien, so 60 players still read from the back of the room at 1280×720. The type is then
# scaled to the window by static/tournaments/live-fit.js.
LIVE_ONE_TABLE = 24
LIVE_ROWS = 30


def live_blocks(rows: Sequence[selectors.RankingRow]) -> list[Sequence[selectors.RankingRow]]:
    """The ranking's rows as the big screen's columns, filled evenly from the top."""
    if len(rows) <= LIVE_ONE_TABLE:
        return [rows]
    count = -(-len(rows) // LIVE_ROWS)
    size = -(-len(rows) // count)
    return [rows[i : i + size] for i in range(0, len(rows), size)]


@club_view(Need.READ, methods=["GET"])
def live(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    """The big screen: the ranking and the Partie's progress (after the finish: "Endstand", the
    date and the Zock-König); htmx reloads the board every 20 s."""
    tournament = _tournament(access, tournament_id)
    running = [view for view in selectors.partien(tournament) if view.started]
    result = selectors.tournament_ranking(tournament)
    blocks = live_blocks(result.rows)
    context = _context(
        access,
        tournament,
        ranking=result,
        blocks=blocks,
        full=len(blocks) == 1,  # one table: every criterion; several: points, games, Partien
        heads=_criteria_heads(),
        partie=running[-1] if running else None,
        # After the finish the head reads the final result (issue 30), not the last Partie's tables.
        king=selectors.zock_koenig(result) if tournament.is_finished else None,
    )
    template = "tournaments/_live_board.html" if request.htmx else "tournaments/live.html"
    return render(request, template, context)


@club_view(Need.READ, methods=["GET"])
def ranking_pdf(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    tournament = _tournament(access, tournament_id)
    result = selectors.tournament_ranking(tournament)
    report = RankingReport(result, printed=True)
    columns = report.columns()
    context = {
        "tournament": tournament,
        "ranking": result,
        "columns": columns,
        # (the cells with their column's kind, on the podium): the cells of the shared report, the
        # emphasis from the ranking
        "rows": [
            ([(value, column.kind) for value, column in zip(cells, columns, strict=True)], row.placing.place <= 3)
            for cells, row in zip(report.rows(), result.rows, strict=True)
        ],
        "heads": _criteria_heads(),
        "reopens": selectors.reopen_notes(tournament),
    }
    return pdf_response("tournaments/pdf/ranking.html", context, _download(tournament, "rangliste", extension="pdf"))


@club_view(Need.READ, methods=["GET"])
def ranking_xlsx(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    tournament = _tournament(access, tournament_id)
    data = ranking_workbook(selectors.tournament_ranking(tournament))
    return file_response(data, XLSX, _download(tournament, "rangliste", extension="xlsx"))


def _to_ranking(access: ClubAccess, tournament: Tournament) -> HttpResponse:
    return redirect("tournaments:ranking", slug=access.club.slug, tournament_id=tournament.pk)


def _ranking_add(
    request: HttpRequest, access: ClubAccess, tournament_id: int, form_class: type[Form], service: Callable, done: str
) -> HttpResponse:
    """A playoff or an adjustment recorded from the ranking page."""
    tournament = _tournament(access, tournament_id)
    form = form_class(request.POST, tournament=tournament)
    _act(request, form, lambda data: service(tournament=tournament, user=request.user, **data), done)
    return _to_ranking(access, tournament)


@club_view(Need.MANAGE, methods=["POST"])
def playoff_add(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    return _ranking_add(request, access, tournament_id, PlayoffForm, services.playoff_record, _("Stechen eingetragen."))


def _delete(
    request: HttpRequest,
    access: ClubAccess,
    tournament: Tournament,
    what: str,
    consequence: str,
    action: Callable[[], None],
    done: str,
) -> HttpResponse:
    """A destructive step from the ranking page: GET asks (what goes, what follows), only the
    POST from that page deletes (issue 20: no one-tap delete)."""
    if request.method == "POST":
        _act(request, None, lambda _data: action(), done)
        return _to_ranking(access, tournament)
    return render(
        request, "tournaments/confirm_delete.html", _context(access, tournament, what=what, consequence=consequence)
    )


def _names(members: Iterable[Member]) -> str:
    return ", ".join(sorted(member.display_name for member in members))


@club_view(Need.MANAGE)
def playoff_delete(request: HttpRequest, access: ClubAccess, tournament_id: int, playoff_id: int) -> HttpResponse:
    tournament = _tournament(access, tournament_id)
    playoff = get_object_or_404(
        Playoff.objects.select_related("winner").prefetch_related("players"), tournament=tournament, pk=playoff_id
    )
    return _delete(
        request,
        access,
        tournament,
        _("Stechen %(players)s, gewonnen von %(winner)s löschen?")
        % {"players": _names(playoff.players.all()), "winner": playoff.winner.display_name},
        _("Danach stehen diese Spieler wieder gleich und teilen sich den Platz, bis ein Stechen eingetragen ist."),
        lambda: services.playoff_delete(playoff=playoff, user=request.user),
        _("Stechen gelöscht."),
    )


@club_view(Need.MANAGE, methods=["POST"])
def adjustment_add(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    return _ranking_add(
        request, access, tournament_id, AdjustmentForm, services.adjustment_record, _("Korrektur eingetragen.")
    )


@club_view(Need.MANAGE)
def adjustment_delete(request: HttpRequest, access: ClubAccess, tournament_id: int, adjustment_id: int) -> HttpResponse:
    tournament = _tournament(access, tournament_id)
    adjustment = get_object_or_404(
        Adjustment.objects.prefetch_related("players"), tournament=tournament, pk=adjustment_id
    )
    return _delete(
        request,
        access,
        tournament,
        _("Korrektur %(points)+d für %(players)s löschen (%(reason)s)?")
        % {"points": adjustment.points, "players": _names(adjustment.players.all()), "reason": adjustment.reason},
        _("Danach zählen diese Punkte nicht mehr für die Platzierung."),
        lambda: services.adjustment_delete(adjustment=adjustment, user=request.user),
        _("Korrektur gelöscht."),
    )


@club_view(Need.MANAGE)
def finish(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    """Finishing in two steps: the page shows what is missing and what refuses it; the owner
    confirms with a tick (issue 14: no one-tap finish)."""
    tournament = _tournament(access, tournament_id)
    form = FinishForm(request.POST or None)
    if form.is_valid():
        try:
            services.tournament_finish(tournament=tournament, user=request.user)
        except ValidationError as error:
            _apply(form, error)
        else:
            messages.success(request, _("Die Meisterschaft ist abgeschlossen."))
            moves = selectors.finish_moves(tournament)
            if moves is not None:  # finished again after a reopen: what changed (issue 20)
                messages.info(request, _moves_text(moves))
            return redirect(tournament)
    return render(
        request,
        "tournaments/finish.html",
        _context(access, tournament, form=form, check=selectors.finish_check(tournament)),
    )


def _moves_text(moves: Sequence[selectors.Move]) -> str:
    if not moves:
        return _("Gegenüber dem letzten Abschluss: keine Änderung der Plätze.")
    return _("Gegenüber dem letzten Abschluss: Platz geändert: %(moves)s.") % {"moves": ", ".join(map(str, moves))}


@club_view(Need.MANAGE)
def reopen(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    """Reopening a finished championship: owners only, with a reason and the tick (issue 20)."""
    tournament = _tournament(access, tournament_id)
    form = ReopenForm(request.POST or None)
    if form.is_valid():
        try:
            services.tournament_reopen(tournament=tournament, reason=form.cleaned_data["reason"], user=request.user)
        except ValidationError as error:
            _apply(form, error)
        else:
            messages.success(
                request,
                _("Die Meisterschaft ist wieder offen; der Grund steht auf der Rangliste. Danach wieder abschließen."),
            )
            return redirect(tournament)
    return render(request, "tournaments/reopen.html", _context(access, tournament, form=form))


# --- trophies (001 §11.6) ------------------------------------------------------------------------


@club_view(Need.READ, methods=["GET"])
def trophies(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    return render(
        request, "tournaments/trophies.html", {"access": access, "history": selectors.trophy_history(access.club)}
    )
