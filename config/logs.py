"""Log formatting for the console log (``config.settings.LOGGING``)."""

from __future__ import annotations

import copy
import logging


class OneLineFormatter(logging.Formatter):
    """The message without the traceback attached to it: for expected refusals, where the
    traceback says nothing the message does not (DisallowedHost)."""

    def __init__(self) -> None:
        super().__init__("%(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        record = copy.copy(record)
        record.exc_info = None
        record.exc_text = None
        record.stack_info = None
        return super().format(record).replace("\n", " ")
