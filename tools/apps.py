from django.apps import AppConfig


class ToolsConfig(AppConfig):
    """Tools for developers and operators (``manage.py bench``, ``manage.py seed_demo``, the
    synthetic history, the demo data): no code a request runs imports this app."""

    name = "tools"
