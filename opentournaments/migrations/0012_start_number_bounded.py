# Issue 31 §9: start numbers from 1 to 9999 on every database (PostgreSQL's small integer stopped
# at 32,767 where SQLite stored anything).

import django.core.validators
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('opentournaments', '0011_in_club_standings'),
    ]

    operations = [
        migrations.AlterField(
            model_name='registration',
            name='start_number',
            field=models.PositiveSmallIntegerField(validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(9999)], verbose_name='Startnummer'),
        ),
        migrations.AddConstraint(
            model_name='registration',
            constraint=models.CheckConstraint(condition=models.Q(('start_number__lte', 9999)), name='registration_start_number_bounded'),
        ),
    ]
