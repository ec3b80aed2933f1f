"""The read-only tournament link (issue 24 §6) and its QR code.

The link names the club and the tournament's public token (unique within the club, never the
primary key), needs no login and shows only that tournament. The absolute address is built from
the request, so the link and the QR code carry the host the club reaches the app by.
"""

from __future__ import annotations

import segno
from django.http import HttpRequest
from django.urls import reverse

from opentournaments.models import OpenTournament


def public_path(tournament: OpenTournament) -> str:
    return reverse(
        "opentournaments:public", kwargs={"club_slug": tournament.club.slug, "token": tournament.public_token}
    )


def public_url(request: HttpRequest, tournament: OpenTournament) -> str:
    return request.build_absolute_uri(public_path(tournament))


def qr_svg(url: str) -> str:
    """``url`` as a QR code, an inline SVG element that scales to its box (no width or height of
    its own; no style attribute, which the CSP would refuse). Error correction M survives a
    crease in the printed list; the quiet zone is the four modules the standard asks for."""
    return segno.make_qr(url, error="m").svg_inline(scale=1, border=4, omitsize=True, light="#fff")
