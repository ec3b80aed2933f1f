"""``manage.py check --database default`` and ``migrate`` (so ``make serve`` too) warn about logins
whose names are one by ``clubs.logins``' rule but were created before it. The decision: keep them
(each logs in with its exact name; renaming people's logins behind their backs would lock them
out) and block any new clash; an administrator renames one in the admin (docs/operations.md,
Logins)."""

from __future__ import annotations

from typing import Any

from django.core.checks import CheckMessage, Warning
from django.db import DatabaseError

from clubs.logins import username_clashes


def check_username_clashes(app_configs: Any = None, databases: Any = None, **kwargs: Any) -> list[CheckMessage]:
    if not databases:
        return []
    try:
        clashes = username_clashes()
    except DatabaseError:  # not migrated yet: nothing to compare
        return []
    return [
        Warning(
            f"Die Zugänge {', '.join(names)} sind derselbe Name (Groß-/Kleinschreibung, Zeichenbreite).",
            hint="Sie bleiben, wie sie sind; neue gleichnamige Zugänge werden abgelehnt. "
            "Einen davon im Admin umbenennen (docs/operations.md, Logins).",
            id="clubs.W001",
        )
        for names in clashes
    ]
