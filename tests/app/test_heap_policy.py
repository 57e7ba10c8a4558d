"""app.heap: the app's process keeps full garbage collections off the user's path (issue 14 §3:
a 65-125 ms full collection in the planner thread stalled the GUI thread for as long). Checked
through the real entry (``run_gui``) in a process of its own, since the policy is process-wide;
and a window made any other way (these tests' windows) leaves the collector alone."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from app import heap

REPO = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent("""
    import asyncio, gc, json, sys
    from app.gui import run_gui

    seen = {}

    async def script(window):
        seen["held_at_start"] = not gc.isenabled()
        while not window.controller.warmed_up:
            await asyncio.sleep(0.02)
        seen["after_warm_up"] = [gc.isenabled(), gc.get_freeze_count(), gc.get_threshold()[2]]
        window.open_example("road")
        while window.trip.current is None:
            await asyncio.sleep(0.05)
        while window.controller.busy:
            await asyncio.sleep(0.02)
        seen["after_plan"] = [gc.isenabled(), gc.get_freeze_count()]
        return 0

    code = run_gui(script, size=(1200, 800))
    print(json.dumps(seen))
    sys.exit(code)
""")


def test_the_app_holds_collections_until_warm_then_freezes_after_each_plan(tmp_path):
    env = {**os.environ, "TRIPWRIGHT_HOME": str(tmp_path), "TRIPWRIGHT_OFFLINE": "1",
           "QT_QPA_PLATFORM": "offscreen", "QTWEBENGINE_DISABLE_SANDBOX": "1"}
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["held_at_start"] is True
    enabled, frozen, full_every = seen["after_warm_up"]
    assert enabled and frozen > 100_000 and full_every == heap.FULL_COLLECTION_EVERY
    enabled, frozen_after_plan = seen["after_plan"]
    assert enabled and frozen_after_plan > frozen  # the plan's objects joined the frozen ones


def test_a_window_outside_the_app_entry_leaves_the_collector_alone(make_window):
    before = (gc.isenabled(), gc.get_freeze_count(), gc.get_threshold())
    window = make_window()
    heap.settle()  # what the controller calls after its warm-up and after each plan
    assert window.controller is not None
    assert (gc.isenabled(), gc.get_freeze_count(), gc.get_threshold()) == before


def test_a_new_plan_reaches_the_panel_after_the_map_has_painted_it(qtbot, make_window, gui_loop):
    """The controller's wait (``app.map_probe.painted``) ends with the page's report, well before
    its time limit, on the app's own loop."""
    import time

    from app.map_probe import painted
    from app.trip_controller import MAP_PAINT_WAIT_S
    from tests.app.conftest import wait_task
    from tests.widgets.test_map_layers import road_trip

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:  # the engine plans on its own loop, not the GUI's
        itinerary = pool.submit(road_trip).result()
    window = make_window()
    began = time.perf_counter()
    window.map_view.show_itinerary(itinerary)
    assert wait_task(qtbot, gui_loop.create_task(painted(window.map_view, 10.0))) is True
    assert time.perf_counter() - began < 10.0 and MAP_PAINT_WAIT_S <= 0.5
