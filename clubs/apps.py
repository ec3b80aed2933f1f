from django.apps import AppConfig
from django.core import checks
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    name = "clubs"
    verbose_name = _("Vereine")

    def ready(self) -> None:
        from clubs.checks import check_username_clashes

        checks.register(check_username_clashes, checks.Tags.database)
