"""Re-deriving a saved road-trip itinerary (``tripwright verify``) from the route fixtures and the
gazetteer instead of trusting what the file says.

Each overnight anchor is looked up again (a route town by name, else a gazetteer place near where
the file puts it; an interpolated point must lie on the corridor) and its coordinates replaced by
the catalog's; each day starts where the previous one ended; drive miles and hours are recomputed
with the planner's formula (progress along the corridor × the road factor); a named route's stops
must be its points of interest; the cost breakdown is recomputed from the re-derived miles. The
corrected itinerary then goes through the seed 000 invariants (direction, pacing, corridor, geo).
"""

from __future__ import annotations

from datetime import date, timedelta

from engine.catalog.catalog import Catalog
from engine.errors import InputError
from engine.geocode.trust import geodesic_miles
from engine.models import DayItinerary, Geo, ItineraryV1, Violation, format_usd
from engine.verify.mismatch import mismatch

from .corridor import road_factor
from .booked_night import booked_point, booked_spur
from .invariants import verify_road_plan
from .itinerary import CURRENCY, road_costs
from .plan import Town
from .planner import SPEED_MPH
from .day_stops import quiet_stretch
from .detours import day_points, detour_miles
from .reconstruct import STOP_KINDS, road_plan_from_itinerary, saved_stops, saved_corridor
from .routes import find_route, progress_after
from .stop_hours import closed_visit

TOWN_SLACK_MILES = 2.0  # a route town's fixture point vs the file's
GAZETTEER_SLACK_MILES = 10.0  # gazetteer candidates near the file's point
ON_CORRIDOR_MILES = 1.0  # an interpolated overnight point sits on the corridor line
MILES_SLACK = 1.0
HOURS_SLACK = 0.05
TOWN_WALKS = ("visit_", "explore_d", "morning_d", "rest_d")  # the planner's town walks (day_stops), beside the POIs
_COSTS = ("lodging_usd_cents", "transit_usd_cents", "daily_spend_usd_cents", "total_usd_cents")


def verify_saved_road(itin: ItineraryV1, catalog: Catalog | None, day: date, geocoder=None) -> list[Violation]:
    if itin.intent.route:
        try:
            find_route(itin.intent.route)
        except InputError as exc:  # the intent parsed, but no fixture backs its route
            return [mismatch("intent", f"intent.{exc.field}: {exc.message}")]
    fixed, found = RoadRederivation(itin, geocoder).run()
    plan = road_plan_from_itinerary(fixed)
    derived = road_costs(plan, rate_to_usd(CURRENCY[plan.region], catalog, day),
                         travellers=itin.intent.travellers, rooms=itin.intent.rooms)
    for field in _COSTS:
        says, redone = getattr(itin.cost_breakdown, field), getattr(derived, field)
        if says != redone:
            found.append(mismatch("cost_breakdown", f"cost_breakdown.{field}: itinerary says {format_usd(says)}, "
                                                    f"re-derived from the route {format_usd(redone)}"))
    return sorted(found + verify_road_plan(plan), key=lambda v: not v.blocking)


def rate_to_usd(currency: str, catalog: Catalog | None, day: date) -> float:
    """The FX rate the planner used (as-of T-1 of the planning day); USD needs no catalog."""
    if currency == "USD":
        return 1.0
    from engine.catalog.catalog import default_catalog
    from engine.tools.toolbox import build_toolbox
    return build_toolbox(catalog or default_catalog(), today=day).rates_to_usd.get(currency, 1.0)


ROUTED_MPH = (5.0, 85.0)  # a routed day's average speed, stops excluded, lies in this range


