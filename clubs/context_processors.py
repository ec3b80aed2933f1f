"""Template context of every page: the words of the club the page is about (``clubs.words``)."""

from __future__ import annotations

from django.http import HttpRequest

from clubs.words import Words, words_for


def game_words(request: HttpRequest) -> dict[str, Words]:
    """``words``: set by ``clubs.access.club_for`` once access is granted (``request.club``), so
    a page of no club, or a refused one, speaks the app's first game."""
    club = getattr(request, "club", None)
    return {"words": words_for(club.game if club is not None else None)}
