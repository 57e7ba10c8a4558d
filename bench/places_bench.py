"""Saved places in and KML out (issue 21 §2–§4):

    .venv/bin/python bench/places_bench.py [--json] [--reps N]

- ``kml_import_500_p50_ms`` / ``kml_import_5000_p50_ms``: a My Maps–shaped KML (layers as Folders,
  HTML descriptions, ExtendedData) of 500 and of 5,000 places (the cap) parsed into ``SavedPlace``
  values from bytes in memory (target for 500: ≤ 1 s);
- ``match_5000_paris_p50_ms``: those 5,000 places paired with the Paris fixture's venues and
  restaurants (name + ≤ 150 m);
- ``kml_export_road_14d_p50_ms``: ``itinerary_to_kml`` of a real 14-day Route 66 trip planned
  in-process first (its days carry their driven paths, each simplified to ≤ 500 points), and
  ``kml_export_city_7d_p50_ms`` of a real 7-day Paris trip (city trips last 4–7 days), with sizes.

Runs offline (``TRIPWRIGHT_OFFLINE=1``) in a throwaway data dir: the figures are the engine's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ["TRIPWRIGHT_OFFLINE"] = "1"
os.environ.setdefault("TRIPWRIGHT_HOME", tempfile.mkdtemp(prefix="tripwright-places-bench-"))

from bench.timing import p50_ms  # noqa: E402
from engine.catalog import default_catalog  # noqa: E402
from engine.export.kml_export import itinerary_to_kml  # noqa: E402
from engine.imports import match_saved_places, parse_saved_places  # noqa: E402
from engine.models import IntentV1, RoadTripIntent  # noqa: E402
from engine.pipeline import PlanningSession  # noqa: E402

TODAY = "2026-11-23"


def my_maps_kml(n: int) -> bytes:
    """``n`` placemarks around Paris in layers of 100, shaped as My Maps writes them."""
    folders = []
    for start in range(0, n, 100):
        marks = "".join(
            f"<Placemark><name>Place {k}</name><description><![CDATA[Note {k}<br>Open late<br>"
            f'<img src="https://example.invalid/{k}.jpg" height="200" width="auto" />]]></description>'
            f"<styleUrl>#icon-1507-0288D1</styleUrl><ExtendedData><Data name=\"gx_media_links\"><value>"
            f"https://example.invalid/{k}.jpg</value></Data></ExtendedData><Point><coordinates>\n"
            f"            {2.25 + (k % 97) / 700:.5f},{48.82 + (k % 89) / 1000:.5f},0\n"
            f"          </coordinates></Point></Placemark>\n"
            for k in range(start, min(n, start + 100)))
        folders.append(f"<Folder><name>Layer {start // 100 + 1}</name>{marks}</Folder>")
    return ('<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document>'
            f"<name>Bench</name>{''.join(folders)}</Document></kml>").encode()


def planned(intent):
    return asyncio.run(PlanningSession(today=date.fromisoformat(TODAY)).plan(intent)).itinerary


def run(reps: int) -> dict:
    out: dict = {}
    for n in (500, 5000):
        data = my_maps_kml(n)
        out[f"kml_import_{n}_bytes"] = len(data)
        out[f"kml_import_{n}_p50_ms"] = p50_ms(lambda d=data: parse_saved_places(d, "bench.kml"), reps)
    places = parse_saved_places(my_maps_kml(5000), "bench.kml").places
    paris = default_catalog().city("Paris").raw
    out["match_5000_paris_p50_ms"] = p50_ms(lambda: match_saved_places(places, [*paris.venues, *paris.restaurants]), reps)
    city = planned(IntentV1.model_validate({
        "city": "Paris", "date_window": {"start": "2027-06-01", "end": "2027-06-07", "tz": "Europe/Paris"},
        "budget_usd_cents": 800_000, "airports": ["CDG", "ORY"], "origin_airport": "JFK"}))
    road = planned(RoadTripIntent.model_validate({"mode": "road_trip", "origin": "Los Angeles", "terminus": "Chicago",
                                                   "days": 14, "start_date": "2027-05-03", "route": "Route 66"}))
    for label, itin in ((f"road_{len(road.days)}d", road), (f"city_{len(city.days)}d", city)):
        out[f"kml_export_{label}_bytes"] = len(itinerary_to_kml(itin).encode("utf-8"))
        out[f"kml_export_{label}_p50_ms"] = p50_ms(lambda i=itin: itinerary_to_kml(i), reps)
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--reps", type=int, default=5, help="timed runs per figure (after one warm-up)")
    args = parser.parse_args(argv)
    result = run(args.reps)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for key, value in result.items():
            print(f"{key:32} {value}")
    return 0


if __name__ == "__main__":
    from engine.log_setup import configure
    configure(0)  # warnings only, to stderr: a run logs each node and tool call at INFO
    raise SystemExit(main(sys.argv[1:]))
