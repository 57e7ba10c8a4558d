"""A round trip from home with no named route and no turnaround: where to turn.

The loop goes out to a sizeable town about half the trip's comfortable driving away and comes
back through other towns (the planner makes towns slept in on the way out cost more on the way
back). The turnaround is the most populous town in a ring around home, inside the trip's region
and trust boundary, so the choice is deterministic and explainable.
"""

from __future__ import annotations

from engine.errors import InputError
from engine.geocode.trust import check_point, geodesic_miles

from .plan import Place
from .resolve import region_name

COMFORT_MILES_PER_DAY = 250.0  # a loop is a holiday, not a delivery run
CAP_SHARE = 0.75
ROAD_FACTOR = 1.3
AWAY_FROM_HOME_MILES = 16.0  # INV-DIR-03: no night or visit in the home town but the last


def loop_turnaround(origin: Place, region: str, geocoder, *, days: int, cap: float) -> Place:
    """The town the loop turns at, for ``days`` days out."""
    reach = days * min(cap * CAP_SHARE, COMFORT_MILES_PER_DAY) / ROAD_FACTOR
    for inner, min_population in ((0.6, 50_000), (0.3, 10_000), (0.15, 2_000)):
        found = _ring(origin, region, geocoder, reach, inner, min_population)
        if found is not None:
            return found
    raise InputError("terminus", f"no town to turn around at within {reach:.0f} mi of {origin.label}; "
                                 "name one (e.g. 'Denver to Moab and back')")


def _ring(origin: Place, region: str, geocoder, reach: float, inner: float, min_population: int) -> Place | None:
    from .planner import EUROPE
    towns = geocoder.nearby(origin.lat, origin.lon, radius_miles=reach, min_population=min_population, limit=400)
    for c in towns:  # largest first
        miles = geodesic_miles(origin.point, (c.lat, c.lon))
        home_region = (c.country == "US") if region == "us" else (c.country in EUROPE)
        if miles >= max(reach * inner, AWAY_FROM_HOME_MILES * 2) and home_region and not check_point(c.lat, c.lon, region):
            return Place(name=c.name, lat=c.lat, lon=c.lon, admin1=region_name(c), country=c.country,
                         source="gazetteer")
    return None
