"""Writes of open tournaments (issue 24): create, register at the door, Startgeld, withdraw, draw
a round, the desk's figures of a table. Each service runs in one transaction and raises
``ValidationError`` (German, at the field where there is one) before it changes anything."""

from __future__ import annotations

import datetime
import random
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs import services as club_services
from clubs.models import Club, Member
from opentournaments import selectors
from opentournaments.games import DeskGame, game_of_ruleset
from opentournaments.models import (
    DEFAULT_PRESET,
    MAX_PLAYERS,
    MAX_START_NUMBER,
    TIE_BREAKS,
    OpenTournament,
    Registration,
    Round,
    RoundTable,
    SoliCount,
    TableScore,
    TableTyping,
    Typing,
    new_token,
)
from scoring import selectors as scoring_selectors
from scoring import services as scoring_services
from scoring.engine import registry
from scoring.engine.core import EngineError
from tournaments.engine.draw import MAX_SEED
from tournaments.engine.open_rank import rank_open_document

# A Preisskat's list at a table of four (``_check_games``): the DSkV plays 48 (36 at three).
MIN_LIST_GAMES, MAX_LIST_GAMES = 12, 96

User = AbstractBaseUser | AnonymousUser | None


def _user(user: User) -> AbstractBaseUser | None:
    return user if user is not None and user.is_authenticated else None


def _frozen_tariff(preset: str, options: Mapping[str, Any] | None) -> tuple[str, dict[str, Any]]:
    try:
        ruleset, table_rules = registry.load_with_table({"preset": preset, "options": dict(options or {})})
    except EngineError as error:
        raise ValidationError({"preset": error.message}) from None
    if game_of_ruleset(ruleset).keeps_list:
        # A Preisskat (issue 32 item 4): a list rule set the engine's ``rank_open`` ranks (spec §5:
        # Seeger-Fabian; a money list settled between the players is refused there and here).
        try:
            spec = {"preset": preset, "options": dict(options or {})}
            rank_open_document({"ruleset": spec, "players": [{"number": 1, "name": "–"}], "rounds": []})
        except EngineError as error:
            raise ValidationError({"preset": error.message}) from None
    elif ruleset.FAMILY != "schafkopf":
        raise ValidationError(
            {"preset": _("Ein offenes Turnier wird nach Schafkopf-Regeln oder nach Skat (Seeger-Fabian) gespielt.")}
        )
    if ruleset.unit() == "cent":
        # Issue 24: a points tariff. A phone table books its hands into the club's ledger in the
        # tariff's unit, so a money tariff would put tournament points into the club's money list
        # and the evening's settlement.
        raise ValidationError(
            {"preset": _("Ein offenes Turnier zählt Punkte, kein Geld: bitte einen Tarif in Punkten wählen.")}
        )
    return ruleset.NAME, scoring_selectors.frozen_options(ruleset, table_rules)


def _check_games(game: DeskGame, games: int) -> None:
    """A Preisskat's list: a multiple of 4 (each player deals as often at four as at three; the
    table of three deals 3/4 of it) from 12 to 96 – 48 is the DSkV's list (36 at three)."""
    if game.keeps_list and (games % 4 or not MIN_LIST_GAMES <= games <= MAX_LIST_GAMES):
        raise ValidationError(
            {
                "games_per_round": _(
                    "Spiele je Liste am Vierertisch: ein Vielfaches von 4 zwischen %(min)s und %(max)s "
                    "(üblich 48, am Dreiertisch dann 36)."
                )
                % {"min": MIN_LIST_GAMES, "max": MAX_LIST_GAMES}
            }
        )


def _check_tie_breaks(tie_breaks: Sequence[str], game: DeskGame) -> list[str]:
    if len(set(tie_breaks)) != len(tie_breaks) or any(t not in game.tie_breaks for t in tie_breaks):
        labels = game.decided_labels()
        raise ValidationError(
            {
                "tie_breaks": _("Jede Wertung höchstens einmal: %(names)s.")
                % {"names": ", ".join(labels[t] for t in game.tie_breaks)}
            }
        )
    return list(tie_breaks)


