"""``tripwright verify`` and ``tripwright export`` over a saved itinerary."""

from __future__ import annotations

import sys
from pathlib import Path

from engine.errors import InputError, PdfRenderFailed
from engine.export import parse_itinerary, parse_plan_failure
from engine.frontend import export_renderer
from engine.models import ItineraryV1

from .paths import Outputs, read_input


def read_itinerary(path: str, *, strict: bool = False) -> ItineraryV1:
    return parse_itinerary(read_input("itinerary", path), strict=strict)


def run_verify(args) -> int:
    """Exit 0: every fact re-derived and no blocking violation; 1: a blocking violation, a fact the
    catalog does not back, or a file that holds no plan; 2: not an itinerary (the field named)."""
    from engine.verify_saved import verify_saved
    raw = read_input("itinerary", args.itinerary)
    try:
        itin = parse_itinerary(raw, strict=True)  # the schema first: a violation is exit 2
    except InputError:
        failure = parse_plan_failure(raw)
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
    from engine.export.formats import FORMATS
    given = {f"--{fmt.key}": getattr(args, f"{fmt.key}_out") for fmt in FORMATS}
    if not any(path is not None for path in given.values()):
        print(f"tripwright: export: give at least one of {', '.join(given)}", file=sys.stderr)
        return 2
    outputs = Outputs.check(given, inputs={"itinerary": args.itinerary})
    itin = read_itinerary(args.itinerary)
    if args.gpx_per_day and args.gpx_out is None:
        print("tripwright: --gpx-per-day: needs --gpx FILE.gpx (the day files go next to it)", file=sys.stderr)
        return 2
    if args.ics_transfers and args.ics_out is None:
        print("tripwright: --ics-transfers: needs --ics FILE.ics", file=sys.stderr)
        return 2
    options = {"ics": {"transfers": bool(args.ics_transfers)}}
    renders = {f"--{fmt.key}": export_renderer(itin, fmt.key, **options.get(fmt.key, {}))
               for fmt in FORMATS if given[f"--{fmt.key}"]}
    if "--phone" in renders:
        renders["--phone"] = _size_stated(renders["--phone"])
    try:
        outputs.write(renders)
    except PdfRenderFailed as exc:
        print(f"tripwright: --pdf: {exc}; nothing was written", file=sys.stderr)
        return 1
    written = list(outputs.paths.values())
    if args.gpx_per_day:
        written += _gpx_days(itin, Path(args.gpx_out))
    for path in written:
        print(f"wrote {path}", file=sys.stderr)  # status, as every command reports it; stdout is output
    return 0


def _size_stated(render):
    """The phone page's renderer, saying the page's size once it is drawn, before it is written."""
    def rendered():
        from engine.export.phone_export import size_text
        page = render()
        print(f"--phone: one page of {size_text(page)}, everything inlined (it needs no network)", file=sys.stderr)
        return page
    return rendered


def _gpx_days(itin, gpx: Path) -> list[Path]:
    """One GPX per day beside the whole-trip file, all written or none (``write_all``)."""
    from engine.atomic import write_all
    from engine.export.gpx_export import itinerary_to_gpx_days
    files = [(gpx.with_name(f"{gpx.stem}-{name}"), text) for name, text in itinerary_to_gpx_days(itin)]
    write_all(files)
    return [path for path, _ in files]
