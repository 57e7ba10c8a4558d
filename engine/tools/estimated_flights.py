"""Estimated flights for airport pairs no schedule fixture covers (city packs).

No open data gives flight schedules or fares, so these options are an **estimate**, labelled as
one (``provenance.data_source = "estimated"``, carrier "Estimated"). The model, on purpose simple
enough to state here:

- duration = great-circle km / 800 km/h + 40 min (taxi, climb, descent), rounded to 5 min, at
  least 45 min. A trip is modelled as one nonstop flight, even beyond ~7,000 km where many routes
  really need a connection (which takes longer): it is an estimate; except that a long-haul trip
  (≥ 4,000 km) to or from an airport without long-haul service (``airports.py``'s ``service``:
  Osaka Itami flies domestic routes only) connects at the nearest long-haul airport within 800
  km (Kansai): each flight timed as above, 90 minutes to connect, and each flight's fare paid;
- departures at plausible local times at the origin, 07:10, 11:40 and 16:20, and for long haul
  (≥ 4,000 km) also 21:30, so a red-eye exists when allowed and daytime flights remain under
  ``avoid_overnight``;
- fare (USD, one way, economy = "budget"): a distance curve tapering for long haul — 60 + 0.09/km
  up to 1,500 km, then 0.07/km up to 4,000 km, then 0.045/km — a rough model of average US/EU
  one-way economy fares by distance band: $150 at 1,000 km and $195–230 at 1,500–2,000 km (about
  half the US average domestic round-trip fare, ~$380), ~$435 New York–Lisbon and ~$450 New
  York–Paris (the JFK–CDG fixture's budget fares are $313–426), ~$680 New York–Tokyo; × the month's
  season factor of ``fixtures/flights.json`` (month of the departure), × mid 1.5 / premium 3.2,
  × a few percent by departure time (red-eyes and early flights cheaper) so options differ
  deterministically; rounded to whole dollars.

Search semantics are FixtureFlights': outbound options land on ``date_window.start`` (local date
at the destination), return options leave on ``date_window.end`` (local date at the city airport);
``avoid_overnight`` drops red-eyes (``is_overnight``); at most two options per fare tier and
direction. ``FlightsWithEstimates`` answers from the schedule fixture where it has the airport pair
and from the estimate elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date, datetime, time, timedelta, timezone
from typing import Any, Literal, NamedTuple
from zoneinfo import ZoneInfo

from engine.catalog import Catalog, load_raw
from engine.catalog.airports import LONG_HAUL_KM, nearest_long_haul, service_of
from engine.errors import InputError
from engine.geo import haversine_m
from engine.models import FlightOption, Geo

from .cache_variant import variant_digest
from .flights import FARE_TIERS, FlightsTool, _cap, is_overnight
from .provenance import stamp
from .requests import FlightRequest

Direction = Literal["outbound", "return"]
# Any airport record: AirportInfo and PackAirport (.lat/.lon/.tz) or RawAirport (.geo/.tz).
AirportLookup = Callable[[str], Any]

MODEL_VERSION = 2  # bump with any change below, so cached answers of the old model are not reused
CRUISE_KMH = 800.0
GROUND_MINUTES = 40  # taxi out, climb, descent, taxi in
MIN_MINUTES = 45
ROUND_TO_MINUTES = 5
DAYTIME_DEPARTURES = ("07:10", "11:40", "16:20")
EVENING_DEPARTURE = "21:30"  # long haul only: the red-eye
# (band start km, USD at band start, USD per km within the band): one-way economy fare curve.
FARE_BANDS = ((0.0, 60.0, 0.09), (1500.0, 195.0, 0.07), (4000.0, 370.0, 0.045))
TIER_MULTIPLIERS = {"budget": 1.0, "mid": 1.5, "premium": 3.2}
# Early and late flights sell cheaper than midday ones; also keeps the options' prices apart.
DEPARTURE_FACTORS = {"07:10": 0.97, "11:40": 1.04, "16:20": 1.01, "21:30": 0.94}
CARRIER = "Estimated"
HUB_WITHIN_KM = 800.0  # a long-haul trip to a short-haul airport connects at a long-haul one this close
CONNECTION_MINUTES = 90

MODEL = {"version": MODEL_VERSION, "cruise_kmh": CRUISE_KMH, "ground_minutes": GROUND_MINUTES,
         "min_minutes": MIN_MINUTES, "round_to": ROUND_TO_MINUTES, "long_haul_km": LONG_HAUL_KM,
         "departures": [*DAYTIME_DEPARTURES, EVENING_DEPARTURE], "fare_bands": FARE_BANDS,
         "tiers": TIER_MULTIPLIERS, "departure_factors": DEPARTURE_FACTORS, "hub_within_km": HUB_WITHIN_KM,
         "connection_minutes": CONNECTION_MINUTES}


def flight_minutes(km: float) -> int:
    """Block time of a nonstop flight over ``km`` great-circle kilometres."""
    minutes = km / CRUISE_KMH * 60 + GROUND_MINUTES
    return max(MIN_MINUTES, int(round(minutes / ROUND_TO_MINUTES)) * ROUND_TO_MINUTES)


def budget_fare_usd(km: float) -> float:
    """One-way economy fare in USD before season, tier and departure-time factors."""
    start, base, per_km = next(band for band in reversed(FARE_BANDS) if km >= band[0])
    return base + per_km * (km - start)


def departures_for(km: float) -> tuple[str, ...]:
    return DAYTIME_DEPARTURES + ((EVENING_DEPARTURE,) if km >= LONG_HAUL_KM else ())


def flight_name(origin: str, dest: str, hhmm: str, via: tuple[str, ...] = ()) -> str:
    """What an estimated option is, in words: "Estimated flight JFK → LIS, 21:30"."""
    through = f" via {' and '.join(via)}" if via else ""
    return f"Estimated flight {origin} → {dest}{through}, {hhmm}"


def connections(origin: tuple[str, float, float], dest: tuple[str, float, float], km: float) -> list[Any]:
    """The long-haul airports a trip of ``km`` connects at: none under 4,000 km; else, for each end
    without long-haul service, the nearest long-haul airport within 800 km (an airport the data
    does not know, or one with no long-haul airport near, is flown as it is)."""
    if km < LONG_HAUL_KM:
        return []
    ends = {origin[0], dest[0]}
    hubs = []
    for code, lat, lon in (origin, dest):
        if service_of(code) in (None, "long_haul"):
            continue
        hub = nearest_long_haul(lat, lon, within_km=HUB_WITHIN_KM)
        if hub is not None and hub.iata not in ends:
            hubs.append(hub)
    return hubs


def place_of(airport: Any) -> tuple[float, float, str]:
    """(lat, lon, tz) of any airport record: ``.lat/.lon`` or ``.geo.lat/.geo.lon``, and ``.tz``."""
    geo = getattr(airport, "geo", None) or airport
    return float(geo.lat), float(geo.lon), str(airport.tz)


class EstimatedFlights:
    """FlightsTool over the estimate model, for any two airports ``lookup`` knows."""

    name = "flights"

    def __init__(self, lookup: AirportLookup, month_factors: Mapping[str, float] | None = None) -> None:
        self._lookup = lookup
        self._months = dict(month_factors if month_factors is not None else load_raw().flights.month_factors)
        self.cache_variant = variant_digest({"model": MODEL, "months": self._months})

    def search(self, request: FlightRequest) -> list[FlightOption]:
        return self.one_way(request, "outbound") + self.one_way(request, "return")

    def one_way(self, request: FlightRequest, direction: Direction) -> list[FlightOption]:
        """One direction of ``search``: filtered for red-eyes when asked, capped per fare tier."""
        origin = self._airport(request.origin, "origin_airport")
        dest = self._airport(request.dest, "airports")
        if direction == "outbound":
            options = self._options((request.origin, origin), (request.dest, dest), request.date_window.start,
                                    direction)
        else:
            options = self._options((request.dest, dest), (request.origin, origin), request.date_window.end,
                                    direction)
        if request.avoid_overnight:
            options = [o for o in options if not o.overnight]
        return _cap(options)

    def _airport(self, code: str, field: str) -> Any:
        airport = self._lookup(code)
        if airport is None:
            raise InputError(field, f"unknown airport {code!r}")
        return airport

    def _options(self, origin: tuple[str, Any], dest: tuple[str, Any], anchor: date,
                 direction: Direction) -> list[FlightOption]:
        """Every departure whose city-side local date is ``anchor``: for the outbound the landing
        (so a departure the day before can land on it), for the return the take-off."""
        (o_lat, o_lon, o_tz), (d_lat, d_lon, d_tz) = place_of(origin[1]), place_of(dest[1])
        o_code, d_code = origin[0].upper(), dest[0].upper()
        km = _km((o_lat, o_lon), (d_lat, d_lon))
        hubs = connections((o_code, o_lat, o_lon), (d_code, d_lat, d_lon), km)
        stops = [(o_lat, o_lon), *((h.lat, h.lon) for h in hubs), (d_lat, d_lon)]
        flights = [_km(a, b) for a, b in zip(stops, stops[1:])]
        leg = _Leg(o_code, d_code, o_tz, d_tz, km,
                   sum(flight_minutes(k) for k in flights) + CONNECTION_MINUTES * len(hubs),
                   tuple(h.iata for h in hubs), sum(budget_fare_usd(k) for k in flights))
        city_tz = ZoneInfo(d_tz if direction == "outbound" else o_tz)
        days = (anchor - timedelta(days=1), anchor) if direction == "outbound" else (anchor,)
        out = []
        for day in days:
            for hhmm in departures_for(km):
                departure, arrival = leg.times(day, hhmm)
                city_side = arrival if direction == "outbound" else departure
                if city_side.astimezone(city_tz).date() == anchor:
                    out += [self._option(leg, day, hhmm, tier, direction, (departure, arrival))
                            for tier in FARE_TIERS]
        return sorted(out, key=lambda o: (o.price_usd_cents, o.departure))

    def _option(self, leg: "_Leg", day: date, hhmm: str, tier: str, direction: Direction,
                times: tuple[datetime, datetime]) -> FlightOption:
        departure, arrival = times
        usd = (leg.fare_usd * self._months[str(day.month)] * DEPARTURE_FACTORS[hhmm]
               * TIER_MULTIPLIERS[tier])
        price = int(round(usd)) * 100
        clock = hhmm.replace(":", "")
        route = "-".join((leg.origin, *leg.via, leg.dest))
        flight_id = f"est-{route}-{clock}-{tier}-{day:%Y%m%d}".lower()
        payload = {"flight": flight_id, "price": price, "dep": departure.isoformat(), "model": MODEL_VERSION}
        return FlightOption(
            flight_id=flight_id, carrier=CARRIER, flight_number=flight_name(leg.origin, leg.dest, hhmm, leg.via),
            origin=leg.origin,
            dest=leg.dest, direction=direction, departure=departure, arrival=arrival,
            duration_seconds=leg.minutes * 60, price_usd_cents=price, fare_tier=tier,
            overnight=is_overnight(departure, arrival, (leg.origin_tz, leg.dest_tz)),
            provenance=stamp("flights", payload, ref_id=flight_id, data_source="estimated"))


def _km(a: tuple[float, float], b: tuple[float, float]) -> float:
    return haversine_m(Geo(lat=a[0], lon=a[1]), Geo(lat=b[0], lon=b[1])) / 1000


class _Leg(NamedTuple):
    """One airport pair: codes, clocks, distance, block time, connections and the fares' sum."""

    origin: str
    dest: str
    origin_tz: str
    dest_tz: str
    km: float
    minutes: int
    via: tuple[str, ...]
    fare_usd: float

    def times(self, day: date, hhmm: str) -> tuple[datetime, datetime]:
        """Departure at local ``hhmm`` on ``day`` at the origin, and arrival, both in UTC."""
        hh, mm = (int(p) for p in hhmm.split(":"))
        departure = datetime.combine(day, time(hh, mm), ZoneInfo(self.origin_tz)).astimezone(timezone.utc)
        return departure, departure + timedelta(minutes=self.minutes)