def _check_prizes(shares: Sequence[int], amounts: Sequence[int], items: Sequence[str], last: str = "") -> list[str]:
    """The prizes as stored: refused where shares and fixed amounts are both given or out of
    bounds; the Sachpreise by place with "" for a place without one (none at the end)."""
    if shares and amounts:
        raise ValidationError(
            {"prize_amounts": _("Preisgeld entweder als Anteile oder als feste Beträge, nicht beides.")}
        )
    if any(s < 0 for s in shares) or sum(shares) > 100:
        raise ValidationError({"prize_shares": _("Die Anteile sind ganze Prozent und zusammen höchstens 100.")})
    if any(a < 0 for a in amounts):
        raise ValidationError({"prize_amounts": _("Ein Preisgeld ist nicht negativ.")})
    items = [item.strip() for item in items]
    while items and not items[-1]:
        items.pop()
    if len(items) > MAX_PLAYERS:
        raise ValidationError(
            {"prize_items": _("Sachpreise gibt es für höchstens %(max)s Plätze.") % {"max": MAX_PLAYERS}}
        )
    if len(last) > 200 or any(len(item) > 200 for item in items):
        raise ValidationError({"prize_items": _("Ein Sachpreis hat höchstens 200 Zeichen.")})
    return items


@transaction.atomic
def open_tournament_create(
    *,
    club: Club,
    name: str,
    starts_on: datetime.date,
    ends_on: datetime.date | None = None,
    rounds: int = 3,
    games_per_round: int = 32,
    preset: str = DEFAULT_PRESET,
    options: Mapping[str, Any] | None = None,
    tie_breaks: Sequence[str] | None = None,
    entry_fee_cents: int = 0,
    prize_shares: Sequence[int] = (),
    prize_amounts: Sequence[int] = (),
    prize_items: Sequence[str] = (),
    prize_item_last: str = "",
    prize_whole_euros: bool = False,
    soli_count: str = SoliCount.DECLARED,
    in_club_standings: bool = False,
    double_entry: bool = False,
    key: str = "",
    user: User,
) -> OpenTournament:
    """An open tournament of ``club`` with its tariff frozen (preset and every option). Its days
    lie in a plausible year and span at most ``MAX_DAYS`` (``OpenTournament.clean``). ``key``:
    the form's one-time key; sent twice, the tournament the first sending made is returned."""
    key = key.strip()[:40]
    if key:
        made = OpenTournament.objects.filter(club=club, request_key=key).first()
        if made is not None:
            return made
    if not name.strip():
        raise ValidationError({"name": _("Das Turnier braucht einen Namen.")})
    if entry_fee_cents < 0:
        raise ValidationError({"entry_fee_cents": _("Das Startgeld ist nicht negativ.")})
    prize_items = _check_prizes(prize_shares, prize_amounts, prize_items, prize_item_last.strip())
    preset_name, frozen = _frozen_tariff(preset, options)
    game = game_of_ruleset(registry.load({"preset": preset_name, "options": frozen}))
    if tie_breaks is None:  # the game's default: Soli, beste Runde, Los; Skat won, lost, lot
        tie_breaks = [t for t in game.tie_breaks if t != "best_round"] if game.keeps_list else TIE_BREAKS
    _check_games(game, games_per_round)
    tournament = OpenTournament(
        club=club,
        name=name.strip(),
        starts_on=starts_on,
        ends_on=ends_on,
        rounds=rounds,
        games_per_round=games_per_round,
        preset=preset_name,
        options=frozen,
        tie_breaks=_check_tie_breaks(tie_breaks, game),
        entry_fee_cents=entry_fee_cents,
        prize_shares=list(prize_shares),
        prize_amounts=list(prize_amounts),
        prize_items=prize_items,
        prize_item_last=prize_item_last.strip(),
        prize_whole_euros=prize_whole_euros,
        soli_count=soli_count,
        in_club_standings=in_club_standings,
        double_entry=double_entry,
        request_key=key,
        created_by=_user(user),
    )
    tournament.full_clean()
    tournament.save()
    return tournament


