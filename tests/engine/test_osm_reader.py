"""The one OpenStreetMap reader (issue 30 §1): an element's tags → a ``Place``, the same for a city
pack, a corridor chunk and a saved-place look-up, and the same again when read back from a row."""

from __future__ import annotations

import json
from collections import Counter
from datetime import date, datetime, time, timezone

import pytest
from pydantic import ValidationError

from engine.models import Geo
from engine.models.dated_hours import dated_hours
from engine.models.intent import MustSee
from engine.models.place import ASSUMED_HOURS, ASSUMED_SIGHT_WINDOW, Place
from engine.places import corridor, pack_city, ranking
from engine.places.osm_reader import PlaceRow, open_when_untagged, read_element, read_row, reread, row_or_why
from engine.geo import BBox
from engine.places.overpass import Answer, Element
from engine.places.pack import CityPack
from engine.places.pack_build import read_places
from engine.places.saved_lookup import SavedLookupCache, best_match
from engine.roadtrip import osm_stops

MUSEUM = {"type": "way", "id": 4242, "center": {"lat": 38.6978, "lon": -9.2065},
          "tags": {"tourism": "museum", "name": "Museu de Marinha", "name:en": "Navy Museum",
                   "name:ja": "海洋博物館", "name:pt": "Museu de Marinha", "name:left": "not a language",
                   "wikidata": "Q1954960", "wikipedia": "pt:Museu de Marinha", "heritage": "2",
                   "opening_hours": "Tu-Su 10:00-17:00", "fee": "no", "kids": "yes", "museum": "history",
                   "addr:street": "Praça do Império"}}


def element(data: dict) -> Element:
    return Element.model_validate(data)


def test_an_element_becomes_one_place_with_its_names_hours_and_fame() -> None:
    place = read_element(element(MUSEUM))
    assert place is not None
    assert (place.ref, place.osm_type, place.osm_id, place.kind) == ("osm_w4242", "way", 4242, "sight")
    assert (place.key, place.category, place.venue_type, place.indoor) == ("tourism", "museum", "museum", True)
    assert (place.lat, place.lon, place.data_source) == (38.6978, -9.2065, "osm")
    assert place.source_url == "https://www.openstreetmap.org/way/4242"
    assert place.names == {"en": "Navy Museum", "ja": "海洋博物館", "pt": "Museu de Marinha"}
    assert place.hours == "Tu-Su 10:00-17:00" and place.price == 0.0  # as stated: fee=no
    assert place.fame.wikidata == "Q1954960" and place.fame.heritage == "2" and place.fame.translations == 3
    assert not place.fame.attraction
    assert "kids" not in place.tags and place.tags["addr:street"] == "Praça do Império"  # kept tags only
    with pytest.raises(ValidationError):
        place.name = "another"  # immutable


def test_unknown_hours_and_price_are_unknown_not_guessed() -> None:
    bare = {"type": "node", "id": 7, "lat": 38.7, "lon": -9.14, "tags": {"tourism": "gallery", "name": "Galeria"}}
    place = read_element(element(bare))
    assert place is not None and place.hours is None and place.price is None
    assert place.names == {} and place.fame.translations == 0 and place.fame.wikidata is None


def test_what_is_not_a_place_says_why() -> None:
    private = element({"type": "node", "id": 1, "lat": 1.0, "lon": 1.0,
                       "tags": {"tourism": "museum", "name": "Private", "access": "private"}})
    nowhere = element({"type": "way", "id": 2, "tags": {"tourism": "museum", "name": "Nowhere"}})
    assert read_element(private) is None and row_or_why(private) == "not_for_travellers"
    assert read_element(nowhere) is None and row_or_why(nowhere) == "no_position"


