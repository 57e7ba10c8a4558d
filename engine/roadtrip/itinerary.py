"""A RoadPlan as an ItineraryV1 (SPEC_DECISIONS §3 day fields: anchor, drive) and the seed's
text validation report (seed 000 §10)."""

from __future__ import annotations

import uuid
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

from engine.clocks import minutes_later, wall_moment
from engine.costs import rooms_for
from engine.geocode.dominance import is_shared_name_note
from engine.geocode.trust import check_point, geodesic_miles
from engine.geocode.zones import zone_at, zone_book
from engine.models import (Activity, Anchor, ChoiceKind, Citation, CostBreakdown, DayItinerary, Decision, Drive,
                           Geo, ItineraryV1, Provenance, RoadTripIntent, TimeWindow, Violation, format_usd, time_of)
from engine.tools.provenance import stamp

from .day_stops import CHECKIN_MINUTES
from .detours import day_path
from .plan import Bed, RoadDay, RoadPlan, RoadStop, Town
from .resolve import norm

FUEL_USD_PER_MILE = {"us": 3.60 / 25, "europe": 1.85 * 6.5 / 100 * 1.609344}  # local price per mile
NIGHT_LOCAL = {"us": 140.0, "europe": 120.0}
MEALS_LOCAL = {"us": 60.0, "europe": 55.0}
CURRENCY = {"us": "USD", "europe": "EUR"}
MAX_PATH_POINTS = 2000  # a routed day's geometry kept in the itinerary (GPX simplifies it to 500)
OSM_CREDIT = "© OpenStreetMap contributors (ODbL)"  # = engine.pipeline.synthesizer's
SAME_BED_MILES = 0.5  # a sight this near the night's bed, by its name, is the bed itself


class _DayClock:
    """A road day's timeline (minutes from the 08:30 departure, in the start town's zone) read on
    the clock of wherever each event happens (a day on Route 66 crosses zones)."""

    def __init__(self, d: RoadDay) -> None:
        self.date, self.depart = d.date, d.depart_min
        self.t0 = wall_moment(d.date, time_of(d.depart_min), ZoneInfo(zone_at(d.start.lat, d.start.lon)))

    def span(self, a: int, b: int, at: tuple[float, float], to: tuple[float, float] | None = None) -> dict:
        """Activity fields for minutes ``a``..``b``: starting at ``at``, ending at ``to`` (or there)."""
        tz0 = zone_at(*at)
        tz1 = zone_at(*to) if to else tz0
        start = minutes_later(self.t0, a - self.depart, ZoneInfo(tz0))
        end = minutes_later(self.t0, max(b, a) - self.depart, ZoneInfo(tz1))
        window = _window(self._on_day(start), self._on_day(end.astimezone(ZoneInfo(tz0))))
        return {"window": window, "start": start, "end": end, "start_tz": tz0, "end_tz": tz1}

    def _on_day(self, moment: datetime) -> int:
        """Minutes since midnight on the trip day, clipped to it (the window is one day's)."""
        shift = (moment.date() - self.date).days
        return 0 if shift < 0 else 24 * 60 - 1 if shift > 0 else moment.hour * 60 + moment.minute


def _window(a: int, b: int) -> TimeWindow:
    a = min(a, 24 * 60 - 2)
    return TimeWindow.of_minutes(a, max(b, a + 1))


def _place_provenance(place: Town, plan: RoadPlan) -> Provenance:
    tool = {"route_town": "routes", "gazetteer": "gazetteer", "user": "gazetteer"}.get(place.source, "road_planner")
    source = "computed" if place.source == "interpolated" else "fixture"
    return stamp(tool, f"{place.name}|{place.lat:.5f}|{place.lon:.5f}", data_source=source, ref_id=place.name)


