from typing import Any

from scoring.jsoncommand import JsonCommand
from tournaments.engine.open_rank import rank_open_document


class Command(JsonCommand):
    help = (
        "Wertet ein offenes Turnier aus (Preisschafkopf, Schafkopfrennen, Preisskat; JSON nach spec §5): Punkte "
        "über alle Runden, Soli (Skat: gewonnene und verlorene Spiele), beste Runde, Los, Rundensieger und Preisgeld."
    )

    def run(self, doc: Any, **options: Any) -> Any:
        return rank_open_document(doc)
