"""What a newcomer types first: the README's first hand prints what the README shows, and
`manage.py rulesets` is readable as printed."""

import json
import re
import subprocess
import sys
from pathlib import Path

from django.conf import settings

README = Path(settings.BASE_DIR) / "README.md"


def test_the_readme_first_hand_prints_what_the_readme_says() -> None:
    text = README.read_text()
    command = re.search(r"```sh\necho '(\{.*?\})' \| \.venv/bin/python manage\.py score_hand\n```", text)
    shown = re.search(r"prints\n\n```json\n(.*?)\n```", text)
    assert command and shown
    result = subprocess.run(
        [sys.executable, "manage.py", "score_hand"],
        input=command.group(1),
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert json.loads(result.stdout) == json.loads(shown.group(1))


def test_rulesets_prints_an_indented_document() -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "rulesets"], cwd=settings.BASE_DIR, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith('{\n  "')  # one key a line, two spaces per level
    assert "allgaeu" in json.loads(result.stdout)
