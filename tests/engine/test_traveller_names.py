"""Issue 31 §3: names a traveller can read. A Kyoto plan from the Overpass stand-in on 127.0.0.1
(tests/data/osm/kyoto.json: real places mapped in Japanese with ``name:en``) shows each place in
English with the Japanese beside it, in the CLI's output, the JSON, the calendar, the GPX, the KML
and the HTML map; the
choice itself is one function; and a saved place named in English matches the Japanese-named venue."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from datetime import date
from pathlib import Path

import gpxpy
import icalendar
import pytest

from engine.catalog.schema import RawVenue
from engine.export.html_export import itinerary_to_html
from engine.export.kml_export import itinerary_to_kml
from engine.imports.model import SavedPlace
from engine.imports.place_match import match_saved_places
from engine.models import Activity, ChoiceKind, ItineraryV1, TimeWindow
from engine.models.place import traveller_name
from tests.overpass_standin import OverpassStandIn

EXE = Path(sys.executable).with_name("tripwright")
KYOTO_JSON = Path(__file__).resolve().parents[1] / "data" / "osm" / "kyoto.json"
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


# -- the one choice ----------------------------------------------------------------------------------
def test_the_travellers_language_is_shown_with_the_local_name_beside_it():
    assert traveller_name("金閣寺", {"en": "Kinkaku-ji", "fr": "Kinkaku-ji"}) == ("Kinkaku-ji", "金閣寺")
    assert traveller_name("金閣寺", {"en": "Kinkaku-ji", "fr": "Pavillon d'or"}, "fr") == ("Pavillon d'or", "金閣寺")
    assert traveller_name("金閣寺", {"en": "Kinkaku-ji"}, "en-GB") == ("Kinkaku-ji", "金閣寺")
    # no name in the traveller's language: a non-Latin name's transliteration, else the name itself
    assert traveller_name("金閣寺", {"ja-Latn": "Kinkakuji"}) == ("Kinkakuji", "金閣寺")
    assert traveller_name("Sé de Lisboa", {"ja-Latn": "x"}) == ("Sé de Lisboa", None)
    assert traveller_name("K's House Kyoto", {}) == ("K's House Kyoto", None)
    assert traveller_name("Kyoto Tower", {"en": "kyoto tower"}) == ("Kyoto Tower", None)  # the same name
    assert traveller_name("Sé de Lisboa", None) == ("Sé de Lisboa", None)


def test_an_activity_writes_its_local_name_only_when_it_has_one():
    plain = Activity(id="a", window=TimeWindow.of_minutes(600, 660), kind=ChoiceKind.attraction, name="Louvre",
                     geo=None, notes="")
    assert "local_name" not in plain.model_dump() and "local_name" not in json.loads(plain.model_dump_json())
    assert plain.shown_name == "Louvre"
    both = plain.model_copy(update={"name": "Kinkaku-ji", "local_name": "金閣寺"})
    assert both.model_dump()["local_name"] == "金閣寺" and both.shown_name == "Kinkaku-ji (金閣寺)"
    assert Activity.model_validate_json(both.model_dump_json()) == both


# -- saved places: either name -----------------------------------------------------------------------
def test_a_saved_place_named_in_english_is_the_japanese_named_venue():
    venue = RawVenue(id="osm_w9200001002", name="金閣寺", names={"en": "Kinkaku-ji", "de": "Goldener Pavillon"},
                     venue_type="temple", indoor=False, kid_friendly=True, themes=["temples"],
                     geo={"lat": 35.0394, "lon": 135.7292}, opening_hours="Mo-Su 09:00-17:00", price=3.5,
                     duration_minutes=60, source_url="", verified_on=date(2026, 11, 20))
    saved = [SavedPlace(name="Kinkaku-ji", lat=35.0396, lon=135.7293, source="kml"),
             SavedPlace(name="金閣寺", lat=35.0395, lon=135.7291, source="kml"),
             SavedPlace(name="Nijo Castle", lat=35.0395, lon=135.7291, source="kml")]
    assert [v for _, v in match_saved_places(saved, [venue])] == ["osm_w9200001002", "osm_w9200001002", None]


# -- a real plan, end to end -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def kyoto(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("kyoto")
    places = tmp / "saved.kml"
    places.write_text("""<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>Kyoto</name>
