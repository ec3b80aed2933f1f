"""Settings, read from the environment.

Production is the default: DEBUG is off unless DJANGO_DEBUG=1, and then DJANGO_SECRET_KEY and
DJANGO_ALLOWED_HOSTS must be set. `make run` sets DJANGO_DEBUG=1 for the local server. The test
suite (pytest) runs with DEBUG off but without the HTTPS hardening, so the test client speaks
plain HTTP. docs/operations.md lists every variable.
"""

import os
import sys
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]


TESTING = "pytest" in sys.modules


def load_env_file(path: Path) -> None:
    """KEY=VALUE lines (``#`` comments) into the environment, where not already set: the local
    settings ``make serve`` keeps outside git (``.env``, the secret key it generated). The same
    format systemd's ``EnvironmentFile=`` reads, so values are written without quotes."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return
    for line in lines:
        key, sep, value = line.strip().partition("=")
        if sep and key and not key.startswith("#"):
            os.environ.setdefault(key.strip(), value.strip())


# The suite ignores the file: tests must not depend on one machine's server settings.
ENV_FILE = Path(os.environ.get("DJANGO_ENV_FILE", BASE_DIR / ".env"))
if not TESTING:
    load_env_file(ENV_FILE)

DEBUG = env_bool("DJANGO_DEBUG", False)

# Without a key the server refuses to start (config/wsgi.py); management commands that do not
# sign anything (migrate, makemigrations, check) still run.
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY and (DEBUG or TESTING):
    SECRET_KEY = "django-insecure-local-development-only"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS")
if not ALLOWED_HOSTS and (DEBUG or TESTING):
    ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]"]
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "django_tables2",
    "axes",
    "django_ratelimit",
    "clubs",
    "scoring",
    "standings",
    "offline",
    "imports",
    "tournaments",
    "opentournaments",
    "tools",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # After WhiteNoise (static files keep their long cache): no page is kept for Back (issue 21).
    "config.nostore.NoStoreMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Names the login on pages and JSON: the phone keeps its offline copies per login (issue 22).
    "offline.logins.LoginHeaderMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a flagged failed login into the lockout response.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "clubs.context_processors.game_words",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DJANGO_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite for a small club (docs/operations.md, "Many scorers at once"): in WAL mode readers
    # never wait for the writer; IMMEDIATE makes a writing transaction take the write lock when it
    # begins, so two phones saving at once queue for up to `timeout` seconds instead of one of
    # them failing with "database is locked" halfway through.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        }
    )
    if TESTING and os.environ.get("TEST_SQLITE_FILE"):
        # The browser tests (make test): the test database in a file, not in memory. In memory
        # the live server's threads share the test's one connection, and a request still being
        # answered when a test ends makes its flush fail with "database table is locked"; with a
        # file each thread has its own connection and the flush waits for the request.
        DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "test-browser.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # Usernames compare case- and width-blind (clubs/logins.py).
    "clubs.logins.CanonicalNameBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "clubs:my_clubs"
LOGOUT_REDIRECT_URL = "login"

# Login throttling: five wrong passwords for one username from one address lock that pair out
# for an hour. The suite turns it off (Django's test client logs in without a request); the
# lockout itself has its own test with it switched back on.
AXES_ENABLED = not TESTING
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = 1  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_USERNAME_CALLABLE = "clubs.logins.axes_username"  # one counter for DEMO, demo and ｄemo
AXES_LOCKOUT_TEMPLATE = "registration/lockout.html"

# The open tournament's public link needs no login, so it is rate-limited per address
# (django-ratelimit, opentournaments.views.public). The counts live in each server process's
# memory: a club's server has no memcached or Redis, and make serve runs two gunicorn processes
# (deploy/gunicorn.conf.py), so an address gets at most twice the rate before it is refused.
# django-ratelimit's checks ask for a cache shared by all processes, memcached or Redis (E003,
# W001); that is the reason they are silenced, not a cache that loses counts (LocMemCache counts
# under a lock, so the threads of one process count together).
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "schafkopf"}}
SILENCED_SYSTEM_CHECKS = ["django_ratelimit.E003", "django_ratelimit.W001"]
# Behind the proxy (deploy/Caddyfile) every request comes from the loopback address: the client's
# is the last one the proxy put into X-Forwarded-For (config/proxy.py).
RATELIMIT_IP_META_KEY = "config.proxy.client_address"

LANGUAGE_CODE = "de"
LANGUAGES = [("de", _("Deutsch")), ("en", _("Englisch"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Berlin"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Hashed, compressed files need `collectstatic`; the local server and the tests serve
        # the source files as they are.
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG or TESTING
        else "config.storage.StaticFilesStorage",
    },
}

# Without collectstatic (local server, tests) WhiteNoise serves straight from the source folders.
WHITENOISE_USE_FINDERS = DEBUG or TESTING
WHITENOISE_AUTOREFRESH = DEBUG or TESTING

# HTTPS hardening for production. DJANGO_HTTPS=0 turns it off for a server on a club's local
# network without TLS (check --deploy then warns, rightly).
HTTPS = env_bool("DJANGO_HTTPS", not (DEBUG or TESTING))
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "31536000")) if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", True)
BEHIND_PROXY = env_bool("DJANGO_BEHIND_PROXY", False)
if BEHIND_PROXY:
    # The TLS-terminating proxy must set X-Forwarded-Proto and strip it from client requests.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy of every response (config/csp.py; the shape of Django 6.0's setting).
# Only the app's own files: no inline script or style (htmx's indicator style is switched off in
# the templates' htmx-config), images also as data: URLs (the favicon). 'wasm-unsafe-eval' lets
# the offline mode compile Pyodide's WebAssembly; it allows no JavaScript eval.
SECURE_CSP: dict[str, list[str]] = {
    "default-src": ["'self'"],
    "script-src": ["'self'", "'wasm-unsafe-eval'"],
    "worker-src": ["'self'"],
    "connect-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "style-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "frame-ancestors": ["'none'"],
    "form-action": ["'self'"],
}
SECURE_REFERRER_POLICY = "same-origin"

if TESTING:
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # A refused request (403, 404, a disallowed Host …) is one line; real errors keep tracebacks.
    "filters": {"refusals_on_one_line": {"()": "config.logfilters.RefusalsOnOneLine"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["refusals_on_one_line"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
    "loggers": {"axes": {"level": "WARNING"}},
}
