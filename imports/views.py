"""Bringing a club's old evenings in (``imports.history``): upload, a preview with every row's
payouts or error, and only then, when every row is valid, the import."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from clubs.access import ClubAccess, Need, club_view
from imports import history
from imports.forms import HistoryForm
from scoring import selectors
from standings.exports import XLSX, Column, file_response, workbook_bytes


def _source(form: HistoryForm, club_rules: Any, confirm: bool) -> tuple[dict[str, Any], list[history.Row]]:
    """(the evening's setup, its rows) from the upload or, when confirming, the carried document
    (what the preview showed, never a file chosen after it). ``HistoryFileError`` for a file
    that cannot be read and for a carried document that is not what the preview made."""
    data = form.cleaned_data
    if confirm or not data.get("file"):
        return history.carried_document(data.get("document") or "")
    upload = data["file"]
    doc, rows = history.read_file(upload.name, upload.read())
    if doc is not None:
        players = doc.get("players") if isinstance(doc.get("players"), list) else []
        setup = {"ruleset": doc.get("ruleset"), "players": players, "first_dealer": doc.get("first_dealer", "")}
    else:
        setup = {
            "ruleset": data.get("preset") or club_rules,
            "players": [name.strip() for name in data.get("players", "").split(",") if name.strip()],
            "first_dealer": data.get("first_dealer", ""),
        }
    return setup | {"source": history.source_name(upload.name)}, rows


@club_view(Need.WRITE)
def history_import(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    form = HistoryForm(request.POST or None, request.FILES or None, game=access.club.game)
    context: dict[str, Any] = {"access": access, "form": form}
    if request.method == "POST" and form.is_valid():
        try:
            setup, rows = _source(form, selectors.club_rules_spec(access.club), "confirm" in request.POST)
        except history.HistoryFileError as error:
            form.add_error("file", str(error))
            return render(request, "imports/history_import.html", context)
        source = setup.pop("source")
        setup.pop("first_number", None)  # an evening's rows start its new table
        checked = history.preview(club=access.club, rows=rows, **setup)
        if "confirm" in request.POST and checked.valid:  # checked again: the carried rows come from the browser
            data = form.cleaned_data
            try:
                session = history.history_import(
                    club=access.club,
                    rows=rows,
                    date=data["date"],
                    place=data.get("place", ""),
                    table_name=data["table_name"],
                    source=source,
                    user=request.user,
                    **setup,
                )
            except history.HistoryRefused as refused:
                checked = refused.preview
            else:
                messages.success(request, _("Spielabend nachgetragen: %(count)s Einträge.") % {"count": len(rows)})
                return redirect(session)
        # Only a valid preview is carried back to be confirmed: a refused file is never echoed whole.
        carried = history.carry(checked, source) if checked.valid else ""
        form = HistoryForm(initial={**form.cleaned_data, "document": carried, "file": None}, game=access.club.game)
        context |= {"form": form, "preview": checked, "source": source}
    return render(request, "imports/history_import.html", context)


class TemplateReport:
    """The template as a report for the one workbook writer: the columns, three example rows."""

    sheet = "Spiele"

    def columns(self) -> list[Column]:
        return [Column(title, width=max(10, len(title) + 2)) for title in history.TEMPLATE_COLUMNS]

    def rows(self) -> Iterator[list[Any]]:
        return iter([list(row) for row in history.TEMPLATE_EXAMPLES])


@club_view(Need.READ, methods=["GET"])
def history_template(request: HttpRequest, access: ClubAccess, kind: str) -> HttpResponse:
    """The spreadsheet template: the header row and three example rows (CSV or Excel)."""
    if kind == "csv":
        out = io.StringIO()
        csv.writer(out, delimiter=";").writerows([history.TEMPLATE_COLUMNS, *history.TEMPLATE_EXAMPLES])
        content, content_type = "\ufeff" + out.getvalue(), "text/csv; charset=utf-8"
    else:
        content, content_type = workbook_bytes([TemplateReport()], title=None), XLSX
    return file_response(content, content_type, f"spielabend-vorlage.{kind}")
