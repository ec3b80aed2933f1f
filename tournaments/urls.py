from django.urls import path

from tournaments import views

app_name = "tournaments"

T = "clubs/<slug:slug>/tournaments/<id:tournament_id>/"

urlpatterns = [
    path("clubs/<slug:slug>/tournaments/", views.tournament_list, name="list"),
    path("clubs/<slug:slug>/tournaments/new/", views.tournament_create, name="create"),
    path("clubs/<slug:slug>/tournaments/trophies/", views.trophies, name="trophies"),
    path(T, views.tournament_detail, name="detail"),
    path(T + "setup/", views.tournament_setup, name="setup"),
    path(T + "participants/", views.participants, name="participants"),
    path(T + "draw/", views.draw, name="draw"),
    path(T + "draw/paper/", views.draw_paper, name="draw_paper"),
    path(T + "plan/", views.plan, name="plan"),
    path(T + "plan.pdf", views.plan_pdf, name="plan_pdf"),
    path(T + "plan/choose/", views.plan_choose, name="plan_choose"),
    path(T + "partie/<int:partie_index>/", views.partie, name="partie"),
    path(T + "partie/<int:partie_index>/start/", views.partie_start, name="partie_start"),
    path(T + "partie/<int:partie_index>/table/<int:table_number>/abort/", views.table_abort, name="table_abort"),
    path(
        T + "partie/<int:partie_index>/table/<int:table_number>/abort/undo/",
        views.table_abort_undo,
        name="table_abort_undo",
    ),
    path(T + "partie/<int:partie_index>/sheets.pdf", views.sheets_pdf, name="sheets_pdf"),
    path(T + "partie/<int:partie_index>/tables/<int:table_number>/paper/", views.partie_paper, name="partie_paper"),
    path(
        T + "partie/<int:partie_index>/tisch/<int:table_number>/schreiber/",
        views.partie_schreiber,
        name="partie_schreiber",
    ),
    path(T + "partie/<int:partie_index>/substitute/", views.partie_substitute, name="partie_substitute"),
    path(T + "roster/withdraw/", views.roster_withdraw, name="roster_withdraw"),
    path(T + "roster/add/", views.roster_add, name="roster_add"),
    path(T + "ranking/", views.ranking, name="ranking"),
    path(T + "ranking/live/", views.live, name="live"),
    path(T + "ranking.pdf", views.ranking_pdf, name="ranking_pdf"),
    path(T + "ranking.xlsx", views.ranking_xlsx, name="ranking_xlsx"),
    path(T + "playoffs/", views.playoff_add, name="playoff_add"),
    path(T + "playoffs/<id:playoff_id>/delete/", views.playoff_delete, name="playoff_delete"),
    path(T + "adjustments/", views.adjustment_add, name="adjustment_add"),
    path(T + "adjustments/<id:adjustment_id>/delete/", views.adjustment_delete, name="adjustment_delete"),
    path(T + "finish/", views.finish, name="finish"),
    path(T + "reopen/", views.reopen, name="reopen"),
]
