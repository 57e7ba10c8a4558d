"""Issue 22 §1 in the window: the street map by default while online (here: from a tile server
on 127.0.0.1 named by TRIPWRIGHT_TILE_URL, with TRIPWRIGHT_OFFLINE cleared for the test only);
offline (TRIPWRIGHT_OFFLINE=1 or a network marked down) the built-in map with the map's one-line
note and the status bar saying so; "built-in map only" in Settings fetches nothing and says nothing."""

from __future__ import annotations

import asyncio

import pytest

from app.trip_session import TripSession, TripVersion
from engine.pipeline import PlanningSession
from engine.settings import Settings, save_settings
from tests.app.conftest import TODAY
from tests.app.test_main_window import PARIS
from tests.widgets.test_map_view import state, until_painted
from tests.widgets.test_street_map import _street_share
from tests.widgets.tile_server import TileServer
from widgets.map_view import OFFLINE_TEXT


@pytest.fixture(scope="module")
def paris_trip():
    return asyncio.run(PlanningSession(today=TODAY).plan(PARIS))


@pytest.fixture
def tiles(monkeypatch):
    server = TileServer().start()
    monkeypatch.setenv("TRIPWRIGHT_TILE_URL", server.url())
    yield server
    server.stop()


def _with_paris(result) -> TripSession:
    trip = TripSession()
    trip.push(TripVersion.of(result, result.itinerary.intent, "Planned"))
    return trip


def test_online_the_window_shows_the_street_map_under_the_trip(qtbot, make_window, tiles, paris_trip,
                                                               monkeypatch, tmp_path):
    monkeypatch.delenv("TRIPWRIGHT_OFFLINE")
    own = PlanningSession(today=TODAY)  # its network is marked down below; the shared one stays up
    window = make_window(trip=_with_paris(paris_trip), session=own, settings_path=tmp_path / "settings.json")
    view = window.map_view
    qtbot.waitUntil(lambda: _street_share(view.grab().toImage()) > 0.3, timeout=15_000)
    now = state(qtbot, view)
    assert now["online"] and now["offline_note"] is None and now["markers"] > 0 and now["offline_copy"]
    assert "\u00a9 OpenStreetMap contributors" in now["attribution"]
    assert window.online_label.text() == "Street map \u00b7 online"
    assert window.commands.online.isChecked()
    until_painted(qtbot, view, str(tmp_path / "window-street-map.png"))
    assert tiles.seen and all(h["User-Agent"].startswith("Tripwright/") for _, h in tiles.seen)
    # A network marked down (a plan could not connect): the built-in map, said in one line.
    window.planning.toolbox.network.mark_down()
    window.street_map.refresh()
    qtbot.waitUntil(lambda: state(qtbot, view)["offline_note"] == OFFLINE_TEXT, timeout=5_000)
    assert window.online_label.text() == "Offline \u00b7 built-in map" and not state(qtbot, view)["offline_copy"]


def test_offline_the_window_shows_the_built_in_map_with_one_line_until_the_network_is_back(
        qtbot, make_window, tiles, paris_trip, monkeypatch, tmp_path):
    window = make_window(trip=_with_paris(paris_trip), settings_path=tmp_path / "settings.json")  # OFFLINE=1
    view = window.map_view
    qtbot.waitUntil(lambda: state(qtbot, view)["offline_note"] == OFFLINE_TEXT, timeout=5_000)
    assert window.online_label.text() == "Offline \u00b7 built-in map"
    assert state(qtbot, view)["online"] is False and tiles.seen == []
    until_painted(qtbot, view, str(tmp_path / "window-offline-note.png"))
    monkeypatch.delenv("TRIPWRIGHT_OFFLINE")
    window.street_map.refresh()  # what its timer does every 30 s while the street map waits
    qtbot.waitUntil(lambda: _street_share(view.grab().toImage()) > 0.3, timeout=15_000)
    assert state(qtbot, view)["offline_note"] is None
    assert window.online_label.text() == "Street map \u00b7 online"


