"""Trip ▸ Make this trip available offline… (issue 22 §1): the trip's area from the PMTiles archive
at Settings' ``offline_map_url`` (or ``TRIPWRIGHT_PMTILES_URL``) into
``<data dir>/offline_maps/<trip>.pmtiles``, which the map then draws whenever the trip is shown.

One flow on the qasync loop (the engine's async downloader; its slow steps run in threads, so the
window stays live): the size first (a question with Download / Cancel), then a progress dialog with
Cancel. A cancelled or interrupted download keeps what it fetched; choosing the action again
resumes. ``MapView.offline_copy_requested`` (a button on the map) starts the same flow.
"""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMessageBox, QProgressDialog

from engine.errors import InputError, PlanCancelled, TripwrightError
from engine.geo import BBox
from engine.maps.offline_area import AreaPlan, RangeReader, check_cap, mb, new_client, plan_area, trip_bbox
from engine.maps.offline_download import discard_part, download_area
from engine.cancel import CancelToken
from engine.settings import apply_env
from engine.net.network import offline_by_env

from .basemap_choice import forget_basemap, show_basemap, trip_offline_file

WHERE_TO_SET = ("no offline map source is set: put the URL of a .pmtiles archive (e.g. a Protomaps build) in "
                "Settings ▸ Offline map source (offline_map_url), or set TRIPWRIGHT_PMTILES_URL")


def trip_points(version) -> list[tuple[float, float]]:
    """The places the trip visits (flights left out: their far end is not the trip's area)."""
    return [(a.geo.lat, a.geo.lon) for day in version.itinerary.days for a in day.activities
            if a.geo is not None and a.kind.value != "flight"]


