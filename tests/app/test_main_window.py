"""The main window, shown and rendered offscreen with a real map page."""

import pytest
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication

from app.main_window import PLAN_HINT, STATUS_TEXT, MainWindow
from widgets.map_view import MapView


@pytest.fixture
def window(qtbot):
    window = MainWindow()
    with qtbot.waitSignal(window.map_view.loadFinished, timeout=15_000):
        window.show()
    yield window
    # Delete the web view now, while the QApplication still exists.
    window.close()
    window.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def test_main_window_has_map_dock_and_status(window):
    assert window.windowTitle() == "Tripwright"
    assert isinstance(window.centralWidget(), MapView)
    assert window.plan_dock.widget().text() == PLAN_HINT
    assert window.status_label.text() == STATUS_TEXT == "Offline · embedded data"
    assert window.status_label.isVisible()


def test_main_window_renders_offscreen(qtbot, window, tmp_path):
    qtbot.wait(500)  # a grab right at loadFinished is still blank
    image = window.grab().toImage()
    path = tmp_path / "main.png"
    assert image.save(str(path))
    assert path.stat().st_size > 10_000

    # The map area shows the page (the offline basemap: land, borders and sea), not an empty view.
    view = window.map_view
    origin = view.mapTo(window, view.rect().topLeft())
    samples = [
        image.pixelColor(origin.x() + x, origin.y() + y).name()
        for x in range(0, view.width(), 37)
        for y in range(0, view.height(), 41)
    ]
    assert len(set(samples)) >= 3, set(samples)  # land, borders and sea are drawn
    assert samples.count("#ffffff") < 0.2 * len(samples)
