"""The installable app and the offline score sheet (issue 16). The service worker is served
from the root, so its scope covers every table page."""

from django.urls import path

from scoring import views_offline
from scoring.urls import TABLE

app_name = "offline"

urlpatterns = [
    path("sw.js", views_offline.service_worker, name="service_worker"),
    path("manifest.webmanifest", views_offline.manifest, name="manifest"),
    path("offline/", views_offline.offline_page, name="page"),
    path("offline/engine.zip", views_offline.engine_source, name="engine"),
    path(TABLE + "offline.json", views_offline.table_data, name="table_data"),
    path(TABLE + "offline/senden/", views_offline.entry_send, name="entry_send"),
]
