"""Issue 32 §6: the HTML export from the real window (File ▸ Export's path) carries the cost
breakdown — each part, the total, the budget and what is left, as the app's Costs tab — in the list
beside the map, opened in a real page offscreen. Saves /tmp/window-html-costs.png."""

from __future__ import annotations

from engine.models import format_usd
from tests.app.conftest import wait_task
from tests.app.test_main_window import PARIS, plan
from tests.widgets.test_html_export import open_page, run_js  # noqa: F401 (a fixture)

ROWS = """JSON.stringify({
  rows: Array.from(document.querySelectorAll('#tw-cost-breakdown tr')).map(function (tr) {
    return [tr.className, tr.cells[0].textContent, tr.cells[1].textContent]; }),
  heading: (document.querySelector('#tw-cost-breakdown h2') || {}).textContent || null,
  next: (document.getElementById('tw-cost-breakdown') || {nextElementSibling: null}).nextElementSibling
        ? document.getElementById('tw-cost-breakdown').nextElementSibling.className : null,
  inside: !!document.querySelector('#tw-itinerary > #tw-cost-breakdown')})"""


def test_the_html_export_has_the_cost_breakdown(qtbot, make_window, open_page, tmp_path):  # noqa: F811
    window = make_window(size=(1400, 900))
    plan(qtbot, window, PARIS)
    path = tmp_path / "paris.html"
    assert wait_task(qtbot, window.controller.export_to("html", str(path)), timeout=30_000) == path
    view, page, requests = open_page(path.read_text(encoding="utf-8"))
    qtbot.waitUntil(lambda: bool(run_js(qtbot, view, ROWS)["rows"]), timeout=5_000)
    shown = run_js(qtbot, view, ROWS)
    costs = window.trip.current.itinerary.cost_breakdown
    estimated = set(costs.estimated_parts)
    parts = [(key, label, getattr(costs, f"{key}_usd_cents")) for key, label in
             (("flights", "Flights"), ("lodging", "Lodging"), ("attractions", "Attractions"), ("meals", "Meals"),
              ("transit", "Transit / fuel"), ("daily_spend", "Daily allowance"))]
    expected = [["tw-cost-part", label + (" (est.)" if key in estimated else ""), format_usd(cents)]
                for key, label, cents in parts if cents]
    expected += [["tw-cost-total", "Total", format_usd(costs.total_usd_cents)],
                 ["tw-cost-budget", "Budget", format_usd(PARIS.budget_usd_cents)],
                 ["tw-cost-left", "Left", format_usd(PARIS.budget_usd_cents - costs.total_usd_cents)]]
    assert shown["rows"] == expected
    assert sum(cents for _, _, cents in parts) == costs.total_usd_cents  # the parts add up to the total shown
    assert shown["heading"] == "Costs" and shown["inside"] and shown["next"] == "tw-total"
    assert page.errors == []
    assert all(u.startswith("file:") or u.startswith("data:") for u in requests.urls), requests.urls
    run_js(qtbot, view, "JSON.stringify(document.getElementById('tw-cost-breakdown').scrollIntoView() || 1)")
    qtbot.wait(300)
    view.grab().save("/tmp/window-html-costs.png")
