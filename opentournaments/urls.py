from django.urls import path

from opentournaments import views

app_name = "opentournaments"

OPEN = "clubs/<slug:slug>/open/<id:open_id>/"
ROUND = OPEN + "round/<int:round_number>/"

urlpatterns = [
    path("clubs/<slug:slug>/open/", views.open_list, name="list"),
    path("clubs/<slug:slug>/open/new/", views.open_create, name="create"),
    path(OPEN, views.open_detail, name="detail"),
    path(OPEN + "edit/", views.open_edit, name="edit"),
    path(OPEN + "desk/", views.desk, name="desk"),
    path(OPEN + "registrations/<id:registration_id>/", views.registration_edit, name="registration"),
    path(OPEN + "registrations/<id:registration_id>/remove/", views.registration_remove, name="remove"),
    path(OPEN + "registrations/<id:registration_id>/paid/", views.registration_paid, name="paid"),
    path(OPEN + "registrations/<id:registration_id>/withdraw/", views.registration_withdraw, name="withdraw"),
    path(OPEN + "draw/", views.round_draw, name="draw"),
    path(OPEN + "public-link/", views.public_link_renew, name="public_renew"),
    path(OPEN + "ranking/", views.ranking, name="ranking"),
    path(OPEN + "room/", views.room, name="room"),
    path(OPEN + "room/seating/", views.room, {"mode": "seating"}, name="room_seating"),
    path(OPEN + "ranking.pdf", views.ranking_pdf, name="ranking_pdf"),
    path(OPEN + "rules/", views.rules, name="rules"),
    path(OPEN + "rules.pdf", views.rules_pdf, name="rules_pdf"),
    path(OPEN + "ranking.xlsx", views.ranking_xlsx, name="ranking_xlsx"),
    path(OPEN + "prizes.pdf", views.prizes_pdf, name="prizes_pdf"),
    path(ROUND, views.round_seating, name="round"),
    path(ROUND[:-1] + ".pdf", views.round_seating_pdf, name="round_pdf"),
    path(ROUND + "sheets.pdf", views.round_sheets_pdf, name="sheets_pdf"),
    path(ROUND + "entry/", views.round_entry, name="entry"),
    path(ROUND + "ranking/", views.ranking, name="round_ranking"),
    path(ROUND + "ranking.pdf", views.ranking_pdf, name="round_ranking_pdf"),
    path(ROUND + "ranking.xlsx", views.ranking_xlsx, name="round_ranking_xlsx"),
    path(ROUND + "day/", views.round_day, name="round_day"),
    path(ROUND + "table/<int:table_no>/", views.table_entry, name="table_entry"),
    path(ROUND + "table/<int:table_no>/phone/", views.table_phone_start, name="phone_start"),
    path(ROUND + "table/<int:table_no>/paper/", views.table_phone_stop, name="phone_stop"),
    # The read-only tournament link: no login, no club page; the token is the key (links.py).
    path("o/<slug:club_slug>/<slug:token>/", views.public, name="public"),
]
