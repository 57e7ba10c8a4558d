"""Issue 32 §3: a road trip's map offers only what will be done. "Unlock" was offered on a kept
(or booked) night and then refused, "Lock" on a stop along the way and then refused ("Road-trip
stops cannot be locked"). Route 66 with the Blue Swallow Motel booked, in the window offscreen:
every action a marker's menu offers, chosen through the map's bridge as the context menu does,
makes a new version; none is answered with a refusal."""

from __future__ import annotations

from engine.models import RoadTripIntent
from tests.app.test_edit_replan import wait_versions
from tests.app.test_main_window import ROUTE66, plan
from tests.widgets.test_map_view import state

BLUE = {"name": "Blue Swallow Motel", "address": "815 E Route 66 Blvd, Tucumcari, NM 88401",
        "geo": {"lat": 35.171866, "lon": -103.716421}, "checkin": "2027-05-05", "checkout": "2027-05-06",
        "confirmation": "BSW20418", "price_usd_cents": 12900, "source": "email"}
BOOKED = RoadTripIntent.model_validate({**ROUTE66.model_dump(), "bookings": {"hotel": BLUE}})


def markers(window) -> dict[str, dict]:
    return {m["id"]: m for m in window.map_view.document["markers"]}


def choose(qtbot, window, marker_id: str, action: str):
    """The context menu's choice, as resources/map.js sends it; the new version it makes."""
    count = len(window.trip.versions)
    window.map_view.bridge.marker_action(marker_id, action)
    after = wait_versions(qtbot, window, count + 1)
    assert "cannot" not in window.message_bar.text() and "every re-plan keeps it" not in window.message_bar.text()
    return after


def test_every_offered_road_action_is_done(qtbot, make_window) -> None:
    window = make_window()
    plan(qtbot, window, BOOKED)
    qtbot.waitUntil(lambda: state(qtbot, window.map_view)["markers"] > 0, timeout=10_000)
    offered = markers(window)
    assert not any("unlock" in m["actions"] or "lock" in m["actions"] and m["kind"] != "anchor"
                   for m in offered.values())
    # The Blue Swallow's night is kept by the booking (never unlocked); a rest day on either side of
    # it would leave the drive to it or from it to Chicago over the daily cap: the re-plan refuses those.
    booked = offered["d2-overnight"]
    assert booked["locked"] and booked["actions"] == []
    night = offered["d1-overnight"]
    assert not night["locked"] and night["actions"] == ["lock"]
    stops = [m for m in offered.values() if m["id"].startswith("d0-stop-")]
    assert stops and all(m["actions"] == ["remove", "replace"] for m in stops)

    kept = choose(qtbot, window, night["id"], "lock")
    assert kept.edit.startswith("Kept overnight stop")
    again = markers(window)["d1-overnight"]
    assert again["locked"] and again["actions"] == []  # kept: the menu no longer offers to undo it

    removed = choose(qtbot, window, stops[0]["id"], "remove")
    assert removed.edit == f"Removed {stops[0]['label']}" and stops[0]["id"] not in markers(window)
    replaced = next(m for m in markers(window).values() if m["actions"] == ["remove", "replace"])
    swapped = choose(qtbot, window, replaced["id"], "replace")
    assert swapped.edit == f"Replaced {replaced['label']}" and replaced["id"] not in markers(window)


def test_a_rest_day_is_offered_while_the_trip_can_take_it(qtbot, make_window) -> None:
    window = make_window()
    plan(qtbot, window, ROUTE66)
    qtbot.waitUntil(lambda: state(qtbot, window.map_view)["markers"] > 0, timeout=10_000)
    nights = [m for m in markers(window).values() if m["id"].endswith("-overnight")]
    assert len(nights) == 6 and all(m["actions"][0] == "lock" for m in nights)
    # A rest town splits the drive like a requested stop, each leg in whole days under the 400-mile
    # cap: at Needles or St. Louis 2,230 miles still fit 6 driving days; in the middle they would not.
    resting = [m["id"] for m in nights if "rest" in m["actions"]]
    assert resting == ["d0-overnight", "d5-overnight"]
    rested = choose(qtbot, window, "d5-overnight", "rest")
    assert rested.edit.startswith("Rest day in ") and sum(d.exemption == "rest" for d in rested.itinerary.days) == 1
    assert not any("rest" in m["actions"] for m in markers(window).values())  # no day left for a second one
