"""The traveller's files merged into a trip (issue 21; issue 30 §3): saved places become must-sees,
confirmations become booked flights, a hotel (a road trip's: its motel, that night's stop) and
events. One rule each, used by the CLI (``plan --places/--bookings``, ``places import``,
``bookings import``: engine/cli/saved_places_cmd.py, bookings_cmd.py, trip_inputs_cmd.py) and by
the app (File ▸ Import…, drops: app/import_merge.py), so the same file gives the same intent and
the same one-line errors in both.

- ``add_saved_places``: a ``SavedPlacesImport``'s places as must-sees, each paired with the
  city's own venue or restaurant when it is the same place (name and ≤ 150 m); a place already a
  must-see (the same ``place_id``) is kept once.
- ``merged_bookings``: a ``BookingsImport`` added to the bookings a trip has: a flight already
  booked (same number and departure), an event already booked or the same hotel stay (name and
  dates) is kept once; another hotel is refused, a flight on a road trip too.
- ``with_bookings``: the intent with those bookings, checked against the trip
  (``check_against_trip``, which the app's trip form runs on what is typed too:
  engine/planning/booked.py; a road trip's motel: engine/roadtrip/booked_night.py).
- ``hotel_placeable``: whether the run can place a hotel booked by its address only.
- ``with_leg_tickets``: a multi-city trip's files (read with ``legs=True``): train and bus tickets,
  and flights between two stays' airports, put on the leg of their day (``place_tickets``); a hotel
  on the stay of its nights; the flights out and home and the events in ``bookings``; each ticket on
  no leg said in one line.

Reading the files is the callers' (engine/imports, engine/bookings): the CLI reads several per
command, the app one per import, off its GUI thread."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.errors import InputError
from engine.models.bookings import MAX_BOOKED_EVENTS, MAX_BOOKED_FLIGHTS, Bookings
from engine.models.intent import MAX_MUST_SEE, MustSee

ROAD_TRIP_PLACES = "saved places are planned on city trips; on a road trip add them on the map as places to visit"
MULTI_CITY_FILES = ("a multi-city trip takes its saved places in its intent file (prefs.must_see); "
                    "a places file is not merged into it yet")


@dataclass(frozen=True)
class PlacesAdded:
    """What a saved-places file added to a city trip."""

    intent: object  # the IntentV1 with the file's places among its must-sees
    summary: str  # the importer's line: "5 places from KML"
    added: int  # new must-sees (places already there are not added twice)
    matched: int  # of the file's places, those that are one of the city's venues or restaurants
    unmatched_note: str = ""  # why none could be matched, when the city's places are not loaded

    def line(self, city: str) -> str:
        """The import's one line: "5 places from KML; 3 matched to Paris's places"."""
        note = f" ({self.unmatched_note})" if self.unmatched_note else ""
        return f"{self.summary}; {self.matched} matched to {city}'s places{note}"


def add_saved_places(intent, found, catalog, *, field: str = "places") -> PlacesAdded:
    """``intent`` with ``found``'s places (a ``SavedPlacesImport``) after the must-sees it has. A
    city whose places the catalog has not loaded: each place a must-see of its own, said in
    ``unmatched_note``. ``field``: what errors name (the CLI's argument, the app's "places")."""
    from engine.imports.place_match import match_saved_places

    if intent.mode != "city":
        raise InputError(field, ROAD_TRIP_PLACES)
    note = ""
    if catalog.has_city(intent.city):
        city = catalog.city(intent.city)
        pairs = match_saved_places(found.places, [*city.sights, *city.eateries])  # a saved café is a meal
    else:
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
        raise InputError(field, f"{len(have)} places to see; a plan takes at most {MAX_MUST_SEE}")
    prefs = intent.prefs.model_copy(update={"must_see": have})
    updated = type(intent).model_validate({**intent.model_dump(), "prefs": prefs.model_dump()})
    matched = sum(venue is not None for _, venue in pairs)
    return PlacesAdded(updated, found.summary(), added, matched, note)


