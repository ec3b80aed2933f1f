"""``manage.py export_standings --club SLUG [--from DATE] [--to DATE] --format pdf|xlsx --output FILE [--language en]``

The standings of a club as the pages' download buttons make them: the PDF (standings, charts)
or the workbook (sheets Standings, Hands, Players). Without ``--from``/``--to`` all time; with one
of them the range is open on the other side. Dates as YYYY-MM-DD.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation

from clubs.models import Club
from standings import exports
from standings import selectors as stats


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"Not a date (YYYY-MM-DD): {text!r}") from None


class Command(BaseCommand):
    help = "Writes a club's standings of a period as PDF or Excel."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--club", required=True, help="the club's slug")
        parser.add_argument("--from", dest="start", type=_date, help="first day (YYYY-MM-DD)")
        parser.add_argument("--to", dest="end", type=_date, help="last day (YYYY-MM-DD)")
        parser.add_argument("--format", required=True, choices=("pdf", "xlsx"))
        parser.add_argument("--output", required=True, help="the file to write")
        parser.add_argument(
            "--language",
            default=settings.LANGUAGE_CODE,
            choices=[code for code, _ in settings.LANGUAGES],
            help=f"the language of the document (default {settings.LANGUAGE_CODE})",
        )

    def handle(self, *args: Any, club: str, start: dt.date | None, end: dt.date | None, **options: Any) -> None:
        found = Club.objects.filter(slug=club).first()
        if found is None:
            raise CommandError(f"No club with the slug {club!r}.")
        if start and end and start > end:
            raise CommandError("--from must not be after --to.")
        period = stats.Period.between(start, end)
        with translation.override(options["language"]):
            table = stats.standings(club=found, period=period)
            if options["format"] == "pdf":
                data = exports.standings_pdf(club=found, period=period, standings=table)
            else:
                data = exports.standings_workbook(club=found, period=period, standings=table)
            label = period.label
        output = Path(options["output"])
        output.write_bytes(data)
        self.stdout.write(f"{output} ({len(data):,} bytes): {found.name}, {label}")
