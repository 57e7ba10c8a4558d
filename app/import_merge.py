"""What an imported file adds to the shown city trip (issue 21 in the app): the traveller's saved
places as must-sees, their confirmations as bookings — the rules are engine/trip_inputs.py's, the
CLI's too (``plan --places``, ``plan --bookings``, ``places/bookings import``); kept Qt-free so
the window's import flow (``app/trip_imports.py``) runs them off the GUI thread.

A file is sorted by its extension (``kind_of``); the engine's readers then say no in one line
when its content is something else. Importing the same file again adds nothing twice: a saved
place already a must-see and a flight or hotel already booked are kept once.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from engine import trip_inputs
from engine.errors import InputError
from engine.trip_inputs import PlacesAdded

__all__ = ["BOOKINGS_SUFFIXES", "PLACES_SUFFIXES", "HotelNeedsPlace", "PlacesAdded", "add_bookings",
           "add_saved_places", "kind_of", "read_bookings_into"]

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


def add_saved_places(intent, path: str | Path, catalog) -> PlacesAdded:
    """Read ``path`` (My Maps KML/KMZ, Takeout GeoJSON, GPX waypoints, CSV) and add its places to
    ``intent``'s must-sees (engine/trip_inputs.py, as the CLI adds them). Reads the file: call it
    off the GUI thread. Raises ``InputError`` (one line)."""
    from engine.imports.saved_places import import_saved_places
    return trip_inputs.add_saved_places(intent, import_saved_places(path), catalog)


def add_bookings(intent, found, catalog, *, offline: bool):
    """``intent`` with a ``BookingsImport``'s bookings added to those it has, checked against the
    trip (engine/trip_inputs.py, as the CLI adds them). A hotel booked by its address only that
    the run cannot place (offline, and the city's places to stay do not name it) is a
    ``HotelNeedsPlace``: the form asks for its point."""
    bookings = trip_inputs.merged_bookings(intent, intent.bookings, found)
    booked = trip_inputs.with_bookings(intent, bookings, catalog)
    hotel = bookings.hotel
    if hotel is not None and not trip_inputs.hotel_placeable(hotel, booked, catalog, offline=offline):
        raise HotelNeedsPlace(booked, f"where {hotel.name} is: offline, and the city's places to stay do not name it")
    return booked


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

    if intent.mode == "multi_city":  # its train and bus tickets too, on the legs of their days
        found = await aread_bookings(path, client, today=session.today, legs=True)
        added = trip_inputs.with_leg_tickets(intent, [found], session.catalog)
        return added.intent, dataclasses.replace(found, notes=(*found.notes, *added.unplaced))
    found = await aread_bookings(path, client, today=session.today)
    return add_bookings(intent, found, session.catalog, offline=session.toolbox.network.offline()), found
