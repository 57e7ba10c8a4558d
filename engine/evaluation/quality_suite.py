"""The plan-quality registry (``tests/data/osm/quality.json``) and one plan's scores against it
(issue 31 §6): shared by ``bench/plan_quality.py``, its test and the ``tripwright eval`` quality
scenarios (``tests/eval/quality_scenarios/``), whose predicates read ``quality[...]``.

The registry and its data sets are test data shipped in the repository, read from there as
``engine.evaluation.packs`` reads the shipped eval packs."""

from __future__ import annotations

import json
from pathlib import Path

from engine.models.itinerary import ItineraryV1

from . import quality as q

REGISTRY = Path(__file__).resolve().parents[2] / "tests" / "data" / "osm" / "quality.json"


def registry_rows(registry: Path = REGISTRY) -> list[dict]:
    reg = json.loads(registry.read_text(encoding="utf-8"))
    return [*reg.get("cities", []), *reg.get("corridors", [])]


def row_elements(row: dict, registry: Path = REGISTRY) -> list[dict]:
    return json.loads((registry.parent / row["data"]).read_text(encoding="utf-8"))


def for_pack(pack: str | None, itinerary: ItineraryV1 | None, registry: Path = REGISTRY) -> dict | None:
    """The scores of a plan of the eval pack ``pack`` (the registry row naming it), else None."""
    if pack is None or itinerary is None or not registry.is_file():
        return None
    row = next((r for r in registry_rows(registry) if r.get("pack") == pack), None)
    return score_plan(row, itinerary, row_elements(row, registry)) if row else None


def score_plan(row: dict, itinerary: ItineraryV1, elements: list[dict]) -> dict:
    """Every measure of ``engine.evaluation.quality`` for one plan, with the figures the table shows."""
    data = q.PlaceData(elements)
    days = itinerary.days
    cover = q.famous_coverage(days, data, row.get("famous", []))
    full = q.full_days(days)
    idle = [q.day_idle(d) for d in full]
    routes = q.routes(days, data)
    meals = q.main_meals(days, data)
    nights = [n for n in q.nights(days, data) if n.bed_in_reach]
    hops = q.hops(days)
    names = q.names_in_language(days, data, row.get("language", "en"))
    fastest = max(hops, key=lambda h: h.mph, default=None)
    miles = q.day_miles(days)
    return {
        "slug": row["slug"],
        "coverage": cover.share, "coverage_of": f"{len(cover.visited)}/{len(cover.famous_open)}",
        "famous_missed": [n for n in cover.famous_open if n not in cover.visited],
        "largest_hole_h": max((i.largest_hole_h for i in idle), default=None),
        "idle_h_per_full_day": round(sum(i.total_idle_h for i in idle) / len(idle), 2) if idle else None,
        "full_days": len(idle),
        "route_ratio": max((r.ratio for r in routes if r.ratio), default=None),
        "route_ratio_mean": (round(sum(r.ratio for r in routes if r.ratio) / len(routes), 3) if routes else None),
        "meals_at_restaurants": (sum(m.at_restaurant for m in meals) / len(meals)) if meals else None,
        "meals_of": f"{sum(m.at_restaurant for m in meals)}/{len(meals)}",
        "meals_elsewhere": [f"{m.date} {m.at:%H:%M} {m.name} ({m.amenity})" for m in meals if not m.at_restaurant],
        "lunches_of": f"{sum(q.lunched(d) for d in full)}/{len(full)}",  # full days with a lunch (reported)
        "nights_at_bed": (sum(n.at_bed for n in nights) / len(nights)) if nights else None,
        "nights_of": f"{sum(n.at_bed for n in nights)}/{len(nights)}",
        "fastest_mph": fastest.mph if fastest else None,
        "fastest_hop": (f"{fastest.from_name} → {fastest.to_name}: {fastest.miles} mi in {fastest.minutes} min"
                        if fastest else ""),
        "names_in_language": names.share, "names_of": f"{names.shown}/{names.possible}",
        "days_short_of_the_line": [f"{m.date}: {m.drive_miles} mi driven < {m.straight_miles} mi straight"
                                   for m in miles if m.short],
    }
