"""Any city in the app (issue 19): a city the fixtures lack is typed in the form and planned from
its OpenStreetMap pack — the fetch shown in the progress panel, cancellable —, a name several
places share is asked about, and Settings lists the cities kept for offline use (refresh, delete).

Real window, real map page, the real Overpass client against the stand-in on 127.0.0.1; the data
dir is the test's own, weather goes to a closed local port."""

from __future__ import annotations

import asyncio
import os
import shutil
import threading
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from app.city_packs_section import STALE
from engine.geocode import default_gazetteer
from engine.pipeline import PlanningSession
from engine.places.city_spec import resolve_city
from engine.places.fetch import PackFetcher
from engine.places.pack_store import PackStore
from engine.tools.executor import ToolExecutor
from engine.net.network import NetworkState
from tests.app.conftest import PLAN_TIMEOUT_MS, TODAY
from tests.overpass_standin import OverpassStandIn, Reply, load_lisbon
from widgets.intent_city import NEW_CITY_NOTE, PENDING_AIRPORT
from widgets.itinerary_model import ItineraryModel

LISBON = "4 days in Lisbon from 2027-05-10, flying from JFK, budget 3000 USD, art and history"
CORDOBA = "4 days in Córdoba from 2027-05-10, flying from JFK, budget 3000 USD"
CORDOBA_ES = (37.89155, -4.77275)
LISBON_CENTRE = (38.72509, -9.1498)


@pytest.fixture
def home(tmp_path, monkeypatch):
    """The test's own data dir (packs, settings, ui state), and the network allowed — to 127.0.0.1."""
    default_gazetteer()  # the run's index, opened before the home moves (a new home would build one)
    path = tmp_path / "home"
    path.mkdir()
    monkeypatch.setenv("TRIPWRIGHT_HOME", str(path))
    monkeypatch.delenv("TRIPWRIGHT_OFFLINE", raising=False)
    monkeypatch.setenv("TRIPWRIGHT_OPEN_METEO_URL", "http://127.0.0.1:9")
    return path


def serve(monkeypatch, elements):
    server = OverpassStandIn(elements=elements).start()
    monkeypatch.setenv("TRIPWRIGHT_OVERPASS_URL", server.interpreter_url)
    return server


@pytest.fixture
def overpass(home, monkeypatch):
    server = serve(monkeypatch, load_lisbon())
    yield server
    server.stop()


@pytest.fixture
def session(home):
    return PlanningSession(today=TODAY)  # after the home moved: its packs live there


def shot(widget, tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}.png"
    assert widget.grab().save(str(path))
    if os.environ.get("TRIPWRIGHT_SHOT_DIR"):
        Path(os.environ["TRIPWRIGHT_SHOT_DIR"]).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(os.environ["TRIPWRIGHT_SHOT_DIR"]) / path.name)
    return path


def wait_planned(qtbot, window):
    qtbot.waitUntil(lambda: window.trip.current is not None and not window.controller.busy, timeout=PLAN_TIMEOUT_MS)
    return window.trip.current


def rows(panel) -> list[tuple[str, str, str]]:
    m = panel.model
    return [(m.index(r, m.COL_NODE).data(), m.index(r, m.COL_STATUS).data(), m.index(r, m.COL_NOTE).data())
            for r in range(m.rowCount())]


def itinerary_names(panel) -> set[str]:
    model, names = panel.model, set()
    for d in range(model.rowCount()):
        day = model.index(d, 0)
        for r in range(model.rowCount(day)):
            activity = model.index(r, 0, day).data(ItineraryModel.ActivityRole)
            if activity is not None:  # shown in English with the local name beside it (issue 31 §3)
                names.update(n for n in (activity.name, activity.local_name) if n)
    return names


def cache_lisbon(home: Path, **update) -> None:
    """Lisbon's pack fetched from the stand-in into ``home`` (in a thread: the GUI loop is running)."""
    async def fetch():
        network = NetworkState()
        try:
            outcome = await PackFetcher(PackStore(home), network, ToolExecutor()).ensure(
                resolve_city("Lisbon", default_gazetteer()))
        finally:
            await network.aclose()
        if update:
            PackStore(home).save(outcome.pack.model_copy(update=update))
    worker = threading.Thread(target=lambda: asyncio.run(fetch()))
    worker.start()
    worker.join(30)
    assert not worker.is_alive()


