"""Verifiers of a multi-city trip as one chain (issue 33 §3): pure functions
``(itinerary) -> list[Violation]`` over the stitched itinerary (each stay's own plan was verified by
the city verifiers before it was stitched; these check what joins them):

- ``verify_leg_departures``: the check-out is done before the traveller leaves for the leg, and the
  transfer reaches the station (airport) with its buffer before the leg leaves;
- ``verify_leg_arrivals``: after the leg and the transfer, the traveller reaches the hotel before
  check-in's end (midnight);
- ``verify_presence``: nothing is planned in a city on a day (or a part of a leg day) the traveller is
  not there;
- ``verify_last_leg``: a train, bus or ferry arriving after 23:00 misses the city's last connections;
- ``verify_chain_budget``: everything — stays, legs, flights — within the budget;
- ``verify_chain_locks``: each locked slot is on its day, in its window, in the stay it belongs to.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta

from engine.geo import distance_km
from engine.models import Activity, ItineraryV1, Violation, format_usd
from engine.models.violations import ViolationKind

BUFFER_MIN = {"train": 15, "bus": 15, "ferry": 30, "flight": 90, "drive": 0}
LAST_ARRIVAL = time(23, 0)  # later than this, a station's last metro and the hotel desk are a risk
CITY_REACH_KM = 80.0  # an activity farther than this from the day's city is elsewhere (airports are nearer)
MIDNIGHT_SLACK = timedelta(minutes=1)


def _v(kind: ViolationKind, ref: str, message: str, *, blocking: bool = True, **details) -> Violation:
    return Violation(kind=kind, node_ref=ref, blocking=blocking, details={"message": message, **details})


def _leg_days(it: ItineraryV1):
    """(day index, day, index of the leg activity in it, the leg) of every leg day."""
    legs = {f"leg_{leg.index}": leg for leg in it.legs}
    for d, day in enumerate(it.days):
        for i, a in enumerate(day.activities):
            if a.role == "leg" and a.ref in legs:
                yield d, day, i, legs[a.ref]


def verify_leg_departures(it: ItineraryV1) -> list[Violation]:
    out = []
    for d, day, i, leg in _leg_days(it):
        before = day.activities[:i]
        checkout = next((a for a in reversed(before) if a.role == "checkout"), None)
        transfer = before[-1] if before and before[-1].role == "transfer" else None
        ref = f"leg_{leg.index}"
        if checkout is None:
            if any(a.role == "checkout" for a in day.activities[i + 1:]):
                out.append(_v(ViolationKind.timing_infeasible, ref, f"day {d + 1}: the check-out in "
                              f"{leg.from_city} comes after the {leg.mode} leaves", reason="checkout_after_leg"))
            continue
        leaving = transfer.start if transfer is not None and transfer.start else leg.departure
        if checkout.end is not None and checkout.end > leaving:
            out.append(_v(ViolationKind.timing_infeasible, ref, f"day {d + 1}: check-out in {leg.from_city} ends "
                          f"{checkout.end:%H:%M}, after leaving for the {leg.mode} at {leaving:%H:%M}",
                          reason="checkout_after_leaving"))
        if transfer is not None and transfer.end is not None:
            buffer = timedelta(minutes=BUFFER_MIN[leg.mode])
            if transfer.end + buffer > leg.departure:
                out.append(_v(ViolationKind.timing_infeasible, ref,
                              f"day {d + 1}: at {leg.from_name} {transfer.end:%H:%M}, less than "
                              f"{BUFFER_MIN[leg.mode]} min before the {leg.mode} leaves at {leg.departure:%H:%M}",
                              reason="leg_buffer"))
    return out


def verify_leg_arrivals(it: ItineraryV1) -> list[Violation]:
    out = []
    for d, day, i, leg in _leg_days(it):
        after = day.activities[i + 1:]
        transfer = after[0] if after and after[0].role == "transfer" else None
        reached = transfer.end if transfer is not None and transfer.end else leg.arrival
        checkin = next((a for a in after if a.role == "checkin"), None)
        zone = reached.tzinfo
        midnight = datetime.combine(day.date, time(23, 59), zone) + MIDNIGHT_SLACK
        ref = f"leg_{leg.index}"
        if reached > midnight:
            out.append(_v(ViolationKind.timing_infeasible, ref, f"day {d + 1}: the {leg.mode} to {leg.to_city} "
                          f"reaches the hotel after midnight, past check-in's end", reason="after_checkin_end"))
        elif checkin is not None and checkin.start is not None and checkin.start < reached:
            out.append(_v(ViolationKind.timing_infeasible, ref, f"day {d + 1}: check-in in {leg.to_city} at "
                          f"{checkin.start:%H:%M}, before the traveller arrives ({reached:%H:%M})",
                          reason="checkin_before_arrival"))
    return out


def _near(a: Activity, lat: float, lon: float) -> bool:
    return a.geo is None or distance_km(a.geo.lat, a.geo.lon, lat, lon) <= CITY_REACH_KM


def day_segments(it: ItineraryV1):
    """(day index, stay index, activities) of each part of a day spent in one city: a leg day in
    two parts (before the leg: the stay it leaves; after: the stay it reaches)."""
    count = len(getattr(it.intent, "stays", []))
    splits = {d: (i, leg) for d, _, i, leg in _leg_days(it)}
    for d, day in enumerate(it.days):
        if day.stay is None:
            continue
        if d in splits:
            i, leg = splits[d]
            yield d, leg.index, day.activities[:i]
            yield d, (leg.index + 1) % count, day.activities[i + 1:]
        else:
            yield d, day.stay, day.activities


def _hotels(it: ItineraryV1) -> dict[int, Activity]:
    """Each stay's hotel (its check-in, else its check-out): where the stay is."""
    found: dict[int, Activity] = {}
    for _, k, acts in day_segments(it):
        for a in acts:
            if a.kind.value == "lodging" and a.geo is not None and (
                    k not in found or (a.role == "checkin" and found[k].role != "checkin")):
                found[k] = a
    return found