class _Builder:
    def __init__(self, plan: RoadPlan, intent: RoadTripIntent, rate_to_usd: float) -> None:
        self.plan, self.intent, self.rate = plan, intent, rate_to_usd
        self.citations: list[Citation] = []

    def cite(self, claim: str, provenance: Provenance) -> str:
        self.citations.append(Citation(claim=claim, provenance=provenance))
        return claim

    def day(self, d: RoadDay) -> DayItinerary:
        clock = _DayClock(d)
        acts: list[Activity] = []
        t, frm, at = d.depart_min, d.start.name, (d.start.lat, d.start.lon)
        for n, s in enumerate(s for s in d.stops if s.en_route):
            there = s.start_min - s.wait_min  # the drive ends on arrival; the visit may wait for the opening
            acts.append(self._drive(d, n, clock.span(t, there, at, (s.lat, s.lon)), t, there, frm, s.name))
            acts.append(self._stop(d, s, clock))
            t, frm, at = s.end_min, s.name, (s.lat, s.lon)
        anchor = (d.anchor.lat, d.anchor.lon)
        if d.exemption != "rest":  # a rest day drives nowhere
            acts.append(self._drive(d, len(acts), clock.span(t, d.arrive_min, at, anchor), t, d.arrive_min, frm,
                                    d.anchor.name))
        evening = [s for s in d.stops if not s.en_route]
        bed_sights = [s for s in evening if is_the_bed(s, d.bed)]  # the booked motel is the night, not a sight too
        acts.append(self._overnight(d, clock.span(d.arrive_min, d.arrive_min + CHECKIN_MINUTES, anchor),
                                    last=d.index == len(self.plan.days) - 1, sights=bed_sights))
        acts += [self._stop(d, s, clock) for s in evening if s not in bed_sights]
        return DayItinerary(date=d.date, activities=acts, anchor=self._anchor(d), tz=zone_at(*anchor),
                            drive=Drive(miles=d.drive_miles, hours=d.drive_hours, from_name=d.start.label,
                                        to_name=d.anchor.label,
                                        source="routed" if d.drive_source == "routed" else "estimated"),
                            path=[Geo(lat=lat, lon=lon) for lat, lon in self._path(d)], exemption=d.exemption)

    def _path(self, d: RoadDay) -> list[tuple[float, float]]:
        """The routed road when there is one (thinned to what a map and a GPX track use), else the
        corridor's with the day's detours off it (:func:`.detours.day_path`)."""
        if d.exemption == "rest":
            return [d.anchor.point]
        if d.drive_source == "routed" and len(d.path) >= 2:
            step = max(1, len(d.path) // MAX_PATH_POINTS)
            return [*d.path[:-1:step], d.path[-1]]
        return day_path(self.plan.corridor, d)

    def _drive(self, d: RoadDay, n: int, span: dict, start: int, end: int, frm: str, to: str) -> Activity:
        routed = d.drive_source == "routed"
        prov = (stamp("routing", f"{d.index}|{frm}|{to}|{d.drive_miles}", data_source="real") if routed
                else stamp("road_planner", f"{d.index}|{frm}|{to}", data_source="computed"))
        how = "routed" if routed else "estimated"
        note = self.cite(f"Drive from {frm} to {to}, about {max(0, end - start) // 60} h {max(0, end - start) % 60:02d} min "
                         f"({how})", prov)
        return Activity(id=f"d{d.index}-drive-{n}", role="transfer", kind=ChoiceKind.transit, name=f"Drive to {to}",
                        geo=None, notes=note, provenance=prov, **span)

    @staticmethod
    def _stop_provenance(s: RoadStop) -> Provenance:
        if s.source_url:  # a place from OpenStreetMap (issue 20)
            return stamp("overpass", f"{s.id}|{s.lat:.6f}|{s.lon:.6f}", data_source="osm", ref_id=s.id,
                         source_url=s.source_url)
        return stamp("routes", f"{s.id}|{s.lat:.5f}|{s.lon:.5f}", ref_id=s.id)

    def _stop(self, d: RoadDay, s: RoadStop, clock: _DayClock) -> Activity:
        prov = self._stop_provenance(s)
        notes = self.cite(s.description, prov) if s.description else "Information not available."
        # a diner or a café on the way is a meal, labelled and drawn as one (issue 32 §3), not a sight
        kind = ChoiceKind.meal if s.kind == "food" else ChoiceKind.attraction
        return Activity(id=f"d{d.index}-stop-{s.id}", ref=s.id, role="activity", kind=kind,
                        name=s.name, local_name=s.local_name, geo=Geo(lat=s.lat, lon=s.lon), notes=notes, provenance=prov,
                        confidence="low" if s.hours_known is False else "high",
                        **clock.span(s.start_min, s.end_min, (s.lat, s.lon)))

    def _overnight(self, d: RoadDay, span: dict, *, last: bool, sights: list[RoadStop]) -> Activity:
        """The night's stop; on the last day, the arrival at the terminus. ``sights``: the day's
        sights that are the night's bed itself (Route 66's Blue Swallow Motel): said here, once."""
        a = d.anchor
        prov = _place_provenance(a, self.plan)
        geo = Geo(lat=a.lat, lon=a.lon) if not check_point(a.lat, a.lon, self.plan.region) else None
        what = "Arrive in" if last else "Overnight in"
        notes = self.cite(f"{what} {a.label} ({a.lat:.4f}, {a.lon:.4f})", prov)
        cost, name = 0, f"{what} {a.label}"
        if a.note:
            notes += f"; {a.note}"
        if d.bed is not None:  # the night's bed (issue 20 §2): its own provenance, its estimated price
            prov, geo, name = self._bed_provenance(d), Geo(lat=d.bed.lat, lon=d.bed.lon), f"{name}: {d.bed.name}"
            notes += ". " + self.cite(bed_text(d), prov)
            cost = d.bed.price_usd_cents * d.bed.rooms_priced(rooms_for(self.intent.travellers, self.intent.rooms))
        for sight in sights:
            if sight.description:
                notes += ". " + self.cite(sight.description.rstrip(". "), self._stop_provenance(sight))
        for said in (d.bed_note, d.note):  # "no lodging mapped within 5 mi of …", "offline: sights …"
            if said:
                notes += ". " + self.cite(said[:1].upper() + said[1:], stamp(
                    "road_planner", f"{d.index}|{said}", data_source="computed"))
        return Activity(id=f"d{d.index}-{'arrive' if last else 'overnight'}", ref=a.name,
                        role="arrival" if last else "checkin",
                        kind=ChoiceKind.transit if last else ChoiceKind.lodging, name=name, geo=geo,
                        notes=notes, confidence=a.confidence, provenance=prov, cost_usd_cents=cost,
                        locked=a.source == "user", **span)  # a requested stop is kept by every re-plan

    @staticmethod
    def _bed_provenance(d: RoadDay) -> Provenance:
        b = d.bed
        if b.data_source == "user":
            return stamp("bookings", f"{b.name}|{b.lat:.5f}|{b.lon:.5f}", data_source="user", ref_id=b.name)
        return stamp("overpass", f"{b.ref}|{b.lat:.6f}|{b.lon:.6f}", data_source="osm", ref_id=b.ref,
                     source_url=b.source_url)

    def _anchor(self, d: RoadDay) -> Anchor:
        a = d.anchor
        geo = Geo(lat=a.lat, lon=a.lon) if not check_point(a.lat, a.lon, self.plan.region) else None
        progress = None if self.plan.corridor.name == "direct" else round(d.anchor_progress, 1)
        return Anchor(name=a.label, geo=geo, confidence=a.confidence, route_progress_miles=progress,
                      distance_from_origin_miles=round(geodesic_miles(self.plan.origin.point, a.point), 1),
                      admin1=a.admin1, country=a.country, source=a.source, note=a.note)

    def costs(self) -> CostBreakdown:
        return road_costs(self.plan, self.rate, travellers=self.intent.travellers, rooms=self.intent.rooms)


def is_the_bed(stop: RoadStop, bed: Bed | None) -> bool:
    """Whether ``stop`` is the night's bed itself: the same name (one's words all in the other's,
    "Blue Swallow" and "Blue Swallow Motel") within ``SAME_BED_MILES``."""
    if bed is None:
        return False
    words = sorted((set(norm(stop.name).split()), set(norm(bed.name).split())), key=len)
    same_name = bool(words[0]) and (words[0] == words[1] or (len(words[0]) >= 2 and words[0] <= words[1]))
    return same_name and geodesic_miles((stop.lat, stop.lon), (bed.lat, bed.lon)) <= SAME_BED_MILES


def bed_text(d: RoadDay) -> str:
    """"Sleep at Sea Breeze Motel (motel, 0.4 mi from Monterey; 36.6011, -121.8930): about $120 a
    room a night (estimated)"."""
    b = d.bed
    if b.data_source == "user":
        code = f", confirmation {b.confirmation}" if b.confirmation else ""
        price = (": paid (not counted in the trip's costs)" if b.paid else
                 f": {format_usd(b.price_usd_cents)} a night as booked" if b.price_usd_cents else "")
        return f"Sleep at {b.name} (your booking{code}; {b.lat:.4f}, {b.lon:.4f}){price}"
    what = b.kind.replace("_", " ") + (f", {b.stars}★" if b.stars else "")
    return (f"Sleep at {b.name} ({what}, {b.miles:.1f} mi from {d.anchor.name}; {b.lat:.4f}, {b.lon:.4f}): about "
            f"{format_usd(b.price_usd_cents)} a room a night (estimated), mapped in OpenStreetMap")


def road_costs(plan: RoadPlan, rate_to_usd: float, *, travellers: int = 1, rooms: int | None = None
               ) -> CostBreakdown:
    """Fuel, lodging and meals from the driven miles and nights (``tripwright verify`` re-derives
    them with this too): meals per person, lodging per room — a named bed's price, else the flat
    night —, fuel per car."""
    region = plan.region
    miles = sum(d.drive_miles for d in plan.days)
    nights = len(plan.days) - 1  # the last day ends at the terminus
    usd = lambda local: int(local * rate_to_usd * 100 + 0.5)  # noqa: E731
    rooms = rooms_for(travellers, rooms)
    beds = [d.bed for d in plan.days[:-1] if d.bed is not None]
    fuel = usd(miles * FUEL_USD_PER_MILE[region])
    lodging = usd(NIGHT_LOCAL[region] * (nights - len(beds)) * rooms) + sum(b.price_usd_cents * b.rooms_priced(rooms) for b in beds)
    meals = usd(MEALS_LOCAL[region] * len(plan.days) * travellers)
    converted = "" if CURRENCY[region] == "USD" else f" (from {CURRENCY[region]} at {rate_to_usd:.4f})"
    text = (f"Road-trip estimates{converted}: fuel for {miles:.0f} mi, {nights} night(s) of lodging "
            f"and meals; admissions not included")
    named = " (the named beds' prices estimated)" if any(b.estimated for b in beds) else ""
    return CostBreakdown(flights_usd_cents=0, lodging_usd_cents=lodging, attractions_usd_cents=0,
                         transit_usd_cents=fuel, daily_spend_usd_cents=meals,
                         total_usd_cents=fuel + lodging + meals, currency_disclaimer=text + named,
                         estimated_parts=["lodging"] if named else [])


def road_itinerary(plan: RoadPlan, intent: RoadTripIntent, violations: list[Violation], *, trace_id: str,
                   run_id: str, rate_to_usd: float = 1.0) -> ItineraryV1:
    b = _Builder(plan, intent, rate_to_usd)
    days = [b.day(d) for d in plan.days]
    zone_book().save()  # the zones asked for are remembered for the next plan (see zones.py)
    decisions = [Decision(node="road_planner", selected=d.anchor.label, alternatives_considered=len(d.anchor.considered),
                          rationale=f"day {d.index + 1}: {d.drive_miles:.0f} mi to {d.anchor.label} "
                                    f"({d.anchor.source.replace('_', ' ')}, {d.anchor_offset:.0f} mi off {plan.corridor.name})")
                 for d in plan.days]
    decisions += [Decision(node="place" if is_shared_name_note(line) else "road_planner", selected="log",
                           alternatives_considered=0, rationale=line) for line in plan.log]
    osm = any(a.provenance is not None and a.provenance.data_source == "osm" for d in days for a in d.activities)
    return ItineraryV1(itinerary_id=str(uuid.uuid4()), intent=intent, days=days, cost_breakdown=b.costs(),
                       decisions=decisions, citations=b.citations, violations=violations,
                       created_at=datetime.now(timezone.utc), trace_id=trace_id, run_id=run_id,
                       attributions=[OSM_CREDIT] if osm else [])


def validation_report(plan: RoadPlan, violations: list[Violation], intent: RoadTripIntent) -> str:
    """The seed's §10 report: one block per day with its findings and the fallbacks taken."""
    route = f" ({plan.corridor.name})" if plan.corridor.name != "direct" else " (direct corridor)"
    lines = ["ROAD_TRIP Validation Report", "===========================",
             f"Trip: {plan.origin.label} → {plan.terminus.label}{route}", f"Total Days: {len(plan.days)}", ""]
    by_node: dict[str, list[Violation]] = {}
    for v in violations:  # "day:3:poi_id" findings belong to day 3's block
        key = ":".join(v.node_ref.split(":")[:2]) if v.node_ref.startswith("day:") else v.node_ref
        by_node.setdefault(key, []).append(v)
    for d in plan.days:
        lines.append(f"Day {d.index + 1}: {d.anchor.label}")
        lines.append(f"  ✓ {d.drive_miles:.0f} mi driven ({d.drive_hours:.1f} h), {len(d.stops)} activities, "
                     f"{d.anchor_offset:.0f} mi off {plan.corridor.name}, progress {d.anchor_progress:.0f} mi")
        for v in by_node.get(f"day:{d.index}", []):
            mark = "❌" if v.blocking else "⚠️"
            lines.append(f"  {mark} {v.details['invariant']}: {v.details['message']}")
        if d.bed_note:  # an advisory: the night has no bed to name
            lines.append(f"  ⚠️ lodging: {d.bed_note}")
        for said in (d.anchor.note, d.note):
            if said:
                lines.append(f"  → {said}")
        lines.append("")
    for v in by_node.get("trip", []) + by_node.get("origin", []) + by_node.get("terminus", []):
        lines.append(f"{'❌' if v.blocking else '⚠️'} {v.details['invariant']}: {v.details['message']}")
    for entry in plan.log:
        lines.append(f"→ {entry}")
    blocking = sum(v.blocking for v in violations)
    lines.append(f"Result: {'PASS' if not blocking else 'FAIL'} ({blocking} blocking, {len(violations) - blocking} advisory)")
    return "\n".join(lines) + "\n"
