from typing import Any

from scoring.engine.session import score_session_document
from scoring.jsoncommand import JsonCommand


class Command(JsonCommand):
    help = "Wertet einen ganzen Spielabend an einem Tisch aus (JSON nach spec §3), mit dem Tischzustand."

    def run(self, doc: Any, **options: Any) -> Any:
        return score_session_document(doc)
