"""Turning errors into one clear line on stderr and an exit code, never a traceback; and a
reader that stops reading stdout (``tripwright plan ... | head -1``) ends nothing but the output."""

from __future__ import annotations

import json
import os
import sys
from contextlib import contextmanager
from dataclasses import dataclass

from engine.errors import AuthError, FixtureError, InputError, StoreError, ToolError


@dataclass
class Outcome:
    code: int = 0


def _validation_error() -> type[BaseException]:
    """pydantic's ValidationError once pydantic is loaded (none can be raised before): ``--help``
    and the argument checks do not pay for importing it."""
    core = sys.modules.get("pydantic_core")
    return core.ValidationError if core is not None else _NeverRaised


class _NeverRaised(Exception):
    pass


@contextmanager
def cli_errors():
    outcome = Outcome()
    try:
        yield outcome
    except InputError as exc:
        _fail(outcome, 2, f"{exc.field}: {exc.message}")
    except _validation_error() as exc:
        _fail(outcome, 2, str(InputError.from_validation(exc)))
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
    except OSError as exc:
        if exc.filename is None:  # not a file-system failure (a socket, ...): a bug to see whole
            raise
        # A safety net: paths.py checks every argument path, so this is a file the engine uses.
        _fail(outcome, 2, f"{exc.filename}: {exc.strerror or exc}")
    except KeyboardInterrupt:
        _fail(outcome, 130, "interrupted")


@contextmanager
def quiet_broken_pipe():
    """Once stdout's reader is gone, send the rest of stdout to /dev/null and carry on, so the
    command still writes its files and returns its own exit code, without a traceback."""
    guarded = _PipeGuard(sys.stdout)
    sys.stdout = guarded
    try:
        yield
    finally:
        guarded.flush()
        sys.stdout = guarded.stream


class _PipeGuard:
    def __init__(self, stream) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except BrokenPipeError:
            self._to_devnull()
            return len(text)

    def flush(self) -> None:
        try:
            self.stream.flush()
        except BrokenPipeError:
            self._to_devnull()

    def _to_devnull(self) -> None:
        # What is still buffered then goes to /dev/null, also at interpreter exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, self.stream.fileno())
        finally:
            os.close(devnull)

    def __getattr__(self, name: str):
        return getattr(self.stream, name)


def _fail(outcome: Outcome, code: int, line: str) -> None:
    print(f"tripwright: {line.splitlines()[0]}", file=sys.stderr)
    outcome.code = code
