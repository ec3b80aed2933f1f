from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OpenTournamentsConfig(AppConfig):
    name = "opentournaments"
    verbose_name = _("Offene Turniere")

    def ready(self) -> None:
        from opentournaments import guards
        from scoring import hooks

        hooks.table_start_checks.append(guards.check_table_start)
        hooks.entry_append_checks.append(guards.check_entry_append)
        hooks.games_left.append(guards.games_left)
        hooks.table_notes.append(guards.table_note)
        hooks.table_links.append(guards.table_link)
        hooks.standings_exclusions.append(guards.standings_exclusions)
        hooks.entry_written.append(guards.close_finished_round)
