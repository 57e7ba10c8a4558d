"""Each stay of a multi-city trip as the one-city trip the city planner plans: its city, its own
days (arrival through the day it is left), its share of the budget, its locked slots and saved
places, its booked hotel and events, and the legs at its ends as booked "flights" (the planner's
facts for the times the traveller arrives and leaves; the stitcher turns them back into legs).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, time

from engine.errors import InputError
from engine.geo import distance_km
from engine.models import Geo, LockedSlot, MultiCityIntent
from engine.models.bookings import BookedFlight, Bookings
from engine.models.intent import MustSee, StayIntent

LEG_DAY_AFTERNOON = time(13, 0)  # a locked slot on a leg day from this hour on is the next city's


@dataclass(frozen=True)
class StayPlace:
    """Where a stay is, once its city is in the catalog (a fixture city or its OpenStreetMap pack)."""

    index: int
    city: str
    airports: list[str]
    tz: str
    geo: Geo


def stay_offsets(intent: MultiCityIntent) -> list[int]:
    """The trip's day offset of each stay's first day (its arrival day)."""
    out, at = [], 0
    for stay in intent.stays:
        out.append(at)
        at += stay.nights
    return out


def check_stay_places(intent: MultiCityIntent, places: list[StayPlace]) -> None:
    """Stays the planner can join: no city twice in a row (one stay of their nights), none at home."""
    for k, (a, b) in enumerate(zip(places, places[1:]), start=1):
        if a.city == b.city:
            raise InputError(f"stays[{k}].city", f"{a.city} twice in a row; make it one stay of "
                                                 f"{intent.stays[k - 1].nights + intent.stays[k].nights} nights")
    for place in places:
        if intent.origin_airport in place.airports:
            raise InputError("origin_airport", f"{intent.origin_airport} is {place.city}'s own airport; "
                                               "choose the airport you fly from")


def stay_budget(intent: MultiCityIntent, k: int, legs_cents: int, spent_cents: int) -> int:
    """What stay ``k`` may spend: what is left after the legs and the stays planned before it,
    shared by the nights still to plan (at least one dollar)."""
    left_nights = sum(s.nights for s in intent.stays[k:])
    left = intent.budget_usd_cents - legs_cents - spent_cents
    return max(100, left * intent.stays[k].nights // left_nights)


def _locked_for(intent: MultiCityIntent, k: int, offsets: list[int]) -> list[LockedSlot]:
    first, last = offsets[k], offsets[k] + intent.stays[k].nights
    out = []
    for slot in intent.prefs.locked_slots:
        d = slot.day_offset
        if not first <= d <= last:
            continue
        afternoon = slot.window.start >= LEG_DAY_AFTERNOON
        if d == last and k + 1 < len(intent.stays) and afternoon:
            continue  # the next city's afternoon
        if d == first and k > 0 and not afternoon:
            continue  # the previous city's morning
        out.append(slot.model_copy(update={"day_offset": d - first}))
    return out


def nearest_stay(geo: Geo, places: list[StayPlace]) -> int:
    return min(places, key=lambda p: distance_km(geo.lat, geo.lon, p.geo.lat, p.geo.lon)).index


def _must_see_for(intent: MultiCityIntent, k: int, places: list[StayPlace]) -> list[MustSee]:
    return [m for m in intent.prefs.must_see if nearest_stay(m.geo, places) == k]


def _bookings_for(intent: MultiCityIntent, k: int, place: StayPlace, first: date, last: date,
                  inbound: BookedFlight | None, outbound: BookedFlight | None) -> Bookings | None:
    flights = [f for f in (intent.bookings.flights if intent.bookings else [])
               if (f.dest in place.airports and k == 0) or
               (f.origin in place.airports and k == len(intent.stays) - 1 and intent.return_from == "last")]
    flights += [f for f in (inbound, outbound) if f is not None]
    events = [e for e in (intent.bookings.events if intent.bookings else [])
              if first <= e.start.date() <= last and (e.geo is None or nearest_stay(e.geo, [place]) == k)]
    hotel = intent.stays[k].hotel
    if not flights and not events and hotel is None:
        return None
    return Bookings(flights=flights, hotel=hotel, events=events)


def stay_intent(intent: MultiCityIntent, k: int, places: list[StayPlace], *, budget: int,
                inbound: BookedFlight | None = None, outbound: BookedFlight | None = None) -> StayIntent:
    """Stay ``k`` as a one-city trip: ``inbound``/``outbound`` are the legs at its ends as booked
    flights (None: the traveller flies in from, or home to, ``origin_airport``)."""
    place = places[k]
    offsets = stay_offsets(intent)
    first = date.fromordinal(intent.start_date.toordinal() + offsets[k])
    last = date.fromordinal(first.toordinal() + intent.stays[k].nights)
    airports = [c for c in place.airports if c != intent.origin_airport]
    if not airports:
        raise InputError("origin_airport", f"{intent.origin_airport} is {place.city}'s own airport; "
                                           "choose the airport you fly from")
    if inbound is not None or outbound is not None:
        airports = airports[:1]  # a leg arrives at (or leaves) the stay's one airport of the plan
    elif place.airports and place.airports[0] in airports:
        airports = [place.airports[0], *(c for c in airports if c != place.airports[0])]
    prefs = intent.prefs.model_copy(update={"locked_slots": _locked_for(intent, k, offsets),
                                            "must_see": _must_see_for(intent, k, places)})
    data = {"city": place.city, "date_window": {"start": first, "end": last, "tz": place.tz},
            "budget_usd_cents": budget, "airports": airports, "origin_airport": intent.origin_airport,
            "prefs": prefs.model_dump(), "travellers": intent.travellers, "rooms": intent.rooms}
    bookings = _bookings_for(intent, k, place, first, last, inbound, outbound)
    if bookings is not None:
        data["bookings"] = bookings.model_dump()
    return StayIntent.model_validate(data)
