"""Where a booked hotel is, when its booking gave only a name or an address (issue 21 §1).

Before a city trip is planned, a hotel the traveller booked without coordinates is placed: a
place to stay of the city (its fixture or its OpenStreetMap pack) with the same name first, else
Nominatim (through the executor: its policy, cache and breaker) asked for the address, then for
"name, city" — an answer is taken only when it lies within reach of the city. Offline, or when
nothing answers, the run stops with one line naming the field and what to give. A road trip's
booked motel is placed the same way along its corridor (``locate_road_booking``).
"""

from __future__ import annotations

import time

from engine.errors import InputError, ToolError
from engine.geocode.models import GeoCandidate, GeocodeRequest
from engine.geocode.trust import geodesic_miles
from engine.models import EventStatus, Geo, IntentV1
from engine.imports.place_match import names_match

NODE = "bookings"
CITY_REACH_MILES = 40.0  # a hotel "in Paris" farther than this from its centre is another place


async def locate_booked_hotel(run) -> IntentV1:
    """``run.intent`` with the booked hotel and the booked events that came without
    coordinates placed (the same intent when all have theirs)."""
    intent: IntentV1 = run.intent
    bookings = intent.bookings
    if bookings is None or (all(b.geo is not None for b in bookings.events)
                            and (bookings.hotel is None or bookings.hotel.geo is not None)):
        return intent
    started = time.perf_counter()
    city = run.s.catalog.city(intent.city)
    said, hotel, events = [], bookings.hotel, list(bookings.events)
    if hotel is not None and hotel.geo is None:
        geo, how = in_the_city(hotel.name, city)
        source = "city"
        if geo is None:
            geo, how, source = await _asked_online(run, hotel.name, hotel.address, city, "bookings.hotel.geo")
        hotel = hotel.model_copy(update={"geo": geo, "geo_source": source})
        said.append(f"{hotel.name}: placed by {how}")
    for i, event in enumerate(events):
        if event.geo is None:
            events[i] = await _placed_event(run, event, city, f"bookings.events[{i}].geo")
            said.append(f"{event.name}: placed")
    run.emitter.emit(NODE, EventStatus.completed, note="; ".join(said),
                     duration_ms=int((time.perf_counter() - started) * 1000))
    return intent.model_copy(update={"bookings": bookings.model_copy(update={"hotel": hotel, "events": events})})


async def _placed_event(run, event, city, field: str):
    """A booked event's place: the city's sight of the venue's name, else its address online."""
    for v in city.sights:
        if event.venue and names_match(v.name, event.venue):
            return event.model_copy(update={"geo": v.geo, "geo_source": "city"})
    geo, _, source = await _asked_online(run, event.venue or event.name, event.address, city, field, "sights")
    return event.model_copy(update={"geo": geo, "geo_source": source})


def in_the_city(name: str, city) -> tuple[Geo | None, str]:
    """The city's own place to stay of that name (its fixture's or its pack's), and how it was found."""
    for h in city.beds:
        if names_match(h.name, name) and h.geo is not None:
            return h.geo, f"{city.name}'s own list of places to stay"
    return None, ""


async def _asked_online(run, name: str, address: str, city, field: str,
                        listing: str = "places to stay") -> tuple[Geo, str, str | None]:
    session = run.s
    if session.toolbox.network.offline():
        raise InputError(field, f"where {name} is: offline, and {city.name}'s {listing} do not name it; "
                                "give its coordinates (or plan online to look its address up)")
    from engine.geocode.nominatim import NominatimGeocoder
    from engine.net.network import user_agent
    online = NominatimGeocoder(user_agent())
    centre = (city.center.lat, city.center.lon)
    for query in [q for q in (address, f"{name}, {city.name}") if q]:
        try:
            found, _ = await session.toolbox.executor.call(
                "geocode", online.candidates, GeocodeRequest(query=query, near=centre, limit=5),
                result_type=list[GeoCandidate])
        except ToolError as exc:
            raise InputError(field, f"where {name} is: the address look-up failed ({exc.reason}); "
                                    "give its coordinates") from exc
        near = [c for c in found if geodesic_miles(centre, (c.lat, c.lon)) <= CITY_REACH_MILES]
        if near:
            feature = near[0].feature_id if near[0].feature_id.split(":")[-1].isdigit() else None
            return Geo(lat=near[0].lat, lon=near[0].lon), f"its address (OpenStreetMap Nominatim: {query})", feature
    raise InputError(field, f"where {name} is: no place near {city.name} answers to "
                            f"{address or name!r}; give its coordinates")


# -- road trips ----------------------------------------------------------------------------------
TRIP_REACH_MILES = 150.0  # a booked motel farther than this from every point of the trip is another one


async def locate_road_booking(session, intent, points, osm, emitter):
    """A road trip's booked lodging given by name or address only, placed before the planner:
    the one place to stay of that name OpenStreetMap maps along the corridor (cached or just
    fetched), else Nominatim through the executor (its address, then its name), taken only near
    the trip (``points``: its outline). Offline with neither, one line naming the field. Returns
    the intent with its point."""
    hotel = intent.bookings.hotel if intent.bookings else None
    if hotel is None or hotel.geo is not None:
        return intent
    started = time.perf_counter()
    same = [b for b in (osm.beds if osm is not None else ()) if names_match(b.name, hotel.name)]
    if len(same) == 1:
        geo, how = Geo(lat=same[0].lat, lon=same[0].lon), "the corridor's places to stay (OpenStreetMap)"
        source = f"osm:{same[0].osm_type}:{same[0].osm_id}"
    else:
        geo, how, source = await _road_asked_online(session, points or [], hotel)
    placed = hotel.model_copy(update={"geo": geo, "geo_source": source})
    emitter.emit(NODE, EventStatus.completed, note=f"{hotel.name}: placed by {how}",
                 duration_ms=int((time.perf_counter() - started) * 1000))
    return intent.model_copy(update={"bookings": intent.bookings.model_copy(update={"hotel": placed})})


async def _road_asked_online(session, points, hotel) -> tuple[Geo, str, str | None]:
    field = "bookings.hotel.geo"
    if session.toolbox.network.offline():
        raise InputError(field, f"where {hotel.name} is: offline, and no place to stay mapped along the way has "
                                "that name; give its coordinates (or plan online to look its address up)")
    from engine.geocode.nominatim import NominatimGeocoder
    from engine.net.network import user_agent
    online = NominatimGeocoder(user_agent())
    for query in [q for q in (hotel.address, hotel.name) if q]:
        try:
            found, _ = await session.toolbox.executor.call(
                "geocode", online.candidates, GeocodeRequest(query=query, limit=5), result_type=list[GeoCandidate])
        except ToolError as exc:
            raise InputError(field, f"where {hotel.name} is: the address look-up failed ({exc.reason}); "
                                    "give its coordinates") from exc
        near = [c for c in found if any(geodesic_miles(p, (c.lat, c.lon)) <= TRIP_REACH_MILES for p in points)]
        if near:
            feature = near[0].feature_id if near[0].feature_id.split(":")[-1].isdigit() else None
            return Geo(lat=near[0].lat, lon=near[0].lon), f"its address (OpenStreetMap Nominatim: {query})", feature
    raise InputError(field, f"where {hotel.name} is: no place within {TRIP_REACH_MILES:.0f} mi of the trip answers "
                            f"to {hotel.address or hotel.name!r}; give its coordinates")
