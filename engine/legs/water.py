"""Which land a place is on, so no leg drives, buses or rides a train across a sea (issue 33 §2):
Barcelona → Palma is a flight or a ferry. ``fixtures/legs/islands.json`` lists coarse boxes of the
islands (and sea-bounded lands) travellers plan trips to; the first box holding a point is its
land, anywhere else is the continent. Lands joined by a tunnel or bridge share a group (Japan's
four main islands; Great Britain is on the continent through the Channel Tunnel), and a land with
no railway says so (Iceland, Malta, the Canaries…).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache

from engine.catalog import fixtures_dir
from engine.errors import FixtureError
from engine.models import Geo

CONTINENT = "continent"


@dataclass(frozen=True)
class Land:
    name: str  # "Mallorca", "the continent"
    group: str  # lands of one group are joined by land (a bridge, a tunnel)
    rail: bool  # whether trains run there at all


@dataclass(frozen=True)
class _Box:
    south: float
    west: float
    north: float
    east: float
    land: Land


@lru_cache(maxsize=1)
def _boxes() -> tuple[_Box, ...]:
    path = fixtures_dir() / "legs" / "islands.json"
    try:
        rows = json.loads(path.read_text(encoding="utf-8"))["islands"]
        return tuple(_Box(*row["box"], Land(name, row["group"], row["rail"])) for name, row in rows.items())
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise FixtureError(f"invalid or missing fixture file {path}: {exc}") from exc


def land_of(geo: Geo) -> Land:
    for box in _boxes():
        if box.south <= geo.lat <= box.north and box.west <= geo.lon <= box.east:
            return box.land
    return Land("the continent", CONTINENT, True)


def sea_between(a: Geo, b: Geo) -> bool:
    """Whether getting from ``a`` to ``b`` on the ground needs a boat."""
    return land_of(a).group != land_of(b).group
