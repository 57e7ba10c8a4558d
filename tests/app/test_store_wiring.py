"""The window over a real SQLite trip store: signed in on first run, every plan and edit saved as
a version with its run recorded live, the trip list (open, rename, delete with undo), the same
request answered from the store, the open trip restored in a new window, orphaned runs failed at
start, a login when the account has a password, and an unusable database that loses nothing."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QDockWidget

from engine.models import IntentV1
from engine.store import Accounts, SecretStore, Store
from app.trip_session import TripVersion
from tests.app.conftest import LOAD_TIMEOUT_MS, PLAN_TIMEOUT_MS, wait_task
from tests.app.test_edit_replan import KINGMAN
from tests.app.test_main_window import ROUTE66
from tests.engine.conftest import PARIS_DEMO as PARIS
from tests.store.conftest import FAST_HASHER, PASSWORD, memory_keyring  # noqa: F401 (a fixture)


AMARILLO = (35.20, -101.85)


@pytest.fixture
def home(tmp_path, monkeypatch, memory_keyring):  # noqa: F811 (the imported fixture)
    """A data dir of this test's own (the open-trip file lives there) and a database in it."""
    monkeypatch.setenv("TRIPWRIGHT_HOME", str(tmp_path))
    return tmp_path


@pytest.fixture
def db_url(home) -> str:
    return f"sqlite:///{home}/trips.db"


@pytest.fixture
def open_window(qtbot, make_window, db_url, home):
    """A window signed in to the test's store (the start-up flow has run)."""

    def make(**options):
        window = make_window(use_store=True, store_url=db_url, settings_path=home / "settings.json", **options)
        qtbot.waitUntil(lambda: window.library.ready, timeout=LOAD_TIMEOUT_MS)
        return window

    return make


def plan(qtbot, window, intent) -> object:
    return wait_task(qtbot, window.controller.plan_intent(intent))


def stored(db_url):
    """A second, independent connection to the test's database (what another process sees)."""
    store = Store.open(db_url)
    ctx = Accounts(store, SecretStore()).first_run()
    return store, ctx


def paris(**changes) -> IntentV1:
    return IntentV1.model_validate({**PARIS, **changes})


def listed(qtbot, window, count: int) -> list:
    qtbot.waitUntil(lambda: window.trip_list.model.rowCount() == count, timeout=5_000)
    model = window.trip_list.model
    return [model.trip(trip_id) for trip_id in model.trip_ids()]


def test_first_run_signs_in_and_shows_who_and_where(qtbot, open_window):
    window = open_window()
    assert window.library.active and window.library.workspace.identity.org_name.endswith("(personal)")
    assert "(personal)" in window.user_label.text() and window.database_label.text() == "SQLite"
    assert "trips.db" in window.database_label.toolTip()
    dock = {d.objectName(): d for d in window.findChildren(QDockWidget)}["trips_dock"]
    assert dock.isVisibleTo(window) and dock.isEnabled()
    assert window.trip_list.model.rowCount() == 0 and window.trip_list.empty_label.isVisibleTo(window.trip_list)
    assert not window.commands.sign_out.isEnabled()  # a personal user without a password cannot sign out
    # Real tool answers go to the org's tool cache (the executor's durable L2); logs name the org.
    executor = window.planning.toolbox.executor
    assert executor.durable is not None and window.planning.org_id == window.library.workspace.ctx.org_id
    executor.durable.put("k" * 64, "weather", {"days": []}, 60.0)
    assert executor.durable.get("k" * 64) == {"days": []}


def test_plans_and_edits_are_saved_as_versions_with_their_runs(qtbot, open_window, db_url):
    window = open_window()
    first = plan(qtbot, window, paris())
    assert first is not None and first.number == 1 and window.trip.trip_id
    (trip,) = listed(qtbot, window, 1)
    assert trip.trip_id == window.trip.trip_id and trip.name == "Paris, 5 days \u00b7 15\u201319 Jun 2027" and trip.mode == "city"
    venue = next(a for d in first.itinerary.days for a in d.activities if a.role == "activity")
    locked = wait_task(qtbot, window.controller.marker_action(venue.id, "lock"))
    assert locked is not None and locked.number == 2
    store, ctx = stored(db_url)
    with store, store.org(ctx) as repo:
        versions = repo.versions.list(window.trip.trip_id)
        assert [v.number for v in versions] == [1, 2]
        v2 = repo.versions.get(window.trip.trip_id, 2)
        assert v2.note == locked.edit and v2.plan_v1() is not None  # the next edit starts from it
        run = repo.runs.status(v2.run_id)
        assert run.status == "completed" and run.run_id == locked.itinerary.run_id
        replayed = repo.runs.replay(v2.run_id)
        assert [e.seq for e in replayed] == [e.seq for e in locked.events]  # recorded live, all of them


