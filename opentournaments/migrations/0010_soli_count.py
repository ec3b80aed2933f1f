# Issue 31 §6: what a phone table counts as a player's Soli (spec §5 soli_count). Tournaments made
# before keep the spec's default, every Solo declared.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('opentournaments', '0004_points_tariff_default'),
    ]

    operations = [
        migrations.AddField(
            model_name='opentournament',
            name='soli_count',
            field=models.CharField(choices=[('declared', 'jedes Solo, gewonnen oder verloren'), ('won', 'nur gewonnene Soli')], default='declared', max_length=10, verbose_name='Soli zählen'),
        ),
    ]
