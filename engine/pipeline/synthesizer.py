"""Synthesizer: readable notes per activity and a citation for every claim (ADR-006:
"no evidence, no claim" — a fact without provenance, or from an omitted tool, is not stated).

notes per activity, a citation for every stated fact ("no evidence, no claim"); estimated facts said so
("estimated flight", "(estimated)" prices, "opening hours not published" at `confidence: low`),
`cost_breakdown.estimated_parts` naming the estimated cost lines, `attributions` ("© OpenStreetMap
contributors (ODbL)" when a planned place is from OSM), transfers as activities, cost breakdown with the FX
disclaimer; with a `NotesLookup` (`PlanningSession(notes=...)`; the CLI's `plan --save` and the signed-in
app give one) each visit and meal adds "From your notes: …" / "From Tripwright's notes: …" cited with
`provenance.source = "rag"` (`ref_id` = item/chunk) — quoted as data, never planned from; a place no note
speaks of gets no line, and "From your notes: information not available" is said only where the traveller's
own notes name the place (coverage ≥ 0.5) without answering at τ, or when retrieval is down
(`SIMULATE_EMPTY_RAG`); its revision is part of the node's memo key. Road trips: `road_notes.py` adds the
same lines to each night and stop (notes of the night's town — "Holbrook, AZ" — of a town visit's town, then
of the named route), after the memoised synthesizer
"""

from __future__ import annotations

import uuid
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

from engine.clocks import wall_span
from engine.models.place import traveller_name
from engine.costs import plan_cost
from engine.facts import TripFacts
from engine.models import (Activity, Attraction, ChoiceKind, Citation, CostBreakdown, DayItinerary, Decision,
                           IntentV1, ItineraryV1, Lodging, PlanV1, Provenance, RepairDiff, Slot, TimeWindow,
                           Violation, format_usd, minutes_of)
from engine.models.common import format_price
from engine.notes.hints import NO_NOTES, UNKNOWN_TEXT, NotesLookup
from engine.planning.booked import state_of
from engine.planning.booked_events import EVENT_PREFIX, event_id
from engine.schedule import LATE_CHECKIN_UNTIL, day_legs, late_checkin
from engine.tools.provenance import stamp
from engine.tools.weather import weather_credit

WEEKDAY = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


class Claims:
    def __init__(self) -> None:
        self.citations: list[Citation] = []

    def state(self, text: str, provenance: Provenance | None) -> str | None:
        if provenance is None or provenance.data_source == "omitted":
            return None
        self.citations.append(Citation(claim=text, provenance=provenance))
        return text


def _from_notes(place: str, city: str, notes: NotesLookup, claims: Claims) -> str | None:
    """What the traveller's (or Tripwright's) notes say about ``place``, cited as ``source="rag"``;
    nothing when they say nothing about it (``engine.notes.hints``). The passage is quoted as
    data: it is never parsed, followed or fed back into planning."""
    if not notes.active:
        return None
    hint = notes.about(city, place)
    if hint is None:
        return None
    if not hint.confident:
        return UNKNOWN_TEXT
    return claims.state(*hint.cited())


def _notes(slot: Slot, day, facts: TripFacts, claims: Claims, place_notes: str | None = None,
           intent: IntentV1 | None = None) -> str:
    c = slot.selected
    parts: list[str | None] = []
    if c.kind is ChoiceKind.flight:
        f = facts.flights.get(c.option_ref)
        if f and f.booking is not None:
            parts.append(claims.state(f"your booking: {f.carrier} {f.flight_number} {f.origin}→{f.dest}"
                                      f"{_confirmation(intent, f.flight_number)}{_booked_price(f.booking, f.price_usd_cents)}",
                                      f.provenance))
        elif f and f.provenance.data_source == "estimated":
            parts.append(claims.state(f"estimated flight {f.origin}→{f.dest} (no open schedule data: a typical "
                                      f"time and duration), {f.fare_tier} fare about "
                                      f"{format_usd(f.price_usd_cents)}, estimated"
                                      f"{', overnight' if f.overnight else ''}", f.provenance))
        elif f:
            parts.append(claims.state(f"{f.carrier} {f.flight_number} {f.origin}→{f.dest}, {f.fare_tier} fare "
                                      f"{format_usd(f.price_usd_cents)}{', overnight' if f.overnight else ''}",
                                      f.provenance))
    elif c.kind is ChoiceKind.lodging:
        h = facts.lodgings.get(c.option_ref)
        if h and h.booking is not None:
            placed = "; placed by its address (OpenStreetMap Nominatim)" if h.provenance.source_url else ""
            what = (f"your booking: check-in from {h.checkin_window.start:%H:%M}{_confirmation(intent, None)}"
                    f"{_booked_price(h.booking, None)}{placed}") if slot.role == "checkin" \
                else f"checkout by {h.checkout_window.end:%H:%M} (usual time; see your booking)"
            parts.append(claims.state(what, h.provenance))
        elif h:
            what = (f"check-in from {h.checkin_window.start:%H:%M}; {h.tier.value} tier, "
                    f"{format_usd(h.price_per_night_usd_cents)}/night{_estimated(h.price_estimated)}") \
                if slot.role == "checkin" \
                else f"checkout by {h.checkout_window.end:%H:%M}"
            parts.append(claims.state(what, h.provenance))
        if slot.role == "checkin" and minutes_of(slot.window.start) <= LATE_CHECKIN_UNTIL:
            parts.append("late arrival after midnight: the room is held from the night before; "
                         "tell the hotel when you land")
    elif c.option_ref.startswith(EVENT_PREFIX):
        parts.append(_event_said(c.option_ref, intent, facts, claims))
    else:
        parts += _venue_notes(slot, day, facts, claims) + [place_notes]
    return "; ".join(p for p in parts if p) or "Information not available."


