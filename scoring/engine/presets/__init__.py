"""The presets; importing this package registers every one of them."""
from . import doppelkopf  # noqa: F401
from . import saukopf  # noqa: F401
from . import schafkopf  # noqa: F401
