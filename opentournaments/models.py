"""Open tournaments (issue 24: Preisschafkopf, Schafkopfrennen): a club's tournament of guests and
members, its registrations at the door, the rounds with their drawn tables, and each table's
figures as the desk typed them from the paper Wertungszettel.

The tariff is frozen like the championship's (a preset and every option value, taken when the
tournament is created). The ranking is never stored: it is aggregated from the table figures.
A start number is given once and never changes: withdrawals and late registrations only mark
the round from which a player is away or present (``withdrawn_before``, ``registered_before``).
"""

from __future__ import annotations

import datetime
import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Member
from opentournaments.games import DeskGame, game_of
from scoring.models import Table

DEFAULT_PRESET = "reiner-schafkopf"  # a points tariff (Zähleinheiten): Rufspiel 1, Solo 5
MAX_ROUNDS = 10  # tournaments.engine.plan.MAX_PARTIEN
MAX_GAMES = 200  # tournaments.engine.plan.MAX_GAMES
MAX_PLAYERS = 400  # tournaments.engine.plan.MAX_PLAYERS: no more can be drawn, so none registered
# Start numbers fit four digits on every printout, on SQLite as on PostgreSQL (whose small
# integer would refuse 32,768 where SQLite stores it, and the club's backup would not restore).
MAX_START_NUMBER = 9999
# A tournament spans at most a week: a Preisschafkopf is one day, a Schafkopfrennen a weekend.
# Every overview builds its days (``OpenTournament.days``), so the span is bounded (issue 31 §9).
MAX_DAYS = 7
FIRST_YEAR, LAST_YEAR = 1900, 2999  # as the championship's year (tournaments.models)
TIE_BREAKS = ("soli", "best_round", "lot")  # spec §5, in its default order


class SoliCount(models.TextChoices):
    """What a table written on a phone counts as a player's Soli (spec §5 ``soli_count``); the
    desk types what the Wertungszettel says, and the rules page and the desk's field say which."""

    DECLARED = "declared", _("jedes Solo, gewonnen oder verloren")
    WON = "won", _("nur gewonnene Soli")


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_seed() -> int:
    return secrets.randbelow(2**32)


