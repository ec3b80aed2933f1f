from typing import Any

from scoring.jsoncommand import JsonCommand
from tournaments.engine.open_ranking import rank_open_document


class Command(JsonCommand):
    help = (
        "Wertet ein offenes Turnier aus (Preisschafkopf, Schafkopfrennen; JSON nach spec §5): Punkte über "
        "alle Runden, Soli, beste Runde, Los, Rundensieger und Preisgeld."
    )

    def run(self, doc: Any, **options: Any) -> Any:
        return rank_open_document(doc)
