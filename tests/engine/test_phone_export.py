"""Issue 36 §3: the trip on a phone in one offline file, and the same trip as KMZ for offline maps apps.

A Paris trip planned around real-looking bookings (an Air France e-mail and a booked hotel) is
planned and exported with the real CLI: ``tripwright export IT.json --phone FILE.html --kmz
FILE.kmz``. The phone page is read back as a browser would get it: no web address in it at all,
only its own scripts, and its one data block carries every activity of the plan with its true
start and end (ISO 8601 with offsets), the booking codes, the hotel's address and the sights'
published hours. The KMZ is opened with zipfile and fastkml: ``doc.kml``, a folder per day, each
place named as in the plan, each day's route a line. The page in a real browser (Now/Next on a
fixed clock, 360 px, light and dark) is tests/widgets/test_phone_page.py."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from fastkml import kml as fastkml
from lxml import etree

from engine.export import render
from engine.export.formats import BY_KEY
from engine.export.kmz_export import KMZ_ENTRY
from engine.export.phone_export import size_text
from engine.models import ItineraryV1

EXE = Path(sys.executable).with_name("tripwright")
ROOT = Path(__file__).resolve().parents[2]
AF_MAIL = ROOT / "tests" / "data" / "bookings" / "af_jfk_cdg.eml"
FLIGHT_CODE, HOTEL_CODE = "QX7K2M", "HJ-88213"
HOTEL = {"name": "Hôtel Jeanne d'Arc Le Marais", "address": "3 Rue de Jarente, 75004 Paris",
         "geo": {"lat": 48.85604, "lon": 2.36289}, "checkin": "2027-06-15", "checkout": "2027-06-19",
         "confirmation": HOTEL_CODE, "price_usd_cents": 98000, "paid": True, "source": "email"}
KML_NS = "{http://www.opengis.net/kml/2.2}"
# The one web address the page may hold: SVG's namespace, a name the DOM needs, never fetched.
SVG_NS = "http://www.w3.org/2000/svg"


def tw(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "TRIPWRIGHT_DATABASE_URL"} | {
        "TRIPWRIGHT_HOME": str(home), "TRIPWRIGHT_OFFLINE": "1"}
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, env=env, timeout=180)


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> dict:
    """The booked Paris trip planned and exported by the CLI: the itinerary, the page, the KMZ."""
    tmp = tmp_path_factory.mktemp("phone")
    home = tmp / "home"
    intent = tmp / "intent.json"
    intent.write_text(json.dumps(json.loads((ROOT / "docs" / "examples" / "paris.json").read_text())
                                 | {"bookings": {"hotel": HOTEL}}), encoding="utf-8")
    it = tmp / "it.json"
    planned = tw(home, "plan", "--intent", str(intent), "--bookings", str(AF_MAIL), "--today", "2026-11-23",
                 "--out", str(it))
    assert planned.returncode == 0, planned.stderr
    done = tw(home, "export", str(it), "--phone", str(tmp / "trip.html"), "--kmz", str(tmp / "trip.kmz"))
    assert done.returncode == 0, done.stderr
    return {"itinerary": ItineraryV1.model_validate_json(it.read_text(encoding="utf-8")), "stderr": done.stderr,
            "page": (tmp / "trip.html").read_text(encoding="utf-8"), "kmz": (tmp / "trip.kmz").read_bytes()}


def data_block(page: str, element_id: str) -> dict:
    block = page.split(f'<script type="application/json" id="{element_id}">', 1)[1].split("</script>", 1)[0]
    return json.loads(block)


def test_the_phone_page_holds_no_web_address_and_runs_only_its_own_scripts(exported) -> None:
    page = exported["page"]
    assert set(re.findall(r"[a-z][a-z0-9+.-]*://[^\s\"'<>)]*", page, flags=re.I)) == {SVG_NS}
    tags = re.findall(r"<(script|link|img|iframe|object|embed|base)\b[^>]*>", page, flags=re.I)
    assert {t.lower() for t in tags} == {"script"}  # nothing to fetch: no link, img, iframe or base
    assert not re.search(r"<script[^>]*\bsrc=", page) and not re.search(r"url\(\s*['\"]?(?!#|data:)", page)
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page).group(1)
    assert policy.startswith("default-src 'none'; script-src 'sha256-") and "connect-src" not in policy
    assert page.count("<script>") == 2  # Leaflet, then the map renderer and the page's own part
    assert "width=device-width" in page and "prefers-color-scheme: dark" in page
    own = page.rsplit("<script>", 1)[1]  # the map renderer and the page's part: no animation loop, no interval
    assert not re.search(r"requestAnimationFrame|setInterval", own) and own.count("setTimeout") == 1
    assert f"one page of {size_text(page)}" in exported["stderr"]  # the size, said before writing


def test_every_activity_is_on_the_phone_with_its_true_times_codes_address_and_hours(exported) -> None:
    itin, data = exported["itinerary"], data_block(exported["page"], "tw-phone")
    assert data["title"] == "Paris" and len(data["days"]) == len(itin.days) == 5
    for day, shown in zip(itin.days, data["days"]):
        assert shown["date"] == day.date.isoformat() and shown["tz"] == "Europe/Paris"
        assert [i["name"] for i in shown["items"]] == [a.shown_name for a in day.activities]
        assert [(i["start"], i["end"]) for i in shown["items"]] == [
            (a.start.isoformat(), a.end.isoformat()) for a in day.activities]  # instants with their offsets
    items = [i for d in data["days"] for i in d["items"]]
    flights = [i for i in items if i["kind"] == "flight"]
    assert [(f["name"], f["code"]) for f in flights] == [("AF 23 JFK→CDG", FLIGHT_CODE), ("AF 22 CDG→JFK", FLIGHT_CODE)]
    assert flights[0]["start"] == "2027-06-14T18:30:00-04:00" and flights[0]["end"] == "2027-06-15T07:50:00+02:00"
    hotel = [i for i in items if i["kind"] == "lodging"]
    assert {h["code"] for h in hotel} == {HOTEL_CODE} and {h["address"] for h in hotel} == {HOTEL["address"]}
    louvre = next(i for i in items if i["name"] == "Musée du Louvre")
    assert louvre["hours"] and "09:00" in louvre["hours"] and louvre["code"] == ""
    assert louvre["marker"] == louvre["id"] and louvre["mark"].isdigit()  # its numbered pin on the day's map
    markers = {m["id"] for m in data["map"]["markers"]}
    assert {i["marker"] for i in items if i["marker"]} == markers  # every pin is a row; flights have none
    assert all(i["marker"] is None for i in flights)
    water = data_block(exported["page"], "tw-water")["features"]  # the Seine, not Rome's Tiber
    assert {f["properties"]["city"] for f in water} == {"Paris"}
    assert {f["properties"]["kind"] for f in water} == {"land", "river"}


def test_kmz_is_the_plan_for_offline_maps_apps(exported) -> None:
    itin, kmz = exported["itinerary"], exported["kmz"]
    with zipfile.ZipFile(io.BytesIO(kmz)) as archive:
        assert archive.namelist() == [KMZ_ENTRY] and archive.testzip() is None
        text = archive.read(KMZ_ENTRY)
    document = fastkml.KML.from_string(text).features[0]
    folders = list(document.features)
    assert len(folders) == len(itin.days)
    for day, folder in zip(itin.days, folders):
        places = [p for p in folder.features if p.name and not p.name.endswith(" route")]
        assert [p.name for p in places] == [a.shown_name for a in day.activities if a.geo is not None]
        routes = [p for p in folder.features if p.name and p.name.endswith(" route")]
        assert len(routes) == 1 and len(routes[0].geometry.coords) >= 2  # the day's route, a line
    assert FLIGHT_CODE.encode() not in kmz and HOTEL_CODE.encode() not in text  # a map file is shared: masked
    assert etree.fromstring(text).tag == f"{KML_NS}kml"
    assert render("kmz", itin) == kmz  # the same trip, the same bytes (no clock in the archive)


def test_both_new_formats_are_rows_of_the_one_table() -> None:
    phone, kmz = BY_KEY["phone"], BY_KEY["kmz"]
    assert (phone.suffix, phone.label, phone.renderer) == ("html", "For my phone\u2026", "phone_export:itinerary_to_phone")
    assert (kmz.suffix, kmz.renderer) == ("kmz", "kmz_export:itinerary_to_kmz")


def test_a_folder_that_is_not_there_writes_nothing_and_says_so(exported, tmp_path) -> None:
    it = tmp_path / "it.json"
    it.write_text(exported["itinerary"].model_dump_json(), encoding="utf-8")
    done = tw(tmp_path / "home", "export", str(it), "--phone", str(tmp_path / "nowhere" / "trip.html"),
              "--kmz", str(tmp_path / "trip.kmz"))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and "--phone" in done.stderr and "does not exist" in done.stderr
    assert not (tmp_path / "trip.kmz").exists()


def test_the_trips_offline_copy_lends_the_phone_its_street_tiles_within_the_cap(exported, tmp_path) -> None:
    """Tiles come from the offline copy that covers the trip (not another city's, not a file that is
    no archive), every zoom carried whole up to the deepest that fits the cap, and the page says so."""
    from pmtiles.reader import MmapSource, Reader

    from engine.export.phone_tiles import offline_copy_tiles
    from engine.maps.offline_area import tiles_in, trip_bbox
    from tests.widgets.pmtiles_build import write_pmtiles
    from shapely.geometry import LineString, box

    itin = exported["itinerary"]
    folder = tmp_path / "offline_maps"
    folder.mkdir()
    (folder / "a-broken.pmtiles").write_bytes(b"not an archive")
    rome = write_pmtiles(folder / "b-rome.pmtiles", {"earth": [(box(12.3, 41.8, 12.6, 42.0), {})]},
                         (12.3, 41.8, 12.6, 42.0), max_zoom=12)
    paris = write_pmtiles(folder / "c-paris.pmtiles", {
        "earth": [(box(2.2, 48.78, 2.5, 48.94), {})], "roads": [(LineString([(2.22, 48.80), (2.48, 48.92)]),
                                                                  {"kind": "major_road"})]},
        (2.2, 48.78, 2.5, 48.94), max_zoom=14)
    tiles = offline_copy_tiles(itin, folder)
    assert tiles is not None and tiles.source == paris != rome and (tiles.min_zoom, tiles.max_zoom) == (0, 14)
    points = [(a.geo.lat, a.geo.lon) for d in itin.days for a in d.activities if a.geo and a.kind.value != "flight"]
    wanted = {f"{z}/{x}/{y}" for z in range(15) for x, y in tiles_in(trip_bbox(points), z)}
    with paris.open("rb") as handle:
        present = {key for key in wanted if Reader(MmapSource(handle)).get(*map(int, key.split("/")))}
    assert set(tiles.tiles) == present  # every tile of the trip's area the copy has, none outside it

    capped = offline_copy_tiles(itin, folder, cap=tiles.size // 2)
    assert capped is not None and capped.max_zoom < 14 and capped.size <= tiles.size // 2
    assert {int(k.split("/")[0]) for k in capped.tiles} == set(range(capped.max_zoom + 1))  # whole zooms only

    page = render("phone", itin, offline_maps=folder)
    assert data_block(page, "tw-tiles")["max_zoom"] == 14 and "Street map: tiles from this trip's offline copy" in page
    assert set(re.findall(r"[a-z][a-z0-9+.-]*://[^\s\"'<>)]*", page, flags=re.I)) == {SVG_NS}
    assert page.count("<script>") == 3  # Leaflet, protomaps-leaflet, the page's own
    assert offline_copy_tiles(itin, tmp_path / "none") is None
