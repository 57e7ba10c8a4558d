"""Issue 14 §1: an offline ``.mbtiles`` basemap reaches the page through the app's URL scheme
(no HTTP server) and is drawn; files it cannot show are refused with one line."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtGui import QColor, QImage

from tests.widgets.test_map_view import make_view, run_js, state  # noqa: F401 (fixture)
from widgets.offline_tiles import BasemapFileError, open_archive

TILE_COLOUR = QColor(200, 30, 160)  # a colour no other layer of the map uses


def _png(colour: QColor) -> bytes:
    image = QImage(256, 256, QImage.Format.Format_RGB32)
    image.fill(colour)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(data.data())


def write_mbtiles(path: Path, max_zoom: int = 3) -> Path:
    """A whole-world raster archive: every tile of zooms 0..max_zoom one flat colour."""
    tile = _png(TILE_COLOUR)
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE metadata (name TEXT, value TEXT)")
        db.execute("CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)")
        db.executemany("INSERT INTO metadata VALUES (?, ?)",
                       [("name", "test"), ("format", "png"), ("attribution", "Test tiles")])
        db.executemany("INSERT INTO tiles VALUES (?, ?, ?, ?)",
                       [(z, x, y, tile) for z in range(max_zoom + 1) for x in range(1 << z) for y in range(1 << z)])
    return path


def _share_of_tile_colour(image: QImage) -> float:
    step = 20
    points = [(x, y) for x in range(0, image.width(), step) for y in range(0, image.height(), step)]
    hits = sum(1 for x, y in points if image.pixelColor(x, y) == TILE_COLOUR)
    return hits / len(points)


def test_an_mbtiles_archive_is_served_and_drawn(qtbot, make_view, tmp_path):
    view = make_view()
    before = _share_of_tile_colour(view.grab().toImage())
    view.set_basemap_file(write_mbtiles(tmp_path / "world.mbtiles"))
    qtbot.waitUntil(lambda: (state(qtbot, view)["basemap_tiles"] or 0) >= 4, timeout=10_000)
    qtbot.waitUntil(lambda: _share_of_tile_colour(view.grab().toImage()) > 0.3, timeout=10_000)
    assert before == 0.0
    assert "Test tiles" in state(qtbot, view)["attribution"]
    view.set_basemap_file(None)  # back to the built-in outlines
    qtbot.waitUntil(lambda: state(qtbot, view)["basemap_tiles"] is None, timeout=5_000)


def test_files_that_are_not_raster_mbtiles_are_refused_by_name(tmp_path):
    with pytest.raises(BasemapFileError, match="does not exist"):
        open_archive(tmp_path / "none.mbtiles")
    junk = tmp_path / "junk.mbtiles"
    junk.write_bytes(b"not sqlite at all" * 100)
    with pytest.raises(BasemapFileError, match="junk.mbtiles is not an MBTiles archive"):
        open_archive(junk)
    vector = write_mbtiles(tmp_path / "vector.mbtiles", max_zoom=0)
    with sqlite3.connect(vector) as db:
        db.execute("UPDATE metadata SET value='pbf' WHERE name='format'")
    with pytest.raises(BasemapFileError, match="holds pbf tiles"):
        open_archive(vector)
    with pytest.raises(BasemapFileError, match="expected an .mbtiles or .pmtiles file"):
        open_archive(junk.rename(tmp_path / "junk.txt"))



def test_failing_online_tiles_fall_back_to_the_offline_layers_and_say_so(qtbot, make_view):
    """Tiles that cannot be decoded fail like unreachable ones; no network is touched."""
    view = make_view()
    view.tile_url = "data:image/png;base64,bm90IGEgcG5n"  # "not a png"
    with qtbot.waitSignal(view.tiles_failed, timeout=10_000):
        view.set_online(True)
    now = state(qtbot, view)
    assert now["tiles_failed"] is True and now["online"] is False
    assert now["basemap_features"] >= 300  # the offline outlines are what shows


def test_online_tiles_go_through_an_identified_cached_profile(qtbot, make_view):
    """The OSM tile usage policy: an identifying User-Agent and a disk cache honouring the
    servers' cache headers (the profile's, not a network call of the test)."""
    from PySide6.QtWebEngineCore import QWebEngineProfile

    view = make_view()
    profile = view.page().profile()
    assert not profile.isOffTheRecord()
    assert profile.httpCacheType() == QWebEngineProfile.HttpCacheType.DiskHttpCache
    # One profile per process, made in the data dir of whichever test drew a map first.
    assert Path(profile.cachePath()).parts[-2:] == ("web", "cache")
    agent = json.loads(run_js(qtbot, view, "JSON.stringify(JSON.stringify(navigator.userAgent))"))
    assert agent.startswith("Tripwright/") and agent == profile.httpUserAgent()
