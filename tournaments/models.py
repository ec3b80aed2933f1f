"""The Zockmeisterschaft (001 §11): a club's championship of one year, its participants and their
numbers, the draws, the Partien with their tables, playoffs and adjustments.

Each Partie is one scoring ``Session`` (a Spielabend of the club) with one scoring ``Table`` per
table of the seating plan: hands are entered on the ordinary score sheet under the tournament's
frozen rules, and every late correction is audited there. The ranking is never stored: it is
aggregated from those tables' ledger (``tournaments.selectors``) and ranked by the pure
``tournaments.engine.ranking``. The trophies (001 §11.6) are the top three of each finished
championship, derived the same way.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Member
from scoring.models import Session, Table

DEFAULT_PRESET = "allgaeu-meisterschaft"
MAX_PARTIEN = 10  # tournaments.engine.plan.MAX_PARTIEN
MAX_GAMES = 200  # tournaments.engine.plan.MAX_GAMES


class Status(models.TextChoices):
    SETUP = "setup", _("in Vorbereitung")
    DRAWN = "drawn", _("Nummern gezogen")
    RUNNING = "running", _("läuft")
    FINISHED = "finished", _("abgeschlossen")


class SubstitutePoints(models.TextChoices):
    """Whom the hands of a substitute count for in the ranking (001 is silent; docs/rules/
    championship-roster.md gives the reasoning for the default)."""

    NOBODY = "nobody", _("für niemanden")
    ABSENT = "absent", _("für den abwesenden Spieler")
    SUBSTITUTE = "substitute", _("für den Ersatzspieler")


class Tournament(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tournaments", verbose_name=_("Verein"))
    year = models.PositiveSmallIntegerField(_("Jahr"), validators=[MinValueValidator(1900), MaxValueValidator(2999)])
    title = models.CharField(_("Titel"), max_length=100, default="Zockmeisterschaft")
    place = models.CharField(_("Ort"), max_length=100, blank=True)
    # The preset and a frozen copy of every option value, taken when the championship is set up.
    preset = models.CharField(_("Regel"), max_length=40, default=DEFAULT_PRESET)
    options = models.JSONField(_("Optionen"), default=dict)
    partien = models.PositiveSmallIntegerField(
        _("Partien"), default=4, validators=[MinValueValidator(1), MaxValueValidator(MAX_PARTIEN)]
    )
    games_per_partie = models.PositiveSmallIntegerField(
        _("Spiele je Spieler und Partie"), default=40, validators=[MinValueValidator(1), MaxValueValidator(MAX_GAMES)]
    )
    plan_seed = models.PositiveIntegerField(_("Seed des Spielplans"), default=0)
    # The seating plan by numbers (``plan_tournament``'s document), computed when the participants
    # are set: empty until then.
    plan = models.JSONField(_("Spielplan"), default=dict, blank=True)
    status = models.CharField(_("Stand"), max_length=10, choices=Status.choices, default=Status.SETUP)
    substitute_points = models.CharField(
        _("Punkte eines Ersatzspielers zählen"),
        max_length=10,
        choices=SubstitutePoints.choices,
        default=SubstitutePoints.NOBODY,
    )
    created_at = models.DateTimeField(_("angelegt"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    finished_at = models.DateTimeField(_("abgeschlossen"), null=True, blank=True)

    class Meta:
        ordering = ["-year", "-id"]
        verbose_name = _("Meisterschaft")
        verbose_name_plural = _("Meisterschaften")
        constraints = [
            models.UniqueConstraint(fields=["club", "year"], name="tournament_one_per_club_and_year"),
            models.CheckConstraint(condition=models.Q(partien__gte=1), name="tournament_partien_positive"),
            models.CheckConstraint(condition=models.Q(status__in=Status.values), name="tournament_status_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.title} {self.year}"

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", kwargs={"slug": self.club.slug, "tournament_id": self.pk})

    @property
    def ruleset_spec(self) -> dict[str, object]:
        return {"preset": self.preset, "options": dict(self.options)}

    @property
    def is_finished(self) -> bool:
        return self.status == Status.FINISHED


class Participant(models.Model):
    """A member taking part (001 §11.1: members only) and the number he drew (001 §11.2)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="participants")
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="+", verbose_name=_("Spieler"))
    number = models.PositiveSmallIntegerField(_("Nummer"), null=True, blank=True)
    drew_order = models.PositiveSmallIntegerField(_("zieht als"), null=True, blank=True)
    # Did not take part in the previous championship: draws first.
    is_new = models.BooleanField(_("neu dabei"), default=False)
    # Withdrawn after this Partie (issue 20): seated in no later one, ranked below those who stay.
    withdrawn_after = models.PositiveSmallIntegerField(_("zurückgezogen nach Partie"), null=True, blank=True)
    # Added late: plays from this Partie on (None: from the first).
    joined_at = models.PositiveSmallIntegerField(_("nachgemeldet ab Partie"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number", "member__display_name"]
        verbose_name = _("Teilnehmer")
        verbose_name_plural = _("Teilnehmer")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "member"], name="participant_once"),
            models.UniqueConstraint(
                fields=["tournament", "number"],
                condition=models.Q(number__isnull=False),
                name="participant_unique_number",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.number or '–'} {self.member}"

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_after is not None


