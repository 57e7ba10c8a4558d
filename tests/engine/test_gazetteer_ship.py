"""The shipped place index (issue 12 §5): a fresh data dir gets it unpacked instead of an
8-second build; it is exactly what the build makes from the installed sources; a route fixture
changed without regenerating it is caught here; the geocode package reads route towns without
importing the road-trip package."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from engine.geocode import GazetteerIndex
from engine.geocode.index_build import (INDEX_FILENAME, SCHEMA_VERSION, default_cities_file, default_routes_dir,
                                        digest_of_cities, digest_of_routes)
from engine.geocode.index_ship import install_shipped, shipped_matches, shipped_meta, write_shipped
from engine.geocode.route_towns import read_route_towns
from engine.roadtrip.routes import load_routes

EXE = Path(sys.executable).with_name("tripwright")


def rows(path: Path) -> tuple[list, list]:
    conn = sqlite3.connect(path)
    try:
        return (conn.execute("SELECT * FROM place ORDER BY id").fetchall(),
                conn.execute("SELECT * FROM name ORDER BY key, place").fetchall())
    finally:
        conn.close()


def test_the_shipped_index_is_current_for_the_installed_sources_and_fixtures() -> None:
    meta = shipped_meta()
    assert meta is not None and meta["schema_version"] == str(SCHEMA_VERSION)
    assert meta["source_digest"] == digest_of_cities(default_cities_file())
    assert meta["route_digest"] == digest_of_routes(default_routes_dir()), \
        "route fixtures changed: run .venv/bin/python -m engine.geocode.index_ship"
    assert shipped_matches(default_cities_file(), default_routes_dir())


def test_a_fresh_data_dir_is_given_the_shipped_index_not_a_build(tmp_path) -> None:
    index = GazetteerIndex.open(tmp_path)
    assert index.build_stats is None and (tmp_path / INDEX_FILENAME).is_file()
    kingman = index.lookup("Kingman, AZ")[0]
    assert (round(kingman.lat, 1), round(kingman.lon, 1)) == (35.2, -114.1)
    assert index.lookup("Seligman, AZ")[0].source == "route_fixture"  # a route town GeoNames lacks
    assert GazetteerIndex.stale_reason(tmp_path / INDEX_FILENAME, cities_file=default_cities_file(),
                                       routes_dir=default_routes_dir()) is None


def test_a_changed_route_fixture_means_a_build_not_the_stale_shipped_copy(tmp_path) -> None:
    routes = tmp_path / "routes"
    routes.mkdir()
    for path in default_routes_dir().glob("*.json"):
        (routes / path.name).write_bytes(path.read_bytes())
    (routes / "pch.json").unlink()
    assert not shipped_matches(default_cities_file(), routes)
    index = GazetteerIndex.open(tmp_path / "home", routes_dir=routes)
    assert index.build_stats is not None


def test_the_shipped_index_is_exactly_what_the_build_makes(tmp_path) -> None:
    write_shipped(tmp_path / "rebuilt", cities_file=default_cities_file(), routes_dir=default_routes_dir())
    install_shipped(tmp_path / "shipped.sqlite3")
    install_shipped(tmp_path / "built.sqlite3", tmp_path / "rebuilt")
    assert rows(tmp_path / "shipped.sqlite3") == rows(tmp_path / "built.sqlite3")


def test_route_towns_read_by_the_gazetteer_agree_with_the_route_fixtures() -> None:
    read = {(slug, t.id): (t.name, t.admin1, t.country, t.lat, t.lon, t.population)
            for slug, t in read_route_towns(default_routes_dir())}
    fixture = {(r.slug, t.id): (t.name, t.admin1, t.country, t.lat, t.lon, t.population)
               for r in load_routes().values() for t in r.towns}
    assert read == fixture


def test_the_geocode_package_imports_nothing_of_the_road_trip_package() -> None:
    code = ("import sys, engine.geocode, engine.geocode.gazetteer, engine.geocode.index_build, "
            "engine.geocode.index_ship; print(sorted(m for m in sys.modules if m.startswith('engine.roadtrip')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stderr


def test_the_first_road_trip_on_an_empty_data_dir_works_through_the_real_cli(tmp_path) -> None:
    home = tmp_path / "fresh-home"
    done = subprocess.run([str(EXE), "plan", "--prompt", "Seattle to Miami, 10 days from 2027-05-03", "--out",
                           str(tmp_path / "it.json")], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "TRIPWRIGHT_HOME": str(home)})
    assert done.returncode == 0, done.stderr
    assert (home / INDEX_FILENAME).is_file() and (tmp_path / "it.json").is_file()
