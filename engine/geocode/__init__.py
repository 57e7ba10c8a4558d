"""Geocoding for road-trip mode: an offline gazetteer (default), trust checks (seed 000 §4.4).

    from engine.geocode import default_gazetteer, check_point
    best = default_gazetteer().lookup("Kingman, AZ, USA")[0]     # confidence ≥ 0.8
    check_point(best.lat, best.lon, "us")                        # [] = trusted

Candidates below ``AMBIGUOUS_BELOW`` are ambiguous (INV-AMBIG-01/02). Importing this package is
cheap: each name loads its module on first use (a plan that only compares geocode requests
never loads the gazetteer), and the index is opened (or built, ~10 s once per installation) on first use.
"""

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .gazetteer import BuildStats, GazetteerIndex, data_dir, default_gazetteer, reset_default_gazetteer
    from .models import AMBIGUOUS_BELOW, HIGH_AT, GeoCandidate, GeocodeRequest
    from .normalize import normalise
    from .protocol import Geocoder
    from .trust import TRUST_BOXES, check_point, geodesic_miles, interpolate, isolated

__all__ = ["AMBIGUOUS_BELOW", "HIGH_AT", "TRUST_BOXES", "BuildStats", "GazetteerIndex",
           "GeoCandidate", "GeocodeRequest", "Geocoder", "check_point", "data_dir",
           "default_gazetteer", "geodesic_miles", "interpolate", "isolated", "normalise",
           "reset_default_gazetteer"]

_WHERE = {**dict.fromkeys(("BuildStats", "GazetteerIndex", "data_dir", "default_gazetteer", "reset_default_gazetteer"),
                          "gazetteer"),
          **dict.fromkeys(("AMBIGUOUS_BELOW", "HIGH_AT", "GeoCandidate", "GeocodeRequest"), "models"),
          "normalise": "normalize", "Geocoder": "protocol",
          **dict.fromkeys(("TRUST_BOXES", "check_point", "geodesic_miles", "interpolate", "isolated"), "trust")}


def __getattr__(name: str):
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
