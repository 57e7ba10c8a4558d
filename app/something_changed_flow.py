"""Plan ▸ Something changed… (issue 36 §2): the open trip re-planned from now on around one change
(``engine/replan_now``; a road trip: a late start or a skipped stop), asked in
``widgets/something_changed_dialog.py``.

The re-plan runs in a worker thread (the trip's tool answers read again as-of its planning day,
then the bounded repair), never on the GUI thread; the new version is recorded in the store as a
run of its own (``TripLibrary.begin``/``finish``, its note "Something changed: …") and pushed on the
trip's history, so Edit ▸ Undo goes back to the plan before it. What changed is said in one line
in the message bar ("Musée Rodin replaces Musée du Louvre today at 14:25; the rest unchanged.").
A value the engine cannot read is said under the dialog's field (the dialog stays open); a change
that cannot be applied (no such place ahead, not during the trip, …) is one line in the message
bar, and the open trip is unchanged.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, time
from zoneinfo import ZoneInfo

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction

from engine.errors import TripwrightError, one_line

from .library import Reused
from .trip_session import TripVersion


class SomethingChanged(QObject):
    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.action = QAction("Something &changed\u2026", window)
        self.action.setStatusTip("A flight is late, a place is closed, rain, done for today…: re-plan the "
                                 "trip under way from now on, keeping what still works")
        self.action.triggered.connect(self.ask)
        self.dialog = None
        self.task: asyncio.Future | None = None
        self.refresh()

    def refresh(self) -> None:
        self.action.setEnabled(_replannable(self.window.trip.current))

    # -- asking -----------------------------------------------------------------------------------
    def ask(self):
        from widgets.something_changed_dialog import SomethingChangedDialog
        from engine.replan_now.road import ROAD_KINDS
        version = self.window.trip.current
        if not _replannable(version):
            self.window.show_message("Something changed… works on a planned trip.", "info")
            return None
        if self.dialog is not None:
            self.dialog.close()
        now = default_moment(version)
        self.dialog = SomethingChangedDialog(self.window, places_ahead(version, now), now,
                                             kinds=ROAD_KINDS if version.mode == "road_trip" else None)
        self.dialog.accepted.connect(lambda d=self.dialog: self.start(version, *d.choice()))
        self.dialog.open()
        return self.dialog

    def start(self, version: TripVersion, kind: str, value: str | None, now: datetime) -> asyncio.Future:
        self.task = asyncio.ensure_future(self.replan(version, kind, value, now))
        return self.task

    # -- re-planning ------------------------------------------------------------------------------
    async def replan(self, version: TripVersion, kind: str, value: str | None, now: datetime) -> TripVersion | None:
        from engine.frontend import settled_result
        w = self.window
        w.show_status("Re-planning from now\u2026")
        try:
            result = await asyncio.to_thread(_replanned, version, kind, value, now, w.planning.catalog,
                                             w.planning.notes)
        except TripwrightError as exc:
            w.show_message(f"Not re-planned: {one_line(exc)}", "error")
            return None
        if not result.ok:
            left = "; ".join(v.details.get("message", v.reason) for v in result.violations if v.blocking)
            w.show_message(f"Not re-planned: {left}. The trip is unchanged.", "error")
            return None
        if w.trip.current is not version:  # another version came meanwhile: this answer is stale
            return None
        edit = f"Something changed: {result.disruption.words()}"
        recording = await w.library.begin(result.itinerary.intent, new_trip=False,
                                          request_key=f"replan-now|{kind}|{value}|{now:%Y-%m-%dT%H:%M}")
        if isinstance(recording, Reused):  # the same change was saved moments ago
            w.show_status("This change was re-planned a moment ago: Edit ▸ Undo/Redo shows its version.", 10_000)
            return None
        run = settled_result(run_id=recording.ticket.run_id if recording is not None else "",
                             trace_id=result.itinerary.trace_id, status="completed", events=[],
                             itinerary=result.itinerary, plan=result.plan)
        fresh = await w.library.finish(recording, run, result.itinerary.intent,
                                       TripVersion.of(run, result.itinerary.intent, edit))
        w.library.adopt(recording)
        pushed = w.trip.push(fresh)
        w.show_on_map(pushed, keep_view=True)
        w.show_version(pushed)
        w.last_change = f"{edit}. {result.glance}"
        w.show_message(result.glance, "info")
        return pushed


def _replannable(version: TripVersion | None) -> bool:
    """A planned city trip (with the plan its edits start from) or a road trip."""
    return version is not None and (version.mode == "road_trip" or version.plan is not None)


def _replanned(version: TripVersion, kind: str, value: str | None, now: datetime, catalog, notes):
    """``notes``: the planning session's (the signed-in org's): the new version cites them as a plan does."""
    from engine.replan_now import load_trip_state, parse_disruption, replan_from_now
    change = parse_disruption(kind, value, field="details")
    if version.mode == "road_trip":  # a late start or a skipped stop (engine/replan_now/road.py)
        from engine.replan_now.road import replan_road_from_now
        return replan_road_from_now(version.itinerary, now, change, field_name="from", value_field="details",
                                    catalog=catalog)
    state = load_trip_state(version.itinerary, version.plan, catalog=catalog)
    return replan_from_now(state, now, change, field_name="from", value_field="details", notes=notes)


def default_moment(version: TripVersion) -> datetime:
    """The device's clock on the trip's clock when the trip is under way; else its first day at 09:00."""
    first = version.itinerary.days[0] if version.itinerary.days else None
    zone = version.intent.date_window.tz if version.mode == "city" else (first.tz if first and first.tz else "UTC")
    tz = ZoneInfo(zone)
    here = datetime.now(tz).replace(tzinfo=None, second=0, microsecond=0)
    days = [d.date for d in version.itinerary.days]
    if days and days[0] <= here.date() <= days[-1]:
        return here
    return datetime.combine(days[0], time(9, 0)) if days else here


def places_ahead(version: TripVersion, now: datetime) -> list[str]:
    """The names of the visits and meals still ahead of ``now`` (the dialog offers them); on a
    road trip the nights too (a town with no beds tonight: the night moves on)."""
    roles = ("activity", "meal", "checkin") if version.mode == "road_trip" else ("activity", "meal")
    out: list[str] = []
    for day in version.itinerary.days:
        for a in day.activities:
            if a.role in roles and datetime.combine(day.date, a.window.start) >= now \
                    and a.name not in out:
                out.append(a.name)
    return out


__all__ = ["SomethingChanged", "default_moment", "places_ahead"]