class RoadRederivation:
    """The itinerary with every re-derivable fact replaced by the catalog's, and what differed."""

    def __init__(self, itin: ItineraryV1, geocoder=None) -> None:
        self.itin, self.intent = itin, itin.intent
        days = itin.days
        if not days or any(d.anchor is None or d.drive is None or not d.path for d in days):
            raise InputError("days", "a road-trip itinerary needs an anchor, a drive and a driven path on every day")
        self.route = find_route(self.intent.route) if self.intent.route else None
        self._geocoder = geocoder
        first, last = days[0].path[0], days[-1].anchor
        origin = Town(name=days[0].drive.from_name.split(",")[0], lat=first.lat, lon=first.lon)
        end = last.geo or days[-1].path[-1]
        terminus = Town(name=last.name.split(",")[0], lat=end.lat, lon=end.lon)
        self.corridor, self.region = saved_corridor(self.intent, origin, terminus, days, geocoder)
        self.origin = (first.lat, first.lon)
        self.found: list[Violation] = []

    def run(self) -> tuple[ItineraryV1, list[Violation]]:
        want = [self.intent.start_date + timedelta(days=i) for i in range(self.intent.days)]
        have = [d.date for d in self.itin.days]
        if have != want:
            self.found.append(mismatch("trip", f"days: itinerary has {len(have)} day(s) {have[0]}..{have[-1]}, "
                                               f"the intent asks for {len(want)} from {want[0]}"))
        out, start, start_name = [], self.origin, self.itin.days[0].drive.from_name
        self._at: float | None = None  # the previous night's progress along the corridor
        for n, day in enumerate(self.itin.days):
            anchor = self._anchor(n, day)
            begin = self._at if self._at is not None else self.corridor.progress_miles(*start)
            out.append(self._day(n, day, (start_name, start), anchor))
            self._exemption(n, day, begin, [start, anchor])
            start, start_name = anchor, day.anchor.name
        return self.itin.model_copy(update={"days": out}), self.found

    # -- anchors -------------------------------------------------------------------------------
    def _anchor(self, n: int, day: DayItinerary) -> tuple[float, float]:
        a = day.anchor
        stated = (a.geo.lat, a.geo.lon) if a.geo else (day.path[-1].lat, day.path[-1].lon)
        if a.source == "interpolated":
            off = self.corridor.offset_miles(*stated)
            if off > ON_CORRIDOR_MILES:
                self._say(n, f"overnight point {a.name!r} is interpolated but lies {off:.0f} mi off "
                             f"{self.corridor.name}")
            return stated
        booked = booked_point(self.intent, day.date, stated) if a.source == "user" else None
        if booked is not None:  # the traveller's booked night: where the booking is
            return booked
        found = self._route_town(a) if a.source in ("route_town", "user") else None
        if found is None and a.source != "route_town":
            found = self._gazetteer_place(a, stated)
        if found is None:
            where = f"a {self.route.name} town" if a.source == "route_town" and self.route else "in the gazetteer"
            self._say(n, f"overnight stop {a.name!r} is not {where}")
            return stated
        miles = geodesic_miles(stated, found)
        if miles > (TOWN_SLACK_MILES if a.source == "route_town" else GAZETTEER_SLACK_MILES):
            self._say(n, f"itinerary puts {a.name} at ({stated[0]:.4f}, {stated[1]:.4f}), "
                         f"{miles:.0f} mi from where it is ({found[0]:.4f}, {found[1]:.4f})")
        return found

    def _route_town(self, a) -> tuple[float, float] | None:
        if self.route is None:
            return None
        name = a.name.split(",")[0].strip().casefold()
        for town in self.route.towns:
            if town.name.casefold() == name and (not a.admin1 or a.admin1 == town.admin1):
                return town.lat, town.lon
        return None

    def _gazetteer_place(self, a, stated: tuple[float, float]) -> tuple[float, float] | None:
        name = a.name.split(",")[0].strip()
        try:
            found = self.geocoder.lookup(name, country_hint=a.country or None, near=stated)
        except InputError:
            return None
        near = [(geodesic_miles(stated, (c.lat, c.lon)), (c.lat, c.lon)) for c in found
                if not a.admin1 or a.admin1 in (c.admin1, c.admin1_name)]
        return min(near)[1] if near else None

    @property
    def geocoder(self):
        if self._geocoder is None:
            from engine.geocode import default_gazetteer
            self._geocoder = default_gazetteer()
        return self._geocoder

    # -- the day's drive and stops ---------------------------------------------------------------
    def _day(self, n: int, day: DayItinerary, begin: tuple[str, tuple[float, float]],
             anchor: tuple[float, float]) -> DayItinerary:
        """``begin``: where the day starts, by the previous day's re-derived anchor (name, point)."""
        start_name, start = begin
        if day.drive.source == "routed":
            return self._routed_day(n, day, start_name, start, anchor)
        miles = self._miles(start, anchor, saved_stops(day, self.corridor))
        hours = round(miles / SPEED_MPH[self.region], 2)
        if abs(day.drive.miles - miles) > MILES_SLACK:
            self._say(n, f"drive: itinerary says {day.drive.miles:.0f} mi, the route gives {miles:.0f} mi "
                         f"from {start_name} to {day.anchor.name}")
        elif abs(day.drive.hours - hours) > HOURS_SLACK:
            self._say(n, f"drive: itinerary says {day.drive.hours:.1f} h, {miles:.0f} mi take {hours:.1f} h")
        geo = Geo(lat=anchor[0], lon=anchor[1])
        return day.model_copy(update={
            "anchor": day.anchor.model_copy(update={"geo": geo}), "path": [Geo(lat=start[0], lon=start[1]), geo],
            "drive": day.drive.model_copy(update={"miles": miles, "hours": hours}),
            "activities": self._stops(n, day.activities)})

    def _routed_day(self, n: int, day: DayItinerary, start_name: str, start: tuple[float, float],
                    anchor: tuple[float, float]) -> DayItinerary:
        """A drive the routing service measured cannot be re-measured offline: it must at least be
        a road (never shorter than the straight line, at a possible speed) between the day's ends."""
        begin = self._at if self._at is not None else self.corridor.progress_miles(*start)
        self._at = progress_after(self.corridor, *anchor, begin)
        air = geodesic_miles(start, anchor)
        speed = day.drive.miles / day.drive.hours if day.drive.hours else 0.0
        if day.drive.miles + MILES_SLACK < air:
            self._say(n, f"drive: itinerary says {day.drive.miles:.0f} mi by road, but {start_name} to "
                         f"{day.anchor.name} is {air:.0f} mi in a straight line")
        elif day.drive.miles > 1 and not ROUTED_MPH[0] <= speed <= ROUTED_MPH[1]:
            self._say(n, f"drive: {day.drive.miles:.0f} mi in {day.drive.hours:.1f} h is no driving speed")
        geo = Geo(lat=anchor[0], lon=anchor[1])
        return day.model_copy(update={"anchor": day.anchor.model_copy(update={"geo": geo}),
                                      "activities": self._stops(n, day.activities)})

    def _miles(self, start: tuple[float, float], anchor: tuple[float, float], stops) -> float:
        """The planner's formula: progress along the corridor × the road factor, plus the detours
        off it (:mod:`.detours`); short hops by air × 1.3."""
        begin = self._at if self._at is not None else self.corridor.progress_miles(*start)
        self._at = progress_after(self.corridor, *anchor, begin)  # a loop's home, reached again, is its end
        along = abs(self._at - begin)
        miles = along * road_factor(self.corridor)
        if miles < 1 and geodesic_miles(start, anchor) > 1:
            miles = geodesic_miles(start, anchor) * 1.3
        else:  # a booked night off the corridor is reached by a road of its own (:mod:`.booked_night`)
            spur = 0.0 if geodesic_miles(start, anchor) < 1 else (  # a rest day there drives nowhere
                booked_spur(self.intent, self.corridor, start) + booked_spur(self.intent, self.corridor, anchor))
            miles += max(detour_miles(self.corridor, day_points(start, stops, anchor, begin)), spur)
        return round(miles, 1)

    def _stops(self, n: int, activities: list) -> list:
        """Each stop numbered like the city trips' bookings: transfers (the drives) not counted."""
        booked = [a for a in activities if a.role != "transfer"]
        return [self._stop(n, booked.index(a) + 1, a) if a in booked else a for a in activities]

    def _stop(self, n: int, k: int, act):
        if self.route is None or act.kind not in STOP_KINDS or act.geo is None:
            return act
        if act.provenance is not None and act.provenance.data_source == "osm":
            return act  # an OpenStreetMap sight (issue 20): no fixture backs it; the invariants hold it to the corridor
        if act.ref and act.ref.startswith(TOWN_WALKS):  # a walk in a town, not a point of interest
            town = next((t for t in self.route.towns if act.ref == f"visit_{t.id}"), None)
            # A route town goes back to the fixture's point; other towns (the gazetteer's, the
            # traveller's visits) are held to the corridor by the invariants.
            return act.model_copy(update={"geo": Geo(lat=town.lat, lon=town.lon)}) if town is not None else act
        poi = next((p for p in self.route.pois if p.id == act.ref), None)
        if poi is None and act.ref and act.ref.startswith("visit_"):  # a walk in one of the route's towns
            poi = next((t for t in self.route.towns if f"visit_{t.id}" == act.ref), None)
        if poi is None:
            self.found.append(mismatch(act.id, f"activity day {n + 1} #{k}: stop {act.ref!r} is not a "
                                               f"{self.route.name} point of interest", ref=act.ref))
            return act
        hours = getattr(poi, "opening_hours", None)  # a route POI's published hours (a town has none)
        missed = closed_visit(hours, act.start, act.end, (poi.lat, poi.lon)) if hours and act.start and act.end else None
        if missed:
            self.found.append(mismatch(act.id, f"activity day {n + 1} #{k}: {poi.name} is {missed}", ref=act.ref))
        return act.model_copy(update={"geo": Geo(lat=poi.lat, lon=poi.lon)})

    def _exemption(self, n: int, day: DayItinerary, begin: float, own: list) -> None:
        """A day exempt from INV-PACE-01 must be what it says: a travel-only day's drive passes no
        place (:func:`.day_stops.quiet_stretch`); a rest day drives nowhere."""
        if day.exemption == "travel_only" and not quiet_stretch(self.corridor, self.geocoder, begin, self._at, own):
            self._say(n, "marked a travel-only day, but its drive passes places to stop at")
        elif day.exemption == "rest" and day.drive.miles > 0:
            self._say(n, f"marked a rest day, but it drives {day.drive.miles:.0f} mi")

    def _say(self, n: int, message: str) -> None:
        self.found.append(mismatch(f"day:{n}", f"day {n + 1}: {message}"))
