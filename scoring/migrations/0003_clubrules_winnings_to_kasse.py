from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0002_entry_bock"),
    ]

    operations = [
        migrations.AddField(
            model_name="clubrules",
            name="winnings_to_kasse",
            field=models.BooleanField(default=False, verbose_name="Gewinne in die Vereinskasse"),
        ),
    ]
