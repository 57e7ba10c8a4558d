"""A trip to a city read from OpenStreetMap: the cost panel marks the estimated lines (issue 19 §2:
"the cost panel marks estimated lines"), rendered offscreen and saved as a PNG to look at."""

import asyncio
from datetime import date

import pytest

from engine.frontend import intent_from_prompt
from engine.pipeline import PlanningSession
from tests.overpass_standin import OverpassStandIn, load_lisbon
from widgets.itinerary_panel import ItineraryPanel

LISBON = "4 days in Lisbon from 2027-05-10, flying from JFK, budget 3000 USD"


@pytest.fixture()
def lisbon(monkeypatch, tmp_path):
    server = OverpassStandIn(elements=load_lisbon()).start()
    monkeypatch.delenv("TRIPWRIGHT_OFFLINE", raising=False)
    monkeypatch.setenv("TRIPWRIGHT_OVERPASS_URL", server.interpreter_url)
    monkeypatch.setenv("TRIPWRIGHT_HOME", str(tmp_path))
    session = PlanningSession(today=date(2026, 11, 26))
    try:
        result = asyncio.run(session.plan(intent_from_prompt(LISBON, session, None)))
    finally:
        server.stop()
    assert result.status == "completed"
    return result.itinerary


def test_estimated_cost_lines_are_marked(qtbot, lisbon, tmp_path) -> None:
    panel = ItineraryPanel()
    qtbot.addWidget(panel)
    panel.resize(1000, 700)
    panel.set_itinerary(lisbon)
    panel.show()
    qtbot.waitExposed(panel)
    costs = panel.costs
    for key in ("flights", "lodging", "meals", "daily_spend"):
        assert costs.values[key].text().endswith("(est.)"), key
        assert "estimated" in costs.values[key].toolTip()
    assert not costs.values["total"].text().endswith("(est.)")
    panel.grab().save(str(tmp_path / "pack-costs.png"))
    assert (tmp_path / "pack-costs.png").stat().st_size > 1000


def test_the_map_credits_openstreetmap_for_a_pack_city(qtbot, lisbon, tmp_path) -> None:
    import json
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication
    from widgets.map_view import MapView
    view = MapView()
    view.resize(900, 600)
    try:
        with qtbot.waitSignal(view.ready, timeout=20_000):
            view.show()
            view.show_itinerary(lisbon)

        def attribution() -> str:
            with qtbot.waitCallback(timeout=5_000) as callback:
                view.page().runJavaScript("window.tripwright.state()", 0, callback)
            return json.loads(callback.args[0])["attribution"]
        qtbot.waitUntil(lambda: "OpenStreetMap contributors (ODbL)" in attribution(), timeout=10_000)
        qtbot.wait(800)  # a grab right after drawing can show the previous frame
        view.grab().save(str(tmp_path / "pack-map.png"))
    finally:
        view.close()
        view.deleteLater()
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
