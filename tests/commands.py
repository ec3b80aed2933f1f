"""``manage.py COMMAND`` as the shell runs it, in this process.

The same argument parsing, standard input (bytes under a text layer, as a pipe gives it),
standard output and error and exit code, without starting Python and Django again for every call
(about 1.5 s of CPU each, a good part of ``make test``'s ten minutes). What only a real process
shows (the terminal's encoding, the same plan in two processes, a database never migrated) keeps
its ``subprocess.run``."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from unittest import mock

from django.core.management import ManagementUtility
from django.db import connections


def manage(*argv: str, stdin: str | bytes | None = None) -> subprocess.CompletedProcess[str]:
    data = stdin.encode() if isinstance(stdin, str) else (stdin or b"")
    stdout, stderr = io.StringIO(), io.StringIO()
    code = 0
    saved_stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    try:
        # run_from_argv closes every database connection after the command: on PostgreSQL that
        # would end the test's own transaction (a command that reads or writes the test's data).
        with (
            contextlib.redirect_stdout(stdout),
            contextlib.redirect_stderr(stderr),
            mock.patch.object(connections, "close_all"),
        ):
            ManagementUtility(["manage.py", *argv]).execute()
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    finally:
        sys.stdin = saved_stdin
    return subprocess.CompletedProcess(["manage.py", *argv], code, stdout.getvalue(), stderr.getvalue())
