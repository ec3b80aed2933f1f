"""``make serve``: the production server in one command (docs/operations.md, "Serving a club").

    .venv/bin/python deploy/serve.py [ADDRESS:PORT]      # default 127.0.0.1:8000

1. the local settings file (``.env`` in the project, outside git; ``DJANGO_ENV_FILE`` names
   another): created on the first run with a generated secret key, then only read;
2. ``migrate`` and ``collectstatic`` (production settings: DEBUG off, hashed static files);
3. prints the URL to open on the phones and the hosts the server answers to;
4. replaces itself with gunicorn (``deploy/gunicorn.conf.py``) on the address, so Ctrl-C and
   systemd's signals reach the server itself.

Allowed hosts: ``DJANGO_ALLOWED_HOSTS`` when set (environment or ``.env``), otherwise what the
address is reachable as (``config.hosts``: on ``0.0.0.0`` the machine's LAN addresses and names).

The demo: refused. While the database holds the demo logins of ``seed_demo`` (password ``demo``)
the server does not start and says how to remove them (``manage.py remove_demo``); ``make run``
keeps the demo in ``demo.sqlite3``, apart from the club's ``db.sqlite3``. ``DJANGO_DEMO_SERVER=1``
serves a public demo on purpose.

HTTPS: on by default (redirect to https, secure cookies, HSTS), as a server with a domain behind
the Caddy proxy of ``deploy/Caddyfile`` needs. On a club's local network without TLS set
``DJANGO_HTTPS=0`` (``DJANGO_HTTPS=0 make serve HOST=0.0.0.0:8000``, or the line in ``.env``).

Standard library only until gunicorn starts: it runs before Django may be set up.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))

from config.hosts import WILDCARDS, allowed_hosts, phone_urls, split_bind  # noqa: E402

ENV_TEMPLATE = """\
# Local settings of this server (docs/operations.md lists every variable). Not in git: it holds
# the secret key. Keep it when you update or move the server: a new key logs everyone out.
DJANGO_SECRET_KEY={key}
# On a club's local network without TLS (phones open http://...), uncomment:
# DJANGO_HTTPS=0
# Behind the Caddy proxy of deploy/Caddyfile, with a domain:
# DJANGO_ALLOWED_HOSTS=verein.example.org
# DJANGO_BEHIND_PROXY=1
# PostgreSQL instead of SQLite:
# DATABASE_URL=postgres://schafkopf:PASSWORD@localhost:5432/schafkopf
"""


def env_file() -> Path:
    return Path(os.environ.get("DJANGO_ENV_FILE", BASE_DIR / ".env"))


def ensure_env_file(path: Path) -> bool:
    """Create the settings file with a new secret key unless it exists; True if created."""
    if path.exists():
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    # Readable by the server's user only: the key signs sessions and CSRF tokens.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(ENV_TEMPLATE.format(key=secrets.token_urlsafe(50)))
    return True


def read_env_file(path: Path) -> dict[str, str]:
    """The file's values, as ``config.settings.load_env_file`` reads them."""
    values = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        key, sep, value = line.strip().partition("=")
        if sep and key and not key.startswith("#"):
            values[key.strip()] = value.strip()
    return values


def is_on(value: str | None, default: bool) -> bool:
    if value is None or not value.strip():
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def manage(*args: str, env: dict[str, str]) -> None:
    subprocess.run([sys.executable, str(BASE_DIR / "manage.py"), *args], env=env, cwd=BASE_DIR, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description="Production server: settings file, migrate, collectstatic, gunicorn.")
    parser.add_argument("bind", nargs="?", default="127.0.0.1:8000", help="ADDRESS:PORT (default 127.0.0.1:8000)")
    args = parser.parse_args()
    try:
        host, port = split_bind(args.bind)
    except ValueError as error:
        sys.exit(f"make serve: {error}")

    path = env_file()
    if ensure_env_file(path):
        print(f"Created {path} with a new secret key (keep it; it is not in git).")
    # The environment wins over the file, as in config.settings.
    env = {**read_env_file(path), **os.environ, "DJANGO_ENV_FILE": str(path)}
    env["DJANGO_DEBUG"] = "0"
    hosts = [h.strip() for h in env.get("DJANGO_ALLOWED_HOSTS", "").split(",") if h.strip()]
    if not hosts:
        hosts = allowed_hosts(args.bind)
        env["DJANGO_ALLOWED_HOSTS"] = ",".join(hosts)
    https = is_on(env.get("DJANGO_HTTPS"), True)
    behind_proxy = is_on(env.get("DJANGO_BEHIND_PROXY"), False)

    try:
        manage("migrate", "--no-input", env=env)
    except subprocess.CalledProcessError as error:
        sys.exit(f"make serve: migrate failed (exit {error.returncode}); the server was not started.")
    # A club must not go live with the demo's known password (issue 29): refuse while its logins
    # open this database, unless this is a public demo server on purpose.
    if not is_on(env.get("DJANGO_DEMO_SERVER"), False):
        try:
            manage("remove_demo", "--check", "--verbosity", "0", env=env)
        except subprocess.CalledProcessError:
            sys.exit("make serve: the server was not started. (A public demo server on purpose: DJANGO_DEMO_SERVER=1.)")
    try:
        manage("collectstatic", "--no-input", "--verbosity", "0", env=env)
    except subprocess.CalledProcessError as error:
        sys.exit(f"make serve: collectstatic failed (exit {error.returncode}); the server was not started.")

    print()
    print(f"Serving on {host}:{port} (gunicorn, production settings).")
    print(f"Allowed hosts: {', '.join(hosts)}")
    if behind_proxy:
        print(f"Open through the proxy: https://{hosts[0]}/")
    elif https:
        print(
            "HTTPS is on: browsers are sent to https://, which this server does not speak itself. Serve it\n"
            "behind the proxy of deploy/Caddyfile (DJANGO_BEHIND_PROXY=1), or on a club's local network\n"
            "without TLS set DJANGO_HTTPS=0 (in .env or: DJANGO_HTTPS=0 make serve HOST=0.0.0.0:8000)."
        )
    else:
        print("Open on the phones:" if host in WILDCARDS else "Open:")
        for url in phone_urls(args.bind):
            print(f"  {url}")
        if host.startswith("127.") or host == "localhost":
            print("Only this machine can reach it; for the phones on the Wi-Fi: make serve HOST=0.0.0.0:8000")
    # The create_club line, only while no club exists; a hint, not a reason to keep the server down.
    sys.stdout.flush()
    with contextlib.suppress(subprocess.CalledProcessError):
        manage("first_club_hint", env=env)
    print("Stop with Ctrl-C.", flush=True)

    gunicorn = [
        sys.executable,
        "-m",
        "gunicorn",
        "--config",
        str(BASE_DIR / "deploy" / "gunicorn.conf.py"),
        "--bind",
        f"[{host}]:{port}" if ":" in host and not host.startswith("[") else f"{host}:{port}",
        "config.wsgi:application",
    ]
    os.chdir(BASE_DIR)
    os.execve(sys.executable, gunicorn, env)


if __name__ == "__main__":
    main()