def test_the_same_request_twice_is_answered_from_the_store(qtbot, open_window, db_url):
    window = open_window()
    first = plan(qtbot, window, paris())
    again = plan(qtbot, window, paris())
    assert again is not None and again.number == first.number == 1
    assert "Same request" in window.statusBar().currentMessage()
    replanned = wait_task(qtbot, window.controller.replan())  # Re-plan always runs anew...
    assert replanned.number == 1 and "nothing changed" in window.statusBar().currentMessage()
    store, ctx = stored(db_url)
    with store, store.org(ctx) as repo:  # ...but a plan that changed nothing is no new version (issue 22 §2.3)
        assert [v.number for v in repo.versions.list(window.trip.trip_id)] == [1]


def test_a_double_click_on_plan_runs_once(qtbot, open_window, db_url):
    window = open_window()
    first = window.controller.plan_intent(paris())
    qtbot.waitUntil(lambda: window.controller.busy, timeout=5_000)
    second = window.controller.plan_intent(paris())
    assert wait_task(qtbot, second) is None and "Already planning" in window.statusBar().currentMessage()
    version = wait_task(qtbot, first)
    assert version is not None and version.number == 1
    store, ctx = stored(db_url)
    with store, store.org(ctx) as repo:
        assert [v.number for v in repo.versions.list(window.trip.trip_id)] == [1]


def test_another_city_is_another_trip_with_its_own_history(qtbot, open_window):
    window = open_window()
    plan(qtbot, window, paris())
    paris_id = window.trip.trip_id
    rome = plan(qtbot, window, paris(city="Rome", airports=["FCO"], date_window={
        "start": "2027-06-15", "end": "2027-06-19", "tz": "Europe/Rome"}))
    assert rome is not None and window.trip.trip_id != paris_id and not window.trip.can_undo
    assert {t.name.split(" \u00b7 ")[0] for t in listed(qtbot, window, 2)} == {"Paris, 5 days", "Rome, 5 days"}


def test_a_new_window_reopens_the_trip_and_version_that_were_shown(qtbot, open_window):
    window = open_window()
    first = plan(qtbot, window, paris())
    venue = next(a for d in first.itinerary.days for a in d.activities if a.role == "activity")
    wait_task(qtbot, window.controller.marker_action(venue.id, "lock"))
    window.commands.undo.trigger()  # back to v1: that is what was on screen at "close"
    trip_id = window.trip.trip_id
    window.close()

    again = open_window()
    qtbot.waitUntil(lambda: again.trip.current is not None, timeout=PLAN_TIMEOUT_MS)
    assert again.trip.trip_id == trip_id and again.trip.current.number == 1 and again.trip.can_redo
    assert again.right_stack.currentWidget() is again.itinerary_panel
    assert again.trip_list.model.rowCount() == 1
    # The reopened version can be edited again: its plan came back from the store.
    edited = wait_task(qtbot, again.controller.marker_action(venue.id, "remove"))
    assert edited is not None and edited.number == 3


def reopened_from_the_list(qtbot, window, trip_id: str):
    """Open ``trip_id`` from the Trips dock, as a click on it does; the version shown then."""
    changes = window.trip.changes
    window.trip_list.open_requested.emit(trip_id)
    qtbot.waitUntil(lambda: window.trip.changes > changes, timeout=10_000)
    return window.trip.current


