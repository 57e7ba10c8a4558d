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
    codes = _chain_codes(itin)
    if bookings is not None:
        codes |= {f.confirmation for f in bookings.flights if f.confirmation}
        if bookings.hotel is not None and bookings.hotel.confirmation:
            codes.add(bookings.hotel.confirmation)
    return sorted(codes, key=lambda c: (-len(c), c))


def _chain_codes(itin: ItineraryV1) -> set[str]:
    """A multi-city trip's own codes: its booked legs' and its stays' booked hotels'."""
    intent = itin.intent
    if intent.mode != "multi_city":
        return set()
    codes = {r.booked.confirmation for r in intent.legs if r.booked is not None and r.booked.confirmation}
    codes |= {s.hotel.confirmation for s in intent.stays if s.hotel is not None and s.hotel.confirmation}
    return codes | {leg.confirmation for leg in itin.legs if leg.confirmation}


def _masked_chain(intent, legs: list):
    """A multi-city intent and its planned legs with their codes masked."""
    requests = [r.model_copy(update={"booked": r.booked.model_copy(update={
        "confirmation": masked_code(r.booked.confirmation) or None})}) if r.booked is not None else r
        for r in intent.legs]
    stays = [s.model_copy(update={"hotel": s.hotel.model_copy(update={
        "confirmation": masked_code(s.hotel.confirmation) or None})}) if s.hotel is not None else s
        for s in intent.stays]
    planned = [leg.model_copy(update={"confirmation": masked_code(leg.confirmation) or None}) for leg in legs]
    return intent.model_copy(update={"legs": requests, "stays": stays}), planned


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
    intent, legs = itin.intent, itin.legs
    bookings = intent.bookings
    if bookings is not None:
        flights = [f.model_copy(update={"confirmation": masked_code(f.confirmation) or None}) for f in bookings.flights]
        hotel = (bookings.hotel.model_copy(update={"confirmation": masked_code(bookings.hotel.confirmation) or None})
                 if bookings.hotel is not None else None)
        intent = intent.model_copy(update={"bookings": bookings.model_copy(update={"flights": flights, "hotel": hotel})})
    if intent.mode == "multi_city":
        intent, legs = _masked_chain(intent, legs)
    return itin.model_copy(update={"days": days, "citations": citations, "intent": intent, "legs": legs})


def _flight_key(text: str) -> str | None:
    """"AF 23 JFK→CDG" / "AF23" → "AF23"."""
    m = _FLIGHT_NAME.match(text.upper())
    return m.group(1) + m.group(2) if m else None


def confirmation_of(itin: ItineraryV1, act: Activity) -> str | None:
    """The full confirmation code of the booking ``act`` is: a booked flight (by its flight
    number), the booked hotel's check-in or check-out (by its name); None for anything else."""
    if act.role == "leg":  # a multi-city trip's booked leg
        return next((leg.confirmation for leg in itin.legs if f"leg_{leg.index}" == act.ref), None)
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
