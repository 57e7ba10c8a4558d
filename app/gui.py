"""Desktop entry: one QApplication, one qasync loop, the main window.

``run_gui(script=...)`` runs a coroutine ``script(window) -> int`` inside the app's one loop and
exits with its result (``tripwright screenshot`` and the bench use it). With
``TRIPWRIGHT_QUIT_WHEN_READY=1`` the app prints ``map-ready <seconds since start>`` once the map
page is interactive and quits (the cold-start benchmark and smoke tests).
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from typing import Awaitable, Callable

READY_ENV = "TRIPWRIGHT_QUIT_WHEN_READY"
Script = Callable[[object], Awaitable[int]]

GUI_SWITCH_INTERVAL_S = 0.0005


def run_gui(script: Script | None = None, *, size: tuple[int, int] | None = None,
            use_store: bool | None = None) -> int:
    """``use_store``: open the trip store (default: yes for the app, no for a script such as the
    screenshot tool, which must not touch the user's trips)."""
    started = time.perf_counter()
    from app.heap import hold_collections

    hold_collections()  # until the engine is warm (app.heap): start-up loads what lives all session
    # The GUI thread crosses into Qt and back (giving up and taking the GIL) many times an event;
    # while the engine's thread computes, each taking waits up to the switch interval (5 ms by
    # default): a 150-place import stalled the GUI 130–260 ms that way. 0.5 ms keeps it responsive.
    sys.setswitchinterval(GUI_SWITCH_INTERVAL_S)
    from app.desktop_libs import prepare_environment

    prepare_environment()
    from engine.log_setup import configure

    configure(0)  # warnings and errors to stderr; stdout stays for `map-ready` and scripts
    import PySide6.QtWebEngineWidgets  # noqa: F401  (must precede the QApplication)
    import qasync
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    from app.error_box import ErrorReporter
    from app.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Tripwright")
    app.setOrganizationName("Tripwright")
    from app.pdf_fonts import with_script_fallbacks
    app.setFont(with_script_fallbacks(app.font()))  # local names in other scripts, not boxes (issue 32)

    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    window = MainWindow(use_store=script is None if use_store is None else use_store,
                        remember_layout=script is None and size is None)  # scripted runs keep the default layout
    reporter = ErrorReporter(lambda: window)
    reporter.install(loop)
    if size is not None:
        window.resize(*size)
    window.show()
    outcome: dict[str, int] = {}
    if script is not None:
        _start_script(loop, app, window, script, outcome)
    elif os.environ.get(READY_ENV) == "1":
        window.map_view.ready.connect(lambda: _report_ready(app, started))
    # The loop is entered exactly once: every exit emits aboutToQuit, and a second one
    # crashes QtWebEngine (docs/PLATFORM_NOTES.md). Closing the last window ends run_forever().
    with loop:
        exit_code = loop.run_forever()
        _abandon_pending(loop)
    sys.excepthook = sys.__excepthook__
    asyncio.set_event_loop(None)
    # Web views must be deleted while the QApplication still exists.
    window.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    window = None  # (not `del`: the error reporter's lambda still names it)
    return int(outcome.get("code", exit_code or 0))


def _abandon_pending(loop) -> None:
    """Quitting leaves flows unfinished on purpose (a store still opening, a warm-up): the loop
    cannot run again to cancel them, so they are dropped without the "destroyed but pending"
    report. Whatever they would have written is safe: every saved change is already committed."""
    for task in asyncio.all_tasks(loop):
        task._log_destroy_pending = False  # noqa: SLF001 — asyncio's own switch for this report


def _start_script(loop, app, window, script: Script, outcome: dict) -> None:
    async def main() -> None:
        try:
            outcome["code"] = int(await script(window))
        except Exception as exc:  # noqa: BLE001 — a failed script is a one-line error, exit 1
            print(f"tripwright: {type(exc).__name__}: {' '.join(str(exc).split())}", file=sys.stderr)
            outcome["code"] = 1
        finally:
            window.controller.cancel()
            app.quit()

    loop.call_soon(lambda: setattr(window, "_script_task", loop.create_task(main())))


def _report_ready(app, started: float) -> None:
    from PySide6.QtCore import QTimer

    print(f"map-ready {time.perf_counter() - started:.3f}", flush=True)
    QTimer.singleShot(100, app.quit)
