"""The README's first hand works as written: the command it shows prints the output it shows."""

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
