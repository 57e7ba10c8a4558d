"""The published ItineraryV1 schema in docs/ is the model's schema, and real output validates."""

from __future__ import annotations

import json

import pytest

from engine.models.publish import SCHEMA_PATH, itinerary_schema_text


def test_published_schema_is_current():
    assert SCHEMA_PATH.read_text(encoding="utf-8") == itinerary_schema_text(), \
        "docs/itinerary.schema.json is stale: run .venv/bin/python -m engine.models.publish"


def test_schema_names_the_spec_fields():
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    for field in ("schema_version", "status", "message", "violations", "repairs", "days",
                  "cost_breakdown", "decisions", "citations", "trace_id"):
        assert field in schema["properties"], field
    activity = schema["$defs"]["Activity"]["properties"]
    for field in ("window", "kind", "name", "geo", "locked", "confidence", "provenance"):
        assert field in activity, field


def test_real_itinerary_validates_against_published_schema(tmp_path):
    import jsonschema
    import subprocess
    import sys
    from pathlib import Path
    intent = {"city": "Rome", "date_window": {"start": "2027-05-10", "end": "2027-05-13", "tz": "Europe/Rome"},
              "budget_usd_cents": 400000, "airports": ["FCO"], "origin_airport": "LHR",
              "prefs": {"themes": ["history"]}}
    (tmp_path / "i.json").write_text(json.dumps(intent))
    exe = Path(sys.executable).with_name("tripwright")
    subprocess.run([str(exe), "plan", "--intent", str(tmp_path / "i.json"), "--out", str(tmp_path / "o.json"),
                    "--today", "2026-11-23"], check=True, capture_output=True)
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.validate(json.loads((tmp_path / "o.json").read_text()), schema)
