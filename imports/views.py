"""Bringing a club's old evenings in (``imports.history``): upload, a preview with every row's
payouts or error, and only then, when every row is valid, the import."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from clubs.access import ClubAccess, Need, club_view
from imports import history
from imports.forms import HistoryForm
from imports.sheets import excerpt
from scoring import safejson, selectors
from scoring.engine.core import EngineError
from standings.exports import XLSX, Column, workbook_bytes


def _source(form: HistoryForm, club_rules: Any, confirm: bool) -> tuple[dict[str, Any], list[history.Row]]:
    """(the evening's setup, its rows) from the upload or, when confirming, the carried document
    (what the preview showed, never a file chosen after it). ``HistoryFileError`` for a file
    that cannot be read and for a carried document that is not what the preview made."""
    data = form.cleaned_data
    if confirm or not data.get("file"):
        return _carried(data.get("document") or "")
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


def _carried(text: str) -> tuple[dict[str, Any], list[history.Row]]:
    """The preview's document as the browser sent it back, read like any input (its rows are
    checked again by the preview)."""
    lost = history.HistoryFileError(_("Die Vorschau ist verloren gegangen; bitte die Datei noch einmal hochladen."))
    try:
        doc = safejson.loads(text)
    except EngineError:
        raise lost from None
    if not isinstance(doc, dict) or any(key not in doc for key in ("ruleset", "players", "first_dealer", "source")):
        raise lost
    labels, hands = doc.get("labels"), doc.get("hands")
    if not isinstance(labels, list) or not isinstance(hands, list) or len(labels) != len(hands):
        raise lost
    if not isinstance(doc["players"], list) or not all(isinstance(label, str) for label in labels):
        raise lost
    rows = [history.Row(excerpt(label, 20), hand) for label, hand in zip(labels, hands, strict=True)]
    setup = {key: doc[key] for key in ("ruleset", "players", "first_dealer")}
    return setup | {"source": history.source_name(doc["source"])}, rows


@club_view(Need.WRITE)
def history_import(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    form = HistoryForm(request.POST or None, request.FILES or None)
    context: dict[str, Any] = {"access": access, "form": form}
    if request.method == "POST" and form.is_valid():
        try:
            setup, rows = _source(form, selectors.club_rules_spec(access.club), "confirm" in request.POST)
        except history.HistoryFileError as error:
            form.add_error("file", str(error))
            return render(request, "imports/history_import.html", context)
        source = setup.pop("source")
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
        document = checked.document() | {"labels": [row.label for row in rows], "source": source}
        carried = json.dumps(document) if checked.valid else ""
        form = HistoryForm(initial={**form.cleaned_data, "document": carried, "file": None})
        shown = [
            {
                "row": row,
                "described": isinstance(row.data, dict),
                "cells": [row.payouts.get(name) for name in checked.players],
            }
            for row in rows
        ]
        context |= {"form": form, "preview": checked, "source": source, "shown": shown}
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
        response = HttpResponse("\ufeff" + out.getvalue(), content_type="text/csv; charset=utf-8")
    else:
        response = HttpResponse(workbook_bytes([TemplateReport()], title=None), content_type=XLSX)
    response["Content-Disposition"] = f'attachment; filename="spielabend-vorlage.{kind}"'
    return response
