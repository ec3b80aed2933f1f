"""``manage.py plan_tournament --players N [--partien 4] [--games 40] [--seed S]`` (spec §4).

Prints the seating plan of ``tournaments.engine.plan.plan_document`` as JSON. Reads no input;
the options arrive as text and are turned into integers here so that ``--players abc`` names its
field in the error object like every other invalid value.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser

from scoring.engine.core import EngineError
from scoring.jsoncommand import JsonCommand
from tournaments.engine.plan import plan_document

FIELDS = ("players", "partien", "games", "seed")


def _integer(text: str | None, field: str) -> int:
    if text is None:
        raise EngineError("missing_field", f"--{field} fehlt.", field)
    try:
        return int(text.strip())
    except ValueError:
        raise EngineError("invalid_type", f"--{field} erwartet eine ganze Zahl, nicht '{text}'.", field) from None


class Command(JsonCommand):
    help = "Erstellt den Spielplan der Meisterschaft: wer in welcher Partie an welchem Tisch sitzt (JSON, spec §4)."
    reads_input = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", help="Zahl der Spieler (4 bis 400, nicht 7)")
        parser.add_argument("--partien", default="4", help="Zahl der Partien (1 bis 10, Standard 4)")
        parser.add_argument("--games", default="40", help="Spiele je Spieler und Partie (Standard 40)")
        parser.add_argument("--seed", default="0", help="Startwert des Zufalls (Standard 0)")

    def run(self, doc: Any, **options: Any) -> Any:
        return plan_document(**{field: _integer(options[field], field) for field in FIELDS})
