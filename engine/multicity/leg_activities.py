"""A leg as the activities of its day: the transfer to where it leaves, the leg itself (role
``leg``, kind transit, ref ``leg_N``, with its true start and end and their offsets), and the
transfer from where it arrives. Transfers at a leg's ends are estimated from the distance
between the city's centre (where the station is taken to be) and the place before or after, and
say so; a leg says where its times came from."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from engine.geo import distance_km
from engine.models import Activity, ChoiceKind, Citation, Geo, PlannedLeg, Provenance, TimeWindow, format_usd
from engine.tools.provenance import stamp

WALK_KM = 1.2  # closer than this, the traveller walks
WALK_KMH = 4.5
CITY_KMH = 18.0  # metro or taxi across a city, with the wait
CITY_WAIT_MIN = 10
CITY_FARE_CENTS = 300  # per traveller, a metro or bus ticket (estimated)
WHERE = {"train": "the station", "bus": "the bus station", "flight": "the airport", "ferry": "the ferry terminal",
         "drive": "the car"}
SOURCE_WORDS = {"router": "timetable from the transit router", "booked": "booked ticket",
                "routed": "routed drive", "estimated": "estimated from distance"}
DATA_SOURCE = {"router": "real", "booked": "user", "routed": "real", "estimated": "estimated"}


def leg_provenance(leg: PlannedLeg) -> Provenance:
    """Where the leg came from: its own provenance (a router's answer), else a stamp of its source."""
    if leg.provenance is not None:
        return leg.provenance
    payload = leg.model_dump(mode="json", exclude={"provenance", "path"})
    p = stamp("legs", payload, data_source=DATA_SOURCE[leg.source], ref_id=f"leg_{leg.index}")  # type: ignore[arg-type]
    return p.model_copy(update={"source": "user"}) if leg.source == "booked" else p


def _clock(moment: datetime, tz: str, day) -> time:
    local = moment.astimezone(ZoneInfo(tz))
    if local.date() > day:
        return time(23, 59)
    if local.date() < day:
        return time(0, 0)
    return local.time().replace(second=0, microsecond=0)


def clipped_window(start: datetime, start_tz: str, end: datetime, end_tz: str, day) -> TimeWindow:
    a, b = _clock(start, start_tz, day), _clock(end, end_tz, day)
    if b <= a:
        b = time(23, 59) if a < time(23, 59) else a
        a = a if b > a else time(23, 58)
    return TimeWindow(start=a, end=b)


def leg_notes(leg: PlannedLeg, travellers: int) -> str:
    what = " ".join(x for x in (leg.operator, leg.number) if x)
    changes = f", {leg.changes} change(s)" if leg.changes else ""
    fare = f"{format_usd(leg.fare_usd_cents)}{'' if leg.source == 'booked' else ' (estimated)'}"
    booked = f", confirmation {leg.confirmation}" if leg.confirmation else ""
    for_whom = f" for {travellers}" if travellers > 1 else ""
    return (f"{leg.mode}{' ' + what if what else ''}, {leg.distance_km:.0f} km{changes}, {fare}{for_whom}{booked}; "
            f"{SOURCE_WORDS[leg.source]}; {leg.why}")


def leg_activity(leg: PlannedLeg, day_index: int, day, from_tz: str, to_tz: str, travellers: int) -> Activity:
    return Activity(id=f"d{day_index}-leg-{leg.index}", ref=f"leg_{leg.index}", role="leg", kind=ChoiceKind.transit,
                    window=clipped_window(leg.departure, from_tz, leg.arrival, to_tz, day),
                    name=f"{leg.mode.capitalize()} {leg.from_name} → {leg.to_name}", geo=leg.to_geo,
                    notes=leg_notes(leg, travellers), confidence="high" if leg.source != "estimated" else "low",
                    cost_usd_cents=leg.fare_usd_cents, provenance=leg_provenance(leg),
                    start=leg.departure, end=leg.arrival, start_tz=from_tz, end_tz=to_tz)


def leg_citation(leg: PlannedLeg, travellers: int) -> Citation:
    """The leg row's notes, cited to where the leg came from (every claim of the row backed)."""
    return Citation(claim=leg_notes(leg, travellers), provenance=leg_provenance(leg))


def transfer_citation(transfer: Activity) -> Citation:
    assert transfer.provenance is not None
    return Citation(claim=transfer.notes, provenance=transfer.provenance)


def transfer_minutes_cents(a: Geo | None, b: Geo | None, travellers: int) -> tuple[int, int, float]:
    """(minutes, cents, km) across a city from ``a`` to ``b`` (estimated)."""
    if a is None or b is None:
        return CITY_WAIT_MIN + 20, CITY_FARE_CENTS * travellers, 0.0
    km = distance_km(a.lat, a.lon, b.lat, b.lon)
    if km < WALK_KM:
        return max(1, round(km / WALK_KMH * 60)), 0, km
    return CITY_WAIT_MIN + round(km / CITY_KMH * 60), CITY_FARE_CENTS * travellers, km


def leg_transfer(leg: PlannedLeg, *, to_leg: bool, day_index: int, day, tz: str, other: Geo | None,
                 at: datetime, travellers: int) -> Activity:
    """The transfer to the leg (starting ``at``) or from it (starting ``at``, the leg's arrival)."""
    end_geo = leg.from_geo if to_leg else leg.to_geo
    minutes, cents, km = transfer_minutes_cents(other, end_geo, travellers)
    where = WHERE[leg.mode]
    name = f"Transfer to {where}" if to_leg else f"Transfer from {where}"
    how = "walk" if cents == 0 else "metro or taxi"
    start, end = at, at + timedelta(minutes=minutes)
    direction = "to" if to_leg else "from"
    notes = (f"{how}, {km:.1f} km, about {minutes} min, {format_usd(cents)} (estimated: "
             f"{where} taken at the city centre)")
    return Activity(id=f"d{day_index}-transit-{direction}-leg-{leg.index}", role="transfer", kind=ChoiceKind.transit,
                    window=clipped_window(start, tz, end, tz, day), name=name, geo=None, confidence="low", notes=notes,
                    cost_usd_cents=cents, start=start, end=end, start_tz=tz, end_tz=tz,
                    provenance=stamp("legs", notes, data_source="estimated", ref_id=f"leg_{leg.index}"))
