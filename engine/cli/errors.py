"""Turning errors into one clear line on stderr and an exit code, never a traceback."""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from dataclasses import dataclass

from pydantic import ValidationError

from engine.models.common import field_path
from engine.errors import AuthError, FixtureError, InputError, StoreError, ToolError


@dataclass
class Outcome:
    code: int = 0


def validation_line(exc: ValidationError, prefix: str = "") -> str:
    err = exc.errors()[0]
    loc = field_path(err["loc"]) or prefix or "input"
    if prefix and loc != prefix:
        loc = f"{prefix}.{loc}" if not loc.startswith(prefix) else loc
    msg = err["msg"].removeprefix("Value error, ")
    more = f" (and {len(exc.errors()) - 1} more)" if len(exc.errors()) > 1 else ""
    return f"{loc}: {msg}{more}"


@contextmanager
def cli_errors():
    outcome = Outcome()
    try:
        yield outcome
    except InputError as exc:
        _fail(outcome, 2, f"{exc.field}: {exc.message}")
    except ValidationError as exc:
        _fail(outcome, 2, validation_line(exc))
    except json.JSONDecodeError as exc:
        _fail(outcome, 2, f"malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}")
    except StoreError as exc:
        _fail(outcome, 2, f"database: {exc}")
    except AuthError as exc:
        _fail(outcome, 2, f"login: {exc}")
    except ToolError as exc:
        _fail(outcome, 3, f"{exc.tool} unavailable: {exc.reason}")
    except FixtureError as exc:
        _fail(outcome, 1, f"embedded data problem: {exc}")
    except KeyboardInterrupt:
        _fail(outcome, 130, "interrupted")


def _fail(outcome: Outcome, code: int, line: str) -> None:
    print(f"tripwright: {line.splitlines()[0]}", file=sys.stderr)
    outcome.code = code
