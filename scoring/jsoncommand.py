"""The shell shared by the spec's JSON commands (score_hand, score_session, rulesets …).

Reads one JSON document from standard input or from the file named as the only positional
argument, writes one JSON document to standard output. Invalid input prints the spec's error
object to standard output, one line to standard error, and exits 2 — never a traceback, never
a partial result (spec, introduction). The input is read as bytes and parsed by the one safe
reader (``scoring.safejson``); the output is written so that nothing the input carried
can make printing fail.
"""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandParser

from scoring import safejson
from scoring.engine.core import EngineError


def fail(error: EngineError, exit_code: int = 2) -> NoReturn:
    emit_json(error.as_dict())
    where = f" ({error.field})" if error.field else ""
    _say(f"Fehler{where}: {error.message}")
    raise SystemExit(exit_code)


def emit_json(value: Any, indent: int | None = None) -> None:
    """The document on standard output: readable umlauts where the output takes them, else (a
    terminal that is not UTF-8, a lone surrogate that slipped through) ASCII escapes — still the
    same JSON, never a failure. ``indent`` for a document people read (``rulesets``)."""
    try:
        if indent is None:
            text = safejson.dumps_printable(value)
        else:
            text = json.dumps(value, ensure_ascii=False, indent=indent)
        sys.stdout.write(text + "\n")
    except UnicodeEncodeError:
        sys.stdout.write(json.dumps(value, indent=indent) + "\n")


def _say(line: str) -> None:
    """One line on standard error; what its encoding cannot take (a lone surrogate from the
    command line, a terminal that is not UTF-8) is written as a backslash escape."""
    try:
        sys.stderr.write(line + "\n")
    except UnicodeEncodeError:
        encoding = getattr(sys.stderr, "encoding", None) or "ascii"
        sys.stderr.write(line.encode(encoding, "backslashreplace").decode(encoding) + "\n")


class JsonCommand(BaseCommand):
    """Subclasses implement ``run(doc)`` (or ``run_args`` for commands without input)."""

    reads_input = True
    indent: int | None = None  # a document people read (rulesets) is printed indented

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)

        def error(message: str) -> NoReturn:
            fail(EngineError("invalid_arguments", f"Ungültige Argumente: {message}", None))

        parser.error = error  # type: ignore[method-assign]
        return parser

    def add_arguments(self, parser: CommandParser) -> None:
        if self.reads_input:
            parser.add_argument("file", nargs="?", help="JSON-Datei (sonst Standardeingabe)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            doc = self._read(options.get("file")) if self.reads_input else None
            result = self.run(doc, **options)
        except EngineError as exc:
            fail(exc)
        except SystemExit:
            raise
        except Exception as exc:  # noqa: BLE001 - the contract forbids tracebacks
            fail(EngineError("internal_error", f"Interner Fehler: {type(exc).__name__}", None), exit_code=1)
        emit_json(result, indent=self.indent)

    def _read(self, path: str | None) -> Any:
        # One byte more than the reader takes tells an oversized input without holding all of it.
        limit = safejson.MAX_JSON_BYTES + 1
        try:
            if path:
                with open(path, "rb") as handle:
                    data = handle.read(limit)
            else:
                stdin = getattr(sys.stdin, "buffer", None)
                data = stdin.read(limit) if stdin is not None else sys.stdin.read(limit)
        except OSError as exc:
            raise EngineError("unreadable_input", f"Eingabe nicht lesbar: {exc.strerror}", "file") from None
        return safejson.loads(data)

    def run(self, doc: Any, **options: Any) -> Any:
        raise NotImplementedError