# What ``open_tournament_update`` changes, each locked where ``selectors.edit_locks`` says why.
EDITABLE = (
    "name",
    "starts_on",
    "ends_on",
    "rounds",
    "games_per_round",
    "soli_count",
    "tie_breaks",
    "entry_fee_cents",
    "prize_shares",
    "prize_amounts",
    "prize_items",
    "prize_item_last",
    "prize_whole_euros",
    "double_entry",
)


@transaction.atomic
def open_tournament_update(*, tournament: OpenTournament, user: User, **changes: Any) -> OpenTournament:
    """Change what ``changes`` names of ``EDITABLE`` (the others stay). What a draw or an entered
    figure depends on is locked from then on (``selectors.edit_locks`` gives the reason): a
    change to a locked field is refused, with nothing changed. The name can always be corrected;
    the days as long as every round's day stays one of them; prizes until the prize list is final."""
    tournament = _lock(tournament)
    unknown = set(changes) - set(EDITABLE)
    if unknown:
        raise TypeError(f"not editable: {sorted(unknown)}")
    locks = selectors.edit_locks(tournament)
    changed = {field: value for field, value in changes.items() if getattr(tournament, field) != value}
    refused = {field: locks[field] for field in changed if field in locks}
    if refused:
        raise ValidationError(refused)
    if "name" in changed:
        changed["name"] = changed["name"].strip()
        if not changed["name"]:
            raise ValidationError({"name": _("Das Turnier braucht einen Namen.")})
    if "tie_breaks" in changed:
        changed["tie_breaks"] = _check_tie_breaks(changed["tie_breaks"], tournament.game)
    if "games_per_round" in changed:
        _check_games(tournament.game, changed["games_per_round"])
    if changed.get("soli_count", SoliCount.WON) not in SoliCount.values:
        raise ValidationError({"soli_count": _("Soli zählen: gespielt oder gewonnen.")})
    if changed.get("entry_fee_cents", 0) < 0:
        raise ValidationError({"entry_fee_cents": _("Das Startgeld ist nicht negativ.")})
    prize_fields = ("prize_shares", "prize_amounts", "prize_items", "prize_item_last")
    if any(field in changed for field in prize_fields):
        last = str(changes.get("prize_item_last", tournament.prize_item_last)).strip()
        changed["prize_items"] = _check_prizes(
            changes.get("prize_shares", tournament.prize_shares),
            changes.get("prize_amounts", tournament.prize_amounts),
            changes.get("prize_items", tournament.prize_items),
            last,
        )
        changed["prize_item_last"] = last
    for field, value in changed.items():
        setattr(tournament, field, value)
    tournament.full_clean()
    days = tournament.days
    off = tournament.round_set.exclude(day__isnull=True).exclude(day__in=days).values_list("number", flat=True)
    if off:
        raise ValidationError(
            {"ends_on": _("Runde %(number)s ist für einen Tag außerhalb angesetzt.") % {"number": off[0]}}
        )
    tournament.save(update_fields=list(changed) or ["name"])
    return tournament


def _lock(tournament: OpenTournament) -> OpenTournament:
    return OpenTournament.objects.select_for_update().select_related("club").get(pk=tournament.pk)


def _rounds_drawn(tournament: OpenTournament) -> int:
    return tournament.round_set.count()


class PossibleDuplicate(ValidationError):
    """The same name and Wohnort are registered already (as ``existing``): a double Enter, or two
    players of the same name from the same place. The desk asks before registering him again."""

    def __init__(self, existing: Registration) -> None:
        self.existing = existing
        super().__init__(
            _("%(name)s, %(residence)s ist schon angemeldet als Nr. %(number)s – trotzdem anmelden?")
            % {"name": existing.name, "residence": existing.residence or "–", "number": existing.start_number}
        )


