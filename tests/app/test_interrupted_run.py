"""After a restart the window shows the stored status of the open trip's interrupted last run
(SPEC_DECISIONS §1's polling fallback): "Last run interrupted while <step>, <time>"."""

from __future__ import annotations

from datetime import datetime, timezone

from engine.store import PlanRecorder
from engine.store.records import RunStatus
from app.run_notice import interrupted_line
from tests.app.conftest import PLAN_TIMEOUT_MS
from tests.app.test_store_wiring import db_url, home, open_window, paris, plan, stored  # noqa: F401 (fixtures)
from tests.store.conftest import memory_keyring  # noqa: F401 (a fixture)


def _run(**changes) -> RunStatus:
    now = datetime(2027, 6, 1, 9, 30, tzinfo=timezone.utc)
    values = dict(run_id="r", trip_id="t", trace_id="x", status="error", progress_pct=25, latest_node="planner",
                  error_message="interrupted: Tripwright stopped while planning", cost_micro_usd=0,
                  created_at=now, updated_at=now, completed_at=now)
    return RunStatus(**(values | changes))


def test_the_line_names_the_node_and_the_last_progress_in_local_time() -> None:
    last = datetime(2027, 6, 1, 9, 41, tzinfo=timezone.utc)
    assert interrupted_line(_run(), last) == f"Last run interrupted while drafting the plan, {last.astimezone():%a %d %b %H:%M}"
    assert interrupted_line(_run(), None).endswith(f"{_run().created_at.astimezone():%H:%M}")
    assert interrupted_line(_run(status="completed", error_message=""), last) is None
    assert interrupted_line(_run(error_message="Unable to meet budget constraint"), last) is None


def test_a_reopened_trip_says_its_last_run_was_interrupted(qtbot, open_window, db_url):  # noqa: F811
    window = open_window()
    first = plan(qtbot, window, paris())
    trip_id = window.trip.trip_id
    window.close()
    # A re-plan of that trip starts, reports up to the planner, and its process dies.
    store, ctx = stored(db_url)
    with store:
        recorder = PlanRecorder(store, ctx)
        ticket = recorder.begin(paris(budget_usd_cents=350000), trip_id=trip_id)
        upto = next(i for i, e in enumerate(first.events) if e.node == "planner" and e.status.value == "completed")
        events = [e.model_copy(update={"run_id": ticket.run_id}) for e in first.events[:upto + 1]]
        recorder.record_events(ticket, events)
        ticket._lease.release()  # the lease goes with the process (tests/store/test_run_leases.py kills one)
    again = open_window()  # start-up fails the orphan, then reopens the trip that was shown
    qtbot.waitUntil(lambda: again.trip.current is not None, timeout=PLAN_TIMEOUT_MS)
    expected = f"Last run interrupted while drafting the plan, {events[-1].ts.astimezone():%a %d %b %H:%M}"
    qtbot.waitUntil(lambda: again.progress.status_label.text() == expected, timeout=10_000)
    assert again.statusBar().currentMessage() == expected
    assert again.trip.trip_id == trip_id and again.trip.current.number == 1  # the saved version is shown


def test_a_trip_whose_last_run_finished_shows_no_notice(qtbot, open_window):  # noqa: F811
    window = open_window()
    plan(qtbot, window, paris())
    window.close()
    again = open_window()
    qtbot.waitUntil(lambda: again.trip.current is not None, timeout=PLAN_TIMEOUT_MS)
    qtbot.wait(200)
    assert "interrupted" not in again.progress.status_label.text()
    assert "interrupted" not in again.statusBar().currentMessage()