def merged_bookings(intent, have: Bookings | None, found, *, field: str = "bookings") -> Bookings:
    """``have`` with ``found``'s bookings (a ``BookingsImport``) added: flights in the order the
    trip flies them, events by their start. Raises ``InputError`` for a flight on a road trip and
    for a second hotel."""
    if intent.mode == "road_trip" and found.bookings.flights:
        f = found.bookings.flights[0]
        raise InputError(field, f"flight {f.flight_number} {f.origin}\u2192{f.dest}: a road trip plans no flights, "
                                "only the motel booked along the way")
    have = have or Bookings()
    flights = list(have.flights)
    seen = {_flight_key(f) for f in flights}
    for flight in found.bookings.flights:
        if _flight_key(flight) not in seen:
            seen.add(_flight_key(flight))
            flights.append(flight)
    hotel, new = have.hotel, found.bookings.hotel
    if new is not None:
        if hotel is not None and _stay(hotel) != _stay(new):
            raise InputError(field, f"a second hotel booking ({new.name}); the trip is planned around one, "
                                    f"{hotel.name}: remove that booking first")
        hotel = new
    events = list(have.events) + [e for e in found.bookings.events if e not in have.events]
    flights.sort(key=lambda f: f.departure)  # as the trip flies them (and as 'bookings list' numbers them)
    return Bookings(flights=flights, hotel=hotel, events=sorted(events, key=lambda e: e.start))


def with_bookings(intent, bookings: Bookings, catalog, *, field: str = "bookings"):
    """``intent`` with ``bookings``, checked against the trip: a flight on another day or at another
    city's airports, a hotel on other dates, is one ``InputError`` naming both."""
    if len(bookings.flights) > MAX_BOOKED_FLIGHTS:
        raise InputError(field, f"{len(bookings.flights)} booked flights; a trip takes at most {MAX_BOOKED_FLIGHTS}")
    if len(bookings.events) > MAX_BOOKED_EVENTS:
        raise InputError(field, f"{len(bookings.events)} booked events; a trip takes at most {MAX_BOOKED_EVENTS}")
    data = intent.model_dump()
    data["bookings"] = bookings.model_dump()
    booked = type(intent).model_validate(data)
    check_against_trip(booked, catalog)
    return booked


def check_against_trip(intent, catalog, *, zone_of: Callable[[str], str | None] | None = None,
                       placed: bool = False) -> None:
    """An intent's bookings refused before anything runs when they are not the trip's: a road
    trip's motel on no night of it; a city trip's flight on another day or at another city's
    airports, a hotel on other dates (a city whose pack the run fetches is checked by the
    planner then). ``zone_of``: an airport's zone (the catalog's airports by default; the trip
    form knows typed codes too); ``placed``: a hotel must have its point (the form asks for it)."""
    if intent.mode == "road_trip":
        from engine.roadtrip.booked_night import check_road_bookings
        check_road_bookings(intent)
        return
    if intent.bookings is None or not catalog.has_city(intent.city):
        return
    from engine.planning.booked import booked_flights, booked_lodging
    city = catalog.city(intent.city)
    booked_flights(intent, city, zone_of or (lambda code: catalog.airport(code).tz))
    booked_lodging(intent, city, placed=placed)  # unplaced: the run finds a hotel booked by its address


def hotel_placeable(hotel, intent, catalog, *, offline: bool) -> bool:
    """The run can place a hotel booked by its address only: the city lists it, or online its
    address is looked up (engine/pipeline/booked_stage.py; a road trip's along the corridor)."""
    if hotel.geo is not None or not offline:
        return True
    if intent.mode == "road_trip":
        return False
    from engine.pipeline.booked_stage import in_the_city
    return catalog.has_city(intent.city) and in_the_city(hotel.name, catalog.city(intent.city))[0] is not None


def _flight_key(flight) -> tuple:
    return flight.flight_number.replace(" ", ""), flight.departure


