"""Today in the window (issue 36 §1, app/today_flow.py + widgets/today_panel.py): a trip under way on
the (fixed) device clock opens on the Today dock with now, next, leave at, how, open, weather and
the booking codes, and the map shows that day alone; a trip not under way shows no Today. Real
planner, real map page, a real SQLite store for the reopened trip; offscreen Qt."""

from __future__ import annotations

import json
from datetime import datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from app import today_flow
from engine.models import IntentV1
from tests.app.conftest import LOAD_TIMEOUT_MS, PLAN_TIMEOUT_MS, wait_task
from tests.app.test_store_wiring import db_url, home, open_window  # noqa: F401 (fixtures)
from tests.store.conftest import memory_keyring  # noqa: F401 (a fixture)

BOOKED = Path(__file__).resolve().parents[2] / "docs" / "examples" / "paris-booked.json"
PARIS = ZoneInfo("Europe/Paris")


def booked() -> IntentV1:
    return IntentV1.model_validate_json(BOOKED.read_text(encoding="utf-8"))


def run_js(qtbot, view, script):
    found = []
    view.page().runJavaScript(script, 0, found.append)
    qtbot.waitUntil(lambda: bool(found), timeout=LOAD_TIMEOUT_MS)
    return found[0]


def shown_day(qtbot, window):
    return run_js(qtbot, window.map_view, "document.querySelector('.tw-day-picker').value")


def raised(dock) -> bool:
    return dock.isVisible() and not dock.visibleRegion().isEmpty()


def test_a_trip_under_way_opens_on_today_with_the_day_on_the_map(qtbot, make_window, tmp_path) -> None:
    window = make_window()
    now = datetime(2027, 6, 16, 12, 0, tzinfo=PARIS)  # day 2 of the Paris trip
    window.today.clock = lambda: now
    version = wait_task(qtbot, window.controller.plan_intent(booked()), timeout=PLAN_TIMEOUT_MS)
    before = version.itinerary.model_dump_json()
    acts = version.itinerary.days[1].activities
    expected_now = next((a for a in acts if a.start <= now < a.end), None)
    expected_next = next(a for a in acts if a.start > now and a.role not in ("transfer", "omitted"))
    today = window.today.today
    assert today is not None and today.under_way and today.day_index == 1
    assert today.now == expected_now and today.next == expected_next
    assert raised(window.today.dock) and not raised(window.itinerary_dock)
    rows = dict(window.today.panel.rows())
    assert (expected_now.name if expected_now else "nothing planned") in rows["Now"]
    assert expected_next.name in rows["Next"]
    assert rows["Leave at"].startswith(today.leave_at) and rows["How"].startswith(today.how.name)
    assert "when you arrive" in rows["Open"] and "2027-06-16" in rows["Weather"]
    hotel = booked().bookings.hotel
    assert rows["Booking"] == f"hotel {hotel.name} \u2014 confirmation {hotel.confirmation}"
    assert window.today.panel.heading.text().startswith("Paris \u2014 day 2 of 5")
    qtbot.waitUntil(lambda: shown_day(qtbot, window) == "1", timeout=LOAD_TIMEOUT_MS)  # the map shows day 2
    qtbot.wait(300)
    window.grab().save(str(tmp_path / "today.png"))
    assert (tmp_path / "today.png").stat().st_size > 10_000
    # The itinerary is still one click away, and reading it changed nothing.
    window.today.panel.itinerary_button.click()
    assert raised(window.itinerary_dock)
    assert window.trip.current.itinerary.model_dump_json() == before


def test_a_trip_not_under_way_shows_no_today(qtbot, make_window) -> None:
    window = make_window()
    window.today.clock = lambda: datetime(2027, 5, 1, 12, 0, tzinfo=PARIS)  # six weeks before
    wait_task(qtbot, window.controller.plan_intent(booked()), timeout=PLAN_TIMEOUT_MS)
    assert window.today.today is None and not window.today.dock.isVisible()
    assert raised(window.itinerary_dock)
    view = next(a.menu() for a in window.menuBar().actions() if a.text().replace("&", "") == "View")
    toggle = window.today.dock.toggleViewAction()
    assert toggle in view.actions() and not toggle.isEnabled()
    window.today.dock.show()  # as a layout restored from the last session would
    qtbot.waitUntil(lambda: not window.today.dock.isVisible(), timeout=LOAD_TIMEOUT_MS)  # nothing to show
    window.today.clock = lambda: datetime(2027, 6, 17, 9, 0, tzinfo=PARIS)  # the minute's refresh, days later
    window.today.refresh()
    assert window.today.dock.isVisible() and window.today.today.day_index == 2 and toggle.isEnabled()


