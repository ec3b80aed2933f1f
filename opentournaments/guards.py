"""An open tournament's rules for the score sheets of its phone tables, registered as
``scoring.hooks`` (issue 24):

- a phone table takes the games of its round (``games_per_round`` at four, 5/4 and 6/4 of them at
  five and six, as ``selectors.table_games`` counts) and refuses a hand after the last; its page
  says how many are played and when the last is next; an import asks first (``games_left``);
- a round's evening seats only the round's tables, each once (``services.table_phone_start``
  makes them): another table there would count in no ranking;
- the sheet's page leads back to its round of the tournament;
- the club's standings over a period leave out a tournament's games unless the tournament counts
  for the club, and its guests always (``standings_exclusions``, issue 31 §8);
- a round's evening closes when its last phone table has played all its games
  (``close_finished_round``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db.models import Count
from django.urls import reverse
from django.utils.translation import gettext as _

from clubs.models import Member
from opentournaments.models import Registration, RoundTable
from opentournaments.selectors import table_games
from scoring import hooks
from scoring import services as scoring_services
from scoring.models import Entry, Session, Table


def _round_table(table: Table) -> RoundTable | None:
    return RoundTable.objects.filter(phone_table=table).select_related("round__tournament__club").first()


def _limit(table: Table) -> tuple[RoundTable, int, int] | None:
    """(its round table, games played, games to play) for a phone table, else None."""
    round_table = _round_table(table)
    if round_table is None:
        return None
    played = Entry.objects.filter(table=table, kind="hand").count()
    return round_table, played, table_games(round_table.round.tournament, len(round_table.seats))


def check_entry_append(table: Table) -> None:
    limit = _limit(table)
    if limit is None:
        return
    round_table, played, games = limit
    if played >= games:
        raise ValidationError(
            _(
                "Tisch %(number)s hat alle %(games)s Spiele dieser Runde gespielt; ein weiteres Spiel zählt "
                "nicht. Ein falsch eingetragenes Spiel wird korrigiert, nicht angehängt."
            )
            % {"number": round_table.number, "games": games}
        )


def games_left(table: Table) -> int | None:
    """The hands a phone table still takes (None for any other table)."""
    limit = _limit(table)
    return None if limit is None else max(0, limit[2] - limit[1])


def table_note(table: Table) -> str | None:
    limit = _limit(table)
    if limit is None:
        return None
    round_table, played, games = limit
    where = {"tournament": round_table.round.tournament, "round": round_table.round.number, "games": games}
    if played >= games:
        return _("%(tournament)s, Runde %(round)s: alle %(games)s Spiele gespielt, der Tisch ist fertig.") % where
    if played == games - 1:
        return _("%(tournament)s, Runde %(round)s: das nächste Spiel (Nr. %(games)s) ist das letzte.") % where
    return _("%(tournament)s, Runde %(round)s: %(played)s von %(games)s Spielen gespielt.") % {
        **where,
        "played": played,
    }


def table_link(table: Table) -> tuple[str, str] | None:
    round_table = _round_table(table)
    if round_table is None:
        return None
    round_ = round_table.round
    tournament = round_.tournament
    url = reverse(
        "opentournaments:entry",
        kwargs={"slug": tournament.club.slug, "open_id": tournament.pk, "round_number": round_.number},
    )
    label = _("%(tournament)s · Runde %(round)s") % {"tournament": tournament, "round": round_.number}
    return label, f"{url}#t{round_table.number}"


def check_table_start(session: Session, members: Sequence[Member]) -> None:
    """In a round's evening only the round's tables start, each once: the players of a table of
    the round not yet on a phone (``services.table_phone_start`` sets them before it starts)."""
    round_table = RoundTable.objects.filter(phone_table__session=session).select_related("round").first()
    if round_table is None:
        return
    wanted = {member.pk for member in members}
    for candidate in round_table.round.tables.filter(phone_table__isnull=True):
        players = set(
            candidate.round.tournament.registrations.filter(start_number__in=candidate.seats).values_list(
                "player_id", flat=True
            )
        )
        if players == wanted and len(candidate.seats) == len(members):
            return
    raise ValidationError(
        {
            "members": _(
                "Dieser Abend ist Runde %(round)s von %(tournament)s: es spielen nur die ausgelosten Tische, "
                "jeder einmal. Ein weiterer Tisch würde in der Rangliste nicht zählen."
            )
            % {"round": round_table.round.number, "tournament": round_table.round.tournament}
        }
    )


def standings_exclusions(club_id: int) -> Iterator[hooks.Exclusion]:
    """The games of an open tournament's phone tables are the club's ledger rows (the score sheet
    books every hand), but not the club's season (issue 31 §8): a tournament's evenings count in
    the club's standings over a period only where the tournament says so (``in_club_standings``),
    and even then not its guests, who sit at the sheet as the club's inactive guest players only
    because the sheet seats members. Subqueries, run inside the standings' own query."""
    phone = RoundTable.objects.filter(round__tournament__club_id=club_id, phone_table__isnull=False)
    yield hooks.Exclusion(phone.filter(round__tournament__in_club_standings=False).values("phone_table__session_id"))
    guests = Registration.objects.filter(
        tournament__club_id=club_id, tournament__in_club_standings=True, member__isnull=True, player__isnull=False
    )
    yield hooks.Exclusion(
        phone.filter(round__tournament__in_club_standings=True).values("phone_table__session_id"),
        guests.values("player_id"),
    )


def close_finished_round(table: Table, user: AbstractBaseUser | None) -> None:
    """After a game is entered at a phone table: where every phone table of its round has played
    all its games, the round's evening is closed (issue 31 §8: it closes with the round, instead of
    standing "offen" in the club's evenings). Whoever entered the last game closed it, so he may
    reopen it the same day for a late correction, as may an owner at any time; a table of the
    round going onto a phone later reopens it (``services.table_phone_start``)."""
    round_table = _round_table(table)
    if round_table is None:
        return
    round_ = round_table.round
    sheets = list(round_.tables.filter(phone_table__isnull=False).values_list("phone_table_id", "seats"))
    played = dict(
        Entry.objects.filter(table_id__in=[sheet for sheet, _seats in sheets], kind="hand")
        .values("table_id")
        .annotate(n=Count("id"))
        .values_list("table_id", "n")
    )
    tournament = round_.tournament
    if all(played.get(sheet, 0) >= table_games(tournament, len(seats)) for sheet, seats in sheets):
        session = Session.objects.get(pk=table.session_id)
        if not session.is_closed:
            scoring_services.session_close(session=session, user=user)
