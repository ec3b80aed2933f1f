from typing import Any

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.utils.translation import gettext_lazy as _

import imports.urls
import scoring.urls
from clubs.firstrun import create_club_command, no_club_yet

admin.site.site_header = _("Schafkopf – Verwaltung")
admin.site.site_title = _("Schafkopf")

# Password reset by e-mail is left out on purpose: clubs run without a mail server; an
# administrator sets a new one (`manage.py changepassword` or the admin; docs/operations.md).


class LoginView(auth_views.LoginView):
    """The login page. A login refused on a new installation without any club says how the
    first club and its owner come to exist (``manage.py create_club``, with the Python that
    has Django: clubs/firstrun.py); only then is the database asked, so showing the page
    needs none."""

    redirect_authenticated_user = True

    def form_invalid(self, form: Any) -> Any:
        first_run = no_club_yet()
        self.extra_context = {"first_run": first_run, "create_club": create_club_command() if first_run else ""}
        return super().form_invalid(form)


accounts = [
    path("login/", LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("password_change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
]

urlpatterns = [
    path("accounts/", include(accounts)),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("clubs.urls")),
    # The history import is an app of its own whose URL names stay in the score sheet's namespace.
    path("", include((scoring.urls.urlpatterns + imports.urls.urlpatterns, "scoring"))),
    path("", include("offline.urls")),
    path("", include("tournaments.urls")),
    path("", include("opentournaments.urls")),
    path("clubs/<slug:slug>/", include("standings.urls")),
]
