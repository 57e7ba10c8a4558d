"""Issue 14 §1: the window draws the offline basemap file that TRIPWRIGHT_BASEMAP (or Settings)
names, and says so in one line when the file cannot be shown."""

from __future__ import annotations

from engine.settings import Settings
from tests.widgets.test_map_view import state
from tests.widgets.test_offline_tiles import write_mbtiles
from tests.widgets.test_pmtiles_basemap import paris_archive


def test_the_window_draws_the_basemap_named_by_the_environment(qtbot, make_window, tmp_path, monkeypatch):
    monkeypatch.setenv("TRIPWRIGHT_BASEMAP", str(write_mbtiles(tmp_path / "region.mbtiles")))
    window = make_window(use_store=False)
    # The warm-up the ready map starts must end within the test (the fixture joins its thread).
    qtbot.waitUntil(lambda: window.controller._service is not None  # noqa: SLF001
                    and not window.controller._service.running, timeout=120_000)  # noqa: SLF001
    qtbot.waitUntil(lambda: (state(qtbot, window.map_view)["basemap_tiles"] or 0) >= 4, timeout=10_000)
    monkeypatch.setenv("TRIPWRIGHT_BASEMAP", str(tmp_path / "gone.mbtiles"))
    window.apply_settings(window.settings)
    assert window.message_bar.text() == (f"Offline map: {tmp_path / 'gone.mbtiles'} does not exist; "
                                         "showing the built-in outlines.")
    qtbot.waitUntil(lambda: state(qtbot, window.map_view)["basemap_tiles"] is None, timeout=5_000)


def test_the_window_says_when_online_tiles_fail(qtbot, make_window, monkeypatch):
    monkeypatch.delenv("TRIPWRIGHT_OFFLINE")  # the tiles are an inline image that is not one: no network
    window = make_window(use_store=False)
    qtbot.waitUntil(lambda: window.controller._service is not None  # noqa: SLF001
                    and not window.controller._service.running, timeout=120_000)  # noqa: SLF001
    window.commands.online.setChecked(False)
    window.map_view.tile_url = "data:image/png;base64,bm90IGEgcG5n"
    window.commands.online.setChecked(True)
    qtbot.waitUntil(lambda: window.online_label.text() == "Offline \u00b7 built-in map", timeout=10_000)
    assert state(qtbot, window.map_view)["offline_note"] == "Offline \u2014 showing the built-in map"


def test_a_pmtiles_archive_chosen_in_settings_is_drawn_and_the_environment_wins(qtbot, make_window, tmp_path,
                                                                                 monkeypatch):
    monkeypatch.delenv("TRIPWRIGHT_BASEMAP", raising=False)
    window = make_window(use_store=False)
    qtbot.waitUntil(lambda: window.controller._service is not None  # noqa: SLF001
                    and not window.controller._service.running, timeout=120_000)  # noqa: SLF001
    archive = paris_archive(tmp_path / "paris.pmtiles")
    window.apply_settings(Settings(basemap_file=str(archive)))
    qtbot.waitUntil(lambda: (state(qtbot, window.map_view)["basemap_tiles"] or 0) >= 1, timeout=10_000)
    assert "Test vector tiles" in state(qtbot, window.map_view)["attribution"]
    monkeypatch.setenv("TRIPWRIGHT_BASEMAP", str(write_mbtiles(tmp_path / "region.mbtiles")))
    window.apply_settings(window.settings)
    qtbot.waitUntil(lambda: "Test tiles" in state(qtbot, window.map_view)["attribution"], timeout=10_000)
