"""One structured path from a pydantic ValidationError to our InputError (issue 30 §4): the field
and the message come from the error itself, never from text parsed back with ``partition``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import BaseModel, ValidationError, field_validator

from engine.cli.errors import cli_errors
from engine.errors import InputError
from engine.export import parse_itinerary
from engine.models import IntentV1

ROOT = Path(__file__).resolve().parents[2]


class _Trip(BaseModel):
    city: str
    days: int

    @field_validator("city")
    @classmethod
    def _named(cls, value: str) -> str:
        if ": " in value:
            raise ValueError("a city name has no ': ' in it: pick one")
        return value


def _error(data) -> ValidationError:
    with pytest.raises(ValidationError) as err:
        _Trip.model_validate(data)
    return err.value


def test_the_first_error_names_its_field_and_keeps_a_colon_in_its_message():
    error = InputError.from_validation(_error({"city": "Paris: France", "days": 2}))
    assert (error.field, error.message) == ("city", "a city name has no ': ' in it: pick one")


def test_more_errors_are_counted_and_a_prefix_is_kept():
    error = InputError.from_validation(_error({"days": "x"}), prefix="intent")
    assert error.field == "intent.city"
    assert error.message == "Field required (and 1 more)"


def test_an_error_without_a_location_names_the_default():
    error = InputError.from_validation(_error([1, 2]), default="itinerary")
    assert error.field == "itinerary" and error.message.startswith("Input should be")


def test_a_real_intent_error_reads_as_the_cli_prints_it(capsys):
    with pytest.raises(ValidationError) as err:
        IntentV1.model_validate({"mode": "city", "city": "Paris"})
    error = InputError.from_validation(err.value)
    assert error.field == "date_window" and error.message.startswith("Field required (and ")
    with cli_errors() as outcome:
        raise err.value
    assert outcome.code == 2
    assert capsys.readouterr().err.strip() == f"tripwright: {error.field}: {error.message}"


def test_a_bad_itinerary_file_names_its_field():
    with pytest.raises(InputError) as err:
        parse_itinerary("[]")
    assert err.value.field == "itinerary"


def test_no_module_parses_an_error_line_back():
    found = sorted(p.relative_to(ROOT).as_posix() for folder in ("engine", "app", "widgets")
                   for p in (ROOT / folder).rglob("*.py")
                   if re.search(r"""\.partition\(": "\)""", p.read_text(encoding="utf-8")))
    assert found == []