def verify_presence(it: ItineraryV1) -> list[Violation]:
    """Each planned place is near the city the traveller is in at that moment of the trip."""
    if not it.legs:
        return []
    stays = it.intent.stays  # type: ignore[union-attr]
    hotels = _hotels(it)
    out = []
    for d, k, acts in day_segments(it):
        hotel = hotels.get(k)
        if hotel is None or hotel.geo is None:
            continue
        for a in acts:
            if a.kind.value in ("flight", "transit") or a.role in ("leg", "transfer"):
                continue
            if not _near(a, hotel.geo.lat, hotel.geo.lon):
                out.append(_v(ViolationKind.timing_infeasible, a.id, f"day {d + 1}: {a.name} is not in "
                              f"{stays[k].city}, where the traveller is then", reason="not_in_city"))
    return out


def verify_last_leg(it: ItineraryV1) -> list[Violation]:
    return late_legs(it.legs)


def late_legs(legs: list) -> list[Violation]:
    """Legs by train, bus or ferry arriving after 23:00, and any leg arriving the next day (a drive
    past midnight: the hotel desk has closed): checked on the legs alone too, before the stays are
    planned around them."""
    out = []
    for leg in legs:
        local = leg.arrival
        next_day = local.date() > leg.departure.date()
        if leg.mode in ("train", "bus", "ferry") and (local.time() > LAST_ARRIVAL or next_day):
            out.append(_v(ViolationKind.timing_infeasible, f"leg_{leg.index}",
                          f"the {leg.mode} from {leg.from_city} arrives in {leg.to_city} at {local:%H:%M}, "
                          f"after the last connections (23:00)", reason="last_train"))
        elif next_day:
            out.append(_v(ViolationKind.timing_infeasible, f"leg_{leg.index}",
                          f"the {leg.mode} from {leg.from_city} reaches {leg.to_city} at {local:%H:%M} the next day, "
                          f"after check-in's end", reason="after_checkin_end"))
    return out


def verify_chain_budget(it: ItineraryV1) -> list[Violation]:
    total, budget = it.cost_breakdown.total_usd_cents, it.intent.budget_usd_cents
    if total <= budget:
        return []
    return [_v(ViolationKind.budget_exceeded, "trip", f"the whole trip costs {format_usd(total)}, over the "
               f"{format_usd(budget)} budget", total_usd_cents=total, budget_usd_cents=budget)]


def verify_chain_locks(it: ItineraryV1) -> list[Violation]:
    out = []
    for slot in it.intent.prefs.locked_slots:
        day = it.days[slot.day_offset] if slot.day_offset < len(it.days) else None
        found = [a for a in (day.activities if day else []) if a.ref == slot.activity_id]
        if not found:
            out.append(_v(ViolationKind.pref_violated, slot.activity_id, f"day {slot.day_offset + 1}: the locked "
                          f"{slot.activity_id} is not planned that day", reason="locked_slot_missing"))
        elif not any(a.window.start >= slot.window.start and a.window.end <= slot.window.end for a in found):
            out.append(_v(ViolationKind.pref_violated, slot.activity_id, f"day {slot.day_offset + 1}: "
                          f"{slot.activity_id} is outside its locked window", reason="locked_slot_moved"))
    return out


CHAIN_VERIFIERS = (verify_leg_departures, verify_leg_arrivals, verify_presence, verify_last_leg,
                   verify_chain_budget, verify_chain_locks)


def verify_chain(it: ItineraryV1) -> list[Violation]:
    """Every chain family's findings, blocking first, in a stable order."""
    found = [v for verifier in CHAIN_VERIFIERS for v in verifier(it)]
    return sorted(found, key=lambda v: (not v.blocking, v.kind.value, v.node_ref))
