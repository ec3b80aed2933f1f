"""Data: a club whose rules are already a Doppelkopf or a Skat rule set plays that game
(``Club.game``); every other club stays with Schafkopf, the default."""

from django.db import migrations

# The presets of each game other than Schafkopf as they stood when the game was added: frozen
# here on purpose, a migration never reads the live registry.
GAME_OF_PRESET = {"doppelkopf": "doppelkopf", "skat": "skat", "skat-seeger": "skat"}


def game_from_rules(apps, schema_editor):
    Club = apps.get_model("clubs", "Club")
    ClubRules = apps.get_model("scoring", "ClubRules")
    for preset, game in GAME_OF_PRESET.items():
        clubs = ClubRules.objects.filter(preset=preset).values("club_id")
        Club.objects.filter(pk__in=clubs).update(game=game)


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0004_club_game"),
        ("scoring", "0001_ledger_and_log"),
    ]

    operations = [migrations.RunPython(game_from_rules, migrations.RunPython.noop)]
