"""Issue 22 §1: the online street map, drawn from a tile server on 127.0.0.1 (TRIPWRIGHT_TILE_URL):
tiles under the trip with OpenStreetMap's attribution, fetched with the app's User-Agent and kept
in the profile's disk cache as the server's cache headers say; a one-line note while they fail,
gone when they load again; the "Make this trip available offline" button. No test reaches the
internet: the page may load images from its one tile origin only."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QImage
from PySide6.QtTest import QTest

from tests.widgets.test_map_layers import city_trip
from tests.widgets.test_map_view import make_view, run_js, state, until_painted  # noqa: F401 (fixture)
from tests.widgets.tile_server import ROAD, STREET, TileServer
from widgets.map_view import OFFLINE_TEXT

OSM_CREDIT = "\u00a9 OpenStreetMap contributors"


@pytest.fixture(scope="module")
def city():
    return city_trip()


@pytest.fixture
def tiles():
    server = TileServer().start()
    yield server
    server.stop()


def _street_share(image: QImage) -> float:
    points = [(x, y) for x in range(0, image.width(), 17) for y in range(0, image.height(), 17)]
    return sum(1 for x, y in points if image.pixelColor(x, y) in (STREET, ROAD)) / len(points)


def _street_view(qtbot, make_view, monkeypatch, url: str, itinerary):
    monkeypatch.setenv("TRIPWRIGHT_TILE_URL", url)
    view = make_view(itinerary)
    view.set_online(True)
    qtbot.waitUntil(lambda: _street_share(view.grab().toImage()) > 0.3, timeout=15_000)
    return view


def test_street_tiles_are_drawn_under_the_trip_with_credit_and_the_apps_user_agent(
        qtbot, make_view, monkeypatch, tiles, city, tmp_path):
    view = _street_view(qtbot, make_view, monkeypatch, tiles.url("cached"), city)
    now = state(qtbot, view)
    assert now["online"] is True and now["offline_note"] is None and now["markers"] > 0
    assert OSM_CREDIT in now["attribution"] and "Natural Earth" not in now["attribution"]
    assert now["tile_origin"] == tiles.url().split("/cached/")[0]
    assert 16 >= now["zoom"] >= 11  # Paris fitted: only the tiles of that view are asked for
    image = until_painted(qtbot, view, str(tmp_path / "street-map.png"))
    assert _street_share(image) > 0.3
    seen = tiles.seen
    assert seen and all(path.startswith("/cached/") for path, _ in seen)
    assert all(f"/{round(now['zoom'])}/" in path or path.count("/") == 4 for path, _ in seen)
    assert all(headers["User-Agent"].startswith("Tripwright/") for _, headers in seen)
    assert all("Referer" not in headers for _, headers in seen)  # a desktop page has none to send


def test_tiles_come_from_the_disk_cache_as_long_as_their_headers_allow(qtbot, make_view, monkeypatch, tiles, city):
    """max-age=3600 tiles are not asked for again by the next map of the same view; no-store ones are."""
    for cache, again in (("cached", False), ("fresh", True)):
        first = _street_view(qtbot, make_view, monkeypatch, tiles.url(cache), city)
        asked = len(tiles.paths(f"/{cache}/"))
        assert asked > 0
        run_js(qtbot, first, "window.beforeReload = true; 'null'")
        with qtbot.waitSignal(first.ready, timeout=15_000):
            first.reload()  # the same view drawn again: the page reloads and asks for its tiles
        assert run_js(qtbot, first, "JSON.stringify(window.beforeReload === undefined)")  # a new page
        qtbot.waitUntil(lambda v=first: state(qtbot, v)["tiles_loaded"] >= asked, timeout=15_000)
        assert (len(tiles.paths(f"/{cache}/")) > asked) is again, cache
    cache_dir = Path(first.page().profile().cachePath())
    assert any(p.is_file() and p.stat().st_size > 0 for p in cache_dir.rglob("*"))  # Chromium's disk cache


def test_failing_tiles_show_a_one_line_note_until_they_load_again(qtbot, make_view, monkeypatch, tiles, city,
                                                                  tmp_path):
    monkeypatch.setenv("TRIPWRIGHT_TILE_URL", tiles.url("fresh"))
    tiles.down = True
    view = make_view(city)
    view.tile_retry_ms = 500
    with qtbot.waitSignal(view.tiles_failed, timeout=15_000):
        view.set_online(True)
    now = state(qtbot, view)
    assert now["offline_note"] == OFFLINE_TEXT == "Offline \u2014 showing the built-in map"
    assert now["online"] is False and now["offline_copy"] is False
    assert "Natural Earth" in now["attribution"] and OSM_CREDIT not in now["attribution"]
    until_painted(qtbot, view, str(tmp_path / "offline-note.png"))
    tiles.down = False
    with qtbot.waitSignal(view.tiles_restored, timeout=15_000):
        pass
    qtbot.waitUntil(lambda: _street_share(view.grab().toImage()) > 0.3, timeout=15_000)
    now = state(qtbot, view)
    assert now["offline_note"] is None and now["online"] is True and OSM_CREDIT in now["attribution"]


def test_a_network_lost_after_tiles_loaded_is_noticed_too(qtbot, make_view, monkeypatch, tiles, city):
    view = _street_view(qtbot, make_view, monkeypatch, tiles.url("fresh"), city)
    tiles.down = True
    with qtbot.waitSignal(view.tiles_failed, timeout=15_000):
        run_js(qtbot, view, "map.panBy([3000, 0], {animate: false}); 'null'")  # new tiles: none load
    assert state(qtbot, view)["offline_note"] == OFFLINE_TEXT


def test_the_street_map_wanted_with_no_network_is_the_built_in_map_with_the_note(qtbot, make_view, tiles, city,
                                                                                  monkeypatch):
    monkeypatch.setenv("TRIPWRIGHT_TILE_URL", tiles.url())
    view = make_view(city)
    view.set_street_map(True, reachable=False)
    qtbot.waitUntil(lambda: state(qtbot, view)["offline_note"] == OFFLINE_TEXT, timeout=5_000)
    assert state(qtbot, view)["online"] is False
    view.set_street_map(False, reachable=False)  # the built-in map chosen in Settings: nothing to say
    qtbot.waitUntil(lambda: state(qtbot, view)["offline_note"] is None, timeout=5_000)
    qtbot.wait(300)
    assert tiles.seen == []


def test_the_page_loads_tiles_from_its_one_origin_only(qtbot, make_view, monkeypatch, tiles, city):
    monkeypatch.setenv("TRIPWRIGHT_TILE_URL", "ftp://elsewhere.example/{z}/{x}/{y}.png")
    view = make_view(city)
    assert view.tile_warning.startswith("TRIPWRIGHT_TILE_URL: expected an http:// or https:// URL")
    assert view.tile_url == "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
    view.tile_url = tiles.url()  # not the origin the page was built for
    view.set_online(True)
    qtbot.wait(500)
    assert state(qtbot, view)["online"] is False and tiles.seen == []


def _offline_copy_button(qtbot, view) -> QPoint:
    box = run_js(qtbot, view, """JSON.stringify((() => {
        const r = document.querySelector('.tw-offline-copy').getBoundingClientRect();
        return {x: r.left + r.width / 2, y: r.top + r.height / 2};
    })())""")
    return QPoint(round(box["x"]), round(box["y"]))


def test_make_this_trip_available_offline_is_a_button_whose_click_stays_off_the_map(
        qtbot, make_view, monkeypatch, tiles, city, tmp_path):
    view = _street_view(qtbot, make_view, monkeypatch, tiles.url(), city)
    assert state(qtbot, view)["offline_copy"] is True
    until_painted(qtbot, view, str(tmp_path / "offline-copy-button.png"))
    clicks = []
    view.map_clicked.connect(lambda *a: clicks.append(a))
    point, target = _offline_copy_button(qtbot, view), view.focusProxy()
    with qtbot.waitSignal(view.offline_copy_requested, timeout=5_000):
        QTest.mouseMove(target, point)
        QTest.mouseClick(target, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)
    qtbot.wait(400)  # a click the map saw would have reached Python by now
    assert clicks == []
    view.show_itinerary(None)  # no trip: no button, and a call from the page is ignored
    qtbot.waitUntil(lambda: state(qtbot, view)["offline_copy"] is False, timeout=5_000)
    asked = []
    view.offline_copy_requested.connect(lambda: asked.append(1))
    run_js(qtbot, view, "tripwright.bridge().offline_copy(); 'null'")
    qtbot.wait(300)
    assert asked == []
