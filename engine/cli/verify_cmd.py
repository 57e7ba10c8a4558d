"""``tripwright verify`` and ``tripwright export`` over a saved itinerary."""

from __future__ import annotations

import asyncio
import sys
from functools import partial

from engine.catalog import default_catalog
from engine.costs import plan_assumptions, plan_cost
from engine.export import RENDERERS, parse_itinerary
from engine.models import ItineraryV1, format_usd
from engine.planning.inputs import gather
from engine.reconstruct import plan_from_itinerary
from engine.tools.toolbox import build_toolbox
from engine.verify import blocking, verify_plan

from .paths import Outputs, read_input


def read_itinerary(path: str) -> ItineraryV1:
    return parse_itinerary(read_input("itinerary", path))


def run_verify(args) -> int:
    itin = read_itinerary(args.itinerary)
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
    given = {"--json": args.json_out, "--gpx": args.gpx, "--ics": args.ics, "--html": args.html}
    if not any(path is not None for path in given.values()):
        print("tripwright: export: give at least one of --gpx, --ics, --json, --html", file=sys.stderr)
        return 2
    outputs = Outputs.check(given, inputs={"itinerary": args.itinerary})
    itin = read_itinerary(args.itinerary)
    kinds = {"--json": "out", "--gpx": "gpx", "--ics": "ics", "--html": "html"}
    outputs.write({arg: partial(RENDERERS[kind], itin) for arg, kind in kinds.items()})
    for path in outputs.paths.values():
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
