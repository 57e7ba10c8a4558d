"""The traveller's confirmation codes in exports (issue 21: "full confirmation codes are not written
to logs, diagnostics bundles or exports other than the itinerary itself").

The itinerary JSON, the PDF, the calendar and the phone page (the traveller's own) carry them; GPX, KML and HTML are
files made to be shared — with a device, a map app, a friend — so they get ``masked_itinerary``:
every code of ``itinerary.intent.bookings`` masked (``masked_code``) wherever the itinerary says it
(the synthesizer writes "confirmation QX7K2M" into the booked flights' and hotel's notes).
"""

from __future__ import annotations

import re

from engine.models import Activity, ItineraryV1
from engine.models.bookings import masked_code

_FLIGHT_NAME = re.compile(r"\s*([A-Z0-9]{2})\s?(\d{1,4}[A-Z]?)(?![A-Z0-9])")


def booking_codes(itin: ItineraryV1) -> list[str]:
    """The confirmation codes of the trip's bookings, longest first (so no code masks part of another)."""
    bookings = getattr(itin.intent, "bookings", None)
    if bookings is None:
        return []
    codes = {f.confirmation for f in bookings.flights if f.confirmation}
    if bookings.hotel is not None and bookings.hotel.confirmation:
        codes.add(bookings.hotel.confirmation)
    return sorted(codes, key=lambda c: (-len(c), c))


def _masker(codes: list[str]):
    pattern = re.compile("|".join(rf"(?<![A-Za-z0-9]){re.escape(c)}(?![A-Za-z0-9])" for c in codes))
    return lambda text: pattern.sub(lambda m: masked_code(m.group(0)), text) if text else text


def masked_itinerary(itin: ItineraryV1) -> ItineraryV1:
    """``itin`` with every booking's confirmation code masked in its names, notes, citations and
    intent; ``itin`` itself when it holds none."""
    codes = booking_codes(itin)
    if not codes:
        return itin
    mask = _masker(codes)
    days = [day.model_copy(update={"activities": [
        a.model_copy(update={"name": mask(a.name), "notes": mask(a.notes),
                             "local_name": a.local_name and mask(a.local_name)}) for a in day.activities]})
        for day in itin.days]
    citations = [c.model_copy(update={"claim": mask(c.claim)}) for c in itin.citations]
    bookings = itin.intent.bookings
    flights = [f.model_copy(update={"confirmation": masked_code(f.confirmation) or None}) for f in bookings.flights]
    hotel = (bookings.hotel.model_copy(update={"confirmation": masked_code(bookings.hotel.confirmation) or None})
             if bookings.hotel is not None else None)
    intent = itin.intent.model_copy(update={"bookings": bookings.model_copy(update={"flights": flights,
                                                                                    "hotel": hotel})})
    return itin.model_copy(update={"days": days, "citations": citations, "intent": intent})


def _flight_key(text: str) -> str | None:
    """"AF 23 JFK→CDG" / "AF23" → "AF23"."""
    m = _FLIGHT_NAME.match(text.upper())
    return m.group(1) + m.group(2) if m else None


def confirmation_of(itin: ItineraryV1, act: Activity) -> str | None:
    """The full confirmation code of the booking ``act`` is: a booked flight (by its flight
    number), the booked hotel's check-in or check-out (by its name); None for anything else."""
    bookings = getattr(itin.intent, "bookings", None)
    if bookings is None:
        return None
    if act.kind.value == "flight":
        key = _flight_key(act.name)
        return next((f.confirmation for f in bookings.flights
                     if f.confirmation and key is not None and _flight_key(f.flight_number) == key), None)
    hotel = bookings.hotel
    if act.kind.value == "lodging" and hotel is not None and hotel.confirmation:
        name, booked = act.name.casefold(), hotel.name.casefold()
        if name == booked or name.startswith(booked + " (") or act.ref.startswith("booked_"):
            return hotel.confirmation
    return None
