"""A saved multi-city itinerary (``tripwright verify``) against what it was planned from: the days
against the intent's stays (each day in the stay whose nights it covers), each leg row against its
leg, each booked leg against the traveller's ticket, the cost breakdown against its own parts and
the legs' fares — blocking ``fact_mismatch`` findings, then the chain verifiers re-run on the file
(never the file's own list)."""

from __future__ import annotations

from datetime import date

from engine.models import ItineraryV1, MultiCityIntent, Violation

from .chain import day_segments, verify_chain
from .mismatch import mismatch


def _stay_of_day(intent: MultiCityIntent, d: int) -> int:
    """The stay whose night day ``d`` is spent in (the last day: where the flight home leaves)."""
    at = 0
    for k, stay in enumerate(intent.stays):
        at += stay.nights
        if d < at:
            return k
    return 0 if intent.return_from == "first" else len(intent.stays) - 1


def _days(it: ItineraryV1, intent: MultiCityIntent) -> list[Violation]:
    out = []
    if len(it.days) != intent.days:
        out.append(mismatch("trip", f"{len(it.days)} days saved, the stays make {intent.days}"))
    for d, day in enumerate(it.days):
        want = date.fromordinal(intent.start_date.toordinal() + d)
        if day.date != want:
            out.append(mismatch(f"day:{d}", f"day {d + 1} is {day.date}, the trip's is {want}"))
        if day.stay != _stay_of_day(intent, d):
            out.append(mismatch(f"day:{d}", f"day {d + 1} is said to be in stay {day.stay}, the nights put it in "
                                            f"{intent.stays[_stay_of_day(intent, d)].city}"))
    return out


def _legs(it: ItineraryV1, intent: MultiCityIntent) -> list[Violation]:
    out = []
    requests = intent.leg_requests()
    if len(it.legs) != len(requests):
        out.append(mismatch("legs", f"{len(it.legs)} legs saved, the stays need {len(requests)}"))
    rows = {a.ref: a for day in it.days for a in day.activities if a.role == "leg"}
    for leg in it.legs:
        ref = f"leg_{leg.index}"
        row = rows.get(ref)
        if row is None:
            out.append(mismatch(ref, f"leg {leg.index + 1} ({leg.from_city} → {leg.to_city}) is on no day"))
        elif (row.start, row.end, row.cost_usd_cents) != (leg.departure, leg.arrival, leg.fare_usd_cents):
            out.append(mismatch(ref, f"leg {leg.index + 1}'s row says {row.start:%H:%M}–{row.end:%H:%M}, "
                                     f"{row.cost_usd_cents} cents; the leg {leg.departure:%H:%M}–{leg.arrival:%H:%M}, "
                                     f"{leg.fare_usd_cents} cents") if row.start and row.end else
                       mismatch(ref, f"leg {leg.index + 1}'s row has no times"))
        ticket = requests[leg.index].booked if leg.index < len(requests) else None
        if ticket is not None and (leg.source != "booked" or (leg.departure, leg.arrival) != (ticket.departure, ticket.arrival)
                                   or leg.fare_usd_cents != (ticket.price_usd_cents or 0)):
            out.append(mismatch(ref, f"leg {leg.index + 1} is not the booked {ticket.mode} {ticket.number} "
                                     f"{ticket.departure:%Y-%m-%d %H:%M} at {ticket.price_usd_cents or 0} cents"))
        if ticket is None and leg.source == "booked":
            out.append(mismatch(ref, f"leg {leg.index + 1} says booked, but the intent books no ticket for it"))
    return out


def _costs(it: ItineraryV1) -> list[Violation]:
    c = it.cost_breakdown
    parts = (c.flights_usd_cents + c.lodging_usd_cents + c.attractions_usd_cents + c.transit_usd_cents
             + c.daily_spend_usd_cents + c.meals_usd_cents)
    out = []
    if parts != c.total_usd_cents:
        out.append(mismatch("trip", f"the cost parts add up to {parts} cents, the total says {c.total_usd_cents}"))
    ground = sum(leg.fare_usd_cents for leg in it.legs if leg.mode != "flight")
    flown = sum(leg.fare_usd_cents for leg in it.legs if leg.mode == "flight")
    if c.transit_usd_cents < ground or c.flights_usd_cents < flown:
        out.append(mismatch("trip", "the cost breakdown leaves out some legs' fares"))
    return out


PLACE_ROLES = ("activity", "meal", "checkin", "checkout")


def _travellers_own(a) -> bool:
    """A booked hotel or event, or a saved place of the traveller's own: theirs, not the city's data."""
    return (a.provenance is not None and a.provenance.data_source == "user") or a.ref.startswith(("user_", "booked"))


def _places(it: ItineraryV1, intent: MultiCityIntent, known) -> list[Violation]:
    """Every place a day books is one its stay's city has (``known(city, activity)``; a city the
    catalog cannot read — no fixture, no cached pack — is said once)."""
    out, unread = [], set()
    for d, k, acts in day_segments(it):
        city = intent.stays[k].city
        for a in acts:
            if a.role not in PLACE_ROLES or city in unread or _travellers_own(a):
                continue
            verdict = known(city, a)
            if verdict is None:
                unread.add(city)
                said = mismatch(f"stay_{k}", f"{city}: no fixture or cached pack here to check its places against "
                                             f"(plan or fetch {city} once to check them)")
                out.append(said.model_copy(update={"blocking": False}))  # unchecked, not found wrong
            elif not verdict:
                out.append(mismatch(a.id, f"day {d + 1}: {a.name} ({a.ref}) is not a place {city}'s data has"))
    return out


def verify_saved_chain(it: ItineraryV1, known=None) -> list[Violation]:
    """``known(city, activity)``: True/False whether the city's data has the activity's place,
    None when the city cannot be read (no place check without it)."""
    intent = it.intent
    assert isinstance(intent, MultiCityIntent)
    found = _days(it, intent) + _legs(it, intent) + _costs(it) + verify_chain(it)
    if known is not None:
        found += _places(it, intent, known)
    return sorted(found, key=lambda v: not v.blocking)