def test_tiles_that_fail_say_so_on_the_map_and_in_the_status_bar(qtbot, make_window, tiles, paris_trip,
                                                                 monkeypatch, tmp_path):
    monkeypatch.delenv("TRIPWRIGHT_OFFLINE")
    tiles.down = True
    window = make_window(trip=_with_paris(paris_trip), settings_path=tmp_path / "settings.json")
    qtbot.waitUntil(lambda: state(qtbot, window.map_view)["offline_note"] == OFFLINE_TEXT, timeout=15_000)
    assert window.online_label.text() == "Offline \u00b7 built-in map"
    assert window.message_bar.text() == ""  # the map's one line is the only one


def test_the_built_in_map_chosen_in_settings_fetches_nothing_and_says_nothing(qtbot, make_window, tiles,
                                                                               paris_trip, monkeypatch, tmp_path):
    monkeypatch.delenv("TRIPWRIGHT_OFFLINE")
    save_settings(Settings(street_map=False), tmp_path / "settings.json")
    window = make_window(trip=_with_paris(paris_trip), settings_path=tmp_path / "settings.json")
    qtbot.wait(500)
    assert not window.commands.online.isChecked() and window.online_label.text() == "Built-in map"
    now = state(qtbot, window.map_view)
    assert now["online"] is False and now["offline_note"] is None and now["markers"] > 0
    assert tiles.seen == []
    window.apply_settings(Settings(street_map=True))  # switched on in Settings: the street map
    qtbot.waitUntil(lambda: _street_share(window.map_view.grab().toImage()) > 0.3, timeout=15_000)
    assert window.online_label.text() == "Street map \u00b7 online"


def test_a_bad_tile_url_is_one_line_in_the_window(qtbot, make_window, monkeypatch, tmp_path):
    monkeypatch.setenv("TRIPWRIGHT_TILE_URL", "tiles.example.org/{z}/{x}/{y}.png")
    window = make_window(settings_path=tmp_path / "settings.json")
    assert window.message_bar.text() == ("TRIPWRIGHT_TILE_URL: expected an http:// or https:// URL; "
                                         "using OpenStreetMap's tiles.")


def test_the_printed_map_waits_for_the_street_tiles_of_its_view(qtbot, make_window, gui_loop, paris_trip,
                                                                monkeypatch, tmp_path):
    """The PDF's map: print mode fits the trip, which asks for new tiles; a slow server's tiles are
    on the snapshot, not the built-in map half covered."""
    from app.pdf_render import print_map_image

    server = TileServer(delay_s=0.8).start()
    try:
        monkeypatch.setenv("TRIPWRIGHT_TILE_URL", server.url("fresh"))
        monkeypatch.delenv("TRIPWRIGHT_OFFLINE")
        window = make_window(trip=_with_paris(paris_trip), settings_path=tmp_path / "settings.json")
        qtbot.waitUntil(lambda: state(qtbot, window.map_view)["tiles_loaded"] > 0, timeout=15_000)
        task = asyncio.ensure_future(print_map_image(window.map_view), loop=gui_loop)
        qtbot.waitUntil(task.done, timeout=30_000)
        image = task.result()
        assert image.save(str(tmp_path / "printed-street-map.png"))
        assert _street_share(image) > 0.7  # whole tiles, faded in (none without the wait)
    finally:
        server.stop()


def test_tripwright_screenshot_waits_for_the_street_map(tmp_path):
    """``tripwright screenshot`` online: the tiles of a slow server are under the trip in the PNG."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    from PySide6.QtGui import QImage

    server = TileServer(delay_s=0.6).start()
    out = tmp_path / "city.png"
    env = {k: v for k, v in os.environ.items() if k != "TRIPWRIGHT_OFFLINE"}
    env["TRIPWRIGHT_TILE_URL"] = server.url("fresh")
    try:
        result = subprocess.run([sys.executable, "-c", "import sys; from app.entry import main; "
                                 f"sys.exit(main(['screenshot', '--out', {str(out)!r}, '--trip', 'city', "
                                 "'--size', '1200x800']))"],
                                cwd=Path(__file__).resolve().parents[2], env=env, capture_output=True, text=True,
                                timeout=180)
    finally:
        server.stop()
    assert result.returncode == 0, result.stderr[-2000:]
    assert server.seen and all(h["User-Agent"].startswith("Tripwright/") for _, h in server.seen)
    assert _street_share(QImage(str(out))) > 0.15  # the map's share of the window
