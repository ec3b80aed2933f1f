from typing import Any

from scoring.engine.api import rulesets_document
from scoring.jsoncommand import JsonCommand


class Command(JsonCommand):
    help = "Gibt alle Regel-Presets mit allen Optionen und Voreinstellungen als JSON aus."
    reads_input = False
    indent = 2  # read by people choosing options; still one JSON document for scripts

    def run(self, doc: Any, **options: Any) -> Any:
        return rulesets_document()
