"""A pydantic validation error as the traveller reads it: one line naming the first bad field
(``validation_line``), or that field and message as an ``InputError`` (``input_error``) — so
the CLI's stderr line and the app's field message are made by one rule."""

from __future__ import annotations

from pydantic import ValidationError

from engine.errors import InputError
from engine.models.common import field_path


def _first(exc: ValidationError, prefix: str = "") -> tuple[str, str]:
    errors = exc.errors()
    err = errors[0]
    loc = field_path(err["loc"]) or prefix or "input"
    if prefix and loc != prefix:
        loc = f"{prefix}.{loc}" if not loc.startswith(prefix) else loc
    msg = err["msg"].removeprefix("Value error, ")
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return loc, f"{msg}{more}"


def validation_line(exc: ValidationError, prefix: str = "") -> str:
    """"field: message" of the first error, with how many more there are."""
    field, message = _first(exc, prefix)
    return f"{field}: {message}"


def input_error(exc: ValidationError) -> InputError:
    """The first error as an ``InputError`` naming its field (raise it ``from exc``)."""
    return InputError(*_first(exc))
