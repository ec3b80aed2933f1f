"""The championship's rules for its score sheets, registered as ``scoring.hooks`` (issue 14):

- inside a Partie only the plan's tables exist and each player sits at exactly one (a table
  outside the plan would be missing from the ranking without a word);
- a table takes its games (40 at four, 50 at five, 60 at six for 40 each, 001 §11.2, §7.1, §7.2)
  and refuses a hand after the last; its page says when the last game is next;
- a table the owner broke off (``tournaments.services.table_abort``, issue 20) takes no further
  hand; its page says so and why.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from clubs.models import Member
from scoring.models import Entry, Session, Table
from tournaments.models import Partie, PartieTable


def table_games(partie_table: PartieTable, seats: int) -> int:
    """The games a table of ``seats`` plays in its Partie (0 where the plan does not say)."""
    plan = partie_table.partie.tournament.plan or {}
    return int(plan.get("games_per_table", {}).get(str(seats), 0))


def games_played(table: Table) -> int:
    """The hands on the sheet (events such as a redeal are no game)."""
    return Entry.objects.filter(table=table, kind="hand").count()


def check_table_start(session: Session, members: Sequence[Member]) -> None:
    partie = Partie.objects.filter(session=session).select_related("tournament").first()
    if partie is None:
        return
    plan = (partie.tournament.plan or {}).get("partien", [])
    numbers = {p.member_id: p.number for p in partie.tournament.participants.all()}
    wanted = {numbers.get(member.pk) for member in members}
    started = set(partie.tables.values_list("number", flat=True))
    tables = plan[partie.index - 1] if partie.index <= len(plan) else []
    for number, table in enumerate(tables, start=1):
        if number not in started and set(table) == wanted and len(table) == len(members):
            return
    raise ValidationError(
        {
            "members": _(
                "Dieser Abend ist die %(index)s. Partie von %(tournament)s: es spielen nur die Tische des "
                "Spielplans, und jeder Spieler sitzt an genau einem. Ein weiterer Tisch würde in der "
                "Rangliste nicht zählen."
            )
            % {"index": partie.index, "tournament": partie.tournament}
        }
    )


def _limit(table: Table) -> tuple[PartieTable, int, int] | None:
    """(its Partie table, games played, games to play) for a championship table, else None."""
    partie_table = PartieTable.objects.filter(table=table).select_related("partie__tournament").first()
    if partie_table is None:
        return None
    games = table_games(partie_table, table.seats.count())
    return (partie_table, games_played(table), games) if games else None


def _aborted(table: Table) -> PartieTable | None:
    return PartieTable.objects.filter(table=table, aborted_at__isnull=False).first()


def check_entry_append(table: Table) -> None:
    aborted = _aborted(table)
    if aborted is not None:
        raise ValidationError(
            _(
                "Tisch %(number)s ist abgebrochen (%(reason)s) und nimmt kein Spiel mehr an. Der Besitzer kann "
                "den Abbruch auf der Seite der Partie zurücknehmen."
            )
            % {"number": aborted.number, "reason": aborted.aborted_reason}
        )
    limit = _limit(table)
    if limit is None:
        return
    partie_table, played, games = limit
    if played >= games:
        raise ValidationError(
            _(
                "Tisch %(number)s hat alle %(games)s Spiele dieser Partie gespielt; ein weiteres Spiel zählt "
                "nicht. Ein falsch eingetragenes Spiel wird korrigiert, nicht angehängt."
            )
            % {"number": partie_table.number, "games": games}
        )


def table_note(table: Table) -> str | None:
    aborted = _aborted(table)
    if aborted is not None:
        return _("Tisch %(number)s ist abgebrochen: %(reason)s. Es wird kein Spiel mehr angehängt.") % {
            "number": aborted.number,
            "reason": aborted.aborted_reason,
        }
    limit = _limit(table)
    if limit is None:
        return None
    partie_table, played, games = limit
    if played >= games:
        return _("Alle %(games)s Spiele gespielt: Tisch %(number)s ist fertig.") % {
            "games": games,
            "number": partie_table.number,
        }
    if played == games - 1:
        return _("Das nächste Spiel (Nr. %(games)s) ist das letzte dieses Tisches.") % {"games": games}
    return _("%(played)s von %(games)s Spielen gespielt.") % {"played": played, "games": games}
