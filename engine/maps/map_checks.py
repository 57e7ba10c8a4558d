"""The map's pre-render check (seed 000 §6, "Pre-Render: exclude invalid markers"): pure Python.

The engine already rejects bad coordinates while planning, but the map draws whatever a saved or
edited itinerary holds, so before anything is drawn each marker is checked again against the
geocoding trust boundary (``engine.geocode.trust``):

* every trip: a real, finite latitude/longitude in range, and not null island (INV-GEO-02);
* road trips: inside the Continental Trust Boundary of the trip's region (INV-GEO-01/04) — the
  region whose box holds most of the trip's points;
* city trips: not more than 500 miles from every other stop of the trip (INV-GEO-03); flights are
  left out of this one (the home airport is far away by design).

A marker that fails is not drawn; the document says which and why (``excluded``) in the
traveller's words, and the map's banner repeats it. Day lines lose the points that fail too.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from engine.geocode.trust import TRUST_BOXES, check_point, isolated

WHY = {
    "range": "its position is not a valid place on Earth",
    "INV-GEO-02": "its position is 0°, 0° (no real location)",
    "INV-GEO-01": "its position is outside the region of the trip",
    "INV-GEO-04": "its position is in the ocean, outside the region of the trip",
    "INV-GEO-03": "its position is over 500 miles from every other stop",
}


def valid_number_pair(lat: object, lon: object) -> bool:
    ok = all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in (lat, lon))
    return ok and -90.0 <= lat <= 90.0 and -180.0 <= lon <= 180.0


def trip_region(points: Iterable[tuple[float, float]]) -> str | None:
    """The trust region whose box holds most of ``points`` (None when none holds any)."""
    counts = dict.fromkeys(TRUST_BOXES, 0)
    for lat, lon in points:
        for region in TRUST_BOXES:
            if not check_point(lat, lon, region):
                counts[region] += 1
    region, count = max(counts.items(), key=lambda kv: kv[1])
    return region if count else None


def point_problem(lat: object, lon: object, region: str | None) -> str | None:
    """Why ``(lat, lon)`` must not be drawn (a key of :data:`WHY`), or None."""
    if not valid_number_pair(lat, lon):
        return "range"
    if lat == 0 and lon == 0:
        return "INV-GEO-02"
    if region is not None:
        broken = check_point(lat, lon, region)
        if broken:
            return broken[0]
    return None


def screen_markers(markers: list[dict], road: bool) -> tuple[list[dict], list[dict], str | None]:
    """(markers to draw, ``{"id", "label", "reason"}`` of those left out, the trip's region)."""
    sane = [m for m in markers if valid_number_pair(m["lat"], m["lon"])]
    region = trip_region((m["lat"], m["lon"]) for m in sane) if road else None
    problems = {m["id"]: point_problem(m["lat"], m["lon"], region) for m in markers}
    if not road:
        stops = [m for m in markers if problems[m["id"]] is None and m["kind"] != "flight"]
        for i in isolated([(m["lat"], m["lon"]) for m in stops]):
            problems[stops[i]["id"]] = "INV-GEO-03"
    kept = [m for m in markers if problems[m["id"]] is None]
    excluded = [{"id": m["id"], "label": m["label"], "reason": WHY[problems[m["id"]]]}
                for m in markers if problems[m["id"]] is not None]
    return kept, excluded, region


def screen_line(points: Iterable[tuple[float, float]], region: str | None) -> list[tuple[float, float]]:
    """The (lon, lat) points of a day's line that may be drawn."""
    return [(lon, lat) for lon, lat in points if point_problem(lat, lon, region) is None]


def exclusion_note(excluded: list[dict]) -> str | None:
    """One sentence for the banner: what is not on the map, and why."""
    if not excluded:
        return None
    parts = [f"{e['label']} ({e['reason']})" for e in excluded[:3]]
    more = f" and {len(excluded) - 3} more" if len(excluded) > 3 else ""
    return "Not shown on the map: " + "; ".join(parts) + more + "."
