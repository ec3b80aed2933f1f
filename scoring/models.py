"""Evenings, tables, the log of hands and events, the ledger and the audit trail.

The log (``Entry.data``, in the order of ``Entry.number``) is the truth. Everything else on an
entry — dealer, round, multiplier, the explanation lines, the statistics facts — and every
``LedgerEntry`` row is derived by folding the log with ``scoring.engine.session`` and is rewritten
by ``scoring.services`` whenever the log changes. Nothing here is a counter that could drift.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import formats, translation
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Member


class Unit(models.TextChoices):
    CENT = "cent", _("Cent")
    POINT = "point", _("Punkte")
    UNIT = "unit", _("Zähleinheiten")


class ClubRules(models.Model):
    """A club's default rules for new tables: a preset and the options it overrides."""

    club = models.OneToOneField(Club, on_delete=models.CASCADE, related_name="rules", verbose_name=_("Verein"))
    preset = models.CharField(_("Regel"), max_length=40, default="allgaeu")
    options = models.JSONField(_("Optionen"), default=dict, blank=True)
    # 001 §10: the evening's winnings go to the club's Kasse (the Zockkasse), not to the winners.
    winnings_to_kasse = models.BooleanField(_("Gewinne in die Vereinskasse"), default=False)
    updated_at = models.DateTimeField(_("geändert"), auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("Vereinsregel")
        verbose_name_plural = _("Vereinsregeln")

    def __str__(self) -> str:
        return f"{self.club}: {self.preset}"

    @property
    def spec(self) -> dict[str, object]:
        return {"preset": self.preset, "options": dict(self.options)}


class Session(models.Model):
    """A Spielabend: one evening of a club, at one or more tables."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="sessions", verbose_name=_("Verein"))
    date = models.DateField(_("Datum"))
    place = models.CharField(_("Ort"), max_length=100, blank=True)
    note = models.TextField(_("Notiz"), blank=True)
    closed_at = models.DateTimeField(_("abgeschlossen"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("angelegt"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-date", "-id"]
        verbose_name = _("Spielabend")
        verbose_name_plural = _("Spielabende")
        indexes = [models.Index(fields=["club", "date"])]

    def __str__(self) -> str:
        # The active language's short date: German 30.10.2026, English 10/30/2026.
        return f"{formats.date_format(self.date, 'SHORT_DATE_FORMAT')} {self.place}".strip()

    def get_absolute_url(self) -> str:
        return reverse("scoring:session", kwargs={"slug": self.club.slug, "session_id": self.pk})

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None


DEFAULT_TABLE_NAME = re.compile(r"Tisch (\d+)")


class Table(models.Model):
    """One table of an evening with its players in seat order and its frozen rules."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="tables", verbose_name=_("Spielabend"))
    name = models.CharField(_("Tisch"), max_length=40, default="Tisch 1")
    # The preset and a frozen copy of every option value (preset and table options) taken when
    # the table starts: changing the club's rules later never rewrites past evenings.
    preset = models.CharField(_("Regel"), max_length=40)
    options = models.JSONField(_("Optionen"), default=dict)
    unit = models.CharField(_("Einheit"), max_length=10, choices=Unit.choices)
    created_at = models.DateTimeField(_("angelegt"), auto_now_add=True)

    class Meta:
        ordering = ["session", "id"]
        verbose_name = _("Tisch")
        verbose_name_plural = _("Tische")

    def __str__(self) -> str:
        return f"{self.session} – {self.name}"

    def get_absolute_url(self) -> str:
        return reverse(
            "scoring:table",
            kwargs={"slug": self.session.club.slug, "session_id": self.session_id, "table_id": self.pk},
        )

    @property
    def ruleset_spec(self) -> dict[str, object]:
        return {"preset": self.preset, "options": dict(self.options)}

    @property
    def label(self) -> str:
        """The name as pages show it: a default name as the app stores it ("Tisch 3", German,
        whatever the page's language was) in the page's language; a name typed in as typed."""
        match = DEFAULT_TABLE_NAME.fullmatch(self.name)
        return gettext("Tisch %(n)s") % {"n": match[1]} if match else self.name


class Seat(models.Model):
    """A player's place at a table, clockwise from 0; ``name`` is the name the log uses (a
    snapshot, so renaming a member later never breaks a past evening)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("Tisch"))
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="seats", verbose_name=_("Spieler"))
    position = models.PositiveSmallIntegerField(_("Platz"))
    name = models.CharField(_("Name"), max_length=60)
    is_first_dealer = models.BooleanField(_("gibt zuerst"), default=False)

    class Meta:
        ordering = ["table", "position"]
        verbose_name = _("Platz")
        verbose_name_plural = _("Plätze")
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_unique_position"),
            models.UniqueConstraint(fields=["table", "member"], name="seat_unique_member"),
            models.UniqueConstraint(fields=["table", "name"], name="seat_unique_name"),
        ]

    def __str__(self) -> str:
        return f"{self.position + 1}. {self.name}"


class SeatChange(models.Model):
    """Another player takes ``seat`` from entry ``from_number`` on (a substitute for a player who
    had to leave, or the player back again). The log keeps naming the seat by its name, so the
    hands played before stay exactly as they were; the ledger rows of the entries from
    ``from_number`` on are booked to ``member`` (``TableSetup.members_at``)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seat_changes", verbose_name=_("Tisch"))
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="changes", verbose_name=_("Platz"))
    from_number = models.PositiveIntegerField(_("ab Nr."))
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="+", verbose_name=_("Spieler"))
    name = models.CharField(_("Name"), max_length=60)  # a snapshot, like ``Seat.name``
    at = models.DateTimeField(_("Zeitpunkt"), auto_now_add=True)

    class Meta:
        ordering = ["table", "from_number", "id"]
        verbose_name = _("Platzwechsel")
        verbose_name_plural = _("Platzwechsel")

    def __str__(self) -> str:
        return f"{self.seat}: {self.name} ab {self.from_number}"


