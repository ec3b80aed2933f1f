from django.urls import path

from opentournaments import views

app_name = "opentournaments"

OPEN = "clubs/<slug:slug>/open/<id:open_id>/"
ROUND = OPEN + "round/<int:round_number>/"

urlpatterns = [
    path("clubs/<slug:slug>/open/", views.open_list, name="list"),
    path("clubs/<slug:slug>/open/new/", views.open_create, name="create"),
    path(OPEN, views.open_detail, name="detail"),
    path(OPEN + "desk/", views.desk, name="desk"),
    path(OPEN + "registrations/<id:registration_id>/paid/", views.registration_paid, name="paid"),
    path(OPEN + "registrations/<id:registration_id>/withdraw/", views.registration_withdraw, name="withdraw"),
    path(OPEN + "draw/", views.round_draw, name="draw"),
    path(OPEN + "ranking/", views.ranking, name="ranking"),
    path(OPEN + "ranking.pdf", views.ranking_pdf, name="ranking_pdf"),
    path(ROUND, views.round_seating, name="round"),
    path(ROUND[:-1] + ".pdf", views.round_seating_pdf, name="round_pdf"),
    path(ROUND + "sheets.pdf", views.round_sheets_pdf, name="sheets_pdf"),
    path(ROUND + "entry/", views.round_entry, name="entry"),
    path(ROUND + "ranking/", views.ranking, name="round_ranking"),
    path(ROUND + "table/<int:table_no>/", views.table_entry, name="table_entry"),
    path(ROUND + "table/<int:table_no>/phone/", views.table_phone_start, name="phone_start"),
    path(ROUND + "table/<int:table_no>/paper/", views.table_phone_stop, name="phone_stop"),
]