class DrawLog(models.Model):
    """Every draw, as it was done: the number draw by the app (with its seed) or with paper slips,
    and the seat draws of a Partie (with their seed). The latest number draw is the one in force."""

    class Kind(models.TextChoices):
        NUMBERS_APP = "numbers_app", _("Nummern von der App gezogen")
        NUMBERS_PAPER = "numbers_paper", _("Nummern mit Zetteln gezogen")
        SEATS = "seats", _("Sitzordnung gezogen")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="draws")
    kind = models.CharField(_("Art"), max_length=20, choices=Kind.choices)
    partie = models.PositiveSmallIntegerField(_("Partie"), null=True, blank=True)
    seed = models.CharField(_("Seed"), max_length=40, blank=True)
    # numbers: {"order": [names in drawing order], "numbers": {name: number}};
    # seats: {"tables": {"1": [names in seat order, Schreiber first]}}
    data = models.JSONField(_("Ergebnis"), default=dict)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    at = models.DateTimeField(_("Zeitpunkt"), auto_now_add=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("Auslosung")
        verbose_name_plural = _("Auslosungen")

    def __str__(self) -> str:
        return f"{self.tournament}: {self.get_kind_display()}"


class Partie(models.Model):
    """One Partie of the championship, started: its score sheets are the tables of ``session``."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="partie_set")
    index = models.PositiveSmallIntegerField(_("Partie"))
    session = models.OneToOneField(Session, on_delete=models.PROTECT, related_name="partie")
    started_at = models.DateTimeField(_("begonnen"), auto_now_add=True)
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    # Finishing the championship closed this Partie's evening (it was open before): reopening the
    # championship reopens exactly these evenings (issue 14).
    closed_by_finish = models.BooleanField(_("beim Abschließen geschlossen"), default=False)

    class Meta:
        ordering = ["tournament", "index"]
        verbose_name = _("Partie")
        verbose_name_plural = _("Partien")
        constraints = [models.UniqueConstraint(fields=["tournament", "index"], name="partie_unique_index")]

    def __str__(self) -> str:
        return f"{self.tournament} – {self.index}. Partie"

    def get_absolute_url(self) -> str:
        return reverse(
            "tournaments:partie",
            kwargs={"slug": self.tournament.club.slug, "tournament_id": self.tournament_id, "partie_index": self.index},
        )


class PartieTable(models.Model):
    """A table of a Partie: the plan's table ``number`` and its score sheet. The players in seat
    order (Schreiber first, then clockwise as drawn) are the scoring table's seats."""

    partie = models.ForeignKey(Partie, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("Tisch"))
    table = models.OneToOneField(Table, on_delete=models.PROTECT, related_name="partie_table")
    schreiber = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="+", verbose_name=_("Schreiber"))
    # The login that writes this table (issue 20): the one the Vorstand assigned, else the first
    # scorer login that saved an entry here. Only it and the Vorstand change the table
    # (``tournaments.guards.check_table_write``); empty until then.
    schreiber_login = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("Zugang des Schreibers"),
    )
    # Broken off short of its games by the owner, with the reason (issue 20): the table takes no
    # further hand, the championship may finish without its missing games, and every printout of
    # the ranking marks its players. Undone (all three cleared) while the championship is open.
    aborted_reason = models.CharField(_("Grund des Abbruchs"), max_length=200, blank=True)
    aborted_at = models.DateTimeField(_("abgebrochen am"), null=True, blank=True)
    aborted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["partie", "number"]
        verbose_name = _("Tisch der Partie")
        verbose_name_plural = _("Tische der Partie")
        constraints = [models.UniqueConstraint(fields=["partie", "number"], name="partietable_unique_number")]

    def __str__(self) -> str:
        return f"{self.partie} – Tisch {self.number}"

    @property
    def is_aborted(self) -> bool:
        return self.aborted_at is not None