class Entry(models.Model):
    """One line of a table's log: a hand (``kind`` "hand") or an event (``kind`` its name).

    ``data`` holds the raw facts exactly as the JSON format of spec §3 (players by their seat
    names). The fields below it are derived by the fold and rewritten on every replay.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="entries", verbose_name=_("Tisch"))
    number = models.PositiveIntegerField(_("Nr."))
    kind = models.CharField(_("Art"), max_length=30, default="hand")
    data = models.JSONField(_("Angaben"))
    # Two phones at one table: the form's key makes a resubmission return the saved entry.
    idempotency_key = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(_("angelegt"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    # --- derived by the fold -----------------------------------------------------------
    dealer = models.CharField(_("Geber"), max_length=60, blank=True)
    round = models.CharField(_("Runde"), max_length=30, default="normal")
    multiplier = models.PositiveIntegerField(_("Faktor"), default=1)
    bock = models.PositiveSmallIntegerField(_("Bock"), default=0)  # Bock doublings scored under
    lines = models.JSONField(_("Erklärung"), default=list)
    game = models.CharField(_("Spiel"), max_length=30, blank=True, db_index=True)
    declarer = models.ForeignKey(
        Member, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("Spieler")
    )
    partner = models.ForeignKey(
        Member, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("Mitspieler")
    )
    declarer_won = models.BooleanField(_("gewonnen"), null=True)
    schneider = models.BooleanField(_("Schneider"), default=False)
    schwarz = models.BooleanField(_("Schwarz"), default=False)
    laufende = models.PositiveSmallIntegerField(_("Laufende"), default=0)
    kontra = models.PositiveSmallIntegerField(_("Stöße"), default=0)
    deckel = models.PositiveSmallIntegerField(_("Deckel"), default=0)
    tout = models.BooleanField(_("Tout"), default=False)
    solo = models.BooleanField(_("Einzelspiel"), default=False)
    stock_after = models.BigIntegerField(_("Stock danach"), default=0)

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("Eintrag")
        verbose_name_plural = _("Einträge")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="entry_unique_number"),
            models.UniqueConstraint(
                fields=["table", "idempotency_key"],
                condition=~models.Q(idempotency_key=""),
                name="entry_unique_idempotency_key",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} #{self.number} {self.game or self.kind}"


class Role(models.TextChoices):
    """A player's part in one entry, for statistics."""

    DECLARER = "declarer", _("Spieler")
    PARTNER = "partner", _("Mitspieler")
    OPPONENT = "opponent", _("Gegenspieler")
    ALONE = "alone", _("für sich")  # Mungo/Ramsch, events
    OUT = "out", _("setzt aus")


