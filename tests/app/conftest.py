"""Fixtures for the app's flows: a qasync loop inside pytest-qt's event processing, and shown main
windows over a real map page.

The loop is created with ``already_running=True``: pytest-qt's waits pump Qt events, which run
qasync's callbacks, so ``@asyncSlot`` slots and the planner's hand-offs work without ever
calling ``run_until_complete`` (a second qasync run ends with ``aboutToQuit`` and crashes
QtWebEngine, docs/PLATFORM_NOTES.md). Teardown never calls ``loop.stop()``: it calls
``QApplication.exit()``, after which every ``QEventLoop.exec()`` (qtbot.wait) returns at once.
"""

from __future__ import annotations

import asyncio
from datetime import date

import pytest

from engine.pipeline import PlanningSession

TODAY = date(2026, 11, 23)
LOAD_TIMEOUT_MS = 20_000
PLAN_TIMEOUT_MS = 60_000  # the first road trip of a run builds the gazetteer index


@pytest.fixture(scope="session")
def _qasync_loop(qapp):
    """One qasync loop for the whole session, never closed: closing one tears down Qt notifiers
    and timers that events still queued in the QApplication may reach, and a new loop per test
    made pytest-qt's event processing crash now and then (seen once as a segfault in CI)."""
    import qasync

    loop = qasync.QEventLoop(qapp, already_running=True)
    _park(loop)
    yield loop
    loop.close()  # at the very end: stops its executor threads before Qt is torn down


def _park(loop) -> None:
    """Outside app tests the loop is not "running", so plain asyncio.run() still works."""
    loop._QEventLoop__is_running = False  # noqa: SLF001 — see the module docstring: no stop()
    asyncio.events._set_running_loop(None)
    asyncio.set_event_loop(None)


@pytest.fixture
def gui_loop(_qasync_loop, qtbot):
    loop = _qasync_loop
    loop._QEventLoop__is_running = True  # noqa: SLF001
    asyncio.events._set_running_loop(loop)
    asyncio.set_event_loop(loop)
    yield loop
    pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
    for task in pending:
        task.cancel()
    if pending:
        qtbot.waitUntil(lambda: all(t.done() for t in pending), timeout=5_000)
    _park(loop)


@pytest.fixture(scope="module")
def planning():
    """One engine session per module: its memo makes re-plans fast, as in the app."""
    return PlanningSession(today=TODAY)


@pytest.fixture
def make_window(qtbot, gui_loop, planning):
    """make_window(trip=None, session=None, size=..., **options): a shown MainWindow whose map
    page is ready; ``options`` go to MainWindow (``use_store``, ``store_url``, ``settings_path``)."""
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    from app.main_window import MainWindow

    windows = []

    def make(trip=None, session=None, size=(1400, 900), **options):
        window = MainWindow(trip=trip, planning=session or planning, **options)
        windows.append(window)
        window.resize(*size)
        with qtbot.waitSignal(window.map_view.ready, timeout=LOAD_TIMEOUT_MS):
            window.show()
        return window

    yield make
    # Flows still running end first: they must not outlive the windows they update.
    pending = [t for t in asyncio.all_tasks(gui_loop) if not t.done()]
    for task in pending:
        task.cancel()
    if pending:
        qtbot.waitUntil(lambda: all(t.done() for t in pending), timeout=5_000)
    for window in windows:
        window.controller.cancel()
        service = window.controller._service  # noqa: SLF001
        if service is not None:
            assert service.join(15), "a planner thread outlived the test"
        # Delete the web views now, while the QApplication still exists.
        window.close()
        window.library.close()
        window.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def wait_task(qtbot, task, timeout=PLAN_TIMEOUT_MS):
    """Wait for an asyncSlot's task and return its result."""
    qtbot.waitUntil(task.done, timeout=timeout)
    return task.result()
