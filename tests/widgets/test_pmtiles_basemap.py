"""Issue 14 §1: a ``.pmtiles`` vector archive (built here with the ``pmtiles`` writer and real
Mapbox vector tiles) is served through the app's URL scheme and drawn by protomaps-leaflet:
its water and land colours appear on the page where the archive puts them."""

from __future__ import annotations


import pytest
from PySide6.QtGui import QColor
from shapely.geometry import LineString, box

from tests.widgets.pmtiles_build import write_pmtiles
from tests.widgets.test_map_view import make_view, run_js, state  # noqa: F401 (fixture)
from widgets.offline_tiles import BasemapFileError, open_archive

# The "light" flavour of protomaps-leaflet 5 (its default style) paints these.
WATER = QColor("#80deea")
EARTH = QColor("#e2dfda")
REGION = (2.20, 48.78, 2.50, 48.94)  # Paris
LAKE = box(2.33, 48.845, 2.37, 48.87)  # a made-up lake in the middle of the city


def paris_archive(path):
    land = box(1.5, 48.3, 3.2, 49.4)
    road = LineString([(2.22, 48.80), (2.48, 48.92)])
    return write_pmtiles(path, {"earth": [(land, {})], "water": [(LAKE, {"kind": "water"})],
                                "roads": [(road, {"kind": "major_road"})]}, REGION, max_zoom=13)


def _colour_at(view, lat: float, lon: float, qtbot) -> QColor:
    point = run_js(qtbot, view, f"JSON.stringify(map.latLngToContainerPoint([{lat}, {lon}]))")
    return view.grab().toImage().pixelColor(round(point["x"]), round(point["y"]))


def _close(a: QColor, b: QColor, tolerance: int = 6) -> bool:
    return max(abs(a.red() - b.red()), abs(a.green() - b.green()), abs(a.blue() - b.blue())) <= tolerance


def test_a_pmtiles_vector_archive_is_served_and_drawn(qtbot, make_view, tmp_path):
    view = make_view()
    run_js(qtbot, view, "JSON.stringify(map.setView([48.86, 2.35], 13, {animate: false}) && 1)")
    lake, land = (48.8575, 2.35), (48.84, 2.30)
    assert not _close(_colour_at(view, *lake, qtbot), WATER)  # the built-in outlines only

    view.set_basemap_file(paris_archive(tmp_path / "paris.pmtiles"))
    qtbot.waitUntil(lambda: (state(qtbot, view)["basemap_tiles"] or 0) >= 4, timeout=10_000)
    qtbot.waitUntil(lambda: _close(_colour_at(view, *lake, qtbot), WATER), timeout=10_000)
    assert _close(_colour_at(view, *land, qtbot), EARTH)
    view.grab().save(str(tmp_path.parent / "pmtiles-drawn.png"))
    assert "Test vector tiles" in state(qtbot, view)["attribution"]
    assert view._tiles.served >= 4  # noqa: SLF001 — the tiles came through the URL scheme

    view.set_basemap_file(None)
    qtbot.waitUntil(lambda: state(qtbot, view)["basemap_tiles"] is None, timeout=5_000)


def test_the_archive_answers_tiles_in_xyz_order_decompressed(tmp_path):
    archive = open_archive(paris_archive(tmp_path / "paris.pmtiles"))
    assert (archive.kind, archive.min_zoom, archive.max_zoom) == ("vector", 0, 13)
    assert archive.mime == b"application/x-protobuf"
    data = archive.tile(13, 4149, 2818)  # central Paris
    assert data is not None and data[:2] != b"\x1f\x8b"  # served decompressed
    import mapbox_vector_tile

    assert {"earth", "water"} <= set(mapbox_vector_tile.decode(data))
    assert archive.tile(13, 0, 0) is None  # outside the extract
    assert archive.tile(14, 8298, 5636) is None  # beyond its zooms
    archive.close()


def test_files_that_are_not_pmtiles_are_refused_by_name(tmp_path):
    junk = tmp_path / "junk.pmtiles"
    junk.write_bytes(b"not an archive" * 20)
    with pytest.raises(BasemapFileError, match="junk.pmtiles is not a PMTiles v3 archive"):
        open_archive(junk)
    good = paris_archive(tmp_path / "good.pmtiles").read_bytes()
    brotli = tmp_path / "brotli.pmtiles"
    brotli.write_bytes(good[:98] + bytes([3]) + good[99:])  # header byte 98: tile compression
    with pytest.raises(BasemapFileError, match="brotli.pmtiles compresses its tiles with BROTLI"):
        open_archive(brotli)


def _raster_pmtiles(path, max_zoom: int = 3):
    from pmtiles.tile import Compression, TileType, zxy_to_tileid

    from tests.widgets.pmtiles_build import write_archive
    from tests.widgets.test_offline_tiles import TILE_COLOUR, _png

    # One image per zoom: the writer stores repeats as runs and takes the zoom range from them.
    tiles = {z: _png(TILE_COLOUR) + bytes([z]) for z in range(max_zoom + 1)}  # bytes after IEND are ignored
    ids = sorted((zxy_to_tileid(z, x, y), z) for z in range(max_zoom + 1) for x in range(1 << z) for y in range(1 << z))
    return write_archive(path, ((tile_id, tiles[z]) for tile_id, z in ids), tile_type=TileType.PNG,
                         compression=Compression.NONE, max_zoom=max_zoom, metadata={"attribution": "Raster archive"})


def test_a_raster_pmtiles_archive_is_drawn_like_an_mbtiles_one(qtbot, make_view, tmp_path):
    from tests.widgets.test_offline_tiles import _share_of_tile_colour

    view = make_view()
    view.set_basemap_file(_raster_pmtiles(tmp_path / "world.pmtiles"))
    archive = open_archive(tmp_path / "world.pmtiles")
    assert (archive.kind, archive.max_zoom) == ("raster", 3)
    archive.close()
    qtbot.waitUntil(lambda: (state(qtbot, view)["basemap_tiles"] or 0) >= 4, timeout=10_000)
    qtbot.waitUntil(lambda: _share_of_tile_colour(view.grab().toImage()) > 0.3, timeout=10_000)
    assert "Raster archive" in state(qtbot, view)["attribution"]