def test_undo_after_reopening_is_the_history_the_user_had(qtbot, open_window):
    """Issue 9: drag a stop (v2), undo, add a stop (v3), reopen the trip from the list, undo:
    back to v1 — not to the undone drag — with v1 read from the store only when undo reaches it."""
    window = open_window()
    plan(qtbot, window, ROUTE66)
    trip_id = window.trip.trip_id
    dragged = wait_task(qtbot, window.controller.anchor_dragged("d0-overnight", *KINGMAN))
    assert dragged.number == 2 and dragged.intent.stops == ["Kingman, AZ"]
    window.commands.undo.trigger()
    assert window.trip.current.number == 1
    added = wait_task(qtbot, window.controller.add_stop(*AMARILLO, "overnight"))
    assert added.number == 3 and added.intent.stops == ["Amarillo, TX"]

    shown = reopened_from_the_list(qtbot, window, trip_id)
    assert shown.number == 3 and window.trip.label() == "v3/3"  # the numbers the Trips list counts
    assert [v.number for v in window.trip.versions] == [1, 3]
    assert not isinstance(window.trip.versions[0], TripVersion)  # not read yet
    window.commands.undo.trigger()
    qtbot.waitUntil(lambda: window.trip.current.number == 1 and window.controller.fetching is None, timeout=10_000)
    back = window.trip.current
    assert back.intent.stops == [] and "Kingman" not in str([d.anchor.name for d in back.itinerary.days])
    assert window.itinerary_panel.itinerary() is back.itinerary and window.windowTitle().endswith("v1/3")
    assert window.statusBar().currentMessage().startswith("Undid: now at v1/3")
    window.commands.redo.trigger()  # v3 is loaded: at once
    assert window.trip.current.number == 3 and not window.commands.redo.isEnabled()
    window.commands.undo.trigger()
    window.close()

    again = open_window()  # the next start shows v1 again, with v3 ahead of it
    qtbot.waitUntil(lambda: again.trip.current is not None, timeout=PLAN_TIMEOUT_MS)
    assert again.trip.current.number == 1 and again.trip.can_redo and not again.trip.can_undo
    again.commands.redo.trigger()
    qtbot.waitUntil(lambda: again.trip.current.number == 3, timeout=10_000)
    assert again.trip.current.intent.stops == ["Amarillo, TX"]


def test_undo_pressed_twice_while_a_version_loads_goes_back_two(qtbot, open_window):
    window = open_window()
    first = plan(qtbot, window, paris())
    venues = [a for d in first.itinerary.days for a in d.activities if a.role == "activity"]
    wait_task(qtbot, window.controller.marker_action(venues[0].id, "lock"))
    third = wait_task(qtbot, window.controller.marker_action(venues[1].id, "remove"))
    assert third.number == 3
    reopened_from_the_list(qtbot, window, window.trip.trip_id)
    assert [isinstance(v, TripVersion) for v in window.trip.versions] == [False, False, True]
    window.commands.undo.trigger()
    window.commands.undo.trigger()  # before v2 has arrived: the second press goes on from v2
    qtbot.waitUntil(lambda: window.controller.fetching is None and window.trip.current.number == 1, timeout=10_000)
    assert window.trip.label() == "v1/3" and window.trip.current.edit == "Planned"
    assert window.itinerary_panel.itinerary() is window.trip.current.itinerary
    window.commands.redo.trigger()  # v2 was stepped over, so it is read now
    qtbot.waitUntil(lambda: window.trip.current.number == 2, timeout=10_000)
    assert window.trip.current.edit.startswith("Locked") and window.trip.label() == "v2/3"


def test_rename_delete_and_undo_from_the_trip_list(qtbot, open_window, db_url):
    window = open_window()
    plan(qtbot, window, paris())
    trip_id = window.trip.trip_id
    listed(qtbot, window, 1)
    window.trip_list.rename_requested.emit(trip_id, "Paris with Sam")
    qtbot.waitUntil(lambda: window.trip_list.model.trip(trip_id).name == "Paris with Sam", timeout=5_000)
    updated = window.trip_list.model.trip(trip_id).updated_at
    window.trip_list.delete_requested.emit(trip_id)
    qtbot.waitUntil(lambda: window.trip_list.pending_undo == trip_id, timeout=5_000)
    assert window.trip.current is None and window.right_stack.currentWidget() is window.welcome
    listed(qtbot, window, 0)
    window.trip_list.undo_delete()
    (back,) = listed(qtbot, window, 1)
    assert back.trip_id == trip_id and back.name == "Paris with Sam"
    assert back.updated_at == updated  # undoing the delete is no change to the trip (issue 14 §4)
    store, ctx = stored(db_url)
    with store, store.org(ctx) as repo:
        actions = [e.action for e in repo.audit_log()]
        assert {"trip_renamed", "trip_deleted", "trip_restored"} <= set(actions)
    window.trip_list.open_requested.emit(trip_id)
    qtbot.waitUntil(lambda: window.trip.trip_id == trip_id, timeout=5_000)
    assert window.trip.current.number == 1


