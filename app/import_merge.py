"""What an imported file adds to the shown city trip (issue 21 in the app): the traveller's saved
places as must-sees, their confirmations as bookings — the same rules as ``plan --places`` and
``plan --bookings`` (engine/cli/saved_places_cmd.py, bookings_cmd.py), kept Qt-free so the
window's import flow (``app/trip_imports.py``) runs them off the GUI thread.

A file is sorted by its extension (``kind_of``); the engine's readers then say no in one line
when its content is something else. Importing the same file again adds nothing twice: a saved
place already a must-see and a flight or hotel already booked are kept once.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.errors import InputError
from engine.models.bookings import MAX_BOOKED_EVENTS, MAX_BOOKED_FLIGHTS, Bookings
from engine.models.intent import MAX_MUST_SEE, MustSee

PLACES_SUFFIXES = (".kml", ".kmz", ".geojson", ".json", ".gpx", ".csv")
BOOKINGS_SUFFIXES = (".eml", ".html", ".htm", ".ics", ".pdf", ".txt")
PLACES_FILTER = "Saved places (" + " ".join(f"*{s}" for s in PLACES_SUFFIXES) + ")"
BOOKINGS_FILTER = "Booking confirmations (" + " ".join(f"*{s}" for s in BOOKINGS_SUFFIXES) + ")"


def kind_of(path: str | Path) -> str | None:
    """``"places"``, ``"bookings"`` or None, by the file's extension."""
    suffix = Path(path).suffix.casefold()
    if suffix in PLACES_SUFFIXES:
        return "places"
    if suffix in BOOKINGS_SUFFIXES:
        return "bookings"
    return None


@dataclass(frozen=True)
class PlacesAdded:
    intent: object  # IntentV1 with the file's places among its must-sees
    summary: str  # the importer's line: "5 places from KML"
    added: int  # new must-sees (places already there are not added twice)
    matched: int  # of the file's places, those that are one of the city's venues or restaurants
    unmatched_note: str = ""  # why none could be matched, when the city's places are not loaded


def add_saved_places(intent, path: str | Path, catalog) -> PlacesAdded:
    """Read ``path`` (My Maps KML/KMZ, Takeout GeoJSON, GPX waypoints, CSV) and add its places to
    ``intent``'s must-sees, each paired with the city's own venue when it is the same place.
    Reads the file: call it off the GUI thread. Raises ``InputError`` (one line)."""
    from engine.imports.place_match import match_saved_places
    from engine.imports.saved_places import import_saved_places

    found = import_saved_places(path)
    note = ""
    if catalog.has_city(intent.city):
        city = catalog.city(intent.city).raw
        pairs = match_saved_places(found.places, [*city.venues, *city.restaurants])  # a saved café is a meal
    else:  # a city whose OpenStreetMap places this session has not loaded: each a place of its own
        pairs = [(p, None) for p in found.places]
        note = f"not matched to {intent.city}'s places (they are not loaded yet)"
    have = list(intent.prefs.must_see)
    known = {m.place_id for m in have}
    added = 0
    for place, venue in pairs:
        must = MustSee(name=place.name, geo={"lat": place.lat, "lon": place.lon}, notes=place.notes,
                       source=place.source, venue_id=venue)
        if must.place_id in known:
            continue
        known.add(must.place_id)
        have.append(must)
        added += 1
    if len(have) > MAX_MUST_SEE:
        raise InputError("places", f"{len(have)} places to see; a plan takes at most {MAX_MUST_SEE}")
    prefs = intent.prefs.model_copy(update={"must_see": have})
    updated = type(intent).model_validate({**intent.model_dump(), "prefs": prefs.model_dump()})
    matched = sum(venue is not None for _, venue in pairs)
    return PlacesAdded(updated, found.summary(), added, matched, note)