def test_a_row_read_back_is_the_place_read_from_the_element() -> None:
    """A pack's row and a chunk's row give back the place the reader made, its fame signals and its
    names in every language with it (the kept tags hold ``name:en`` only)."""
    from_element = read_element(element(MUSEUM))
    places, dropped = read_places([element(MUSEUM)], BBox(38.6, -9.3, 38.8, -9.0))
    assert dropped == Counter()
    back = PlaceRow.of_json(json.loads(json.dumps(places[0].to_json()))).place()  # through the pack's JSON
    assert back.fame == from_element.fame and back.names == {"en": "Navy Museum", "ja": "海洋博物館",
                                                             "pt": "Museu de Marinha"}
    assert back == from_element
    road = read_element(element(MUSEUM), road=True)
    written = corridor.road_row(read_row(element(MUSEUM), road=True)).chunk_row()
    chunk_row = PlaceRow(*json.loads(json.dumps(written)), road=True)  # as a chunk file gives it back
    assert chunk_row.place().fame.translations == 3
    assert chunk_row.place().names == road.names and "ja" in road.names
    assert chunk_row.place().model_copy(update={"rank": 0.0}) == road
    assert chunk_row.rank == ranking.road_rank("museum", road.tags) > 0


def test_rows_written_before_fame_was_kept_still_read() -> None:
    old_pack_row = {"osm_type": "way", "osm_id": 4242, "kind": "sight", "key": "tourism", "category": "museum",
                    "name": "Museu de Marinha", "lat": 38.6978, "lon": -9.2065,
                    "tags": {"name": "Museu de Marinha", "name:en": "Navy Museum", "wikidata": "Q1954960"}, "rank": 5.0}
    old = PlaceRow.of_json(old_pack_row).place()
    assert (old.fame.wikidata, old.fame.translations) == ("Q1954960", 1)  # what the kept tags still say
    assert old.names == {"en": "Navy Museum"}
    old_chunk_row = ["way", 4242, "sight", "tourism", "museum", "Museu de Marinha", 38.6978, -9.2065,
                     '{"tourism":"museum","name:en":"Navy Museum"}', 1.7]
    assert PlaceRow(*old_chunk_row, road=True).place().fame.translations == 1
    assert PlaceRow(*old_chunk_row, road=True).place().names == {"en": "Navy Museum"}
    # a chunk written with translations but before the names were kept
    assert PlaceRow(*old_chunk_row, 3, road=True).place().names == {"en": "Navy Museum"}


def test_one_row_class_is_stored_in_a_pack_a_chunk_and_the_saved_places_cache(tmp_path) -> None:
    """A pack's JSON (the pydantic ``CityPack``) keeps the row as an object of its fields and reads
    the same row back; a damaged row makes the pack unreadable rather than half-read."""
    rows, _ = read_places([element(MUSEUM)], BBox(38.6, -9.3, 38.8, -9.0))
    pack = CityPack(slug="lisbon_pt", name="Lisbon", label="Lisbon, PT", country="PT", tz="Europe/Lisbon",
                    currency="EUR", center_lat=38.72, center_lon=-9.14, bbox=(38.6, -9.3, 38.8, -9.0),
                    places=rows, fetched_at=datetime(2026, 1, 1, tzinfo=timezone.utc))
    doc = json.loads(pack.model_dump_json())
    assert list(doc["places"][0]) == ["osm_type", "osm_id", "kind", "key", "category", "name", "lat", "lon", "tags",
                                      "rank", "fame", "names"]
    assert doc["places"][0]["fame"]["wikidata"] == "Q1954960" and doc["places"][0]["names"]["ja"] == "海洋博物館"
    back = CityPack.model_validate_json(pack.model_dump_json())
    assert type(back.places[0]) is PlaceRow and back.places == rows and back.place("osm_w4242") == rows[0]
    for damage in ({"osm_id": -1}, {"lat": 91.0}, {"kind": "shop"}, {"tags": {"a": 1}}, {"colour": "red"},
                   {"fame": {"translations": -1}}):
        doc["places"][0] = {**rows[0].to_json(), **damage}
        with pytest.raises(ValidationError):
            CityPack.model_validate(doc)


