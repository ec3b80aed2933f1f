"""What makes two usernames one login: the same text after Unicode compatibility folding (NFKC:
the full-width ``ｄemo-scorer`` is ``demo-scorer``) and case folding (``Demo-Scorer`` is
``demo-scorer``; ``Straße`` is ``strasse``).

- Every place that creates a login (the ``Zugänge`` page, ``create_club``, a club backup, the
  admin's forms) refuses a name whose canonical form is taken (``username_problem``);
- the login page looks the typed name up by its canonical form (``CanonicalNameBackend``), and
  django-axes counts failed logins per canonical name (``axes_username``), so ``DEMO`` and
  ``ｄemo`` share one lockout counter.

A username is stored as it was typed (NFKC-normalised, as Django does); only the comparison
folds. Logins that clashed before this rule existed are kept as they are (migration
``clubs.0003``'s check lists them; docs/operations.md, Logins): each logs in with its exact
name, no new clash can be added.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext as _


def canonical_username(username: str) -> str:
    """The form two usernames are compared in: NFKC, case-folded, NFKC again (case folding can
    undo the normal form, e.g. for some Greek letters)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", username).casefold())


def find_login(username: str) -> AbstractBaseUser | None:
    """The login called ``username``: the exact name first, else the one whose canonical form
    is the same (compared in Python: the databases fold case differently and know no NFKC;
    a club server has hundreds of logins, not millions)."""
    User = get_user_model()
    exact = User._default_manager.filter(username=username).first()
    if exact is not None:
        return exact
    key = canonical_username(username)
    for pk, name in User._default_manager.values_list("pk", "username").iterator():
        if canonical_username(name) == key:
            return User._default_manager.get(pk=pk)
    return None


def username_problem(username: str) -> str | None:
    """Why ``username`` cannot be a new login (German), or None: Django's rules for usernames
    (length, letters, digits and @.+-_) and no login of the same canonical name."""
    User = get_user_model()
    field = User._meta.get_field("username")
    try:
        field.clean(username, None)
    except ValidationError as error:
        return " ".join(error.messages)
    if find_login(username) is not None:
        return _("Diesen Benutzernamen gibt es schon (Groß- und Kleinschreibung und Zeichenbreite zählen nicht).")
    return None


def axes_username(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """django-axes' key for a login attempt: the canonical name (``AXES_USERNAME_CALLABLE``)."""
    name = (credentials or {}).get("username")
    if name is None and request is not None:
        name = request.POST.get("username")
    return canonical_username(name) if isinstance(name, str) else name


class CanonicalNameBackend(ModelBackend):
    """``ModelBackend`` that finds the login by ``find_login``: ``Demo-Scorer`` and
    ``ｄemo-scorer`` log in as ``demo-scorer``."""

    def authenticate(
        self, request: HttpRequest | None, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> AbstractBaseUser | None:
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if username is None or password is None:
            return None
        user = find_login(username)
        if user is None:
            get_user_model()().set_password(password)  # the same time as a wrong password
            return None
        if user.check_password(password) and self.user_can_authenticate(user):
            return user
        return None


def username_clashes() -> list[list[str]]:
    """Groups of existing logins that are one name by the rule above (made before it existed):
    each keeps logging in with its exact name; no further one can be added."""
    groups: dict[str, list[str]] = {}
    for name in get_user_model()._default_manager.values_list("username", flat=True).iterator():
        groups.setdefault(canonical_username(name), []).append(name)
    return sorted(sorted(names) for names in groups.values() if len(names) > 1)