def test_the_last_trip_reopened_at_start_opens_on_today(qtbot, open_window, monkeypatch) -> None:  # noqa: F811
    window = open_window()
    version = wait_task(qtbot, window.controller.plan_intent(booked()), timeout=PLAN_TIMEOUT_MS)
    last = version.itinerary.days[-1]
    departure = next(a for a in last.activities if a.role == "departure")
    at = datetime.combine(last.date, time(9, 0), PARIS)
    window.close()
    monkeypatch.setattr(today_flow, "today_device_clock", lambda: at)  # the device's clock on the last day
    again = open_window()
    qtbot.waitUntil(lambda: again.trip.current is not None, timeout=PLAN_TIMEOUT_MS)
    qtbot.waitUntil(lambda: again.today.today is not None, timeout=LOAD_TIMEOUT_MS)
    assert raised(again.today.dock) and again.today.today.day_index == len(version.itinerary.days) - 1
    rows = again.today.panel.rows()
    codes = [text for label, text in rows if label == "Booking"]
    flight = next(f for f in booked().bookings.flights if f.departure.date() == last.date)
    assert any(flight.flight_number in c and flight.confirmation in c for c in codes)
    assert again.today.today.next is not None and again.today.today.next.start <= departure.start
    qtbot.waitUntil(lambda: shown_day(qtbot, again) == str(len(version.itinerary.days) - 1), timeout=LOAD_TIMEOUT_MS)
    assert json.loads(again.today.today.model_dump_json())["under_way"] is True


@pytest.mark.parametrize("hours", [0, 36])
def test_the_panel_reads_a_minute_later_without_reopening(qtbot, make_window, hours) -> None:
    window = make_window()
    start = datetime(2027, 6, 16, 8, 0, tzinfo=PARIS)
    window.today.clock = lambda: start
    wait_task(qtbot, window.controller.plan_intent(booked()), timeout=PLAN_TIMEOUT_MS)
    first = window.today.today
    window.today.clock = lambda: start + timedelta(hours=hours, minutes=1)
    window.today.timer.timeout.emit()  # what the minute's timer does
    again = window.today.today
    assert again.at == first.at + timedelta(hours=hours, minutes=1)
    assert again.day_index == first.day_index + (1 if hours else 0)


def test_online_the_live_forecast_replaces_the_plans_weather(qtbot, make_window, monkeypatch) -> None:
    from tests.engine.standin_server import StandIn
    server = StandIn().start()
    try:
        monkeypatch.setenv("TRIPWRIGHT_OPEN_METEO_URL", server.url)
        window = make_window()
        now = datetime(2027, 6, 16, 12, 0, tzinfo=PARIS)
        window.today.clock = lambda: now
        wait_task(qtbot, window.controller.plan_intent(booked()), timeout=PLAN_TIMEOUT_MS)  # planned offline
        assert window.today.today.weather.source == "plan" and not server.hits("/v1/forecast")
        monkeypatch.delenv("TRIPWRIGHT_OFFLINE")  # the network may be used now
        window.today.refresh()
        qtbot.waitUntil(lambda: window.today.today.weather.source == "live", timeout=LOAD_TIMEOUT_MS)
        asked = server.hits("/v1/forecast")[-1].query
        assert asked["start_date"] == asked["end_date"] == "2027-06-16"
        assert "Open-Meteo" in dict(window.today.panel.rows())["Weather"]
        window.today.refresh()  # asked once per trip and day: the next minute's read keeps it
        assert window.today.today.weather.source == "live" and len(server.hits("/v1/forecast")) == 1
    finally:
        server.stop()
