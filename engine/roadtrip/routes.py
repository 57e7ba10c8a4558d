"""Named routes (``fixtures/routes/<slug>.json``): loading, lookup by name, corridor geometry.

A :class:`Route` wraps a validated :class:`RawRoute` and answers the corridor questions of seed 000
(INV-CORR, INV-DIR-04) in statute miles: how far along the route a point lies (``progress_miles``),
how far off the centreline it is (``offset_miles``), where a given progress is (``point_at``) and
which route towns lie inside a corridor (``towns_in_corridor``).

Distances are measured in the equidistant conic fitted to the route (``projected_line.py``).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

import shapely
from shapely.geometry import LineString

from engine.catalog import fixtures_dir
from engine.catalog.loader import read_model
from engine.errors import FixtureError, InputError

from .projected_line import METERS_PER_MILE, ProjectedLine, route_projection, transformers
from .route_schema import RawRoute, RoutePOI, RouteTown

ROUTES_SUBDIR = "routes"

__all__ = ["METERS_PER_MILE", "ProjectedLine", "Route", "TownOnRoute", "POIOnRoute", "find_route", "load_routes",
           "normalize_route_name", "progress_after", "route_projection"]


class TownOnRoute(NamedTuple):
    town: RouteTown
    progress_miles: float
    offset_miles: float


class POIOnRoute(NamedTuple):
    poi: RoutePOI
    progress_miles: float
    offset_miles: float


# -- the route ----------------------------------------------------------------------------------
_GEOMETRY = frozenset({"_proj", "_fwd", "_inv", "_line", "_length_m"})


class Route(ProjectedLine):
    """An immutable named route, in one direction of travel (``reversed()`` gives the other)."""

    __slots__ = ("_raw", "_forward", "_proj_hint", "_proj", "_fwd", "_inv", "_line", "_length_m", "_memo")

    def __init__(self, raw: RawRoute, *, forward: bool = True, _proj: str | None = None) -> None:
        set_ = object.__setattr__
        set_(self, "_raw", raw)
        set_(self, "_forward", forward)
        set_(self, "_proj_hint", _proj)
        set_(self, "_memo", {})

    def __getattr__(self, name: str) -> object:
        """The projected geometry is built on first use: a prompt that only needs the routes'
        names never pays for eight projections (~20-60 ms of pyproj each)."""
        if name not in _GEOMETRY:
            raise AttributeError(name)
        self._project()
        return object.__getattribute__(self, name)

    def _project(self) -> None:
        raw = self._raw
        proj = self._proj_hint or route_projection(list(raw.polyline))
        fwd, inv = transformers(proj)
        xs, ys = fwd.transform([p[0] for p in raw.polyline], [p[1] for p in raw.polyline])
        line = LineString(list(zip(xs, ys)))
        shapely.prepare(line)
        for name, value in (("_proj", proj), ("_fwd", fwd), ("_inv", inv), ("_line", line),
                            ("_length_m", float(line.length))):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Route is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Route is immutable")

    def __repr__(self) -> str:
        a, b = self.endpoints
        return f"Route({self.slug!r}, {a} -> {b}, {self.length_miles():.0f} mi)"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Route):
            return NotImplemented
        return self._raw == other._raw and self._forward == other._forward

    def __hash__(self) -> int:
        return hash((self.slug, self._forward, len(self._raw.polyline)))

    # -- facts ----------------------------------------------------------------------------------
    @property
    def raw(self) -> RawRoute:
        """The fixture record, with polyline and endpoints in this direction of travel."""
        return self._raw

    @property
    def slug(self) -> str:
        return self._raw.slug

    @property
    def name(self) -> str:
        return self._raw.name

    @property
    def aliases(self) -> list[str]:
        return list(self._raw.aliases)

    @property
    def region(self) -> str:
        return self._raw.region

    @property
    def forward(self) -> bool:
        """True in the fixture's polyline order, False for ``reversed()``."""
        return self._forward

    @property
    def endpoints(self) -> tuple[str, str]:
        """Town ids of the start and the end, in this direction of travel."""
        return self._raw.endpoints

    @property
    def towns(self) -> list[RouteTown]:
        return list(self._raw.towns)

    @property
    def pois(self) -> list[RoutePOI]:
        return list(self._raw.pois)

    @property
    def polyline(self) -> list[tuple[float, float]]:
        """(lon, lat) vertices in this direction of travel."""
        return list(self._raw.polyline)

    @property
    def projection(self) -> str:
        """The PROJ string of the plane the measurements are made in."""
        return self._proj

    @property
    def line(self) -> LineString:
        """The projected centreline (metres in ``projection``)."""
        return self._line

    def town(self, town_id: str) -> RouteTown:
        for t in self._raw.towns:
            if t.id == town_id:
                return t
        raise KeyError(town_id)

    @property
    def is_loop(self) -> bool:
        """A circuit (North Coast 500): it starts and ends in the same town."""
        return self._raw.endpoints[0] == self._raw.endpoints[1]

    @property
    def origin(self) -> RouteTown:
        return self.town(self.endpoints[0])

    @property
    def terminus(self) -> RouteTown:
        return self.town(self.endpoints[1])

    def _town_measures(self) -> list[TownOnRoute]:
        got = self._memo.get("towns")
        if got is None:
            got = [TownOnRoute(t, *self.measure(t.lat, t.lon)) for t in self._raw.towns]
            got.sort(key=lambda r: r.progress_miles)
            self._memo["towns"] = got
        return got

    def towns_in_corridor(self, max_miles: float) -> list[TownOnRoute]:
        """Route towns at most ``max_miles`` off the centreline, ordered by progress."""
        return [r for r in self._town_measures() if r.offset_miles <= max_miles]

    def pois_in_corridor(self, max_miles: float) -> list[POIOnRoute]:
        """Route points of interest at most ``max_miles`` off the centreline, ordered by progress."""
        got = self._memo.get("pois")
        if got is None:
            got = sorted((POIOnRoute(p, *self.measure(p.lat, p.lon)) for p in self._raw.pois),
                         key=lambda r: r.progress_miles)
            self._memo["pois"] = got
        return [r for r in got if r.offset_miles <= max_miles]

    def reversed(self) -> "Route":
        """The same route travelled the other way: progress runs from the other end."""
        other = self._memo.get("reversed")
        if other is None:
            raw = self._raw.model_copy(update={
                "polyline": list(reversed(self._raw.polyline)),
                "endpoints": (self._raw.endpoints[1], self._raw.endpoints[0]),
            })
            other = Route(raw, forward=not self._forward, _proj=self._proj)
            other._memo["reversed"] = self
            self._memo["reversed"] = other
        return other


