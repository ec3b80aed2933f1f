"""A new installation: until the first club exists, the login page (after a refused login) and
``make serve`` say how to create it, with the command line that works from the project folder
(the virtual environment's Python, not a ``python`` that may lack Django)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from django.conf import settings

from clubs.models import Club


def python_command() -> str:
    """The Python this server runs on, as typed in the project folder: ``.venv/bin/python`` for
    the virtual environment of the README, else the full path."""
    executable = Path(sys.executable)
    base = Path(settings.BASE_DIR)
    try:
        return str(executable.relative_to(base))
    except ValueError:
        venv = os.environ.get("VIRTUAL_ENV")
        if venv and Path(venv) == base / ".venv":
            return ".venv/bin/python"
        return str(executable)


def create_club_command() -> str:
    return f'{python_command()} manage.py create_club "Name des Vereins" --owner LOGIN'


def no_club_yet() -> bool:
    return not Club.objects.exists()