<Placemark><name>Kinkaku-ji</name><Point><coordinates>135.7293,35.0396,0</coordinates></Point></Placemark>
</Document></kml>""", encoding="utf-8")
    with OverpassStandIn(elements=json.loads(KYOTO_JSON.read_text(encoding="utf-8"))) as server:
        env = dict(os.environ, TRIPWRIGHT_HOME=str(tmp / "home"), TRIPWRIGHT_OVERPASS_URL=server.interpreter_url,
                   TRIPWRIGHT_OVERPASS_TIMEOUT_S="5")
        env.pop("TRIPWRIGHT_OFFLINE", None)
        prompt = ["--prompt", "4 days in Kyoto from 2027-05-17, flying from LAX, budget 6000 USD, temples",
                  "--places", str(places), "--today", "2026-11-26"]
        shown = subprocess.run([str(EXE), "plan", *prompt], capture_output=True, text=True, env=env, timeout=300)
        assert shown.returncode == 0, shown.stderr[-2000:]  # no --out: the days on stdout
        done = subprocess.run([str(EXE), "plan", *prompt, "--out", str(tmp / "kyoto.json"),
                               "--ics", str(tmp / "kyoto.ics"), "--gpx", str(tmp / "kyoto.gpx")],
                              capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return tmp, shown.stdout, json.loads((tmp / "kyoto.json").read_text(encoding="utf-8"))


def _named(itinerary: dict) -> list[dict]:
    return [a for d in itinerary["days"] for a in d["activities"] if a.get("local_name")]


def test_the_json_carries_the_english_name_and_the_japanese_one(kyoto):
    _, _, itinerary = kyoto
    named = _named(itinerary)
    assert len(named) >= 5
    for a in named:
        assert not JAPANESE.search(a["name"]) and JAPANESE.search(a["local_name"]), a
    visits = [a for d in itinerary["days"] for a in d["activities"] if a["kind"] == "attraction"]
    assert any(a["name"] == "Kinkaku-ji" and a["local_name"] == "金閣寺" for a in visits)
    # the saved "Kinkaku-ji" (KML) is the venue mapped as "金閣寺", not a place of its own
    assert [(m["name"], m["venue_id"]) for m in itinerary["intent"]["prefs"]["must_see"]] == [
        ("Kinkaku-ji", "osm_w9200001002")]


def test_the_cli_output_shows_both_names(kyoto):
    _, stdout, itinerary = kyoto
    assert "Kinkaku-ji (金閣寺)" in stdout
    for a in _named(itinerary):
        assert f"{a['name']} ({a['local_name']})" in stdout


def test_the_calendar_and_the_gpx_show_both_names(kyoto):
    tmp, _, itinerary = kyoto
    calendar = icalendar.Calendar.from_ical((tmp / "kyoto.ics").read_bytes())
    summaries = {str(e.get("summary")) for e in calendar.walk("VEVENT")}
    assert "Kinkaku-ji (金閣寺)" in summaries
    gpx = gpxpy.parse((tmp / "kyoto.gpx").read_text(encoding="utf-8"))
    points = {p.name for p in gpx.waypoints} | {p.name for r in gpx.routes for p in r.points}
    assert "Kinkaku-ji (金閣寺)" in points
    shown = {f"{a['name']} ({a['local_name']})" for a in _named(itinerary)}
    assert shown <= summaries


def test_the_kml_and_the_html_map_show_both_names(kyoto):
    _, _, document = kyoto
    itinerary = ItineraryV1.model_validate(document)
    kml = ET.fromstring(itinerary_to_kml(itinerary).encode("utf-8"))
    marks = {m.findtext("{http://www.opengis.net/kml/2.2}name")
             for m in kml.iter("{http://www.opengis.net/kml/2.2}Placemark")}
    assert "Kinkaku-ji (金閣寺)" in marks
    page = itinerary_to_html(itinerary)
    assert json.dumps("Kinkaku-ji (金閣寺)")[1:-1] in page  # the map's labels and the list beside it (JSON, escaped)
