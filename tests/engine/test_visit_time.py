"""Visit lengths by kind and size, and the pace's lengths (engine/models/visit_time.py, issue 31 §2)."""

from __future__ import annotations

import pytest

from engine.models.place import Fame, Place
from engine.models.visit_time import MIN_VISIT_MINUTES, osm_duration_hint, paced_minutes, visit_minutes
from engine.places.osm_tags import SIGHT_TAGS


def _place(key: str, value: str, tags: dict[str, str] | None = None, fame: Fame | None = None) -> Place:
    tags = {key: value, **(tags or {})}
    return Place(ref="osm_n1", kind="sight", key=key, category=value, name="X", lat=35.0, lon=135.0,
                 minutes=SIGHT_TAGS[(key, value)][3], data_source="osm", tags=tags,
                 fame=fame if fame is not None else Fame.of_tags(tags))


@pytest.mark.parametrize(("key", "value", "tags", "low", "high"), [
    ("tourism", "museum", {"wikidata": "Q19675"}, 120, 180),  # a major museum: 2–3 h
    ("tourism", "museum", {}, 60, 119),  # a small one
    ("amenity", "place_of_worship", {"wikidata": "Q1", "heritage": "1"}, 60, 90),  # a large temple: 1–1.5 h
    ("amenity", "place_of_worship", {}, 30, 59),
    ("leisure", "park", {"wikipedia": "ja:円山公園"}, 60, 90),  # a large park: 1–1.5 h
    ("tourism", "viewpoint", {}, 20, 30),  # a viewpoint: 20–30 min
    ("amenity", "marketplace", {}, 45, 45),  # a market: 45 min
])
def test_a_visit_lasts_by_kind_and_size(key, value, tags, low, high) -> None:
    assert low <= visit_minutes(_place(key, value, tags)) <= high


def test_a_large_mapped_area_is_a_long_visit_and_a_mapped_duration_wins() -> None:
    big = _place("leisure", "park", fame=Fame(size_m2=120_000))
    small = _place("leisure", "park", fame=Fame(size_m2=2_000))
    assert visit_minutes(big) > visit_minutes(small)
    assert visit_minutes(_place("tourism", "museum", {"duration": "1:15"})) == 75
    assert osm_duration_hint({"duration": "90 min"}) == 90
    assert osm_duration_hint({"duration": "a while"}) is None
    assert osm_duration_hint({"duration": "5"}) is None  # shorter than any visit: not a visit's length


def test_the_pace_stretches_or_shortens_a_visit() -> None:
    assert paced_minutes(120, "relaxed") > paced_minutes(120, "balanced") == 120 > paced_minutes(120, "packed")
    assert paced_minutes(30, "packed") == MIN_VISIT_MINUTES  # never under the shortest visit
    assert paced_minutes(20, "packed") == 20  # nor a short one made longer
    assert paced_minutes(95, "packed") % 5 == 0
