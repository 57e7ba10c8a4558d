"""A booked train imported into a multi-city trip through the real window (issue 33 §2, §4): Lisbon →
Porto by train planned from the prompt (the cities' places fetched from the Overpass stand-in on
127.0.0.1: Lisbon's real OSM extract, tests/data/osm/lisbon.json, and a synthetic Porto,
tests/data/osm/synthetic.py), then CP's e-mail for the Alfa Pendular AP 123 (Lisboa Santa Apolónia
09:00 → Porto Campanhã 11:48, tests/data/bookings/cp_alfa_lisboa_porto.eml) chosen in File ▸ Import:
the leg is the booked train in the trip's next version, undoable."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from engine.geocode import default_gazetteer
from engine.pipeline import PlanningSession
from tests.app.conftest import PLAN_TIMEOUT_MS, TODAY
from tests.app.test_trip_imports import choose_in_dialog
from tests.data.osm.synthetic import synthetic_city
from tests.overpass_standin import OverpassStandIn, load_lisbon

CP_MAIL = Path(__file__).resolve().parents[1] / "data" / "bookings" / "cp_alfa_lisboa_porto.eml"
PROMPT = "3 nights in Lisbon then 2 nights in Porto by train from 2027-05-10, flying from JFK, budget 6000 USD"


@pytest.fixture
def session(tmp_path, monkeypatch):
    default_gazetteer()  # the run's index, opened before the home moves
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("TRIPWRIGHT_HOME", str(home))
    monkeypatch.delenv("TRIPWRIGHT_OFFLINE", raising=False)
    monkeypatch.delenv("TRIPWRIGHT_TRANSIT_URL", raising=False)
    monkeypatch.setenv("TRIPWRIGHT_OPEN_METEO_URL", "http://127.0.0.1:9")
    server = OverpassStandIn(elements=load_lisbon() + synthetic_city(center=(41.1579, -8.6291), count=400)).start()
    monkeypatch.setenv("TRIPWRIGHT_OVERPASS_URL", server.interpreter_url)
    yield PlanningSession(today=TODAY)
    server.stop()


def test_a_booked_train_imported_in_the_window_is_the_trips_leg(qtbot, make_window, session):
    window = make_window(session=session)
    form = window.intent_form
    form.prompt_edit.setFocus()
    QTest.keyClicks(form.prompt_edit, PROMPT)
    qtbot.mouseClick(form.plan_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.trip.current is not None and not window.controller.busy, timeout=PLAN_TIMEOUT_MS)
    planned = window.trip.current
    assert [s.city for s in planned.intent.stays] == ["Lisbon", "Porto"], window.message_bar.text()
    assert planned.itinerary.legs[0].source == "estimated"
    choose_in_dialog(window.choose_bookings_file(), CP_MAIL)
    qtbot.waitUntil(lambda: window.trip.current is not planned and not window.controller.busy,
                    timeout=PLAN_TIMEOUT_MS)
    booked = window.trip.current
    leg = booked.itinerary.legs[0]
    assert (leg.source, leg.number, leg.from_name) == ("booked", "AP 123", "Lisboa Santa Apolónia")
    assert leg.departure.isoformat() == "2027-05-13T09:00:00+01:00"
    assert booked.intent.legs[0].booked is not None and window.commands.undo.isEnabled()
    assert "cp_alfa_lisboa_porto.eml" in window.message_bar.text() + window.statusBar().currentMessage()
    qtbot.wait(500)
    window.grab().save("/tmp/window-multi-booked.png")
