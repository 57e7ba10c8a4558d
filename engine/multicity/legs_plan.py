"""The legs of a multi-city trip before its stays are planned: when each can leave (the leg day's
check-out, the transfer and the buffer the city planner keeps before a departure), the query
``engine.legs.plan_leg`` answers, and the leg as the booked "flight" the stays at its ends are
planned around (the stitcher turns it back into the leg)."""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from engine.legs import LegQuery
from engine.models import MultiCityIntent, PlannedLeg
from engine.models.bookings import BookedFlight
from engine.planning.branches import AIRPORT_BUFFER
from engine.verify.chain import BUFFER_MIN

from .stays import StayPlace

# An estimated leg leaves at 13:00 on its day: check-out (10:00–10:15), the transfer and the two
# hours the city planner keeps before any departure fit before it, and so does a morning sight.
EARLIEST_LEG = time(13, 0)
PSEUDO_CARRIER = "Leg"


def leg_ends(intent: MultiCityIntent, i: int) -> tuple[int, int]:
    """The stays leg ``i`` joins (the extra leg of ``return_from="first"`` goes back to stay 0)."""
    return i, (i + 1) % len(intent.stays)


def leg_day(intent: MultiCityIntent, i: int) -> date:
    """The day leg ``i`` runs: the last day of the stay it leaves."""
    nights = sum(s.nights for s in intent.stays[:i + 1])
    return date.fromordinal(intent.start_date.toordinal() + nights)


def leg_query(intent: MultiCityIntent, i: int, places: list[StayPlace]) -> LegQuery:
    a, b = leg_ends(intent, i)
    request = intent.leg_requests()[i]
    earliest = datetime.combine(leg_day(intent, i), EARLIEST_LEG, ZoneInfo(places[a].tz))
    return LegQuery(index=i, from_city=places[a].city, to_city=places[b].city, from_geo=places[a].geo,
                    to_geo=places[b].geo, to_tz=places[b].tz, earliest=earliest, asked=request.mode,
                    travellers=intent.travellers, booked=request.booked)


def plan_airport(place: StayPlace, origin: str) -> str:
    """The airport a stay's plan uses at a leg's end (the first of its own that is not home)."""
    return next(c for c in place.airports if c != origin)


def pseudo_flight(leg: PlannedLeg, a: StayPlace, b: StayPlace, origin: str, *, leaving: bool = False) -> BookedFlight:
    """Leg ``leg`` as a booked flight between the two stays' plan airports: the times the city
    planner plans the leaving and the arriving day around (its price is the trip's, not the stay's).
    ``leaving``: as the stay it leaves sees it — the planner keeps two hours before any departure,
    a train only its own buffer, so the "flight" leaves that much later (the same day), and the
    morning before the leg is the traveller's."""
    shift = timedelta(minutes=AIRPORT_BUFFER - BUFFER_MIN[leg.mode]) if leaving else timedelta(0)
    local = leg.departure.astimezone(ZoneInfo(a.tz))
    shift = min(shift, datetime.combine(local.date(), time(23, 30), local.tzinfo) - local)
    shift = max(shift, timedelta(0))
    return BookedFlight(carrier=PSEUDO_CARRIER, flight_number=f"LG{leg.index + 1}", origin=plan_airport(a, origin),
                        dest=plan_airport(b, origin), departure=leg.departure + shift, arrival=leg.arrival + shift,
                        price_usd_cents=0, source="manual")


def pseudo_flight_id(flight: BookedFlight) -> str:
    """The id the planner gives ``flight`` (``engine.planning.booked``)."""
    number = re.sub(r"\s+", "", flight.flight_number).lower()
    return f"booked-{number}-{flight.departure:%Y%m%d}"


def leg_cost_cents(legs: list[PlannedLeg]) -> int:
    return sum(leg.fare_usd_cents for leg in legs)


def home_after(leg: PlannedLeg) -> datetime:
    """The earliest flight home after a leg back to the first city: the leg's arrival, a transfer
    and the two hours before a departure."""
    return leg.arrival + timedelta(hours=3)
