"""Issue 21 §3: ``tripwright export ITINERARY.json --kml FILE.kml`` — KML 2.2 with a folder per day,
a placemark per located activity (local times and notes; a UTC TimeSpan from the true start/end),
the day's route as a LineString (a road trip's driven path, at most 500 points). Real Paris and
Route 66 itineraries are planned in-process, read back with fastkml and with Tripwright's own
saved-places reader, and validated against the OGC KML 2.2 schema that fastkml ships."""

from __future__ import annotations

import asyncio
import math
from datetime import UTC, date, timedelta
from pathlib import Path

import pytest
from fastkml import kml as fastkml
from lxml import etree

from engine.export import export_files, itinerary_to_kml
from engine.export._trip import plain_text
from engine.export.gpx_export import simplified
from engine.export.kml_export import MAX_PATH_POINTS, write_kml
from engine.imports import parse_saved_places
from engine.models import ChoiceKind, Geo, ItineraryV1, RoadTripIntent
from engine.pipeline import PlanningSession

from .conftest import TODAY, paris_demo
from .test_export import HOSTILE_NAMES, PARIS_DAYS, make_itinerary

KML_NS = "{http://www.opengis.net/kml/2.2}"


@pytest.fixture(scope="module")
def paris() -> ItineraryV1:
    return asyncio.run(PlanningSession(today=TODAY).plan(paris_demo())).itinerary


@pytest.fixture(scope="module")
def route66() -> ItineraryV1:
    intent = RoadTripIntent.model_validate({"mode": "road_trip", "origin": "Los Angeles", "terminus": "Chicago",
                                            "days": 7, "start_date": "2027-05-03", "route": "Route 66"})
    return asyncio.run(PlanningSession(today=TODAY).plan(intent)).itinerary


@pytest.fixture(scope="module")
def kml_schema() -> etree.XMLSchema:
    """The OGC KML 2.2 schema (with its atom, xAL and gx imports) as fastkml ships it: offline."""
    import fastkml as package
    xsd = Path(package.__file__).parent / "schema" / "ogckml22.xsd"
    if not xsd.is_file():
        pytest.skip("fastkml ships no ogckml22.xsd here; the OGC schema is not downloaded by tests")
    return etree.XMLSchema(etree.parse(str(xsd), etree.XMLParser(no_network=True)))


def read_back(text: str):
    """The KML as fastkml reads it: (document, [(folder, [placemarks])])."""
    document = fastkml.KML.from_string(text.encode("utf-8")).features[0]
    return document, [(folder, list(folder.features)) for folder in document.features]


def _located(day):
    return [a for a in day.activities if a.geo is not None]


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, abs_tol=1e-6)


def test_a_folder_per_day_and_a_placemark_per_located_activity(paris) -> None:
    document, folders = read_back(itinerary_to_kml(paris))
    assert document.name == "Paris, 2027-06-15 – 2027-06-19"
    assert [f.name for f, _ in folders] == [f"Day {n} – {d.date.isoformat()}" for n, d in enumerate(paris.days, 1)]
    for day, (_, marks) in zip(paris.days, folders, strict=True):
        points = [m for m in marks if m.geometry.geom_type == "Point"]
        assert [m.name for m in points] == [plain_text(a.name) for a in _located(day)]
        for mark, act in zip(points, _located(day)):
            assert _close(mark.geometry.x, act.geo.lon) and _close(mark.geometry.y, act.geo.lat)


def test_placemark_times_are_the_true_start_and_end_in_utc(paris) -> None:
    _, folders = read_back(itinerary_to_kml(paris))
    for day, (_, marks) in zip(paris.days, folders):
        for mark, act in zip([m for m in marks if m.geometry.geom_type == "Point"], _located(day)):
            assert act.start is not None
            assert mark.times.begin.dt == act.start.astimezone(UTC)
            assert mark.times.end.dt == act.end.astimezone(UTC)


