"""A saved road-trip itinerary back into a RoadPlan, so ``tripwright verify`` re-checks the
seed 000 invariants against the route geometry (not against what the file claims)."""

from __future__ import annotations

import math

from engine.costs import rooms_for
from engine.errors import InputError
from engine.models import ChoiceKind, ItineraryV1

from .booked_night import booked_night, booked_nights
from .corridor import TrackCorridor
from .land_route import land_corridor
from .loop import booked_via, home_loop
from .plan import Bed, RoadDay, RoadPlan, RoadStop, Town
from .rest_days import driving_intent
from .routes import find_route, progress_after

STOP_KINDS = (ChoiceKind.attraction, ChoiceKind.meal)  # a stop on the way: a sight, or a diner (a meal)


def _place(name: str, lat: float, lon: float, **kw) -> Town:
    return Town(name=name.split(",")[0], lat=lat, lon=lon, **kw)


def road_plan_from_itinerary(itin: ItineraryV1) -> RoadPlan:
    intent = itin.intent
    days = itin.days
    if not days or any(d.anchor is None or not d.path for d in days):
        raise InputError("days", "a road-trip itinerary needs an anchor and a driven path on every day")
    first_point, end_point = days[0].path[0], days[-1].path[-1]
    origin = _place(days[0].drive.from_name, first_point.lat, first_point.lon)
    last = days[-1].anchor
    terminus = _place(last.name, (last.geo or end_point).lat, (last.geo or end_point).lon)
    corridor, region = saved_corridor(intent, origin, terminus, days)
    out = []
    for n, day in enumerate(days):
        start = _place(day.drive.from_name, day.path[0].lat, day.path[0].lon)
        a = day.anchor
        lat, lon = (a.geo.lat, a.geo.lon) if a.geo else (day.path[-1].lat, day.path[-1].lon)
        anchor = Town(name=a.name.split(",")[0], lat=lat, lon=lon, admin1=a.admin1, country=a.country,
                       confidence=a.confidence, source=a.source, note=a.note)
        sp = corridor.progress_miles(*start.point) if n == 0 else out[-1].anchor_progress
        ap = progress_after(corridor, *anchor.point, sp)
        out.append(RoadDay(index=n, date=day.date, start=start, anchor=anchor, start_progress=sp, anchor_progress=ap,
                           anchor_offset=corridor.offset_miles(*anchor.point), drive_miles=day.drive.miles,
                           drive_hours=day.drive.hours, depart_min=0, arrive_min=0, stops=saved_stops(day, corridor),
                           forced=a.source == "user", returning=intent.trip_type == "round_trip" and ap < sp,
                           bed=_bed(day, rooms_for(intent.travellers, intent.rooms)), exemption=day.exemption))
    return RoadPlan(origin=origin, terminus=terminus, days=tuple(out), corridor=corridor,
                    corridor_miles=intent.corridor_max_deviation_miles, region=region, trip_type=intent.trip_type,
                    max_daily_miles=intent.max_daily_miles, booked=_booked(intent))


def saved_corridor(intent, origin: Town, terminus: Town, days, geocoder=None):
    """The corridor the plan followed: the named route in its direction of travel, the imported
    track, the loop of a round trip from home (re-derived as the planner chose it), or the direct line."""
    if intent.route:
        route = find_route(intent.route)
        a = route.progress_miles(*origin.point)
        b = route.progress_miles(days[0].path[-1].lat, days[0].path[-1].lon)
        return (route if b >= a else route.reversed()), route.region
    region = "us" if (days[0].anchor.country or "US") == "US" else "europe"
    if intent.route_track:
        first = days[0].path[-1]
        corridor = TrackCorridor(list(intent.route_track), intent.route_track_name or "imported route")
        a, b = corridor.progress_miles(*origin.point), corridor.progress_miles(first.lat, first.lon)
        return (corridor if b >= a else TrackCorridor(list(intent.route_track)[::-1], corridor.name)), region
    if geocoder is None:
        from engine.geocode import default_gazetteer
        geocoder = default_gazetteer()
    if intent.trip_type == "round_trip" and intent.origin.casefold() == intent.terminus.casefold():
        # sized as the planner sized it: by the days that drive (rest days, a booked stay's extra nights out)
        driving = driving_intent(intent, extra_rest=max(0, booked_nights(intent) - 1))
        via, out = booked_via(intent, driving.days)
        return home_loop(origin, region, geocoder, days=driving.days, cap=intent.max_daily_miles, via=via,
                         via_out=out, width=intent.corridor_max_deviation_miles), region
    if intent.trip_type == "round_trip":  # the line runs to the turnaround, the last outbound night
        turn = days[max(1, math.ceil(len(days) / 2)) - 1]
        far = turn.anchor.geo or turn.path[-1]
        return land_corridor(origin, _place(turn.anchor.name, far.lat, far.lon), region, geocoder), region
    return land_corridor(origin, terminus, region, geocoder), region


def _booked(intent):
    """The booking the saved plan was made around, to check its night is still there (verify);
    one the run never placed (no point) cannot be checked."""
    hotel = intent.bookings.hotel if getattr(intent, "bookings", None) else None
    return booked_night(intent) if hotel is not None and hotel.geo is not None else None


def _when(act):
    """True start when the itinerary has it (windows of one day may be on different clocks)."""
    return act.start if act.start is not None else act.window.start


def _bed(day, rooms: int) -> Bed | None:
    """The night's named bed (issue 20 §2) as the file prices it: the lodging cost re-derived
    from the beds must add up to the breakdown's."""
    night = next((a for a in day.activities if a.role == "checkin"), None)
    prov = night.provenance if night is not None else None
    if prov is None or prov.data_source not in ("osm", "user") or night.geo is None:
        return None
    return Bed(name=night.name, lat=night.geo.lat, lon=night.geo.lon, kind="saved",
               price_usd_cents=night.cost_usd_cents // (1 if prov.data_source == "user" else rooms),
               data_source=prov.data_source)


def saved_stops(day, corridor) -> tuple[RoadStop, ...]:
    night = next((a for a in day.activities if a.role in ("checkin", "arrival")), None)
    arrive = None if night is None else _when(night)
    out = []
    for act in day.activities:
        if act.kind not in STOP_KINDS or act.geo is None:
            continue
        p, off = corridor.progress_miles(act.geo.lat, act.geo.lon), corridor.offset_miles(act.geo.lat, act.geo.lon)
        out.append(RoadStop(id=act.ref or act.id, name=act.name, local_name=act.local_name, lat=act.geo.lat,
                            lon=act.geo.lon, kind="poi",
                            start_min=0, end_min=0, progress_miles=p, offset_miles=off,
                            en_route=arrive is None or (act.start is None) != (night.start is None)
                            or _when(act) < arrive))
    return tuple(out)
