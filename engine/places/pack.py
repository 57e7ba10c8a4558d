"""A city pack: everything the planner needs of one city, read once from OpenStreetMap.

The pack keeps each place's OSM identity (type and id → ``https://www.openstreetmap.org/...``),
its position, the tags planning reads (hours, stars, cuisine, fee/charge, wikidata), its names in
every language the element gives, its rank and its fame signals (``Fame``: how many languages
name it, ``tourism=attraction``, its size, its Wikidata sitelink count when asked online);
the city's centre, box, time zone, country, currency and airports; and when and from which OSM
data it was read (``fetched_on``, Overpass's ``timestamp_osm_base``). Prices and flights are not
in OSM: they are estimated when the pack is planned (``pack_city.py``), never stored as facts.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.models.place import Fame, Kind, Place

from .osm_reader import OsmRow, osm_ref, reread, stored_place

PACK_FORMAT = 1


class Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PackPlace(Frozen):
    osm_type: Literal["node", "way", "relation"]
    osm_id: int = Field(gt=0)
    kind: Kind
    key: str  # the OSM key that says what it is ("tourism") …
    category: str  # … and its value: "museum", "restaurant", "hotel", …
    name: str = Field(min_length=1, max_length=255)
    lat: float = Field(ge=-90, le=90)
    lon: float = Field(ge=-180, le=180)
    tags: dict[str, str] = Field(default_factory=dict)
    rank: float = 0.0
    # what the element said of its fame (its name:xx count, tourism=attraction beside a more specific
    # tag): for ranking; None in a pack read before it was kept (then read from the kept tags)
    fame: Fame | None = None
    # every language the element names it in (``name:xx``); None in a pack read before they were
    # kept (then the kept tags' ``name:en``)
    names: dict[str, str] | None = None

    @classmethod
    def of(cls, place: Place | OsmRow) -> "PackPlace":
        """The row a pack (or the saved-places cache) keeps of an OpenStreetMap place."""
        return cls(osm_type=place.osm_type, osm_id=place.osm_id, kind=place.kind, key=place.key,
                   category=place.category, name=place.name, lat=place.lat, lon=place.lon, tags=place.tags,
                   rank=place.rank, fame=place.fame, names=place.names)

    def place(self) -> Place:
        """The :class:`Place` this row keeps, read again from its tags (``osm_reader``)."""
        place = stored_place(self.osm_type, self.osm_id, self.kind, self.key, self.category, self.name, self.lat,
                             self.lon, self.tags, rank=self.rank, names=self.names)
        return place if self.fame is None else place.model_copy(update={"fame": self.fame})

    def reading(self):
        """What the place is to the planner (``osm_tags.Reading``), read again from its tags."""
        return reread(self.tags, self.name, self.key, self.category)

    @property
    def ref(self) -> str:
        """The planner's id of the place: ``osm_n123`` / ``osm_w456`` / ``osm_r789``."""
        return osm_ref(self.osm_type, self.osm_id)

    @property
    def source_url(self) -> str:
        return f"https://www.openstreetmap.org/{self.osm_type}/{self.osm_id}"


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
    places: list[PackPlace] = Field(default_factory=list)
    fetched_at: datetime
    osm_base: str = ""  # Overpass's timestamp_osm_base: how fresh the OSM data was
    source_url: str = ""  # the interpreter that answered
    dropped: dict[str, int] = Field(default_factory=dict)  # why elements were left out, counted
    # whether Wikidata was asked for its sights' sitelink counts (``wikidata.py``), asked once per
    # pack: "" not asked (a pack read before, or nothing to ask), "answered", or why it was not
    sitelinks: str = ""

    def of_kind(self, kind: Kind) -> list[PackPlace]:
        return [p for p in self.places if p.kind == kind]

    def counts(self) -> dict[str, int]:
        out = {"sight": 0, "food": 0, "bed": 0}
        for p in self.places:
            out[p.kind] += 1
        return out

    def place(self, ref: str) -> PackPlace | None:
        return next((p for p in self.places if p.ref == ref), None)
