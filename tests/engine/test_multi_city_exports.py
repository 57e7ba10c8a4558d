"""A multi-city trip saved and exported (issue 33 §4): one trip with versions in the store (its
intent read back as it was), and every engine format read back by a real reader — the JSON by the
published schema, GPX by gpxpy (a track per day and per leg), iCalendar by icalendar (the leg an
event at its stations, on each end's clock), KML by lxml (a line per leg), HTML by html.parser."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import gpxpy
import icalendar
import jsonschema
import pytest
from lxml import etree

from engine.export import render
from engine.models import ItineraryV1, MultiCityIntent
from engine.models.publish import SCHEMA_PATH
from engine.store import Accounts, Store

from .test_cli import TODAY
from .test_cli_trips import tw
from .test_multi_city_run import PARIS_ROME, plan

BOOKED = {"mode": "train", "operator": "SNCF", "number": "TGV 9713", "from_name": "Paris Gare de Lyon",
          "to_name": "Barcelona Sants", "departure": "2027-06-17T10:07:00+02:00",
          "arrival": "2027-06-17T16:40:00+02:00", "confirmation": "QX7K2P", "price_usd_cents": 12900}
TRIP = {**PARIS_ROME, "stays": [{"city": "Paris", "nights": 2}, {"city": "Barcelona", "nights": 2}],
        "legs": [{"booked": BOOKED}]}


@pytest.fixture(scope="module")
def trip() -> ItineraryV1:
    result = plan(TRIP, "barcelona_es")
    assert result.status == "completed", result.failure
    return result.itinerary


def test_json_validates_against_the_published_schema(trip) -> None:
    data = json.loads(render("json", trip))
    jsonschema.validate(data, json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))
    assert data["legs"][0]["source"] == "booked" and [d["stay"] for d in data["days"]] == [0, 0, 1, 1, 1]
    assert ItineraryV1.model_validate(data).legs == trip.legs


def test_gpx_has_a_track_per_day_and_per_leg(trip) -> None:
    gpx = gpxpy.parse(render("gpx", trip))
    names = [t.name for t in gpx.tracks]
    assert sum(1 for n in names if n.startswith("Day ")) == len(trip.days)
    leg = next(t for t in gpx.tracks if t.name.startswith("Leg 1"))
    assert leg.name == "Leg 1 – Paris Gare de Lyon → Barcelona Sants (train)"
    points = leg.segments[0].points
    assert points[0].time == trip.legs[0].departure and points[-1].time == trip.legs[0].arrival
    assert "QX7K2P" not in render("gpx", trip)  # a device file is shared: codes masked


def test_ics_holds_the_leg_as_an_event_at_its_stations(trip) -> None:
    cal = icalendar.Calendar.from_ical(render("ics", trip))
    events = [e for e in cal.walk("VEVENT")]
    leg = next(e for e in events if "Barcelona Sants" in str(e.get("summary")))
    assert str(leg.get("location")) == "Paris Gare de Lyon → Barcelona Sants"
    assert leg.decoded("dtstart") == trip.legs[0].departure and leg.decoded("dtend") == trip.legs[0].arrival
    assert "Barcelona" in str(cal.get("x-wr-calname") or "") or any("Barcelona" in str(e.get("location") or "")
                                                                    for e in events if e is not leg)


def test_kml_draws_each_leg(trip) -> None:
    root = etree.fromstring(render("kml", trip).encode())
    ns = {"k": "http://www.opengis.net/kml/2.2"}
    assert root.findtext("k:Document/k:name", namespaces=ns).startswith("Paris → Barcelona, 2027-06-15")
    legs = root.find("k:Document/k:Folder[k:name='Legs']", ns)
    line = legs.findtext("k:Placemark/k:LineString/k:coordinates", namespaces=ns).split()
    assert len(line) == 2 and legs.findtext("k:Placemark/k:name", namespaces=ns).startswith("Leg 1")


def test_html_maps_the_whole_trip(trip) -> None:
    blocks: dict[str, str] = {}

    class Reader(HTMLParser):
        current: str | None = None

        def handle_starttag(self, tag, attrs) -> None:
            self.current = dict(attrs).get("id") if tag == "script" else None

        def handle_data(self, data: str) -> None:
            if self.current:
                blocks[self.current] = blocks.get(self.current, "") + data
    page = render("html", trip)
    Reader().feed(page)
    document = json.loads(blocks["tw-data"])
    assert document["title"] == "Paris → Barcelona"
    assert len(document["days"]) == len(trip.days) and "QX7K2P" not in page


def test_saved_as_one_trip_with_versions(tmp_path) -> None:
    db, intent = tmp_path / "trips.sqlite3", tmp_path / "intent.json"
    intent.write_text(json.dumps(PARIS_ROME))
    first = tw(db, "plan", "--intent", str(intent), "--save", "--today", TODAY)
    assert first.returncode == 0, first.stderr
    trip_id, mode, *_ = tw(db, "trips", "list").stdout.split()
    assert mode == "multi_city"
    again = tw(db, "plan", "--intent", str(intent), "--save", "--trip", trip_id, "--today", "2026-11-24")
    assert again.returncode == 0 and "version 2" in again.stderr, again.stderr
    shown = tw(db, "trips", "show", trip_id).stdout
    assert shown.startswith("Paris → Rome, 6 days (multi_city), 2 version(s)")
    store = Store.open(f"sqlite:///{db}")
    try:
        with store.org(Accounts(store).first_run()) as repo:
            latest = repo.versions.get(trip_id)
        saved = latest.itinerary if isinstance(latest.itinerary, dict) else json.loads(latest.itinerary)
        assert MultiCityIntent.model_validate(latest.intent) == MultiCityIntent.model_validate(PARIS_ROME)
        assert ItineraryV1.model_validate(saved).legs[0].from_city == "Paris"
    finally:
        store.close()
