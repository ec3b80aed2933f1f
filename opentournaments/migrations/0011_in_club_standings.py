# Issue 31 §8: a tournament's phone games count in the club's standings only where the club says so.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('opentournaments', '0010_soli_count'),
    ]

    operations = [
        migrations.AddField(
            model_name='opentournament',
            name='in_club_standings',
            field=models.BooleanField(default=False, verbose_name='Spiele am Handy zählen in der Vereinswertung'),
        ),
    ]