class OpenTournament(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="open_tournaments", verbose_name=_("Verein"))
    name = models.CharField(_("Name"), max_length=100)
    starts_on = models.DateField(_("erster Tag"))
    ends_on = models.DateField(_("letzter Tag"), null=True, blank=True)
    rounds = models.PositiveSmallIntegerField(
        _("Runden"), default=3, validators=[MinValueValidator(1), MaxValueValidator(MAX_ROUNDS)]
    )
    games_per_round = models.PositiveSmallIntegerField(
        _("Spiele je Runde"), default=32, validators=[MinValueValidator(1), MaxValueValidator(MAX_GAMES)]
    )
    # The tariff: a preset and a frozen copy of every option value, taken at creation.
    preset = models.CharField(_("Tarif"), max_length=40, default=DEFAULT_PRESET)
    options = models.JSONField(_("Optionen"), default=dict)
    tie_breaks = models.JSONField(_("Wertung bei Punktgleichheit"), default=list, blank=True)  # []: shared
    # The spec's default ("declared") for tournaments made before the option; the create form
    # offers "won" first, as most Preisschafkopf rules count the circled (won) Soli.
    soli_count = models.CharField(
        _("Soli zählen"), max_length=10, choices=SoliCount.choices, default=SoliCount.DECLARED
    )
    # Whether the games of its tables written on a phone count in the club's standings and
    # statistics over a season (issue 31 §8): not unless the club says so. Even then only the
    # club's members count there, never the guests who sat at the tournament.
    in_club_standings = models.BooleanField(_("Spiele am Handy zählen in der Vereinswertung"), default=False)
    # Zweiterfassung (issue 31 §4): each table's figures are typed twice, independently; a table
    # counts only when two typings agree (``services.table_figures_enter``).
    double_entry = models.BooleanField(_("Zweiterfassung"), default=False)
    # The lot (tie-break "lot") is drawn by the app from this seed, fixed at creation and shown
    # with the ranking, so anyone can redraw it (``rank_open``).
    lot_seed = models.PositiveBigIntegerField(_("Seed des Loses"), default=new_seed)
    entry_fee_cents = models.PositiveIntegerField(_("Startgeld (Cent)"), default=0)
    # The highest start number ever given: a registration removed by mistake leaves its number
    # unused (its card may be out in the room). 0 for tournaments from before it: then the
    # registrations' own highest number is the next one's base (``selectors.next_start_number``).
    last_start_number = models.PositiveSmallIntegerField(_("höchste vergebene Startnummer"), default=0)
    # Prizes by place: shares of the pot in percent or fixed amounts in cents (one of the two),
    # and Sachpreise by place (text, place 1 first).
    prize_shares = models.JSONField(_("Preisgeld-Anteile (%)"), default=list, blank=True)
    prize_amounts = models.JSONField(_("feste Preisgelder (Cent)"), default=list, blank=True)
    # Sachpreise by place: place p's at index p - 1, "" for a place without one (so a Sachpreis
    # for place 11 alone is ten empty strings and the item); the last place's apart.
    prize_items = models.JSONField(_("Sachpreise"), default=list, blank=True)
    prize_item_last = models.CharField(_("Sachpreis für den letzten Platz"), max_length=200, blank=True, default="")
    # Shares of the Kasse paid out in whole euros, each prize rounded down: the rest stays in the
    # Kasse (the payout helper's "auf volle Euro").
    prize_whole_euros = models.BooleanField(_("Preisgeld auf volle Euro abrunden"), default=False)
    # For the read-only tournament link (issue 24 §6): unguessable, never the primary key. Unique
    # within the club (the link names the club too), so a club's backup restores beside itself.
    public_token = models.CharField(_("Öffentlicher Schlüssel"), max_length=40, default=new_token)
    created_at = models.DateTimeField(_("angelegt"), auto_now_add=True)
    # The create form's one-time key: sent twice, it finds the tournament its first sending made.
    request_key = models.CharField(_("Formularschlüssel"), max_length=40, blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    # A copy of the club (``import_club --slug``) gets a new public token (clubs.backup): the
    # original's link and printed QR codes must not open the copy.
    FRESH_IN_A_COPY = ("public_token",)

    class Meta:
        ordering = ["-starts_on", "-id"]
        verbose_name = _("Offenes Turnier")
        verbose_name_plural = _("Offene Turniere")
        constraints = [
            models.UniqueConstraint(fields=["club", "public_token"], name="opentournament_token_once_per_club"),
            models.UniqueConstraint(
                fields=["club", "request_key"],
                condition=~models.Q(request_key=""),
                name="opentournament_request_key_once",
            ),
            models.CheckConstraint(condition=models.Q(rounds__gte=1), name="opentournament_rounds_positive"),
            models.CheckConstraint(condition=models.Q(games_per_round__gte=1), name="opentournament_games_positive"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("opentournaments:detail", kwargs={"slug": self.club.slug, "open_id": self.pk})

    def clean(self) -> None:
        """The days: in a plausible year, the last not before the first, at most ``MAX_DAYS``."""
        errors = {}
        for name in ("starts_on", "ends_on"):
            day = getattr(self, name)
            if day is not None and not FIRST_YEAR <= day.year <= LAST_YEAR:
                errors[name] = _("Bitte ein Datum zwischen %(first)s und %(last)s.") % {
                    "first": FIRST_YEAR,
                    "last": LAST_YEAR,
                }
        if not errors and self.starts_on is not None and self.ends_on is not None:
            if self.ends_on < self.starts_on:
                errors["ends_on"] = _("Der letzte Tag liegt nicht vor dem ersten.")
            elif (self.ends_on - self.starts_on).days >= MAX_DAYS:
                errors["ends_on"] = _("Ein Turnier dauert höchstens %(days)s Tage.") % {"days": MAX_DAYS}
        if errors:
            raise ValidationError(errors)

    @property
    def days(self) -> list[datetime.date]:
        """The days of the tournament, first to last (one for a one-day tournament; at most
        ``MAX_DAYS``, whatever a row stored before the bound says)."""
        last = self.ends_on if self.ends_on and self.ends_on > self.starts_on else self.starts_on
        count = min((last - self.starts_on).days + 1, MAX_DAYS)
        return [self.starts_on + datetime.timedelta(days=i) for i in range(count)]

    @property
    def ruleset_spec(self) -> dict[str, object]:
        return {"preset": self.preset, "options": dict(self.options)}

    @property
    def game(self) -> DeskGame:
        """What the tournament's game decides: Preisschafkopf or Preisskat (``opentournaments.games``)."""
        return game_of(self)

    @property
    def soli_label(self) -> str:
        """The Soli as the desk's field and the Wertungszettel name them: which ones count."""
        return _("Soli (gewonnen)") if self.soli_count == SoliCount.WON else _("Soli (gespielt)")


class Registration(models.Model):
    """A player at the door: the start number he got (never changes), name and Wohnort."""

    tournament = models.ForeignKey(OpenTournament, on_delete=models.CASCADE, related_name="registrations")
    start_number = models.PositiveSmallIntegerField(
        _("Startnummer"), validators=[MinValueValidator(1), MaxValueValidator(MAX_START_NUMBER)]
    )
    name = models.CharField(_("Name"), max_length=100)
    residence = models.CharField(_("Wohnort"), max_length=100, blank=True)
    member = models.ForeignKey(
        Member, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("Mitglied")
    )
    paid = models.BooleanField(_("Startgeld bezahlt"), default=False)
    # The club player whose seat he takes at a table written on a phone (scoring seats and books
    # members only): the linked member, else a guest player made for him at his first phone table
    # (inactive, so no picker offers him) and found again when he comes back to a later tournament.
    player = models.ForeignKey(
        Member, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("Spieler am Handy")
    )
    # Away from this round on (None: plays every round drawn after his registration).
    withdrawn_before = models.PositiveSmallIntegerField(_("abgemeldet vor Runde"), null=True, blank=True)
    # Registered after rounds were drawn: plays from this round on (None: from the first).
    registered_before = models.PositiveSmallIntegerField(_("nachgemeldet vor Runde"), null=True, blank=True)
    created_at = models.DateTimeField(_("angemeldet"), auto_now_add=True)
    # The registration form's one-time key: the same form sent twice (a double Enter, a resend
    # after a killed request) finds the registration it made and stores nothing more.
    request_key = models.CharField(_("Formularschlüssel"), max_length=40, blank=True, default="")

    class Meta:
        ordering = ["tournament", "start_number"]
        verbose_name = _("Anmeldung")
        verbose_name_plural = _("Anmeldungen")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "start_number"], name="registration_unique_start_number"),
            models.CheckConstraint(condition=models.Q(start_number__gte=1), name="registration_start_number_positive"),
            models.CheckConstraint(
                condition=models.Q(start_number__lte=MAX_START_NUMBER), name="registration_start_number_bounded"
            ),
            models.UniqueConstraint(
                fields=["tournament", "request_key"],
                condition=~models.Q(request_key=""),
                name="registration_request_key_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.start_number} {self.name}"

    def plays_in(self, round_number: int) -> bool:
        if self.withdrawn_before is not None and round_number >= self.withdrawn_before:
            return False
        return self.registered_before is None or round_number >= self.registered_before


class Round(models.Model):
    tournament = models.ForeignKey(OpenTournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField(_("Runde"))
    seed = models.PositiveBigIntegerField(_("Seed der Auslosung"))  # up to 2**32 - 1
    # The day the round is played, for the Tagessieger of a tournament over several days; None
    # is the tournament's first day (``played_on``), so a one-day tournament never sets it.
    day = models.DateField(_("Spieltag"), null=True, blank=True)
    drawn_at = models.DateTimeField(_("ausgelost"), auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("Runde")
        verbose_name_plural = _("Runden")
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_once")]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.number}"

    @property
    def played_on(self) -> datetime.date:
        return self.day or self.tournament.starts_on


class RoundTable(models.Model):
    """A drawn table: the start numbers in seat order (clockwise); the first deals the first game."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("Tisch"))
    seats = models.JSONField(_("Startnummern in Sitzordnung"))
    # Written game by game on a phone (``services.table_phone_start``): its score sheet, whose hands
    # give the table's figures. Empty for a table whose final figures the desk types.
    phone_table = models.OneToOneField(
        Table,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="open_table",
        verbose_name=_("Blatt am Handy"),
    )

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("Tisch")
        verbose_name_plural = _("Tische")
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="roundtable_once")]

    def __str__(self) -> str:
        return f"{self.round} · {self.number}"

    @property
    def first_dealer(self) -> int:
        return self.seats[0]


class TableScore(models.Model):
    """One player's figures at one table as the desk typed them from the Wertungszettel."""

    table = models.ForeignKey(RoundTable, on_delete=models.CASCADE, related_name="scores")
    registration = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="scores")
    points = models.IntegerField(_("Punkte"))
    soli = models.PositiveSmallIntegerField(_("Soli"))  # 0 in a Preisskat: Skat has no Soli
    # A Preisskat's list (skat.md §6): the games the player declared and won or lost. None in a
    # Preisschafkopf (``opentournaments.games``: which figures a game's desk types).
    won = models.PositiveSmallIntegerField(_("gewonnene Spiele"), null=True, blank=True)
    lost = models.PositiveSmallIntegerField(_("verlorene Spiele"), null=True, blank=True)
    entered_at = models.DateTimeField(_("eingetragen"), auto_now=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["table", "registration__start_number"]
        verbose_name = _("Tischergebnis")
        verbose_name_plural = _("Tischergebnisse")
        constraints = [models.UniqueConstraint(fields=["table", "registration"], name="tablescore_once")]

    def __str__(self) -> str:
        return f"{self.table} · {self.registration}: {self.points}"


class Typing(models.TextChoices):
    """What one typing of a table's figures did (``services.table_figures_enter``)."""

    COUNTED = "counted", _("eingetragen")  # without Zweiterfassung: counts at once
    PENDING = "pending", _("einmal erfasst")  # Zweiterfassung: waits for a second typing
    CONFIRMED = "confirmed", _("bestätigt")  # agreed with an earlier typing: counts
    MISMATCH = "mismatch", _("Abweichung")  # differs from the typing before it


class TableTyping(models.Model):
    """One typing of a table's figures at the desk, as typed, kept: with Zweiterfassung the
    table counts when two agree; and where a typing changed figures that counted already, the
    figures it replaced (``replaced``): the table's history of corrections, who and when."""

    table = models.ForeignKey(RoundTable, on_delete=models.CASCADE, related_name="typings")
    # {"<start number>": [points, soli]}; a Preisskat's [points, won, lost] (``games.DeskGame.fields``)
    figures = models.JSONField(_("Punkte und Soli"))
    outcome = models.CharField(_("Ergebnis"), max_length=10, choices=Typing.choices)
    replaced = models.JSONField(_("ersetzte Zahlen"), null=True, blank=True)  # a correction: the old figures
    typed_at = models.DateTimeField(_("erfasst"), auto_now_add=True)
    typed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The form's one-time key: the same form sent twice is one typing (and never agrees with itself).
    request_key = models.CharField(_("Formularschlüssel"), max_length=40, blank=True, default="")

    class Meta:
        ordering = ["table", "id"]
        verbose_name = _("Erfassung")
        verbose_name_plural = _("Erfassungen")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "request_key"], condition=~models.Q(request_key=""), name="tabletyping_key_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.table} · {self.get_outcome_display()}"
