"""Logs an admin can read: a refused request is one line, a real error keeps its traceback.

Django logs a 403 (``PermissionDenied``), a 400 (``DisallowedHost``, any other
``SuspiciousOperation``) and other 4xx with the exception attached, so each probe of a club page
an outsider may not see wrote a whole traceback. ``RefusalsOnOneLine`` drops the
traceback of any record for a response below 500, or whose exception is one of those refusals,
and adds the refusal's reason to the line instead (escaped: a Host header is the client's text).
"""

from __future__ import annotations

import logging

from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation
from django.http import Http404

REFUSALS = (Http404, PermissionDenied, SuspiciousOperation, BadRequest)


class RefusalsOnOneLine(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        status = getattr(record, "status_code", None)
        refused = isinstance(exc, REFUSALS) or (isinstance(status, int) and status < 500)
        if refused and exc is not None:
            reason = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
            record.msg = f"{record.getMessage()} [{reason.encode('unicode_escape').decode('ascii')}]"
            record.args = ()
            record.exc_info = None
            record.exc_text = None
        return True
