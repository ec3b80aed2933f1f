from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OfflineConfig(AppConfig):
    name = "offline"
    verbose_name = _("Ohne Netz")
