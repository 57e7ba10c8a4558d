"""Issue 36 §3: the phone file in a real headless browser (QtWebEngine, offscreen) at 360×740, with
the phone's clock set to moments of the trip (``phone_browser.clock_script``).

A Paris trip planned around its bookings (Air France there and back, a booked hotel): at a
moment of each kind — in a visit, on the way between two, before the trip, after it — Now and
Next name the activities of the plan the clock is in and before, the day under way is open with
its map, and the page fetches nothing but itself. A fetched city (Lisbon, from the Overpass
stand-in) carries its own map into the file. Screenshots in light and dark are written to
``TRIPWRIGHT_PHONE_SHOTS`` (default: the test's tmp folder) and their colours checked."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import date, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QUrl
from PySide6.QtGui import QImage
from PySide6.QtWebEngineCore import QWebEngineProfile
from PySide6.QtWebEngineWidgets import QWebEngineView
from PySide6.QtWidgets import QApplication

from engine.export import phone_export
from engine.export.phone_export import itinerary_to_phone
from engine.models import Activity, IntentV1, ItineraryV1
from engine.models.bookings import Bookings
from engine.places.pack_store import PackStore
from tests.engine.test_ics_bookings import BACK, OUT, STAY
from tests.widgets.phone_browser import PHONE_SIZE, STATE, clock_script
from tests.widgets.test_city_map_view import lisbon  # noqa: F401 (the fixture)
from tests.widgets.test_html_export import ConsoleLog, RequestLog, hostile, run_js

ROOT = Path(__file__).resolve().parents[2]
LOAD_TIMEOUT_MS = 15_000


@pytest.fixture(scope="module")
def paris() -> ItineraryV1:
    """Paris planned by the engine around the traveller's flights and hotel."""
    import asyncio

    from engine.pipeline import PlanningSession

    data = json.loads((ROOT / "docs" / "examples" / "paris.json").read_text(encoding="utf-8"))
    data["bookings"] = Bookings(flights=[OUT, BACK], hotel=STAY).model_dump(mode="json")
    result = asyncio.run(PlanningSession(today=date(2026, 11, 23)).plan(IntentV1.model_validate(data)))
    assert result.itinerary is not None, result.failure
    return result.itinerary


@pytest.fixture
def open_phone(qtbot, tmp_path):
    """open_phone(page_text, moment) -> (view, page, requests): at phone size, the clock at ``moment``."""
    opened = []

    def open_(page_text: str, moment: datetime):
        path = tmp_path / "trip-phone.html"
        path.write_text(page_text, encoding="utf-8")
        profile = QWebEngineProfile()
        profile.scripts().insert(clock_script(moment.isoformat()))
        requests = RequestLog()
        profile.setUrlRequestInterceptor(requests)
        page = ConsoleLog(profile)
        view = QWebEngineView()
        view.setPage(page)
        view.resize(*PHONE_SIZE)
        opened.append((view, page, profile))
        with qtbot.waitSignal(view.loadFinished, timeout=LOAD_TIMEOUT_MS) as loaded:
            view.load(QUrl.fromLocalFile(str(path)))
            view.show()
        assert loaded.args == [True]
        return view, page, requests

    yield open_
    for view, page, profile in opened:
        view.close()
        page.deleteLater()
        view.deleteLater()
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        profile.deleteLater()
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def _visits(itin: ItineraryV1) -> list[tuple[int, Activity]]:
    """(day index, activity) of everything but the transfers, in the order they happen."""
    return sorted(((n, a) for n, d in enumerate(itin.days) for a in d.activities if a.kind.value != "transit"),
                  key=lambda pair: pair[1].start)


def _clock(moment: datetime) -> str:
    return f"{moment:%H:%M}"