def progress_after(corridor, lat: float, lon: float, start_miles: float) -> float:
    """The point's progress reached from ``start_miles``: on a loop a point at its start (home)
    reached from farther round than half the loop is its end, the loop's full length."""
    p = corridor.progress_miles(lat, lon)
    if getattr(corridor, "is_loop", False) and start_miles - p > corridor.length_miles() / 2:
        return p + corridor.length_miles()
    return p


# -- names ----------------------------------------------------------------------------------------
_SYNONYMS = {"hwy": "highway", "hiway": "highway", "hgwy": "highway", "rte": "route", "rt": "route",
             "str": "strasse", "mtn": "mountain"}
_US = re.compile(r"\bu\s*\.\s*s\b\.?")


def normalize_route_name(text: str) -> str:
    """Case-, accent- and punctuation-insensitive key: ``"U.S. Hwy-66"`` -> ``"us highway 66"``.

    ``ß`` folds to ``ss`` (so "Straße" and "Strasse" agree), a leading "the" is dropped and
    letters and digits are split ("US66" -> "us 66").
    """
    s = unicodedata.normalize("NFKD", text).casefold()
    s = "".join(c for c in s if not unicodedata.combining(c))
    s = _US.sub("us", s)
    s = re.sub(r"[^a-z0-9]+", " ", s)
    s = re.sub(r"(?<=[a-z])(?=[0-9])|(?<=[0-9])(?=[a-z])", " ", s)
    tokens = [_SYNONYMS.get(t, t) for t in s.split()]
    if len(tokens) > 1 and tokens[0] == "the":
        tokens = tokens[1:]
    return " ".join(tokens)


# -- loading --------------------------------------------------------------------------------------
@lru_cache(maxsize=4)
def _load(root: Path) -> tuple[tuple[Route, ...], dict[str, str]]:
    folder = root / ROUTES_SUBDIR
    paths = sorted(folder.glob("*.json"))
    if not paths:
        raise FixtureError(f"no route fixtures in {folder}")
    routes: list[Route] = []
    index: dict[str, str] = {}
    for path in paths:
        raw = read_model(path, RawRoute)
        if raw.slug != path.stem:
            raise FixtureError(f"{path}: slug {raw.slug!r} does not match the file name")
        route = Route(raw)
        routes.append(route)
        for key in {normalize_route_name(k) for k in (raw.slug, raw.name, *raw.aliases)}:
            if key in index and index[key] != raw.slug:
                raise FixtureError(f"route name {key!r} is claimed by {index[key]} and {raw.slug}")
            index[key] = raw.slug
    return tuple(routes), index


def load_routes(root: Path | None = None) -> dict[str, Route]:
    """Every named route by slug (validated once per fixtures folder; the Routes are shared)."""
    routes, _ = _load((root or fixtures_dir()).resolve())
    return {r.slug: r for r in routes}


def find_route(name: str, root: Path | None = None) -> Route:
    """The route whose slug, name or alias matches ``name`` (see ``normalize_route_name``).

    Raises ``InputError("route", ...)`` listing the known routes when nothing matches.
    """
    routes, index = _load((root or fixtures_dir()).resolve())
    slug = index.get(normalize_route_name(name or ""))
    if slug is None:
        known = ", ".join(r.name for r in routes)
        raise InputError("route", f"unknown route {name!r}; known routes: {known}")
    return next(r for r in routes if r.slug == slug)
