"""Day routes and full days (issue 31 §2), printed by running:

    .venv/bin/python bench/day_route_bench.py [--json]

Plans 5-day trips in the four fixture cities (offline, the embedded catalog) and measures each
full day (no flight that day): the route hotel → the day's stops (sights and meals, in the plan's
order) → hotel against the shortest order of the same stops (exact, Held–Karp on great-circle
distance; goal ≤ 1.05×) — both with the meals held at their place in the day (lunch stays at noon:
"meals pinned", what a planner can reorder) and with every stop free (the strict bound) —, the
hours of 09:00–18:00 no slot covers (net of the planned transfers: idle), the longest such hole
(goal: none of 3 h or more) and the sights per day.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
from datetime import date
from itertools import combinations

from engine.catalog import default_catalog
from engine.geo import haversine_m
from engine.models import IntentV1, minutes_of
from engine.pipeline import PlanningSession

TODAY = date(2026, 11, 23)
TRIPS = [
    ("Paris", "Europe/Paris", ["CDG", "ORY"], ["art", "food"]),
    ("Rome", "Europe/Rome", ["FCO"], ["history", "architecture"]),
    ("New York", "America/New_York", ["JFK", "LGA"], ["art", "views"]),
    ("Tokyo", "Asia/Tokyo", ["HND", "NRT"], ["culture", "food"]),
]
ORIGIN = {"Paris": "JFK", "Rome": "JFK", "New York": "LHR", "Tokyo": "LAX"}
DAY_FROM, DAY_TO = 9 * 60, 18 * 60
HOLE = 180


def _intent(city: str, tz: str, airports: list[str], themes: list[str], pace: str | None) -> IntentV1:
    prefs: dict = {"themes": themes}
    if pace is not None:
        prefs["pace"] = pace
    return IntentV1.model_validate({
        "city": city, "date_window": {"start": "2027-06-14", "end": "2027-06-18", "tz": tz},
        "budget_usd_cents": 900000, "airports": airports, "origin_airport": ORIGIN[city], "prefs": prefs})


def _path_km(points) -> float:
    return sum(haversine_m(a, b) / 1000 for a, b in zip(points, points[1:]))


def _km(a, b) -> float:
    return haversine_m(a, b) / 1000


def best_order_km(home, stops) -> float:
    """The shortest home → every stop → home, by Held–Karp (exact)."""
    n = len(stops)
    if n == 0:
        return 0.0
    d = [[_km(a, b) for b in stops] for a in stops]
    best = {(1 << i, i): _km(home, stops[i]) for i in range(n)}
    for size in range(2, n + 1):
        for subset in combinations(range(n), size):
            mask = sum(1 << i for i in subset)
            for j in subset:
                prev = mask & ~(1 << j)
                best[(mask, j)] = min(best[(prev, k)] + d[k][j] for k in subset if k != j)
    full = (1 << n) - 1
    return min(best[(full, j)] + _km(stops[j], home) for j in range(n))


def best_pinned_km(home, stops, pinned: list[bool]) -> float:
    """The shortest home → stops → home where each pinned stop (a meal) keeps its place in the
    sequence and the others (sights) take the free places in any order (exact DP over subsets)."""
    free = [i for i, p in enumerate(pinned) if not p]
    layer: dict[tuple[int, int], float] = {(0, -1): 0.0}  # (sights used, last stop; -1 = home) → km
    for position, is_pinned in enumerate(pinned):
        nxt: dict[tuple[int, int], float] = {}
        for (mask, last), km in layer.items():
            here = home if last < 0 else stops[last]
            choices = [position] if is_pinned else [i for k, i in enumerate(free) if not mask >> k & 1]
            for i in choices:
                bit = 0 if is_pinned else 1 << free.index(i)
                key = (mask | bit, i)
                value = km + _km(here, stops[i])
                if value < nxt.get(key, float("inf")):
                    nxt[key] = value
        layer = nxt
    return min(km + _km(home if last < 0 else stops[last], home) for (_, last), km in layer.items())


def _holes(slots) -> list[int]:
    covered = sorted((max(DAY_FROM, minutes_of(s.window.start)), min(DAY_TO, minutes_of(s.window.end)))
                     for s in slots)
    holes, at = [], DAY_FROM
    for lo, hi in covered:
        if hi <= lo:
            continue
        if lo > at:
            holes.append(lo - at)
        at = max(at, hi)
    if at < DAY_TO:
        holes.append(DAY_TO - at)
    return holes


async def measure(pace: str | None) -> dict:
    catalog = default_catalog()
    ratios, strict, idle, longest, sights, km, big_holes, full_days = [], [], [], [], [], [], 0, 0
    for city, tz, airports, themes in TRIPS:
        result = await PlanningSession(catalog, today=TODAY).plan(_intent(city, tz, airports, themes, pace))
        plan, facts = result.plan, result.inputs.facts
        hotel = next(s.selected.geo for d in plan.days for s in d.slots if s.role == "checkin")
        for day in plan.days:
            if any(s.role in ("arrival", "departure") for s in day.slots):
                continue
            full_days += 1
            stops = [s for s in sorted(day.slots, key=lambda s: s.window.start)
                     if s.role in ("activity", "meal") and s.selected.geo is not None]
            geos = [s.selected.geo for s in stops]
            planned = _path_km([hotel, *geos, hotel])
            km.append(planned)
            best = best_pinned_km(hotel, geos, [s.role == "meal" for s in stops])
            ratios.append(planned / best if best > 0 else 1.0)
            loose = best_order_km(hotel, geos)
            strict.append(planned / loose if loose > 0 else 1.0)
            holes = _holes(day.slots)
            moving = sum(facts.leg(a, b, day.date).duration_seconds for a, b in zip([hotel, *geos], [*geos, hotel]))
            idle.append(max(0.0, sum(holes) / 60 - moving / 3600))
            longest.append(max(holes, default=0) / 60)
            big_holes += any(h >= HOLE for h in holes)
            sights.append(sum(1 for s in day.slots if s.role == "activity"))
    return {"pace": pace or "(default)", "full_days": full_days,
            "route_vs_best_mean": round(statistics.mean(ratios), 3),
            "route_vs_best_max": round(max(ratios), 3),
            "route_vs_free_order_mean": round(statistics.mean(strict), 3),
            "idle_hours_per_full_day": round(statistics.mean(idle), 2),
            "longest_hole_hours_max": round(max(longest), 2),
            "full_days_with_3h_hole": big_holes,
            "sights_per_full_day": round(statistics.mean(sights), 2),
            "route_km_per_full_day": round(statistics.mean(km), 1)}


def main() -> None:
    from engine.log_setup import configure
    configure(0)  # warnings only: a run logs each node and tool call at INFO
    paces: list[str | None] = [None]
    if "pace" in IntentV1.model_fields["prefs"].annotation.model_fields:  # builds before issue 31 have none
        paces += ["relaxed", "packed"]
    rows = [asyncio.run(measure(p)) for p in paces]
    if "--json" in sys.argv:
        print(json.dumps(rows))
        return
    for r in rows:
        print(f"day routes [{r['pace']}]: {r['full_days']} full days; route vs best order (meals pinned) mean "
              f"{r['route_vs_best_mean']}x (max {r['route_vs_best_max']}x, goal <= 1.05x; every stop free "
              f"{r['route_vs_free_order_mean']}x); idle 09-18 net of transfers "
              f"{r['idle_hours_per_full_day']} h/day; longest hole {r['longest_hole_hours_max']} h; days with a "
              f"3 h hole {r['full_days_with_3h_hole']}; sights/day {r['sights_per_full_day']}; "
              f"route {r['route_km_per_full_day']} km/day")


if __name__ == "__main__":
    main()
