"""The demo data of ``manage.py seed_demo``: clubs, evenings, a championship."""
