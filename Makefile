# The commands of README.md: `make run` (the demo server), `make serve` (the production server),
# `make update` (after pulling a new version) and `make test` (everything CI checks).
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1:8000
# PostgreSQL for the second test run when DATABASE_URL does not name one.
PG_DEFAULT_URL := postgres://postgres@127.0.0.1:5432/test
# Chromium for the browser tests; Pango for WeasyPrint's PDFs; a font for both.
SYSTEM_PACKAGES := chromium libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core
# -rfEs: every failure, error and skipped test (with its reason) in the summary; the ten slowest
# tests of each run at its end. The suite runs in parallel (pytest-xdist, one worker per core, an
# idle worker takes tests from a busy one; TEST_WORKERS=1 for one process), then the browser
# tests, also one per worker: each worker has its own database and live server, and a browser
# test spends much of its time waiting for the page, so two at once finish sooner. On SQLite their
# test database is a file (TEST_SQLITE_FILE, config/settings.py): in memory, a live server's
# thread still answering when a test ends holds a table the test's flush needs.
# On SQLite everything runs; on PostgreSQL (TEST_SCOPE=database, tests/conftest.py) only the
# tests that use the database: what needs none (the pure engines, the planner) or what it cannot
# change (marked no_db_variance: the browser's own side, layout, refusals at the field) runs once.
PYTEST := $(PY) -m pytest -rfEs --durations=10
TEST_WORKERS ?= auto
XDIST = -n $(TEST_WORKERS) --dist worksteal
UNIT = $(PYTEST) $(XDIST) --ignore=tests/e2e
BROWSER = TEST_SQLITE_FILE=1 $(PYTEST) $(XDIST) tests/e2e

.PHONY: help run serve update test lint system-deps vendor messages

help:
	@echo "make run    - install, migrate, load the demo club into demo.sqlite3, serve http://$(HOST)/"
	@echo "make serve  - the production server (gunicorn) on HOST; DJANGO_HTTPS=0 on a local network without TLS"
	@echo "make update - back up the database, install, migrate, collectstatic, restart the service"
	@echo "make test   - lint, migration check, the test suite on SQLite and PostgreSQL"
	@echo "make lint   - only ruff and the migration check"
	@echo "make messages / make vendor - refresh translations / vendored front-end files"

$(PY):
	$(PYTHON) -m venv $(VENV)

# Stamps: reinstall only when a requirements file changes.
$(VENV)/.installed-runtime: requirements.txt | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements.txt requirements-dev.txt | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@ $(VENV)/.installed-runtime

# HOST=0.0.0.0:8000 lets the phones on the Wi-Fi in: the allowed hosts then include this machine's
# LAN addresses (config/hosts.py) unless DJANGO_ALLOWED_HOSTS is set.
# The demo lives in a database of its own (DEMO_DATABASE_URL, default demo.sqlite3), never in the
# club's: `make serve` refuses a database that holds the demo logins (password 'demo').
DEMO_DATABASE_URL ?= sqlite:///$(CURDIR)/demo.sqlite3
run: $(VENV)/.installed-runtime
	@echo "The demo database: $(DEMO_DATABASE_URL) (the club's server, make serve, does not use it)"
	DATABASE_URL="$(DEMO_DATABASE_URL)" DJANGO_DEBUG=1 $(PY) manage.py migrate --no-input
	DATABASE_URL="$(DEMO_DATABASE_URL)" DJANGO_DEBUG=1 $(PY) manage.py seed_demo
	@hosts="$${DJANGO_ALLOWED_HOSTS:-$$($(PY) -m config.hosts $(HOST))}"; \
	echo "Serving $$($(PY) -m config.hosts --urls $(HOST) | tr '\n' ' ')- stop with Ctrl-C."; \
	echo "Allowed hosts: $$hosts"; \
	DATABASE_URL="$(DEMO_DATABASE_URL)" DJANGO_DEBUG=1 DJANGO_ALLOWED_HOSTS="$$hosts" $(PY) manage.py runserver $(HOST)

# The production server: .env with a generated secret key (first run), migrate, collectstatic,
# gunicorn on HOST (deploy/serve.py; docs/operations.md).
serve: $(VENV)/.installed-runtime
	$(PY) deploy/serve.py $(HOST)

# After `git pull`: a backup first (deploy/backup.py), then install, migrate, collectstatic, and a
# restart of the systemd service when it is installed (else restart `make serve` yourself).
update:
	$(PY) deploy/backup.py
	$(MAKE) --no-print-directory $(VENV)/.installed-runtime
	DJANGO_DEBUG=0 $(PY) manage.py migrate --no-input
	DJANGO_DEBUG=0 $(PY) manage.py collectstatic --no-input --verbosity 0
	@if systemctl is-enabled --quiet schafkopf 2>/dev/null; then \
		sudo=""; [ "$$(id -u)" = 0 ] || sudo="sudo"; \
		echo "Restarting the schafkopf service"; $$sudo systemctl restart schafkopf; \
	else echo "Updated. Restart the server now (stop make serve with Ctrl-C and start it again)."; fi