def test_in_a_visit_now_is_that_visit_and_next_is_the_one_after_with_when_to_leave(qtbot, open_phone, paris):
    visits = _visits(paris)
    k = next(k for k, (_, a) in enumerate(visits) if a.name == "Musée du Louvre")
    (day, louvre), (_, after) = visits[k], visits[k + 1]
    moment = louvre.start + timedelta(minutes=15)
    view, page, requests = open_phone(itinerary_to_phone(paris), moment)
    state = run_js(qtbot, view, STATE)

    assert state["now"] == louvre.shown_name and state["row_now"].startswith(louvre.shown_name)
    assert state["next"] == after.shown_name and state["row_next"].startswith(after.shown_name)
    assert state["now_time"].startswith(f"until {_clock(louvre.end)} · ")
    assert state["next_time"].startswith(f"at {_clock(after.start)} · in ")
    leg = next(a for a in paris.days[day].activities if a.kind.value == "transit" and a.start >= louvre.end)
    assert state["leave"].startswith(f"Leave at {_clock(leg.start)} · ")
    assert state["today"] == [day] and state["open"][day] and state["map_day"] == day
    seq = [a for a in paris.days[day].activities if a.geo is not None and a.kind.value in ("attraction", "meal")]
    assert sorted(state["pins"]) == sorted(str(n) for n in range(1, len(seq) + 1))  # the day's own pins
    assert state["past"] == sum(1 for d in paris.days for a in d.activities if a.end <= moment)
    assert state["width"] <= state["viewport"] == PHONE_SIZE[0]  # nothing wider than the phone
    assert page.errors == []
    assert {Path(QUrl(u).toLocalFile()).name for u in requests.urls} == {"trip-phone.html"}


def test_on_the_way_now_is_the_leg_and_next_where_it_goes(qtbot, open_phone, paris):
    day = paris.days[1]
    k, leg = next((k, a) for k, a in enumerate(day.activities) if a.kind.value == "transit" and a.end > a.start)
    moment = leg.start + (leg.end - leg.start) / 2
    view, _, _ = open_phone(itinerary_to_phone(paris), moment)
    state = run_js(qtbot, view, STATE)

    assert state["now"] == leg.shown_name and state["now_time"].startswith("On the way: ")
    assert state["next"] == day.activities[k + 1].shown_name


def test_before_the_trip_next_is_the_booked_flight_with_its_code(qtbot, open_phone, paris):
    flight = paris.days[0].activities[0]
    assert flight.kind.value == "flight"
    moment = flight.start - timedelta(days=5)
    view, _, _ = open_phone(itinerary_to_phone(paris), moment)
    state = run_js(qtbot, view, STATE)

    assert state["now"] is None and state["state"] == ["Your trip starts in 5 days."]  # on the phone's calendar
    assert state["next"] == flight.shown_name and state["codes"] == [OUT.confirmation]
    assert state["open"][0] and not any(state["open"][1:]) and state["today"] == []


def test_after_the_trip_it_says_so_and_nothing_is_next(qtbot, open_phone, paris):
    view, _, _ = open_phone(itinerary_to_phone(paris), paris.days[-1].activities[-1].end + timedelta(hours=3))
    state = run_js(qtbot, view, STATE)

    assert state["state"] == ["Your trip is over. Welcome home."] and state["now"] is None and state["next"] is None
    assert not any(state["open"]) and state["past"] == sum(len(d.activities) for d in paris.days)


def test_hostile_names_run_nothing_on_the_phone(qtbot, open_phone, paris):
    evil = hostile(paris)
    louvre = next(a for a in evil.days[1].activities if a.name.startswith("Musée du Louvre"))
    view, page, requests = open_phone(itinerary_to_phone(evil), louvre.start + timedelta(minutes=1))
    state = run_js(qtbot, view, STATE)

    assert state["pwned"] is None and state["now"] == louvre.shown_name and page.errors == []
    assert {Path(QUrl(u).toLocalFile()).name for u in requests.urls} == {"trip-phone.html"}