def test_the_saved_places_cache_reads_entries_written_before_the_one_row(tmp_path) -> None:
    """An entry as the pydantic row wrote it (``model_dump(mode="json")``) reads as the row the
    reader makes now; a damaged entry is not known (asked again), never an error."""
    row = read_row(element(MUSEUM))
    assert row is not None
    old_entry = {"osm_type": "way", "osm_id": 4242, "kind": "sight", "key": "tourism", "category": "museum",
                 "name": "Museu de Marinha", "lat": 38.6978, "lon": -9.2065, "tags": row.tags, "rank": 0.0,
                 "fame": {"wikidata": "Q1954960", "wikipedia": "pt:Museu de Marinha", "heritage": "2",
                          "translations": 3, "attraction": False, "size_m2": None},
                 "names": {"en": "Navy Museum", "ja": "海洋博物館", "pt": "Museu de Marinha"}}
    cache_file = tmp_path / "city-packs" / "saved-places.json"
    cache_file.parent.mkdir()
    at = datetime.now(timezone.utc).isoformat()
    cache_file.write_text(json.dumps({"old": {"at": at, "place": old_entry}, "miss": {"at": at, "place": None},
                                      "bad": {"at": at, "place": {**old_entry, "lat": "north"}}}))
    cache = SavedLookupCache(tmp_path)
    known, found = cache.get("old", fresh_only=True)
    assert known and found == row and found.place() == read_element(element(MUSEUM))
    assert cache.get("miss", fresh_only=True) == (True, None)
    assert cache.get("bad", fresh_only=True) == (False, None)
    cache.put_all({"new": row})
    written = json.loads(cache_file.read_text())["new"]["place"]  # written as before, with the fame kept since
    assert written == {**old_entry, "fame": {**old_entry["fame"], "sitelinks": None}}


def test_city_pack_corridor_and_saved_lookup_read_one_element_alike() -> None:
    e = element(MUSEUM)
    pack_row = read_places([e], BBox(38.6, -9.3, 38.8, -9.0))[0][0]
    saved_row = best_match(MustSee(name="Museu de Marinha", geo=Geo(lat=38.6979, lon=-9.2066)), [e])
    chunks = corridor.split_answer(Answer(elements=[e]), corridor.query_boxes([corridor.cell_of(38.6978, -9.2065)]),
                                   fetched_at=datetime(2026, 1, 1, tzinfo=timezone.utc), source_url="")
    road_row = next(p for c in chunks.values() for p in c.places)
    assert saved_row == pack_row
    for row in (pack_row, road_row):
        assert (row.ref, row.kind, row.key, row.category, row.name, row.lat, row.lon) == (
            "osm_w4242", "sight", "tourism", "museum", "Museu de Marinha", 38.6978, -9.2065)
    assert set(pack_row.tags) <= set(road_row.tags)  # a road chunk keeps a few more tags


@pytest.mark.parametrize(("tags", "gateless"), [
    ({"tourism": "viewpoint"}, True),
    ({"leisure": "park"}, True),
    ({"leisure": "park", "fee": "yes"}, False),  # a park that charges admission has a gate
    ({"historic": "monument", "charge": "5 EUR"}, False),
    ({"tourism": "museum"}, False),
    ({"tourism": "zoo"}, False),  # fenced and ticketed: unknown on a drive as in a city (was always open on a drive)
    ({"tourism": "theme_park"}, False),
    ({"historic": "archaeological_site"}, False),
    ({"natural": "waterfall"}, True),
    ({"boundary": "national_park", "protect_class": "2"}, True),
    ({"tourism": "attraction", "historic": "bridge"}, True),
    ({"tourism": "attraction"}, False),
])
def test_one_rule_for_places_with_no_hours(tags: dict, gateless: bool) -> None:
    """A city pack and a corridor chunk read a place with no ``opening_hours`` by one rule (issue
    30 §1): always open when it is outdoors with no gate, else unknown — whichever table read it."""
    key, value = next(iter(tags.items()))
    for road in (False, True):
        reading = reread(tags, "X", key, value, road=road)
        if reading is not None:  # a park is no road-trip sight, a waterfall no city sight
            assert open_when_untagged(reading, tags) is gateless, (tags, road)
    assert any(reread(tags, "X", key, value, road=road) for road in (False, True))


