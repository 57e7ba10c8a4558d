"""Today in the window (issue 36 §1): when the trip shown is under way on the device's clock, the
window opens on the **Today** dock (tabbed with the Itinerary) and the map shows that day alone.

The clock is a seam: ``today_device_clock`` (module level, so a test or a demo can fix it before
the window reopens the last trip) or a window's own ``TodayFlow.clock``. The answer is read at
once with the in-process tools (hours, the leg from the hotel) and the plan's own weather; when
the network may be used, the live forecast is asked on a worker thread (its own event loop and
HTTP client, closed there) and shown when it comes. The panel is read again every minute.
Reading a trip never changes it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, date, datetime

import shiboken6
from PySide6.QtCore import Qt, QTimer

from engine.errors import TripwrightError
from engine.models import ItineraryV1
from engine.models.today import TodayV1, TodayWeather
from engine.net.network import offline_by_env
from engine.today_sources import today_offline_or_live, today_with_tools, trip_toolbox
from widgets.today_panel import TodayPanel

log = logging.getLogger(__name__)
REFRESH_MS = 60_000  # now / next / leave-in move with the clock


def today_device_clock() -> datetime:
    """The device's clock, aware (the seam: tests and demos replace it)."""
    return datetime.now(UTC)


class TodayFlow:
    def __init__(self, window) -> None:  # noqa: ANN001 (the MainWindow)
        self.w = window
        self.clock: Callable[[], datetime] | None = None  # None: today_device_clock
        self.panel = TodayPanel()
        self.dock = window._dock("Today", "today_dock", self.panel, Qt.DockWidgetArea.RightDockWidgetArea)  # noqa: SLF001 (the window's own dock factory)
        window.tabifyDockWidget(window.itinerary_dock, self.dock)
        self.dock.hide()
        self.today: TodayV1 | None = None
        self._opened_for: tuple | None = None  # the trip Today last opened on
        self._day_wanted: tuple[int, int] | None = None  # (map revision, day index)
        self._toolbox = None
        self._toolbox_key: tuple | None = None
        self._live: dict[tuple[str, date | None], TodayWeather] = {}
        self._asking: set[tuple[str, date | None]] = set()
        self.timer = QTimer(window)
        self.timer.setInterval(REFRESH_MS)
        self.timer.timeout.connect(self.refresh)
        window.map_view.drawn.connect(self._on_drawn)
        self.panel.show_day_requested.connect(self.show_day)
        self.panel.itinerary_requested.connect(self._show_itinerary)
        self.dock.visibilityChanged.connect(self._keep_hidden_without_a_day)
        self._add_to_view_menu()

    def now(self) -> datetime:
        return (self.clock or today_device_clock)()

    def trip_shown(self) -> None:
        """A version is on screen: show Today when its trip is under way (and, the first time
        this trip is shown, open on it with the day on the map)."""
        today = self.refresh()
        if today is None or not today.under_way:
            return
        version = self.w.trip.current
        key = (self.w.trip.trip_id, today.place, today.first_day, version.itinerary.intent.model_dump_json())
        if key != self._opened_for:
            self._opened_for = key
            self.dock.raise_()
            if today.day_index is not None:
                self.show_day(today.day_index)

    def refresh(self) -> TodayV1 | None:
        """Read the shown trip at the clock again; hide the dock when it is not under way."""
        version = self.w.trip.current
        if version is None:
            return self._hide()
        itinerary = version.itinerary
        if itinerary.intent.mode == "multi_city":  # Today reads one city or one road (TodayV1's modes)
            return self._hide()
        now = self.now()
        try:
            today = today_with_tools(itinerary, now, self._tools(itinerary, now))
        except TripwrightError as exc:  # an itinerary Today cannot read: no panel, said in the log
            log.warning("today: cannot read the trip: %s", exc)
            return self._hide()
        if not today.under_way:
            return self._hide()
        live = self._live.get((today.place, today.day_date))  # a forecast is of the place, not the version
        if live is not None:
            today = today.model_copy(update={"weather": live})
        self.today = today
        self.panel.set_today(today)
        self.dock.toggleViewAction().setEnabled(True)
        self.dock.show()
        if not self.timer.isActive():
            self.timer.start()
        if live is None:
            self._ask_forecast(itinerary, now, today)
        return today

    def show_day(self, index: int) -> None:
        """The map shows day ``index`` alone once it has painted the document now on it."""
        view = self.w.map_view
        self._day_wanted = (view.revision, index)
        if view.is_ready and view.drawn_revision >= view.revision:
            self._apply_day()

    def _on_drawn(self, revision: int) -> None:
        if self._day_wanted is not None and revision >= self._day_wanted[0]:
            self._apply_day()

    def _apply_day(self) -> None:
        if self._day_wanted is None:
            return
        index = int(self._day_wanted[1])
        self._day_wanted = None
        self.w.map_view.page().runJavaScript(f"window.tripwright && window.tripwright.showDay({index})")

    def _show_itinerary(self) -> None:
        self.w.itinerary_dock.show()
        self.w.itinerary_dock.raise_()

    def _hide(self) -> None:
        self.today = None
        self.timer.stop()
        self.panel.set_today(None)
        self.dock.hide()
        self.dock.toggleViewAction().setEnabled(False)
        return None

    def _keep_hidden_without_a_day(self, _visible: bool) -> None:
        """A window layout restored from the last session may show the dock (raised, or as a tab
        behind another) before any trip is open, or with one not under way: it stays hidden
        until there is a day to show."""
        if self.today is None and not self.dock.isHidden():
            QTimer.singleShot(0, lambda: self.dock.hide() if self.today is None else None)

    def _add_to_view_menu(self) -> None:
        """View ▸ Today beside the other docks (enabled while a trip is under way)."""
        view = next((a.menu() for a in self.w.menuBar().actions() if a.text().replace("&", "") == "View"), None)
        if view is None:
            return
        first_separator = next((a for a in view.actions() if a.isSeparator()), None)
        view.insertAction(first_separator, self.dock.toggleViewAction())
        self.dock.toggleViewAction().setEnabled(False)

    def _tools(self, itinerary: ItineraryV1, now: datetime):
        """One toolbox per city and date (the fixtures' and a cached pack's places)."""
        city = itinerary.intent.city if itinerary.intent.mode == "city" else ""
        key = (city, now.date())
        if key != self._toolbox_key:
            self._toolbox = trip_toolbox(itinerary, now, self.w.planning.catalog)
            self._toolbox_key = key
        return self._toolbox

    def _ask_forecast(self, itinerary: ItineraryV1, now: datetime, today: TodayV1) -> None:
        """The live forecast, once per trip and day, on a worker thread: only when the network may
        be used and an event loop runs (the app's); its answer replaces the plan's weather."""
        key = (today.place, today.day_date)
        if offline_by_env() or key in self._asking:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._asking.add(key)
        task = loop.create_task(asyncio.to_thread(today_offline_or_live, itinerary, now, self.w.planning.catalog))
        task.add_done_callback(lambda done: self._forecast_came(key, done))

    def _forecast_came(self, key: tuple[str, date | None], done: asyncio.Task) -> None:
        if done.cancelled() or not shiboken6.isValid(self.dock):  # the window closed meanwhile
            return
        if done.exception() is not None:
            log.warning("today: the live forecast failed: %s", done.exception())
            return
        weather = done.result().weather
        if weather is not None and weather.source == "live":
            self._live[key] = weather
            self.refresh()
