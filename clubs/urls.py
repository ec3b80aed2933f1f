from django.urls import path

from clubs import views

app_name = "clubs"

urlpatterns = [
    path("", views.my_clubs, name="my_clubs"),
    path("new/", views.club_create, name="create"),
    path("invitations/<id:invitation_id>/accept/", views.invitation_accept, name="invitation_accept"),
    path("invitations/<id:invitation_id>/decline/", views.invitation_decline, name="invitation_decline"),
    path("clubs/<slug:slug>/", views.club_home, name="home"),
    path("clubs/<slug:slug>/settings/", views.club_settings, name="settings"),
    path("clubs/<slug:slug>/members/", views.member_list, name="member_list"),
    path("clubs/<slug:slug>/members/add/", views.member_add, name="member_add"),
    path("clubs/<slug:slug>/members/<id:member_id>/", views.member_edit, name="member_edit"),
    path("clubs/<slug:slug>/members/<id:member_id>/active/", views.member_active, name="member_active"),
    path("clubs/<slug:slug>/logins/", views.logins, name="logins"),
    path("clubs/<slug:slug>/logins/<id:membership_id>/role/", views.login_role, name="login_role"),
    path("clubs/<slug:slug>/logins/<id:membership_id>/revoke/", views.login_revoke, name="login_revoke"),
    path(
        "clubs/<slug:slug>/invitations/<id:invitation_id>/withdraw/",
        views.invitation_withdraw,
        name="invitation_withdraw",
    ),
]
