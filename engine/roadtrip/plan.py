"""The road-trip working plan: resolved towns, overnight anchors, stops and drives per day."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Literal, Protocol

from engine.models.place import Place

Confidence = Literal["high", "low"]
PlaceSource = Literal["route_town", "gazetteer", "interpolated", "user"]


class Corridor(Protocol):
    """What the invariants need from a route: distances along and across it, in miles."""

    name: str

    def progress_miles(self, lat: float, lon: float) -> float: ...

    def offset_miles(self, lat: float, lon: float) -> float: ...


@dataclass(frozen=True)
class Town:
    """A town of the gazetteer, a route or the traveller's own: where a day starts or ends."""

    name: str
    lat: float
    lon: float
    admin1: str = ""
    country: str = ""
    confidence: Confidence = "high"
    source: PlaceSource = "gazetteer"
    note: str = ""  # why low confidence, which fallback was taken
    considered: tuple[str, ...] = ()  # every candidate looked at, for the log (INV-AMBIG-02)

    @property
    def point(self) -> tuple[float, float]:
        return (self.lat, self.lon)

    @property
    def label(self) -> str:
        """"Kingman, AZ" / "Augsburg, Bavaria"; bare numeric region codes are left out."""
        region = "" if self.admin1.isdigit() else self.admin1
        return ", ".join(p for p in (self.name, region) if p)


@dataclass(frozen=True)
class RoadStop:
    """A substantive activity of the day: a point of interest or a town break on the way."""

    id: str
    name: str
    lat: float
    lon: float
    kind: str  # the POI kind, or "break" / "town"
    start_min: int
    end_min: int
    progress_miles: float
    offset_miles: float
    indoor: bool | None = None
    description: str = ""
    en_route: bool = True  # False for activities at the overnight anchor
    source_url: str = ""  # an OpenStreetMap place (issue 20): its element's page
    hours_known: bool | None = None  # OSM places: False when nobody published its opening hours
    opens_min: int = 0  # on the day's clock: the visit waits for its opening (unknown hours: 10:00)
    wait_min: int = 0  # minutes waited there for it to open (the timeline's, :func:`.day_stops.schedule_stops`)
    local_name: str | None = None  # ``name`` is the traveller's language; this the local one when it differs
    open_windows: tuple[tuple[int, int], ...] | None = None  # published hours on the day's clock (:mod:`.stop_hours`)


@dataclass(frozen=True)
class Bed:
    """Where the night is spent: an OpenStreetMap place to stay near the anchor town, or the
    traveller's booked hotel (issue 20 §2)."""

    name: str
    lat: float
    lon: float
    kind: str  # motel | hotel | guest_house | hostel | camp_site | booked
    price_usd_cents: int  # one room, one night
    estimated: bool = True  # a figure from ``engine/places/estimates.py``, not a published rate
    source_url: str = ""
    ref: str = ""  # osm_n123
    stars: int | None = None
    miles: float = 0.0  # from the anchor town's point
    data_source: Literal["osm", "user"] = "osm"
    confirmation: str = ""  # a booked bed's code (issue 21): shown in the itinerary, masked elsewhere
    paid: bool = False  # a booked bed already paid: no cost left in the trip's

    def place(self) -> Place:
        """The bed as a :class:`~engine.models.place.Place` (OpenStreetMap's, or the booked hotel)."""
        return Place(ref=self.ref or f"bed_{self.lat:.5f}_{self.lon:.5f}", kind="bed", name=self.name,
                     lat=self.lat, lon=self.lon, price=self.price_usd_cents / 100, price_estimated=self.estimated,
                     category=self.kind, data_source=self.data_source, source_url=self.source_url)

    def rooms_priced(self, rooms: int) -> int:
        """How many times its price is paid a night: per room, but a booking's price is what the
        traveller's whole booking costs."""
        return 1 if self.data_source == "user" else rooms


@dataclass(frozen=True)
class RoadDay:
    index: int
    date: date
    start: Town
    anchor: Town
    start_progress: float
    anchor_progress: float
    anchor_offset: float
    drive_miles: float
    drive_hours: float
    depart_min: int
    arrive_min: int
    stops: tuple[RoadStop, ...] = ()
    forced: bool = False  # the user asked to stop here (a detour is then justified)
    returning: bool = False  # on the way back of a round trip
    # "estimated": road-factor miles; "routed": the routing service's miles, hours and ``path``;
    # "unroutable": the service found no road to the anchor (a blocking finding, never planned on)
    drive_source: Literal["estimated", "routed", "unroutable"] = "estimated"
    path: tuple[tuple[float, float], ...] = ()  # (lat, lon) of the routed road, when routed
    # OpenStreetMap (issue 20): the day's note ("offline: sights limited to the shipped data"),
    # how many real sights were within reach of its drive (None: not known, no OSM data), and
    # the night's bed — or why there is none ("no lodging mapped within 5 mi of …")
    note: str = ""
    sights_in_reach: int | None = None
    # INV-PACE-01's exemptions: a travel-only day (nothing to stop at within reach of its drive,
    # :func:`.day_stops.quiet_stretch`) or a rest day the traveller asked for (no driving)
    exemption: Literal["travel_only", "rest"] | None = None
    bed: Bed | None = None
    bed_note: str = ""


@dataclass(frozen=True)
class RoadPlan:
    origin: Town
    terminus: Town
    days: tuple[RoadDay, ...]
    corridor: Corridor
    corridor_miles: float
    region: str  # "us" | "europe"
    trip_type: str
    max_daily_miles: float
    log: tuple[str, ...] = field(default=())  # decisions and fallbacks, in order
    booked: object | None = None  # the traveller's booked night (:class:`.booked_night.BookedNight`), verified