def _check_start_number(tournament: OpenTournament, number: int, *, exclude: int | None = None) -> int:
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= MAX_START_NUMBER:
        raise ValidationError({"start_number": _("Startnummern von 1 bis %(max)s.") % {"max": MAX_START_NUMBER}})
    taken = tournament.registrations.filter(start_number=number).exclude(pk=exclude)
    if taken.exists():
        raise ValidationError(
            {"start_number": _("Die Startnummer %(number)s ist schon vergeben.") % {"number": number}}
        )
    return number


@transaction.atomic
def registration_create(
    *,
    tournament: OpenTournament,
    name: str,
    residence: str = "",
    member: Member | None = None,
    paid: bool = False,
    start_number: int | None = None,
    key: str = "",
    again: bool = False,
    user: User,
) -> Registration:
    """Register a player at the door with the next start number (one above the highest ever
    given), or with ``start_number`` typed by hand from a pre-printed card (1 to
    ``MAX_START_NUMBER``, free in the tournament). After a round is drawn he plays from the next
    round on; once the last round is drawn nobody can join any more. At most ``MAX_PLAYERS``
    registrations (no draw seats more), the same on every database.

    ``key``: the form's one-time key. A form sent twice finds the registration its first sending
    made and returns it, storing nothing (the tournament row is locked, so two sendings at once
    queue). The same name and Wohnort registered already raise ``PossibleDuplicate`` unless
    ``again`` (the desk asked and was told: two of them)."""
    tournament = _lock(tournament)  # one desk's next number is never another desk's
    key = key.strip()[:40]
    if key:
        made = tournament.registrations.filter(request_key=key).first()
        if made is not None:
            return made
    name = name.strip()
    residence = residence.strip()
    if not name:
        raise ValidationError({"name": _("Bitte den Namen angeben.")})
    if member is not None and member.club_id != tournament.club_id:
        raise ValidationError({"member": _("Nur ein Mitglied dieses Vereins lässt sich verknüpfen.")})
    drawn = _rounds_drawn(tournament)
    if drawn >= tournament.rounds:
        raise ValidationError(_("Alle Runden sind ausgelost; eine Nachmeldung ist nicht mehr möglich."))
    counts = tournament.registrations.aggregate(last=Max("start_number"), all=Count("id"))
    if counts["all"] >= MAX_PLAYERS:
        raise ValidationError(
            _("Mehr als %(count)s Spieler lassen sich nicht auslosen; das Turnier ist voll.") % {"count": MAX_PLAYERS}
        )
    if start_number is None:
        number = max(counts["last"] or 0, tournament.last_start_number) + 1
        if number > MAX_START_NUMBER:
            raise ValidationError(_("Die Startnummern gehen nur bis %(max)s.") % {"max": MAX_START_NUMBER})
    else:
        number = _check_start_number(tournament, start_number)
    if not again:
        existing = selectors.same_name_registered(tournament, name, residence)
        if existing is not None:
            raise PossibleDuplicate(existing)
    registration = Registration(
        tournament=tournament,
        start_number=number,
        name=name,
        residence=residence,
        member=member,
        paid=paid,
        registered_before=drawn + 1 if drawn else None,
        request_key=key,
    )
    registration.full_clean(exclude=["tournament"])
    registration.save()
    if number > tournament.last_start_number:
        tournament.last_start_number = number
        tournament.save(update_fields=["last_start_number"])
    return registration


@transaction.atomic
def registration_update(
    *, registration: Registration, name: str, residence: str, paid: bool, user: User
) -> Registration:
    """Correct a registration's name, Wohnort and Startgeld, at any time (a typo at the door is
    found when the seating list hangs on the wall). His start number and figures stay."""
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    name = name.strip()
    if not name:
        raise ValidationError({"name": _("Bitte den Namen angeben.")})
    _paid_may_change(registration, paid)
    registration.name = name
    registration.residence = residence.strip()
    registration.paid = paid
    registration.full_clean(exclude=["tournament"])
    registration.save(update_fields=["name", "residence", "paid"])
    return registration