def test_a_fetched_city_carries_its_own_map_onto_the_phone(qtbot, open_phone, lisbon, monkeypatch):  # noqa: F811
    itinerary, home = lisbon
    page_text = itinerary_to_phone(itinerary, packs=PackStore(home))
    first = next(a for a in itinerary.days[1].activities if a.kind.value != "transit")
    view, page, _ = open_phone(page_text, first.start + timedelta(minutes=5))
    drawn = run_js(qtbot, view, "JSON.stringify(window.tripwrightPhone.trip().cityMap() ? "
                                "window.tripwrightPhone.trip().cityMap().getLayers().length : 0)")
    assert drawn > 0 and page.errors == []
    assert "Lisbon's own map" in page_text
    if os.environ.get("TRIPWRIGHT_PHONE_SHOTS"):  # to look at: python -m tests.widgets.phone_browser
        Path(os.environ["TRIPWRIGHT_PHONE_SHOTS"], "lisbon-phone.html").write_text(page_text, encoding="utf-8")

    monkeypatch.setattr(phone_export, "MAX_BYTES", len(page_text.encode("utf-8")) - 1)  # too big for the cap
    smaller = itinerary_to_phone(itinerary, packs=PackStore(home))
    assert len(smaller) < len(page_text) and "The city's own map was left out: with it this file would be" in smaller
    assert '"city_map":null' in smaller


def _shot(page: Path, moment: datetime, png: Path, dark: bool) -> dict:
    env = os.environ | {"QT_QPA_PLATFORM": "offscreen", "QTWEBENGINE_DISABLE_SANDBOX": "1"}
    done = subprocess.run([sys.executable, "-m", "tests.widgets.phone_browser", str(page), moment.isoformat(), str(png),
                           *(["--dark"] if dark else [])], capture_output=True, text=True, env=env, cwd=ROOT, timeout=90)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _share(png: Path, hex_colour: str) -> float:
    image = QImage(str(png)).convertToFormat(QImage.Format.Format_RGB888)
    raw = np.frombuffer(image.constBits(), dtype=np.uint8)
    pixels = raw.reshape(image.height(), image.bytesPerLine())[:, : image.width() * 3].reshape(
        image.height(), image.width(), 3)
    rgb = np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)])
    return float(np.all(np.abs(pixels.astype(int) - rgb) <= 4, axis=-1).mean())


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_phone_screen_in_light_and_dark(paris, tmp_path, scheme):
    """At 360×740 with the clock in the Louvre visit: the screenshot shows Now and Next, in the
    page's light or dark colours (the page's background and the Now card's)."""
    shots = Path(os.environ.get("TRIPWRIGHT_PHONE_SHOTS", tmp_path))
    page = tmp_path / "paris-phone.html"
    page.write_text(itinerary_to_phone(paris), encoding="utf-8")
    louvre = next(a for a in paris.days[1].activities if a.name == "Musée du Louvre")
    png = shots / f"phone-{scheme}.png"
    state = _shot(page, louvre.start + timedelta(minutes=15), png, dark=scheme == "dark")

    assert state["dark"] is (scheme == "dark") and state["now"] == "Musée du Louvre" and state["next"]
    assert QImage(str(png)).size().toTuple() == PHONE_SIZE
    background, now_card = ("#121418", "#15301a") if scheme == "dark" else ("#f6f6f3", "#e6f4e7")
    assert _share(png, background) > 0.02 and _share(png, now_card) > 0.03


def test_a_cached_city_of_the_same_name_elsewhere_lends_the_phone_no_map(paris, lisbon, tmp_path):  # noqa: F811
    """A pack named like the trip's city but somewhere else ("Paris" finds a Paris, TX too) is not its map."""
    _, home = lisbon
    elsewhere = PackStore(home).find("Lisbon").model_copy(update={"slug": "paris_pt", "name": "Paris",
                                                                  "label": "Paris, PT"})
    store = PackStore(tmp_path / "packs")
    store.save(elsewhere)
    assert store.find("Paris") is not None
    page = itinerary_to_phone(paris, packs=store)
    assert '"city_map":null' in page and "no city map is stored for this trip" in page


