"""factory_boy factories (and small builders through the services) for the tests' data."""

import datetime
from dataclasses import dataclass

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from factory.django import DjangoModelFactory

from clubs.models import Club, Member, Membership, Role
from opentournaments.models import OpenTournament, Registration, Round
from opentournaments.services import open_tournament_create, registration_create, round_draw, table_figures_enter
from scoring.models import Entry, Session, Table
from scoring.selectors import table_state
from scoring.services import entry_append, table_start
from tournaments.models import Adjustment, PartieTable, Playoff, Tournament
from tournaments.selectors import finish_check
from tournaments.services import draw_run, participants_set, partie_start, table_abort, tournament_create

PASSWORD = "pw-for-tests"


class UserFactory(DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password(PASSWORD)


class ClubFactory(DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Verein {n}")
    slug = factory.Sequence(lambda n: f"verein-{n}")


class MemberFactory(DjangoModelFactory):
    class Meta:
        model = Member

    club = factory.SubFactory(ClubFactory)
    display_name = factory.Sequence(lambda n: f"Spieler {n}")


class MembershipFactory(DjangoModelFactory):
    class Meta:
        model = Membership

    user = factory.SubFactory(UserFactory)
    club = factory.SubFactory(ClubFactory)
    role = Role.MEMBER


@dataclass(frozen=True)
class World:
    """One club with a login per role, and an outsider who owns another club."""

    club: Club
    other_club: Club
    users: dict[str, AbstractBaseUser]  # "owner", "scorer", "member", "outsider"


def make_world() -> World:
    club = ClubFactory(name="Schafkopf-Freunde Test", slug="test")
    other = ClubFactory(name="Andere", slug="andere")
    users = {}
    for role in (Role.OWNER, Role.SCORER, Role.MEMBER):
        users[role.value] = MembershipFactory(club=club, role=role, user__username=f"test-{role.value}").user
    users["outsider"] = MembershipFactory(club=other, role=Role.OWNER, user__username="outsider").user
    for name in ("Sepp Huber", "Zenzi Mayr", "Girgl Lechner", "Vroni Brandl"):
        MemberFactory(club=club, display_name=name)
    MemberFactory(club=other, display_name="Ludwig Bauer")
    return World(club=club, other_club=other, users=users)


# --- scoring: evenings, tables, entries -------------------------------------------------------


class SessionFactory(DjangoModelFactory):
    class Meta:
        model = Session

    club = factory.SubFactory(ClubFactory)
    date = datetime.date(2026, 11, 20)
    place = "Gasthof Post"


def make_table(session: Session, players: int = 4, rules: str | dict | None = "allgaeu", **kwargs: object) -> Table:
    """A table of ``players`` new members of the evening's club, started through the service."""
    members = MemberFactory.create_batch(players, club=session.club)
    return table_start(session=session, members=members, rules=rules, user=None, **kwargs)


def rufspiel(table: Table, augen: int = 75, deckel: int = 1) -> dict:
    """A valid Rufspiel for the next hand of ``table`` (allgaeu: Dauerdeckel)."""
    seats = table_state(table).state.seats
    return {"game": "rufspiel", "declarer": seats[0], "partner": seats[1], "augen": augen, "deckel": deckel}


def make_entry(table: Table) -> Entry:
    return entry_append(table=table, data=rufspiel(table), user=None)


# --- tournaments: the Zockmeisterschaft -----------------------------------------------------------


def make_tournament(club: Club, players: int = 8, year: int = 2026, drawn: bool = True) -> Tournament:
    """A championship of ``club`` with ``players`` new members taking part (their seating plan
    computed) and, with ``drawn``, their numbers drawn from seed 1; set up through the services."""
    tournament = tournament_create(club=club, year=year, partien=2, user=None)
    members = MemberFactory.create_batch(players, club=club)
    tournament = participants_set(tournament=tournament, members=members, user=None)
    if drawn:
        tournament = draw_run(tournament=tournament, seed=1, user=None)
    return tournament


def make_partie_table(tournament: Tournament, index: int = 1, number: int = 1) -> PartieTable:
    """Table ``number`` of Partie ``index``, the Partie started (seats drawn from seed 1) if it was not."""
    if not tournament.partie_set.filter(index=index).exists():
        partie_start(tournament=tournament, index=index, seed=1, user=None)
    return PartieTable.objects.select_related("table").get(
        partie__tournament=tournament, partie__index=index, number=number
    )


def make_playoff(tournament: Tournament) -> Playoff:
    first, second = (p.member for p in tournament.participants.select_related("member")[:2])
    playoff = Playoff.objects.create(tournament=tournament, winner=first, note="Seemannsschafkopf")
    playoff.players.set([first, second])
    return playoff


def make_adjustment(tournament: Tournament) -> Adjustment:
    member = tournament.participants.select_related("member").first().member
    adjustment = Adjustment.objects.create(tournament=tournament, points=3, reason="verschrieben")
    adjustment.players.set([member])
    return adjustment


def abort_short_tables(tournament: Tournament, reason: str = "Zeit abgelaufen") -> None:
    """Break off every table short of its games, as the owner does before finishing (issue 20)."""
    for partie, table, _played, _games in finish_check(tournament).short_tables:
        table_abort(tournament=tournament, partie=partie, table=table, reason=reason, user=None)


def seat_names(table: Table) -> list[str]:
    """The players of a score sheet in seat order."""
    return list(table.seats.order_by("position").values_list("name", flat=True))


def won_rufspiel(declarer: str, partner: str) -> dict[str, object]:
    """A Rufspiel won without Schneider, one Deckel: 2 points each for the winners (001 §11.5)."""
    return {"game": "rufspiel", "declarer": declarer, "partner": partner, "called": "eichel", "augen": 70, "deckel": 1}


# --- open tournaments ---------------------------------------------------------------------------


def make_open_tournament(club: Club, players: int = 8, rounds: int = 2) -> OpenTournament:
    """An open tournament of ``club`` with ``players`` guests registered (start numbers 1..N,
    every second one paid), through the services."""
    tournament = open_tournament_create(
        club=club,
        name="Preisschafkopf",
        starts_on=datetime.date(2026, 11, 28),
        rounds=rounds,
        games_per_round=32,
        entry_fee_cents=1500,
        user=None,
    )
    for n in range(1, players + 1):
        registration_create(
            tournament=tournament, name=f"Gast {n:03d}", residence="Kempten", paid=n % 2 == 1, user=None
        )
    return tournament


def make_open_registration(tournament: OpenTournament) -> Registration:
    number = tournament.registrations.count() + 1
    return registration_create(tournament=tournament, name=f"Xaver Gast {number}", residence="Immenstadt", user=None)


def make_open_round(tournament: OpenTournament) -> Round:
    """The first round of ``tournament``, drawn from seed 1 (more players first where it has too few)."""
    while tournament.registrations.count() < 8:
        make_open_registration(tournament)
    return tournament.round_set.first() or round_draw(tournament=tournament, seed=1, user=None)


def open_round_played(round_: Round) -> None:
    """Every table of ``round_`` with figures (zero-sum, a Solo or two), through the desk's service."""
    for table in round_.tables.all():
        seats = list(table.seats)
        points = {n: (7 * (n + round_.number) % 23) - 11 for n in seats[1:]}
        points[seats[0]] = -sum(points.values())
        table_figures_enter(table=table, points=points, soli={n: (n + round_.number) % 3 for n in seats}, user=None)
