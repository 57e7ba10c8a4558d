"""engine/maps/trip_map.py (issue 30 §4): one day palette and one builder of the day lines, used by
both map documents — the app's layers (widgets/map_layers.py) and the HTML export's page data."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

from engine.export.html_document import map_document
from engine.maps.trip_map import DAY_COLOURS, bounds, day_colour, day_lines, line, origin
from tests.engine.test_export import PARIS_DAYS, make_itinerary
from tests.engine.test_export_html import road_trip_itinerary
from engine.maps.map_document import build_map_document

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
    assert (export["stops"][0]["lat"], export["stops"][0]["lon"]) == (start.lat, start.lon)
    assert [m for m in layers["markers"] if m["id"] == "origin"][0]["lat"] == start.lat


def test_the_palette_lives_in_one_place():
    found = sorted(p.relative_to(ROOT).as_posix() for folder in ("engine", "app", "widgets")
                   for p in (ROOT / folder).rglob("*.py") if re.search(r"\"#1f77b4\", \"#d62728\"", p.read_text(encoding="utf-8")))
    assert found == ["engine/maps/trip_map.py"]
