"""The standalone HTML map, Qt-free: its JSON document, how text reaches the page, the CSP.

The page itself runs in a real QtWebEngine page in ``tests/widgets/test_html_export.py``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import subprocess
import sys
from datetime import date, time
from html.parser import HTMLParser
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.export import itinerary_to_html, itinerary_to_json
from engine.export.html_document import map_document
from engine.export.html_export import json_text
from engine.models import (Activity, ChoiceKind, CostBreakdown, DayItinerary, Geo, ItineraryV1,
                           TimeWindow)
from engine.models.road_trip import Anchor, Drive, RoadTripIntent
from tests.engine.test_export import CREATED, PARIS_DAYS, make_itinerary

# What broke the folium export: JS template strings, closing the script, markup, Jinja.
HOSTILE = ("`", "Café `${window.__pwned=1}`", "</script><script>window.__pwned=2</script>",
           "<img src=x onerror=window.__pwned=3>", "{{ 7*7 }} {% raw %}<!--", "Joe's \"Diner\" & co")


def hostile_city() -> ItineraryV1:
    days = [list(day) for day in PARIS_DAYS]
    spots = [(d, i) for d, day in enumerate(days) for i, spec in enumerate(day) if spec[2] != "flight"]
    for n, (d, i) in enumerate(spots):
        days[d][i] = days[d][i][:3] + (HOSTILE[n % len(HOSTILE)],) + days[d][i][4:]
    itin = make_itinerary(date(2027, 6, 15), days)
    return itin.model_copy(update={"intent": itin.intent.model_copy(update={"city": "Paris " + HOSTILE[2]})})


class PageParts(HTMLParser):
    """What a browser's tokenizer sees: every tag, and each script's type and text."""

    def __init__(self, page: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.scripts: list[tuple[str | None, str]] = []
        self._script: dict | None = None
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._script = dict(attrs)
            self.scripts.append((self._script.get("type"), ""))

    def handle_data(self, data):
        if self._script is not None:
            kind, text = self.scripts[-1]
            self.scripts[-1] = (kind, text + data)

    def handle_endtag(self, tag):
        if tag == "script":
            self._script = None


def _data(parts: PageParts, element_id: str) -> dict:
    """The JSON in the ``<script id=element_id>`` block, read as the tokenizer split it."""
    scripts = [attrs for tag, attrs in parts.tags if tag == "script"]
    position = next(i for i, attrs in enumerate(scripts) if attrs.get("id") == element_id)
    return json.loads(parts.scripts[position][1])


# -- how text reaches the page -----------------------------------------------------------------------
def test_hostile_names_stay_data_never_code():
    itin = hostile_city()
    parts = PageParts(itinerary_to_html(itin))

    executable = [text for kind, text in parts.scripts if kind is None]
    # Leaflet, the page's CSP-hashed code; the trip, its cost breakdown and the basemap as JSON; folium's map.
    assert [kind for kind, _ in parts.scripts] == [None, None, "application/json", "application/json",
                                                   "application/json", None]
    costs = _data(parts, "tw-costs")  # issue 32 §6: the cost breakdown, as data too
    assert [row["label"] for row in costs["rows"]][-3:] == ["Total", "Budget", "Left"]
    for text in executable:
        assert "__pwned" not in text and "7*7" not in text and "Café" not in text
    assert {tag for tag, _ in parts.tags} <= {"html", "head", "meta", "title", "style", "script", "body",
                                              "aside", "div"}
    document = _data(parts, "tw-data")
    names = [item["name"] for day in document["days"] for item in day["items"]]
    assert names == [a.name for day in itin.days for a in day.activities]
    assert document["title"] == "Paris " + HOSTILE[2]
    assert "{{ 7*7 }} {% raw %}<!--" in names  # no template engine read it


def test_the_json_block_cannot_be_closed_or_broken():
    page = itinerary_to_html(hostile_city())
    block = re.search(r'<script type="application/json" id="tw-data">(.*?)</script>', page, re.S).group(1)

    assert not set(block) & set("<>&\u2028\u2029") and block.isascii()
    assert "</script" not in block.lower() and "<!--" not in block


@settings(max_examples=100, deadline=None)
@given(st.text())
def test_json_text_round_trips_and_is_inert(text):
    encoded = json_text({"name": text})

    assert json.loads(encoded) == {"name": text}
    assert encoded.isascii() and not set(encoded) & set("<>&")


def test_csp_allows_exactly_the_pages_own_scripts():
    page = itinerary_to_html(hostile_city())
    parts = PageParts(page)
    meta = next(attrs for tag, attrs in parts.tags if tag == "meta" and attrs.get("http-equiv") == "Content-Security-Policy")
    policy = dict(rule.strip().split(" ", 1) for rule in meta["content"].split(";"))
    hashes = {f"'sha256-{base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()}'"
              for kind, text in parts.scripts if kind is None}

    assert policy["default-src"] == "'none'"
    assert set(policy["script-src"].split()) == hashes and len(hashes) == 3
    assert policy["img-src"] == "data:" and "unsafe" not in policy["script-src"]


def test_page_needs_no_network_and_credits_no_tiles():
    page = itinerary_to_html(hostile_city())
    parts = PageParts(page)

    assert not [attrs for tag, attrs in parts.tags if "src" in attrs or "href" in attrs]
    assert not any(tag == "link" for tag, _ in parts.tags)
    assert "openstreetmap" not in page.lower() and "cdn." not in page



def _basemap_names(page: str) -> dict[str, set[str]]:
    basemap = _data(PageParts(page), "tw-basemap")
    return {layer: {f["properties"]["iso_a3" if layer == "countries" else "postal"] for f in basemap[layer]["features"]}
            for layer in ("countries", "admin1") if layer in basemap}


def test_the_page_carries_the_basemap_of_the_trips_region_only():
    paris = itinerary_to_html(make_itinerary(date(2027, 6, 15), PARIS_DAYS))
    road = itinerary_to_html(road_trip_itinerary())
    region = _data(PageParts(paris), "tw-basemap")["region"]

    assert {"FRA", "DEU", "GBR", "ITA"} <= _basemap_names(paris)["countries"]
    assert not {"AUS", "USA", "JPN"} & _basemap_names(paris)["countries"]
    assert "admin1" not in _basemap_names(paris)  # US states and Canadian provinces are far away
    assert region == [[28.8049, -17.8811], [68.8869, 22.3618]]  # the stops ± 20°
    assert {"USA", "MEX"} <= _basemap_names(road)["countries"] and "FRA" not in _basemap_names(road)["countries"]
    assert {"CA", "AZ", "NV"} <= _basemap_names(road)["admin1"]
    assert len(paris) < 450_000  # the world's outlines alone are 760 kB


# -- what the page shows -----------------------------------------------------------------------------
def test_city_stops_are_numbered_in_visiting_order_per_day():
    itin = make_itinerary(date(2027, 6, 15), PARIS_DAYS)
    document = map_document(itin)
    day1, day5 = document["days"][0], document["days"][4]

    markers = {m["id"]: m for m in document["markers"]}
    louvre, procope = (markers[i["marker"]] for i in day1["items"] if i["marker"] is not None)
    assert [(i["name"], i["marker"] is not None) for i in day1["items"]] == [
        ("Arrive at CDG", False), ("Musée du Louvre", True), ("Navigo weekly pass", False), ("Le Procope", True)]
    assert [(m["mark"], m["tag"], m["day"]) for m in (louvre, procope)] == [
        ("1", "Musée du Louvre", 0), ("2", "Le Procope", 0)]
    assert [markers[i["marker"]]["mark"] for i in day5["items"] if i["marker"] is not None] == ["1", "2", "3"]
    assert day1["path"] == {"type": "LineString", "coordinates": [[2.33764, 48.86061], [2.33885, 48.85315]]}
    assert not day1["driven"]
    assert len(document["markers"]) == 17  # 20 activities less two flights and the Navigo pass
    assert document["focus"] == [[48.804865, 2.118900], [48.886900, 2.361753]]  # no airports
    assert not document["editable"] and all(m["actions"] == [] and not m["draggable"] for m in markers.values())
    assert document["title"] == "Paris" and document["total"] == "$3,310.00"
    assert day1["label"] == "Day 1 · Tue 15 Jun" and day1["summary"] == ""


def road_trip_itinerary(town: str = "Needles, CA") -> ItineraryV1:
    """Two hand-built Route 66 days: a drive, a stop, the night's town; ``town`` names the first."""
    def act(id_, start, end, kind, name, geo, role):
        return Activity(id=id_, role=role, window=TimeWindow(start=time.fromisoformat(start), end=time.fromisoformat(end)),
                        kind=ChoiceKind(kind), name=name, geo=Geo(lat=geo[0], lon=geo[1]) if geo else None, notes="")

    def day(n, when, frm, to, stop, to_geo, path, miles):
        return DayItinerary(
            date=when, tz="America/Los_Angeles", path=[Geo(lat=a, lon=b) for a, b in path],
            anchor=Anchor(name=to, geo=Geo(lat=to_geo[0], lon=to_geo[1]), distance_from_origin_miles=miles * n),
            drive=Drive(miles=miles, hours=5.33, from_name=frm, to_name=to),
            activities=[act(f"d{n}-drive", "08:30", "10:16", "transit", f"Drive to {stop[0]}", None, "transfer"),
                        act(f"d{n}-stop", "10:16", "11:01", "attraction", stop[0], stop[1], "activity"),
                        act(f"d{n}-overnight", "16:05", "16:35", "lodging", f"Overnight in {to}", to_geo, "checkin")])

    days = [day(0, date(2027, 5, 3), "Los Angeles, CA", town, ("Amboy Crater", (34.5436, -115.7908)),
                (34.848, -114.6141), [(34.05, -118.24), (34.54, -117.29), (34.848, -114.6141)], 293.5),
            day(1, date(2027, 5, 4), town, "Holbrook, AZ", ("Hackberry General Store", (35.3705, -113.7253)),
                (34.9022, -110.1582), [(34.848, -114.6141), (35.37, -113.73), (34.9022, -110.1582)], 316.8)]
    return ItineraryV1(
        itinerary_id="itn_r66", intent=RoadTripIntent(origin="Los Angeles", terminus="Holbrook", days=2,
                                                      start_date=date(2027, 5, 3), route="Route 66"),
        days=days, cost_breakdown=CostBreakdown(
            flights_usd_cents=0, lodging_usd_cents=24_000, attractions_usd_cents=0, transit_usd_cents=9_050,
            daily_spend_usd_cents=20_000, total_usd_cents=53_050, currency_disclaimer=""),
        decisions=[], citations=[], created_at=CREATED, trace_id="trace-r66")


