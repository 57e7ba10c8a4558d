"""Issue 32 §2 through the window: Re-plan puts a day crossed back and forth in its shortest order,
says what it changed, and leaves the traveller's locks and placed visits where they are; Replace's
preview is the cost the plan then has."""

from __future__ import annotations

from app.map_edits import alternatives
from app.version_diff import signed_usd
from engine.planning.replan_order import day_metres
from tests.app.conftest import PLAN_TIMEOUT_MS, wait_task
from tests.app.test_main_window import PARIS, plan


def _slot(version, ref):
    """(day index, window) of the visit of ``ref`` in the version's plan."""
    return next((di, s.window, s.locked, s.placed) for di, _si, s in version.plan.slots()
                if s.selected.option_ref == ref)


def _hotel(version):
    return next(s.selected.geo for _di, _si, s in version.plan.slots() if s.role == "checkin")


def _order(version, di):
    return [s.selected.option_ref for s in sorted(version.plan.days[di].slots, key=lambda s: s.window.start)
            if s.role in ("activity", "meal")]


def test_replan_reorders_the_day_a_move_left_crossing_the_city(qtbot, make_window, tmp_path):
    window = make_window()
    first = plan(qtbot, window, PARIS)
    orangerie = next(a for d in first.itinerary.days for a in d.activities if a.ref == "musee_orangerie")
    picasso = next(a for d in first.itinerary.days for a in d.activities if a.ref == "musee_picasso")
    # The traveller moves the Orangerie from day 3 to day 5 and locks the Picasso museum on day 4.
    moved = wait_task(qtbot, window.controller.marker_action(orangerie.id, "move:4"))
    assert moved is not None and _slot(moved, "musee_orangerie")[0] == 4, window.message_bar.text()
    locked = wait_task(qtbot, window.controller.marker_action(picasso.id, "lock"))
    assert locked is not None and _slot(locked, "musee_picasso")[2]
    source_day = 2
    before_metres = day_metres(locked.plan.days[source_day], _hotel(locked))

    window.commands.replan.trigger()  # the menu's Re-plan, as the traveller presses it
    qtbot.waitUntil(lambda: window.trip.current is not locked and not window.controller.busy,
                    timeout=PLAN_TIMEOUT_MS)
    after = window.trip.current
    window.grab().save(str(tmp_path / "replanned.png"))
    assert after.edit == "Re-planned"
    # The day is shorter, with the same places; the traveller's lock and placed visit did not move.
    assert sorted(_order(after, source_day)) == sorted(_order(locked, source_day))
    assert _order(after, source_day) != _order(locked, source_day)
    saved_km = (before_metres - day_metres(after.plan.days[source_day], _hotel(after))) / 1000
    assert saved_km > 0.5
    assert _slot(after, "musee_picasso") == _slot(locked, "musee_picasso")
    assert _slot(after, "musee_orangerie") == _slot(locked, "musee_orangerie")
    # Said in one line, in the status bar and in the window's last change, with the version label.
    said = window.statusBar().currentMessage()
    assert said.startswith(f"Re-planned: day {source_day + 1} reordered, {saved_km:.1f} km less walking"), said
    assert window.trip.label() in said and window.last_change in said
    assert not [v for v in after.itinerary.violations if v.severity.value == "blocking"]
    # The days are now in their shortest order: a second Re-plan changes nothing and says so.
    again = wait_task(qtbot, window.controller.replan())
    assert again is after
    assert "nothing changed" in window.statusBar().currentMessage()


def test_replace_preview_is_the_cost_the_plan_then_has(qtbot, make_window, tmp_path):
    window = make_window()
    version = plan(qtbot, window, PARIS)
    facts = window.planning.last_facts
    visits = [a for d in version.itinerary.days for a in d.activities if a.role in ("activity", "meal")]
    offered = {a.id: alternatives(version.plan, a.id, facts, version.intent) for a in visits}
    # A visit with an option that fits its slot as it is (the Louvre's afternoon fits the Rodin museum).
    visit = next(a for a in visits if any(o.exact for o in offered[a.id]))
    window.map_view.bridge.marker_action(visit.id, "replace")
    qtbot.waitUntil(lambda: window.replace_chooser is not None and window.replace_chooser.isVisible(), timeout=5_000)
    chooser = window.replace_chooser
    chooser.grab().save(str(tmp_path / "replace.png"))
    options = offered[visit.id]
    assert [chooser.list.item(i).data(0x0100) for i in range(chooser.list.count())] == [o.venue_id for o in options]
    # An option the day must be re-fitted around says that its cost is an estimate.
    for i, o in enumerate(options):
        assert ("cost about" in chooser.list.item(i).text()) == (not o.exact)
    row = next(i for i, o in enumerate(options) if o.exact)
    option = options[row]
    # Priced as the plan: the admission for the party and the walks or rides to and from it.
    chosen = next(s for _di, _si, s in version.plan.slots() if s.selected.choice_id == visit.id)
    admission = facts.venue(option.venue_id).est_price_usd_cents * version.plan.assumptions.travellers
    assert option.cost_delta_cents != admission - chosen.selected.features.cost_usd_cents
    shown = chooser.list.item(row).text()
    assert option.label in shown
    chooser.choose(row)
    qtbot.waitUntil(lambda: window.trip.current is not version and not window.controller.busy,
                    timeout=PLAN_TIMEOUT_MS)
    after = window.trip.current
    assert option.venue_id in {a.ref for d in after.itinerary.days for a in d.activities}
    charged = after.itinerary.cost_breakdown.total_usd_cents - version.itinerary.cost_breakdown.total_usd_cents
    assert charged == option.cost_delta_cents
    assert f"cost {signed_usd(charged)}" in shown  # what the chooser promised
