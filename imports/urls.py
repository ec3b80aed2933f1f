"""The history import below a club: /clubs/<slug>/abende/nachtragen/… Its names stay in the
``scoring`` namespace (``scoring:history_import``): config/urls.py includes these patterns with
the score sheet's, so the addresses and names did not change when the import became an app."""

from django.urls import path

from imports import views

urlpatterns = [
    path("clubs/<slug:slug>/abende/nachtragen/", views.history_import, name="history_import"),
    path(
        "clubs/<slug:slug>/abende/nachtragen/vorlage.csv",
        views.history_template,
        {"kind": "csv"},
        name="history_template_csv",
    ),
    path(
        "clubs/<slug:slug>/abende/nachtragen/vorlage.xlsx",
        views.history_template,
        {"kind": "xlsx"},
        name="history_template_xlsx",
    ),
]
