"""Road-trip invariants (seed 000 §4–5) as pure verifiers over a RoadPlan.

Every finding is a Violation whose details carry the invariant id (``INV-DIR-04``) and a message.
Directional checks use projection on the route polyline (progress), not only distance from origin.
"""

from __future__ import annotations

from engine.geocode.trust import check_point, geodesic_miles, isolated
from engine.models import Violation, ViolationKind

from .booked_night import booked_day_message
from .detours import DETOUR_FACTOR
from .plan import RoadDay, RoadPlan

MIN_ACTIVITIES = 2
STOP_AFTER_HOURS = 6.0
MAX_HOURS_NO_STOP = 8.0
PROGRESS_SLACK_MILES = 1.0  # projection noise between two points in the same town
ORIGIN_RADIUS_MILES = 15.0
TOWN_MILES = 10.0  # a sight this close to a requested night is in that town


def _v(kind: ViolationKind, inv: str, node: str, message: str, blocking: bool = True, **details) -> Violation:
    return Violation(kind=kind, node_ref=node, blocking=blocking,
                     details={"invariant": inv, "message": message, **details})


def _outbound(plan: RoadPlan) -> list[RoadDay]:
    return [d for d in plan.days if not d.returning]


def _circuit(plan: RoadPlan) -> bool:
    """A round trip once round a loop route: every night moves on along the loop (INV-DIR-04), but
    the second half comes back towards home, which a round trip may (INV-DIR-01)."""
    return plan.trip_type == "round_trip" and getattr(plan.corridor, "is_loop", False) and \
        plan.days[-1].anchor_progress > plan.corridor.length_miles() / 2


def check_direction(plan: RoadPlan) -> list[Violation]:
    if plan.days and _circuit(plan):
        return _circuit_direction(plan) + _origin_revisits(plan)
    out = []
    days = _outbound(plan)
    prev_dist, prev_prog, prev_to_end = 0.0, plan.corridor.progress_miles(*plan.origin.point), None
    for d in days:
        node = f"day:{d.index}"
        dist = geodesic_miles(plan.origin.point, d.anchor.point)
        to_end = geodesic_miles(d.anchor.point, plan.terminus.point)
        if dist + PROGRESS_SLACK_MILES < prev_dist:
            out.append(_v(ViolationKind.direction_violated, "INV-DIR-01", node,
                          f"{d.anchor.label} is closer to {plan.origin.name} than the previous night"))
        if prev_to_end is not None and to_end > prev_to_end + PROGRESS_SLACK_MILES and plan.trip_type == "one_way":
            out.append(_v(ViolationKind.direction_violated, "INV-DIR-02", node,
                          f"day {d.index + 1} ends farther from {plan.terminus.name} than it started"))
        if d.anchor_progress + PROGRESS_SLACK_MILES < prev_prog:
            out.append(_v(ViolationKind.direction_violated, "INV-DIR-04", node,
                          f"{d.anchor.label} is behind the previous night along {plan.corridor.name} "
                          f"({d.anchor_progress:.0f} < {prev_prog:.0f} mi)"))
        prev_dist, prev_prog, prev_to_end = dist, d.anchor_progress, to_end
    return out + _origin_revisits(plan)


def _circuit_direction(plan: RoadPlan) -> list[Violation]:
    out, prev = [], 0.0
    for d in plan.days:
        if d.anchor_progress + PROGRESS_SLACK_MILES < prev:
            out.append(_v(ViolationKind.direction_violated, "INV-DIR-04", f"day:{d.index}",
                          f"{d.anchor.label} is behind the previous night along {plan.corridor.name} "
                          f"({d.anchor_progress:.0f} < {prev:.0f} mi)"))
        prev = d.anchor_progress
    return out


def _origin_revisits(plan: RoadPlan) -> list[Violation]:
    """INV-DIR-03 / FB-01: nothing in the origin city after day 1, but a round trip's last night."""
    out = []
    for d in plan.days[1:]:
        allowed = plan.trip_type == "round_trip" and d.index == len(plan.days) - 1
        places = [(d.anchor.name, d.anchor.point)] + [(s.name, (s.lat, s.lon)) for s in d.stops]
        near = [n for n, p in places if geodesic_miles(p, plan.origin.point) <= ORIGIN_RADIUS_MILES]
        if near and not allowed:
            out.append(_v(ViolationKind.direction_violated, "INV-DIR-03", f"day:{d.index}",
                          f"day {d.index + 1} returns to {plan.origin.name} ({', '.join(near)})"))
    return out


