"""The shell shared by the spec's JSON commands (score_hand, score_session, rulesets …).

Reads one JSON document from standard input or from the file named as the only positional
argument, writes one JSON document to standard output. Invalid input prints the spec's error
object to standard output, one line to standard error, and exits 2 — never a traceback, never
a partial result (spec, introduction).
"""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandParser

from scoring.engine.core import EngineError


def fail(error: EngineError, exit_code: int = 2) -> NoReturn:
    sys.stdout.write(json.dumps(error.as_dict(), ensure_ascii=False) + "\n")
    where = f" ({error.field})" if error.field else ""
    sys.stderr.write(f"Fehler{where}: {error.message}\n")
    raise SystemExit(exit_code)


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
        sys.stdout.write(json.dumps(result, ensure_ascii=False, indent=self.indent) + "\n")

    def _read(self, path: str | None) -> Any:
        try:
            if path:
                with open(path, encoding="utf-8") as handle:
                    text = handle.read()
            else:
                text = sys.stdin.read()
        except OSError as exc:
            raise EngineError("unreadable_input", f"Eingabe nicht lesbar: {exc.strerror}", "file") from None
        except UnicodeDecodeError:
            raise EngineError("invalid_json", "Die Eingabe ist kein UTF-8-Text.", None) from None
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            msg = f"Kein gültiges JSON (Zeile {exc.lineno}, Spalte {exc.colno}): {exc.msg}"
            raise EngineError("invalid_json", msg, None) from None

    def run(self, doc: Any, **options: Any) -> Any:
        raise NotImplementedError
