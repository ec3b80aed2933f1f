"""The presets; importing this package registers every one of them."""
from . import saukopf  # noqa: F401
from . import schafkopf  # noqa: F401
