"""Issue 21 §2: the traveller's own places in — My Maps KML/KMZ, Takeout GeoJSON, GPX waypoints
and CSV (real-shaped samples in tests/data/places/) — and hostile files, each refused with one
``InputError("places", …)`` line, quickly; then the pairing with the Paris fixture's venues."""

from __future__ import annotations

import io
import os
import struct
import threading
import time
import zipfile
import zlib
from pathlib import Path
from types import SimpleNamespace

import pytest
from pydantic import ValidationError

from engine.catalog import default_catalog
from engine.errors import InputError, one_line
from engine.imports import (MAX_PLACES, SavedPlace, detect_format, import_saved_places, match_saved_places,
                            names_match, parse_saved_places, read_saved_places)

DATA = Path(__file__).resolve().parents[1] / "data" / "places"
MY_MAPS = DATA / "paris_my_maps.kml"
TAKEOUT = DATA / "Saved Places.json"
TAKEOUT_2019 = DATA / "Saved Places 2019.json"
GPX = DATA / "paris_waypoints.gpx"
CSV = DATA / "paris_places.csv"
PARIS_NAMES = ["Louvre Museum", "Sainte-Chapelle", "Musée d'Orsay", "Café de Flore", "Shakespeare and Company"]


def refused(source: Path | bytes, name: str = "places.kml") -> str:
    """The one line a hostile or broken file gets: an InputError naming ``places``."""
    with pytest.raises(InputError) as info:
        if isinstance(source, bytes):
            parse_saved_places(source, name)
        else:
            read_saved_places(source)
    text = str(info.value)
    assert info.value.field == "places" and text.startswith("places: ")
    assert "\n" not in text and "\r" not in text and text == one_line(info.value)
    assert info.value.__cause__ is None and info.value.__suppress_context__
    return text


def kml(placemarks: str, *, prolog: str = "") -> bytes:
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n{prolog}'
            f'<kml xmlns="http://www.opengis.net/kml/2.2"><Document>{placemarks}</Document></kml>').encode()


def placemark(name: str, lat: object, lon: object) -> str:
    return f"<Placemark><name>{name}</name><Point><coordinates>{lon},{lat},0</coordinates></Point></Placemark>"


