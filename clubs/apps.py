from django.apps import AppConfig
from django.core import checks
from django.urls import register_converter
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    name = "clubs"
    verbose_name = _("Vereine")

    def ready(self) -> None:
        from clubs.checks import check_username_clashes
        from clubs.ids import IdConverter

        checks.register(check_username_clashes, checks.Tags.database)
        register_converter(IdConverter, "id")  # <id:…> in every app's addresses
