from django.apps import AppConfig


class StandingsConfig(AppConfig):
    """The reading side: standings, statistics, charts and their exports. It reads the ledger
    that ``scoring`` writes and owns no models."""

    name = "standings"
