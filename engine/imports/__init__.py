"""Files the traveller brings in: saved places (My Maps KML/KMZ, Takeout GeoJSON, GPX, CSV) and
their pairing with the catalog's venues. Qt-free; every failure is one ``InputError("places", …)``.

The names load on first use: a plan that only compares names (``names_match``, the booked-hotel
stage) does not load the file readers and their XML parsers."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .collect import MAX_PLACES
    from .model import PlacesImport, SavedPlace
    from .place_match import MATCH_METRES, match_saved_places, names_match
    from .saved_places import MAX_FILE_BYTES, detect_format, import_saved_places, parse_saved_places, read_saved_places

__all__ = ["MATCH_METRES", "MAX_FILE_BYTES", "MAX_PLACES", "PlacesImport", "SavedPlace", "detect_format",
           "import_saved_places", "match_saved_places", "names_match", "parse_saved_places", "read_saved_places"]

_WHERE = {"MAX_PLACES": "collect", "PlacesImport": "model", "SavedPlace": "model", "MATCH_METRES": "place_match",
          "match_saved_places": "place_match", "names_match": "place_match", "MAX_FILE_BYTES": "saved_places",
          "detect_format": "saved_places", "import_saved_places": "saved_places",
          "parse_saved_places": "saved_places", "read_saved_places": "saved_places"}


def __getattr__(name: str):
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
