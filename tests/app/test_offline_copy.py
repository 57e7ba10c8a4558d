"""Trip ▸ Make this trip available offline… end to end (issue 22 §1): a planned Paris trip, the
PMTiles archive on a local range server, the estimate question answered Download, the progress
dialog, then the real map page drawing the copied archive once the app is offline."""

from __future__ import annotations

from pmtiles.reader import MemorySource, all_tiles
from PySide6.QtWidgets import QPushButton

from app.basemap_choice import trip_offline_file
from app.offline_copy import trip_points
from engine.maps.offline_area import tiles_in, trip_bbox
from tests.app.conftest import wait_task
from tests.app.test_main_window import PARIS, plan
from tests.engine.range_server import RangeServer
from tests.widgets.test_map_view import state
from tests.widgets.pmtiles_build import write_padded_pmtiles
from tests.widgets.test_pmtiles_basemap import paris_archive

BLANK_PNG = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAA"
             "SUVORK5CYII=")


def test_the_trip_menu_downloads_the_trip_area_and_the_map_draws_it(qtbot, make_window, tmp_path, monkeypatch):
    monkeypatch.setenv("TRIPWRIGHT_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("TRIPWRIGHT_BASEMAP", raising=False)
    monkeypatch.delenv("TRIPWRIGHT_PMTILES_URL", raising=False)
    window = make_window(use_store=False)
    copy = window.offline_copy
    assert not copy.action.isEnabled()  # no trip yet
    version = plan(qtbot, window, PARIS)
    assert not copy.action.isEnabled()  # a trip, but offline
    menus = {a.text(): a.menu() for a in window.menuBar().actions()}
    assert menus["&Trip"].actions()[0] is copy.action

    monkeypatch.delenv("TRIPWRIGHT_OFFLINE")
    window.map_view.tile_url = BLANK_PNG  # "online" without reaching the internet
    copy.refresh()  # the network can be used now (the Trip menu refreshes it as it opens)
    assert copy.action.isEnabled()
    copy.action.trigger()  # no source set: says where to set it
    assert "offline_map_url" in window.message_bar.text() and "TRIPWRIGHT_PMTILES_URL" in window.message_bar.text()

    server = RangeServer(paris_archive(tmp_path / "paris.pmtiles"))
    try:
        monkeypatch.setenv("TRIPWRIGHT_PMTILES_URL", server.url)
        window.map_view.offline_copy_requested.emit()  # the map's button starts the same flow
        qtbot.waitUntil(lambda: copy.confirm_box is not None, timeout=20_000)
        question = copy.confirm_box.text() + " " + copy.confirm_box.informativeText()
        assert "Download about" in question and "tiles, zoom 0\u201313" in question
        assert not (tmp_path / "home" / "offline_maps" / "unsaved-paris.pmtiles").exists()
        copy.download_button.click()
        wait_task(qtbot, copy.task, timeout=30_000)
    finally:
        server.stop()
    dest = trip_offline_file(window.trip)
    assert dest == tmp_path / "home" / "offline_maps" / "unsaved-paris.pmtiles" and dest.is_file()
    assert "This trip is available offline" in window.message_bar.text()
    assert all(ua.startswith("Tripwright/") for ua in server.user_agents)
    bbox = trip_bbox(trip_points(version))
    held = {zxy for zxy, _data in all_tiles(MemorySource(dest.read_bytes()))}
    assert held and all((x, y) in set(tiles_in(bbox, z)) for z, x, y in held)
    assert copy.remove_action.isEnabled()

    window.commands.online.setChecked(False)  # the traveller is offline now: the copy is the map
    window.map_view.page().runJavaScript("map.setView([48.858, 2.35], 13, {animate: false})")
    qtbot.waitUntil(lambda: (state(qtbot, window.map_view)["basemap_tiles"] or 0) >= 4, timeout=15_000)
    assert "Test vector tiles" in state(qtbot, window.map_view)["attribution"]
    qtbot.wait(500)
    window.grab().save(str(tmp_path / "offline_copy.png"))
    print("screenshot:", tmp_path / "offline_copy.png")

    window.new_trip()  # another trip (none here): the built-in outlines
    qtbot.waitUntil(lambda: state(qtbot, window.map_view)["basemap_tiles"] is None, timeout=10_000)
    statuses: list[str] = []
    window.statusBar().messageChanged.connect(statuses.append)
    plan(qtbot, window, PARIS)  # the trip shown again: its copy is drawn, and the status bar says so
    qtbot.waitUntil(lambda: (state(qtbot, window.map_view)["basemap_tiles"] or 0) >= 1, timeout=15_000)
    assert "Test vector tiles" in state(qtbot, window.map_view)["attribution"]
    assert any(s.startswith("Map: this trip's offline copy (unsaved-paris.pmtiles)") for s in statuses)

    copy.remove_action.trigger()
    assert not dest.exists()
    qtbot.waitUntil(lambda: state(qtbot, window.map_view)["basemap_tiles"] is None, timeout=10_000)


def test_cancel_in_the_progress_dialog_leaves_no_copy_and_says_it_resumes(qtbot, make_window, tmp_path,
                                                                           monkeypatch):
    monkeypatch.setenv("TRIPWRIGHT_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("TRIPWRIGHT_BASEMAP", raising=False)
    window = make_window(use_store=False)
    plan(qtbot, window, PARIS)
    monkeypatch.delenv("TRIPWRIGHT_OFFLINE")
    window.map_view.tile_url = BLANK_PNG
    copy = window.offline_copy
    copy.refresh()  # the network can be used now (the Trip menu refreshes it as it opens)
    server = RangeServer(paris_archive(tmp_path / "paris.pmtiles"))
    try:
        monkeypatch.setenv("TRIPWRIGHT_PMTILES_URL", server.url)
        copy.action.trigger()
        qtbot.waitUntil(lambda: copy.confirm_box is not None, timeout=20_000)
        server.delay_s = 3.0  # the tiles come slowly: Cancel lands mid-request
        copy.download_button.click()
        qtbot.waitUntil(lambda: copy.progress_dialog is not None and copy.progress_dialog.isVisible(), timeout=10_000)
        assert not copy.action.isEnabled()  # one download at a time
        copy.progress_dialog.findChild(QPushButton).click()  # its Cancel button
        wait_task(qtbot, copy.task, timeout=10_000)
    finally:
        server.stop()
    dest = trip_offline_file(window.trip)
    assert not dest.exists() and dest.with_name(dest.name + ".part").is_dir()
    assert window.message_bar.text().startswith("Offline copy cancelled; what was fetched is kept")
    assert copy.progress_dialog is None and copy.action.isEnabled()


def test_an_area_above_the_cap_is_one_line_and_nothing_is_downloaded(qtbot, make_window, tmp_path, monkeypatch):
    monkeypatch.setenv("TRIPWRIGHT_HOME", str(tmp_path / "home"))
    window = make_window(use_store=False)
    plan(qtbot, window, PARIS)
    monkeypatch.delenv("TRIPWRIGHT_OFFLINE")
    window.map_view.tile_url = BLANK_PNG
    window.offline_copy.refresh()  # the network can be used now (the Trip menu refreshes it as it opens)
    window.settings = window.settings.model_copy(update={"offline_map_cap_mb": 1})
    box = trip_bbox(trip_points(window.trip.current))
    server = RangeServer(write_padded_pmtiles(tmp_path / "big.pmtiles", box.west, box.south, box.east, box.north,
                                              tile_kb=16))  # a few MB: above a 1 MB cap
    copy_from(qtbot, window, server, monkeypatch)
    line = window.message_bar.text()
    assert line.startswith("Offline copy: the trip's area to zoom 15 is about") and "MB, above the 1 MB cap" in line
    assert "smaller area or a lower zoom" in line and "offline_map_cap_mb:" not in line
    assert window.offline_copy.confirm_box is None and len(server.seen) == 2  # header and metadata only
    assert not (tmp_path / "home" / "offline_maps").exists()


def test_an_archive_whose_root_directory_is_not_gzip_is_one_line_in_the_window(qtbot, make_window, tmp_path,
                                                                                 monkeypatch):
    """Issue 35 §2: a malformed root directory raised BadGzipFile out of plan_area and no message
    reached the window; now it is the one line every tool error is."""
    from tests.engine.test_offline_archive_bounds import lying_archive
    monkeypatch.setenv("TRIPWRIGHT_HOME", str(tmp_path / "home"))
    window = make_window(use_store=False)
    plan(qtbot, window, PARIS)
    monkeypatch.delenv("TRIPWRIGHT_OFFLINE")
    window.map_view.tile_url = BLANK_PNG
    window.offline_copy.refresh()
    copy_from(qtbot, window, RangeServer(lying_archive(tmp_path / "lying.pmtiles", root=b"\x00not gzip at all" * 4)),
              monkeypatch)
    line = window.message_bar.text()
    assert line.startswith("Offline copy: ") and "root directory is not gzip data" in line, line
    assert "\n" not in line and window.offline_copy.confirm_box is None and not window.offline_copy.busy
    assert not (tmp_path / "home" / "offline_maps").exists()


def copy_from(qtbot, window, server, monkeypatch) -> None:
    """Trip ▸ Make this trip available offline, the archive served by ``server`` (stopped after)."""
    try:
        monkeypatch.setenv("TRIPWRIGHT_PMTILES_URL", server.url)
        window.offline_copy.action.trigger()
        wait_task(qtbot, window.offline_copy.task, timeout=20_000)
    finally:
        server.stop()