def test_a_place_from_any_source_has_one_shape() -> None:
    fixture = Place(ref="pt_lisbon_jeronimos", kind="sight", name="Jerónimos Monastery", lat=38.6979,
                    lon=-9.2068, hours="Tu-Su 10:00-17:30", price=12.0, data_source="fixture")
    assert fixture.osm_type is None and fixture.fame.translations == 0
    with pytest.raises(ValidationError):
        Place(ref="x", kind="shop", name="X", lat=0, lon=0, data_source="osm")


def test_one_assumption_for_unknown_hours_in_a_city_and_on_a_drive() -> None:
    spans = dated_hours(ASSUMED_HOURS["sight"], "PT").day(date(2027, 5, 3)).spans
    assert [(a.hour * 60 + a.minute, b.hour * 60 + b.minute) for a, b in spans] == [ASSUMED_SIGHT_WINDOW]
    assert spans[0][0] == time(10, 0)
    assert pack_city.ASSUMED_HOURS is ASSUMED_HOURS and osm_stops.CAUTIOUS is ASSUMED_SIGHT_WINDOW


def test_a_shrine_kept_for_its_tourism_tag_is_read_back_as_one() -> None:
    """A place of worship is kept when a ``tourism`` tag says it is visited — a tag the pack does not
    keep. Read back from the pack it is still that place (a Shinto shrine: walked in the open, with
    no gate, so planned always open), not a sight of unknown kind and hours."""
    shrine = element({"type": "way", "id": 9, "center": {"lat": 34.96714, "lon": 135.77267},
                      "tags": {"name": "伏見稲荷大社", "name:en": "Fushimi Inari Taisha", "amenity": "place_of_worship",
                               "religion": "shinto", "tourism": "attraction"}})
    row = row_or_why(shrine)
    assert isinstance(row, PlaceRow) and "tourism" not in row.tags  # the pack keeps no tourism tag
    reading = reread(row.tags, row.name, row.key, row.category)
    assert reading is not None and (reading.key, reading.value, reading.indoor) == ("amenity", "place_of_worship", False)
    assert open_when_untagged(reading, row.tags)
    place = row.place()
    assert place.indoor is False and place.minutes == read_element(shrine).minutes
    parish = element({"type": "node", "id": 10, "lat": 38.71, "lon": -9.14,
                      "tags": {"name": "Igreja", "amenity": "place_of_worship", "religion": "christian"}})
    assert read_element(parish) is None  # an element is still gated: a parish church is no sight


def test_a_district_mapped_as_a_sight_is_walked_in_the_open() -> None:
    """Kyoto's Gion is mapped as ``place=quarter`` + ``tourism=attraction``: a district has no roof
    and no gate, so with no hours it is planned as always open (an evening walk), also once read
    back from the pack, which keeps its ``place`` tag."""
    gion = element({"type": "node", "id": 11, "lat": 35.00368, "lon": 135.77562,
                    "tags": {"name": "祇園", "name:en": "Gion", "place": "quarter", "tourism": "attraction"}})
    row = row_or_why(gion)
    assert isinstance(row, PlaceRow) and row.tags.get("place") == "quarter"
    reading = reread(row.tags, row.name, row.key, row.category)
    assert reading is not None and reading.indoor is False and open_when_untagged(reading, row.tags)
    assert row.place().indoor is False
    hall = element({"type": "node", "id": 12, "lat": 35.0, "lon": 135.77,
                    "tags": {"name": "Hall", "tourism": "attraction"}})
    assert read_element(hall).indoor is None  # an attraction alone says nothing of a roof
