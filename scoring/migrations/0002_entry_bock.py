from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0001_ledger_and_log"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="bock",
            field=models.PositiveSmallIntegerField(default=0, verbose_name="Bock"),
        ),
    ]
