"""The presets; importing this package registers every one of them."""
from . import schafkopf  # noqa: F401
