"""A city pack: everything the planner needs of one city, read once from OpenStreetMap.

The pack keeps each place's OSM identity (type and id → ``https://www.openstreetmap.org/...``),
its position, the tags planning reads (hours, stars, cuisine, fee/charge, wikidata), its names in
every language the element gives, its rank and its fame signals (``Fame``: how many languages
name it, ``tourism=attraction``, its size, its Wikidata sitelink count when asked online);
the city's centre, box, time zone, country, currency and airports; and when and from which OSM
data it was read (``fetched_on``, Overpass's ``timestamp_osm_base``); and the city's own map
(``city_map``, ``engine/maps/city_layers.py``) when it was fetched with it. Prices and flights are not
in OSM: they are estimated when the pack is planned (``pack_city.py``), never stored as facts.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from engine.maps.city_map import CityLayers
from engine.models.place import Kind

from .osm_reader import PlaceRow

PACK_FORMAT = 1


class Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# A pack's place is the one stored row of an OpenStreetMap place (``osm_reader.PlaceRow``), kept in
# the pack's JSON as an object of its fields.


class PackAirport(Frozen):
    iata: str = Field(pattern=r"^[A-Z]{3}$")
    name: str
    tz: str
    lat: float
    lon: float


class CityPack(Frozen):
    format: int = PACK_FORMAT
    slug: str = Field(pattern=r"^[a-z0-9_]{2,64}$")
    name: str
    label: str
    country: str = Field(pattern=r"^[A-Z]{2}$")
    admin1: str | None = None
    tz: str
    currency: str = Field(pattern=r"^[A-Z]{3}$")
    center_lat: float
    center_lon: float
    bbox: tuple[float, float, float, float]  # south, west, north, east
    population: int | None = None
    airports: list[PackAirport] = Field(default_factory=list)
    places: list[PlaceRow] = Field(default_factory=list)
    fetched_at: datetime
    osm_base: str = ""  # Overpass's timestamp_osm_base: how fresh the OSM data was
    source_url: str = ""  # the interpreter that answered
    dropped: dict[str, int] = Field(default_factory=dict)  # why elements were left out, counted
    # whether Wikidata was asked for its sights' sitelink counts (``wikidata.py``), asked once per
    # pack: "" not asked (a pack read before, or nothing to ask), "answered", or why it was not
    sitelinks: str = ""
    # the city's own map (issue 32 §4: water, parks, main streets, rail, stations), asked with the
    # pack; None for a pack read before, or when the map could not be had (the pack still plans)
    city_map: CityLayers | None = None

    def of_kind(self, kind: Kind) -> list[PlaceRow]:
        return [p for p in self.places if p.kind == kind]

    def counts(self) -> dict[str, int]:
        out = {"sight": 0, "food": 0, "bed": 0}
        for p in self.places:
            out[p.kind] += 1
        return out

    def place(self, ref: str) -> PlaceRow | None:
        return next((p for p in self.places if p.ref == ref), None)
