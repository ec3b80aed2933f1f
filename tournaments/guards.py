"""The championship's rules for its score sheets, registered as ``scoring.hooks`` (issue 14):

- inside a Partie only the plan's tables exist and each player sits at exactly one (a table
  outside the plan would be missing from the ranking without a word);
- a table takes its games (40 at four, 50 at five, 60 at six for 40 each, 001 §11.2, §7.1, §7.2)
  and refuses a hand after the last; its page says when the last game is next; an import of
  its paper sheet asks first how many it still takes (``games_left``);
- once the championship is finished its Partie evenings are read-only (issue 20): no entry
  appended, corrected or deleted, no evening closed or reopened on the score sheet, until the
  owner reopens the championship (``services.tournament_reopen``, with a reason).
- a table is written by its Schreiber's login only (issue 20), besides the Vorstand: the login
  the Vorstand assigned on the Partie page, else the first scorer login that saved an entry
  there (it claims the table). Another scorer gets 403 with the name of who writes it;
- its page shows the seat order drawn for the Partie (001 §11.2) and who deals first.
- a table the owner broke off (``tournaments.services.table_abort``, issue 20) takes no further
  hand; its page says so and why.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils.translation import gettext as _

from clubs.models import Member, Membership, Role
from scoring.models import Entry, Session, Table
from tournaments.models import Partie, PartieTable, Status, Tournament


def finished_message() -> str:
    """Why a finished championship refuses a change, and the way forward."""
    return _(
        "Die Meisterschaft ist abgeschlossen. Zum Ändern zuerst die Meisterschaft wieder öffnen (Vorstand, mit Grund)."
    )


def check_not_finished(tournament: Tournament) -> None:
    """Refuse a change of what decides the result (Partien, Stechen, Korrekturen, Teilnehmer)
    while the championship is finished. ``tournament`` is the row the caller has locked."""
    if tournament.status == Status.FINISHED:
        raise ValidationError(finished_message())


def partie_lock(session: Session) -> str | None:
    """``hooks.session_locks``: a Partie evening of a finished championship is read-only. Read
    from the database, so ``tournament_reopen`` (status first, then the evenings) and
    ``tournament_finish`` (the evenings first, then the status) pass within their transaction."""
    if Partie.objects.filter(session_id=session.pk, tournament__status=Status.FINISHED).exists():
        return finished_message()
    return None


def partie_unlock(session: Session) -> tuple[str, str] | None:
    """``hooks.session_unlocks``: where a finished championship's Partie evening is opened again
    (the owner's reopen page, with the reason it asks for; issue 30)."""
    partie = Partie.objects.filter(session_id=session.pk, tournament__status=Status.FINISHED).select_related(
        "tournament__club"
    )
    found = partie.first()
    if found is None:
        return None
    tournament = found.tournament
    address = reverse("tournaments:reopen", kwargs={"slug": tournament.club.slug, "tournament_id": tournament.pk})
    return _("Meisterschaft wieder öffnen"), address


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


def games_left(table: Table) -> int | None:
    """The hands a championship table still takes (None for any other table)."""
    limit = _limit(table)
    return None if limit is None else max(0, limit[2] - limit[1])


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


def login_name(partie_table: PartieTable, login: AbstractBaseUser) -> str:
    """How a login is called at the club: its player's name where it has one, and the login."""
    member = Member.objects.filter(club_id=partie_table.partie.tournament.club_id, user=login).first()
    username = login.get_username()
    return f"{member.display_name} (Login „{username}“)" if member else f"„{username}“"


def _owner(table: Table, user: AbstractBaseUser) -> bool:
    return Membership.objects.filter(club_id=table.session.club_id, user=user, role=Role.OWNER).exists()


def check_table_write(table: Table, user: AbstractBaseUser | None) -> None:
    """Only the table's Schreiber login and the Vorstand change a championship table. A command
    or a test writing directly (no user) is not asked."""
    if user is None or not user.is_authenticated:
        return
    partie_table = (
        PartieTable.objects.filter(table=table).select_related("schreiber_login", "partie__tournament").first()
    )
    if partie_table is None or partie_table.schreiber_login_id in (None, user.pk) or _owner(table, user):
        return
    assert partie_table.schreiber_login is not None
    raise PermissionDenied(
        _(
            "Diesen Tisch schreibt %(name)s. Nur er und der Vorstand können hier eintragen; einen anderen "
            "Schreiber bestimmt der Vorstand auf der Seite der Partie."
        )
        % {"name": login_name(partie_table, partie_table.schreiber_login)}
    )


def claim_table(table: Table, user: AbstractBaseUser | None) -> None:
    """The first scorer login that saves an entry at a championship table writes it from then on
    (the Vorstand writes anywhere and claims nothing; a command claims nothing)."""
    if user is None or not user.is_authenticated or _owner(table, user):
        return
    PartieTable.objects.filter(table=table, schreiber_login__isnull=True).update(schreiber_login=user)


def seat_note(table: Table) -> str | None:
    """The drawn seat order on the table's page (001 §11.2), and who deals first."""
    partie_table = PartieTable.objects.filter(table=table).select_related("partie", "schreiber").first()
    if partie_table is None:
        return None
    seats = list(table.seats.order_by("position"))
    first = next((seat.name for seat in seats if seat.is_first_dealer), seats[0].name if seats else "")
    order = " → ".join(seat.name for seat in seats)
    return _(
        "Sitzordnung der %(index)s. Partie, gezogen (im Uhrzeigersinn, der Schreiber %(schreiber)s zuerst): "
        "%(order)s. Es gibt zuerst: %(first)s."
    ) % {"index": partie_table.partie.index, "schreiber": partie_table.schreiber, "order": order, "first": first}
