"""``tripwright verify`` and ``tripwright export`` over a saved itinerary."""

from __future__ import annotations

import asyncio
import sys

from engine.catalog import default_catalog
from engine.costs import plan_assumptions, plan_cost
from engine.export import export_files, load_itinerary
from engine.models import format_usd
from engine.planning.inputs import gather
from engine.reconstruct import plan_from_itinerary
from engine.tools.toolbox import build_toolbox
from engine.verify import blocking, verify_plan


def run_verify(args) -> int:
    itin = load_itinerary(args.itinerary)
    if itin.status != "ok":
        print(f"tripwright: {args.itinerary} holds no plan ({itin.message})", file=sys.stderr)
        return 1
    if itin.intent.mode == "road_trip":
        return _verify_road(itin)
    today = itin.created_at.date()
    inputs = asyncio.run(gather(itin.intent, build_toolbox(default_catalog(), today=today)))
    facts = inputs.facts
    assumptions = plan_assumptions(facts, itin.intent)
    plan = plan_from_itinerary(itin, facts, assumptions)
    violations = verify_plan(plan, itin.intent, facts)
    for v in violations:
        print(v.describe())
    total = plan_cost(plan, facts).total
    stated = itin.cost_breakdown.total_usd_cents
    if total != stated:
        print(f"[advisory] cost: recomputed {format_usd(total)}, itinerary states {format_usd(stated)}")
    hard = blocking(violations)
    print(f"{len(hard)} blocking, {len(violations) - len(hard)} advisory")
    return 1 if hard else 0


def run_export(args) -> int:
    itin = load_itinerary(args.itinerary)
    if not (args.gpx or args.ics or args.json_out or args.html):
        print("tripwright: export: give at least one of --gpx, --ics, --json, --html", file=sys.stderr)
        return 2
    export_files(itin, out=args.json_out, gpx=args.gpx, ics=args.ics, html=args.html)
    for path in filter(None, (args.json_out, args.gpx, args.ics, args.html)):
        print(f"wrote {path}")
    return 0


def _verify_road(itin) -> int:
    from engine.roadtrip.invariants import verify_road_plan
    from engine.roadtrip.reconstruct import road_plan_from_itinerary
    violations = verify_road_plan(road_plan_from_itinerary(itin))
    for v in violations:
        print(f"{v.describe()} ({v.details['invariant']})")
    hard = blocking(violations)
    print(f"{len(hard)} blocking, {len(violations) - len(hard)} advisory")
    return 1 if hard else 0
