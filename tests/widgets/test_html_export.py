"""The standalone HTML map export, opened in a real QtWebEngine page offscreen."""

import json
from datetime import date

import pytest
from PySide6.QtCore import QEvent, QUrl
from PySide6.QtWebEngineWidgets import QWebEngineView
from PySide6.QtWidgets import QApplication

from engine.export import itinerary_to_html
from engine.models import IntentV1
from engine.pipeline import PlanningSession

XSS = "<img src=x onerror=window.__xss=1>"


@pytest.fixture(scope="module")
def itinerary():
    import asyncio
    intent = IntentV1.model_validate({
        "city": "Rome", "date_window": {"start": "2027-05-10", "end": "2027-05-13", "tz": "Europe/Rome"},
        "budget_usd_cents": 400000, "airports": ["FCO"], "origin_airport": "LHR",
        "prefs": {"themes": ["history"]}})
    result = asyncio.run(PlanningSession(today=date(2026, 11, 23)).plan(intent))
    itin = result.itinerary
    day = itin.days[1]
    first = day.activities[1]
    hostile = first.model_copy(update={"name": XSS})
    days = [d if d is not day else d.model_copy(update={"activities": [day.activities[0], hostile, *day.activities[2:]]})
            for d in itin.days]
    return itin.model_copy(update={"days": days})


def run_js(qtbot, view, script):
    with qtbot.waitCallback(timeout=5_000) as callback:
        view.page().runJavaScript(script, 0, callback)
    return json.loads(callback.args[0])


def test_html_map_is_offline_and_draws_every_day(qtbot, tmp_path, itinerary):
    page = itinerary_to_html(itinerary)
    assert "cdn." not in page and "<script src=\"http" not in page
    path = tmp_path / "trip.html"
    path.write_text(page, encoding="utf-8")
    view = QWebEngineView()
    view.resize(1000, 700)
    with qtbot.waitSignal(view.loadFinished, timeout=15_000) as loaded:
        view.load(QUrl.fromLocalFile(str(path)))
        view.show()
    assert loaded.args == [True]
    qtbot.wait(300)
    state = run_js(qtbot, view, """JSON.stringify({
        leaflet: typeof L !== 'undefined',
        shapes: document.querySelectorAll('path.leaflet-interactive').length,
        layers: document.querySelectorAll('.leaflet-control-layers-overlays label').length,
        xss: window.__xss === undefined ? null : window.__xss})""")
    located = sum(1 for d in itinerary.days for a in d.activities if a.geo is not None and a.kind.value != "flight")
    lines = sum(1 for d in itinerary.days
                if sum(1 for a in d.activities if a.geo is not None and a.kind.value != "flight") > 1)
    assert state == {"leaflet": True, "shapes": located + lines, "layers": len(itinerary.days), "xss": None}
    view.grab().save(str(tmp_path / "html_export.png"))
    view.close()
    view.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