def _stay(hotel) -> tuple:
    return hotel.name.casefold(), hotel.checkin, hotel.checkout


@dataclass(frozen=True)
class LegTicketsAdded:
    """What a multi-city trip's booking files added."""

    intent: object  # the MultiCityIntent with its legs booked
    unplaced: list[str]  # one line per ticket put on no leg, saying why


def with_leg_tickets(intent, found_all, catalog, *, field: str = "bookings") -> LegTicketsAdded:
    """``intent`` (a ``MultiCityIntent``) with the ``BookingsImport``s' tickets on its legs
    (``engine.bookings.stay_legs.place_tickets``), a hotel on the stay whose nights it books, the
    other flights and the events in its bookings. A leg already booked with another ticket, or a
    hotel on no stay's nights, is one ``InputError``; a ticket on no leg's day is kept out and said."""
    from pydantic import ValidationError

    from engine.bookings.result import leg_line
    from engine.bookings.stay_legs import leg_day, place_tickets

    have = intent.bookings or Bookings()
    bookings = have
    for found in found_all:
        bookings = merged_bookings(intent, bookings, found, field=field)
    stays = list(intent.stays)
    if bookings.hotel is not None:  # a multi-city trip books its hotels per stay
        stays = _hotel_on_its_stay(intent, bookings.hotel, field)
        bookings = bookings.model_copy(update={"hotel": None})
    fresh = [f for f in bookings.flights if f not in have.flights]
    airports = [set(s.airports) | (set(catalog.city(s.city).airports) if catalog.has_city(s.city) else set())
                for s in intent.stays]
    placed = place_tickets(intent, [t for found in found_all for t in found.legs], fresh, airports)
    legs = list(intent.leg_requests())
    for i, (old, new) in enumerate(zip(legs, placed.requests)):
        if new.booked is None or old.booked is None:
            legs[i] = new if old.booked is None else old
        elif (old.booked.number, old.booked.departure) != (new.booked.number, new.booked.departure):
            raise InputError(field, f"{leg_line(new.booked)}: the leg from {intent.stays[i].city} is already booked "
                                    f"({leg_line(old.booked)}); remove that booking first")
    leg_days = [leg_day(intent, i) for i in range(len(legs))]
    unplaced = [f"not placed: {leg_line(t)}: " + (
        "that day's tickets do not make one journey (another mode, or leaving before the last arrives)"
        if t.departure.date() in leg_days else
        f"no leg that day (the trip changes city on {', '.join(f'{d:%a %d %b}' for d in leg_days)})") for t in placed.unplaced]
    flights = [f for f in bookings.flights if f in have.flights or f in placed.flights]
    data = intent.model_dump()
    data.update(stays=[s.model_dump() for s in stays], legs=[leg.model_dump() for leg in legs],
                bookings=bookings.model_copy(update={"flights": flights}).model_dump())
    try:
        booked = type(intent).model_validate(data)
    except ValidationError as exc:
        raise InputError.from_validation(exc, prefix=field) from None
    return LegTicketsAdded(booked, unplaced)


def _hotel_on_its_stay(intent, hotel, field: str) -> list:
    """``intent``'s stays with ``hotel`` on the one whose nights it books."""
    from datetime import timedelta

    stays, start = list(intent.stays), intent.start_date
    for k, stay in enumerate(stays):
        end = start + timedelta(days=stay.nights)
        if (hotel.checkin, hotel.checkout) == (start, end):
            if stay.hotel is not None and _stay(stay.hotel) != _stay(hotel):
                raise InputError(field, f"{hotel.name}: the stay in {stay.city} is already booked at "
                                        f"{stay.hotel.name}; remove that booking first")
            stays[k] = stay.model_copy(update={"hotel": hotel})
            return stays
        start = end
    raise InputError(field, f"{hotel.name} ({hotel.checkin} to {hotel.checkout}) is on no stay's nights; "
                            "a stay's hotel books all its nights")