def check_pacing(plan: RoadPlan) -> list[Violation]:
    out = []
    counts = [_substantive(d) for d in plan.days]
    for d, count in zip(plan.days, counts):
        node = f"day:{d.index}"
        if count == 0 and d.exemption != "rest":
            out.append(_v(ViolationKind.pacing_violated, "FB-02", node,
                          f"day {d.index + 1} has no activity (only a rest day asked for may)"))
        elif count < MIN_ACTIVITIES and d.exemption is None:
            out.append(_v(ViolationKind.pacing_violated, "INV-PACE-01", node,
                          f"day {d.index + 1} has {count} activities (at least {MIN_ACTIVITIES})"))
        if d.drive_miles > plan.max_daily_miles + 0.5:
            out.append(_v(ViolationKind.pacing_violated, "INV-PACE-02", node,
                          f"day {d.index + 1} drives {d.drive_miles:.0f} mi (cap {plan.max_daily_miles:.0f})"))
        en_route = [s for s in d.stops if s.en_route]
        if d.drive_hours > STOP_AFTER_HOURS and not en_route:
            out.append(_v(ViolationKind.pacing_violated, "INV-PACE-03", node,
                          f"{d.drive_hours:.1f} h of driving with no stop on the way"))
        if _longest_stint(d) > MAX_HOURS_NO_STOP:
            out.append(_v(ViolationKind.pacing_violated, "FB-05", node,
                          f"a {_longest_stint(d):.1f} h drive without a stop"))
    counts = [c for d, c in zip(plan.days, counts) if d.exemption is None]
    if counts and max(counts) > 0 and (max(counts) - min(counts)) / max(counts) > 0.5:
        out.append(_v(ViolationKind.pacing_violated, "INV-PACE-04", "trip",
                      f"activities per day range {min(counts)}–{max(counts)}", blocking=False))
    return out


def _substantive(d: RoadDay) -> int:
    """Sights and town visits; a rest stop is not an activity (INV-PACE-01 excludes transit). When
    OpenStreetMap said how many real sights were within reach of the day (issue 20), a walk in a
    town counts only for what they could not fill: never in place of a real sight."""
    walks = sum(1 for s in d.stops if s.kind == "town" and not s.id.startswith("visit_user_"))
    real = sum(1 for s in d.stops if s.kind != "break") - walks
    if d.sights_in_reach is None:
        return real + walks
    return real + min(walks, max(0, MIN_ACTIVITIES - d.sights_in_reach))


def _longest_stint(d: RoadDay) -> float:
    """Hours of the longest uninterrupted drive, splitting the day's route at its en-route stops."""
    along = abs(d.anchor_progress - d.start_progress)
    if d.drive_miles == 0 or d.drive_hours == 0 or along == 0:
        return d.drive_hours
    marks = sorted(min(along, abs(s.progress_miles - d.start_progress)) for s in d.stops if s.en_route)
    edges = [0.0, *marks, along]
    return max(b - a for a, b in zip(edges, edges[1:])) / along * d.drive_hours


def check_corridor(plan: RoadPlan) -> list[Violation]:
    out = []
    limit = plan.corridor_miles
    prev = None  # the traveller's own nights off the corridor (last night's, tonight's): their town's sights are theirs
    for d in plan.days:
        asked = [x.anchor.point for x in (prev, d) if x is not None and x.forced]
        prev = d
        if d.anchor_offset > limit and not _booked_night(plan, d):  # a booked night: check_booking says it
            blocking = not d.forced
            why = "user-requested stop (detour logged)" if d.forced else "outside the corridor"
            out.append(_v(ViolationKind.corridor_violated, "INV-CORR-02", f"day:{d.index}",
                          f"{d.anchor.label} is {d.anchor_offset:.0f} mi from {plan.corridor.name} "
                          f"(max {limit:.0f}): {why}", blocking=blocking, offset_miles=round(d.anchor_offset, 1)))
        for s in d.stops:
            if s.offset_miles > limit and not any(geodesic_miles((s.lat, s.lon), p) <= TOWN_MILES for p in asked):
                out.append(_v(ViolationKind.corridor_violated, "INV-CORR-01", f"day:{d.index}:{s.id}",
                              f"{s.name} is {s.offset_miles:.0f} mi off the corridor"))
        if d.anchor.source not in ("route_town", "user") and getattr(plan.corridor, "own_towns", True):
            out.append(_v(ViolationKind.corridor_violated, "INV-CORR-03", f"day:{d.index}",
                          f"{d.anchor.label} is not a town associated with {plan.corridor.name}", blocking=False))
    return out


