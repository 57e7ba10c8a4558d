"""ItineraryV1 to and from JSON files, with one-line errors naming the bad field."""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import ValidationError

from engine.errors import InputError
from engine.models import ItineraryV1, PlanFailure


def itinerary_to_json(itin: ItineraryV1) -> str:
    return itin.model_dump_json(indent=2)


def load_itinerary(path: str | os.PathLike[str], *, strict: bool = False) -> ItineraryV1:
    """Read and validate an itinerary file; any problem becomes an ``InputError``. ``strict``
    (``tripwright verify``) holds the file to the published schema: no "12" for an integer."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise InputError("path", f"cannot read {os.fspath(path)}: {exc.strerror or exc}") from None
    return parse_itinerary(raw, strict=strict)


def parse_itinerary(raw: bytes | str, *, strict: bool = False) -> ItineraryV1:
    """Validate an itinerary document (JSON text); any problem becomes an ``InputError``.

    pydantic's parser refuses invalid UTF-8 and caps nesting depth, so hostile bytes end here too.
    """
    try:
        return ItineraryV1.model_validate_json(raw, strict=strict)
    except ValidationError as exc:
        raise _input_error(exc) from None


def _input_error(exc: ValidationError) -> InputError:
    # Invalid JSON and a non-object top level have an empty loc: blame the document as a whole.
    found = InputError.from_validation(exc, default="itinerary")
    return InputError(found.field, " ".join(found.message.split()))


def parse_plan_failure(raw: bytes | str) -> PlanFailure | None:
    """The exit-3 failure document ``tripwright plan --out`` writes, or None when ``raw`` is not one:
    lets ``verify`` say "holds no plan" instead of a schema error."""
    try:
        return PlanFailure.model_validate_json(raw)
    except ValidationError:
        return None