def add_bookings(intent, found, catalog, *, offline: bool):
    """``intent`` with a ``BookingsImport``'s flights and hotel added to those it has, checked
    against the trip (``engine.planning.booked``: a flight on another day or at another city's
    airports, a hotel on other dates, is one ``InputError`` naming both). A flight already booked
    (same number and departure) or the same hotel stay is kept once; another hotel is refused."""
    if intent.mode == "road_trip" and found.bookings.flights:
        f = found.bookings.flights[0]
        raise InputError("bookings.flights", f"flight {f.flight_number} {f.origin}\u2192{f.dest}: a road trip plans "
                                             "no flights, only the motel booked along the way")
    have = intent.bookings or Bookings()
    flights = list(have.flights)
    seen = {(_number(f), f.departure) for f in flights}
    for flight in found.bookings.flights:
        if (_number(flight), flight.departure) not in seen:
            seen.add((_number(flight), flight.departure))
            flights.append(flight)
    hotel, new = have.hotel, found.bookings.hotel
    if new is not None:
        if hotel is not None and _stay(hotel) != _stay(new):
            raise InputError("bookings", f"a second hotel booking ({new.name}); the trip is planned around one, "
                                         f"{hotel.name}: remove it in the trip form's \u201cI already have\u201d "
                                         "first")
        hotel = new
    if len(flights) > MAX_BOOKED_FLIGHTS:
        raise InputError("bookings", f"{len(flights)} booked flights; a trip takes at most {MAX_BOOKED_FLIGHTS}")
    flights.sort(key=lambda f: f.departure)  # as the trip flies them (as the CLI keeps them)
    data = intent.model_dump()
    events = list(have.events) + [e for e in found.bookings.events if e not in have.events]
    if len(events) > MAX_BOOKED_EVENTS:
        raise InputError("bookings", f"{len(events)} booked events; a trip takes at most {MAX_BOOKED_EVENTS}")
    data["bookings"] = Bookings(flights=flights, hotel=hotel, events=events).model_dump()
    booked = type(intent).model_validate(data)
    if intent.mode == "road_trip":  # its motel: that night's stop (engine/roadtrip/booked_night.py)
        from engine.roadtrip.booked_night import check_road_bookings
        check_road_bookings(booked)
    else:
        from engine.planning.booked import check_bookings
        check_bookings(booked, catalog)
    if hotel is not None and hotel.geo is None and not _placeable(hotel, booked, catalog, offline):
        raise HotelNeedsPlace(booked, f"where {hotel.name} is: offline, and the city's places to stay do not name it")
    return booked


def _placeable(hotel, intent, catalog, offline: bool) -> bool:
    """The run can place a hotel booked by its address only: the city lists it, or online its
    address is looked up (engine.pipeline.booked_stage); offline (by the setting or a network
    the session found down) and unlisted, the form asks."""
    from engine.pipeline.booked_stage import in_the_city
    if intent.mode == "road_trip":  # online, the run looks along the corridor, then its address
        return not offline
    if catalog.has_city(intent.city) and in_the_city(hotel.name, catalog.city(intent.city))[0] is not None:
        return True
    return not offline


class HotelNeedsPlace(InputError):
    """The booked hotel has an address but no coordinates (not looked up for now): ``intent`` is
    the trip with the bookings, for the form to show so the traveller adds the point."""

    def __init__(self, intent, message: str) -> None:
        super().__init__("bookings.hotel.geo", message)
        self.intent = intent


async def read_bookings_into(intent, path: str | Path, client, session):
    """(``intent`` with the file's bookings, the ``BookingsImport``): run on the planner's engine
    loop, where ``client`` (a model client or a function making one, asked only for a file only
    a model can read) lives. Raises ``InputError`` (one line)."""
    from engine.bookings import aread_bookings

    found = await aread_bookings(path, client, today=session.today)
    return add_bookings(intent, found, session.catalog, offline=session.toolbox.network.offline()), found


def _number(flight) -> str:
    return flight.flight_number.replace(" ", "")


def _stay(hotel) -> tuple:
    return hotel.name.casefold(), hotel.checkin, hotel.checkout
