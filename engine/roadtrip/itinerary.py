"""A RoadPlan as an ItineraryV1 (SPEC_DECISIONS §3 day fields: anchor, drive) and the seed's
text validation report (seed 000 §10)."""

from __future__ import annotations

import uuid
from datetime import datetime, timezone
from functools import lru_cache

from engine.geocode.trust import check_point, geodesic_miles
from engine.models import (Activity, Anchor, ChoiceKind, Citation, CostBreakdown, DayItinerary, Decision, Drive,
                           Geo, ItineraryV1, Provenance, RoadTripIntent, TimeWindow, Violation, format_usd)
from engine.tools.provenance import stamp

from .plan import Place, RoadDay, RoadPlan, RoadStop

FUEL_USD_PER_MILE = {"us": 3.60 / 25, "europe": 1.85 * 6.5 / 100 * 1.609344}  # local price per mile
NIGHT_LOCAL = {"us": 140.0, "europe": 120.0}
MEALS_LOCAL = {"us": 60.0, "europe": 55.0}
CURRENCY = {"us": "USD", "europe": "EUR"}


@lru_cache(maxsize=1)
def _tzf():
    from timezonefinder import TimezoneFinder
    return TimezoneFinder(in_memory=True)


def zone_at(lat: float, lon: float) -> str:
    return _tzf().timezone_at(lng=lon, lat=lat) or "UTC"


def _window(a: int, b: int) -> TimeWindow:
    a = min(a, 24 * 60 - 2)
    return TimeWindow.of_minutes(a, max(b, a + 1))


def _place_provenance(place: Place, plan: RoadPlan) -> Provenance:
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
        acts: list[Activity] = []
        clock, frm = d.depart_min, d.start.name
        for n, s in enumerate(s for s in d.stops if s.en_route):
            acts.append(self._drive(d, n, clock, s.start_min, frm, s.name))
            acts.append(self._stop(d, s))
            clock, frm = s.end_min, s.name
        acts.append(self._drive(d, len(acts), clock, d.arrive_min, frm, d.anchor.name))
        acts.append(self._overnight(d, last=d.index == len(self.plan.days) - 1))
        acts += [self._stop(d, s) for s in d.stops if not s.en_route]
        return DayItinerary(date=d.date, activities=acts, anchor=self._anchor(d), tz=zone_at(d.anchor.lat, d.anchor.lon),
                            drive=Drive(miles=d.drive_miles, hours=d.drive_hours, from_name=d.start.label,
                                        to_name=d.anchor.label),
                            path=[Geo(lat=lat, lon=lon) for lat, lon in
                                  self.plan.corridor.path(d.start_progress, d.anchor_progress)])

    def _drive(self, d: RoadDay, n: int, start: int, end: int, frm: str, to: str) -> Activity:
        prov = stamp("road_planner", f"{d.index}|{frm}|{to}", data_source="computed")
        note = self.cite(f"Drive from {frm} to {to}, about {max(0, end - start) // 60} h {max(0, end - start) % 60:02d} min", prov)
        return Activity(id=f"d{d.index}-drive-{n}", role="transfer", window=_window(start, end),
                        kind=ChoiceKind.transit, name=f"Drive to {to}", geo=None, notes=note, provenance=prov)

    def _stop(self, d: RoadDay, s: RoadStop) -> Activity:
        prov = stamp("routes", f"{s.id}|{s.lat:.5f}|{s.lon:.5f}", ref_id=s.id)
        notes = self.cite(s.description, prov) if s.description else "Information not available."
        return Activity(id=f"d{d.index}-stop-{s.id}", ref=s.id, role="activity", window=_window(s.start_min, s.end_min),
                        kind=ChoiceKind.attraction, name=s.name, geo=Geo(lat=s.lat, lon=s.lon), notes=notes,
                        provenance=prov)

    def _overnight(self, d: RoadDay, *, last: bool) -> Activity:
        """The night's stop; on the last day, the arrival at the terminus."""
        a = d.anchor
        prov = _place_provenance(a, self.plan)
        geo = Geo(lat=a.lat, lon=a.lon) if not check_point(a.lat, a.lon, self.plan.region) else None
        what = "Arrive in" if last else "Overnight in"
        notes = self.cite(f"{what} {a.label} ({a.lat:.4f}, {a.lon:.4f})", prov)
        if a.note:
            notes += f"; {a.note}"
        return Activity(id=f"d{d.index}-{'arrive' if last else 'overnight'}", ref=a.name,
                        role="arrival" if last else "checkin", window=_window(d.arrive_min, d.arrive_min + 30),
                        kind=ChoiceKind.transit if last else ChoiceKind.lodging, name=f"{what} {a.label}", geo=geo,
                        notes=notes, confidence=a.confidence, provenance=prov,
                        locked=a.source == "user")  # a requested stop is kept by every re-plan

    def _anchor(self, d: RoadDay) -> Anchor:
        a = d.anchor
        geo = Geo(lat=a.lat, lon=a.lon) if not check_point(a.lat, a.lon, self.plan.region) else None
        progress = None if self.plan.corridor.name == "direct" else round(d.anchor_progress, 1)
        return Anchor(name=a.label, geo=geo, confidence=a.confidence, route_progress_miles=progress,
                      distance_from_origin_miles=round(geodesic_miles(self.plan.origin.point, a.point), 1),
                      admin1=a.admin1, country=a.country, source=a.source, note=a.note)

    def costs(self) -> CostBreakdown:
        return road_costs(self.plan, self.rate)


