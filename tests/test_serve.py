"""`make serve` (deploy/serve.py) on a fresh database: the settings file with its generated key,
migrate, collectstatic, and pages and static files served by gunicorn on a loopback port."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings

from config import hosts

STARTUP_SECONDS = 300  # migrate and collectstatic (Pyodide compressed) on a busy two-core machine


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def fetch(url: str, host: str | None = None) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310 - loopback only
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


class Server:
    def __init__(self, tmp_path: Path, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.env_file = tmp_path / "env"
        self.log = tmp_path / "serve.log"
        self.static_root = tmp_path / "static"
        clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "GUNICORN_"))}
        env = clean | {
            "DJANGO_ENV_FILE": str(self.env_file),
            "DATABASE_URL": f"sqlite:///{tmp_path / 'fresh.sqlite3'}",
            "DJANGO_STATIC_ROOT": str(self.static_root),
            "DJANGO_HTTPS": "0",
            "GUNICORN_WORKERS": "1",
        }
        self.process = subprocess.Popen(
            [sys.executable, "deploy/serve.py", f"127.0.0.1:{port}"],
            cwd=settings.BASE_DIR,
            env=env,
            stdout=self.log.open("w"),
            stderr=subprocess.STDOUT,
        )

    def wait_ready(self) -> None:
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"make serve ended early:\n{self.output()}")
            try:
                fetch(self.base + "/accounts/login/")
                return
            except OSError:
                time.sleep(0.5)
        pytest.fail(f"make serve did not answer within {STARTUP_SECONDS} s:\n{self.output()}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # serve.py became gunicorn's master: same pid
            self.process.wait(timeout=30)

    def output(self) -> str:
        return self.log.read_text()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One start for the module's tests: migrating a fresh database takes a while."""
    running = Server(tmp_path_factory.mktemp("serve"), free_port())
    try:
        running.wait_ready()
        yield running
    finally:
        running.stop()


@pytest.mark.long(25)
def test_make_serve_serves_a_fresh_database_with_static_files(server: Server) -> None:
    status, _headers, body = fetch(server.base + "/accounts/login/")
    assert status == 200
    page = body.decode()
    assert "Anmelden" in page
    # The production pages link the hashed copies collectstatic made; gunicorn serves them.
    links = re.findall(r'(?:href|src)="(/static/[^"]+)"', page)
    hashed = [link for link in links if re.search(r"\.[0-9a-f]{12}\.(css|js)$", link)]
    assert {Path(link).suffix for link in hashed} == {".css", ".js"}, links
    for link in hashed:
        status, headers, content = fetch(server.base + link)
        assert status == 200 and content, link
        assert "immutable" in headers.get("Cache-Control", ""), link
    output = server.output()
    assert "Starting gunicorn" in output
    assert "Allowed hosts: 127.0.0.1, localhost, [::1]" in output
    assert f"  {server.base}/" in output
    # No club yet: the line that creates one, with the Python that has Django (issue 22, finding 8).
    hint = re.search(r"^No club yet\? .*: (\S+) manage\.py create_club ", output, re.MULTILINE)
    assert hint, output
    assert (Path(settings.BASE_DIR) / hint.group(1)).exists()


def test_collectstatic_built_the_production_manifest(server: Server) -> None:
    """Hashed file names fail on a vendored file that points at one we do not ship (a source map)."""
    manifest = json.loads((server.static_root / "staticfiles.json").read_text())
    assert {"vendor/htmx/htmx.min.js", "vendor/pico/pico.blue.min.css", "css/app.css"} <= set(manifest["paths"])


def test_make_serve_keeps_its_generated_secret_key_outside_git(server: Server) -> None:
    text = server.env_file.read_text()
    key = re.search(r"^DJANGO_SECRET_KEY=(\S{50,})$", text, re.MULTILINE)
    assert key, text
    assert server.env_file.stat().st_mode & 0o077 == 0  # the server's user only
    assert "/.env" in (Path(settings.BASE_DIR) / ".gitignore").read_text().splitlines()
    # A second start keeps the key (a new one would log everyone out).
    from deploy.serve import ensure_env_file

    assert ensure_env_file(server.env_file) is False
    assert server.env_file.read_text() == text


def test_a_request_for_an_unknown_host_is_refused_with_one_log_line(server: Server) -> None:
    status, _headers, _body = fetch(server.base + "/", host="scanner.example")
    assert status == 400
    time.sleep(0.5)
    output = server.output()
    refusals = [line for line in output.splitlines() if "DisallowedHost" in line]
    assert len(refusals) == 1 and "scanner.example" in refusals[0], output
    assert "Traceback" not in output


def test_a_server_on_every_interface_allows_its_lan_addresses(monkeypatch: pytest.MonkeyPatch) -> None:
    """`make run HOST=0.0.0.0:8000`: a phone asking for http://192.168.1.20:8000/ is let in."""
    monkeypatch.setattr(hosts, "lan_addresses", lambda: ["192.168.1.20"])
    monkeypatch.setattr(hosts, "machine_names", lambda: ["hut", "hut.local"])
    expected = ["127.0.0.1", "localhost", "[::1]", "192.168.1.20", "hut", "hut.local"]
    assert hosts.allowed_hosts("0.0.0.0:8000") == expected
    assert hosts.phone_urls("0.0.0.0:8000") == ["http://192.168.1.20:8000/"]
    assert hosts.allowed_hosts("192.168.1.20:8000")[-1] == "192.168.1.20"
    assert hosts.allowed_hosts("127.0.0.1:8000") == ["127.0.0.1", "localhost", "[::1]"]


def test_the_settings_read_the_local_env_file(tmp_path: Path) -> None:
    env_file = tmp_path / "env"
    env_file.write_text("# comment\nDJANGO_SECRET_KEY=from-the-file\nDJANGO_ALLOWED_HOSTS=club.example\n")
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    code = "from django.conf import settings; print(settings.SECRET_KEY, settings.ALLOWED_HOSTS, settings.DEBUG)"
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=settings.BASE_DIR,
        env=clean | {"DJANGO_ENV_FILE": str(env_file)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.stdout.strip().splitlines()[-1] == "from-the-file ['club.example'] False", result.stderr


@pytest.mark.long(12)
def test_make_serve_refuses_a_database_with_the_demo_logins(tmp_path: Path) -> None:
    """Issue 29: `make run` keeps the demo in demo.sqlite3; a club's database that holds a demo
    login with the password 'demo' is not served, and the refusal says how to remove it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "GUNICORN_"))}
    env |= {"DJANGO_ENV_FILE": str(tmp_path / "env"), "DATABASE_URL": f"sqlite:///{tmp_path / 'club.sqlite3'}"}
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "-v0"], cwd=settings.BASE_DIR, env=env, check=True)
    login = "from django.contrib.auth.models import User; User.objects.create_user('demo-owner', password='demo')"
    subprocess.run([*manage, "shell", "-c", login], cwd=settings.BASE_DIR, env=env, check=True)
    refused = subprocess.run(
        [sys.executable, "deploy/serve.py", f"127.0.0.1:{free_port()}"],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=STARTUP_SECONDS,
    )
    assert refused.returncode != 0
    assert "demo-owner" in refused.stderr and "manage.py remove_demo" in refused.stderr
    assert "the server was not started" in refused.stderr and "Starting gunicorn" not in refused.stdout
