"""The installable app and the offline score sheet (issue 16; docs/offline.md). The service worker is served
from the root, so its scope covers every table page."""

from django.urls import path

from offline import views
from scoring.urls import TABLE

app_name = "offline"

urlpatterns = [
    path("sw.js", views.service_worker, name="service_worker"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("offline/", views.offline_page, name="page"),
    path("offline/engine.zip", views.engine_source, name="engine"),
    path(TABLE + "offline.json", views.table_data, name="table_data"),
    path(TABLE + "offline/senden/", views.entry_send, name="entry_send"),
]
