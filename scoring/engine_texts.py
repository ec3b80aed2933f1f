"""The German texts of the pure engine that pages show, marked for translation.

The engine (``scoring/engine``) imports no Django, so its option descriptions (``OptionSpec.doc``,
shown in the "Details" of the rules forms; the fields' labels are ``scoring.option_labels``) and
preset titles (``RuleSet.TITLE``) cannot be marked where they are written. They are marked here
with ``gettext_noop``, so ``make messages`` puts them into the catalogue, and the pages
translate them at run time with ``translated`` (the German text is the msgid).
``tests/test_i18n.py`` checks that this list is exactly the engine's texts: an option added to
the engine without its line here fails there, naming the line to add.

The JSON format (``manage.py rulesets``) keeps the German texts: it is a contract, not a page.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

PRESET_TITLES = (
    gettext_noop("Schafkopf-Freunde Allgäu (Geld)"),
    gettext_noop("Zockmeisterschaft der Schafkopf-Freunde Allgäu (Punkte)"),
    gettext_noop("Doppelkopf (Hausregeln)"),
    gettext_noop("Der reine Schafkopf (Zähleinheiten)"),
    gettext_noop("Saukopf (Vierhaxer und Dreihaxer)"),
    gettext_noop("Bayerischer Schafkopf (Standardtarif)"),
    gettext_noop("Skat (Spielliste nach ISkO)"),
    gettext_noop("Skat nach Seeger-Fabian (Turnierliste)"),
)

OPTION_TEXTS = (
    gettext_noop("Grundpreis Rufspiel"),
    gettext_noop("Grundpreis Solo, Wenz, Geier, Farbwenz … (jedes Einzelspiel)"),
    gettext_noop("Grundpreis Bettel/Betteln"),
    gettext_noop("Grundpreis Mungo/Ramsch"),
    gettext_noop("Grundpreis Leasters (003 §3.4)"),
    gettext_noop("Aufschlag Schneider"),
    gettext_noop("Aufschlag Schwarz (zusätzlich zum Schneider)"),
    gettext_noop("Aufschlag je Laufender"),
    gettext_noop("Laufende werden ab dieser Zahl bezahlt"),
    gettext_noop("… bei Wenz, Geier, Königssolo"),
    gettext_noop("Nur Ober und Unter zählen als Laufende"),
    gettext_noop("Augen, die die Spielerpartei zum Gewinnen braucht"),
    gettext_noop("Spielerpartei ist mit höchstens so vielen Augen Schneider"),
    gettext_noop("Gegenpartei ist mit höchstens so vielen Augen Schneider"),
    gettext_noop(
        "Spritze übernimmt das Spiel: bei 60:60 und mit genau 30 Augen verliert bzw. ist Schneider, wer"
        " zuletzt gespritzt hat (001 §6.2)"
    ),
    gettext_noop("Höchstzahl der Stöße/Spritzen"),
    gettext_noop(
        "Deckel/Klopfer: none = gibt es nicht, optional, pflicht = Dauerdeckel (ohne Deckel nur Mungo, Tout oder Sie)"
    ),
    gettext_noop("Jeder Deckel verdoppelt den Preis"),
    gettext_noop("Höchstzahl der Deckel"),
    gettext_noop("Faktor für Tout"),
    gettext_noop("Faktor für Sie"),
    gettext_noop("Erlaubte Spiele"),
    gettext_noop(
        "mungo = die zwei mit den wenigsten Augen gewinnen (001 §4.3.2); ramsch = wer die meisten Augen"
        " hat, verliert (003 §3.1)"
    ),
    gettext_noop("Gleichstand dreier Mungospieler: aufgeteilt wird der Spielpreis (price) oder das Doppelte (double)"),
    gettext_noop("Anteile beim Dreier-Gleichstand werden auf dieses Vielfache aufgerundet"),
    gettext_noop("Spezielle Runden (001 §5) gibt es"),
    gettext_noop("Steigern (003 §2.1): gebotene Augen + 1 zum Gewinnen"),
    gettext_noop("Renonce (003 §2.5.1) erlaubt"),
    gettext_noop("Muss-Spiel (003 §3.3): kein Stoß erlaubt"),
    gettext_noop("Strafwertung bei Fehlern (002 §11)"),
    gettext_noop("Minuspunkte für einen Fehler im Rufspiel (002 §11)"),
    gettext_noop("Minuspunkte für einen Fehler im Solo, Wenz oder Tout (002 §11)"),
    gettext_noop("Cent je Zähleinheit; 0 = in Zähleinheiten abrechnen"),
    gettext_noop(
        "Nur Pluspunkte (Preisschafkopf): die Gewinner bekommen ihre Punkte, den Verlierern wird"
        " nichts geschrieben; nicht Null-Summe, nur bei Punkten oder Zähleinheiten"
    ),
    gettext_noop(
        "Was eine Bockrunde auslöst: 6060/120120 = Gleichstand, 3090 = 30:90, kontra_lost = die Partei, die"
        " zuletzt gestoßen (Kontra/Re) hat, verliert, schwarz = eine Partei ohne Stich, herz_solo_lost ="
        " ein Herz-Solo verloren, four_deckel = mindestens vier Deckel (001 §5.1, 003 §4.1)"
    ),
    gettext_noop(
        "queue = Runden werden nie gemeinsam gespielt, sondern nacheinander (001 §5); stack = Bockrunden"
        " überlagern sich, jede laufende verdoppelt noch einmal"
    ),
    gettext_noop(
        "Nach einem Spiel, in dem eine Partei keinen Stich macht (nicht Bettel oder Mungo), wird eine"
        " Mungorunde gespielt; die erste des Abends zwingend, danach wird abgestimmt (001 §5.2)"
    ),
    gettext_noop(
        "Karten kaufen zu fünft und zu sechst: der Käufer zahlt dem Verkäufer so viel, nie verdoppelt (001"
        " §7.1 'Entweder er zahlt und spielt'; der Betrag steht dort nicht: voreingestellt ist der"
        " Grundpreis eines Rufspiels)"
    ),
    gettext_noop(
        "Stock: allgaeu = Vergeben/Verabheben zahlen in den Stock, er wird in der Gardareizrunde mit einem"
        " gewonnenen Herz-Solo gewonnen (001 §8.1, §8.2, §5.3); anhang_c = bei 'zusammengeworfen' zahlt"
        " jeder Mitspieler eine Einheit (den Rufspiel-Preis), das nächste gewonnene Rufspiel holt ihn, ein"
        " verlorenes doppelt ihn auf (003 §3.2); none = kein Stock"
    ),
    gettext_noop("Stock: das erste Vergeben/Verabheben eines Spielers kostet"),
    gettext_noop("Stock: jedes weitere Vergeben/Verabheben kostet"),
    gettext_noop(
        "Stock: ein verlorenes Herz-Solo in der Gardareizrunde doppelt den Stock auf, höchstens um diesen"
        " Betrag (001 §5.3 'max. 2 €')"
    ),
    gettext_noop(
        "Gibt einer, der nicht an der Reihe ist: bockspiel = ein Bockspiel ohne Deckel, danach gibt, wer an"
        " der Reihe war (001 §8.4); continue = normal gewertet, es geht bei ihm weiter"
    ),
    gettext_noop(
        "Each Bock doubling in force (context.bock) doubles the hand's value, Sonderpunkte included. Off:"
        " the club plays without Bock, and a hand under Bock is refused."
    ),
    gettext_noop(
        "Both sides made an Absage and neither reached its target: each side earns the points for the"
        " other's failed Absage and the two are netted (net), or the game counts nothing and only the"
        " Sonderpunkte are scored (void)."
    ),
    gettext_noop(
        "004 §8: a side that won without any announcement while the other side stayed under 60 loses the"
        " game (the other side wins, simply valued); a side that announced but not 'keine 90' while the"
        " other side stayed under 30 scores a Nullspiel (0 for everyone)."
    ),
    gettext_noop(
        "004 §7: a wedding without partner (scored as a solo) in which the wedding player took under 30"
        " Augen 'gilt als einfach gewertet gewonnen': the opponents win with a game value of 1"
        " (opponents_simple), the wedding player wins with 1 (wedding_simple), or no special rule"
        " (as_solo)."
    ),
    gettext_noop(
        "Das so-vielte Vergeben derselben Geberin in Folge bringt jeder Spielerin am Tisch einen Punkt, die"
        " Geberin zahlt die Summe (004 §5); 0 = nie"
    ),
    gettext_noop("Die Verliererpartei ist Schneider mit weniger Augen als diesen (000 Kopfgeld: 'unter 30 Augen')"),
    gettext_noop(
        "Feige Sau: der Spieler muss unter der Hälfte von 120 minus Gebot bleiben, statt sie nicht zu"
        " überschreiten (entscheidet nur bei ganzer Hälfte: Gebot 90, 15 Augen verlieren)"
    ),
    gettext_noop(
        "Kontra und Re (Hausregel, skat.md §7): jedes verdoppelt den Spielwert und den Listeneintrag"
        " (kontra: 1 = Kontra, 2 = Re)"
    ),
    gettext_noop(
        "Bockrunden (Hausregel, skat.md §7): nach einem Auslöser zählt die nächste Runde (ein Spiel je Spieler"
        " am Tisch) doppelt. 6060 = ein Spiel 60:60 verloren, kontra_re_lost = ein Spiel nach Kontra und Re"
        " verloren, grand_hand_won = ein Grand Hand gewonnen, hundred = ein Listenstand wird ein Vielfaches"
        " von 100; true = alle"
    ),
    gettext_noop(
        "Ramsch, wenn alle passen (Hausregel, skat.md §7): wer die meisten Augen hat, wird mit so vielen"
        " Punkten minus geschrieben"
    ),
    gettext_noop("Ramsch: ein Spieler ohne Stich (Jungfrau) verdoppelt den Wert"),
    gettext_noop("Ramsch: wer alle Stiche macht (Durchmarsch), wird mit +120 geschrieben"),
    gettext_noop(
        "Schieberamsch: jeder, der den Skat ungesehen weitergibt, verdoppelt den Wert des Ramschs (geschoben)"
    ),
    gettext_noop(
        "Nur die Buben zählen als Spitzen (manche Vereins- und Preislisten): im Farbspiel höchstens mit/ohne 4"
    ),
    gettext_noop("Cent je Punkt der Liste (eine ganze Zahl ab 1); leer = in Punkten abrechnen"),
    gettext_noop(
        "Verlustspielgeld (skat.md §6): jedes verlorene Spiel einer Liste kostet den Alleinspieler eine"
        " Gebühr in die Kasse, in Cent, neben den Punkten der Liste"
    ),
    gettext_noop("Verlustspielgeld je verlorenes Spiel für die ersten Spiele einer Liste (Cent)"),
    gettext_noop("Verlustspielgeld je weiteres verlorenes Spiel einer Liste (Cent)"),
    gettext_noop("So viele verlorene Spiele einer Liste kosten den ersten Betrag, jedes weitere den zweiten"),
)


def translated(text: str) -> str:
    """An engine text (a preset's title, an option's description) in the active language."""
    return gettext(text)
