"""``return_from="first"``: after the last leg brings the traveller back to the first city, the
flight home leaves from there the same day — the cheapest one from the flights tool that leaves
at least three hours after the leg arrives (a transfer and the two hours before a departure)."""

from __future__ import annotations

from datetime import datetime, time
from zoneinfo import ZoneInfo

from engine.errors import InfeasiblePlan
from engine.models import Activity, ChoiceKind, Citation, DateWindow, Decision, PlannedLeg, format_usd
from engine.tools.requests import FlightRequest

from .leg_activities import clipped_window
from .legs_plan import home_after, plan_airport
from .stays import StayPlace

EARLIEST_BACK = time(6, 0)  # the leg back to the first city leaves no earlier than this


def home_options(toolbox, first: StayPlace, origin: str, day, booked: list | None = None):
    """The flights home from the first city's plan airport on ``day``; a flight the traveller
    booked home from one of its airports is the only one (a fact)."""
    from engine.planning.booked import booked_option
    mine = [f for f in booked or [] if f.origin in first.airports]
    if mine:
        return [booked_option(mine[0], "return", lambda code: toolbox.catalog.airport(code).tz)]
    airport = plan_airport(first, origin)
    request = FlightRequest(origin=origin, dest=airport, date_window=DateWindow(start=day, end=day, tz=first.tz))
    return [f for f in toolbox.flights.search(request) if f.direction == "return"]


def earliest_back(toolbox, leg: PlannedLeg, first: StayPlace, origin: str, booked: list | None = None
                  ) -> datetime | None:
    """When the leg back to the first city should leave so that a flight home is still ahead
    (None: it already does, or no flight leaves that day): the latest flight home's departure less
    the three hours after arriving and the leg's own time, not before 06:00."""
    day = leg.departure.date()
    options = home_options(toolbox, first, origin, day, booked)
    if not options or any(f.departure >= home_after(leg) for f in options):
        return None
    latest = max(f.departure for f in options)
    wanted = (latest - (home_after(leg) - leg.departure)).astimezone(leg.departure.tzinfo)
    wanted = wanted.replace(minute=wanted.minute // 30 * 30, second=0, microsecond=0)  # legs leave on the half hour
    morning = datetime.combine(day, EARLIEST_BACK, leg.departure.tzinfo)
    return max(wanted, morning)


def flight_home(toolbox, leg: PlannedLeg, first: StayPlace, origin: str, travellers: int, day_index: int,
                booked: list | None = None):
    """The activities, cost, citation and decision of the flight home (a HomeFromFirst's fields)."""
    from .stitch import HomeFromFirst
    airport = plan_airport(first, origin)
    day = leg.arrival.astimezone(ZoneInfo(first.tz)).date()
    options = [f for f in home_options(toolbox, first, origin, day, booked) if f.departure >= home_after(leg)]
    if not options:
        raise InfeasiblePlan(f"No flight home from {airport} on {day} after the leg back to {first.city} "
                             f"arrives at {leg.arrival:%H:%M}; end the trip in {leg.from_city} instead")
    f = min(options, key=lambda o: (o.price_usd_cents, o.flight_id))
    airport = f.origin
    info = toolbox.catalog.airport(airport)
    # a booking's price is the whole booking's, counted unless paid or unpriced; a fare is per traveller
    cents = (f.price_usd_cents if f.booking == "priced" else 0) if f.booking else f.price_usd_cents * travellers
    notes = f"{f.carrier} {f.flight_number} {f.origin}→{f.dest}, {format_usd(f.price_usd_cents)}"
    notes += f"; booked ({f.booking})" if f.booking else ""
    estimated = f.provenance.data_source == "estimated"
    flight = Activity(id=f"d{day_index}-departure-{f.flight_id}", ref=f.flight_id, role="departure",
                      kind=ChoiceKind.flight, window=clipped_window(f.departure, first.tz, f.arrival, first.tz, day),
                      name=f"{f.flight_number} {f.origin}→{f.dest}", geo=info.geo,
                      notes=notes + (" (estimated flight)" if estimated else ""), cost_usd_cents=cents,
                      provenance=f.provenance, start=f.departure, end=f.arrival, start_tz=first.tz,
                      end_tz=toolbox.catalog.airport(origin).tz)
    why = ("as booked" if f.booking else
           "the cheapest flight leaving at least 3 h after the train or flight back arrives")
    decision = Decision(node="legs", selected=f.flight_id, alternatives_considered=len(options) - 1,
                        rationale=f"Home from {first.city} ({airport}) on {f.flight_number}, {why}.")
    return HomeFromFirst(activities=[flight], cost_cents=cents,
                         citations=[Citation(claim=flight.notes, provenance=f.provenance)], decision=decision)
