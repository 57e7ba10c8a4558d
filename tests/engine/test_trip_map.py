"""engine/maps/trip_map.py (issue 30 §4): one day palette, one ring palette and one builder of the day
lines, in the one map document (engine/maps/map_document.py) that the app and the HTML export both draw."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

from engine.export.html_document import map_document
from engine.maps.map_document import build_map_document
from engine.maps.trip_map import (DAY_COLOURS, MIN_PALETTE_DISTANCE, SOURCE_COLOURS, bounds, day_colour, day_lines,
                                  line, origin)
from tests.engine.test_export import PARIS_DAYS, make_itinerary
from tests.engine.test_export_html import road_trip_itinerary

ROOT = Path(__file__).resolve().parents[2]


def test_the_palette_wraps_and_has_no_repeats():
    assert len(set(DAY_COLOURS)) == len(DAY_COLOURS) == 10
    assert [day_colour(i) for i in (0, 9, 10)] == [DAY_COLOURS[0], DAY_COLOURS[9], DAY_COLOURS[0]]


def test_a_line_drops_repeats_and_needs_two_points():
    assert line([(2.3, 48.8), (2.300001, 48.800001)]) is None  # the same point at five decimals
    assert line([(2.3, 48.8), (2.3, 48.8), (2.4, 48.9)]) == {"type": "LineString",
                                                             "coordinates": [[2.3, 48.8], [2.4, 48.9]]}
    assert bounds([]) is None and bounds([(1, 5), (3, 2)]) == [[1, 2], [3, 5]]


def test_both_documents_draw_the_same_city_days_in_the_same_colours():
    itin = make_itinerary(date(2027, 6, 15), PARIS_DAYS)
    export, layers, shared = map_document(itin), build_map_document(itin), day_lines(itin)
    assert [(d["colour"], d["path"]) for d in export["days"]] == [(d["colour"], d["path"]) for d in shared]
    assert [(d["colour"], d["path"]) for d in layers["days"]] == [(d["colour"], d["path"]) for d in shared]
    assert all(d["path"] is None or d["path"]["type"] == "LineString" for d in shared)
    assert sum(d["path"] is not None for d in shared) >= 3


def test_both_documents_draw_the_same_road_days_and_start():
    itin = road_trip_itinerary()
    export, layers, shared = map_document(itin), build_map_document(itin), day_lines(itin)
    assert [d["path"] for d in export["days"]] == [d["path"] for d in layers["days"]] == [d["path"] for d in shared]
    start, name = origin(itin)
    assert (start.lat, start.lon, name) == (34.05, -118.24, "Los Angeles, CA")
    assert (export["markers"][0]["lat"], export["markers"][0]["lon"]) == (start.lat, start.lon)
    assert [m for m in layers["markers"] if m["id"] == "origin"][0]["lat"] == start.lat


def test_the_palette_lives_in_one_place():
    found = sorted(p.relative_to(ROOT).as_posix() for folder in ("engine", "app", "widgets")
                   for p in (ROOT / folder).rglob("*.py") if re.search(r"\"#1f77b4\", \"#d62728\"", p.read_text(encoding="utf-8")))
    assert found == ["engine/maps/trip_map.py"]


def _lab(hex_colour: str) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB colour."""
    def linear(c: float) -> float:
        return ((c + 0.055) / 1.055) ** 2.4 if c > 0.04045 else c / 12.92

    r, g, b = (linear(int(hex_colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    xyz = ((r * 0.4124 + g * 0.3576 + b * 0.1805) / 0.95047, r * 0.2126 + g * 0.7152 + b * 0.0722,
           (r * 0.0193 + g * 0.1192 + b * 0.9505) / 1.08883)
    fx, fy, fz = (v ** (1 / 3) if v > 0.008856 else 7.787 * v + 16 / 116 for v in xyz)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def _delta_e(a: str, b: str) -> float:
    return sum((p - q) ** 2 for p, q in zip(_lab(a), _lab(b))) ** 0.5


def test_no_day_colour_can_be_taken_for_a_data_source_ring():
    """Issue 32 §4: fill = day, ring = data source; the two palettes never meet (the old day palette had
    the real-data green, the OSM purple and the estimate brown within ΔE 15 of their rings)."""
    closest = min(_delta_e(day, ring) for day in DAY_COLOURS for ring in SOURCE_COLOURS.values())
    days_apart = min(_delta_e(a, b) for i, a in enumerate(DAY_COLOURS) for b in DAY_COLOURS[i + 1:])
    assert closest >= MIN_PALETTE_DISTANCE and days_apart >= 20
    assert _delta_e("#2ca02c", SOURCE_COLOURS["real"]) < 15  # what the measure would have refused


def test_every_marker_carries_its_ring_colour_and_the_legend_names_them():
    itin = make_itinerary(date(2027, 6, 15), PARIS_DAYS)
    document = build_map_document(itin)
    assert all(m["ring"] == SOURCE_COLOURS[m["data_source"]] for m in document["markers"])
    legend = document["legend"]
    assert [d["colour"] for d in legend["days"]] == [d["colour"] for d in document["days"]]
    assert {s["source"] for s in legend["sources"]} >= {m["data_source"] for m in document["markers"]}
    assert {k["kind"] for k in legend["kinds"]} == {m["kind"] for m in document["markers"]}
    assert [m["what"] for m in legend["marks"]] == ["low", "locked"]
