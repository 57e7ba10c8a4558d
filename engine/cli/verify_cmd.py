"""``tripwright verify`` and ``tripwright export`` over a saved itinerary."""

from __future__ import annotations

import sys

from engine.errors import InputError
from engine.export import export_files, load_itinerary, read_plan_failure


def run_verify(args) -> int:
    """Exit 0: every fact re-derived and no blocking violation; 1: a blocking violation, a fact the
    catalog does not back, or a file that holds no plan; 2: not an itinerary (the field named)."""
    from engine.verify.saved import verify_saved
    try:
        itin = load_itinerary(args.itinerary, strict=True)  # the schema first: a violation is exit 2
    except InputError:
        failure = read_plan_failure(args.itinerary)
        if failure is None:
            raise
        return _no_plan(args.itinerary, failure.message)
    if itin.status != "ok":
        return _no_plan(args.itinerary, itin.message)
    verdict = verify_saved(itin)
    for note in verdict.notes:
        print(f"note: {note}")
    for v in verdict.violations:
        invariant = v.details.get("invariant")
        print(v.describe() + (f" ({invariant})" if invariant else ""))
    hard = verdict.blocking
    print(f"{len(hard)} blocking, {len(verdict.violations) - len(hard)} advisory")
    return 1 if hard else 0


def _no_plan(path: str, message: str) -> int:
    print(f"tripwright: {path} holds no plan ({message})", file=sys.stderr)
    return 1


def run_export(args) -> int:
    itin = load_itinerary(args.itinerary)
    if not (args.gpx or args.ics or args.json_out or args.html):
        print("tripwright: export: give at least one of --gpx, --ics, --json, --html", file=sys.stderr)
        return 2
    export_files(itin, out=args.json_out, gpx=args.gpx, ics=args.ics, html=args.html)
    for path in filter(None, (args.json_out, args.gpx, args.ics, args.html)):
        print(f"wrote {path}")
    return 0