def road_costs(plan: RoadPlan, rate_to_usd: float) -> CostBreakdown:
    """Fuel, lodging and meals from the driven miles and nights (``tripwright verify`` re-derives
    them with this too)."""
    region = plan.region
    miles = sum(d.drive_miles for d in plan.days)
    nights = len(plan.days) - 1  # the last day ends at the terminus
    usd = lambda local: int(local * rate_to_usd * 100 + 0.5)  # noqa: E731
    fuel, lodging = usd(miles * FUEL_USD_PER_MILE[region]), usd(NIGHT_LOCAL[region] * nights)
    meals = usd(MEALS_LOCAL[region] * len(plan.days))
    converted = "" if CURRENCY[region] == "USD" else f" (from {CURRENCY[region]} at {rate_to_usd:.4f})"
    text = (f"Road-trip estimates{converted}: fuel for {miles:.0f} mi, {nights} night(s) of lodging "
            f"and meals; admissions not included")
    return CostBreakdown(flights_usd_cents=0, lodging_usd_cents=lodging, attractions_usd_cents=0,
                         transit_usd_cents=fuel, daily_spend_usd_cents=meals,
                         total_usd_cents=fuel + lodging + meals, currency_disclaimer=text)


def road_itinerary(plan: RoadPlan, intent: RoadTripIntent, violations: list[Violation], *, trace_id: str,
                   run_id: str, rate_to_usd: float = 1.0) -> ItineraryV1:
    b = _Builder(plan, intent, rate_to_usd)
    days = [b.day(d) for d in plan.days]
    decisions = [Decision(node="road_planner", selected=d.anchor.label, alternatives_considered=len(d.anchor.considered),
                          rationale=f"day {d.index + 1}: {d.drive_miles:.0f} mi to {d.anchor.label} "
                                    f"({d.anchor.source.replace('_', ' ')}, {d.anchor_offset:.0f} mi off {plan.corridor.name})")
                 for d in plan.days]
    decisions += [Decision(node="road_planner", selected="log", alternatives_considered=0, rationale=line)
                  for line in plan.log]
    return ItineraryV1(itinerary_id=str(uuid.uuid4()), intent=intent, days=days, cost_breakdown=b.costs(),
                       decisions=decisions, citations=b.citations, violations=violations,
                       created_at=datetime.now(timezone.utc), trace_id=trace_id, run_id=run_id)


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
        if d.anchor.note:
            lines.append(f"  → {d.anchor.note}")
        lines.append("")
    for v in by_node.get("trip", []) + by_node.get("origin", []) + by_node.get("terminus", []):
        lines.append(f"{'❌' if v.blocking else '⚠️'} {v.details['invariant']}: {v.details['message']}")
    for entry in plan.log:
        lines.append(f"→ {entry}")
    blocking = sum(v.blocking for v in violations)
    lines.append(f"Result: {'PASS' if not blocking else 'FAIL'} ({blocking} blocking, {len(violations) - blocking} advisory)")
    return "\n".join(lines) + "\n"