def kmz(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


# -- the samples --------------------------------------------------------------------------------
def test_my_maps_kml_reads_every_layer_and_leaves_the_walk_out() -> None:
    result = import_saved_places(MY_MAPS)
    assert [p.name for p in result.places] == PARIS_NAMES
    assert {p.source for p in result.places} == {"kml"} and result.skipped == {"not a point": 1}
    louvre = result.places[0]
    assert (louvre.lat, louvre.lon) == (48.86061, 2.33764)
    # My Maps' HTML description as text: <br> → new lines, &amp; read, the <img> and media links gone
    assert louvre.notes == "Book the 9:00 slot & enter by the Carrousel.\nClosed on Tuesdays."
    assert result.places[1].notes == "Go on a sunny morning for the windows."
    assert result.places[3].notes == "description: Breakfast on the terrace\nBudget: about €30"  # not repeated
    assert result.summary() == "5 places from KML; 1 left out (not a point: 1)"


def test_kmz_reads_doc_kml_and_nothing_else() -> None:
    data = kmz({"doc.kml": MY_MAPS.read_bytes(), "images/louvre.jpg": b"\xff\xd8\xff" + bytes(64),
                "other.kml": kml(placemark("Elsewhere", 1, 1))})
    result = parse_saved_places(data, "Paris, May 2027.kmz")
    assert [p.name for p in result.places] == PARIS_NAMES and {p.source for p in result.places} == {"kmz"}


def test_kmz_without_doc_kml_reads_its_first_kml() -> None:
    data = kmz({"files/readme.txt": b"hi", "Paris.kml": MY_MAPS.read_bytes()})
    assert [p.name for p in parse_saved_places(data, "trip.kmz").places] == PARIS_NAMES


def test_takeout_saved_places_2023_shape() -> None:
    result = import_saved_places(TAKEOUT)
    assert [p.name for p in result.places] == ["Louvre Museum", "Sainte-Chapelle", "Café de Flore"]
    assert result.skipped == {"no location": 1}  # saved without a location: Takeout's [0, 0]
    louvre = result.places[0]
    assert louvre.source == "geojson" and louvre.source_id == "http://maps.google.com/?cid=9722447925486148283"
    assert louvre.notes == "75001 Paris, France" and (louvre.lat, louvre.lon) == (48.86061, 2.33764)


def test_takeout_saved_places_2019_shape() -> None:
    places = read_saved_places(TAKEOUT_2019)
    assert [p.name for p in places] == ["Louvre Museum", "Shakespeare and Company"]
    assert places[1].notes == "37 Rue de la Bûcherie, 75005 Paris, France"
    assert places[1].source_id == "http://maps.google.com/?cid=13153204942596594449"


def test_plain_geojson_names_and_other_geometries_counted() -> None:
    doc = ('{"type": "FeatureCollection", "features": ['
           '{"type": "Feature", "id": "p1", "geometry": {"type": "Point", "coordinates": [2.34502, 48.85541, 35]},'
           ' "properties": {"name": "Sainte-Chapelle", "description": "<p>Windows</p>"}},'
           '{"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[2.3, 48.8], [2.4, 48.9]]}},'
           '{"type": "Feature", "geometry": {"type": "GeometryCollection", "geometries": []}},'
           '{"type": "Feature", "geometry": null}]}').encode()
    result = parse_saved_places(doc, "places.geojson")
    assert [(p.name, p.notes, p.source_id) for p in result.places] == [("Sainte-Chapelle", "Windows", "p1")]
    assert result.skipped == {"not a point": 3}


def test_gpx_waypoints_with_desc_and_cmt() -> None:
    result = import_saved_places(GPX)
    assert [p.name for p in result.places] == ["Louvre", "Sainte-Chapelle", "Café de Flore"]
    assert result.places[0].notes == "Pyramid entrance\nClosed on Tuesdays"
    assert result.places[2].notes == "Breakfast & people-watching"
    assert {p.source for p in result.places} == {"gpx"} and result.skipped == {"a track or route": 1}


@pytest.mark.parametrize("data", [
    b'<?xml version="1.0" encoding="ISO-8859-1"?>\n<gpx version="1.0"><wpt lat="48.85411" lon="2.33261">'
    b"<name>Caf\xe9 de Flore</name></wpt></gpx>",
    '<?xml version="1.0" encoding="UTF-16"?><gpx xmlns="http://www.topografix.com/GPX/1/1" version="1.1">'
    '<wpt lat="48.85411" lon="2.33261"><name>Café de Flore</name></wpt></gpx>'.encode("utf-16"),
])
def test_gpx_in_the_encoding_it_declares(data: bytes) -> None:
    assert [p.name for p in parse_saved_places(data, "old.gpx").places] == ["Café de Flore"]


def test_csv_with_bom_semicolons_and_decimal_commas() -> None:
    places = read_saved_places(CSV)
    assert [p.name for p in places] == ["Louvre Museum", "Sainte-Chapelle", "Café de Flore", "Shakespeare and Company"]
    assert (places[0].lat, places[0].lon) == (48.86061, 2.33764)
    assert places[1].notes == "Sunny morning; upper chapel" and places[2].notes == ""


@pytest.mark.parametrize("text", [
    "title,latitude,lng,description\nLouvre,48.86061,2.33764,Pyramid\n",
    "Name\tLat\tLon\nLouvre\t48.86061\t2.33764\n",
    '"name","lat","lon","url"\r\n"Louvre","48.86061","2.33764","https://www.louvre.fr/"\r\n\r\n',
])
def test_csv_header_spellings_and_separators(text: str) -> None:
    places = parse_saved_places(text.encode(), "places.csv").places
    assert [(p.name, p.lat, p.lon) for p in places] == [("Louvre", 48.86061, 2.33764)]


def test_kml_placemarks_at_any_depth_of_folders_with_extended_data() -> None:
    nested = ("<Folder><name>A</name><Folder><name>B</name><Document><Folder>"
              "<Placemark id='pm-7'><name>Sainte-Chapelle</name><address>10 Bd du Palais</address>"
              "<ExtendedData><Data name='Tip'><displayName>Best time</displayName><value>Morning</value></Data>"
              "<SchemaData><SimpleData name='Ticket'>Combined with Conciergerie</SimpleData></SchemaData>"
              "</ExtendedData><MultiGeometry><Point><coordinates>2.34502, 48.85541</coordinates></Point>"
              "</MultiGeometry></Placemark></Folder></Document></Folder></Folder>")
    (place,) = parse_saved_places(kml(nested), "nested.kml").places
    assert (place.name, place.lat, place.lon, place.source_id) == ("Sainte-Chapelle", 48.85541, 2.34502, "pm-7")
    assert place.notes == "Address: 10 Bd du Palais\nBest time: Morning\nTicket: Combined with Conciergerie"


def test_format_by_content_before_extension() -> None:
    assert detect_format(MY_MAPS.read_bytes(), "export.xml") == "kml"
    assert detect_format(GPX.read_bytes(), "favourites.kml") == "gpx"
    assert detect_format(kmz({"doc.kml": MY_MAPS.read_bytes()}), "places.zip") == "kmz"
    assert detect_format(TAKEOUT.read_bytes(), "Saved Places.txt") == "geojson"
    assert detect_format(b"name,lat,lon\nA,1,2\n", "download") == "csv"
    assert detect_format(b"\x00\x01binary", "x.bin") is None
    assert [p.name for p in parse_saved_places(MY_MAPS.read_bytes(), "export.xml").places] == PARIS_NAMES


def test_names_and_notes_become_plain_bounded_text() -> None:
    long_name = "Louvre\t\n\x7f\u0085 " + "x" * 500  # tab, new line, DEL, NEL: all legal XML
    notes = "<script>alert(1)</script>" + "note " * 400
    doc = kml(f"<Placemark><name>{long_name}</name><description><![CDATA[{notes}]]></description>"
              "<Point><coordinates>2.33764,48.86061</coordinates></Point></Placemark>")
    (place,) = parse_saved_places(doc, "x.kml").places
    assert len(place.name) == 200 and place.name.startswith("Louvre x") and place.name.endswith("…")
    assert len(place.notes) <= 1000 and "alert" not in place.notes and place.notes.startswith("note note")


def test_unnamed_places_get_a_label() -> None:
    doc = kml("<Placemark><Point><coordinates>2.33764,48.86061</coordinates></Point></Placemark>")
    assert parse_saved_places(doc, "x.kml").places[0].name == "Unnamed place 1"


def test_saved_place_is_a_frozen_checked_value() -> None:
    place = SavedPlace(name="Louvre", lat=48.86061, lon=2.33764, source="csv")
    with pytest.raises(ValidationError):
        place.lat = 1.0  # frozen
    for bad in ({"lat": 91}, {"lon": float("nan")}, {"name": "two\nlines"}, {"name": ""},
                {"source": "xlsx"}, {"notes": "x" * 1001}):
        with pytest.raises(ValidationError):
            SavedPlace.model_validate({"name": "Louvre", "lat": 48.86, "lon": 2.33, "source": "csv"} | bad)


# -- hostile and broken files -------------------------------------------------------------------
XXE = ('<?xml version="1.0"?>\n<!DOCTYPE kml [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n'
       '<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><name>&xxe;</name>'
       '<Point><coordinates>2.3,48.8</coordinates></Point></Placemark></kml>').encode()
LAUGHS = ('<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n'
          + "".join(f' <!ENTITY lol{n} "{("&lol" + str(n - 1) + ";") * 10 if n > 1 else "&lol;" * 10}">\n'
                    for n in range(1, 10))
          + ']>\n<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><name>&lol9;</name>'
            '<Point><coordinates>2.3,48.8</coordinates></Point></Placemark></kml>').encode()


def test_xxe_is_refused() -> None:
    assert "DTD or entities" in refused(XXE)
    gpx = XXE.replace(b"kml", b"gpx").replace(b'<Placemark><name>&xxe;</name><Point><coordinates>2.3,48.8'
                                              b'</coordinates></Point></Placemark>', b'<wpt lat="1" lon="2"><name>&xxe;</name></wpt>')
    assert "DTD or entities" in refused(gpx, "x.gpx")


def test_billion_laughs_is_refused_fast() -> None:
    started = time.perf_counter()
    assert "DTD or entities" in refused(LAUGHS)
    assert time.perf_counter() - started < 10  # bounded (never unpacked or expanded); speed: bench/


def test_a_doctype_alone_is_refused() -> None:
    assert "DTD" in refused(kml(placemark("A", 1, 2), prolog='<!DOCTYPE kml SYSTEM "http://example.invalid/k.dtd">\n'))


def _zip_by_hand(name: bytes, deflated: bytes, crc: int, size: int) -> bytes:
    """One deflated member, headers written with struct (zipfile would have to compress it)."""
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0x5A21, crc, len(deflated), size, len(name), 0)
    central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, 0x5A21, crc, len(deflated), size,
                          len(name), 0, 0, 0, 0, 0, 0)
    body = local + name + deflated
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(central) + len(name), len(body), 0)
    return body + central + name + end


