"""ItineraryV1 as KMZ for the maps apps travellers use offline (Organic Maps, OsmAnd, Google Earth):
the trip's KML (``kml_export.py``: a folder per day, each place a placemark named as in the plan,
each day's route a line) zipped as ``doc.kml``, the one file a KMZ reader opens first.

The archive is the same bytes for the same trip (its entry dated from the itinerary, not the clock).
Booking confirmation codes are masked, as in the KML: a map file is shared."""

from __future__ import annotations

import io
import zipfile

from engine.models import ItineraryV1

from ._trip import as_utc
from .kml_export import itinerary_to_kml

KMZ_ENTRY = "doc.kml"


def itinerary_to_kmz(itin: ItineraryV1) -> bytes:
    """The KMZ file's bytes: ``doc.kml`` (deflated), dated when the itinerary was made."""
    made = as_utc(itin.created_at)
    entry = zipfile.ZipInfo(KMZ_ENTRY, date_time=(max(made.year, 1980), made.month, made.day,
                                                   made.hour, made.minute, made.second))
    entry.compress_type = zipfile.ZIP_DEFLATED
    entry.external_attr = 0o644 << 16
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(entry, itinerary_to_kml(itin).encode("utf-8"))
    return buffer.getvalue()
