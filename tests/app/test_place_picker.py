"""Ambiguous road-trip ends (issue 12 §1): the app lists the places a name may mean, with their
confidence, and plans the one the traveller picks — through the real form, window and engine."""

from __future__ import annotations

import os
from pathlib import Path

from engine.geocode.trust import geodesic_miles
from tests.app.conftest import PLAN_TIMEOUT_MS

SHOTS = Path(os.environ.get("TRIPWRIGHT_SHOT_DIR", "/tmp/tripwright-shots"))
SPRINGFIELD_IL = (39.80, -89.64)
PARIS_TX = (33.66, -95.56)


def plan_prompt(qtbot, window, prompt: str) -> None:
    window.use_prompt(prompt)
    assert window.intent_form.field_errors() == {}
    window.plan_from_form()


def wait_chooser(qtbot, window, name: str):
    qtbot.waitUntil(lambda: window.controller.place_chooser is not None, timeout=PLAN_TIMEOUT_MS)
    chooser = window.controller.place_chooser
    qtbot.waitExposed(chooser)
    SHOTS.mkdir(parents=True, exist_ok=True)
    chooser.grab().save(str(SHOTS / f"place_chooser_{name}.png"))
    return chooser


def row_of(chooser, name: str, region: str) -> int:
    return next(k for k, (n, r, _) in enumerate(chooser.options()) if (n, r) == (name, region))


def wait_planned(qtbot, window):
    qtbot.waitUntil(lambda: window.trip.current is not None and not window.controller.busy, timeout=PLAN_TIMEOUT_MS)
    return window.trip.current


def test_an_ambiguous_start_is_asked_about_and_the_chosen_place_is_planned(qtbot, make_window):
    window = make_window()
    plan_prompt(qtbot, window, "road trip from Springfield to Chicago, 3 days from 2027-05-03")
    chooser = wait_chooser(qtbot, window, "springfield")
    assert window.trip.current is None  # nothing planned before the answer
    rows = chooser.options()
    regions = [r for _, r in ((n, r) for n, r, _ in rows)]
    assert {"MO, US", "MA, US", "IL, US"} <= set(regions) and len(rows) >= 3
    assert all(name == "Springfield" and conf.endswith("%") for name, _, conf in rows)
    confidences = [int(conf.rstrip("%")) for _, _, conf in rows]
    assert confidences == sorted(confidences, reverse=True) and confidences[0] < 50  # ambiguous: < 50 %
    assert "Springfield" in chooser.heading.text() and "start" in chooser.heading.text()
    chooser.choose(row_of(chooser, "Springfield", "IL, US"))
    version = wait_planned(qtbot, window)
    assert version.intent.origin == "Springfield, IL, USA" and version.intent.terminus == "Chicago"
    first = version.itinerary.days[0]
    start = first.path[0] if first.path else None
    assert start is not None and geodesic_miles((start.lat, start.lon), SPRINGFIELD_IL) < 10
    assert window.intent_form.origin_edit.text() == "Springfield, IL, USA"  # the form says what was planned


def test_a_destination_across_the_ocean_offers_its_namesakes(qtbot, make_window):
    window = make_window()
    plan_prompt(qtbot, window, "road trip from Dallas to Paris, 3 days from 2027-05-03")
    chooser = wait_chooser(qtbot, window, "paris")
    assert "no road crosses the ocean" in chooser.heading.text()  # the planner's refusal, then the question
    rows = chooser.options()
    assert rows[0][:2] == ("Paris", "TX, US")  # the most likely Paris a road from Dallas reaches
    assert all(region.endswith(", US") for _, region, _ in rows)  # not the refused Paris, France again
    chooser.choose(row_of(chooser, "Paris", "TX, US"))
    version = wait_planned(qtbot, window)
    assert version.intent.terminus == "Paris, TX, USA"
    night = version.itinerary.days[-1].anchor
    assert geodesic_miles((night.geo.lat, night.geo.lon), PARIS_TX) < 10


def test_declining_plans_nothing_and_says_what_to_write(qtbot, make_window):
    window = make_window()
    plan_prompt(qtbot, window, "road trip from Portland to Denver, 5 days from 2027-05-03")
    chooser = wait_chooser(qtbot, window, "portland")
    rows = chooser.options()
    assert [r[:2] for r in rows][:2] == [("Portland", "OR, US"), ("Portland", "ME, US")]
    assert all(region.endswith(", US") for _, region, _ in rows)  # Denver is in the US: not Portland, England
    chooser.reject()
    assert window.trip.current is None
    assert "add its state or country" in window.statusBar().currentMessage()


def test_a_qualified_or_clear_name_is_planned_without_asking(qtbot, make_window):
    window = make_window()
    plan_prompt(qtbot, window, "road trip from Springfield, MO to Chicago, 3 days from 2027-05-03")
    version = wait_planned(qtbot, window)
    assert window.controller.place_chooser is None and version.intent.origin == "Springfield, MO"