@pytest.fixture(scope="module")
def gigabyte_bomb() -> bytes:
    """A KMZ whose doc.kml is 1 GiB of zeros in ~1 MB: one 1 MiB block deflated with a full flush
    (which resets the compressor, so every block is the same bytes) repeated 1,024 times."""
    block = zlib.compressobj(9, zlib.DEFLATED, -15)
    one = block.compress(bytes(1 << 20)) + block.flush(zlib.Z_FULL_FLUSH)
    deflated = one * 1024 + block.flush()
    return _zip_by_hand(b"doc.kml", deflated, 0x5B64C2B0, 1 << 30)  # 0x5B64C2B0 = zlib.crc32(bytes(2**30))


def test_kmz_zip_bomb_is_refused_without_unpacking(gigabyte_bomb) -> None:
    with zipfile.ZipFile(io.BytesIO(gigabyte_bomb)) as archive:  # a well-formed archive
        assert archive.getinfo("doc.kml").file_size == 1 << 30
    started = time.perf_counter()
    assert "zip bomb" in refused(gigabyte_bomb, "bomb.kmz")
    assert time.perf_counter() - started < 10  # bounded (never unpacked or expanded); speed: bench/


def test_kmz_with_a_lying_header_stops_at_its_declared_size(gigabyte_bomb) -> None:
    deflated = gigabyte_bomb[30 + len("doc.kml"):gigabyte_bomb.rindex(b"PK\x01\x02")]
    liar = _zip_by_hand(b"doc.kml", deflated, 0, 4096)  # says 4 KB; unpacks to 1 GiB
    started = time.perf_counter()
    assert "cannot be unpacked" in refused(liar, "liar.kmz")
    assert time.perf_counter() - started < 10  # bounded (never unpacked or expanded); speed: bench/


