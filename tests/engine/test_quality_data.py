"""The plan-quality benchmark's stand-in data (issue 31 §6): Cairo, Mexico City, the Loire Valley
and the Great Ocean Road (``tests/data/osm/README.md``) parse, keep to their made-up id ranges, name places in the
expected script, carry every "famous ten" entry their registry row (``tests/data/osm/quality.json``)
lists, and go through the real client path — the client's own Overpass query answered by the
stand-in's interpreter, parsed and built into a city pack as ``tests/eval/build_packs.py`` builds
Lisbon's, or answered for the corridor query the road planner sends."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest

from tests.overpass_standin import OverpassStandIn

DATA = Path(__file__).resolve().parents[1] / "data" / "osm"
REGISTRY = DATA / "quality.json"
# file -> (its made-up id range, exclusive bounds; the script its `name` tags are written in). The
# Great Ocean Road is data only: road trips cover the continental US and Europe, so no registry row.
FILES = {"cairo.json": ((9_200_003_000, 9_200_004_000), "ARABIC"),
         "mexico_city.json": ((9_200_004_000, 9_200_005_000), "LATIN"),
         "great_ocean_road.json": ((9_200_005_000, 9_200_005_100), "LATIN"),
         "loire_valley.json": ((9_200_005_100, 9_200_006_000), "LATIN")}
CITY_ROWS = {"cairo.json": "cairo", "mexico_city.json": "mexico_city"}
# a pack must keep at least this many of each kind (the data holds a few more; deliberate drops aside)
MIN_PACK = {"cairo": {"sight": 28, "food": 12, "bed": 12}, "mexico_city": {"sight": 30, "food": 14, "bed": 10}}


def load(name: str) -> list[dict]:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def registry() -> dict:
    return json.loads(REGISTRY.read_text(encoding="utf-8"))


def row_of(slug: str) -> dict:
    doc = registry()
    return next(r for r in doc["cities"] + doc["corridors"] if r["slug"] == slug)


def scripts(text: str) -> set[str]:
    """The scripts of a name's letters ("ARABIC", "LATIN", …), from their Unicode names."""
    return {unicodedata.name(ch).split()[0] for ch in text if ch.isalpha()}


@pytest.mark.parametrize("name", FILES)
def test_each_file_is_one_osm_element_a_line_with_unique_ids_in_its_own_range(name: str) -> None:
    (low, high), _ = FILES[name]
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    elements = load(name)
    assert lines[0] == "[" and lines[-1] == "]" and len(lines) == len(elements) + 2
    ids = [e["id"] for e in elements]
    assert len(ids) == len(set(ids))
    assert all(low < i < high for i in ids), [i for i in ids if not low < i < high]
    for e in elements:
        assert e["type"] in ("node", "way", "relation") and isinstance(e["tags"], dict)
        where = e if e["type"] == "node" else e["center"]
        assert -90 <= where["lat"] <= 90 and -180 <= where["lon"] <= 180


def test_the_ranges_are_no_other_data_file_s() -> None:
    ours = {i for name in FILES for i in (e["id"] for e in load(name))}
    for other in sorted(DATA.glob("*.json")):
        if other.name in FILES or other.name == REGISTRY.name:
            continue
        theirs = {e["id"] for e in json.loads(other.read_text(encoding="utf-8"))}
        assert not ours & theirs, other.name


@pytest.mark.parametrize("name", FILES)
def test_names_are_in_the_expected_script_and_most_carry_an_english_name(name: str) -> None:
    _, script = FILES[name]
    named = [e["tags"] for e in load(name) if "name" in e["tags"]]
    assert all(scripts(t["name"]) == {script} for t in named), \
        [t["name"] for t in named if scripts(t["name"]) != {script}]
    if script != "LATIN":
        with_en = [t for t in named if "name:en" in t]
        assert len(with_en) >= 0.9 * len(named)
        assert all(scripts(t["name:en"]) == {"LATIN"} for t in with_en)


@pytest.mark.parametrize("slug", ["cairo", "mexico_city", "loire_valley"])
def test_every_famous_entry_is_the_name_of_one_sight_in_the_data(slug: str) -> None:
    row = row_of(slug)
    assert row["data"] in FILES and row["famous_source"] and len(row["famous"]) == len(set(row["famous"]))
    names = [e["tags"].get("name") for e in load(row["data"])]
    assert len(row["famous"]) == 10
    assert [n for n in row["famous"] if names.count(n) != 1] == []