def test_road_trip_days_carry_their_driven_paths_and_towns():
    itin = road_trip_itinerary()
    last = itin.days[1]
    unsure = last.anchor.model_copy(update={"confidence": "low", "note": "no town nearby; interpolated"})
    locked = [a.model_copy(update={"locked": a.role == "activity"}) for a in last.activities]
    itin = itin.model_copy(update={"days": [itin.days[0], last.model_copy(update={"anchor": unsure,
                                                                                 "activities": locked})]})
    document = map_document(itin)
    origin, stop, town = document["markers"][:3]

    assert document["mode"] == "road_trip"
    assert [d["path"]["coordinates"] for d in document["days"]] == [[[g.lon, g.lat] for g in d.path] for d in itin.days]
    assert all(d["driven"] for d in document["days"])
    assert (origin["mark"], origin["tag"], origin["kind"]) == ("S", "Los Angeles, CA", "origin")
    assert (stop["mark"], stop["tag"], stop["label"]) == ("1", "", "Amboy Crater")
    assert (town["mark"], town["tag"], town["kind"]) == ("⌂", "Needles, CA", "anchor")
    assert document["days"][0]["summary"] == "Los Angeles, CA → Needles, CA · 294 mi (472 km) · 5 h 20 min driving"
    assert document["days"][0]["items"][1]["marker"] == stop["id"]
    assert document["focus"] == [[34.05, -118.24], [35.3705, -110.1582]]
    assert [(m["confidence"], m["low_reason"], m["locked"]) for m in document["markers"][3:]] == [
        ("high", "", True), ("low", "no town nearby; interpolated", False)]
    assert town["confidence"] == "high" and not town["locked"]


def test_tripwright_export_html_writes_the_page(tmp_path):
    """Through the real executable: a saved itinerary with hostile venue names becomes a page."""
    itin = hostile_city()
    itin = itin.model_copy(update={"intent": itin.intent.model_copy(update={"city": "Paris"})})
    saved, page = tmp_path / "trip.json", tmp_path / "trip.html"
    saved.write_text(itinerary_to_json(itin), encoding="utf-8")

    done = subprocess.run([str(Path(sys.executable).with_name("tripwright")), "export", str(saved), "--html", str(page)],
                          capture_output=True, text=True, timeout=120)

    assert done.returncode == 0, done.stderr
    document = _data(PageParts(page.read_text(encoding="utf-8")), "tw-data")
    assert [i["name"] for d in document["days"] for i in d["items"]] == [
        a.name for d in itin.days for a in d.activities]