def test_descriptions_give_local_times_and_notes(paris) -> None:
    _, folders = read_back(itinerary_to_kml(paris))
    first_visit = next(a for a in paris.days[0].activities if a.kind is ChoiceKind.attraction)
    mark = next(m for m in folders[0][1] if m.name == first_visit.name)
    local = first_visit.start.astimezone(first_visit.start.tzinfo)
    assert mark.description.startswith(f"{local:%H:%M}–{first_visit.end:%H:%M}<br>")
    assert first_visit.notes.splitlines()[0] in mark.description
    arrival = next(m for m in folders[0][1] if m.name == paris.days[0].activities[0].name)
    assert "EDT" in arrival.description and "CEST" in arrival.description  # JFK → CDG: each end's zone


def test_each_day_has_its_route_through_the_activities_in_order(paris) -> None:
    _, folders = read_back(itinerary_to_kml(paris))
    for number, (day, (_, marks)) in enumerate(zip(paris.days, folders), start=1):
        (line,) = [m for m in marks if m.geometry.geom_type == "LineString"]
        assert line.name == f"Day {number} route" and line.style_url.url == "#day-route"
        points = [(a.geo.lon, a.geo.lat) for a in _located(day)]
        expected = [p for k, p in enumerate(points) if k == 0 or p != points[k - 1]]
        assert [(round(x, 6), round(y, 6)) for x, y in line.geometry.coords] == expected


def test_road_trip_days_follow_the_driven_path(route66) -> None:
    _, folders = read_back(itinerary_to_kml(route66))
    assert len(folders) == 7
    for day, (_, marks) in zip(route66.days, folders):
        (line,) = [m for m in marks if m.geometry.geom_type == "LineString"]
        expected = simplified([(g.lat, g.lon) for g in day.path], MAX_PATH_POINTS)
        coords = list(line.geometry.coords)
        assert 10 < len(coords) <= MAX_PATH_POINTS and len(coords) == len(expected)
        assert _close(coords[0][1], day.path[0].lat) and _close(coords[-1][0], day.path[-1].lon)
        assert [m.name for m in marks if m.geometry.geom_type == "Point"] == [a.name for a in _located(day)]


def test_a_long_driven_path_is_simplified_to_500_points(route66) -> None:
    day = route66.days[0]
    wiggle = [Geo(lat=34 + 0.3 * math.sin(k / 40), lon=-118 + k / 1000) for k in range(3000)]
    itin = route66.model_copy(update={"days": [day.model_copy(update={"path": wiggle}), *route66.days[1:]]})
    _, folders = read_back(itinerary_to_kml(itin))
    (line,) = [m for m in folders[0][1] if m.geometry.geom_type == "LineString"]
    coords = list(line.geometry.coords)
    assert MAX_PATH_POINTS // 2 < len(coords) <= MAX_PATH_POINTS
    assert (coords[0][1], coords[-1][1]) == (wiggle[0].lat, wiggle[-1].lat)


def test_attributions_go_in_the_document_description(paris) -> None:
    assert read_back(itinerary_to_kml(paris))[0].description is None
    credited = paris.model_copy(update={"attributions": ["© OpenStreetMap contributors (ODbL)", "A & B"]})
    document, _ = read_back(itinerary_to_kml(credited))
    assert document.description == "© OpenStreetMap contributors (ODbL)<br>A &amp; B"


@pytest.mark.parametrize("which", ["paris", "route66"])
def test_validates_against_the_ogc_kml_22_schema(kml_schema, which, request) -> None:
    doc = etree.fromstring(itinerary_to_kml(request.getfixturevalue(which)).encode("utf-8"))
    assert kml_schema.validate(doc), kml_schema.error_log.last_error
    assert {el.tag.split("}")[0] + "}" for el in doc.iter()} == {KML_NS}


