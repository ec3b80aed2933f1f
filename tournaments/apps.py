from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Turniere")

    def ready(self) -> None:
        from scoring import hooks
        from tournaments import guards

        hooks.table_start_checks.append(guards.check_table_start)
        hooks.entry_append_checks.append(guards.check_entry_append)
        hooks.table_notes.append(guards.table_note)
        hooks.session_locks.append(guards.partie_lock)
        hooks.session_unlocks.append(guards.partie_unlock)
        hooks.games_left.append(guards.games_left)
        hooks.table_write_checks.append(guards.check_table_write)
        hooks.entry_written.append(guards.claim_table)
        hooks.table_notes.append(guards.seat_note)