def test_kmz_over_the_ratio_is_refused_under_the_size_cap() -> None:
    data = kmz({"doc.kml": b"<kml>" + bytes(15 << 20) + b"</kml>"})
    assert len(data) < 100_000 and "zip bomb" in refused(data, "dense.kmz")


@pytest.mark.parametrize("entry", ["../doc.kml", "files/../../doc.kml", "/etc/doc.kml", "C:\\doc.kml",
                                   "..\\..\\doc.kml"])
def test_kmz_entries_outside_the_archive_are_refused(entry: str) -> None:
    data = kmz({"doc.kml": MY_MAPS.read_bytes(), entry: kml(placemark("Evil", 1, 1))})
    assert "outside the archive" in refused(data, "trip.kmz")


@pytest.mark.parametrize("data, words", [
    (b"PK\x03\x04 not really a zip", "not a readable KMZ"),
    (kmz({"readme.txt": b"no kml"}), "no .kml document"),
])
def test_broken_kmz(data: bytes, words: str) -> None:
    assert words in refused(data, "trip.kmz")


def test_latitude_91_names_the_place_and_its_line() -> None:
    doc = kml(placemark("Louvre", 48.86061, 2.33764) + "\n" + placemark("North of north", 91, 2.3))
    text = refused(doc, "pins.kml")
    assert text == ("places: pins.kml: place 'North of north' (line 3) has latitude 91.0 outside -90…90; "
                    "nothing was imported")


