from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OpenTournamentsConfig(AppConfig):
    name = "opentournaments"
    verbose_name = _("Offene Turniere")