class Playoff(models.Model):
    """001 §11.3 item 11: a game between players still tied after all ten criteria (e.g.
    Seemannsschafkopf, best of 5) and its winner, who ranks above the others."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="playoffs")
    players = models.ManyToManyField(Member, related_name="+", verbose_name=_("Spieler"))
    winner = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="+", verbose_name=_("Sieger"))
    note = models.CharField(_("Notiz"), max_length=200, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(_("eingetragen"), auto_now_add=True)

    class Meta:
        ordering = ["tournament", "created_at", "id"]
        verbose_name = _("Stechen")
        verbose_name_plural = _("Stechen")

    def __str__(self) -> str:
        return f"{self.tournament}: {self.winner}"


class Adjustment(models.Model):
    """001 §11.3, a wrongly written score that cannot be reconstructed: each affected player is
    counted to his advantage, ``points`` added to his ranking points (not to any sheet)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="adjustments")
    players = models.ManyToManyField(Member, related_name="+", verbose_name=_("Spieler"))
    points = models.IntegerField(_("Punkte"))
    reason = models.CharField(_("Grund"), max_length=200)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(_("eingetragen"), auto_now_add=True)

    class Meta:
        ordering = ["tournament", "created_at", "id"]
        verbose_name = _("Korrektur")
        verbose_name_plural = _("Korrekturen")

    def __str__(self) -> str:
        return f"{self.tournament}: {self.points:+d} ({self.reason})"


class EventKind(models.TextChoices):
    FINISHED = "finished", _("abgeschlossen")
    REOPENED = "reopened", _("wieder geöffnet")
    WITHDRAWN = "withdrawn", _("zurückgezogen")
    ADDED = "added", _("nachgemeldet")
    REPLANNED = "replanned", _("neu geplant")
    SUBSTITUTE = "substitute", _("Ersatzspieler")
    TABLE_ABORTED = "table_aborted", _("Tisch abgebrochen")
    SCHREIBER = "schreiber", _("Schreiber bestimmt")


class Event(models.Model):
    """The championship's log of what changed its course after the start (issue 20): reopening
    after the finish (with the reason), a player withdrawn or added between Partien, a substitute
    at a table, a table broken off, a Schreiber assigned. Written by ``tournaments.services`` in the
    same transaction as the change; shown on the ranking (and where a kind says so, the printouts)."""

    Kind = EventKind

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(_("Art"), max_length=20, choices=Kind.choices)
    partie = models.PositiveSmallIntegerField(_("Partie"), null=True, blank=True)
    reason = models.CharField(_("Grund"), max_length=200, blank=True)
    # What the kind needs to be shown and checked later, e.g. {"member": "Hias"} or, for finished,
    # {"moved": [{"name": ..., "from": 3, "to": 2}]}.
    data = models.JSONField(_("Daten"), default=dict, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    at = models.DateTimeField(_("Zeitpunkt"), auto_now_add=True)

    class Meta:
        ordering = ["tournament", "at", "id"]
        verbose_name = _("Protokolleintrag")
        verbose_name_plural = _("Protokoll")
        constraints = [models.CheckConstraint(condition=models.Q(kind__in=EventKind.values), name="event_kind_valid")]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.get_kind_display()}"