class LedgerEntry(models.Model):
    """One player's amount for one entry. Standings and statistics aggregate these rows with
    SUM/COUNT … GROUP BY; club, date and unit are copied here so those queries need no join."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="ledger", verbose_name=_("Eintrag"))
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="+")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="ledger", verbose_name=_("Spieler"))
    date = models.DateField(_("Datum"))
    unit = models.CharField(_("Einheit"), max_length=10, choices=Unit.choices)
    amount = models.BigIntegerField(_("Betrag"))
    role = models.CharField(_("Rolle"), max_length=10, choices=Role.choices)
    won = models.BooleanField(_("gewonnen"), null=True)

    class Meta:
        verbose_name = _("Buchung")
        verbose_name_plural = _("Buchungen")
        constraints = [models.UniqueConstraint(fields=["entry", "member"], name="ledger_unique_entry_member")]
        indexes = [
            models.Index(fields=["club", "unit", "date", "member"], name="ledger_standings"),
            models.Index(fields=["member", "date"], name="ledger_member_date"),
            models.Index(fields=["session", "member"], name="ledger_session_member"),
            # Covers the standings' GROUP BY unit, member with everything they sum and count, so
            # the all-time standings read this index alone, in group order (docs/standings.md);
            # the session too, for the evenings they leave out (an open tournament's, issue 31 §8).
            models.Index(
                fields=["club", "unit", "member", "date", "won", "role", "amount", "session"], name="ledger_totals"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.member}: {self.amount} {self.unit}"


class AuditEntry(models.Model):
    """Who changed what on a table's log, when, and why (before/after are the raw facts)."""

    class Action(models.TextChoices):
        CREATE = "create", _("eingetragen")
        CORRECT = "correct", _("korrigiert")
        DELETE = "delete", _("gelöscht")
        UNDO = "undo", _("rückgängig")
        CLOSE = "close", _("abgeschlossen")
        REOPEN = "reopen", _("wieder geöffnet")
        SEAT = "seat", _("Platz neu besetzt")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="audit", null=True, blank=True)
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="audit")
    number = models.PositiveIntegerField(_("Nr."), null=True, blank=True)
    action = models.CharField(_("Aktion"), max_length=10, choices=Action.choices)
    before = models.JSONField(_("vorher"), null=True, blank=True)
    after = models.JSONField(_("nachher"), null=True, blank=True)
    reason = models.CharField(_("Grund"), max_length=200, blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    at = models.DateTimeField(_("Zeitpunkt"), auto_now_add=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("Änderung")
        verbose_name_plural = _("Änderungen")

    def __str__(self) -> str:
        return f"{self.get_action_display()} #{self.number}"


class KasseBooking(models.Model):
    """The club's Kasse (001 §10: winnings go to the club's trip): one booking per closed evening
    and player, or a manual booking by an owner."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="kasse")
    session = models.ForeignKey(Session, on_delete=models.CASCADE, null=True, blank=True, related_name="kasse")
    member = models.ForeignKey(Member, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    unit = models.CharField(_("Einheit"), max_length=10, choices=Unit.choices, default=Unit.CENT)
    amount = models.BigIntegerField(_("Betrag"))
    text = models.CharField(_("Text"), max_length=200)
    # What an evening's booking is for: "" its winnings and the Stock (001 §10), "verlustspielgeld"
    # the fees of the lost games of a Skat list (skat.md §6). A reopening reverses each kind by
    # itself; only winnings in the Kasse change who pays whom (selectors.session_settlement).
    kind = models.CharField(_("Art"), max_length=20, blank=True, default="")
    at = models.DateTimeField(_("Zeitpunkt"), auto_now_add=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")

    VERLUSTSPIELGELD = "verlustspielgeld"

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("Kassenbuchung")
        verbose_name_plural = _("Kassenbuchungen")

    def __str__(self) -> str:
        return f"{self.text}: {self.amount}"

    @property
    def shown_text(self) -> str:
        """The text in the active language: a booking the app wrote for an evening (its winnings,
        its Stock, its Storno), in whichever language it was written, is told again from the
        evening's date; a text an owner typed stays as typed."""
        if self.session_id is None:
            return self.text
        day = self.session.date
        for message in (
            gettext_noop("Gewinn %(date)s"),
            gettext_noop("Stock %(date)s"),
            gettext_noop("Verlustspielgeld %(date)s"),
            gettext_noop("Storno: Abend %(date)s wieder geöffnet"),
        ):
            for language in ("de", "en"):
                with translation.override(language):
                    # Before the date followed the language, every booking wrote 20.11.2026.
                    dates = {formats.date_format(day, "SHORT_DATE_FORMAT"), f"{day:%d.%m.%Y}"}
                    written = {gettext(message) % {"date": date} for date in dates}
                if self.text in written:
                    return gettext(message) % {"date": formats.date_format(day, "SHORT_DATE_FORMAT")}
        return self.text
