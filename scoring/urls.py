"""Evenings, tables and the score sheet, below a club: /clubs/<slug>/abende/… (every view goes
through clubs.access.club_view)."""

from django.urls import path

from scoring import views

app_name = "scoring"

SESSION = "clubs/<slug:slug>/abende/<id:session_id>/"
TABLE = SESSION + "tische/<id:table_id>/"
ENTRY = TABLE + "eintraege/<id:entry_id>/"

urlpatterns = [
    path("clubs/<slug:slug>/abende/", views.session_list, name="session_list"),
    path("clubs/<slug:slug>/abende/neu/", views.session_create, name="session_create"),
    path(SESSION, views.session_detail, name="session"),
    path(SESSION + "abschliessen/", views.session_close, name="session_close"),
    path(SESSION + "oeffnen/", views.session_reopen, name="session_reopen"),
    path(SESSION + "tische/neu/", views.table_start, name="table_start"),
    path(TABLE, views.table_detail, name="table"),
    path(TABLE + "eintragen/", views.entry_add, name="entry_add"),
    path(TABLE + "vorschau/", views.entry_preview, name="entry_preview"),
    path(TABLE + "ereignis/", views.event_add, name="event_add"),
    path(TABLE + "rueckgaengig/", views.entry_undo, name="entry_undo"),
    path(TABLE + "erster-geber/", views.table_first_dealer, name="table_first_dealer"),
    path(TABLE + "protokoll/", views.table_audit, name="table_audit"),
    path(ENTRY, views.entry_edit, name="entry_edit"),
    path(ENTRY + "loeschen/", views.entry_delete, name="entry_delete"),
    path("clubs/<slug:slug>/regeln/", views.club_rules, name="club_rules"),
    path("clubs/<slug:slug>/regeln/vorschau/", views.club_rules_preview, name="club_rules_preview"),
    path("clubs/<slug:slug>/kasse/", views.kasse, name="kasse"),
]