@transaction.atomic
def registration_remove(*, registration: Registration, user: User) -> None:
    """Remove a registration made by mistake, before he is first drawn to a table (after that,
    he is withdrawn instead: the seating and the figures name him). His start number is not given
    again: the tournament remembers the highest one given."""
    tournament = _lock(registration.tournament)
    registration = Registration.objects.select_for_update().filter(pk=registration.pk).first()
    if registration is None:  # removed meanwhile (the same form sent twice at once): nothing to do
        return
    if not selectors.removable(registration):
        raise ValidationError(
            _("Nr. %(number)s ist schon ausgelost und bleibt in der Liste; bitte stattdessen abmelden.")
            % {"number": registration.start_number}
        )
    last = tournament.registrations.aggregate(last=Max("start_number"))["last"] or 0
    highest = max(last, tournament.last_start_number)
    if highest != tournament.last_start_number:
        tournament.last_start_number = highest
        tournament.save(update_fields=["last_start_number"])
    registration.delete()


PAID_LOCKED = gettext_lazy("Die Preisliste ist endgültig: das Startgeld bleibt, wie es beim Abschluss war.")


def _paid_may_change(registration: Registration, paid: bool) -> None:
    """The pot is the Startgeld taken (``selectors.kasse``): once the prize list is final, a tick
    more or less would change prizes already announced, so the Startgeld stays as it is."""
    if paid != registration.paid and selectors.prizes_final(registration.tournament):
        raise ValidationError({"paid": PAID_LOCKED})


@transaction.atomic
def registration_set_paid(*, registration: Registration, paid: bool, user: User) -> Registration:
    """Tick (or untick, after a slip of the finger) the Startgeld as paid."""
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    _paid_may_change(registration, paid)
    registration.paid = paid
    registration.save(update_fields=["paid"])
    return registration


@transaction.atomic
def public_token_renew(*, tournament: OpenTournament, user: User) -> OpenTournament:
    """A new key for the public link (issue 24 §6), where the old one went further than it should:
    the old link and the QR codes printed with it show nothing any more (404)."""
    tournament = _lock(tournament)
    tournament.public_token = new_token()
    tournament.save(update_fields=["public_token"])
    return tournament


@transaction.atomic
def registration_withdraw(*, registration: Registration, user: User) -> Registration:
    """Withdraw a player before the next round to be drawn; his start number and his figures of
    the rounds he played stay. One withdrawn already stays as he is (a double click)."""
    tournament = _lock(registration.tournament)
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if registration.withdrawn_before is not None:  # the same form sent twice: done already
        return registration
    drawn = _rounds_drawn(tournament)
    if drawn >= tournament.rounds:
        raise ValidationError(_("Alle Runden sind ausgelost; abmelden lässt sich niemand mehr."))
    registration.withdrawn_before = drawn + 1
    registration.save(update_fields=["withdrawn_before"])
    return registration


@transaction.atomic
def registration_return(*, registration: Registration, user: User) -> Registration:
    """Undo a withdrawal while no round has been drawn since it; one not withdrawn stays as he is."""
    tournament = _lock(registration.tournament)
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if registration.withdrawn_before is None:  # the undo sent twice: done already
        return registration
    if registration.withdrawn_before <= _rounds_drawn(tournament):
        raise ValidationError(_("Seit der Abmeldung wurde schon eine Runde ausgelost."))
    registration.withdrawn_before = None
    registration.save(update_fields=["withdrawn_before"])
    return registration


def _check_day(tournament: OpenTournament, day: datetime.date | None) -> datetime.date | None:
    """A round's day: one of the tournament's days; None (and the first day) is stored as None."""
    if day is None or day == tournament.starts_on:
        return None
    if day not in tournament.days:
        raise ValidationError({"day": _("Der Spieltag ist einer der Tage des Turniers.")})
    return day