def _booked_night(plan: RoadPlan, d: RoadDay) -> bool:
    return plan.booked is not None and plan.booked.covers(d.date) and d.index < len(plan.days) - 1


def check_booking(plan: RoadPlan) -> list[Violation]:
    """The traveller's booked lodging (issue 21): each night it was booked for is spent there
    (blocking when not); a booking off the corridor is kept, with its distance from the route said."""
    b = plan.booked
    if b is None:
        return []
    out = []
    for d in (d for d in plan.days if _booked_night(plan, d)):
        wrong = booked_day_message(b, d.anchor, d.date)
        if wrong:
            out.append(_v(ViolationKind.pref_violated, "INV-BOOKED-01", f"day:{d.index}", wrong))
        elif d.anchor_offset > plan.corridor_miles and d.exemption != "rest":
            out.append(_v(ViolationKind.corridor_violated, "INV-BOOKED-02", f"day:{d.index}",
                          f"{b.said()} is {d.anchor_offset:.0f} mi from {plan.corridor.name} (corridor "
                          f"{plan.corridor_miles:.0f} mi): night {d.index + 1} is there as booked; day "
                          f"{d.index + 1}'s {d.drive_miles:.0f} mi include about "
                          f"{DETOUR_FACTOR * d.anchor_offset:.0f} mi off the route to reach it", blocking=False,
                          offset_miles=round(d.anchor_offset, 1)))
    return out


def check_geocoding(plan: RoadPlan) -> list[Violation]:
    out = []
    places = [("origin", plan.origin), ("terminus", plan.terminus)] + [(f"day:{d.index}", d.anchor) for d in plan.days]
    for node, place in places:
        for inv in check_point(place.lat, place.lon, plan.region):
            out.append(_v(ViolationKind.geocode_rejected, inv, node,
                          f"{place.label} at ({place.lat:.2f}, {place.lon:.2f}) fails {inv}"))
        if place.confidence == "low":
            out.append(_v(ViolationKind.location_ambiguous, "INV-AMBIG-03", node,
                          f"{place.label}: low confidence ({place.note or 'ambiguous'})", blocking=False))
    for d in plan.days:
        if d.drive_source == "unroutable":  # the routing service found no road to the night's stop
            out.append(_v(ViolationKind.geocode_rejected, "INV-GEO-ROAD", f"day:{d.index}",
                          f"no road reaches {d.anchor.label} from {d.start.label} (routing service)"))
    points = [p.point for _, p in places]
    for i in isolated(points):
        out.append(_v(ViolationKind.geocode_rejected, "INV-GEO-03", places[i][0],
                      f"{places[i][1].label} is over 500 mi from every other stop"))
    return out


def check_unknown_hours(plan: RoadPlan) -> list[Violation]:
    """An OpenStreetMap sight nobody published opening hours for, or a route's meal place whose hours
    are unknown: an advisory naming it, as for a city trip's places (``venue_hours_unknown``); the
    itinerary shows it at low confidence."""
    return [Violation(kind=ViolationKind.venue_hours_unknown, node_ref=f"day:{d.index}:{s.id}", blocking=False,
                      details={"invariant": "HOURS-UNKNOWN", "venue": s.name,
                               "message": f"{s.name}: opening hours " + ("not published in OpenStreetMap"
                                                                         if s.source_url else "unknown; check before going")})
            for d in plan.days for s in d.stops if s.hours_known is False]


def verify_road_plan(plan: RoadPlan) -> list[Violation]:
    found = (check_direction(plan) + check_pacing(plan) + check_corridor(plan) + check_geocoding(plan)
             + check_unknown_hours(plan) + check_booking(plan))
    return sorted(found, key=lambda v: (not v.blocking, v.details["invariant"], v.node_ref))
