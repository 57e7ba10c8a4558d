"""The map view with a real QtWebEngine page, offscreen: layers, styles, the bridge both ways."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QEvent, QPoint, Qt, QUrl
from PySide6.QtGui import QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from engine.maps.map_document import build_map_document
from engine.roadtrip.routes import find_route
from tests.widgets.test_map_layers import XSS, city_trip, road_trip, with_activity
from widgets.map_view import MapView

LOAD_TIMEOUT_MS = 15_000
# One transparent pixel: "online" without any network traffic in tests.
BLANK_TILE = "data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw=="


# The engine plans before any Qt event loop runs (asyncio.run in a plain function).
@pytest.fixture(scope="module")
def city():
    return city_trip()


@pytest.fixture(scope="module")
def road():
    return road_trip()


@pytest.fixture(scope="module")
def route66():
    return find_route("Route 66")


def run_js(qtbot, view, script):
    """Run `script` in the page and return its JSON-decoded result (scripts return JSON text)."""
    with qtbot.waitCallback(timeout=5_000) as callback:
        view.page().runJavaScript(script, 0, callback)
    return json.loads(callback.args[0])


def state(qtbot, view) -> dict:
    return run_js(qtbot, view, "window.tripwright.state()")


def _dispose(view) -> None:
    # Delete the view now, while the QApplication (and the web profile) still exist.
    view.close()
    view.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


@pytest.fixture
def make_view(qtbot):
    """make_view(itinerary=None, route=None): a shown MapView whose page said it is ready."""
    views = []

    def make(itinerary=None, route=None, size=(1000, 700)):
        view = MapView()
        views.append(view)
        view.resize(*size)
        with qtbot.waitSignal(view.ready, timeout=LOAD_TIMEOUT_MS):
            view.show()
            if itinerary is not None:
                view.show_itinerary(itinerary, route=route)
        return view

    yield make
    for view in views:
        _dispose(view)


@pytest.fixture
def map_view(make_view):
    return make_view()


def until_painted(qtbot, view, path: str) -> QImage:
    """Grab the view once the page has painted (a grab at load time is blank) and save it."""
    qtbot.wait(300)
    image = view.grab().toImage()
    for _ in range(20):
        colours = {image.pixel(x, y) for x in range(0, image.width(), 23) for y in range(0, image.height(), 23)}
        if len(colours) > 20:
            break
        qtbot.wait(100)
        image = view.grab().toImage()
    assert image.save(path)
    return image


# -- the page -------------------------------------------------------------------------------------
def test_map_page_loads_leaflet_and_the_offline_basemap(qtbot, map_view):
    assert map_view.is_ready
    page = run_js(qtbot, map_view, "JSON.stringify({leaflet: typeof L !== 'undefined', zoom: map.getZoom()})")
    assert page == {"leaflet": True, "zoom": 3}
    now = state(qtbot, map_view)
    assert now["basemap_features"] >= 300  # countries + US states + Canadian provinces
    assert "Offline basemap: Natural Earth" in now["attribution"]
    assert "OpenStreetMap" not in now["attribution"] and now["online"] is False
    assert now["markers"] == 0 and now["legend_rows"] > 0


def test_online_adds_osm_tiles_with_attribution(qtbot, map_view):
    map_view.tile_url = BLANK_TILE
    map_view.set_online(True)
    qtbot.waitUntil(lambda: state(qtbot, map_view)["online"], timeout=5_000)
    assert "© OpenStreetMap contributors" in state(qtbot, map_view)["attribution"]
    map_view.set_online(False)
    qtbot.waitUntil(lambda: not state(qtbot, map_view)["online"], timeout=5_000)
    assert "Offline basemap: Natural Earth" in state(qtbot, map_view)["attribution"]


@pytest.mark.parametrize(
    "navigate",
    [
        pytest.param(lambda view: view.load(QUrl("https://example.com")), id="load"),
        pytest.param(lambda view: view.page().runJavaScript("location.href = 'https://example.com'"), id="js"),
    ],
)
def test_navigation_away_is_refused(qtbot, map_view, navigate):
    before = map_view.url()
    with qtbot.waitSignal(map_view.page().navigation_refused, timeout=5_000) as refused:
        navigate(map_view)
    assert refused.args[0].host() == "example.com"
    qtbot.wait(200)
    assert map_view.url() == before
    assert run_js(qtbot, map_view, "JSON.stringify(typeof map.getZoom())") == "number"


def test_set_layers_before_ready_is_queued_and_applied_after(qtbot, road, route66):
    view = MapView()
    try:
        view.resize(900, 600)
        view.show_itinerary(road, route=route66)  # the page has not loaded yet
        view.highlight("d3-overnight")
        assert not view.is_ready
        with qtbot.waitSignal(view.ready, timeout=LOAD_TIMEOUT_MS):
            view.show()
        qtbot.waitUntil(lambda: state(qtbot, view)["markers"] > 0, timeout=5_000)
        now = state(qtbot, view)
        assert now["markers"] == len(view.document["markers"])
        assert now["highlighted"] == "d3-overnight"
    finally:
        _dispose(view)


def test_a_reloaded_page_gets_the_current_layers_again(qtbot, make_view, road, route66):
    view = make_view(road, route66)
    assert state(qtbot, view)["markers"] == len(view.document["markers"])
    with qtbot.waitSignal(view.ready, timeout=LOAD_TIMEOUT_MS):
        view.reload()
    qtbot.waitUntil(lambda: state(qtbot, view)["markers"] == len(view.document["markers"]), timeout=5_000)
    assert state(qtbot, view)["corridor_polygons"] >= 1


# -- layers and styles ------------------------------------------------------------------------
def test_road_trip_markers_corridor_and_day_lines_match_the_document(qtbot, make_view, road, route66):
    view = make_view(road, route66)
    doc = view.document
    now = state(qtbot, view)
    geometry = doc["corridor"]["geometry"]
    polygons = 1 if geometry["type"] == "Polygon" else len(geometry["coordinates"])
    assert now["markers"] == len(doc["markers"]) == 1 + sum(1 for d in road.days for a in d.activities if a.geo)
    assert now["corridor_polygons"] == polygons >= 1
    assert now["day_lines"] == len(doc["days"]) == 7
    assert now["draggable"] == 6
    unknown_hours = sum(m["confidence"] == "low" for m in doc["markers"])  # meal stops of unknown hours
    assert now["dashed"] == unknown_hours and now["banner"] is None
    until_painted(qtbot, view, "/tmp/map_road.png")


def test_city_trip_markers_and_day_lines_match_the_document(qtbot, make_view, city):
    degraded = with_activity(city, "d1-activity-pantheon", confidence="low").model_copy(
        update={"degraded_tools": ["weather"]})
    view = make_view(degraded)
    now = state(qtbot, view)
    assert now["markers"] == len(view.document["markers"]) == sum(1 for d in city.days for a in d.activities if a.geo)
    drawn_days = sum(1 for d in view.document["days"] if d["path"])  # a day needs two places off the plane
    assert drawn_days >= len(city.days) - 1
    assert now["corridor_polygons"] == 0 and now["day_lines"] == drawn_days and now["draggable"] == 0
    assert now["banner"].startswith("Limited data available. Some information is estimated.")
    assert now["dashed"] == 1
    until_painted(qtbot, view, "/tmp/map_city.png")


def test_low_confidence_marker_is_dashed_with_badge_and_reason(qtbot, make_view, road):
    view = make_view(with_activity(road, "d2-overnight", confidence="low"))
    unknown_hours = sum(m["confidence"] == "low" for m in build_map_document(road)["markers"])
    style = run_js(qtbot, view, """(() => {
        const m = tripwright.marker('d2-overnight');
        const pin = m.getElement().querySelector('.tw-pin');
        const dot = pin.querySelector('.tw-dot');
        const other = tripwright.marker('d3-overnight').getElement().querySelector('.tw-dot');
        m.openTooltip();
        return JSON.stringify({
            border: getComputedStyle(dot).borderTopStyle,
            other: getComputedStyle(other).borderTopStyle,
            badge: pin.querySelector('.tw-badge-warn') ? pin.querySelector('.tw-badge-warn').textContent : null,
            tooltip: m.getTooltip().getElement().textContent});
    })()""")
    assert style["border"] == "dashed" and style["other"] == "solid"
    assert style["badge"] == "!"
    assert "Low confidence: the location was resolved with low confidence" in style["tooltip"]
    assert state(qtbot, view)["dashed"] == unknown_hours + 1


def test_locked_marker_shows_a_lock(qtbot, make_view, city):
    view = make_view(with_activity(city, "d2-activity-louvre", locked=True))
    locks = run_js(qtbot, view, """JSON.stringify(
        ['d2-activity-louvre', 'd2-activity-montmartre'].map(
            id => !!tripwright.marker(id).getElement().querySelector('.tw-badge-lock svg')))""")
    assert locks == [True, False]


def test_highlight_from_python_pans_and_emphasises(qtbot, make_view, city):
    view = make_view(city)
    view.highlight("d2-activity-montmartre")
    qtbot.waitUntil(lambda: state(qtbot, view)["highlighted"] == "d2-activity-montmartre", timeout=5_000)
    assert run_js(qtbot, view, "JSON.stringify(tripwright.marker('d2-activity-montmartre')"
                               ".getElement().classList.contains('tw-highlight'))")
    view.highlight("no-such-activity")  # ignored, nothing sent
    qtbot.wait(100)
    assert state(qtbot, view)["highlighted"] == "d2-activity-montmartre"


# -- JS -> Python ---------------------------------------------------------------------------------
def test_drag_of_an_anchor_reaches_python(qtbot, make_view, road):
    view = make_view(road)
    with qtbot.waitSignal(view.marker_dragged, timeout=5_000) as dragged:
        run_js(qtbot, view, """(() => {
            const m = tripwright.marker('d1-overnight');
            m.setLatLng([35.1983, -111.6513]);
            m.fire('dragend');
            return 'null'; })()""")
    marker_id, lat, lon = dragged.args
    assert marker_id == "d1-overnight"
    assert lat == pytest.approx(35.1983) and lon == pytest.approx(-111.6513)


def test_context_menu_action_reaches_python(qtbot, make_view, city):
    view = make_view(city)
    offered = run_js(qtbot, view, """(() => {
        const icon = tripwright.marker('d2-activity-louvre').getElement();
        const box = icon.getBoundingClientRect();
        icon.dispatchEvent(new MouseEvent('contextmenu', {bubbles: true, cancelable: true, button: 2,
            clientX: box.left + box.width / 2, clientY: box.top + box.height / 2}));
        return JSON.stringify(Array.from(document.querySelectorAll('.tw-menu button'))
            .map(b => [b.dataset.action, b.textContent]));
    })()""")
    assert offered == [["lock", "Lock"], ["remove", "Remove from plan"], ["replace", "Replace…"],
                       ["move:0", "Move to day 1"], ["move:1", "Move to day 2"], ["move:3", "Move to day 4"]]
    with qtbot.waitSignal(view.marker_action, timeout=5_000) as acted:
        run_js(qtbot, view, "document.querySelector('.tw-menu button[data-action=\"move:3\"]').click(); 'null'")
    assert acted.args == ["d2-activity-louvre", "move:3"]
    assert state(qtbot, view)["menu"] is None


def test_marker_click_selects(qtbot, make_view, city):
    view = make_view(city)
    with qtbot.waitSignal(view.marker_selected, timeout=5_000) as selected:
        run_js(qtbot, view, "tripwright.marker('d1-meal-cafe_de_flore').getElement().click(); 'null'")
    assert selected.args == ["d1-meal-cafe_de_flore"]
    assert state(qtbot, view)["highlighted"] == "d1-meal-cafe_de_flore"


def test_real_click_on_the_map_background_reaches_python(qtbot, make_view, road, route66):
    view = make_view(road, route66)
    point = QPoint(300, 120)  # open land north of the route, away from markers and controls
    expected = run_js(qtbot, view, f"JSON.stringify(map.containerPointToLatLng([{point.x()}, {point.y()}]).wrap())")
    target = view.focusProxy()
    with qtbot.waitSignal(view.map_clicked, timeout=5_000) as clicked:
        QTest.mouseMove(target, point)
        QTest.mouseClick(target, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)
    lat, lon = clicked.args
    assert lat == pytest.approx(expected["lat"], abs=0.05) and lon == pytest.approx(expected["lng"], abs=0.05)


def test_bad_arguments_from_the_page_are_ignored(qtbot, make_view, road):
    view = make_view(road)
    got = []
    view.marker_dragged.connect(lambda *a: got.append(("dragged", *a)))
    view.marker_action.connect(lambda *a: got.append(("action", *a)))
    view.marker_selected.connect(lambda *a: got.append(("selected", *a)))
    clicks = []
    view.map_clicked.connect(lambda *a: clicks.append(a))
    with qtbot.waitSignal(view.map_clicked, timeout=5_000):
        run_js(qtbot, view, """(() => {
            const b = tripwright.bridge();
            b.marker_dragged('no-such-marker', 35, -110);
            b.marker_dragged('d1-overnight', 999, -110);
            b.marker_dragged('d1-overnight', 35, NaN);
            b.marker_dragged('d1-overnight', null, -110);
            b.marker_dragged('d1-overnight', '35', '-110');
            b.marker_dragged('d6-arrive', 41.9, -87.6);          // the terminus is not draggable
            b.marker_dragged('d0-stop-amboy_crater', 34.5, -115); // nor are stops
            b.marker_dragged({id: 'd1-overnight'}, 35, -110);
            b.marker_action('no-such-marker', 'lock');
            b.marker_action('d1-overnight', 'delete_everything');
            b.marker_action('d1-overnight', 'remove');             // not offered for an anchor
            b.marker_action('d0-stop-amboy_crater', 'move:3');    // road trips offer no move
            b.marker_action('d1-overnight', ['lock']);
            b.marker_selected('origin');                           // not selectable
            b.marker_selected('x'.repeat(10000));
            b.map_clicked(999, 0);
            b.map_clicked(0, Infinity);
            b.map_clicked('1', '2');
            b.map_clicked(41.5, -95.25);                          // the only valid call
            return 'null'; })()""")
    assert got == []
    assert clicks == [(41.5, -95.25)]


def test_xss_label_is_shown_as_text(qtbot, make_view, city):
    hostile = with_activity(city, "d2-activity-louvre", name=XSS).model_copy(update={"degraded_tools": [XSS]})
    view = make_view(hostile)
    shown = run_js(qtbot, view, """(() => {
        const m = tripwright.marker('d2-activity-louvre');
        m.openTooltip();
        tripwright.openMenu('d2-activity-louvre');
        return JSON.stringify({
            tooltip: m.getTooltip().getElement().querySelector('.tw-tip-title').textContent,
            menu: document.querySelector('.tw-menu-title').textContent,
            banner: document.querySelector('#banner .tw-banner-text').textContent,
            images: document.querySelectorAll('img[src="x"]').length});
    })()""")
    qtbot.wait(300)  # an injected onerror would have fired by now
    assert shown["tooltip"] == XSS and shown["menu"] == XSS
    assert XSS in shown["banner"]
    assert shown["images"] == 0
    assert run_js(qtbot, view, "JSON.stringify(window.__xss === undefined)") is True


def test_the_page_reports_each_document_painted_by_its_revision(qtbot, make_view, road, city):
    """The app updates its itinerary panel only after the map has painted a new plan (issue 14
    §3): the page reports ``document_drawn(revision)`` two frames after drawing it."""
    import asyncio

    from app.map_probe import painted

    view = make_view(road)
    first = view.revision
    assert first >= 1 and view.document["revision"] == first
    with qtbot.waitSignal(view.drawn, timeout=5_000, check_params_cb=lambda r: r == first + 1):
        view.show_itinerary(city)
    assert view.document["revision"] == first + 1 and state(qtbot, view)["markers"] == len(view.document["markers"])
    reports = []
    view.drawn.connect(reports.append)
    run_js(qtbot, view, "(() => { const b = tripwright.bridge(); b.document_drawn(99); b.document_drawn('2');"
                        " b.document_drawn(true); b.document_drawn(-1); return 'null'; })()")
    qtbot.wait(100)
    assert reports == []  # a revision never sent, or not a number: ignored

    loop = asyncio.new_event_loop()
    try:  # hidden, the page paints nothing (no animation frames): painted() does not wait
        view.hide()
        assert loop.run_until_complete(painted(view, 5.0)) is False
    finally:
        loop.close()


def test_a_scale_bar_and_every_new_plan_fitted(qtbot, make_view, road):
    """Issue 22 §1: a scale bar (km and mi), and a new plan is fitted even when the previous view
    already contained it (a short trip inside a long one's view stayed a speck)."""
    from engine.geocode import default_gazetteer
    from engine.models import RoadTripIntent
    from engine.roadtrip.itinerary import road_itinerary
    from engine.roadtrip.planner import plan_road_trip
    from datetime import date
    view = make_view(road)  # Route 66: the whole US south-west to Chicago
    qtbot.waitUntil(lambda: state(qtbot, view)["markers"] > 0, timeout=5_000)
    scale = run_js(qtbot, view, "JSON.stringify(Array.from(document.querySelectorAll('.leaflet-control-scale-line'))"
                                ".map(e => e.textContent))")
    assert len(scale) == 2 and any("km" in x for x in scale) and any("mi" in x for x in scale)
    wide = state(qtbot, view)["zoom"]
    intent = RoadTripIntent(origin="Albuquerque", terminus="Santa Fe", days=1, start_date=date(2027, 5, 3))
    short = road_itinerary(plan_road_trip(intent, default_gazetteer()), intent, [], trace_id="t", run_id="r")
    view.show_itinerary(short)
    qtbot.waitUntil(lambda: state(qtbot, view)["zoom"] >= wide + 2, timeout=5_000)
