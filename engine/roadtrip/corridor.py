"""The corridor a road trip follows: a named route, or the geodesic between its ends."""

from __future__ import annotations

import shapely
from pyproj import Geod
from shapely.geometry import LineString

from .projected_line import ProjectedLine, route_projection, transformers
from .routes import Route

DIRECT_ROAD_FACTOR = 1.3  # seed INV-PACE-02: straight-line miles × 1.3 ≈ road miles
GEODESIC_STEP_M = 10_000


def geodesic_lonlats(a: tuple[float, float], b: tuple[float, float]) -> list[tuple[float, float]]:
    """The geodesic from ``a`` to ``b`` ((lat, lon) each) as (lon, lat) points every ~10 km."""
    geod = Geod(ellps="WGS84")
    _, _, dist = geod.inv(a[1], a[0], b[1], b[0])
    inner = geod.npts(a[1], a[0], b[1], b[0], max(1, int(dist // GEODESIC_STEP_M)))
    return [(a[1], a[0]), *inner, (b[1], b[0])]


class DirectCorridor(ProjectedLine):
    """No named route: a band around the geodesic from origin to terminus (same measurement API
    as :class:`Route`; ``road_factor`` turns its miles into driving miles)."""

    name = "direct"
    road_factor = DIRECT_ROAD_FACTOR
    own_towns = False  # no towns associated with it (INV-CORR-03 does not apply)

    def __init__(self, a: tuple[float, float], b: tuple[float, float]) -> None:
        self._set_line(geodesic_lonlats(a, b))

    def _set_line(self, lonlats: list[tuple[float, float]]) -> None:
        """The corridor's line in its own equidistant projection (metres), ready for distance queries."""
        self._proj = route_projection(lonlats)
        self._fwd, self._inv = transformers(self._proj)
        xs, ys = self._fwd.transform([p[0] for p in lonlats], [p[1] for p in lonlats])
        self._line = LineString(list(zip(xs, ys)))
        shapely.prepare(self._line)
        self._length_m = float(self._line.length)
        self.__dict__.pop("answers", None)  # projections made on a previous line (ProjectedLine._answers)
        self.__dict__.pop("gazetteer_towns", None)  # and the towns along it

    def towns_in_corridor(self, max_miles: float) -> list:
        return []  # no named route: towns come from the gazetteer (gazetteer_towns)

    def pois_in_corridor(self, max_miles: float) -> list:
        return []


class TrackCorridor(DirectCorridor):
    """An imported route (GPX/KML): the track is the road, so no road factor; towns come from
    the gazetteer along it, as for a direct corridor."""

    road_factor = 1.0

    def __init__(self, points: list[tuple[float, float]], name: str = "imported route") -> None:
        self.name = name
        self._set_line([(lon, lat) for lat, lon in points])


def track_corridor(track: list[tuple[float, float]], name: str | None, origin: tuple[float, float],
                   terminus: tuple[float, float]) -> TrackCorridor:
    """The imported track in the direction of travel (reversed when the terminus lies behind)."""
    corridor = TrackCorridor(list(track), name or "imported route")
    if origin != terminus and corridor.progress_miles(*terminus) < corridor.progress_miles(*origin):
        corridor = TrackCorridor(list(track)[::-1], name or "imported route")
    return corridor


def road_factor(corridor) -> float:
    """Route polylines follow the road (unless the fixture gives the driven length of a route
    whose hairpins it skips); a direct corridor needs the seed's 1.3 factor."""
    if isinstance(corridor, Route):
        driven = corridor.raw.driven_length_miles
        return driven / corridor.length_miles() if driven else 1.0
    return getattr(corridor, "road_factor", 1.0)


TOWN_SAMPLE_MILES = 30.0  # search radius around each sample point
TOWN_SAMPLE_STEP_MILES = 40.0  # sample spacing: the circles overlap on the centreline


def gazetteer_towns(corridor, geocoder, corridor_miles: float, *, min_population: int = 2000) -> list:
    """Towns along a corridor from the gazetteer, as route-town rows ordered by progress: the
    anchor and break candidates when no named route lists its own towns. Kept on the corridor
    (a named route keeps its own towns likewise): a corridor the process keeps — a land corridor,
    ``land_route.land_corridor`` — is planned again without asking the gazetteer ~80 times."""
    kept = corridor.__dict__.setdefault("gazetteer_towns", {})
    key = (geocoder, corridor_miles, min_population)  # the geocoder itself: kept alive, never mistaken
    try:
        found = kept.get(key)
    except TypeError:  # a geocoder that cannot be a key: asked afresh
        return _gazetteer_towns(corridor, geocoder, corridor_miles, min_population)
    if found is None:
        found = kept[key] = _gazetteer_towns(corridor, geocoder, corridor_miles, min_population)
    return list(found)


def _gazetteer_towns(corridor, geocoder, corridor_miles: float, min_population: int) -> list:
    from .resolve import region_name
    from .route_schema import RouteTown
    from .routes import TownOnRoute

    radius = min(corridor_miles, TOWN_SAMPLE_MILES)
    seen: dict[str, TownOnRoute] = {}
    steps = max(1, int(corridor.length_miles() // TOWN_SAMPLE_STEP_MILES))
    for k in range(steps + 1):
        lat, lon = corridor.point_at(corridor.length_miles() * k / steps)
        found = geocoder.nearby(lat, lon, radius_miles=radius, min_population=min_population, limit=8)
        # An empty stretch (desert, mountains) takes its villages: better nights than a mile marker.
        for c in found or geocoder.nearby(lat, lon, radius_miles=radius, min_population=0, limit=4):
            key = f"geonames_{c.feature_id.split(':')[-1]}".lower()
            if key in seen or not key.replace("_", "").isalnum():
                continue
            progress, offset = corridor.measure(c.lat, c.lon)
            if offset <= corridor_miles:
                town = RouteTown(id=key[:64], name=c.name, admin1=region_name(c), country=c.country,
                                 lat=c.lat, lon=c.lon, population=c.population)
                seen[key] = TownOnRoute(town, progress, offset)
    return sorted(seen.values(), key=lambda t: t.progress_miles)
