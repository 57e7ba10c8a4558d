"""What the Today answer needs from the tools (issue 36 §1), around the pure ``engine/trip_today.py``:
the next place's opening hours (the attractions and dining tools' ``Attraction``, whose hours are
the venue's dated ``opening_hours`` rule), a first visit's leg from the hotel (the transit tool,
through the executor as the planner asks it) and today's forecast (the weather ladder through the
executor: OpenWeatherMap with a key, Open-Meteo, the cache — no network attempt when offline, and
then the plan's own weather claim is shown). A fixture city needs nothing but the fixtures; a
city pack's places come from its cached pack, never fetched here.
"""

from __future__ import annotations

import asyncio
from datetime import date, datetime

from engine.catalog.catalog import Catalog, default_catalog
from engine.errors import InputError, ToolError
from engine.models import Activity, Attraction, Geo, ItineraryV1, TransitLeg, WeatherDay
from engine.models.today import TodayV1
from engine.tools.requests import TransitRequest, VenueRequest
from engine.tools.toolbox import Toolbox, build_toolbox
from engine.trip_today import day_place, read_today, today_index
from engine.verify_saved import with_cached_pack


async def today_for(itin: ItineraryV1, now: datetime, toolbox: Toolbox) -> TodayV1:
    """``read_today`` with the tools of ``toolbox`` answering hours, the hotel leg and the forecast."""
    di = today_index(itin, now)
    live = await _forecast(itin, di, toolbox) if di is not None else None
    return today_with_tools(itin, now, toolbox, live)


def today_with_tools(itin: ItineraryV1, now: datetime, toolbox: Toolbox, live: WeatherDay | None = None) -> TodayV1:
    """Hours and the hotel leg from ``toolbox`` (in-process, instant); the forecast only when
    given (the plan's own weather claim otherwise): what the app shows before asking online."""
    city = itin.intent.city if itin.intent.mode == "city" else None
    if city is None or not toolbox.catalog.has_city(city):
        return read_today(itin, now, live_weather=live)
    return read_today(itin, now, venue=lambda a: _venue(toolbox, city, a),
                      hotel_leg=lambda a, b, on: _leg(toolbox, city, a, b, on), live_weather=live)


def trip_toolbox(itin: ItineraryV1, now: datetime, catalog: Catalog | None = None) -> Toolbox:
    """The tools over the trip's catalog (a pack city's cached pack joined, never fetched), as of
    ``now``'s date (the forecast horizon counts from it)."""
    day = now.date()
    base = catalog or default_catalog()
    if itin.intent.mode == "city":
        base = with_cached_pack(base, itin.intent.city, day)
    return build_toolbox(base, today=day)


def today_offline_or_live(itin: ItineraryV1, now: datetime, catalog: Catalog | None = None) -> TodayV1:
    """For the CLI: the trip's toolbox, one event loop, its HTTP client closed on it."""
    toolbox = trip_toolbox(itin, now, catalog)

    async def run() -> TodayV1:
        try:
            return await today_for(itin, now, toolbox)
        finally:
            await toolbox.network.aclose()
    return asyncio.run(run())


async def _forecast(itin: ItineraryV1, di: int, toolbox: Toolbox) -> WeatherDay | None:
    day = itin.days[di]
    geo = day_place(day, itin)
    if geo is None:
        return None
    answer = await toolbox.weather.for_place(geo, [day.date])
    return answer.days.get(day.date)


def _venue(toolbox: Toolbox, city: str, act: Activity) -> Attraction | None:
    try:
        if act.role == "meal":
            return toolbox.dining.by_id(city, act.ref)
        return toolbox.attractions.by_id(VenueRequest(city=city, venue_id=act.ref))
    except (InputError, ToolError, KeyError):
        return None  # a place the catalog no longer has: its hours are not said


def _leg(toolbox: Toolbox, city: str, a: Geo, b: Geo, on: date) -> TransitLeg | None:
    try:
        return toolbox.executor.call_sync("transit", toolbox.transit.leg,
                                          TransitRequest(city=city, from_geo=a, to_geo=b, day=on))
    except ToolError:
        return None