class DrawnMeanwhile(ValidationError):
    """The form meant to draw round ``meant``, but ``drawn`` rounds are drawn: it came twice (a
    double click, a resent form, two desks at once) and nothing more is drawn."""

    def __init__(self, meant: int, drawn: int) -> None:
        self.meant = meant
        self.drawn = drawn
        if meant <= drawn:
            message = _("Runde %(number)s ist schon ausgelost; es wurde nichts weiter ausgelost.")
        else:
            message = _("Runde %(number)s ist noch nicht an der Reihe; bitte die Seite neu laden.")
        super().__init__(message % {"number": meant})


@transaction.atomic
def round_draw(
    *,
    tournament: OpenTournament,
    number: int | None = None,
    seed: int | None = None,
    day: datetime.date | None = None,
    user: User,
) -> Round:
    """Draw the next round for the players present: the planner (``tournaments.engine.plan``)
    puts them at tables of 4, 5 or 6 so that they meet as many different opponents as possible
    over the rounds; the seat order at each table is drawn too, the first seat dealing first.
    ``day``: the day the round is played (one of the tournament's; None: the first).
    ``number``: the round the caller means to draw (the draw form carries it). Where another one
    is next, ``DrawnMeanwhile`` and nothing drawn: a draw cannot be undone, so a form sent twice
    or two desks drawing at once draw one round, not two (the tournament row is locked, and
    SQLite runs one writer at a time).

    Round 1 maps the planner's numbers 1..N onto the present start numbers in a drawn order; later
    rounds re-plan after the rounds played with the start numbers themselves."""
    tournament = _lock(tournament)
    done = list(tournament.round_set.prefetch_related("tables"))
    if number is not None and number != len(done) + 1:
        raise DrawnMeanwhile(number, len(done))
    number = len(done) + 1
    if number > tournament.rounds:
        raise ValidationError(_("Alle Runden sind schon ausgelost."))
    day = _check_day(tournament, day)
    present = sorted(r.start_number for r in tournament.registrations.all() if r.plays_in(number))
    if seed is None:
        seed = random.SystemRandom().randint(0, MAX_SEED)
    rng = random.Random(seed)
    played = [[list(t.seats) for t in r.tables.all()] for r in done]
    try:
        tables = tournament.game.draw(played, present, tournament.rounds, seed, rng)
    except EngineError as error:
        raise ValidationError(
            _("%(count)s Spieler lassen sich nicht auslosen: %(reason)s")
            % {"count": len(present), "reason": error.message}
        ) from None
    round_ = Round.objects.create(tournament=tournament, number=number, seed=seed, day=day)
    for index, table in enumerate(tables, start=1):
        seats = table[:]
        rng.shuffle(seats)  # the seat draw: the first drawn deals the first game
        RoundTable.objects.create(round=round_, number=index, seats=seats)
    return round_


@transaction.atomic
def round_set_day(*, round_: Round, day: datetime.date | None, user: User) -> Round:
    """Set the day a round is played (one of the tournament's days; None: the first), for the
    Tagessieger. It changes nothing else, so it may be set or corrected at any time."""
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    round_.day = _check_day(round_.tournament, day)
    round_.save(update_fields=["day"])
    return round_


def _figure(values: Mapping[int, Any], number: int, field: str, label: str) -> int:
    value = values.get(number)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValidationError({f"{field}_{number}": _("Bitte %(what)s als ganze Zahl eintragen.") % {"what": label}})
    return value


