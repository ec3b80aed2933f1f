"""Production settings, checked in a fresh process as a server would start."""

import os
import secrets
import subprocess
import sys

from django.conf import settings


def python(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Runs Python in the project folder with the DJANGO_* variables given, and no others (nor
    the local settings file a `make serve` in this checkout may have written)."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")} | {"DJANGO_ENV_FILE": os.devnull}
    return subprocess.run(
        [sys.executable, *args],
        cwd=settings.BASE_DIR,
        env=clean | env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return python("manage.py", *args, **env)


def test_check_deploy_is_clean_with_production_values() -> None:
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="example.org",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_the_server_refuses_to_start_without_a_secret_key() -> None:
    result = python("-c", "import config.wsgi", DJANGO_DEBUG="0", DJANGO_ALLOWED_HOSTS="example.org")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY is not set, so the server will not start" in result.stderr


def test_the_server_starts_with_a_secret_key() -> None:
    result = python(
        "-c",
        "import config.wsgi",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="example.org",
    )
    assert result.returncode == 0, result.stderr


def test_management_commands_need_no_secret_key() -> None:
    """What the team's hooks and CI run with an empty environment."""
    result = manage("makemigrations", "--check", "--dry-run")
    assert result.returncode == 0, result.stdout + result.stderr


def test_debug_needs_no_secret_key() -> None:
    result = manage("check", DJANGO_DEBUG="1")
    assert result.returncode == 0, result.stderr
