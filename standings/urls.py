"""Standings, statistics, charts and downloads of a club (included under ``clubs/<slug>/``)."""

from django.urls import path

from standings import views

app_name = "stats"

urlpatterns = [
    path("standings/", views.standings, name="standings"),
    path("standings/pdf/", views.standings_pdf, name="standings_pdf"),
    path("standings/xlsx/", views.standings_xlsx, name="standings_xlsx"),
    path("charts/running.svg", views.chart_running, name="chart_running"),
    path("charts/games.svg", views.chart_games, name="chart_games"),
    path("members/<id:member_id>/stats/", views.member, name="member"),
    path("members/<id:member_id>/stats/pdf/", views.member_pdf, name="member_pdf"),
    path("evenings/<id:session_id>/stats/", views.evening, name="evening"),
    path("evenings/<id:session_id>/stats/chart.svg", views.evening_chart, name="evening_chart"),
    path("evenings/<id:session_id>/stats/pdf/", views.evening_pdf, name="evening_pdf"),
]