def test_a_run_left_running_by_a_killed_app_is_failed_at_start(qtbot, open_window, db_url):
    store, ctx = stored(db_url)
    with store:
        from engine.store import PlanRecorder

        ticket = PlanRecorder(store, ctx).begin(paris())  # ...and the process died:
        ticket._lease.release()  # its lease goes with it (tests/store/test_run_leases.py kills one for real)
        run_id = ticket.run_id
    window = open_window()
    assert window.library.active
    store, ctx = stored(db_url)
    with store, store.org(ctx) as repo:
        run = repo.runs.status(run_id)
        assert run.status == "error" and "interrupted" in run.error_message


def _old_run(db_url, run_id: str, *, with_version: bool = False) -> None:
    """A finished run 45 days old (past the 30-day retention), optionally the maker of a version."""
    from datetime import datetime, timedelta, timezone

    from engine.store.schema import AgentRun
    store, ctx = stored(db_url)
    with store:
        with store.org(ctx) as repo:
            repo.runs.start(intent=paris(), trace_id="t", run_id=run_id)
            repo.runs.finish(run_id, "completed")
            if with_version:
                trip = repo.trips.create(f"trip of {run_id}")
                repo.versions.save(trip.trip_id, {"intent": PARIS, "days": []}, run_id=run_id)
        with store.system() as s:
            s.get(AgentRun, run_id).created_at = datetime.now(timezone.utc) - timedelta(days=45)


def _runs(db_url) -> set[str]:
    from engine.store.schema import AgentRun
    store, _ = stored(db_url)
    with store, store.system() as s:
        return {r.run_id for r in s.query(AgentRun)}


def test_old_runs_are_pruned_at_start_up_and_daily_while_the_app_runs(qtbot, open_window, db_url):
    _old_run(db_url, "old-at-start")
    window = open_window()
    assert "old-at-start" not in _runs(db_url)  # start-up
    assert window.library.prune_timer.isActive() and window.library.prune_timer.interval() == 24 * 3600 * 1000
    _old_run(db_url, "old-next-day")
    _old_run(db_url, "made-a-version", with_version=True)
    window.library.prune_timer.setInterval(50)  # a day, shortened: the same timer and slot
    qtbot.waitUntil(lambda: window.library.last_prune is not None, timeout=5_000)
    assert window.library.last_prune.runs == 1
    assert _runs(db_url) == {"made-a-version"}  # its version's history stays


def test_an_account_with_a_password_asks_to_sign_in(qtbot, open_window, db_url):
    store, ctx = stored(db_url)
    with store:
        Accounts(store, SecretStore(), hasher=FAST_HASHER).set_password(ctx, PASSWORD)
    window = open_window()
    dialog = window.library.login_dialog
    assert dialog is not None and not window.library.active and window.user_label.text() == "Not signed in"
    with Store.open(db_url) as again, again.org(ctx) as repo:
        from engine.store.schema import User

        address = repo.session.get(User, ctx.user_id).email
    dialog.email_edit.setText(address)
    dialog.password_edit.setText(PASSWORD)
    dialog.login_button.click()
    qtbot.waitUntil(lambda: window.commands.sign_out.isEnabled(), timeout=10_000)
    assert window.library.active and window.library.login_dialog is None and window.user_label.text() != "Not signed in"
    plan(qtbot, window, paris())
    listed(qtbot, window, 1)


def test_an_unusable_database_keeps_the_app_planning_in_memory(qtbot, make_window, home):
    (home / "broken.db").write_bytes(b"this is not a database" * 100)
    window = make_window(use_store=True, store_url=f"sqlite:///{home}/broken.db")
    qtbot.waitUntil(lambda: window.library.ready, timeout=LOAD_TIMEOUT_MS)
    assert "not being saved" in window.message_bar.text() and window.database_label.text() == "Not saving"
    assert (home / "broken.db").read_bytes() == b"this is not a database" * 100  # untouched: no backup
    version = plan(qtbot, window, paris())
    assert version is not None and version.number is None and window.trip.current is version


def test_a_damaged_database_is_restored_from_its_backup_and_the_app_says_so(qtbot, open_window, db_url, home):
    window = open_window()
    plan(qtbot, window, paris())
    window.close()
    with Store.open(db_url) as store:
        store.backup()
    (home / "trips.db").write_bytes(b"\x00" * 8192)  # damaged after the backup was taken
    again = open_window()
    message = again.message_bar.text()
    assert "Trips: the database" in message and "trips-damaged-" in message and "restored" in message
    assert again.library.active and len(listed(qtbot, again, 1)) == 1
    assert [p.name for p in home.glob("trips-damaged-*.db")]


