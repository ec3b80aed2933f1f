from typing import Any

from scoring.engine.api import score_hand_document
from scoring.jsoncommand import JsonCommand


class Command(JsonCommand):
    help = "Wertet ein Spiel aus (JSON nach spec §2) und gibt Auszahlungen und Erklärung aus."

    def run(self, doc: Any, **options: Any) -> Any:
        return score_hand_document(doc)
