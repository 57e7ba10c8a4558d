"""The map view with a real QtWebEngine page, offscreen."""

import json

import pytest
from PySide6.QtCore import QEvent, QUrl
from PySide6.QtWidgets import QApplication

from widgets.map_view import MapView

LOAD_TIMEOUT_MS = 15_000


def run_js(qtbot, view, script):
    """Run `script` in the page and return its JSON-decoded result."""
    with qtbot.waitCallback(timeout=5_000) as callback:
        view.page().runJavaScript(script, 0, callback)
    return json.loads(callback.args[0])


@pytest.fixture
def map_view(qtbot):
    view = MapView()
    view.resize(800, 600)
    with qtbot.waitSignal(view.loadFinished, timeout=LOAD_TIMEOUT_MS) as loaded:
        view.show()
    assert loaded.args == [True]
    yield view
    # Delete the view now, while the QApplication (and the web profile) still exist.
    view.close()
    view.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def test_map_page_loads_leaflet(qtbot, map_view):
    state = run_js(qtbot, map_view, "JSON.stringify({leaflet: typeof L !== 'undefined', zoom: map.getZoom()})")
    assert state == {"leaflet": True, "zoom": 3}


def test_map_shows_offline_attribution(qtbot, map_view):
    text = run_js(
        qtbot, map_view, "JSON.stringify(document.querySelector('.leaflet-control-attribution').textContent)"
    )
    assert "Offline map" in text


@pytest.mark.parametrize(
    "navigate",
    [
        pytest.param(lambda view: view.load(QUrl("https://example.com")), id="load"),
        pytest.param(lambda view: view.page().runJavaScript("location.href = 'https://example.com'"), id="js"),
    ],
)
def test_navigation_away_is_refused(qtbot, map_view, navigate):
    before = map_view.url()
    with qtbot.waitSignal(map_view.page().navigation_refused, timeout=5_000) as refused:
        navigate(map_view)
    assert refused.args[0].host() == "example.com"
    qtbot.wait(200)
    assert map_view.url() == before
    assert run_js(qtbot, map_view, "JSON.stringify(typeof map.getZoom())") == "number"
