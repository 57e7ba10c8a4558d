"""What a planning run leaves to say or prepare: the failure's text, and the engine data and map
geometry warmed off the GUI thread."""

from __future__ import annotations

import asyncio
import logging

from engine.models import format_usd
from engine.roadtrip.itinerary import zone_at
from engine.roadtrip.routes import find_route
from engine.roadtrip.corridor_band import corridor_geometry

from .trip_session import Intent

log = logging.getLogger(__name__)


def warm_engine(planning) -> None:
    """What the first road trip would otherwise load mid-run, holding the GIL in C for tens of
    milliseconds at a time (the gazetteer index, timezonefinder's data)."""
    planning.geocoder()
    zone_at(41.88, -87.63)


async def warm_corridor(intent: Intent) -> None:
    """Buffer the route's corridor band in a thread before the trip is drawn: the map's layer
    builder caches it (``corridor_geometry`` is memoised on exactly these arguments), so drawing
    does not spend a first 100+ ms of shapely/pyproj work on the GUI thread. Not during the
    engine's run: a third thread competing for the GIL starves the GUI thread for 40+ ms."""
    if intent.mode != "road_trip" or not intent.route:
        return
    try:
        route = find_route(intent.route)
        polyline = tuple((float(lon), float(lat)) for lon, lat in route.polyline)
        await asyncio.to_thread(corridor_geometry, polyline, float(intent.corridor_max_deviation_miles))
    except Exception:  # noqa: BLE001 — only a head start; the map builds the band itself if this fails
        log.debug("corridor warm-up failed", exc_info=True)


def failure_text(result) -> str:
    failure = result.failure
    if failure is None:
        return f"Planning ended without a plan ({result.status})."
    lines = [failure.message]
    left = [v.details.get("message", v.reason) for v in failure.violations if v.blocking]
    unsaid = [text for text in left if text not in failure.message]
    if unsaid:
        lines.append("Still wrong: " + "; ".join(unsaid[:3]))
    for diff in failure.attempts[:5]:
        moves = ", ".join(f"{m.move_type.value} {m.old_value} \u2192 {m.new_value}" for m in diff.moves)
        lines.append(f"Attempt {diff.cycle}: {moves or 'no move applied'}")
    if failure.best_total_usd_cents:
        lines.append(f"Best plan found costs {format_usd(failure.best_total_usd_cents)}.")
    return "\n".join(lines)
