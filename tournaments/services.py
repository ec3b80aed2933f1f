"""Writes to championships. Each function is one transaction and raises ``ValidationError``
(keyed by form field where one fits) for what it refuses; a refused call changes nothing.

The championship's life (001 §11): ``tournament_create`` (rules frozen) → ``participants_set``
(members only, 001 §11.1; computes the seating plan by numbers) → ``draw_run`` or ``draw_record``
(the number draw of §11.2, logged) → ``partie_start`` for each Partie (a scoring evening with one
score sheet per table of the plan, seats drawn and logged) → hands on the score sheets
(``scoring.services``) → ``playoff_record`` / ``adjustment_record`` (§11.3) → ``tournament_finish``.

A finished championship is read-only in everything that decides its result (issue 20): the
Partie evenings (``guards.partie_lock``), the Stechen, the Korrekturen and the participants.
``tournament_reopen`` (owners, with a reason) opens it again; each finish and reopen is written
to the championship's log (``Event``), a finish with the places it moved since the one before.
A table that cannot play its games to the end is broken off first (``table_abort``).
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club, Member, Membership, Role
from scoring import selectors as scoring_selectors
from scoring import services as scoring_services
from scoring.engine import registry
from scoring.engine.core import EngineError
from scoring.models import Seat
from tournaments import guards, selectors
from tournaments.engine.draw import MAX_SEED, check_numbers, draw_numbers, draw_order, draw_seats
from tournaments.engine.plan import FEWEST_REPEATS, plan_document, replan_document
from tournaments.guards import check_not_finished
from tournaments.models import (
    DEFAULT_PRESET,
    Adjustment,
    DrawLog,
    Event,
    Participant,
    Partie,
    PartieTable,
    Playoff,
    Status,
    Tournament,
)

User = AbstractBaseUser | None
REASON_CHARS = 200  # Event.reason


def _user(user: User) -> AbstractBaseUser | None:
    return user if user is not None and user.is_authenticated else None


def _frozen_rules(preset: str, options: Mapping[str, Any] | None) -> tuple[str, dict[str, Any]]:
    try:
        ruleset, table_rules = registry.load_with_table({"preset": preset, "options": dict(options or {})})
    except EngineError as error:
        raise ValidationError({"preset": error.message}) from None
    if ruleset.FAMILY != "schafkopf":
        raise ValidationError({"preset": _("Die Meisterschaft wird nach einer Schafkopf-Regel gespielt.")})
    return ruleset.NAME, scoring_selectors.frozen_options(ruleset, table_rules)


def _lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().select_related("club").get(pk=tournament.pk)


def _check_not_started(tournament: Tournament) -> None:
    check_not_finished(tournament)  # the sharper reason, with the way forward
    if tournament.status in (Status.RUNNING, Status.FINISHED):
        raise ValidationError(_("Die Meisterschaft hat schon begonnen; das lässt sich nicht mehr ändern."))


@transaction.atomic
def tournament_create(
    *,
    club: Club,
    year: int,
    title: str = "",
    place: str = "",
    preset: str = DEFAULT_PRESET,
    options: Mapping[str, Any] | None = None,
    partien: int = 4,
    games_per_partie: int = 40,
    user: User,
) -> Tournament:
    """A championship of ``club`` in ``year`` with its rules frozen (preset and every option)."""
    if Tournament.objects.filter(club=club, year=year).exists():
        raise ValidationError({"year": _("Für dieses Jahr gibt es schon eine Meisterschaft.")})
    name, frozen = _frozen_rules(preset, options)
    tournament = Tournament(
        club=club,
        year=year,
        title=title.strip() or "Zockmeisterschaft",
        place=place.strip(),
        preset=name,
        options=frozen,
        partien=partien,
        games_per_partie=games_per_partie,
        created_by=_user(user),
    )
    tournament.full_clean()
    tournament.save()
    return tournament


@transaction.atomic
def tournament_update(
    *,
    tournament: Tournament,
    title: str,
    place: str,
    partien: int,
    games_per_partie: int,
    user: User,
    substitute_points: str | None = None,
) -> Tournament:
    """Title and place any time; the number of Partien and games only before the first Partie
    (a new count re-plans the seating). Whom a substitute's hands count for
    (``substitute_points``) until the championship is finished: the ranking follows it."""
    tournament = _lock(tournament)
    if substitute_points is not None and substitute_points != tournament.substitute_points:
        if tournament.status == Status.FINISHED:
            raise ValidationError({"substitute_points": _("Die Meisterschaft ist abgeschlossen.")})
        tournament.substitute_points = substitute_points
    changes_plan = (partien, games_per_partie) != (tournament.partien, tournament.games_per_partie)
    if changes_plan:
        _check_not_started(tournament)
    tournament.title = title.strip() or tournament.title
    tournament.place = place.strip()
    tournament.partien = partien
    tournament.games_per_partie = games_per_partie
    tournament.full_clean()
    if changes_plan:
        tournament.plan = _plan(tournament, tournament.participants.count())
    tournament.save()
    return tournament


def _plan(tournament: Tournament, players: int) -> dict[str, Any]:
    """The seating plan by numbers (``plan_tournament`` with the championship's seed)."""
    if players == 0:
        return {}
    try:
        return plan_document(players, tournament.partien, tournament.games_per_partie, tournament.plan_seed)
    except EngineError as error:
        field = error.field if error.field in ("partien", "games_per_partie") else "members"
        if error.field == "games":
            field = "games_per_partie"
        raise ValidationError({field: error.message}) from None


@transaction.atomic
def participants_set(*, tournament: Tournament, members: Iterable[Member], user: User) -> Tournament:
    """The participants (members of the club only, 001 §11.1) and the seating plan for their
    number. Marks who is new (not in the previous championship). Before the first Partie only;
    a change after the number draw undoes the draw (it has to be drawn again)."""
    tournament = _lock(tournament)
    _check_not_started(tournament)
    members = list(members)
    if any(member.club_id != tournament.club_id for member in members):
        raise ValidationError({"members": _("Teilnehmen dürfen nur Mitglieder des Vereins.")})
    if len({member.pk for member in members}) != len(members):
        raise ValidationError({"members": _("Jeder Spieler darf nur einmal teilnehmen.")})
    plan = _plan(tournament, len(members))
    previous = selectors.previous_tournament(tournament)
    before = set(previous.participants.values_list("member_id", flat=True)) if previous else set()
    Participant.objects.filter(tournament=tournament).delete()
    Participant.objects.bulk_create(
        Participant(tournament=tournament, member=member, is_new=member.pk not in before) for member in members
    )
    tournament.plan = plan
    tournament.status = Status.SETUP
    tournament.save(update_fields=["plan", "status"])
    return tournament


@transaction.atomic
def plan_choose(*, tournament: Tournament, variant: str, user: User) -> Tournament:
    """Take one of the plans ``plan_tournament`` offered (the fewest repeats; no pair more than
    twice; the seats at five within two): before the first Partie, and after a re-plan (issue 30)
    until the next Partie begins, which is then logged. The plan in force is always the document's
    top level; the others wait under ``alternatives``."""
    tournament = _lock(tournament)
    check_not_finished(tournament)
    if not selectors.plan_choice_open(tournament):
        raise ValidationError(
            _("Der Spielplan lässt sich vor der ersten Partie wählen und nach einer Neuplanung vor der nächsten.")
        )
    plan = tournament.plan or {}
    if plan.get("variant") == variant:
        return tournament
    others = selectors.plan_others(plan)
    chosen = next((other for other in others if other.get("variant") == variant), None)
    if chosen is None:
        raise ValidationError(_("Diesen Plan gibt es für diese Spielerzahl nicht."))
    current = {key: plan[key] for key in chosen if key in plan}
    waiting = [other for other in others if other is not chosen] + [current]
    top = {key: value for key, value in plan.items() if key != "alternative"}
    tournament.plan = {**top, **chosen, "alternatives": waiting}
    tournament.save(update_fields=["plan"])
    if tournament.status == Status.RUNNING:
        played = tournament.partie_set.count()
        Event.objects.create(
            tournament=tournament,
            kind=Event.Kind.REPLANNED,
            partie=played + 1,
            data={**_replan_log(tournament.plan, played), "chosen": True},
            by=_user(user),
        )
    return tournament


def _draw_participants(tournament: Tournament) -> tuple[list[Participant], tuple[str, ...]]:
    """The participants and the order they draw in (001 §11.2)."""
    participants = list(tournament.participants.select_related("member").order_by("member__display_name"))
    if len(participants) < 4:
        raise ValidationError(_("Zuerst die Teilnehmer festlegen (mindestens 4)."))
    previous = selectors.previous_tournament(tournament)
    ranked = selectors.ranking_names(previous) if previous else []
    names = [p.member.display_name for p in participants]
    # A player who was at last year's championship but is not in its ranking cannot happen;
    # one who is new draws first, in alphabetical order.
    return participants, draw_order(names, ranked)


def _save_numbers(
    tournament: Tournament,
    participants: list[Participant],
    order: tuple[str, ...],
    numbers: Mapping[str, int],
    kind: str,
    seed: str,
    user: User,
) -> Tournament:
    position = {name: i + 1 for i, name in enumerate(order)}
    Participant.objects.filter(tournament=tournament).update(number=None)
    for participant in participants:
        participant.number = numbers[participant.member.display_name]
        participant.drew_order = position[participant.member.display_name]
    Participant.objects.bulk_update(participants, ["number", "drew_order"])
    DrawLog.objects.create(
        tournament=tournament,
        kind=kind,
        seed=seed,
        data={"order": list(order), "numbers": {name: numbers[name] for name in order}},
        by=_user(user),
    )
    tournament.status = Status.DRAWN
    tournament.save(update_fields=["status"])
    return tournament


@transaction.atomic
def draw_run(*, tournament: Tournament, seed: int | None = None, user: User) -> Tournament:
    """The app draws the numbers (001 §11.2): in ``draw_order``, each takes a hidden slip shuffled
    from ``seed`` (random when not given); the seed is logged, so the draw can be repeated."""
    tournament = _lock(tournament)
    _check_not_started(tournament)
    participants, order = _draw_participants(tournament)
    seed = secrets.randbelow(MAX_SEED + 1) if seed is None else seed
    try:
        drawn = draw_numbers(order, seed)
    except EngineError as error:
        raise ValidationError({"seed": error.message}) from None
    return _save_numbers(tournament, participants, order, drawn.by_player(), DrawLog.Kind.NUMBERS_APP, str(seed), user)


@transaction.atomic
def draw_record(*, tournament: Tournament, numbers: Mapping[int, int], user: User) -> Tournament:
    """A draw done with paper slips: ``numbers`` maps each participant's member id to his number."""
    tournament = _lock(tournament)
    _check_not_started(tournament)
    participants, order = _draw_participants(tournament)
    by_name = {
        p.member.display_name: numbers[p.member_id] for p in participants if numbers.get(p.member_id) is not None
    }
    try:
        checked = check_numbers([p.member.display_name for p in participants], by_name)
    except EngineError as error:
        member = next((p.member_id for p in participants if p.member.display_name == error.field), None)
        raise ValidationError({f"number_{member}" if member else "__all__": error.message}) from None
    return _save_numbers(tournament, participants, order, checked, DrawLog.Kind.NUMBERS_PAPER, "", user)


@transaction.atomic
def partie_start(
    *,
    tournament: Tournament,
    index: int,
    user: User,
    seed: int | None = None,
    date: datetime.date | None = None,
) -> Partie:
    """Start Partie ``index``: one scoring evening with a score sheet per table of the plan, each
    under the championship's rules, its seats drawn (001 §11.2: the Schreiber is drawn first and
    the others sit down clockwise in drawn order) from ``seed`` (random when not given; logged).
    The Partien start in order, after the number draw."""
    tournament = _lock(tournament)
    check_not_finished(tournament)
    if tournament.status not in (Status.DRAWN, Status.RUNNING):
        raise ValidationError(_("Eine Partie beginnt erst nach der Auslosung der Nummern."))
    if not 1 <= index <= tournament.partien:
        raise ValidationError(_("Diese Partie gibt es nicht."))
    started = set(tournament.partie_set.values_list("index", flat=True))
    if index in started:
        raise ValidationError(_("Diese Partie hat schon begonnen."))
    if index > 1 and index - 1 not in started:
        raise ValidationError(_("Zuerst die vorige Partie beginnen."))
    by_number = {p.number: p.member for p in tournament.participants.select_related("member")}
    seed = secrets.randbelow(MAX_SEED + 1) if seed is None else seed
    session = scoring_services.session_create(
        club=tournament.club, date=date or timezone.localdate(), place=tournament.place, user=user
    )
    session.note = _("%(tournament)s, %(index)s. Partie") % {"tournament": tournament, "index": index}
    session.save(update_fields=["note"])
    partie = Partie.objects.create(tournament=tournament, index=index, session=session, started_by=_user(user))
    seats_log: dict[str, list[str]] = {}
    for number, numbers in enumerate(tournament.plan["partien"][index - 1], start=1):
        members = {by_number[n].display_name: by_number[n] for n in numbers}
        drawn = draw_seats(list(members), f"{seed}:{number}")
        table = scoring_services.table_start(
            session=session,
            members=[members[name] for name in drawn.seats],
            name=f"Tisch {number}",  # stored, like the score sheet's own default "Tisch 1"
            rules=tournament.ruleset_spec,
            user=user,
        )
        PartieTable.objects.create(partie=partie, number=number, table=table, schreiber=members[drawn.schreiber])
        seats_log[str(number)] = list(drawn.seats)
    DrawLog.objects.create(
        tournament=tournament,
        kind=DrawLog.Kind.SEATS,
        partie=index,
        seed=str(seed),
        data={"tables": seats_log},
        by=_user(user),
    )
    tournament.status = Status.RUNNING
    tournament.save(update_fields=["status"])
    return partie


@transaction.atomic
def partie_table_schreiber_assign(
    *, partie_table: PartieTable, login: AbstractBaseUser | None, user: User
) -> PartieTable:
    """The Vorstand names the login that writes ``partie_table`` (issue 20): one of the club's
    scorers, or nobody (then the next scorer login that saves an entry there claims it). Only
    it and the Vorstand change the table from now on. Logged as an ``Event`` (SCHREIBER)."""
    partie_table = (
        PartieTable.objects.select_for_update(of=("self",))
        .select_related("partie__tournament", "partie__session")
        .get(pk=partie_table.pk)
    )
    tournament = partie_table.partie.tournament
    if partie_table.partie.session.is_closed:
        raise ValidationError({"login": _("Der Abend dieser Partie ist abgeschlossen.")})
    if (
        login is not None
        and not Membership.objects.filter(club_id=tournament.club_id, user=login, role=Role.SCORER).exists()
    ):
        raise ValidationError({"login": _("Schreiben kann nur ein Zugang mit der Rolle Schreiber in diesem Verein.")})
    if partie_table.schreiber_login_id == (login.pk if login is not None else None):
        return partie_table
    partie_table.schreiber_login = login
    partie_table.save(update_fields=["schreiber_login"])
    Event.objects.create(
        tournament=tournament,
        kind=Event.Kind.SCHREIBER,
        partie=partie_table.partie.index,
        data={"table": partie_table.number, "login": login.get_username() if login is not None else ""},
        by=_user(user),
    )
    return partie_table


def _members(tournament: Tournament, members: Iterable[Member]) -> list[Member]:
    members = list(members)
    taking_part = set(tournament.participants.values_list("member_id", flat=True))
    if not members or any(member.pk not in taking_part for member in members):
        raise ValidationError({"players": _("Nur Teilnehmer der Meisterschaft.")})
    return members


@transaction.atomic
def playoff_record(
    *, tournament: Tournament, players: Iterable[Member], winner: Member, note: str = "", user: User
) -> Playoff:
    """The result of a playoff (001 §11.3 item 11) between players tied after all ten criteria."""
    tournament = _lock(tournament)
    check_not_finished(tournament)
    players = _members(tournament, players)
    if len(players) < 2:
        raise ValidationError({"players": _("Ein Stechen braucht mindestens zwei Spieler.")})
    if winner not in players:
        raise ValidationError({"winner": _("Der Sieger muss im Stechen mitgespielt haben.")})
    names = {member.display_name for member in players}
    if not any(names <= set(group) for group in selectors.tournament_ranking(tournament).ranking.tie_groups()):
        raise ValidationError(
            {"players": _("Ein Stechen gibt es nur zwischen Spielern, die nach allen zehn Kriterien gleich stehen.")}
        )
    playoff = Playoff.objects.create(tournament=tournament, winner=winner, note=note.strip(), created_by=_user(user))
    playoff.players.set(players)
    return playoff


@transaction.atomic
def playoff_delete(*, playoff: Playoff, user: User) -> None:
    check_not_finished(_lock(playoff.tournament))
    playoff.delete()


@transaction.atomic
def adjustment_record(
    *, tournament: Tournament, players: Iterable[Member], points: int, reason: str, user: User
) -> Adjustment:
    """001 §11.3: a score written wrongly that cannot be reconstructed; each of ``players`` is
    counted to his advantage (``points`` more for the ranking). The reason is required."""
    tournament = _lock(tournament)
    check_not_finished(tournament)
    players = _members(tournament, players)
    if not reason.strip():
        raise ValidationError({"reason": _("Bitte den Grund angeben.")})
    if not points:
        raise ValidationError({"points": _("Eine Korrektur um 0 Punkte ändert nichts.")})
    adjustment = Adjustment.objects.create(
        tournament=tournament, points=points, reason=reason.strip(), created_by=_user(user)
    )
    adjustment.players.set(players)
    return adjustment


@transaction.atomic
def adjustment_delete(*, adjustment: Adjustment, user: User) -> None:
    check_not_finished(_lock(adjustment.tournament))
    adjustment.delete()


def _partie_table(tournament: Tournament, partie: int, table: int) -> PartieTable:
    """The table ``table`` of Partie ``partie``, locked (with its Partie and championship)."""
    row = (
        PartieTable.objects.select_for_update()
        .select_related("partie", "table")
        .filter(partie__tournament=tournament, partie__index=partie, number=table)
        .first()
    )
    if row is None:
        raise ValidationError(_("Diesen Tisch gibt es in dieser Partie nicht."))
    return row


def _check_open(tournament: Tournament) -> None:
    if tournament.status == Status.FINISHED:
        raise ValidationError(_("Die Meisterschaft ist abgeschlossen; zuerst wieder öffnen."))


@transaction.atomic
def table_abort(*, tournament: Tournament, partie: int, table: int, reason: str, user: User) -> PartieTable:
    """The owner breaks off a table short of its games (issue 20), with the reason: it takes no
    further hand, the championship may finish without its missing games, and the printouts of the
    ranking mark its players. Logged as a ``TABLE_ABORTED`` event in the same transaction."""
    tournament = _lock(tournament)
    _check_open(tournament)
    row = _partie_table(tournament, partie, table)
    if row.is_aborted:
        raise ValidationError(_("Dieser Tisch ist schon abgebrochen."))
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": _("Bitte den Grund angeben: er steht auf jedem Ausdruck der Rangliste.")})
    if len(reason) > 200:
        raise ValidationError({"reason": _("Der Grund ist zu lang (höchstens 200 Zeichen).")})
    games = guards.table_games(row, row.table.seats.count())
    played = guards.games_played(row.table)
    if games and played >= games:
        raise ValidationError(_("Dieser Tisch hat alle seine Spiele gespielt; es gibt nichts abzubrechen."))
    row.aborted_reason = reason
    row.aborted_at = timezone.now()
    row.aborted_by = _user(user)
    row.save(update_fields=["aborted_reason", "aborted_at", "aborted_by"])
    Event.objects.create(
        tournament=tournament,
        kind=Event.Kind.TABLE_ABORTED,
        partie=partie,
        reason=reason,
        data={"table": table, "played": played, "games": games},
        by=_user(user),
    )
    return row


@transaction.atomic
def table_abort_undo(*, tournament: Tournament, partie: int, table: int, user: User) -> PartieTable:
    """Take back a broken-off mark while the championship is not finished: the table takes hands
    again. The log keeps both: a second ``TABLE_ABORTED`` event says it was taken back."""
    tournament = _lock(tournament)
    _check_open(tournament)
    row = _partie_table(tournament, partie, table)
    if not row.is_aborted:
        raise ValidationError(_("Dieser Tisch ist nicht abgebrochen."))
    row.aborted_reason = ""
    row.aborted_at = None
    row.aborted_by = None
    row.save(update_fields=["aborted_reason", "aborted_at", "aborted_by"])
    Event.objects.create(
        tournament=tournament,
        kind=Event.Kind.TABLE_ABORTED,
        partie=partie,
        data={"table": table, "undone": True},
        by=_user(user),
    )
    return row


@transaction.atomic
def tournament_finish(*, tournament: Tournament, user: User) -> Tournament:
    """Close the championship (the owner has seen ``selectors.finish_check`` and confirmed): its
    open evenings are closed (a late correction reopens one, audited, in the score sheets) and the
    ranking counts for the trophies. Refused while a Partie has not begun, while a table is short of
    its games and not broken off (``table_abort``, issue 20), and while first place is shared
    without a playoff (001 §11.3 ends in a playoff; the Wanderpokal has one holder,
    001 §11.6). Places below may stay shared.

    Logged as a FINISHED ``Event`` with every participant's place; after a reopen, also the
    places that moved since the finish before (``data["moved"]``, empty when none did)."""
    tournament = _lock(tournament)
    if tournament.status == Status.FINISHED:
        raise ValidationError(_("Die Meisterschaft ist schon abgeschlossen."))
    check = selectors.finish_check(tournament)
    if tournament.status != Status.RUNNING or check.refusals:
        raise ValidationError(check.refusals or [_("Abschließen erst, wenn alle Partien begonnen haben.")])
    for partie in tournament.partie_set.select_related("session"):
        if not partie.session.is_closed:
            scoring_services.session_close(session=partie.session, user=user)
            partie.closed_by_finish = True
            partie.save(update_fields=["closed_by_finish"])
    tournament.status = Status.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    places = [
        {"member": row.member.pk, "name": row.member.display_name, "place": row.placing.place}
        for row in selectors.tournament_ranking(tournament).rows
    ]
    data: dict[str, Any] = {"places": places}
    before = tournament.events.filter(kind=Event.Kind.FINISHED).order_by("-at", "-id").first()
    if before is not None:
        data["moved"] = _moved(before.data.get("places", []), places)
    Event.objects.create(tournament=tournament, kind=Event.Kind.FINISHED, data=data, by=_user(user))
    return tournament


def _moved(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The players whose place differs between two finishes, by the new place (a player in only
    one of them, withdrawn or added in between, has no place to compare)."""
    was = {row["member"]: row["place"] for row in before}
    return [
        {"name": row["name"], "from": was[row["member"]], "to": row["place"]}
        for row in after
        if row["member"] in was and was[row["member"]] != row["place"]
    ]


@transaction.atomic
def tournament_reopen(*, tournament: Tournament, reason: str, user: User) -> Tournament:
    """Back to running, as before finishing: the evenings finishing closed are open again (those
    closed before stay closed). The owner's step (the view asks for the role), with the reason
    required: logged as a REOPENED ``Event`` and shown wherever the result is (issue 20)."""
    tournament = _lock(tournament)
    if tournament.status != Status.FINISHED:
        raise ValidationError(_("Die Meisterschaft ist nicht abgeschlossen."))
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": _("Bitte den Grund angeben: er steht danach auf der Rangliste.")})
    if len(reason) > REASON_CHARS:
        raise ValidationError({"reason": _("Der Grund ist zu lang (höchstens %(n)s Zeichen).") % {"n": REASON_CHARS}})
    # Running first: the evenings' lock (guards.partie_lock) reads the status.
    tournament.status = Status.RUNNING
    tournament.finished_at = None
    tournament.save(update_fields=["status", "finished_at"])
    Event.objects.create(tournament=tournament, kind=Event.Kind.REOPENED, reason=reason, by=_user(user))
    for partie in tournament.partie_set.filter(closed_by_finish=True).select_related("session"):
        if partie.session.is_closed:
            scoring_services.session_reopen(session=partie.session, user=user)
        partie.closed_by_finish = False
        partie.save(update_fields=["closed_by_finish"])
    return tournament


# --- the roster after the start: withdrawals, late players, substitutes (issue 20) ---------------


def _between_partien(tournament: Tournament) -> int:
    """The number of Partien played, where the roster may change now: the championship runs,
    the last started Partie is over (every table has played its games or was broken off) and
    another one is still to come. Refused otherwise, with the way forward."""
    if tournament.status != Status.RUNNING:
        raise ValidationError(
            _(
                "Spieler zurückziehen oder nachmelden geht zwischen den Partien einer laufenden Meisterschaft; "
                "vor der ersten Partie einfach die Teilnehmer ändern."
            )
        )
    played = tournament.partie_set.count()
    if played >= tournament.partien:
        raise ValidationError(_("Alle Partien haben begonnen: es gibt keine Partie mehr, die neu geplant würde."))
    last = selectors.partie_view(tournament, played)
    if not all(table.done or table.aborted for table in last.tables):
        raise ValidationError(
            _(
                "Die %(index)s. Partie läuft noch. Zurückziehen und Nachmelden erst, wenn alle Tische ihre Spiele "
                "gespielt haben (oder abgebrochen sind); wer jetzt gehen muss, bekommt einen Ersatzspieler am Tisch."
            )
            % {"index": played}
        )
    return played


def _replan(tournament: Tournament, played: int, user: User) -> None:
    """Plan the Partien after ``played`` for the participants who play on (the played Partien
    and every number stay) and log it. The kind of plan the organiser had chosen is kept
    (issue 30); the other kinds are offered beside it, and the plan page warns where the played
    Partien leave the chosen kind's promise out of reach."""
    numbers = list(tournament.participants.filter(withdrawn_after__isnull=True).values_list("number", flat=True))
    try:
        plan = replan_document(
            tournament.plan["partien"][:played],
            numbers,
            tournament.partien,
            tournament.games_per_partie,
            tournament.plan_seed,
            tournament.plan.get("variant", FEWEST_REPEATS),
        )
    except EngineError as error:
        raise ValidationError({"member": error.message}) from None
    tournament.plan = plan
    tournament.save(update_fields=["plan"])
    Event.objects.create(
        tournament=tournament,
        kind=Event.Kind.REPLANNED,
        partie=played + 1,
        data=_replan_log(plan, played),
        by=_user(user),
    )


def _replan_log(plan: dict[str, Any], played: int) -> dict[str, Any]:
    """What the log keeps of a re-plan: its figures, its kind and whether it keeps the kind."""
    return {
        "players": plan["players"],
        "repeat_pairs": plan["repeat_pairs"],
        "lower_bound": plan["lower_bound"],
        "from": played + 1,
        "variant": plan.get("variant", "fewest_repeats"),
        "variant_kept": plan.get("variant_kept", True),
    }


@transaction.atomic
def participant_withdraw(*, tournament: Tournament, member: Member, reason: str = "", user: User) -> Participant:
    """``member`` leaves the championship after the Partien played (issue 20): he keeps their
    games and points in the ranking, marked withdrawn and ranked below everyone who stays
    (``selectors.tournament_ranking``); the remaining Partien are planned anew without him."""
    tournament = _lock(tournament)
    played = _between_partien(tournament)
    participant = tournament.participants.filter(member=member).first()
    if participant is None:
        raise ValidationError({"member": _("%(name)s spielt nicht mit.") % {"name": member.display_name}})
    if participant.withdrawn:
        raise ValidationError({"member": _("%(name)s ist schon zurückgezogen.") % {"name": member.display_name}})
    participant.withdrawn_after = played
    participant.save(update_fields=["withdrawn_after"])
    Event.objects.create(
        tournament=tournament,
        kind=Event.Kind.WITHDRAWN,
        partie=played,
        reason=reason.strip()[:200],
        data={"member": member.display_name, "number": participant.number},
        by=_user(user),
    )
    _replan(tournament, played, user)
    return participant


@transaction.atomic
def participant_add(*, tournament: Tournament, member: Member, reason: str = "", user: User) -> Participant:
    """A member who arrives late (issue 20) joins from the next Partie with the next free number;
    the remaining Partien are planned anew with him (the played ones and every number stay)."""
    tournament = _lock(tournament)
    played = _between_partien(tournament)
    if member.club_id != tournament.club_id:
        raise ValidationError({"member": _("Teilnehmen dürfen nur Mitglieder des Vereins.")})
    if tournament.participants.filter(member=member).exists():
        raise ValidationError({"member": _("%(name)s ist schon Teilnehmer.") % {"name": member.display_name}})
    previous = selectors.previous_tournament(tournament)
    number = max(tournament.participants.values_list("number", flat=True), default=0) + 1
    drew = max(tournament.participants.values_list("drew_order", flat=True), default=0) or 0
    participant = Participant.objects.create(
        tournament=tournament,
        member=member,
        number=number,
        drew_order=drew + 1,  # he did not draw: his number is the next free one
        joined_at=played + 1,
        is_new=previous is None or not previous.participants.filter(member=member).exists(),
    )
    Event.objects.create(
        tournament=tournament,
        kind=Event.Kind.ADDED,
        partie=played + 1,
        reason=reason.strip()[:200],
        data={"member": member.display_name, "number": number},
        by=_user(user),
    )
    _replan(tournament, played, user)
    return participant


@transaction.atomic
def partie_substitute(
    *,
    tournament: Tournament,
    index: int,
    absent: Member,
    substitute: Member,
    reason: str = "",
    user: User,
) -> Event:
    """Inside a running Partie ``substitute`` (any member of the club who does not play in this
    Partie) takes the seat of ``absent`` from the table's next hand on (issue 20). The hands
    played stay as they are; whom the substitute's hands count for in the ranking is the
    championship's ``substitute_points``. ``absent`` may also be a substitute who hands the
    seat back to the participant."""
    tournament = _lock(tournament)
    if tournament.status != Status.RUNNING:
        raise ValidationError(_("Ersatzspieler gibt es nur in einer laufenden Meisterschaft."))
    partie = tournament.partie_set.filter(index=index).select_related("session").first()
    if partie is None:
        raise ValidationError(_("Diese Partie hat noch nicht begonnen."))
    if substitute.club_id != tournament.club_id:
        raise ValidationError({"substitute": _("Ersatzspieler kann nur ein Mitglied des Vereins sein.")})
    where = selectors.partie_occupants(partie)
    if absent.pk not in where:
        raise ValidationError({"absent": _("%(name)s spielt in dieser Partie nicht.") % {"name": absent.display_name}})
    if substitute.pk in where:
        raise ValidationError(
            {
                "substitute": _("%(name)s spielt in dieser Partie schon (Tisch %(table)s).")
                % {"name": substitute.display_name, "table": where[substitute.pk][0].number}
            }
        )
    partie_table, seat = where[absent.pk]
    change = scoring_services.seat_change(
        table=partie_table.table,
        seat=Seat.objects.get(pk=seat),
        member=substitute,
        user=user,
        reason=reason or _("Ersatzspieler in der Meisterschaft"),
    )
    return Event.objects.create(
        tournament=tournament,
        kind=Event.Kind.SUBSTITUTE,
        partie=index,
        reason=reason.strip()[:200],
        data={
            "table": partie_table.number,
            "absent": absent.display_name,
            "substitute": substitute.display_name,
            "from": change.from_number,
            "points": tournament.substitute_points,
            "back": substitute.pk == Seat.objects.get(pk=seat).member_id,  # the participant takes his seat again
        },
        by=_user(user),
    )
