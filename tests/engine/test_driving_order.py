"""A road day's stops on the way are driven in the shortest order from last night's town to
tonight's (engine/roadtrip/detours.py ``driving_order``), not only by how far along the corridor
each lies: sights past the terminus all project to its end, where progress cannot order them."""

from __future__ import annotations

from dataclasses import dataclass

from engine.roadtrip.detours import day_points, driving_order
from engine.evaluation.quality import path_miles


@dataclass(frozen=True)
class Stop:
    name: str
    lat: float
    lon: float
    progress_miles: float
    en_route: bool = True


AFTON, JACKSON = (42.73, -110.932), (43.47993, -110.76243)
# Grand Teton NP, Mormon Row and Jenny Lake lie north of Jackson, the corridor's end: one progress
PARK = Stop("Grand Teton National Park", 43.79, -110.68, 110.0)
MORMON_ROW = Stop("Mormon Row", 43.6625, -110.666, 110.0)
JENNY_LAKE = Stop("Jenny Lake", 43.75, -110.72, 110.0)
TOWN = Stop("Elk Refuge", 43.52, -110.73, 110.0, en_route=False)


def test_stops_past_the_corridor_end_are_driven_in_their_shortest_order():
    order = driving_order([PARK, MORMON_ROW, JENNY_LAKE, TOWN], 0.0, AFTON, JACKSON)
    assert [s.name for s in order] == ["Mormon Row", "Grand Teton National Park", "Jenny Lake"]
    by_progress = [AFTON, *((s.lat, s.lon) for s in (PARK, MORMON_ROW, JENNY_LAKE)), JACKSON]
    chosen = day_points(AFTON, [PARK, MORMON_ROW, JENNY_LAKE, TOWN], JACKSON, 0.0)
    assert chosen == [AFTON, *((s.lat, s.lon) for s in order), JACKSON]
    assert path_miles(chosen) < path_miles(by_progress) - 5  # ~11 mi shorter than the list's order


def test_stops_along_the_way_keep_the_corridor_order():
    a, b = (40.0, -111.0), (41.0, -111.0)
    first, second = Stop("first", 40.3, -111.01, 20.0), Stop("second", 40.7, -110.99, 48.0)
    assert driving_order([second, first], 0.0, a, b) == [first, second]
    assert driving_order([first], 0.0, a, b) == [first]
