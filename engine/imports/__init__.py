"""Files the traveller brings in: saved places (My Maps KML/KMZ, Takeout GeoJSON, GPX, CSV) and
their pairing with the catalog's venues. Qt-free; every failure is one ``InputError("places", …)``."""

from __future__ import annotations

from .collect import MAX_PLACES
from .model import PlacesImport, SavedPlace
from .place_match import MATCH_METRES, match_saved_places, names_match
from .saved_places import MAX_FILE_BYTES, detect_format, import_saved_places, parse_saved_places, read_saved_places

__all__ = ["MATCH_METRES", "MAX_FILE_BYTES", "MAX_PLACES", "PlacesImport", "SavedPlace", "detect_format",
           "import_saved_places", "match_saved_places", "names_match", "parse_saved_places", "read_saved_places"]