def _event_said(ref: str, intent, facts: TripFacts, claims: Claims) -> str | None:
    """A booked event's note: the booking itself (its time, code and price as booked)."""
    event = next((e for e in intent.bookings.events if event_id(e) == ref), None) if intent.bookings else None
    v = facts.venue(ref)
    if event is None or v is None:
        return None
    code = f", confirmation {event.confirmation}" if event.confirmation else ""
    where = f", {event.address}" if event.address else ""
    return claims.state(f"your booking: {event.name}{where}{code}"
                        f"{_booked_price(state_of(event.price_usd_cents, event.paid), event.price_usd_cents)}",
                        v.provenance)


def _venue_notes(slot: Slot, day, facts: TripFacts, claims: Claims) -> list[str | None]:
    v = facts.venue(slot.selected.option_ref)
    if v is None:
        return []
    parts = [claims.state(_hours_said(v, day.date), v.provenance)]
    if slot.selected.kind is ChoiceKind.attraction:
        local = format_price(v.est_price_usd_cents, facts.local_currency, facts.local_rate_to_usd,
                             estimated=v.price_estimated)
        price = "free" if v.est_price_usd_cents == 0 else f"admission about {local}"
        if v.price_estimated and v.est_price_usd_cents == 0:
            price = "admission not published (assumed free)"
        parts.append(claims.state(price + _estimated(v.price_estimated and v.est_price_usd_cents > 0),
                                  v.provenance))
        if v.indoor is not None:
            parts.append(claims.state("indoor" if v.indoor else "outdoor", v.provenance))
    else:
        parts.append(claims.state(f"about {format_usd(v.est_price_usd_cents)} per person{_estimated(v.price_estimated)}",
                                  v.provenance))
    return parts


def _hours_said(v, on) -> str:
    if not v.hours_known:
        return (f"opening hours not published; planned within {', '.join(w.label() for w in v.windows_on(on))} "
                f"as a guess — check before going")
    hours = ", ".join(w.label() for w in v.windows_on(on)) or "closed"
    note = v.note_on(on)  # the rule's word for that date, e.g. the free last Sunday
    return f"open {hours} on {WEEKDAY[on.weekday()]} {on:%Y-%m-%d}" + (f" ({note})" if note else "")


def _confirmation(intent, flight_number: str | None) -> str:
    """The booking's confirmation code, in the itinerary only (logs mask it: ``masked_code``)."""
    bookings = intent.bookings if intent is not None else None
    if bookings is None:
        return ""
    code = (next((f.confirmation for f in bookings.flights if f.flight_number == flight_number), None)
            if flight_number else (bookings.hotel.confirmation if bookings.hotel else None))
    return f", confirmation {code}" if code else ""


def _booked_price(state: str, cents: int | None) -> str:
    if state == "paid":
        return ", paid (not counted in the budget)"
    if state == "unpriced":
        return ", no price given (not counted in the budget)"
    return f", {format_usd(cents)} as booked" if cents is not None else ", as booked"


def _estimated(flag: bool) -> str:
    return " (estimated)" if flag else ""


def _true_span(slot: Slot, day, facts: TripFacts) -> dict:
    """A flight's real departure and arrival, each in its airport's zone (the window is clipped
    to the day); anything else happens on the city's clock."""
    flight = facts.flights.get(slot.selected.option_ref) if slot.selected.kind is ChoiceKind.flight else None
    if flight is not None:
        frm, to = facts.airport_zones.get(flight.origin, facts.tz), facts.airport_zones.get(flight.dest, facts.tz)
        return {"start": flight.departure.astimezone(ZoneInfo(frm)), "end": flight.arrival.astimezone(ZoneInfo(to)),
                "start_tz": frm, "end_tz": to}
    return _city_span(day.date, slot.window, facts.tz)


