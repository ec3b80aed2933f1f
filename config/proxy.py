"""The address a request came from, for the rate limit of the public tournament link
(``RATELIMIT_IP_META_KEY``): REMOTE_ADDR, or behind the TLS proxy of deploy/Caddyfile
(``DJANGO_BEHIND_PROXY``, the server listening on the loopback address only) the last address of
X-Forwarded-For, the one the proxy itself saw; what a client wrote before it is not trusted."""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    address = request.META.get("REMOTE_ADDR", "") or "0.0.0.0"
    if settings.BEHIND_PROXY:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")[-1].strip()
        address = forwarded or address
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:  # not an address (a malformed header): one bucket for all such requests
        return "0.0.0.0"
