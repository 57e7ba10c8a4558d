"""The towns of the named routes (``fixtures/routes/*.json``), as the gazetteer's build needs them.

The route files belong to :mod:`engine.roadtrip`; the gazetteer reads only each file's ``slug`` and
``towns`` with its own small record, so ``engine.geocode`` never imports the road-trip package (the
road-trip package imports the gazetteer). ``tests/engine/test_geocode.py`` checks both readers agree.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

log = logging.getLogger("tripwright.geocode")


class RouteTownRecord(BaseModel):
    """A route town: what the index stores (the route file holds more, e.g. POIs)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    id: str
    name: str = Field(min_length=1)
    admin1: str
    country: str = Field(pattern=r"^[A-Z]{2}$")
    lat: float = Field(ge=-90, le=90)
    lon: float = Field(ge=-180, le=180)
    population: int | None = Field(default=None, ge=0)


class _RouteTowns(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    slug: str
    towns: list[RouteTownRecord]


def route_files(routes_dir: Path | None) -> list[Path]:
    if routes_dir is None or not routes_dir.is_dir():
        return []
    return sorted(p for p in routes_dir.glob("*.json") if p.is_file())


def read_route_towns(routes_dir: Path | None) -> list[tuple[str, RouteTownRecord]]:
    """``[(slug, town)]`` from every readable route file; unreadable files are logged and skipped."""
    out: list[tuple[str, RouteTownRecord]] = []
    for path in route_files(routes_dir):
        try:
            route = _RouteTowns.model_validate(json.loads(path.read_bytes()))
        except (OSError, ValidationError, ValueError) as exc:
            log.error("gazetteer: skipping invalid route fixture %s: %s", path, exc)
            continue
        out.extend((route.slug, town) for town in route.towns)
    return out
