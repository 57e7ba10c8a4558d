"""In-process computations as tools (issue 34 §3): a transit leg through ``engine.tools.computed``
answers and counts as ``ToolExecutor.call_sync`` does, without the per-call machinery; and the
road planner's speed-ups (prepared land, detours of drivable hops, a line's projections) give the
answers the slow ways give."""

from __future__ import annotations

from datetime import date

import numpy as np
import pytest
import shapely

from engine.errors import ToolTimeout, ToolUnavailable
from engine.models import Geo
from engine.tools.computed import Computation
from engine.tools.executor import ToolExecutor
from engine.tools.requests import AirportTransferRequest, TransitRequest

from .conftest import new_toolbox

DAY = date(2027, 6, 15)
LOUVRE, EIFFEL = Geo(lat=48.8606, lon=2.3376), Geo(lat=48.8584, lon=2.2945)


def _request(a: Geo = LOUVRE, b: Geo = EIFFEL, day: date = DAY) -> TransitRequest:
    return TransitRequest(city="Paris", from_geo=a, to_geo=b, day=day)


class Counted:
    """An observer that records what the executor reports."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, bool]] = []
        self.errors: list[tuple[str, str]] = []

    def computed_call(self, tool: str, cache_hit: bool) -> None:
        self.calls.append((tool, cache_hit))

    def tool_call(self, tool: str, latency_ms, cache_hit: bool) -> None:
        self.calls.append((tool, cache_hit))

    def tool_error(self, tool: str, reason: str) -> None:
        self.errors.append((tool, reason))


def test_a_leg_is_call_syncs_leg_and_a_second_ask_is_the_cached_copy() -> None:
    tb = new_toolbox()
    slow, fast = ToolExecutor(observer=Counted()), ToolExecutor(observer=Counted())
    computed = Computation(fast, "transit")
    for request in (_request(), _request(EIFFEL, LOUVRE), _request(day=date(2027, 6, 16))):
        assert computed(tb.transit.leg, request) == slow.call_sync("transit", tb.transit.leg, request)
    again = computed(tb.transit.leg, _request())
    assert again.provenance.cache_hit and again == slow.call_sync("transit", tb.transit.leg, _request())
    assert computed(tb.transit.leg, _request()) is again  # the marked copy is made once
    airport = AirportTransferRequest(city="Paris", airport="CDG", hotel=LOUVRE, day=DAY)
    fresh = {"provenance": {"call_ts"}}  # an airport leg is computed afresh each time: its stamp's time differs
    assert (computed(tb.transit.airport_leg_of, airport).model_dump(exclude=fresh)
            == slow.call_sync("transit", tb.transit.airport_leg_of, airport).model_dump(exclude=fresh))
    stats = fast.stats["transit"]
    assert (stats.calls, stats.cache_hits, stats.errors) == (6, 2, 0)
    assert fast.observer.calls == [("transit", False)] * 3 + [("transit", True)] * 2 + [("transit", False)]
    assert fast.breaker_state("transit") == "closed"


def test_a_new_facts_handle_on_the_same_executor_finds_the_earlier_runs_legs() -> None:
    tb = new_toolbox()
    ex = ToolExecutor(observer=Counted())
    first = Computation(ex, "transit")(tb.transit.leg, _request())
    later = Computation(ex, "transit")(tb.transit.leg, _request())
    assert not first.provenance.cache_hit and later.provenance.cache_hit
    assert later.model_copy(update={"provenance": first.provenance}) == first


def test_simulated_timeout_takes_call_syncs_way(monkeypatch) -> None:
    monkeypatch.setenv("SIMULATE_TOOL_TIMEOUT", "transit:5s")
    tb = new_toolbox()
    ex = ToolExecutor(observer=Counted())
    with pytest.raises(ToolTimeout):
        Computation(ex, "transit")(tb.transit.leg, _request())
    assert ex.stats["transit"].error_reasons == {"timeout": 1}
    assert ex.observer.errors == [("transit", "timeout")]


def test_a_failing_computation_is_counted_and_opens_the_breaker() -> None:
    ex = ToolExecutor(observer=Counted())
    computed = Computation(ex, "transit")

    def broken(request):
        raise ToolUnavailable("transit", "no fares")
    for _ in range(ex.policy.breaker_failures):
        with pytest.raises(ToolUnavailable):
            computed(broken, _request())
    assert ex.stats["transit"].errors == ex.policy.breaker_failures
    assert ex.breaker_state("transit") == "open"
    with pytest.raises(ToolUnavailable, match="circuit open"):
        computed(new_toolbox().transit.leg, _request())


def test_prepared_land_answers_as_the_tree_predicate_does() -> None:
    from engine.roadtrip import scenery
    rng = np.random.default_rng(7)
    lats, lons = rng.uniform(24, 50, 400), rng.uniform(-126, -66, 400)
    for tree in (scenery.any_land(), scenery.mainland_near([47.6, 25.8], [-122.3, -80.2])):
        plain = shapely.STRtree(list(tree.parts))  # the same polygons, queried the old way
        slow = np.zeros(len(lats), dtype=bool)
        slow[plain.query(shapely.points(lons, lats), predicate="intersects")[0]] = True
        fast = scenery.land_mask(lats, lons, land=tree)
        assert np.array_equal(fast, slow) and 0 < fast.sum() < len(lats)


def test_detours_of_drivable_hops_give_the_full_matrix_drive_where_a_hop_can_be_taken() -> None:
    from engine.roadtrip import anchors
    from engine.roadtrip.detours import DETOUR_FACTOR, haversine
    from engine.roadtrip.plan import Town
    rng = np.random.default_rng(3)
    nodes = [anchors.Node(place=Town(name=f"t{k}", lat=float(lat), lon=float(lon), source="gazetteer"),
                          progress=float(road), road=float(road), from_origin=float(road),
                          to_end=1500.0 - float(road), on_corridor=(float(lat) + 0.1, float(lon) - 0.1), spur=float(spur))
             for k, (lat, lon, road, spur) in enumerate(zip(rng.uniform(30, 40, 120), rng.uniform(-110, -90, 120),
                                                           rng.uniform(0, 1500, 120), rng.choice([0.0, 0.0, 12.0], 120)))]
    stretch = anchors.Stretch(start=nodes[0], end=nodes[-1], days=5, cap_road=400.0, factor=1.3, directed=False,
                              one_way=True)
    at = np.radians([n.place.point for n in nodes])
    on = np.radians([n.on_corridor for n in nodes])
    real = haversine(at[:, None, 0], at[:, None, 1], at[None, :, 0], at[None, :, 1])
    along = haversine(on[:, None, 0], on[:, None, 1], on[None, :, 0], on[None, :, 1])
    step = anchors._step(stretch, nodes)
    spur = np.array([n.spur for n in nodes])
    full = step + np.maximum(np.maximum(0.0, DETOUR_FACTOR * (real - along)), spur[:, None] + spur[None, :])
    drive = anchors._drive(stretch, nodes)
    hops = (step > 0) & (step <= stretch.cap_road + 1e-6)
    assert hops.any() and np.array_equal(drive[hops], full[hops])
    refused = ~hops
    assert not ((step[refused] > 0) & (drive[refused] <= stretch.cap_road + 1e-6)).any()


def test_a_lines_projections_are_kept_and_forgotten_with_its_line() -> None:
    from engine.roadtrip.corridor import DirectCorridor
    from engine.roadtrip.routes import METERS_PER_MILE
    corridor = DirectCorridor((34.05, -118.24), (41.88, -87.63))
    fresh = corridor._line.project(corridor._xy(36.17, -115.14)) / METERS_PER_MILE
    assert corridor.progress_miles(36.17, -115.14) == fresh == corridor.progress_miles(36.17, -115.14)
    at = corridor.point_at(500.0)
    assert corridor.point_at(500.0) is at
    corridor._set_line([(-118.24, 34.05), (-104.99, 39.74)])  # another line: nothing of the first kept
    assert corridor.progress_miles(36.17, -115.14) == corridor._line.project(corridor._xy(36.17, -115.14)) / METERS_PER_MILE
    assert corridor.point_at(500.0) != at