def test_street_tiles_from_the_offline_copy_are_drawn_and_fetch_nothing(qtbot, open_phone, paris, tmp_path):
    """The trip's offline copy (a real vector PMTiles archive) travels in the page: protomaps-leaflet
    paints its water where the archive puts it, from the page's own bytes."""
    from tests.widgets.test_pmtiles_basemap import WATER, paris_archive

    folder = tmp_path / "offline_maps"
    folder.mkdir()
    paris_archive(folder / "paris-trip.pmtiles")
    louvre = next(a for a in paris.days[1].activities if a.name == "Musée du Louvre")
    view, page, requests = open_phone(itinerary_to_phone(paris, offline_maps=folder), louvre.start)
    lake = WATER.name()  # the archive's made-up lake under central Paris, in protomaps' light flavour

    def painted() -> float:
        png = tmp_path / "tiles.png"
        view.grab().save(str(png))
        return _share(png, lake)

    qtbot.waitUntil(lambda: painted() > 0.01, timeout=10_000)
    assert "Test vector tiles" in run_js(qtbot, view, "JSON.stringify(document.querySelector("
                                                      "'.leaflet-control-attribution').textContent)")
    assert page.errors == [] and {Path(QUrl(u).toLocalFile()).name for u in requests.urls} == {"trip-phone.html"}


def test_each_day_shows_its_own_map_and_a_row_shows_its_stop(qtbot, open_phone, paris):
    """The one map moves to the day whose "Show the map" is tapped and shows that day's pins; tapping
    a stop's row centres the map on it and names it."""
    louvre = next(a for a in paris.days[1].activities if a.name == "Musée du Louvre")
    view, page, _ = open_phone(itinerary_to_phone(paris), louvre.start)
    orsay = next(a for a in paris.days[2].activities if a.name == "Musée d'Orsay")
    shown = run_js(qtbot, view, """(function () {
      document.querySelectorAll('.tw-day')[2].querySelector('.tw-map-button').click();
      var days = Array.from(document.querySelectorAll('.tw-day'));
      var where = days.findIndex(function (d) { return d.querySelector('.tw-map'); });
      var pins = Array.from(document.querySelectorAll('.tw-map .leaflet-marker-icon.tw-icon')).length;
      var row = Array.from(days[2].querySelectorAll('.tw-item-stop'))
        .find(function (r) { return r.querySelector('.tw-row-name').textContent === %s; });
      row.click();
      var tip = document.querySelector('.leaflet-tooltip-pane .tw-tip-title');
      return JSON.stringify({where: where, pins: pins, open: days[2].open, tip: tip && tip.textContent,
                             button: days[1].querySelector('.tw-map-button').hidden});
    })()""" % json.dumps(orsay.shown_name))
    day3 = [a for a in paris.days[2].activities if a.geo is not None and a.kind.value != "flight"]
    assert shown == {"where": 2, "pins": len(day3), "open": True, "tip": orsay.shown_name, "button": False}
    assert page.errors == []


def test_on_a_train_between_two_cities_now_is_the_train_and_next_is_the_check_in(qtbot, open_phone):
    from tests.multi_city_trip import multi_city_itinerary
    from zoneinfo import ZoneInfo
    made = multi_city_itinerary()  # by hand: each day on its stay's clock, as the run writes it (Lisbon = Porto's)
    itin = made.model_copy(update={"days": [d.model_copy(update={"tz": "Europe/Lisbon"}) for d in made.days]})
    day, train = next((n, a) for n, d in enumerate(itin.days) for a in d.activities if a.role == "leg")
    on_board = datetime.combine(itin.days[day].date, train.window.start, ZoneInfo("Europe/Lisbon")) + timedelta(minutes=40)
    view, page, _ = open_phone(itinerary_to_phone(itin), on_board)
    state = run_js(qtbot, view, STATE)
    assert state["now"] == train.shown_name and state["row_now"].startswith(train.shown_name)
    after = min((a for a in itin.days[day].activities if a.kind.value != "transit" and a.window.start >= train.window.end),
                key=lambda a: a.window.start)
    assert state["next"] == after.shown_name and state["today"] == [day]
    assert page.errors == []
