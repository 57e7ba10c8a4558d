"""Publishes the JSON schema of ItineraryV1 to ``docs/itinerary.schema.json``.

    .venv/bin/python -m engine.models.publish
"""

from __future__ import annotations

import json
from pathlib import Path

from .itinerary import ItineraryV1

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "docs" / "itinerary.schema.json"


def itinerary_schema_text() -> str:
    schema = ItineraryV1.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://tripwright.invalid/schemas/itinerary-v1.json"
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def main() -> None:
    SCHEMA_PATH.write_text(itinerary_schema_text(), encoding="utf-8")
    print(f"wrote {SCHEMA_PATH}")


if __name__ == "__main__":
    main()