# -- planning a city no fixture covers ------------------------------------------------------------
def test_lisbon_is_typed_fetched_with_progress_and_planned(qtbot, make_window, session, overpass, tmp_path):
    overpass.then(Reply(drip_bytes_per_s=5_000))  # ~3 s of download: the panel is seen mid-fetch
    window = make_window(session=session)
    form = window.intent_form
    window.use_prompt(LISBON)
    assert form.field_errors() == {} and form.city_combo.currentText() == "Lisbon"
    assert form.city_note.isVisible() and form.city_note.text() == NEW_CITY_NOTE
    asked = form.current_intent()
    assert (asked.city, asked.airports, asked.date_window.tz) == ("Lisbon", [PENDING_AIRPORT], "UTC")
    window.plan_from_form()
    panel = window.progress
    qtbot.waitUntil(lambda: "KB received" in panel.status_label.text(), timeout=PLAN_TIMEOUT_MS)
    assert panel.status_label.text().startswith("Fetching city data\u2026")
    assert panel.progress_bar.maximum() == 0  # busy: a download of unknown length
    assert panel.cancel_button.isEnabled()
    qtbot.wait(300)  # the throttled rows reach the table
    shot(panel, tmp_path, "progress_fetching")
    version = wait_planned(qtbot, window)
    qtbot.waitUntil(lambda: panel.pending == 0, timeout=5_000)
    panel.table.scrollToTop()
    shot(panel, tmp_path, "progress_fetched")
    shot(window, tmp_path, "window_lisbon")
    # the node's rows in the traveller's words, each with its note; the bar back to a percentage
    fetch = [r for r in rows(panel) if r[0] == "Fetching city data"]
    assert [s for _, s, _ in fetch][0] == "started" and fetch[-1][1] == "completed"
    assert sum("KB received" in note for _, _, note in fetch) == 1  # one row, its count moving on
    assert "32 sights" in fetch[-1][2] and "flying into LIS" in fetch[-1][2]
    assert panel.progress_bar.maximum() == 100 and panel.progress_bar.value() == 100
    # the plan: Lisbon's OSM places, and the intent the pack settled
    assert (version.intent.city, version.intent.airports, version.intent.date_window.tz) == \
        ("Lisbon", ["LIS"], "Europe/Lisbon")
    names = itinerary_names(window.itinerary_panel)
    assert names & {"Castelo de São Jorge", "Mosteiro dos Jerónimos", "Torre de Belém", "Museu Calouste Gulbenkian"}
    assert [p.label for p in PackStore().entries()] == ["Lisbon, PT"]
    # the form now knows Lisbon: its airport to tick, and the same request is not planned twice
    assert form.known_city("Lisbon") is not None
    assert [form.airports_list.item(i).data(Qt.ItemDataRole.UserRole) for i in range(form.airports_list.count())] \
        == ["LIS"]
    assert form.current_intent() == version.intent


def test_cancel_during_the_fetch_stops_the_request_and_keeps_nothing(qtbot, make_window, session, overpass,
                                                                      tmp_path):
    overpass.then(Reply(delay_s=20))  # a stalled server
    window = make_window(session=session)
    window.use_prompt(LISBON)
    window.plan_from_form()
    panel = window.progress
    qtbot.waitUntil(lambda: len(overpass.seen) == 1, timeout=PLAN_TIMEOUT_MS)
    qtbot.waitUntil(lambda: panel.status_label.text().startswith("Fetching city data"), timeout=5_000)
    qtbot.waitUntil(lambda: panel.model.rowCount() >= 3, timeout=5_000)
    shot(panel, tmp_path, "progress_waiting")
    pressed = time.monotonic()
    panel.cancel_button.click()
    service = window.controller.service
    qtbot.waitUntil(lambda: not window.controller.busy, timeout=5_000)
    assert service.join(2.0), "the engine run did not stop within 2 s of Cancel"
    assert time.monotonic() - pressed < 2.5
    assert window.controller.last_result.status == "cancelled"
    assert panel.status_label.text() == "Cancelled" and panel.progress_bar.maximum() == 100
    assert window.trip.current is None and "cancelled" in window.message_bar.text().lower()
    assert PackStore().entries() == [] and not list((window.planning.city_packs().store.folder).glob("*.tmp"))
    assert not window.planning.catalog.has_city("Lisbon")
    shot(panel, tmp_path, "progress_cancelled")


def test_an_ambiguous_city_is_asked_about_and_the_chosen_one_planned(qtbot, make_window, session, home,
                                                                     monkeypatch, tmp_path):
    dlat, dlon = CORDOBA_ES[0] - LISBON_CENTRE[0], CORDOBA_ES[1] - LISBON_CENTRE[1]
    moved = []  # Lisbon's places moved to Córdoba, Spain: what the stand-in knows there
    for e in load_lisbon():
        e = dict(e)
        if "lat" in e:
            e["lat"], e["lon"] = e["lat"] + dlat, e["lon"] + dlon
        else:
            e["center"] = {"lat": e["center"]["lat"] + dlat, "lon": e["center"]["lon"] + dlon}
        moved.append(e)
    server = serve(monkeypatch, moved)
    try:
        window = make_window(session=session)
        window.use_prompt(CORDOBA)
        assert window.intent_form.city_combo.currentText() == "Córdoba"
        window.plan_from_form()
        qtbot.waitUntil(lambda: window.controller.place_chooser is not None, timeout=PLAN_TIMEOUT_MS)
        chooser = window.controller.place_chooser
        qtbot.waitExposed(chooser)
        shot(chooser, tmp_path, "city_chooser")
        options = chooser.options()
        assert [(n, r) for n, r, _ in options][:2] == [("Córdoba", "Argentina"), ("Córdoba", "Spain")]
        assert chooser.list.headerItem().text(2) == "Population" and options[1][2] == "325,708"
        assert "city" in chooser.heading.text() and server.seen == []  # asked before anything was fetched
        chooser.choose(1)
        version = wait_planned(qtbot, window)
        assert version.intent.city == "Córdoba" and version.intent.date_window.tz == "Europe/Madrid"
        assert PENDING_AIRPORT not in version.intent.airports
        assert [p.label for p in PackStore().entries()] == ["Córdoba, ES"]
        box = server.seen[0].ql.split("[bbox:")[1].split("]")[0].split(",")
        south, west, north, east = (float(v) for v in box)
        assert south < CORDOBA_ES[0] < north and west < CORDOBA_ES[1] < east
    finally:
        server.stop()