def test_settings_change_units_and_home_airport(qtbot, open_window):
    window = open_window()
    dialog = window.open_settings()
    dialog.airport_edit.setText("CDG")
    index = dialog.unit_combo.findData("km")
    dialog.unit_combo.setCurrentIndex(index)
    dialog.save_button.click()
    qtbot.waitUntil(lambda: window.settings.distance_unit == "km", timeout=5_000)
    assert window.itinerary_panel.distance_unit == "km" and window.settings.home_airport == "CDG"
    assert window.map_view._distance_unit == "km"  # noqa: SLF001 — the map's day and corridor labels
    assert '"distance_unit": "km"' in (window.settings_path.read_text())
    assert window.intent_form.home_combo.currentData() == "CDG"


def test_an_export_is_audited_with_the_version_it_wrote(qtbot, open_window, db_url, home):
    window = open_window()
    plan(qtbot, window, paris())
    written = wait_task(qtbot, window.controller.export_to("json", str(home / "paris.json")))
    assert written is not None and written.exists()
    store, ctx = stored(db_url)

    def exported():
        with store.org(ctx) as repo:
            return [e for e in repo.audit_log(action="exported")]

    with store:
        qtbot.waitUntil(lambda: len(exported()) == 1, timeout=5_000)
        (entry,) = exported()
        assert entry.target_id == window.trip.trip_id and entry.detail == {"format": "json", "version": 1}


def test_settings_changes_are_audited_without_secrets(qtbot, open_window, db_url):
    window = open_window()
    dialog = window.open_settings()
    dialog.airport_edit.setText("FCO")
    dialog.key_edit.setText("sk-test-not-a-real-key-123456")
    dialog.save_button.click()
    store, ctx = stored(db_url)

    def actions():
        with store.org(ctx) as repo:
            return {e.action: e for e in repo.audit_log()}

    with store:
        qtbot.waitUntil(lambda: {"settings_changed", "api_key_set"} <= set(actions()), timeout=5_000)
        logged = actions()
        assert "home_airport" in str(logged["settings_changed"].detail)
        assert "sk-test" not in str([e.detail for e in logged.values()])


def test_relaunch_shows_opening_then_the_trip_never_the_welcome(qtbot, open_window, monkeypatch):
    """Issue 14 §3: until the store answers, the window says it is opening the trips (not the
    welcome page, not "In-memory"); a restored trip replaces that state directly."""
    from app.welcome import WelcomePanel

    window = open_window()
    plan(qtbot, window, paris())
    window.close()
    welcome_shown = []
    monkeypatch.setattr(WelcomePanel, "showEvent", lambda self, event: welcome_shown.append(self))
    again = open_window()
    qtbot.waitUntil(lambda: again.trip.current is not None, timeout=PLAN_TIMEOUT_MS)
    assert welcome_shown == [] and again.right_stack.currentWidget() is again.itinerary_panel
    assert again.database_label.text() == "SQLite"


def test_a_first_launch_leaves_the_opening_state_for_the_welcome(qtbot, open_window):
    window = open_window()  # waits until the store has answered
    qtbot.waitUntil(lambda: window.right_stack.currentWidget() is window.welcome, timeout=5_000)
    assert window.database_label.text() == "SQLite" and window.itinerary_dock.windowTitle() == "Welcome"


def test_the_trips_list_and_the_status_bar_count_versions_alike(qtbot, open_window):
    """Issue 14 §4: an undone branch is still a stored version, in the list and in "vN/M" alike."""
    window = open_window()
    plan(qtbot, window, ROUTE66)
    wait_task(qtbot, window.controller.anchor_dragged("d0-overnight", *KINGMAN))  # v2
    window.commands.undo.trigger()  # back to v1; v2 stays stored
    added = wait_task(qtbot, window.controller.add_stop(*AMARILLO, "visit"))  # v3, made from v1
    assert added.number == 3
    qtbot.waitUntil(lambda: window.trip_list.model.trip(window.trip.trip_id).version_count == 3, timeout=5_000)
    model = window.trip_list.model
    row = model.trip_ids().index(window.trip.trip_id)
    shown = [model.data(model.index(row, c)) for c in range(model.columnCount())]
    assert "3" in shown and window.trip.label() == "v3/3"
    assert window.windowTitle().endswith("v3/3") and window.statusBar().currentMessage().endswith("(v3/3)")
    window.commands.undo.trigger()
    assert window.trip.label() == "v1/3" and window.statusBar().currentMessage().startswith("Undid: now at v1/3")
