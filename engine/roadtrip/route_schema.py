"""On-disk format of a named route (``fixtures/routes/<slug>.json``), validated at load."""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from engine.models.place import Place

_ID = re.compile(r"^[a-z0-9_]{2,64}$")


class RawRouteModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RouteTown(RawRouteModel):
    """A town historically or geographically on the route (an overnight-anchor candidate)."""

    id: str = Field(pattern=_ID.pattern)
    name: str
    admin1: str  # state / province / Land code or name, e.g. "AZ", "Bavaria"
    country: str = Field(pattern=r"^[A-Z]{2}$")
    lat: float = Field(ge=-90, le=90)
    lon: float = Field(ge=-180, le=180)
    population: int | None = Field(default=None, ge=0)


class RoutePOI(RawRouteModel):
    """A real point of interest along the route (names and coordinates are facts)."""

    id: str = Field(pattern=_ID.pattern)
    name: str
    lat: float = Field(ge=-90, le=90)
    lon: float = Field(ge=-180, le=180)
    kind: str  # landmark | museum | park | viewpoint | roadside | food | historic_site
    town_id: str | None = None
    duration_minutes: int = Field(ge=15, le=480)
    indoor: bool | None = None
    description: str = Field(min_length=10, max_length=300)  # our own words
    # The place's published opening hours (OpenStreetMap syntax), respected when planned; None: unknown
    # (a meal place then says so, at low confidence: engine/roadtrip/stop_hours.py).
    opening_hours: str | None = None

    @field_validator("opening_hours")
    @classmethod
    def _readable_hours(cls, rule: str | None) -> str | None:
        if rule is not None:
            from engine.models.dated_hours import RULE_ERRORS, dated_hours
            try:
                dated_hours(rule)
            except (*RULE_ERRORS, SyntaxError) as exc:
                raise ValueError(f"opening_hours {rule!r} is not an OpenStreetMap hours rule: {exc}") from None
        return rule

    def place(self) -> Place:
        """The curated point of interest as a :class:`~engine.models.place.Place`."""
        return Place(ref=self.id, kind="food" if self.kind == "food" else "sight", category=self.kind,
                     name=self.name, lat=self.lat, lon=self.lon, indoor=self.indoor, venue_type=self.kind,
                     minutes=self.duration_minutes, data_source="fixture")


class RawRoute(RawRouteModel):
    slug: str = Field(pattern=_ID.pattern)
    name: str
    aliases: list[str] = Field(min_length=1)
    region: str = Field(pattern=r"^(us|europe)$")  # selects the geocoding trust box
    endpoints: tuple[str, str]  # town ids of the two ends, in polyline order
    polyline: list[tuple[float, float]] = Field(min_length=20)  # (lon, lat), ordered end to end
    towns: list[RouteTown] = Field(min_length=5)
    pois: list[RoutePOI] = Field(min_length=10)
    source: str  # where the geometry and facts come from
    # The road as driven, when the polyline is simplified (mountain hairpins): driving miles are
    # polyline miles × driven_length_miles / polyline length.
    driven_length_miles: float | None = Field(default=None, gt=0)

    @field_validator("polyline")
    @classmethod
    def _coords(cls, v: list[tuple[float, float]]) -> list[tuple[float, float]]:
        for lon, lat in v:
            if not (-180 <= lon <= 180 and -90 <= lat <= 90):
                raise ValueError(f"polyline point ({lon}, {lat}) is not (lon, lat) in range")
        return v

    @model_validator(mode="after")
    def _links(self) -> "RawRoute":
        towns = {t.id for t in self.towns}
        missing = [e for e in self.endpoints if e not in towns]
        if missing:
            raise ValueError(f"endpoints {missing} are not town ids")
        bad = [p.id for p in self.pois if p.town_id and p.town_id not in towns]
        if bad:
            raise ValueError(f"pois {bad} name unknown town_id")
        ids = [t.id for t in self.towns] + [p.id for p in self.pois]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"duplicate ids {dupes}")
        return self
