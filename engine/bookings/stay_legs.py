"""Booked tickets put on the legs of a multi-city trip (issue 33 §2): a train or bus ticket read with
``legs=True``, or a flight whose two airports are two consecutive stays' airports, becomes the
``LegRequest.booked`` of the leg that runs on its day — so the chain is planned around it.

Leg ``i`` joins ``stays[i]`` to the next stay (to the first for the extra leg of
``return_from="first"``) on the day ``stays[i]``'s nights end. A ticket is placed on the leg whose
day is the ticket's departure day on its own clock; two tickets of one mode that day (a change on
separate tickets: Lisboa → Coimbra-B, Coimbra-B → Porto) make one leg from the first's departure to
the last's arrival, their prices added. A flight is a leg only when its airports are the two stays'
(the outbound and home flights stay the trip's ``bookings.flights``); a ticket on no leg's day is
returned as not placed, for the caller to say so.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import date

from pydantic import ValidationError

from engine.errors import InputError
from engine.models.bookings import BookedFlight
from engine.models.multi_city import BookedLeg, LegRequest, MultiCityIntent


@dataclass(frozen=True)
class PlacedLegs:
    requests: list[LegRequest]  # one per leg of the intent, ``booked`` set where a ticket fixes it
    flights: list[BookedFlight] = field(default_factory=list)  # the flights that are not between stays
    unplaced: list[BookedLeg] = field(default_factory=list)  # tickets on no leg's day


def flight_leg(f: BookedFlight) -> BookedLeg:
    """A booked flight as a leg between stays (its airports are the leg's ends)."""
    return BookedLeg(mode="flight", operator=f.carrier, number=f.flight_number, from_name=f.origin, to_name=f.dest,
                     departure=f.departure, arrival=f.arrival, confirmation=f.confirmation,
                     price_usd_cents=f.price_usd_cents, paid=f.paid, source=f.source)


def leg_day(intent: MultiCityIntent, index: int) -> date:
    """The day leg ``index`` runs: the day the stay it leaves ends."""
    return intent.stay_first_day(index + 1) if index + 1 < len(intent.stays) else intent.end_date


def _ends(intent: MultiCityIntent, index: int) -> tuple[int, int]:
    return index, (index + 1) % len(intent.stays)


def place_tickets(intent: MultiCityIntent, tickets: Sequence[BookedLeg], flights: Sequence[BookedFlight] = (),
                  stay_airports: Sequence[Collection[str]] = ()) -> PlacedLegs:
    """``intent``'s leg requests with the tickets on them. ``stay_airports[i]``: the airports of
    ``stays[i]`` (its own ``airports`` or the ones the planner found); a flight between two stays
    whose airports are unknown stays a trip flight."""
    requests = intent.leg_requests()
    days = {leg_day(intent, i): i for i in range(len(requests))}
    on_leg: dict[int, list[BookedLeg]] = {}
    unplaced: list[BookedLeg] = []
    for ticket in tickets:
        index = days.get(ticket.departure.date())
        if index is None:
            unplaced.append(ticket)
        else:
            on_leg.setdefault(index, []).append(ticket)
    kept: list[BookedFlight] = []
    for f in flights:
        index = days.get(f.departure.date())
        if index is not None and _between(f, _ends(intent, index), stay_airports):
            on_leg.setdefault(index, []).append(flight_leg(f))
        else:
            kept.append(f)
    out = list(requests)
    for index, held in sorted(on_leg.items()):
        joined = _joined(sorted(held, key=lambda t: t.departure))
        if joined is None:
            unplaced.extend(held)
            continue
        try:
            out[index] = LegRequest(mode=requests[index].mode, booked=joined)
        except ValidationError as exc:
            raise InputError.from_validation(exc, prefix=f"legs[{index}]") from None
    return PlacedLegs(requests=out, flights=kept, unplaced=unplaced)


def _between(f: BookedFlight, ends: tuple[int, int], stay_airports: Sequence[Collection[str]]) -> bool:
    if len(stay_airports) <= max(ends):
        return False
    return f.origin in stay_airports[ends[0]] and f.dest in stay_airports[ends[1]]


def _joined(tickets: list[BookedLeg]) -> BookedLeg | None:
    """One leg from a day's tickets of one mode, each leaving after the last arrives; None otherwise."""
    if len(tickets) == 1:
        return tickets[0]
    if len({t.mode for t in tickets}) > 1 or any(b.departure < a.arrival for a, b in zip(tickets, tickets[1:])):
        return None
    first, last = tickets[0], tickets[-1]
    prices = [t.price_usd_cents for t in tickets]
    codes = list(dict.fromkeys(t.confirmation for t in tickets if t.confirmation))
    return first.model_copy(update={
        "to_name": last.to_name, "arrival": last.arrival,
        "number": " + ".join(t.number for t in tickets if t.number)[:16],
        "operator": ", ".join(dict.fromkeys(t.operator for t in tickets if t.operator))[:80],
        "price_usd_cents": None if None in prices else sum(p for p in prices if p is not None),
        "confirmation": codes[0] if len(codes) == 1 else first.confirmation,
        "paid": all(t.paid for t in tickets)})