class FlightsWithEstimates:
    """The schedule fixture where it has the airport pair (JFK→CDG), the estimate elsewhere
    (JFK→LIS); decided per direction, so an asymmetric schedule is never half estimated."""

    name = "flights"

    def __init__(self, fixture: FlightsTool, estimated: EstimatedFlights, catalog: Catalog) -> None:
        self._fixture = fixture
        self._estimated = estimated
        self._scheduled = frozenset((f.origin, f.dest) for f in catalog.raw.flights.flights)
        # A city's airports are siblings: JFK flies to Paris CDG in the fixtures, so JFK→ORY is
        # not estimated (the fixtures' Paris is reached through CDG), while JFK→LIS is.
        self._siblings = {code: frozenset(c.airports) for c in catalog.raw.cities.values() for code in c.airports}
        # Both parts' variants: a change of the estimate model must not reuse cached answers.
        self.cache_variant = variant_digest({"fixture": getattr(fixture, "cache_variant", ""),
                                             "estimated": estimated.cache_variant})

    def search(self, request: FlightRequest) -> list[FlightOption]:
        origin, dest = request.origin.upper(), request.dest.upper()
        scheduled = {"outbound": self._served(origin, dest, dest), "return": self._served(dest, origin, dest)}
        fixture = self._fixture.search(request) if any(scheduled.values()) else []
        found: list[FlightOption] = []
        for direction in ("outbound", "return"):
            if scheduled[direction]:
                found += [o for o in fixture if o.direction == direction]
            else:
                found += self._estimated.one_way(request, direction)
        return found

    def _served(self, frm: str, to: str, city_airport: str) -> bool:
        """The fixtures fly this pair, or fly between ``frm``/``to`` and another airport of the city."""
        if (frm, to) in self._scheduled:
            return True
        siblings = self._siblings.get(city_airport, frozenset())
        if to == city_airport:  # outbound: home → one of the city's airports
            return any((frm, a) in self._scheduled for a in siblings)
        return any((a, to) in self._scheduled for a in siblings)  # return: the city → home
