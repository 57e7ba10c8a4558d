"""Issue 22 §1: the street tiles' URL can be pointed at another server (self-hosted, a test's
local one) with TRIPWRIGHT_TILE_URL; a URL that cannot be used is one line and OSM's is kept."""

from __future__ import annotations

import pytest

from widgets.tile_source import OSM_TILE_URL, tile_source


def test_without_the_variable_the_tiles_are_openstreetmaps():
    assert tile_source({}) == (OSM_TILE_URL, "https://tile.openstreetmap.org", None)
    assert tile_source({"TRIPWRIGHT_TILE_URL": "  "}).url == OSM_TILE_URL


@pytest.mark.parametrize("url, origin", [
    ("http://127.0.0.1:8765/tiles/{z}/{x}/{y}.png", "http://127.0.0.1:8765"),
    ("https://tiles.example.org/osm/{z}/{x}/{y}.png?style=day", "https://tiles.example.org"),
])
def test_a_good_template_is_used_with_its_origin(url, origin):
    assert tile_source({"TRIPWRIGHT_TILE_URL": f" {url} "}) == (url, origin, None)


@pytest.mark.parametrize("url, reason", [
    ("ftp://tiles.example.org/{z}/{x}/{y}.png", "expected an http:// or https:// URL"),
    ("file:///srv/tiles/{z}/{x}/{y}.png", "expected an http:// or https:// URL"),
    ("javascript:alert(1)//{z}/{x}/{y}", "expected an http:// or https:// URL"),
    ("https://tiles.example.org/{z}/{x}.png", "expected {z}, {x} and {y} once each"),
    ("https://tiles.example.org/{z}/{x}/{y}/{y}.png", "expected {z}, {x} and {y} once each"),
    ("https://tiles.example.org/{z}/{x}/{y}.png?key={key}", "expected {z}, {x} and {y} once each"),
    ("https://tiles.example.org/{z}/{x}/{y}.png'; img-src *", "has characters a tile URL cannot contain"),
    ("https://user:pw@tiles.example.org/{z}/{x}/{y}.png", "has characters a tile URL cannot contain"),
    ("https://{z}.example.org/{x}/{y}.png", "belong in the path"),
    ("https://[::1/{z}/{x}/{y}.png", "not a URL"),
])
def test_a_bad_template_is_one_line_and_openstreetmap_is_used(url, reason):
    source = tile_source({"TRIPWRIGHT_TILE_URL": url})
    assert source.url == OSM_TILE_URL and source.origin == "https://tile.openstreetmap.org"
    assert source.warning.startswith("TRIPWRIGHT_TILE_URL: ") and reason in source.warning
    assert source.warning.endswith("using OpenStreetMap's tiles.") and "\n" not in source.warning
