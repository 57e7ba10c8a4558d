"""Issue 32 §6, the window a traveller trusts, driven through the real main window over its real
map page (offscreen): a row click keeps the side panel's tab, the map shows one tooltip at a time,
and each planning run's bar starts at 0 %. Saves the screens it checks under /tmp/trust-*.png."""

from __future__ import annotations

from tests.app.test_main_window import PARIS, plan
from tests.widgets.test_map_view import run_js, state

OPEN_TIPS = "JSON.stringify(document.querySelectorAll('.leaflet-tooltip').length)"


def _activities(window) -> list:
    itinerary = window.itinerary_panel.itinerary()
    return [a for d in itinerary.days for a in d.activities
            if a.role != "transfer" and a.id in window.map_view._markers]  # noqa: SLF001


def test_selecting_rows_and_hovering_markers_leaves_one_tooltip(qtbot, make_window):
    window = make_window(size=(1400, 900))
    plan(qtbot, window, PARIS)
    panel = window.itinerary_panel
    stops = _activities(window)[:4]
    assert len(stops) == 4
    for stop in stops:  # as clicks on the rows do: the map pans to each and opens its tooltip
        panel.tree.setCurrentIndex(panel.model.activity_index(stop.id))
        qtbot.waitUntil(lambda s=stop: state(qtbot, window.map_view)["highlighted"] == s.id, timeout=5_000)
        qtbot.waitUntil(lambda: run_js(qtbot, window.map_view, OPEN_TIPS) >= 1, timeout=5_000)
        qtbot.wait(400)  # a closed tooltip fades out for 200 ms before it leaves the page
        assert run_js(qtbot, window.map_view, OPEN_TIPS) == 1
    other = _activities(window)[5].id  # hovering another marker: its tooltip replaces the selection's
    run_js(qtbot, window.map_view, f"tripwright.marker({other!r}).fire('mouseover'); JSON.stringify(1)")
    qtbot.wait(400)
    assert run_js(qtbot, window.map_view, OPEN_TIPS) == 1
    assert run_js(qtbot, window.map_view,
                  f"JSON.stringify(tripwright.marker({other!r}).isTooltipOpen())") is True
    window.grab().save("/tmp/trust-one-tooltip.png")


def test_each_planning_run_starts_its_bar_at_zero(qtbot, make_window):
    window = make_window(size=(1400, 900))
    plan(qtbot, window, PARIS)
    assert window.progress.progress_bar.value() == 100
    seen: list[int] = []
    start_run = window.progress.start_run

    def start_and_look(*args, **kwargs):
        start_run(*args, **kwargs)
        seen.append(window.progress.progress_bar.value())
        window.grab().save("/tmp/trust-progress-start.png")

    window.progress.start_run = start_and_look
    plan(qtbot, window, PARIS.model_copy(update={"budget_usd_cents": 350000}))
    assert seen == [0]
    assert window.progress.progress_bar.value() == 100