def build_city_pack(row: dict):
    """``tests/eval/build_packs.build_eval_pack`` for a registry row: the gazetteer's city, its box,
    the client's query answered by the stand-in's interpreter, parsed and built."""
    from datetime import datetime, timezone

    from engine.geocode import default_gazetteer
    from engine.geocode.zones import zone_at
    from engine.places.city_spec import resolve_city
    from engine.places.fetch import airports_near, city_box, currency_of
    from engine.places.overpass import city_query, parse_answer
    from engine.places.pack_build import build_pack

    spec = resolve_city(row["city"], default_gazetteer())
    box = city_box(spec)
    standin = OverpassStandIn(load(row["data"]))
    try:
        document = standin.answer(city_query(box))
    finally:
        standin.stop()
    answer = parse_answer(json.dumps(document, ensure_ascii=False).encode())
    pack = build_pack(spec, answer, box=box, tz=zone_at(spec.lat, spec.lon), currency=currency_of(spec.country),
                      airports=airports_near(spec), fetched_at=datetime(2026, 11, 20, 10, 0, tzinfo=timezone.utc),
                      source_url=f"tests/data/osm/{row['data']} via the Overpass stand-in")
    return spec, box, pack


@pytest.mark.parametrize("slug", ["cairo", "mexico_city"])
def test_a_city_pack_builds_and_keeps_every_famous_sight_inside_its_box(slug: str) -> None:
    row = row_of(slug)
    spec, box, pack = build_city_pack(row)
    assert pack.tz == row["tz"] and {a.iata for a in pack.airports} >= set(row["airports"])
    counts = pack.counts()
    assert all(counts[kind] >= n for kind, n in MIN_PACK[slug].items()), counts
    kept = {p.name for p in pack.places}
    by_name = {e["tags"]["name"]: e for e in load(row["data"]) if "name" in e["tags"]}
    inside = [n for n in row["famous"] if box.contains(*_where(by_name[n]))]
    assert [n for n in inside if n not in kept] == []
    # the deliberate cases are dropped: no name, access=private, a mosque or church neither a
    # tourist attraction nor linked to Wikidata
    dropped = [e for e in load(row["data"]) if "name" not in e["tags"] or e["tags"].get("access") == "private"]
    assert dropped and not {e["id"] for e in dropped} & {p.osm_id for p in pack.places}


def _where(element: dict) -> tuple[float, float]:
    where = element if element["type"] == "node" else element["center"]
    return where["lat"], where["lon"]


def test_cairo_keeps_its_arabic_names_beside_the_english_ones_in_the_pack() -> None:
    _, _, pack = build_city_pack(row_of("cairo"))
    citadel = next(p for p in pack.places if p.name == "قلعة صلاح الدين الأيوبي")
    assert citadel.tags.get("name:en") == "Cairo Citadel" or (citadel.names or {}).get("en") == "Cairo Citadel"
    assert len({p.osm_id for p in pack.places}) == len(pack.places)
    koshary = [p for p in pack.places if p.tags.get("cuisine") == "koshary"]
    assert {p.kind for p in koshary} == {"food"} and len(koshary) == 2


def test_the_corridor_query_answers_its_famous_sights_and_beds_with_a_stretch_of_no_bed() -> None:
    from engine.places.overpass import corridor_query, parse_answer
    from engine.geo import BBox

    row = row_of("loire_valley")
    track = row["route_track"]
    lats, lons = [p[0] for p in track], [p[1] for p in track]
    box = BBox.from_swne(min(lats) - 0.25, min(lons) - 0.25, max(lats) + 0.25, max(lons) + 0.25)
    standin = OverpassStandIn(load(row["data"]))
    try:
        document = standin.answer(corridor_query([box]))
    finally:
        standin.stop()
    answer = parse_answer(json.dumps(document, ensure_ascii=False).encode())
    names = [e.tags.get("name") for e in answer.elements]
    assert [n for n in row["famous"] if n not in names] == []
    beds = [e for e in answer.elements if e.tags.get("tourism") in ("hotel", "motel", "hostel", "camp_site")]
    assert len(beds) >= 10
    # Orléans (1.90 E) to Blois (1.33 E): ~55 km along the Loire with no bed in the data
    assert not [e for e in beds if 1.34 < e.point()[1] < 1.89]


def test_a_metropolis_box_reaches_its_famous_sights_and_a_town_s_box_is_as_it_was() -> None:
    """Past a million people the city box grows with the metropolitan area: Cairo's reaches Giza
    (the Great Pyramid and the Grand Egyptian Museum, west of the old 11 km box), while a city under
    a million keeps its box (Lisbon: 6.5 km, Belém and Cristo Rei in, as its data expects)."""
    from engine.geocode import default_gazetteer
    from engine.places.city_spec import MAX_RADIUS_KM, resolve_city
    from engine.places.fetch import city_box

    gazetteer = default_gazetteer()
    cairo = resolve_city("Cairo, Egypt", gazetteer)
    box = city_box(cairo)
    by_name = {e["tags"]["name"]: e for e in load(row_of("cairo")["data"]) if "name" in e["tags"]}
    for name in ("أهرامات الجيزة", "هرم خوفو", "المتحف المصري الكبير"):
        assert box.contains(*_where(by_name[name])), name
    assert 13.0 < cairo.radius_km() < 14.0
    assert round(resolve_city("Lisbon", gazetteer).radius_km(), 2) == 6.55
    assert resolve_city("Beijing", gazetteer).radius_km() <= MAX_RADIUS_KM
