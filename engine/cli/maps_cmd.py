"""``tripwright maps download TRIP_ID|--bbox S,W,N,E [--out FILE] [--url URL]``: the offline copy
the app's Trip ▸ Make this trip available offline makes, from the command line (issue 35 §2) — the
tiles of a stored trip's area (its latest version's places, padded) or of a box, to zoom 15, from a
remote PMTiles archive by range requests (engine/maps/offline_area.py plans it, offline_download.py
fetches it, resumable, written atomically). The source is ``--url``, else Settings ▸ Offline map
source / ``TRIPWRIGHT_PMTILES_URL``; the size cap is Settings' ``offline_map_cap_mb``. A trip's copy
goes where the app looks for it (``<data dir>/offline_maps/<trip id>.pmtiles``) unless ``--out``."""

from __future__ import annotations

import asyncio
import math
import sys
from pathlib import Path

from engine.errors import InputError

from .paths import Outputs

WHERE_TO_SET = ("no offline map source: give --url, or set Settings ▸ Offline map source (offline_map_url) "
                "or TRIPWRIGHT_PMTILES_URL")


def run_maps(args) -> int:  # noqa: ANN001
    from engine.maps.offline_area import check_cap, mb, new_client, plan_area, RangeReader
    from engine.maps.offline_download import download_area, offline_map_path
    from engine.settings import apply_env, load_settings
    from engine.store.sqlite_file import data_dir

    if bool(args.trip_id) == bool(args.bbox):
        raise InputError("maps download", "give a trip id or --bbox south,west,north,east (one of the two)")
    settings = apply_env(load_settings().settings)
    url = (args.url or settings.offline_map_url or "").strip()
    if not url:
        raise InputError("--url", WHERE_TO_SET)
    if not url.lower().startswith(("http://", "https://")):
        raise InputError("--url", f"{url[:80]!r} is not an http(s) URL of a .pmtiles archive")
    bbox = _bbox(args.bbox) if args.bbox else _trip_bbox(args.trip_id)
    if args.out:
        dest = Path(args.out)
        if dest.suffix.lower() != ".pmtiles":
            raise InputError("--out", f"{dest.name}: an offline map is a .pmtiles file")
        Outputs.check({"--out": args.out})  # a folder, a missing or read-only one, a device: one line
    elif args.trip_id:
        dest = offline_map_path(data_dir(), args.trip_id)
    else:
        raise InputError("--out", "with --bbox, say where to write the map (--out FILE.pmtiles)")

    async def download():
        async with new_client() as client:
            reader = RangeReader(url, client)
            plan = await plan_area(reader, bbox)
            check_cap(plan, settings.offline_map_cap_mb)
            print(f"tripwright: downloading {plan.summary()}", file=sys.stderr)
            await download_area(plan, reader, dest, cap_mb=settings.offline_map_cap_mb)
            return plan
    plan = asyncio.run(download())
    print(f"wrote {dest} ({mb(dest.stat().st_size)}, zoom {plan.min_zoom}–{plan.max_zoom}, {plan.tile_count:,} tiles)")
    return 0


def _bbox(text: str):
    from engine.geo import BBox
    from engine.maps.offline_area import MAX_LAT
    parts = [p.strip() for p in text.split(",")]
    try:
        south, west, north, east = (float(p) for p in parts)
    except ValueError:
        raise InputError("--bbox", f"{text[:80]!r}: expected four numbers south,west,north,east") from None
    if not all(math.isfinite(v) for v in (south, west, north, east)):
        raise InputError("--bbox", "the box's corners must be numbers")
    if not (-90 <= south < north <= 90 and -180 <= west < east <= 180):
        raise InputError("--bbox", f"{text[:80]!r}: expected south < north within -90…90 and west < east within "
                                   "-180…180")
    return BBox.from_wsen(west, max(-MAX_LAT, south), east, min(MAX_LAT, north))


def _trip_bbox(trip_id: str):
    from engine.maps.offline_area import trip_bbox

    from .run_store import org_scope
    with org_scope() as repo:
        itinerary = repo.versions.get(trip_id).itinerary  # the stored JSON of the latest version
    points = []
    for day in itinerary.get("days") or []:
        for act in day.get("activities") or []:
            geo = act.get("geo") or {}
            if act.get("kind") != "flight" and geo.get("lat") is not None and geo.get("lon") is not None:
                points.append((geo["lat"], geo["lon"]))  # as the app's offline copy reads a trip
    return trip_bbox(points)
