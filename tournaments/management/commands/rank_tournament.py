from typing import Any

from scoring.jsoncommand import JsonCommand
from tournaments.engine.ranking import rank_document


class Command(JsonCommand):
    help = (
        "Wertet eine Meisterschaft aus (JSON nach spec §4): jeder Tisch wie ein Spielabend, dann die "
        "Platzierung nach 001 §11.3 mit allen Kriterien, Stechen und geteilten Plätzen."
    )

    def run(self, doc: Any, **options: Any) -> Any:
        return rank_document(doc)