def _city_span(day, window: TimeWindow, tz: str) -> dict:
    start, end = wall_span(day, window, ZoneInfo(tz))
    return {"start": start, "end": end, "start_tz": tz, "end_tz": tz}


def _activity(slot: Slot, day, facts: TripFacts, claims: Claims, notes: NotesLookup, intent: IntentV1) -> Activity:
    c = slot.selected
    venue = c.kind in (ChoiceKind.attraction, ChoiceKind.meal)
    place_notes = _from_notes(c.label, intent.city, notes, claims) if venue else None
    place = facts.venue(c.option_ref) if venue else None
    stay = facts.lodgings.get(c.option_ref) if c.kind is ChoiceKind.lodging else None
    name, local_name = _names(c.label, place or stay)
    return Activity(id=c.choice_id, ref=c.option_ref, role=slot.role, window=slot.window, kind=c.kind,
                    name=name, local_name=local_name, geo=c.geo, confidence="low" if place is not None and not place.hours_known else "high",
                    notes=_notes(slot, day, facts, claims, place_notes, intent), locked=slot.locked,
                    cost_usd_cents=c.features.cost_usd_cents, provenance=c.provenance,
                    address=(place or stay).address if (place or stay) is not None else None,
                    **_true_span(slot, day, facts))


def _names(label: str, source: Attraction | Lodging | None) -> tuple[str, str | None]:
    """The activity's name in the traveller's language and the local one (issue 31 §3), chosen
    from the venue's or hotel's names once, here; a hotel's label keeps its tier ("… (mid)")."""
    if source is None or not source.names or not label.startswith(source.name):
        return label, None
    shown, local = traveller_name(source.name, source.names)
    return (shown + label[len(source.name):], local) if local else (label, None)