@pytest.mark.parametrize("data, name, words", [
    (b'{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point", '
     b'"coordinates": [2.3, NaN]}, "properties": {"name": "Nowhere"}}]}', "x.json",
     "place 'Nowhere' (feature 1) has latitude nan"),
    (b"name;lat;lon\nLouvre;48,86;2,33\nVoid;nan;2,3\n", "x.csv", "place 'Void' (line 3) has latitude nan"),
    (b'<gpx xmlns="http://www.topografix.com/GPX/1/1" version="1.1"><wpt lat="48.8" lon="200">'
     b"<name>East</name></wpt></gpx>", "x.gpx", "place 'East' (waypoint 1, line 1) has longitude 200.0"),
    (kml(placemark("Blank", "", "")), "x.kml", "place 'Blank' (line 2) has no readable latitude ('')"),
    (b"name,lat,lon\nLouvre,48.86,east\n", "x.csv", "place 'Louvre' (line 2) has no readable longitude"),
    (b'<gpx version="1.1">\n<wpt lat="48.8" lon="2.3"/>\n<wpt lat="north" lon="2.3"/></gpx>', "x.gpx",
     "waypoint 2 (line 3) has no readable latitude ('north')"),
    (b'{"type": "Feature", "geometry": {"type": "Point", "coordinates": [2.3, 1e999]}, "properties": {}}',
     "x.json", "place 'Unnamed place 1' (feature 1) has latitude inf"),
])
def test_bad_coordinates_reject_the_file_naming_the_first_bad_place(data: bytes, name: str, words: str) -> None:
    text = refused(data, name)
    assert words in text and text.endswith("nothing was imported")


def _many(n: int) -> bytes:
    return kml("".join(placemark(f"Place {k}", 48 + k / 10_000, 2 + k / 10_000) for k in range(n)))


def test_5001_points_are_refused_naming_the_count_and_the_cap() -> None:
    assert len(parse_saved_places(_many(MAX_PLACES), "ok.kml").places) == 5000
    text = refused(_many(MAX_PLACES + 1), "many.kml")
    assert text == "places: many.kml: holds 5,001 places; at most 5,000 are imported from one file"


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path) -> None:
    fifo = tmp_path / "places.kml"
    os.mkfifo(fifo)
    outcome: list[str] = []
    reader = threading.Thread(target=lambda: outcome.append(refused(fifo)), daemon=True)
    reader.start()
    reader.join(5)
    if reader.is_alive():  # unblock the reader before failing
        with open(fifo, "wb"):
            pass
        pytest.fail("reading a FIFO blocked")
    assert outcome and "not a regular file" in outcome[0]


def test_devices_folders_and_missing_files_are_refused(tmp_path) -> None:
    if Path("/dev/zero").exists():
        assert "not a regular file" in refused(Path("/dev/zero"))
    assert "is a folder" in refused(tmp_path)
    assert "no such file" in refused(tmp_path / "absent.kml")


def test_a_file_over_20_mb_is_refused_before_reading(tmp_path) -> None:
    big = tmp_path / "big.kml"
    with open(big, "wb") as fh:
        fh.truncate(20 * 1024 * 1024 + 1)  # sparse: nothing to read
    assert "larger than 20 MB" in refused(big)


@pytest.mark.parametrize("data, name, words", [
    (b"", "empty.kml", "is empty"),
    (b"\xef\xbb\xbf \r\n\t", "blank.csv", "is empty"),
    (kml("<Placemark><name>Walk</name><LineString><coordinates>2,48 3,49</coordinates></LineString></Placemark>"),
     "walk.kml", "holds no places with a point (not a point: 1)"),
    (b'{"type": "FeatureCollection", "features": []}', "none.json", "holds no places with a point"),
    (b"name,lat,lon\n", "header.csv", "holds no places with a point"),
    (b"<kml><Placemark>", "cut.kml", "is not well-formed XML (line 1, column 17)"),
    (b"<html><body>hi</body></html>", "page.kml", "is XML but not KML (its root element is <html>)"),
    (b"[" * 100_000 + b"]" * 100_000, "deep.json", "JSON"),
    (b'{"type": "Topology"}', "topo.json", "not a GeoJSON FeatureCollection"),
    (b"\xff\xfe{", "utf16.json", "not UTF-8"),
    (b"name,latitude\nLouvre,48.86\n", "half.csv", "has no lon column"),
    (b"\x00\x01\x02 binary", "blob.bin", "not a KML, KMZ, GeoJSON, GPX or CSV file"),
    (b'<?xml version="1.0" encoding="klingon"?><kml/>', "enc.kml", "declares a text encoding that cannot be read"),
    (b"<gpx><!--" + b" xmlns" * 100 + b" --><wpt lat='1' lon='2'></wpt></gpx>", "ns.gpx", "namespaces"),
])
def test_broken_files_get_one_line(data: bytes, name: str, words: str) -> None:
    assert words in refused(data, name)


