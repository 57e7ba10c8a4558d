"""Flights over the schedule fixtures: ≤6 options per direction (2 budget, 2 mid, 2 premium)."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta, timezone
from typing import Protocol
from zoneinfo import ZoneInfo

from engine.catalog.catalog import Catalog
from engine.catalog.schema import RawFlight
from engine.models import FlightOption
from engine.models.tool_results import WEEKDAYS

from .provenance import stamp
from .requests import FlightRequest

PER_TIER = 2
FARE_TIERS = ("budget", "mid", "premium")


class FlightsTool(Protocol):
    def search(self, request: FlightRequest) -> list[FlightOption]: ...


def is_overnight(departure: datetime, arrival: datetime, tzs: tuple[str, str]) -> bool:
    """A red-eye: airborne at 03:00 where the traveller left, or landing the next calendar day
    before noon (the night was spent on board). Westbound morning flights are daytime flights."""
    origin, dest = ZoneInfo(tzs[0]), ZoneInfo(tzs[1])
    dep = departure.astimezone(origin)
    three_am = datetime.combine(dep.date(), time(3), origin)
    if three_am < dep:
        three_am += timedelta(days=1)
    if three_am <= arrival.astimezone(origin):
        return True
    arr = arrival.astimezone(dest)
    return arr.date() > dep.date() and arr.hour < 12


class FixtureFlights:
    """Outbound options land on ``date_window.start``; return options leave on ``date_window.end``."""

    name = "flights"

    def __init__(self, catalog: Catalog) -> None:
        self._catalog = catalog
        self._by_pair: dict[tuple[str, str], list[RawFlight]] = {}
        for f in catalog.raw.flights.flights:
            self._by_pair.setdefault((f.origin, f.dest), []).append(f)

    def search(self, request: FlightRequest) -> list[FlightOption]:
        outbound = self._options(request.origin, request.dest, request.date_window.start, "outbound")
        back = self._options(request.dest, request.origin, request.date_window.end, "return")
        if request.avoid_overnight:
            outbound = [o for o in outbound if not o.overnight]
            back = [o for o in back if not o.overnight]
        return _cap(outbound) + _cap(back)

    def _options(self, origin: str, dest: str, anchor: date, direction: str) -> list[FlightOption]:
        out = []
        dest_tz = ZoneInfo(self._catalog.airport(dest if direction == "outbound" else origin).tz)
        for raw in self._by_pair.get((origin, dest), []):
            for day in (anchor - timedelta(days=1), anchor) if direction == "outbound" else (anchor,):
                option = self._instance(raw, day, direction)
                if option is None:
                    continue
                city_side = option.arrival if direction == "outbound" else option.departure
                if city_side.astimezone(dest_tz).date() == anchor:
                    out.append(option)
        return sorted(out, key=lambda o: (o.price_usd_cents, o.departure))

    def _instance(self, raw: RawFlight, day: date, direction: str) -> FlightOption | None:
        if raw.days != "daily" and WEEKDAYS[day.weekday()] not in raw.days:
            return None
        origin_tz = self._catalog.airport(raw.origin).tz
        dest_tz = self._catalog.airport(raw.dest).tz
        hh, mm = (int(p) for p in raw.depart.split(":"))
        local = datetime.combine(day, time(hh % 24, mm), ZoneInfo(origin_tz)) + timedelta(days=hh // 24)
        departure = local.astimezone(timezone.utc)
        arrival = departure + timedelta(minutes=raw.duration_minutes)
        factor = self._catalog.raw.flights.month_factors[str(day.month)]
        price = int(round(raw.price * factor * 100))
        flight_id = f"{raw.flight_number}-{raw.fare_tier}-{day:%Y%m%d}".lower()
        payload = {"flight": flight_id, "price": price, "dep": departure.isoformat()}
        return FlightOption(
            flight_id=flight_id, carrier=raw.carrier, flight_number=raw.flight_number,
            origin=raw.origin, dest=raw.dest, direction=direction, departure=departure, arrival=arrival,
            duration_seconds=raw.duration_minutes * 60, price_usd_cents=price, fare_tier=raw.fare_tier,
            overnight=is_overnight(departure, arrival, (origin_tz, dest_tz)),
            provenance=stamp("flights", payload, ref_id=flight_id))


def _cap(options: list[FlightOption]) -> list[FlightOption]:
    picked = []
    for tier in FARE_TIERS:
        picked += [o for o in options if o.fare_tier == tier][:PER_TIER]
    return picked
