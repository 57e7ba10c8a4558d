"""What a road-trip run works out once (the road planner's review debts): the trip's ends and
corridor — a loop from home, a corridor bent round the sea — are resolved once and shared from
the OpenStreetMap outline to the plan; each named place is resolved once; the gazetteer is asked
once per point of a day (the village picker and the travel-only check ask at the same points)."""

from __future__ import annotations

import asyncio
import os
from collections import Counter
from datetime import date

import pytest

from engine.models import RoadTripIntent
from engine.pipeline import PlanningSession
from engine.roadtrip import trip_ends
from engine.roadtrip.corridor import DirectCorridor
from engine.roadtrip.day_stops import DayStopPicker, quiet_stretch
from engine.roadtrip.planner import plan_road_trip
from tests.engine.conftest import TODAY


@pytest.fixture(scope="module")
def gazetteer(tmp_path_factory):
    from engine.geocode import GazetteerIndex
    return GazetteerIndex.open(os.environ.get("TRIPWRIGHT_HOME") or str(tmp_path_factory.mktemp("home")))


class Counting:
    """The gazetteer, with what it was asked counted."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.near: Counter = Counter()
        self.queries: Counter = Counter()

    def nearby(self, lat, lon, **kw):
        self.near[(round(lat, 5), round(lon, 5), kw.get("min_population"))] += 1
        return self.inner.nearby(lat, lon, **kw)

    def candidates(self, request):
        self.queries[request.query] += 1
        return self.inner.candidates(request)

    def __getattr__(self, name):
        return getattr(self.inner, name)


def counted(monkeypatch, name: str) -> Counter:
    calls: Counter = Counter()
    made = getattr(trip_ends, name)

    def counting(*args, **kw):
        calls[name] += 1
        return made(*args, **kw)
    monkeypatch.setattr(trip_ends, name, counting)
    return calls


@pytest.mark.parametrize("intent, builder", [
    (RoadTripIntent(origin="Denver", terminus="Denver", trip_type="round_trip", days=5,
                    start_date=date(2027, 5, 3)), "home_loop"),
    (RoadTripIntent(origin="Tampa", terminus="New Orleans", days=3, start_date=date(2027, 5, 3)), "land_corridor"),
])
def test_a_run_builds_its_corridor_once(gazetteer, monkeypatch, intent, builder) -> None:
    calls = counted(monkeypatch, builder)
    result = asyncio.run(PlanningSession(today=TODAY, geocoder=gazetteer).plan(intent))
    assert result.status == "completed", result.failure
    assert calls[builder] == 1


def test_each_named_place_is_resolved_once(gazetteer) -> None:
    counting = Counting(gazetteer)
    intent = RoadTripIntent(origin="Denver", terminus="Salt Lake City", days=4, start_date=date(2027, 5, 3),
                            stops=["Grand Junction, CO"], rest_days=["Grand Junction, CO"], visits=["Green River, UT"])
    plan = plan_road_trip(intent, counting)
    assert [d.exemption for d in plan.days].count("rest") == 1
    asked = {q: n for q, n in counting.queries.items() if q.split(",")[0] in ("Grand Junction", "Green River")}
    assert asked and all(n == 1 for n in asked.values()), asked


def test_the_travel_only_check_reuses_the_village_pickers_answers(gazetteer) -> None:
    """Across the Great Basin, Tonopah to Beaver: the village picker asks the gazetteer at the
    night and three points of the drive; the travel-only check then asks only at the start."""
    counting = Counting(gazetteer)
    corridor = DirectCorridor((38.0697, -117.2301), (38.2764, -112.6410))
    picker = DayStopPicker(corridor, 50, 55, 1.3, towns=[], geocoder=counting)
    length = corridor.length_miles()
    list(picker._small_places(0.0, length, day=1))
    assert sum(counting.near.values()) == 4
    quiet = quiet_stretch(corridor, counting, 0.0, length, [], near=picker.places_near)
    assert sum(counting.near.values()) == 5 and max(counting.near.values()) == 1
    assert quiet == quiet_stretch(corridor, gazetteer, 0.0, length, [])  # as asking afresh answers


class Unhashable(Counting):
    __hash__ = None  # type: ignore[assignment]  # a geocoder that cannot be a cache key


def test_a_corridor_round_the_sea_is_made_once_per_process_and_afresh_for_an_unkeyable_gazetteer(gazetteer) -> None:
    from engine.roadtrip.land_route import _land_corridor, land_corridor
    from engine.roadtrip.plan import Town
    tampa, new_orleans = Town("Tampa", 27.9506, -82.4572, "FL", "US"), Town("New Orleans", 29.9511, -90.0715, "LA", "US")
    _land_corridor.cache_clear()
    first = land_corridor(tampa, new_orleans, "us", gazetteer)
    assert land_corridor(tampa, new_orleans, "us", gazetteer) is first  # kept, not searched again
    assert _land_corridor.cache_info().hits == 1
    counting = Unhashable(gazetteer)
    fresh = land_corridor(tampa, new_orleans, "us", counting)
    assert fresh is not first and sum(counting.queries.values()) + sum(counting.near.values()) > 0
    assert [t.name for t in fresh.via] == [t.name for t in first.via] and fresh.via  # bent round the Gulf alike
