"""A city's own map as the city pack keeps it (issue 32 §4): water, rivers, parks, named main streets,
rail lines and stations, GeoJSON-ordered ``[lon, lat]``. Plain data with no geometry library, so a
pack reads it without loading shapely; ``city_layers.build_city_layers`` makes it from OpenStreetMap,
and ``shipped_city_layers`` reads the four fixture cities' hand-made ones (``fixtures/cities/maps/``)."""

from __future__ import annotations

import json
from functools import lru_cache

from pydantic import BaseModel, ConfigDict, Field

LAYERS_FORMAT = 1
Coords = list[tuple[float, float]]


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MapLine(_Frozen):
    kind: str
    name: str = ""
    coordinates: Coords


class MapArea(_Frozen):
    kind: str
    name: str = ""
    rings: list[Coords]  # the outer ring, then its holes


class MapStation(_Frozen):
    name: str
    lat: float
    lon: float


class CityLayers(_Frozen):
    format: int = LAYERS_FORMAT
    water: list[MapArea] = Field(default_factory=list)
    rivers: list[MapLine] = Field(default_factory=list)
    parks: list[MapArea] = Field(default_factory=list)
    streets: list[MapLine] = Field(default_factory=list)
    rail: list[MapLine] = Field(default_factory=list)
    stations: list[MapStation] = Field(default_factory=list)

    def vertices(self) -> int:
        lines = [*self.rivers, *self.streets, *self.rail]
        return (sum(len(r) for a in [*self.water, *self.parks] for r in a.rings)
                + sum(len(line.coordinates) for line in lines) + len(self.stations))

    def is_empty(self) -> bool:
        return self.vertices() == 0


def layers_document(layers: CityLayers | None) -> dict | None:
    """The ``city_map`` part of the map document: the layers as plain JSON, or None without any."""
    if layers is None or layers.is_empty():
        return None
    return layers.model_dump(mode="json", exclude={"format"})


def shipped_city_layers(city: str) -> CityLayers | None:
    """A fixture city's own map (``fixtures/cities/maps/``: hand-made and coarse, see
    fixtures/README.md) by the city's name, or None for any other city."""
    from engine.catalog.loader import fixtures_dir
    return _shipped(str(fixtures_dir())).get(city.casefold())


@lru_cache(maxsize=2)
def _shipped(root: str) -> dict[str, CityLayers]:
    from pathlib import Path
    found = {}
    for path in sorted((Path(root) / "cities" / "maps").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        found[str(data["city"]).casefold()] = CityLayers.model_validate(data["layers"])
    return found


def merged_layers(parts: list[CityLayers]) -> CityLayers | None:
    """Several maps as one (a road trip's corridor cells, each cut to its own cell): None without any."""
    kept = [p for p in parts if not p.is_empty()]
    if not kept:
        return None
    return CityLayers(**{layer: [item for p in kept for item in getattr(p, layer)]
                         for layer in ("water", "rivers", "parks", "streets", "rail", "stations")})
