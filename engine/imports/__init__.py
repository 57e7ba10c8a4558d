"""Files the traveller brings in: saved places (My Maps KML/KMZ, Takeout GeoJSON, GPX, CSV) and
their pairing with the catalog's venues. Qt-free; every failure is one ``InputError("places", …)``.

the traveller's saved places (issue 21 §2): `saved_places.py` reads My Maps KML/KMZ, Takeout GeoJSON, GPX
waypoints and CSV (format by content, then extension) into `SavedPlace` values — XML only through defusedxml
with any DTD refused, KMZ read in memory (only `doc.kml`, size and ratio caps, no path escapes), ≤ 20 MB and
≤ 5,000 places, regular files only, a bad coordinate rejects the file naming the place; `place_match.py`
pairs each with the city's venue or restaurant it is (folded names, ≤ 150 m, nearest wins); `untrusted.py`
(issue 25) reads what notes and chat imports are handed — regular files only (opened without blocking), at
most cap + 1 bytes from a file or stdin, strict UTF-8, NUL and other control characters refused before
anything is stored
"""

from __future__ import annotations

from .collect import MAX_PLACES
from .model import PlacesImport, SavedPlace
from .place_match import MATCH_METRES, match_saved_places, names_match
from .saved_places import MAX_FILE_BYTES, detect_format, import_saved_places, parse_saved_places, read_saved_places

__all__ = ["MATCH_METRES", "MAX_FILE_BYTES", "MAX_PLACES", "PlacesImport", "SavedPlace", "detect_format",
           "import_saved_places", "match_saved_places", "names_match", "parse_saved_places", "read_saved_places"]
