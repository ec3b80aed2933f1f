"""The offline score sheet's texts (``offline-table.js``), translated where the page is made and
handed to the script as one JSON object (``{% offline_texts %}``). ``{name}`` marks a value the
script fills in."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

TEXTS = {
    "offline": _("Offline: Einträge bleiben auf diesem Telefon und werden übertragen, sobald wieder Netz ist."),
    "loading": _("Das Handy macht sich bereit …"),
    "failed": _("Ohne Netz ist diese Liste auf diesem Telefon noch nicht eingerichtet: einmal mit Netz öffnen."),
    "heading": _("Noch nicht übertragen"),
    "waiting": _("noch nicht übertragen"),
    "sending": _("wird übertragen …"),
    "otherLogin": _(
        "Auf diesem Telefon ist jetzt eine andere Anmeldung aktiv: Einträge werden nur unter der "
        "Anmeldung übertragen, unter der sie eingegeben wurden. Seite neu laden."
    ),
    "foreignHeading": _("Von einer anderen Anmeldung eingegeben"),
    "foreign": _(
        "Nr. {n}: auf diesem Telefon von {by} eingegeben und nicht übertragen. Diese Anmeldung überträgt "
        "den Eintrag, sobald sie hier wieder angemeldet ist."
    ),
    "someone": _("einer früheren Anmeldung"),
    "adopt": _("Unter meiner Anmeldung übertragen"),
    "adoptConfirm": _("Diesen Eintrag unter Ihrer Anmeldung übertragen? Er wird dann als Ihr Eintrag gespeichert."),
    "retry": _("Übertragen gerade nicht möglich (abgemeldet oder keine Verbindung); es wird wieder versucht."),
    "moved": _(
        "Eingegeben als Nr. {typed}, gespeichert als Nr. {stored}: inzwischen hat ein anderes Gerät "
        "eingetragen. Die Liste zeigt die Beträge des Servers."
    ),
    # Fewer entries than when it was typed: another device deleted one (hunt 30).
    "movedUp": _(
        "Eingegeben als Nr. {typed}, gespeichert als Nr. {stored}: inzwischen wurde an diesem Tisch ein Eintrag "
        "gelöscht. Die Liste zeigt die Beträge des Servers."
    ),
    "conflict": _("Nicht übertragen: {reason}"),
    "blocked": _("wartet, bis Nr. {n} geklärt ist"),
    "fix": _("Ins Formular laden"),
    "discard": _("Verwerfen"),
    "discardConfirm": _("Diesen Eintrag wirklich verwerfen? Er wird dann nicht übertragen."),
    "dismiss": _("Gelesen"),
    "totals": _("Summe mit diesen Einträgen"),
    "dealer": _("Nach den Einträgen auf diesem Telefon gibt: {name}"),
    "saved": _("Nr. {n} auf diesem Telefon gespeichert, noch nicht übertragen."),
    "missing": _("Noch offen: {what}"),
    "value": _("Spielwert {value}"),
    "unknown": _(
        "Ohne Netz rechnet dieses Formular nicht vor; der Eintrag wird gespeichert und nach dem Übertragen berechnet."
    ),
    "amountLater": _("Betrag nach dem Übertragen"),
    "hint": _("Die Auszahlung erscheint hier, sobald das Spiel vollständig ist."),
    # the table state of the phone's own fold, as _state.html says it
    "giver": _("Es gibt:"),
    "sittingOut": _("Setzt aus:"),
    "deckelRequired": _("Deckel Pflicht"),
    "voteDue": _("Abstimmung fällig: Mungorunde oder Bockrunde?"),
    "stock": _("Stock:"),
    "rounds": _("Runden:"),
    "gamesLeft": _("Spiele übrig: {n}"),
    "running": _("läuft"),
    "queued": _("wartet"),
    "stoeckle": _("Stöckle noch zu spielen"),
    "allPlayed": _("alle gespielt"),
    "mustPlay": _("Will keiner spielen, muss {who} spielen"),
    "notInRound": _("nicht in der {round}"),
    "triggers": _("Löst aus:"),
    # issue 30: undo and discard of what waits on the phone, what went when the signal came back
    "offlineMark": _("offline"),
    "undoWaiting": _("Nr. {n} rückgängig (auf diesem Telefon)"),
    "undoConfirm": _(
        "Nr. {n} ({what}) zurücknehmen? Der Eintrag wartet noch auf diesem Telefon und wird nie übertragen."
    ),
    "undone": _("Nr. {n} zurückgenommen (war noch nicht übertragen): {what}"),
    "undoNeedsSignal": _(
        "Ohne Netz wartet auf diesem Telefon kein Eintrag, der zurückgenommen werden könnte; "
        "gespeicherte Einträge mit Netz rückgängig machen."
    ),
    "discarded": _("Nr. {n} verworfen (war noch nicht übertragen)."),
    "sentOne": _("1 Eintrag übertragen."),
    "sentMany": _("{n} Einträge übertragen."),
}