def _transit_activities(plan: PlanV1, di: int, facts: TripFacts, claims: Claims) -> list[Activity]:
    out = []
    ends = {s.selected.choice_id: s for s in plan.days[di].slots}
    for label, leg in day_legs(plan, di, facts):
        src = ends.get(label.split(">")[0])
        if src is None or leg.duration_seconds == 0 or src.role == "departure":
            continue
        start = minutes_of(src.window.end)
        dest = ends.get(label.split(">")[1])
        if late_checkin(di, 0, src) and dest is not None:  # the morning ride out, not a ride at 00:40
            start = max(start, minutes_of(dest.window.start) - max(1, leg.duration_seconds // 60))
        end = min(start + max(1, leg.duration_seconds // 60), 23 * 60 + 59)
        if end <= start:
            continue
        airport = _estimated_airport_leg(leg, src, dest)
        note = claims.state(f"{leg.mode.value}, {leg.distance_m / 1000:.1f} km, about "
                            f"{leg.duration_seconds // 60} min, {format_usd(leg.cost_usd_cents)}"
                            + (", estimated" if airport else ""), leg.provenance)
        out.append(Activity(id=f"d{di}-transit-{label}", role="transfer", window=TimeWindow.of_minutes(start, end),
                            kind=ChoiceKind.transit, name=airport or f"{leg.mode.value.title()} transfer",
                            geo=None, notes=note or "", cost_usd_cents=leg.cost_usd_cents,
                            provenance=leg.provenance,
                            **_city_span(plan.days[di].date, TimeWindow.of_minutes(start, end), facts.tz)))
    return out


def _estimated_airport_leg(leg, src, dest) -> str:
    """An estimated ride between the city and its airport, named so ("Metro from KIX airport,
    estimated"); "" for any other leg (a schedule fixture's airport rides keep their names)."""
    if leg.provenance.data_source != "estimated" or not leg.provenance.ref_id:
        return ""
    if src.role == "arrival":
        return f"{leg.mode.value.title()} from {leg.provenance.ref_id} airport, estimated"
    if dest is not None and dest.role == "departure":
        return f"{leg.mode.value.title()} to {leg.provenance.ref_id} airport, estimated"
    return ""


def _weather_note(day, facts: TripFacts, claims: Claims) -> None:
    w = facts.weather.get(day.date)
    if w is not None:
        label = "Typical weather" if w.typical else "Forecast"
        credit = weather_credit(w.provenance)
        claims.state(f"{label} {day.date}: {w.precip_prob:.0%} chance of rain, {w.temp_c_low:.0f}–"
                     f"{w.temp_c_high:.0f} °C{credit}", w.provenance)


def synthesize(plan: PlanV1, intent: IntentV1, facts: TripFacts, *, decisions: list[Decision],
               violations: list[Violation], repairs: list[RepairDiff], trace_id: str, run_id: str,
               degraded: list[str], fx_provenance: Provenance | None,
               notes: NotesLookup = NO_NOTES) -> ItineraryV1:
    claims = Claims()
    days = []
    for di, day in enumerate(plan.days):
        acts = [_activity(s, day, facts, claims, notes, intent) for s in day.slots] + _transit_activities(plan, di, facts, claims)
        acts += omitted_rows(day, di, degraded, facts.tz)
        _weather_note(day, facts, claims)
        days.append(DayItinerary(date=day.date, activities=sorted(acts, key=lambda a: (a.window.start, a.kind != "transit"))))
    cost = plan_cost(plan, facts)
    as_of = plan.assumptions.fx_as_of.isoformat() if plan.assumptions.fx_as_of else "unknown"
    fx_text = (f"FX as-of {as_of}: 1 {facts.currency} = {plan.assumptions.fx_rate_to_usd:.4f} USD"
               if facts.currency != "USD" else f"Prices in USD; FX as-of {as_of}")
    if "fx" in degraded and facts.currency != "USD":
        fx_text = (f"Exchange rates unavailable: {facts.currency} prices counted 1:1 as USD (rate 1.0), "
                   f"so totals may be far off; verify before booking")
    claims.state(fx_text, fx_provenance)
    breakdown = CostBreakdown(flights_usd_cents=cost.flights, lodging_usd_cents=cost.lodging,
                              attractions_usd_cents=cost.attractions, transit_usd_cents=cost.transit,
                              daily_spend_usd_cents=cost.daily_spend, meals_usd_cents=cost.meals,
                              total_usd_cents=cost.total,
                              currency_disclaimer=fx_text, estimated_parts=estimated_parts(plan, facts))
    return ItineraryV1(itinerary_id=str(uuid.uuid4()), intent=intent, days=days, cost_breakdown=breakdown,
                       decisions=decisions, citations=claims.citations, violations=violations,
                       repairs=repairs, degraded_tools=degraded, created_at=datetime.now(timezone.utc),
                       trace_id=trace_id, run_id=run_id, attributions=_attributions(days))


OMITTED_WHAT = {"attractions": "sights", "dining": "meals"}
OMITTED_SPAN = (9 * 60, 21 * 60)  # where a day's sights and meals would have gone


def omitted_rows(day, di: int, degraded: list[str], tz: str) -> list[Activity]:
    """Seed §12.1: an attractions or dining outage omits the day's activities — one grey
    ``omitted`` row a day says so (in the day's longest free time), so the day is not silently empty."""
    tools = [t for t in OMITTED_WHAT if t in degraded]
    if not tools:
        return []
    window = _longest_gap(day)
    if window is None:
        return []
    what = " and ".join(OMITTED_WHAT[t] for t in tools)
    provenance = stamp(tools[0], {"omitted": tools, "date": day.date.isoformat()}, data_source="omitted")
    return [Activity(id=f"d{di}-omitted", role="omitted", window=window,
                     kind=ChoiceKind.attraction if "attractions" in tools else ChoiceKind.meal,
                     name=f"{what.capitalize()} omitted", geo=None,
                     notes=f"{' and '.join(tools).capitalize()} data unavailable: this day's {what} are omitted; "
                           f"plan them on the spot or re-plan later.",
                     provenance=provenance, **_city_span(day.date, window, tz))]


def _longest_gap(day) -> TimeWindow | None:
    lo, hi = OMITTED_SPAN
    busy = sorted((minutes_of(s.window.start), minutes_of(s.window.end)) for s in day.slots)
    best, cursor = None, lo
    for start, end in [*busy, (hi, hi)]:
        gap_end = min(start, hi)
        if gap_end - cursor >= 60 and (best is None or gap_end - cursor > best[1] - best[0]):
            best = (cursor, gap_end)
        cursor = max(cursor, min(end, hi))
    return TimeWindow.of_minutes(*best) if best else None


OSM_CREDIT = "© OpenStreetMap contributors (ODbL)"


def _attributions(days: list[DayItinerary]) -> list[str]:
    osm = any(a.provenance is not None and a.provenance.data_source == "osm" for d in days for a in d.activities)
    return [OSM_CREDIT] if osm else []


def estimated_parts(plan: PlanV1, facts: TripFacts) -> list[str]:
    """The cost lines whose figures are estimates (the cost panel marks them)."""
    parts = set()
    for day in plan.days:
        for slot in day.slots:
            c = slot.selected
            flight, hotel = facts.flights.get(c.option_ref), facts.lodgings.get(c.option_ref)
            venue = facts.venue(c.option_ref)
            if c.kind is ChoiceKind.flight and flight is not None and flight.provenance.data_source == "estimated":
                parts.add("flights")
            elif c.kind is ChoiceKind.lodging and hotel is not None and hotel.price_estimated:
                parts.add("lodging")
            elif venue is not None and venue.price_estimated:
                parts.add("meals" if c.kind is ChoiceKind.meal else "attractions")
    if facts.city_estimated:
        parts |= {"transit", "daily_spend"}
    return sorted(parts)