def test_elements_nested_past_the_cap_are_refused() -> None:
    deep = kml("<Folder>" * 70 + placemark("Deep", 1, 2) + "</Folder>" * 70)
    assert "nests elements deeper than 64 levels" in refused(deep, "deep.kml")


def test_a_500_place_kml_imports_every_place() -> None:
    found = parse_saved_places(_many(500), "500.kml")  # its speed: bench/places_bench.py
    assert len(found.places) == 500


# -- pairing with the catalog -------------------------------------------------------------------
@pytest.fixture(scope="module")
def paris():
    return default_catalog().city("Paris").raw


def test_my_maps_places_pair_with_paris_venues(paris) -> None:
    pairs = match_saved_places(read_saved_places(MY_MAPS), paris.venues)
    assert [(p.name, ref) for p, ref in pairs] == [
        ("Louvre Museum", "louvre"), ("Sainte-Chapelle", "sainte_chapelle"), ("Musée d'Orsay", "musee_orsay"),
        ("Café de Flore", None), ("Shakespeare and Company", None)]


def test_restaurants_pair_too_when_given(paris) -> None:
    pairs = match_saved_places(read_saved_places(TAKEOUT), [*paris.venues, *paris.restaurants])
    assert [ref for _, ref in pairs] == ["louvre", "sainte_chapelle", "cafe_de_flore"]


def test_the_same_name_2_km_away_is_a_new_place(paris) -> None:
    far = SavedPlace(name="Louvre Museum", lat=48.86061 + 0.018, lon=2.33764, source="csv")  # ~2 km north
    near = far.model_copy(update={"lat": 48.86061 + 0.001})  # ~110 m
    assert match_saved_places([far, near], paris.venues) == [(far, None), (near, "louvre")]
    assert match_saved_places([near], paris.venues, metres=50) == [(near, None)]


def test_a_nearby_place_with_another_name_is_a_new_place(paris) -> None:
    beside = SavedPlace(name="Le Fumoir", lat=48.86061, lon=2.33950, source="kml")  # ~140 m from the Louvre
    assert match_saved_places([beside], paris.venues) == [(beside, None)]


def test_any_venue_shape_with_an_id_a_name_and_a_point() -> None:
    place = SavedPlace(name="Sainte Chapelle", lat=48.8554, lon=2.3450, source="gpx")
    shapes = [SimpleNamespace(id="a", name="Sainte-Chapelle", location=SimpleNamespace(lat=48.85541, lon=2.34502)),
              SimpleNamespace(ref="osm_n1", name="La Sainte-Chapelle", lat=48.85541, lon=2.34502),
              SimpleNamespace(id="b", name="Sainte-Chapelle", geo=None)]  # no point: passed over
    assert match_saved_places([place], shapes[:1]) == [(place, "a")]
    assert match_saved_places([place], shapes[1:]) == [(place, "osm_n1")]


@pytest.mark.parametrize("a, b, same", [
    ("Louvre Museum", "Musée du Louvre", True),
    ("LOUVRE", "musée du louvre", True),
    ("Sacre Coeur Basilica", "Basilica of the Sacré-Cœur", True),
    ("Eiffel Tower", "Tour Eiffel", True),
    ("Palace of Versailles", "Château de Versailles", True),
    ("Pere Lachaise", "Père Lachaise Cemetery", True),
    ("Musee Carnavalet", "Musée Carnavalet – Histoire de Paris", True),
    ("Notre Dame", "Notre-Dame de Paris", True),
    ("Jardin du Luxembourg", "Musée du Luxembourg", False),
    ("Café de Flore", "Les Deux Magots", False),
    ("Musée Rodin", "Musée de l'Orangerie", False),
    ("Museum", "Musée du Louvre", False),
])
def test_names_match(a: str, b: str, same: bool) -> None:
    assert names_match(a, b) is same and names_match(b, a) is same
