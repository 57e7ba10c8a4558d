"""A multi-city trip on the app's map (issue 33 §4), a real QtWebEngine page offscreen: every stay's city, the
legs as lines styled by mode (an estimated one dashed), the legend's legs, and "Show one city" zooming to a
stay. Saves /tmp/stay-map-trip.png and /tmp/stay-map-porto.png."""

from __future__ import annotations

from engine.maps.map_document import build_map_document
from tests.multi_city_trip import CAMPANHA, SANTA_APOLONIA, multi_city_itinerary
from tests.widgets import test_map_view
from tests.widgets.test_map_view import run_js, until_painted

make_view = test_map_view.make_view  # the map view tests' fixture: a shown MapView whose page is ready

STATE = """JSON.stringify((function () {
  function texts(selector) { return Array.from(document.querySelectorAll(selector)).map(function (e) { return e.textContent; }); }
  var legs = Array.from(document.querySelectorAll('path.tw-leg-line'));
  var b = window.map.getBounds();
  return {cities: texts('.tw-stay-city'), numbers: texts('.tw-stay-number'), tags: texts('.tw-leg-tag'),
          legs: legs.map(function (p) { return [p.getAttribute('stroke'), p.getAttribute('stroke-dasharray')]; }),
          options: texts('.tw-stay-picker option'), legend: texts('.tw-legend-row span:last-child'),
          zoom: window.map.getZoom(), south: b.getSouth(), north: b.getNorth()};
})())"""


def test_the_cities_and_the_estimated_train_are_drawn(qtbot, make_view) -> None:
    itinerary = multi_city_itinerary()
    view = make_view(itinerary, size=(1000, 760))
    until_painted(qtbot, view, "/tmp/stay-map-trip.png")
    state = run_js(qtbot, view, STATE)
    assert state["cities"] == ["Lisbon", "Porto"] and state["numbers"] == ["1", "2"]
    assert state["legs"] == [["#4a148c", "10 8"]] and state["tags"] == ["Train"]
    assert state["options"] == ["All cities", "1. Lisbon", "2. Porto"]
    assert {"Train", "Dashed: estimated times"} <= set(state["legend"])
    assert state["south"] < SANTA_APOLONIA[0] and state["north"] > CAMPANHA[0]  # the whole trip fits


def test_show_one_city_zooms_to_its_stops(qtbot, make_view) -> None:
    view = make_view(multi_city_itinerary(), size=(1000, 760))
    run_js(qtbot, view, """JSON.stringify((function () {
      var picker = document.querySelector('.tw-stay-picker');
      picker.value = '1';
      picker.dispatchEvent(new Event('change'));
      return true;
    })())""")
    until_painted(qtbot, view, "/tmp/stay-map-porto.png")
    state = run_js(qtbot, view, STATE)
    assert state["zoom"] >= 13 and state["south"] > 41.0  # Porto's stops, Lisbon out of view
    assert state["cities"] == []  # at city zoom the stops take over from the city's pin


def test_a_booked_or_routed_leg_is_solid() -> None:
    document = build_map_document(multi_city_itinerary(source="router"))
    assert [leg["estimated"] for leg in document["legs"]] == [False]
    assert document["legs"][0]["label"] == "Train Lisboa Santa Apolónia \u2192 Porto Campanhã 10:30\u201313:29, from the timetable"
    assert all(row["dashed"] is False for row in document["legend"]["legs"])


def test_hostile_leg_names_are_text(qtbot, make_view) -> None:
    from tests.multi_city_trip import leg
    evil = "<img src=x onerror=window.__xss=1>"
    itinerary = multi_city_itinerary()
    itinerary = itinerary.model_copy(update={"legs": [leg().model_copy(update={"from_name": evil, "why": evil})]})
    view = make_view(itinerary, size=(1000, 760))
    shown = run_js(qtbot, view, """JSON.stringify((function () {
      var casing = document.querySelector('path.tw-leg-casing');
      var box = casing.getBoundingClientRect();
      var at = {bubbles: true, clientX: box.left + box.width / 2, clientY: box.top + box.height / 2};
      casing.dispatchEvent(new MouseEvent('mouseover', at));
      casing.dispatchEvent(new MouseEvent('mousemove', at));
      var tip = document.querySelector('.leaflet-tooltip .tw-tip');
      return {xss: window.__xss === undefined ? null : window.__xss, tip: tip ? tip.textContent : null,
              images: document.querySelectorAll('.leaflet-tooltip img').length};
    })())""")
    assert shown["xss"] is None and shown["images"] == 0
    assert shown["tip"] is not None and evil in shown["tip"]


def test_map_edits_stay_inside_a_stay() -> None:
    document = build_map_document(multi_city_itinerary())
    actions = {m["id"]: m["actions"] for m in document["markers"]}
    assert actions["d2-activity-0"] == ["lock", "remove", "replace", "move:0", "move:2"]  # Lisbon's days only
    assert actions["d5-activity-0"] == ["lock", "remove", "replace", "move:3", "move:5"]  # Porto's days only
    assert actions["d4-leg-1"] == []  # the train between the cities