def test_offline_without_the_city_says_what_to_do(qtbot, make_window, session, home, monkeypatch):
    monkeypatch.setenv("TRIPWRIGHT_OFFLINE", "1")
    window = make_window(session=session)
    window.use_prompt(LISBON)
    window.plan_from_form()
    qtbot.waitUntil(lambda: not window.controller.busy and window.message_bar.text() != "", timeout=PLAN_TIMEOUT_MS)
    assert window.message_bar.text().startswith("Lisbon, PT's places are not on this computer yet")
    assert window.trip.current is None


# -- Settings: cities for offline use ---------------------------------------------------------------
def section_rows(section) -> list[tuple[str, ...]]:
    tree = section.list
    return [tuple(tree.topLevelItem(r).text(c) for c in range(4)) for r in range(tree.topLevelItemCount())]


def test_settings_lists_refreshes_and_deletes_the_cached_cities(qtbot, make_window, session, overpass, home,
                                                                tmp_path):
    cache_lisbon(home, fetched_at=datetime.now(timezone.utc) - timedelta(days=31))
    window = make_window(session=session)
    qtbot.waitUntil(lambda: window.intent_form.known_city("Lisbon, PT") is not None, timeout=10_000)
    dialog = window.open_settings()
    qtbot.waitExposed(dialog)
    section = dialog.cities
    qtbot.waitUntil(lambda: section.list.topLevelItemCount() == 1, timeout=10_000)
    assert not section.refresh_button.isEnabled()  # nothing chosen yet
    shot(dialog, tmp_path, "settings_cities_stale")
    section.list.setCurrentItem(section.list.topLevelItem(0))
    note = dialog.key_note  # the section's rows did not squeeze the notes above them (once laid out)
    qtbot.waitUntil(lambda: note.height() >= note.heightForWidth(note.width()) - 1, timeout=3_000)
    (label, places, size, fetched), = section_rows(section)
    entry = PackStore().entries()[0]
    assert (label, places) == ("Lisbon, PT", f"{entry.places:,}")
    assert size == f"{entry.size_bytes / 1024:,.0f} KB" and fetched.endswith(STALE)
    assert section.refresh_button.isEnabled() and section.delete_button.isEnabled()
    section.refresh_selected()
    qtbot.waitUntil(lambda: section.status.text().startswith("Refreshed"), timeout=PLAN_TIMEOUT_MS)
    assert len(overpass.seen) == 4 and "Lisbon, PT: 32 sights" in section.status.text()  # places + map, twice
    assert not section_rows(section)[0][3].endswith(STALE)
    assert section.selected().label == "Lisbon, PT"  # still chosen after the list was read again
    shot(dialog, tmp_path, "settings_cities_refreshed")
    section.delete_selected()
    qtbot.waitUntil(lambda: section.status.text().startswith("Deleted"), timeout=10_000)
    assert PackStore().entries() == [] and section.list.topLevelItemCount() == 0
    assert section.empty_label.isVisible() and not section.delete_button.isEnabled()
    assert window.intent_form.known_city("Lisbon, PT") is None
    shot(dialog, tmp_path, "settings_cities_empty")
    dialog.close()


def test_a_refresh_that_fails_keeps_the_pack_and_says_why(qtbot, make_window, session, overpass, home):
    cache_lisbon(home)
    overpass.then(Reply(status=504), Reply(status=504))
    window = make_window(session=session)
    dialog = window.open_settings()
    section = dialog.cities
    qtbot.waitUntil(lambda: section.list.topLevelItemCount() == 1, timeout=10_000)
    section.list.setCurrentItem(section.list.topLevelItem(0))
    section.refresh_selected()
    qtbot.waitUntil(lambda: section.status.text().startswith("Not refreshed"), timeout=PLAN_TIMEOUT_MS)
    assert "server busy" in section.status.text() and len(PackStore().entries()) == 1
    dialog.close()