class OfflineCopy(QObject):
    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.action = QAction("Make this trip available &offline\u2026", window)
        self.action.setStatusTip("Download the trip's area of the street map (to zoom 15) for use without a network")
        self.remove_action = QAction("&Remove this trip's offline copy", window)
        self.action.triggered.connect(self.start)
        self.remove_action.triggered.connect(self.remove)
        window.map_view.offline_copy_requested.connect(self.start)
        self.confirm_box: QMessageBox | None = None
        self.progress_dialog: QProgressDialog | None = None
        self.task: asyncio.Future | None = None
        self.token: CancelToken | None = None
        self.busy = False  # one download at a time
        self.refresh()

    # -- state ----------------------------------------------------------------------------------
    def online(self) -> bool:
        """The network can be used: not offline by the setting, not found down by this session
        (the street map's switch is not asked: a copy is for when there is no network later)."""
        return not offline_by_env() and not self.window.planning.toolbox.network.offline()

    def refresh(self) -> None:
        has_trip = self.window.trip.current is not None
        self.action.setEnabled(has_trip and self.online() and not self.busy)
        self.action.setToolTip("" if self.online() else "Needs the network (offline now)")
        path = trip_offline_file(self.window.trip) if has_trip else None
        self.remove_action.setEnabled(bool(path and (path.exists() or path.with_name(path.name + ".part").exists())))

    # -- the flow -------------------------------------------------------------------------------
    def start(self) -> None:
        window, version = self.window, self.window.trip.current
        if version is None or self.busy:
            return
        if not self.online():
            window.show_message("Offline copy: the network cannot be used now (offline); try again when online.",
                                "warning")
            return
        settings = apply_env(window.settings)
        if not settings.offline_map_url:
            window.show_message(f"Offline copy: {WHERE_TO_SET}.", "warning")
            return
        try:
            bbox = trip_bbox(trip_points(version))
        except TripwrightError as exc:
            window.show_message(f"Offline copy: {exc}", "warning")
            return
        self.busy = True
        self.task = asyncio.ensure_future(self._run(settings.offline_map_url, bbox, settings.offline_map_cap_mb))
        self.refresh()

    async def _run(self, url: str, bbox: BBox, cap_mb: int) -> None:
        dest = trip_offline_file(self.window.trip)
        try:
            client = await asyncio.to_thread(new_client)  # its TLS context costs ~100 ms: off the GUI thread
            async with client:
                reader = RangeReader(url, client)
                self.window.show_status("Offline copy: working out the size of the trip's area\u2026")
                plan = await plan_area(reader, bbox)
                check_cap(plan, cap_mb)
                if not await self._confirm(plan):
                    self.window.show_status("Offline copy: not downloaded.", 5000)
                    return
                self.token = CancelToken()
                self._show_progress(plan)
                await download_area(plan, reader, dest, cap_mb=cap_mb, progress=self._progress, cancel=self.token)
        except PlanCancelled:
            self.window.show_message("Offline copy cancelled; what was fetched is kept: choose "
                                     "Trip \u25b8 Make this trip available offline\u2026 again to resume.")
            return
        except TripwrightError as exc:
            self.window.show_message(f"Offline copy: {_one_line(exc)}", "error")
            return
        finally:
            self.busy = False
            self._close_progress()
            self.refresh()
        forget_basemap(self.window)  # the same path may hold a new file: draw it again
        show_basemap(self.window, self.window.settings)
        self.window.show_message(f"This trip is available offline: {mb(dest.stat().st_size)} of map "
                                 f"(zoom {plan.min_zoom}\u2013{plan.max_zoom}) in {dest.name}; the map uses it "
                                 "whenever the trip is shown.")
        self.refresh()

    async def _confirm(self, plan: AreaPlan) -> bool:
        box = QMessageBox(QMessageBox.Icon.Question, "Make this trip available offline",
                          f"Download about {mb(plan.total_bytes)} of map for this trip?", parent=self.window)
        box.setInformativeText(f"{plan.tile_count:,} tiles, zoom {plan.min_zoom}\u2013{plan.max_zoom}, covering "
                               f"{plan.bbox.label()}. The copy is kept in your data folder.")
        self.download_button = box.addButton("Download", QMessageBox.ButtonRole.AcceptRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setWindowModality(Qt.WindowModality.WindowModal)
        answer: asyncio.Future = asyncio.get_running_loop().create_future()
        box.finished.connect(lambda _code: answer.done() or answer.set_result(box.clickedButton()))
        self.confirm_box = box
        box.open()
        try:
            return await answer is self.download_button
        finally:
            self.confirm_box = None
            box.deleteLater()

    def _show_progress(self, plan: AreaPlan) -> None:
        dialog = QProgressDialog(f"Downloading the trip's map ({mb(plan.total_bytes)})\u2026", "Cancel",
                                 0, 1000, self.window)
        dialog.setWindowTitle("Make this trip available offline")
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        dialog.setMinimumDuration(0)
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.canceled.connect(self.cancel)
        dialog.show()
        self.progress_dialog = dialog

    def _progress(self, done: int, total: int) -> None:
        if self.progress_dialog is not None and total:
            self.progress_dialog.setValue(int(done * 1000 / total))
            self.progress_dialog.setLabelText(f"Downloading the trip's map: {mb(done)} of {mb(total)}")

    def _close_progress(self) -> None:
        if self.progress_dialog is not None:
            self.progress_dialog.canceled.disconnect(self.cancel)
            self.progress_dialog.close()
            self.progress_dialog.deleteLater()
            self.progress_dialog = None

    def cancel(self) -> None:
        if self.token is not None:
            self.token.cancel()

    def remove(self) -> None:
        path = trip_offline_file(self.window.trip)
        if path is None:
            return
        discard_part(path)
        path.unlink(missing_ok=True)
        forget_basemap(self.window)
        show_basemap(self.window, self.window.settings)
        self.window.show_status("This trip's offline copy was removed.", 5000)
        self.refresh()


def _one_line(exc: TripwrightError) -> str:
    text = exc.message if isinstance(exc, InputError) else str(exc)  # the field name is for the CLI
    return " ".join(text.split()).removeprefix("offline map: ")