@transaction.atomic
def table_figures_enter(
    *,
    table: RoundTable,
    points: Mapping[int, int],
    soli: Mapping[int, int] | None = None,
    won: Mapping[int, int] | None = None,
    lost: Mapping[int, int] | None = None,
    key: str = "",
    user: User,
) -> TableTyping:
    """Type a table's final figures from its Wertungszettel: every seated start number's figures
    as the tournament's game has them (``opentournaments.games``). A Preisschafkopf: points and
    Soli, refused where the points do not sum to zero (every tariff of the engine is zero-sum; a
    table with a Stock need not be), where a plus-points-only tariff's points are below 0, or
    where the Soli are not plausible (no player more Soli than the games of the round, no table
    more than the games it deals). A Preisskat: Spielpunkte, won and lost games, refused where a
    count is below 0 or the table's won and lost games together exceed the games of its list.
    Nothing is stored when refused.

    Every typing is kept (``TableTyping``). Without Zweiterfassung it counts at once, replacing
    the table's figures. With it, a table counts only when two typings agree: the first waits
    (pending), one that agrees with a typing since the table last counted confirms it (its
    figures count), one that agrees with none is a mismatch (the paper decides: the next typing
    that agrees with either counts). A typing that changes figures that counted keeps them in
    ``replaced``: the table's history of corrections. ``key``: the form's one-time key; the
    same form sent twice is one typing (so it can never confirm itself)."""
    table = RoundTable.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
    key = key.strip()[:40]
    if key:
        typed = table.typings.filter(request_key=key).first()
        if typed is not None:
            return typed
    tournament = table.round.tournament
    game = tournament.game
    if table.phone_table_id is not None:
        raise ValidationError(
            _("Tisch %(number)s wird am Handy geschrieben: seine Punkte und Soli kommen aus seinen Spielen.")
            % {"number": table.number}
        )
    given: dict[str, Mapping[int, int]] = {"points": points, "soli": soli or {}, "won": won or {}, "lost": lost or {}}
    labels = {
        "points": _("die Spielpunkte") if game.keeps_list else _("die Punkte"),
        "soli": _("die Soli"),
        "won": _("die gewonnenen Spiele"),
        "lost": _("die verlorenen Spiele"),
    }
    figures = {n: tuple(_figure(given[name], n, name, labels[name]) for name in game.fields) for n in table.seats}
    # Games per round are per player (as the championship's): a table of five or six, where the
    # dealer (and the cutter) sit out, deals 5/4 or 6/4 of them, so each player plays the same; a
    # Skat list of 48 at four is 36 at three.
    game.check(tournament, selectors.table_games(tournament, len(table.seats)), figures)
    typed = {str(n): list(values) for n, values in figures.items()}
    counted = selectors.counted_figures(table)
    if not tournament.double_entry:
        outcome = Typing.COUNTED
    else:
        since = selectors.open_typings(table)
        if typed == counted or any(t.figures == typed for t in since):
            outcome = Typing.CONFIRMED
        else:
            outcome = Typing.MISMATCH if since else Typing.PENDING
    counts = outcome in (Typing.COUNTED, Typing.CONFIRMED)
    typing = TableTyping.objects.create(
        table=table,
        figures=typed,
        outcome=outcome,
        replaced=counted if counts and counted and counted != typed else None,
        typed_by=_user(user),
        request_key=key,
    )
    if counts and typed != counted:
        registrations = {r.start_number: r for r in tournament.registrations.filter(start_number__in=table.seats)}
        table.scores.all().delete()
        TableScore.objects.bulk_create(
            TableScore(table=table, registration=registrations[n], entered_by=_user(user), **game.score_fields(values))
            for n, values in figures.items()
        )
    return typing


def _guest_player(registration: Registration) -> Member:
    """The club player a guest plays under at a phone table: the one he played under at an
    earlier open tournament of the club (same name and Wohnort), else a new inactive player
    named as registered (with his Wohnort, then his start number, where the name is taken)."""
    tournament = registration.tournament
    earlier = (
        Registration.objects.filter(
            tournament__club_id=tournament.club_id,
            member__isnull=True,
            player__isnull=False,
            name=registration.name,
            residence=registration.residence,
        )
        .exclude(pk=registration.pk)
        .select_related("player")
        .order_by("-pk")
        .first()
    )
    if earlier is not None:
        assert earlier.player is not None
        return earlier.player
    longest = Member._meta.get_field("display_name").max_length
    candidates = [registration.name]
    if registration.residence:
        candidates.append(f"{registration.name} ({registration.residence})")
    candidates.append(f"{registration.name} ({tournament.pk}/{registration.start_number})")
    for candidate in candidates:
        name = candidate[:longest].strip()
        if not Member.objects.filter(club_id=tournament.club_id, display_name__iexact=name).exists():
            break
    member = club_services.member_create(club=tournament.club, display_name=name)
    return club_services.member_set_active(member=member, active=False)