# Debian packages the tests need. Without apt (another OS) say so; the browser tests then skip.
system-deps:
	@if ! command -v apt-get >/dev/null 2>&1; then \
		echo "No apt-get on this machine: install Chromium and Pango yourself; browser tests will be skipped."; \
	else \
		missing=""; \
		for p in $(SYSTEM_PACKAGES); do dpkg -s "$$p" >/dev/null 2>&1 || missing="$$missing $$p"; done; \
		sudo=""; [ "$$(id -u)" = 0 ] || sudo="sudo"; \
		if [ -n "$$missing" ] && [ -n "$$sudo" ] && ! command -v sudo >/dev/null 2>&1; then \
			echo "Missing Debian packages:$$missing - not root and no sudo; browser tests will be skipped."; \
		elif [ -n "$$missing" ]; then \
			echo "Installing Debian packages:$$missing"; \
			$$sudo apt-get update -qq && \
			DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing >/dev/null; \
		fi; \
	fi

lint: $(VENV)/.installed-dev
	@status=0; \
	$(PY) -m ruff check . || status=1; \
	DJANGO_DEBUG=1 $(PY) manage.py makemigrations --check --dry-run || status=1; \
	exit $$status

# Runs every phase even after one failed, so one run shows everything; then exits 1 naming each
# phase that failed (lint, sqlite, sqlite-browser, postgresql, postgresql-browser).
test: $(VENV)/.installed-dev system-deps
	@failed=""; passed=""; \
	phase() { name="$$1"; shift; echo "== $$name"; \
		if "$$@"; then passed="$$passed $$name"; else failed="$$failed $$name"; fi; }; \
	phase lint $(MAKE) --no-print-directory lint; \
	pg="$${DATABASE_URL:-}"; case "$$pg" in postgres*) ;; *) pg="$(PG_DEFAULT_URL)";; esac; \
	export DATABASE_URL="sqlite:///$(CURDIR)/db.sqlite3"; \
	phase sqlite $(UNIT); \
	phase sqlite-browser env $(BROWSER); \
	shown=$$(echo "$$pg" | sed -E 's#//[^@/]*@#//#'); \
	if $(PY) -c 'import sys, psycopg; psycopg.connect(sys.argv[1], connect_timeout=3).close()' "$$pg" 2>/dev/null; then \
		echo "PostgreSQL at $$shown"; export DATABASE_URL="$$pg" TEST_SCOPE=database; \
		phase postgresql $(UNIT); \
		phase postgresql-browser env $(BROWSER); \
	else \
		echo "PostgreSQL not reachable at $$shown: skipped (set DATABASE_URL to use another)."; \
	fi; \
	echo "passed:$${passed:- none}"; \
	if [ -n "$$failed" ]; then echo "make test FAILED:$$failed"; exit 1; fi; \
	echo "make test passed"

# Developers: after changing UI strings, update locale/en and translate the new entries.
messages: $(VENV)/.installed-dev
	DJANGO_DEBUG=1 $(PY) manage.py makemessages --locale en --no-obsolete --ignore '.venv/*' --ignore 'node_modules/*' --ignore 'static/*'
	DJANGO_DEBUG=1 $(PY) manage.py compilemessages --locale en --ignore '.venv/*'

# Developers: after changing a version in package.json, refresh the committed copies.
vendor:
	npm ci --no-audit --no-fund
	install -D -m 644 node_modules/@picocss/pico/css/pico.blue.min.css static/vendor/pico/pico.blue.min.css
	install -D -m 644 node_modules/@picocss/pico/LICENSE.md static/vendor/pico/LICENSE.md
	install -D -m 644 node_modules/htmx.org/dist/htmx.min.js static/vendor/htmx/htmx.min.js
	install -D -m 644 node_modules/htmx.org/LICENSE static/vendor/htmx/LICENSE
	install -D -m 644 node_modules/idb/build/umd.js static/vendor/idb/idb.umd.js
	install -D -m 644 node_modules/idb/LICENSE static/vendor/idb/LICENSE
	# Pyodide: only what loadPyodide reads for the standard library (no packages); the npm
	# package ships no licence file, Debian's copy of its MPL-2.0 text stands in.
	for f in pyodide.js pyodide.mjs pyodide.asm.js pyodide.asm.wasm python_stdlib.zip pyodide-lock.json; do \
		install -D -m 644 node_modules/pyodide/$$f static/vendor/pyodide/$$f; done
	install -D -m 644 /usr/share/common-licenses/MPL-2.0 static/vendor/pyodide/LICENSE
	# The loaders name source maps we do not ship; collectstatic's manifest would look for them.
	sed -i '/^\/\/# sourceMappingURL=/d' static/vendor/pyodide/pyodide.js static/vendor/pyodide/pyodide.mjs
