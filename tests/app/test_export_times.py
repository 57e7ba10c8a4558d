"""Issue 32 §3: the same trip's times agree in every export — JSON, iCalendar, GPX, KML, HTML and
PDF — each flight end on its own clock with its zone (the HTML map once read the outbound as
02:35–09:50 and the return as 17:05–23:59, the day's clipped window, where the app said 17:05–19:30 EDT).

The trip is planned and exported by the ``tripwright`` executable (a subprocess, offline); each file
is read back by a real reader: json, icalendar, gpxpy, lxml, html.parser and pypdf. The expected
clock of each end is read from the JSON's true ``start``/``end`` and their zones, never from the
code under test.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from datetime import UTC, date, datetime
from html.parser import HTMLParser
from pathlib import Path
from zoneinfo import ZoneInfo

import gpxpy
import icalendar
import pytest
from lxml import etree
from pypdf import PdfReader

EXE = Path(sys.executable).with_name("tripwright")
KML = "{http://www.opengis.net/kml/2.2}"
TRIPS = {
    # Estimated flights JFK → CDG overnight, CDG → JFK landing after midnight Paris time.
    "paris": ["--prompt", "5 days in Paris from 2027-06-15, flying from JFK, budget 4000 USD"],
    # A drive across zone lines (California, Arizona, New Mexico, … Illinois).
    "route66": ["--prompt", "LA to Chicago via Route 66, 7 days from 2027-05-03"],
}
FORMATS = ("json", "ics", "gpx", "kml", "html", "pdf")


@dataclass(frozen=True)
class Planned:
    """One activity of the trip as the itinerary JSON holds it."""

    day: date
    day_tz: str
    id: str
    name: str
    kind: str
    start: datetime  # aware, on the clock of start_tz
    end: datetime
    located: bool


def run(*args: str, home: Path) -> None:
    env = os.environ | {"TRIPWRIGHT_HOME": str(home), "TRIPWRIGHT_OFFLINE": "1", "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([str(EXE), *args], capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module", params=sorted(TRIPS))
def exported(request, tmp_path_factory) -> tuple[str, dict[str, Path]]:
    where = tmp_path_factory.mktemp(request.param)
    home, planned = where / "home", where / "planned.json"
    run("plan", *TRIPS[request.param], "--today", "2026-12-08", "--out", str(planned), home=home)
    files = {key: where / f"trip.{key}" for key in FORMATS}
    run("export", str(planned), *[arg for key, path in files.items() for arg in (f"--{key}", str(path))], home=home)
    return request.param, files


def activities(files: dict[str, Path]) -> list[Planned]:
    document = json.loads(files["json"].read_text(encoding="utf-8"))
    out = []
    for day in document["days"]:
        zone = day["tz"] or document["intent"]["date_window"]["tz"]
        for act in day["activities"]:
            start, end = datetime.fromisoformat(act["start"]), datetime.fromisoformat(act["end"])
            out.append(Planned(date.fromisoformat(day["date"]), zone, act["id"], act["name"], act["kind"],
                               start.astimezone(ZoneInfo(act["start_tz"])), end.astimezone(ZoneInfo(act["end_tz"])),
                               act["geo"] is not None))
    return out


def clock(moment: datetime) -> str:
    return f"{moment.hour:02d}:{moment.minute:02d}"


def check_label(label: str, act: Planned) -> None:
    """A printed time: both ends on the day's clock as "14:50–16:50"; else each end's clock and
    zone in order ("17:05 CEST – 19:30 EDT"), with its date when it is not the day's."""
    same_day = act.start.date() == act.end.date() == act.day
    if same_day and act.start.tzinfo.key == act.end.tzinfo.key == act.day_tz:
        assert label == f"{clock(act.start)}\u2013{clock(act.end)}", (act.name, label)
        return
    first = label.index(clock(act.start))
    assert label.index(act.start.tzname(), first) < label.rindex(clock(act.end)), (act.name, label)
    assert label.endswith(f"{clock(act.end)} {act.end.tzname()}"), (act.name, label)
    for moment in (act.start, act.end):
        if moment.date() != act.day:
            assert f"{moment.day} {moment:%b}" in label, (act.name, label)


class _DataBlock(HTMLParser):
    """The page's one data block: ``<script type="application/json" id="tw-data">``."""

    def __init__(self) -> None:
        super().__init__()
        self.inside, self.text = False, ""

    def handle_starttag(self, tag, attrs) -> None:
        self.inside = tag == "script" and dict(attrs).get("id") == "tw-data"

    def handle_endtag(self, tag) -> None:
        self.inside = False

    def handle_data(self, data) -> None:
        if self.inside:
            self.text += data


def html_labels(path: Path) -> list[str]:
    parser = _DataBlock()
    parser.feed(path.read_text(encoding="utf-8"))
    return [item["time"] for day in json.loads(parser.text)["days"] for item in day["items"]]


def test_each_export_has_the_true_times_of_the_json(exported) -> None:
    trip, exported = exported
    acts = activities(exported)
    flights = [a for a in acts if a.kind == "flight"]
    assert len(flights) == (2 if trip == "paris" else 0)
    if trip == "route66":  # the drive crosses zone lines: some stops are on another clock than their night's
        assert any(a.start.tzinfo.key != a.day_tz for a in acts)

    # iCalendar: each event starts and ends at the same moments, written in each end's own zone.
    events = icalendar.Calendar.from_ical(exported["ics"].read_bytes()).walk("VEVENT")
    assert events
    for event in events:
        uid = str(event["UID"])
        act = next(a for a in acts if uid.removesuffix("@tripwright").endswith("-" + a.id))
        assert event.decoded("DTSTART") == act.start and event.decoded("DTEND") == act.end, act.name
        assert event["DTSTART"].params["TZID"] == act.start.tzinfo.key, act.name
        assert event["DTEND"].params["TZID"] == act.end.tzinfo.key, act.name

    # GPX: a waypoint per located activity, timed at its start (UTC, as GPX wants).
    located = [a for a in acts if a.located]
    waypoints = gpxpy.parse(exported["gpx"].read_text(encoding="utf-8")).waypoints
    assert [w.time for w in waypoints] == [a.start.astimezone(UTC) for a in located]

    # HTML: the list beside the map, an entry per activity, in order.
    labels = html_labels(exported["html"])
    assert len(labels) == len(acts)
    for label, act in zip(labels, acts):
        check_label(label, act)
    shown = dict(zip((a.id for a in acts), labels))

    # KML: the UTC TimeSpan of the true start and end, and the same local times as the HTML.
    root = etree.parse(str(exported["kml"])).getroot()
    marks = [m for m in root.iter(f"{KML}Placemark") if m.find(f"{KML}Point") is not None]
    assert len(marks) == len(located)
    for mark, act in zip(marks, located):
        begin, end = (mark.findtext(f"{KML}TimeSpan/{KML}{edge}") for edge in ("begin", "end"))
        assert begin == act.start.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"), act.name
        assert end == act.end.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"), act.name
        assert mark.findtext(f"{KML}description").split("<br>")[0] == shown[act.id]

    # PDF: the printed table carries the same text (pypdf reads a wrapped cell with spaces).
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(exported["pdf"]).pages)
    for act in acts:
        assert shown[act.id] in text, (act.name, shown[act.id])

    for flight in flights:  # the bug as the traveller met it: each end on its own clock, with its zone
        label = shown[flight.id]
        assert f"{clock(flight.start)} {flight.start.tzname()}" in label
        assert f"{clock(flight.end)} {flight.end.tzname()}" in label
        assert flight.start.tzinfo.key != flight.end.tzinfo.key