def test_hostile_names_stay_text(kml_schema) -> None:
    days = [list(d) for d in PARIS_DAYS]
    slots = [(d, i) for d, day in enumerate(days) for i in range(len(day))]
    for n, (d, i) in enumerate(slots):
        name = HOSTILE_NAMES[n % len(HOSTILE_NAMES)]
        days[d][i] = days[d][i][:3] + (name,) + days[d][i][4:5] + (name,)
    itin = make_itinerary(date(2027, 6, 15), days)
    text = itinerary_to_kml(itin)
    doc = etree.fromstring(text.encode("utf-8"))
    assert kml_schema.validate(doc), kml_schema.error_log.last_error
    assert not doc.xpath("//*[local-name()='img' or local-name()='evil' or local-name()='script']")
    _, folders = read_back(text)
    names = [m.name for _, marks in folders for m in marks if m.geometry.geom_type == "Point"]
    assert names == [plain_text(a.name) for day in itin.days for a in _located(day)]
    descriptions = [m.description for _, marks in folders for m in marks if m.geometry.geom_type == "Point"]
    assert all("<img" not in d and "<script" not in d for d in descriptions)  # HTML-escaped inside KML's HTML


def test_days_without_a_located_activity_keep_their_folder() -> None:
    days = [list(d) for d in PARIS_DAYS]
    days[2] = [("10:00", "11:00", "transit", "Navigo weekly pass", None, "")]
    itin = make_itinerary(date(2027, 6, 15), days)
    _, folders = read_back(itinerary_to_kml(itin))
    assert len(folders) == 5 and folders[2][0].name == "Day 3 – 2027-06-17" and folders[2][1] == []
    assert all(m.times is None for _, marks in folders for m in marks)  # no true start/end: no TimeSpan


def test_our_own_reader_reads_the_export_back(paris) -> None:
    result = parse_saved_places(itinerary_to_kml(paris).encode("utf-8"), "trip.kml")
    located = [a for d in paris.days for a in _located(d)]
    assert [p.name for p in result.places] == [plain_text(a.name) for a in located]
    assert result.skipped == {"not a point": len(paris.days)}  # the day routes


def test_write_kml_and_export_files(tmp_path, paris) -> None:
    target = tmp_path / "trip.kml"
    target.write_text("old")
    write_kml(paris, target)
    assert target.read_text(encoding="utf-8") == itinerary_to_kml(paris)
    both = tmp_path / "both.kml", tmp_path / "both.gpx"
    export_files(paris, kml=both[0], gpx=both[1])
    assert both[0].read_text(encoding="utf-8") == itinerary_to_kml(paris) and both[1].stat().st_size > 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["both.gpx", "both.kml", "trip.kml"]  # no temp left


def test_write_kml_names_the_target_when_it_cannot_write(tmp_path, paris) -> None:
    with pytest.raises(OSError) as info:
        write_kml(paris, tmp_path / "missing" / "trip.kml")
    assert info.value.filename == str(tmp_path / "missing" / "trip.kml")


def test_a_14_day_trip_exports_a_folder_per_day(paris) -> None:
    days = [d.model_copy(update={"date": paris.days[0].date + timedelta(days=n)})
            for n, d in enumerate((paris.days * 3)[:14])]
    itin = paris.model_copy(update={"days": days})
    _, folders = read_back(itinerary_to_kml(itin))  # its speed: bench/places_bench.py
    assert len(folders) == 14


def test_the_cli_exports_kml(tmp_path) -> None:
    import subprocess
    import sys
    from pathlib import Path
    exe = Path(sys.executable).with_name("tripwright")
    intent = Path(__file__).resolve().parents[2] / "docs" / "examples" / "paris.json"
    out, kml = tmp_path / "paris.json", tmp_path / "paris.kml"
    planned = subprocess.run([str(exe), "plan", "--intent", str(intent), "--today", "2026-11-23", "--out", str(out)],
                             capture_output=True, text=True, timeout=120)
    assert planned.returncode == 0, planned.stderr
    done = subprocess.run([str(exe), "export", str(out), "--kml", str(kml)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    from engine.imports import read_saved_places
    assert len(read_saved_places(kml)) >= 20  # every located stop comes back as a point
