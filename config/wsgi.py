"""WSGI entry point for the application server (see docs/operations.md)."""

import os

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

try:
    settings.SECRET_KEY  # noqa: B018 - Django raises here when the key is empty
except ImproperlyConfigured as error:
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY is not set, so the server will not start. Set it to a long random value "
        "(python -c 'import secrets; print(secrets.token_urlsafe(50))'), or DJANGO_DEBUG=1 for local development."
    ) from error

application = get_wsgi_application()
