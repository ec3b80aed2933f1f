"""Evenings, tables and the score sheet. Each view: access → form → service → redirect or partial.

The table page is one screen on a phone: the table state, the entry form with its live preview
(htmx posts the form to ``entry_preview`` as the Schreiber types) and the Liste. Saving posts
the form with htmx and swaps the whole live part (state, a fresh form, the sheet); without
JavaScript the same forms post and redirect.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseClientRedirect

from clubs.access import ClubAccess, Need, club_view
from clubs.ids import parse_id, parse_ids
from clubs.models import Member
from clubs.tables import configure_table
from scoring import hooks, safejson, selectors, services
from scoring.amounts import format_amount
from scoring.engine import registry
from scoring.engine.core import EngineError
from scoring.engine.session import EntryError, SessionResult, preview
from scoring.forms.entry import EntryContext, SubmissionFields
from scoring.forms.evening import CloseForm, ReasonForm, RulesForm, SessionForm, TableStartForm
from scoring.forms.families import FamilyHandForm
from scoring.forms.hand import EventForm, HandForm, RawEntryForm, entry_form_class, event_kinds, posted_form_class
from scoring.labels import (
    club_words,
    describe,
    paper_numbers,
    short_names,
    suit_names,
    triggered_label,
    triggered_news,
    unpaid_notes,
)
from scoring.models import Entry, Session, Table, Unit
from scoring.option_labels import evening_presets
from scoring.tables import KasseTable, SessionTable

# --- evenings -----------------------------------------------------------------------------------


@club_view(Need.READ, methods=["GET"])
def session_list(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    table = SessionTable(selectors.club_sessions(access.club))
    configure_table(request, table, per_page=25)
    return render(request, "scoring/session_list.html", {"access": access, "table": table})


@club_view(Need.WRITE)
def session_create(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    form = SessionForm(request.POST or None)
    if form.is_valid():
        session = services.session_create(club=access.club, user=request.user, **form.cleaned_data)
        messages.success(request, _("Spielabend angelegt. Jetzt den ersten Tisch starten."))
        return redirect("scoring:table_start", slug=access.club.slug, session_id=session.pk)
    return render(request, "scoring/session_form.html", {"access": access, "form": form})


def _session(access: ClubAccess, session_id: int) -> Session:
    return get_object_or_404(Session.objects.select_related("club", "closed_by"), club=access.club, pk=session_id)


@club_view(Need.READ, methods=["GET"])
def session_detail(request: HttpRequest, access: ClubAccess, session_id: int) -> HttpResponse:
    session = _session(access, session_id)
    rules = selectors.club_rules(access.club)
    tables = selectors.session_tables(session)
    # Money is settled and may go to the Kasse; points (a championship Partie) are only counted.
    money = any(summary.table.unit == Unit.CENT for summary in tables)
    context = {
        "access": access,
        "session": session,
        "tables": tables,
        "money": money,
        "balances": selectors.session_balances(session),
        "transfers": [t for t in selectors.session_settlement(session) if t.unit == Unit.CENT],
        "close_form": CloseForm(initial={"book_to_kasse": rules.winnings_to_kasse and money}),
        # Skat (skat.md §6): what closing books into the Kasse besides any winnings.
        "verlustspielgeld": sum(selectors.session_verlustspielgeld(session).values()) if not session.is_closed else 0,
        "can_reopen": _can_reopen(access, session),
        "lock": hooks.session_lock(session),
        "unlock": hooks.unlock_link(session),
    }
    return render(request, "scoring/session_detail.html", context)


@club_view(Need.WRITE, methods=["POST"])
def session_close(request: HttpRequest, access: ClubAccess, session_id: int) -> HttpResponse:
    session = _session(access, session_id)
    form = CloseForm(request.POST)
    form.is_valid()
    try:
        services.session_close(
            session=session, user=request.user, book_to_kasse=form.cleaned_data.get("book_to_kasse", False)
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("Der Abend ist abgeschlossen."))
    return redirect(session)


def _can_reopen(access: ClubAccess, session: Session) -> bool:
    """Owners reopen any evening; the scorer who closed it, on the same day (a closing by
    mistake at the table is undone there, not by calling the Vorstand)."""
    if not session.is_closed or not access.membership.can_write:
        return False
    if access.membership.can_manage:
        return True
    assert session.closed_at is not None
    same_day = timezone.localdate(session.closed_at) == timezone.localdate()
    return session.closed_by_id == access.membership.user_id and same_day


@club_view(Need.WRITE, methods=["POST"])
def session_reopen(request: HttpRequest, access: ClubAccess, session_id: int) -> HttpResponse:
    session = _session(access, session_id)
    if session.is_closed and not _can_reopen(access, session):
        raise PermissionDenied
    try:
        services.session_reopen(session=session, user=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("Der Abend ist wieder offen; Kassenbuchungen wurden storniert."))
    return redirect(session)


# --- tables -------------------------------------------------------------------------------------


def _players(access: ClubAccess) -> QuerySet[Member]:
    return Member.objects.filter(club=access.club, is_active=True).order_by("display_name")


@club_view(Need.WRITE)
def table_start(request: HttpRequest, access: ClubAccess, session_id: int) -> HttpResponse:
    session = _session(access, session_id)
    club_spec = selectors.club_rules_spec(access.club)
    form = TableStartForm(
        request.POST or None,
        players=_players(access),
        club_preset=str(club_spec["preset"]),
        game=access.club.game,
        initial={"name": _("Tisch %(n)s") % {"n": session.tables.count() + 1}},
    )
    if form.is_valid():
        members = form.cleaned_data["members"]
        preset = form.cleaned_data["preset"]
        try:
            table = services.table_start(
                session=session,
                members=members,
                first_dealer=members[form.cleaned_data["first_dealer"]],
                name=form.cleaned_data["name"],
                rules=club_spec if preset == club_spec["preset"] else preset,
                user=request.user,
            )
        except ValidationError as error:
            _apply(form, error)
        else:
            return redirect(table)
    return render(request, "scoring/table_start.html", {"access": access, "session": session, "form": form})


def _table(access: ClubAccess, session_id: int, table_id: int) -> Table:
    return selectors.club_table(access.club, session_id, table_id)


def _table_to_write(request: HttpRequest, access: ClubAccess, session_id: int, table_id: int) -> Table:
    """The table for a view that changes it: 403 with the reason for a login that may not (at a
    championship only the table's Schreiber and the Vorstand write, ``scoring.hooks``)."""
    return selectors.club_table_to_write(access.club, session_id, table_id, request.user)


def _live_context(
    request: HttpRequest,
    access: ClubAccess,
    table: Table,
    form: SubmissionFields | None = None,
    result: SessionResult | None = None,
) -> dict[str, Any]:
    """Everything the live part of the table page shows: state, entry form, sheet."""
    setup = selectors.table_setup(table)
    result = result or selectors.table_state(table, setup)
    entry_context = EntryContext(setup, result.state, len(result.entries) + 1)
    tap_form = entry_form_class(entry_context)
    json_form = None
    if tap_form is not RawEntryForm:
        # The tap form, and the JSON fallback beside it (the one that came back with errors).
        json_form = form if isinstance(form, RawEntryForm) else RawEntryForm(context=entry_context)
        form = None if isinstance(form, RawEntryForm) else form
    if form is None:
        form = tap_form(context=entry_context)
    sheet = selectors.table_sheet(table)
    changed = set(parse_ids(request.GET.get("changed", "")))
    lock = hooks.session_lock(table.session)
    may_write = access.membership.can_write and not table.session.is_closed and not lock
    refusal = hooks.write_refusal(table, request.user) if may_write else None
    return {
        "access": access,
        "session": table.session,
        "table": table,
        "state": result.state,
        "setup": setup,
        "sheet": sheet,
        "short": sheet.short,
        # The save button's "Nr.": hands only, as on paper (events are no hands, issue 21).
        "next_hand": sum(1 for entry in result.entries if entry.kind == "hand") + 1,
        "form": form,
        "json_form": json_form,
        "event_forms": _event_forms(entry_context),
        "vote_form": _vote_form(entry_context),
        "can_write": may_write and refusal is None,
        "lock": lock,
        "unlock": hooks.unlock_link(table.session) if lock else None,
        "write_refusal": refusal,
        "first_dealer": _first_dealer_choice(table, setup, result) if may_write and refusal is None else None,
        "changed": changed,
        "urls": _table_urls(table),
        "table_notes": [*hooks.notes(table), *selectors.seat_notes(table)],
        "table_links": hooks.links(table),
    }


def _first_dealer_choice(table: Table, setup: selectors.TableSetup, result: SessionResult) -> dict[str, Any] | None:
    """Before the first entry: "Wer gibt zuerst?" with the players as buttons (001 §2.3: the
    players cut and the highest card deals), the one in turn marked."""
    if result.entries:
        return None
    kwargs = {"slug": table.session.club.slug, "session_id": table.session_id, "table_id": table.pk}
    return {
        "url": reverse("scoring:table_first_dealer", kwargs=kwargs),
        "players": [(name, setup.members[name]) for name in setup.players],
        "current": setup.first_dealer,
    }


def _event_forms(context: EntryContext) -> list[EventForm]:
    """The events under "Ereignis eintragen"; the vote has buttons of its own (``_vote_form``)."""
    state = context.state
    kinds = [k for k in event_kinds(context) if k != "vote" and (k != "end_round" or state.current)]
    return [EventForm(context=context, initial={"event": kind}, prefix=kind) for kind in kinds]


def _vote_form(context: EntryContext) -> EventForm | None:
    """The vote of 001 §5.2, at every table whose rules have the Mungorunde: shown while it is
    due (online by the server, offline by the phone's own fold)."""
    if not context.setup.rules.mungorunde:
        return None
    return EventForm(context=context, initial={"event": "vote"}, prefix="vote")


def _table_urls(table: Table) -> dict[str, str]:
    kwargs = {"slug": table.session.club.slug, "session_id": table.session_id, "table_id": table.pk}
    return {
        name: reverse(f"scoring:{name}", kwargs=kwargs)
        for name in ("table", "entry_add", "entry_preview", "event_add", "entry_undo", "table_audit")
    }


def _render_live(request: HttpRequest, context: dict[str, Any]) -> HttpResponse:
    template = "scoring/_table_live.html" if request.htmx else "scoring/table.html"
    return render(request, template, context)


@club_view(Need.READ, methods=["GET"])
def table_detail(request: HttpRequest, access: ClubAccess, session_id: int, table_id: int) -> HttpResponse:
    table = _table(access, session_id, table_id)
    return render(request, "scoring/table.html", _live_context(request, access, table))


@club_view(Need.WRITE, methods=["POST"])
def table_first_dealer(request: HttpRequest, access: ClubAccess, session_id: int, table_id: int) -> HttpResponse:
    """Choose who deals the first hand (before the first entry)."""
    table = _table_to_write(request, access, session_id, table_id)
    member_id = parse_id(request.POST.get("member"))
    member = table.seats.filter(member_id=member_id).select_related("member").first() if member_id else None
    if member is None:
        messages.error(request, _("Bitte einen Spieler dieses Tisches wählen."))
        return redirect(table)
    try:
        services.table_first_dealer_set(table=table, member=member.member, user=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("Es gibt zuerst: %(name)s.") % {"name": member.name})
    return redirect(table)


def _entry_context(table: Table, entry: Entry | None = None) -> EntryContext:
    setup = selectors.table_setup(table)
    if entry is None:
        result = selectors.table_state(table, setup)
        return EntryContext(setup, result.state, len(result.entries) + 1)
    return EntryContext(setup, selectors.state_before(table, entry.number, setup).state, entry.number)


def _when_gone(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A save for a table removed while it was on its way (the desk took an open tournament's table
    back to paper as the phone saved its first game): back to the evening with the reason, never
    an error page; nothing was stored (``selectors.TableGone``)."""

    @functools.wraps(view)
    def answer(request: HttpRequest, access: ClubAccess, *, session_id: int, table_id: int) -> HttpResponse:
        try:
            return view(request, access, session_id=session_id, table_id=table_id)
        except selectors.TableGone as gone:
            messages.error(request, str(gone))
            evening = Session.objects.filter(club=access.club, pk=session_id).first()
            target = (
                evening.get_absolute_url()
                if evening
                else reverse("scoring:session_list", kwargs={"slug": access.club.slug})
            )
            return HttpResponseClientRedirect(target) if request.htmx else redirect(target)

    return answer


@club_view(Need.WRITE, methods=["POST"])
@_when_gone
def entry_add(request: HttpRequest, access: ClubAccess, session_id: int, table_id: int) -> HttpResponse:
    """Save a hand; on a refusal the form comes back with what was typed and the error at its field."""
    table = _table_to_write(request, access, session_id, table_id)
    context = _entry_context(table)
    return _append(request, access, table, posted_form_class(context, request.POST), context=context)


@club_view(Need.WRITE, methods=["POST"])
@_when_gone
def event_add(request: HttpRequest, access: ClubAccess, session_id: int, table_id: int) -> HttpResponse:
    table = _table_to_write(request, access, session_id, table_id)
    return _append(request, access, table, EventForm, prefix=request.POST.get("prefix") or None)


def _append(
    request: HttpRequest,
    access: ClubAccess,
    table: Table,
    form_class: type[SubmissionFields],
    prefix: str | None = None,
    context: EntryContext | None = None,
) -> HttpResponse:
    if request.POST.get("two_phones") == "discard":
        # Two phones, one hand (issue 30): the other phone's entry stands, this input goes.
        messages.info(request, _("Verworfen: es gilt, was das andere Telefon gespeichert hat."))
        if request.htmx:
            return _render_live(request, _live_context(request, access, table))
        return redirect(f"{table.get_absolute_url()}#entry-form")
    context = context or _entry_context(table)
    form = form_class(request.POST, context=context, prefix=prefix)
    if form.is_valid():
        try:
            entry = form.append(table=table, user=request.user)
        except services.StaleEntry as stale:
            return _two_phones(request, access, table, form, stale)
        if entry is not None:
            result = selectors.table_state(table)
            # The entry's own number: a save sent again (its key stored) may be behind another
            # phone's entries by now (hunt 30).
            label = paper_numbers([e.kind for e in result.entries])[entry.number - 1]
            messages.success(
                request,
                _("Nr. %(n)s gespeichert: %(what)s")
                % {"n": label, "what": describe(entry.data, suit_names(table.preset))},
            )
            for news in triggered_news(result.entries[entry.number - 1].triggered, result.state.pending_rounds()):
                messages.warning(request, news)
            if request.htmx:
                return _render_live(request, _live_context(request, access, table, result=result))
            return redirect(f"{table.get_absolute_url()}#entry-form")
    if isinstance(form, EventForm):
        for error in form.errors.values():
            messages.error(request, " ".join(error))
        if request.htmx:
            return _render_live(request, _live_context(request, access, table))
        return redirect(table)
    return _render_live(request, _live_context(request, access, table, form=form))


def _two_phones(
    request: HttpRequest, access: ClubAccess, table: Table, form: SubmissionFields, stale: services.StaleEntry
) -> HttpResponse:
    """Another phone saved while this one was typing (issue 30): what it entered (game, player,
    amounts) above this phone's input, kept, and two choices instead of the save button: the same
    game (discard this input) or another one (save it after the other's). Saving it again as it
    was would double the hand at a table of four. Another phone deleted an entry instead: this
    input is kept for its new number with the plain save and the reason (there is no other hand
    it could be the same as)."""
    data = request.POST.copy()
    data[form.add_prefix("expected_number")] = str(stale.next_number)
    form_class = type(form)
    # Fewer entries than the form was for: another phone deleted one, nothing new was saved.
    removed = stale.next_number < stale.expected
    if form_class is EventForm:  # an event is a tap, not a form to keep: say what is there now
        context = _live_context(request, access, table)
        if removed:
            messages.warning(
                request, _("Nicht gespeichert: inzwischen wurde an diesem Tisch ein Eintrag gelöscht. Bitte prüfen.")
            )
        for row in _rows_since(context["sheet"], stale.expected):
            messages.warning(
                request,
                _("Nicht gespeichert: inzwischen hat ein anderes Telefon Nr. %(n)s eingetragen: %(what)s.")
                % {"n": row["label"], "what": row["what"]},
            )
        return _render_live(request, context)
    fresh = _entry_context(table)
    dealer = form.add_prefix("dealer")
    typed_for = selectors.state_before(table, stale.expected, fresh.setup).state
    # Dealt in turn: in turn where it lands, not out of turn. After a deletion the state it was
    # typed for is gone (it cannot be told from a deal out of turn): in turn, shown to be checked.
    if removed or data.get(dealer) == typed_for.dealer:
        data[dealer] = fresh.state.dealer
    kept = form_class(data, context=fresh, prefix=form.prefix)
    kept.is_valid()
    context = _live_context(request, access, table, form=kept)
    context["two_phones"] = {
        "rows": [] if removed else _rows_since(context["sheet"], stale.expected),
        "number": context["next_hand"],
        "json": form_class is RawEntryForm,
        # Nothing to tell apart from this input: no "the same game", the plain save at its new number.
        "removed": removed,
    }
    return _render_live(request, context)


def _rows_since(sheet: selectors.Sheet, number: int) -> list[dict[str, Any]]:
    """The Liste's rows from log position ``number`` on: "Nr.", what, each player's amount."""
    return [
        {
            "label": row.label,
            "what": row.what,
            "amounts": [
                (sheet.short[name], format_amount(cell.amount, sheet.unit, signed=True))
                for name, cell in zip(sheet.players, row.cells, strict=True)
                if cell.amount is not None
            ],
        }
        for row in sheet.rows
        if row.entry.number >= number
    ]


@club_view(Need.WRITE, methods=["POST"])
def entry_preview(request: HttpRequest, access: ClubAccess, session_id: int, table_id: int) -> HttpResponse:
    """The live preview: every player's payout and the explanation lines for the form as typed,
    or what is still missing or wrong. ``?entry=<id>`` previews a correction of that entry."""
    table = _table(access, session_id, table_id)
    entry = None
    if raw := request.GET.get("entry"):
        entry_id = parse_id(raw)
        if entry_id is None:  # "²" passes str.isdigit and fails int(): not an id, not found
            raise Http404
        entry = get_object_or_404(Entry, table=table, pk=entry_id)
    context = _entry_context(table, entry)
    stored = entry.data if entry is not None else None
    form = entry_form_class(context, stored)(request.POST, context=context)
    return render(
        request,
        "scoring/_preview.html",
        {"preview": _preview(form, context), "form": form, "table": table, "short": short_names(context.setup.players)},
    )


def _preview(form: SubmissionFields, context: EntryContext) -> dict[str, Any]:
    """Scores the form as typed against the state it is for (nothing is saved). What is merely
    not entered yet is named in the preview, not flagged at its field."""
    if not form.is_valid():
        return {"ok": False}
    try:
        result = preview(context.setup.ruleset, context.setup.rules, context.state, form.to_data())
    except EngineError as error:
        field = form.form_field(error.field)
        if error.code == "missing_field" and field is not None:
            return {"ok": False, "missing": form.fields[field].label}
        form.apply_engine_error(error)
        return {"ok": False}
    data = form.to_data()
    suits = suit_names(context.setup.ruleset.NAME)
    payouts = [(name, result.payouts[name]) for name in context.setup.players]
    sheet = result.hand.sheet if result.hand is not None and context.setup.ruleset.KEEPS_LIST else None
    if sheet is not None:
        # A kept list (Skat): what the list writes — the declarer's +value or −2 × value, the
        # others nothing — as the paper does; the settlement follows at the end (skat.md §5).
        payouts = [(name, sheet.written.get(name)) for name in context.setup.players]
    return {
        "ok": True,
        "result": result,
        "value": sheet.value if sheet is not None else None,
        "overbid": bool(sheet and sheet.overbid),
        "lines": [(club_words(line.label, suits), line.amount) for line in result.lines],
        "payouts": payouts,
        "notes": unpaid_notes(context.setup.ruleset, data, result.hand.outcome if result.hand else None),
        "triggers": [triggered_label(kind) for kind in result.triggered],
    }


@club_view(Need.WRITE, methods=["POST"])
def entry_undo(request: HttpRequest, access: ClubAccess, session_id: int, table_id: int) -> HttpResponse:
    table = _table_to_write(request, access, session_id, table_id)
    last = Entry.objects.filter(table=table).order_by("-number").first()
    label = selectors.entry_labels(table).get(last.number) if last is not None else None
    try:
        services.entry_undo_last(table=table, user=request.user, number=parse_id(request.POST.get("number")))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    except services.StaleUndo as stale:
        labels = selectors.entry_labels(table)
        messages.error(
            request,
            _("Nicht rückgängig gemacht: der letzte Eintrag ist inzwischen Nr. %(n)s (%(what)s). Bitte prüfen.")
            % {"n": labels.get(stale.last.number, stale.last.number), "what": describe(stale.last.data)},
        )
    else:
        assert last is not None
        messages.success(
            request, _("Nr. %(n)s rückgängig gemacht: %(what)s") % {"n": label, "what": describe(last.data)}
        )
    if request.htmx:
        return _render_live(request, _live_context(request, access, table))
    return redirect(table)


def _gone(request: HttpRequest, table: Table) -> HttpResponse:
    """An entry of this table that is not there (any more): deleted, and Back (or a second tap on
    "Löschen") came to it. The table it was on, not "Nicht gefunden" (issue 30)."""
    messages.info(request, _("Diesen Eintrag gibt es nicht mehr (gelöscht); hier der Tisch."))
    return redirect(table)


@club_view(Need.WRITE)
def entry_edit(request: HttpRequest, access: ClubAccess, session_id: int, table_id: int, entry_id: int) -> HttpResponse:
    """Correct an entry (with a reason); the log is re-folded from it and the page says what changed."""
    table = _table_to_write(request, access, session_id, table_id)
    entry = Entry.objects.filter(table=table, pk=entry_id).first()
    if entry is None:
        return _gone(request, table)
    context = _entry_context(table, entry)
    tap_class = entry_form_class(context, entry.data)
    # A hand in the tap form may still be corrected as JSON (the fallback beside it, as when entering).
    with_json = tap_class not in (RawEntryForm, EventForm)
    form_class = RawEntryForm if with_json and "data" in request.POST else tap_class
    blocking = None
    if request.method == "POST":
        form = form_class(request.POST, context=context)
        reason = ReasonForm(request.POST, auto_id="json-%s" if form_class is not tap_class else "id_%s")
        data = _corrected_facts(form, entry, context, tap_form=form_class is tap_class)
        if data is not None and form.same_facts(data, entry.data):
            # Saved as it was (issue 30): nothing is written, no reason needed.
            messages.info(
                request, _("Nr. %(n)s ist unverändert; nichts gespeichert.") % {"n": _label(table, entry.number)}
            )
            return redirect(table)
        if data is not None and reason.is_valid():
            before = selectors.table_sheet(table)
            try:
                services.entry_correct(entry=entry, data=data, user=request.user, reason=reason.cleaned_data["reason"])
            except EntryError as error:
                form.apply_engine_error(error)
                blocking = _blocking(table, error.index + 1)
            except EngineError as error:
                form.apply_engine_error(error)
            except ValidationError as error:
                form.add_error(None, error)
            else:
                done = _("Nr. %(n)s korrigiert.") % {"n": _label(table, entry.number)}
                return _after_change(request, table, before, done)
    else:
        form = form_class(context=context, initial=_initial(form_class, entry, context))
        reason = ReasonForm()
        blocked = parse_id(request.GET.get("blocked"))
        if blocked is not None:  # a deletion refused for this later entry (entry_delete)
            blocking = _blocking(table, blocked, deleting=_label(table, entry.number))
    closed = (
        _("Der Abend ist abgeschlossen; korrigieren und löschen erst, wenn er wieder offen ist.")
        if (table.session.is_closed)
        else None
    )
    json_form = json_reason = None
    if with_json:
        raw = _initial(RawEntryForm, entry, context)
        json_form = form if form_class is RawEntryForm else RawEntryForm(context=context, initial=raw)
        json_reason = reason if form_class is RawEntryForm else ReasonForm(auto_id="json-%s")
        if form_class is RawEntryForm:  # the JSON came back refused: the tap form as stored beside it
            form = tap_class(context=context, initial=_initial(tap_class, entry, context))
            reason = ReasonForm()
    return render(
        request,
        "scoring/entry_edit.html",
        {
            "access": access,
            "session": table.session,
            "table": table,
            "entry": entry,
            "label": _label(table, entry.number),
            "form": form,
            "reason_form": reason,
            "json_form": json_form,
            "json_reason": json_reason,
            "delete_form": ReasonForm(prefix="delete"),
            "state": context.state,
            "setup": context.setup,
            "short": short_names(context.setup.players),
            "urls": _table_urls(table),
            "preview_url": f"{_table_urls(table)['entry_preview']}?entry={entry.pk}",
            "can_write": True,
            "blocking": blocking,
            # Held by a lock (a finished championship): the reason instead of the forms, and for
            # the owner the way to lift it. A closed evening the same (hunt 30): said at once,
            # not only when the correction is saved, with the way to the evening to reopen it.
            "lock": hooks.session_lock(table.session) or closed,
            "unlock": hooks.unlock_link(table.session),
            "reopen": closed and _can_reopen(access, table.session),
        },
    )


def _corrected_facts(
    form: SubmissionFields, entry: Entry, context: EntryContext, *, tap_form: bool
) -> dict[str, Any] | None:
    """The facts a correction posted: ``None`` when the form refuses them (the reason on the
    form). A tap form refuses facts it would not show again as they were entered: stored, they
    would reopen as something else (issue 30), so such a correction is made as JSON."""
    if not form.is_valid():
        return None
    try:
        data = form.to_data()
    except EngineError as error:
        form.apply_engine_error(error)
        return None
    changed = not form.same_facts(data, entry.data)
    if tap_form and changed and isinstance(form, HandForm | FamilyHandForm) and not type(form).covers(data, context):
        form.add_error(
            None,
            _(
                "Nicht gespeichert: so eingegeben, würde das Spiel anders gespeichert, als es hier steht. "
                "Bitte unten „Als JSON korrigieren“ verwenden."
            ),
        )
        return None
    return data


def _blocking(table: Table, number: int, deleting: str | None = None) -> dict[str, Any] | None:
    """The later entry a refused correction or deletion (``deleting``: the "Nr." deleted) would
    make invalid: its line and the way to correct or delete it first."""
    later = Entry.objects.filter(table=table, number=number).first()
    if later is None:
        return None
    what = describe(later.data, suit_names(table.preset))
    return {"number": _label(table, number), "what": what, "url": _edit_url(table, later), "deleting": deleting}


def _label(table: Table, number: int) -> str:
    """The "Nr." of the entry at log position ``number`` as the paper sheet counts it."""
    return selectors.entry_labels(table).get(number, str(number))


def _edit_url(table: Table, entry: Entry) -> str:
    kwargs = {"slug": table.session.club.slug, "session_id": table.session_id, "table_id": table.pk}
    return reverse("scoring:entry_edit", kwargs={**kwargs, "entry_id": entry.pk})


def _initial(form_class: type[SubmissionFields], entry: Entry, context: EntryContext) -> dict[str, Any]:
    if issubclass(form_class, HandForm | FamilyHandForm):
        return form_class.initial_from(entry.data, context)
    if form_class is EventForm:
        return {"event": entry.data.get("event"), **{k: v for k, v in entry.data.items() if k != "event"}}
    return {"data": safejson.dumps_printable(entry.data)}


@club_view(Need.WRITE, methods=["POST"])
def entry_delete(
    request: HttpRequest, access: ClubAccess, session_id: int, table_id: int, entry_id: int
) -> HttpResponse:
    table = _table_to_write(request, access, session_id, table_id)
    entry = Entry.objects.filter(table=table, pk=entry_id).first()
    if entry is None:
        return _gone(request, table)
    reason = ReasonForm(request.POST, prefix="delete")
    edit_url = _edit_url(table, entry)
    if not reason.is_valid():
        messages.error(request, _("Zum Löschen bitte einen Grund angeben."))
        return redirect(edit_url)
    before = selectors.table_sheet(table)
    label = _label(table, entry.number)
    try:
        services.entry_delete(entry=entry, user=request.user, reason=reason.cleaned_data["reason"])
    except EntryError as error:
        # error.index counts in the log without this entry: the later entry's number today is one more.
        number = error.index + 2
        where = _("Nr. %(n)s würde dadurch ungültig: ") % {"n": _label(table, number)}
        messages.error(request, _("Nicht gelöscht. ") + where + error.message)
        return redirect(f"{edit_url}?blocked={number}")
    except EngineError as error:
        messages.error(request, _("Nicht gelöscht. ") + error.message)
        return redirect(edit_url)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect(edit_url)
    return _after_change(request, table, before, _("Nr. %(n)s gelöscht.") % {"n": label})


def _after_change(request: HttpRequest, table: Table, before: selectors.Sheet, done: str) -> HttpResponse:
    """Say what a correction or deletion changed (the difference per player, "Änderung", and the
    new totals as totals), and show it highlighted on the sheet."""
    after = selectors.table_sheet(table)
    changed, deltas = selectors.sheet_changes(before, after)
    parts = [done]
    if changed:
        labels = {row.entry.number: row.label for row in after.rows}
        numbers = ", ".join(labels.get(n, str(n)) for n in changed)
        parts.append(_("Neu berechnet: Nr. %(numbers)s.") % {"numbers": numbers})
    if deltas:
        moved = ", ".join(f"{name} {format_amount(delta, table.unit, signed=True)}" for name, delta in deltas.items())
        totals = ", ".join(f"{name} {format_amount(value, table.unit)}" for name, value in after.final)
        parts.append(_("Änderung: %(moved)s. Neue Summen: %(totals)s.") % {"moved": moved, "totals": totals})
    else:
        parts.append(_("Die Summen bleiben gleich."))
    messages.success(request, " ".join(parts))
    query = f"?changed={','.join(str(n) for n in changed)}" if changed else ""
    anchor = f"#entry-{changed[0]}" if changed else ""
    return redirect(f"{table.get_absolute_url()}{query}{anchor}")


@club_view(Need.READ, methods=["GET"])
def table_audit(request: HttpRequest, access: ClubAccess, session_id: int, table_id: int) -> HttpResponse:
    table = _table(access, session_id, table_id)
    suits = suit_names(table.preset)
    rows = [
        {
            "audit": audit,
            "before": describe(audit.before, suits) if isinstance(audit.before, dict) else "",
            "after": describe(audit.after, suits) if isinstance(audit.after, dict) else "",
        }
        for audit in selectors.table_audit(table)
    ]
    return render(
        request,
        "scoring/table_audit.html",
        {"access": access, "session": table.session, "table": table, "rows": rows, "urls": _table_urls(table)},
    )


# --- the club's rules and the Kasse --------------------------------------------------------------


@club_view(Need.MANAGE)
def club_rules(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    """Choose a preset (GET ?preset=…), change its options, see a few typical hands, save."""
    current = selectors.club_rules(access.club)
    form = _rules_form(request, current)
    if request.method == "POST" and form.is_valid():
        try:
            services.club_rules_save(
                club=access.club,
                preset=form.preset,
                options=form.chosen,
                winnings_to_kasse=form.cleaned_data["winnings_to_kasse"],
                user=request.user,
            )
        except ValidationError as error:
            _apply(form, error)
        else:
            messages.success(request, _("Regeln gespeichert. Sie gelten für Tische, die ab jetzt beginnen."))
            return redirect("scoring:club_rules", slug=access.club.slug)
    return render(
        request,
        "scoring/club_rules.html",
        {
            "access": access,
            "form": form,
            "current": current,
            "presets": evening_presets(access.club.game),
            "examples": _examples(form),
        },
    )


@club_view(Need.MANAGE, methods=["POST"])
def club_rules_preview(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    form = _rules_form(request, selectors.club_rules(access.club))
    form.is_valid()
    return render(request, "scoring/_rules_examples.html", {"form": form, "examples": _examples(form)})


def _rules_form(request: HttpRequest, current: Any) -> RulesForm:
    presets = evening_presets(current.club.game)
    preset = request.POST.get("preset") or request.GET.get("preset") or current.preset
    if preset not in presets:
        preset = current.preset
    values = current.options if preset == current.preset else {}
    initial = {"winnings_to_kasse": current.winnings_to_kasse}
    return RulesForm(request.POST or None, preset=preset, values=values, initial=initial)


def _examples(form: RulesForm) -> list[selectors.RulesExample] | None:
    """Typical hands under the form's values; None while the values are invalid."""
    spec = form.spec()
    if spec is None:
        return None
    try:
        ruleset, _table = registry.load_with_table(spec)
    except EngineError as error:
        form.apply_engine_error(error)
        return None
    return selectors.rules_examples(ruleset)


@club_view(Need.READ, methods=["GET"])
def kasse(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    table = KasseTable(selectors.kasse_bookings(access.club))
    configure_table(request, table, per_page=50)
    return render(
        request,
        "scoring/kasse.html",
        {"access": access, "table": table, "balance": selectors.kasse_balance(access.club)},
    )


def _apply(form: Any, error: ValidationError) -> None:
    """Put a service's ValidationError on the form, by field where the form has that field."""
    if hasattr(error, "error_dict"):
        for field, errors in error.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error)