def _player(registration: Registration) -> Member:
    if registration.player is None:
        registration.player = registration.member or _guest_player(registration)
        registration.save(update_fields=["player"])
    return registration.player


@transaction.atomic
def table_phone_start(*, table: RoundTable, user: User) -> RoundTable:
    """Write ``table`` game by game on a phone: a score sheet (``scoring``) with the tournament's
    frozen tariff and its players in seat order, the first seat dealing first, in the round's
    evening (one per round, made with its first phone table). The sheet takes the games of the
    round (``opentournaments.guards``); the ranking reads the table's hands. A table is either
    written on a phone or typed at the desk: one with the desk's figures is refused. Guests sit
    as the club's inactive guest players (scoring seats members only); a returning guest is the
    same player again. Starting a table that is already on a phone changes nothing."""
    table = RoundTable.objects.select_for_update().select_related("round__tournament__club").get(pk=table.pk)
    if table.phone_table_id is not None:
        return table
    if table.scores.exists():
        raise ValidationError(
            _(
                "Für Tisch %(number)s hat die Turnierleitung schon die Punkte eingetragen; ein Tisch wird "
                "entweder am Handy geschrieben oder vom Zettel eingetragen."
            )
            % {"number": table.number}
        )
    round_ = table.round
    tournament = round_.tournament
    refusal = selectors.phone_refusal(tournament)
    if refusal:
        raise ValidationError(refusal)
    registrations = {r.start_number: r for r in tournament.registrations.filter(start_number__in=table.seats)}
    members = [_player(registrations[n]) for n in table.seats]
    sibling = RoundTable.objects.filter(round=round_, phone_table__isnull=False).select_related("phone_table").first()
    if sibling is not None:
        assert sibling.phone_table is not None
        session = sibling.phone_table.session
        if session.is_closed:  # its other phone tables have finished: the round goes on here
            session = scoring_services.session_reopen(session=session, user=user)
    else:
        session = scoring_services.session_create(club=tournament.club, date=timezone.localdate(), user=user)
        session.note = _("%(tournament)s, Runde %(round)s") % {"tournament": tournament, "round": round_.number}
        session.save(update_fields=["note"])
    table.phone_table = scoring_services.table_start(
        session=session,
        members=members,
        first_dealer=members[0],
        name=f"Tisch {table.number}",  # stored, like the score sheet's own default "Tisch 1"
        rules=tournament.ruleset_spec,
        user=user,
    )
    table.save(update_fields=["phone_table"])
    return table


@transaction.atomic
def table_phone_stop(*, table: RoundTable, user: User) -> RoundTable:
    """Hand a phone table back to its paper sheet (the desk types its figures), as long as no
    game is on its phone sheet yet: a table with games keeps them, so it stays on the phone."""
    table = RoundTable.objects.select_for_update(of=("self",)).select_related("phone_table").get(pk=table.pk)
    sheet = table.phone_table
    if sheet is None:
        return table
    if sheet.entries.exists():
        raise ValidationError(
            _(
                "Am Handy ist für Tisch %(number)s schon gespielt und eingetragen; der Tisch bleibt am Handy. "
                "Ein falsches Spiel wird dort korrigiert."
            )
            % {"number": table.number}
        )
    table.phone_table = None
    table.save(update_fields=["phone_table"])
    scoring_services.table_discard(table=sheet, user=user)
    return table
