"""The presets; importing this package registers every one of them."""
from . import (
    doppelkopf,  # noqa: F401
    saukopf,  # noqa: F401
    schafkopf,  # noqa: F401
)
