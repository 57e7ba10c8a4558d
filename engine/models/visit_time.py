"""How long things take, in minutes: the one home of the planners' visit and meal lengths, and of
the traveller's pace (how much of a day goes to sights).

A fixture venue carries its own curated length (``fixtures/cities/*.json``, ``duration_minutes``);
an OpenStreetMap place's is :func:`visit_minutes` of its kind and size (``engine/places/osm_tags.py``
gives each kind its usual length; a famous or large place of that kind takes longer, a mapped
``duration`` hint wins). Everything else the planners assume is here too.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from .place import Place

VISIT_MINUTES = 60  # a place whose kind says nothing (a saved place, an unread OSM kind)
MIN_VISIT_MINUTES = 30  # no visit is planned shorter
MAX_VISIT_MINUTES = 300  # no OSM hint plans a single sight longer than this
MEAL_MINUTES = {"lunch": 60, "dinner": 75}  # a city trip's meals (kids' dinners 15 min shorter)
EVENT_MINUTES = 120  # a booked show or match whose end the booking does not give
TOWN_VISIT_MINUTES = 60  # a road trip's walk through a town on the way
EXPLORE_MINUTES = 90  # a road trip's evening or rest-day look round the night's town
REST_MINUTES = 20  # a road trip's break on a long drive

Pace = Literal["relaxed", "balanced", "packed"]
PACES: tuple[Pace, ...] = ("relaxed", "balanced", "packed")
# minutes of sights a full day holds at each pace (meals and transfers come on top): a balanced day
# runs from 09:00 into the early evening with lunch between, a relaxed one leaves the late afternoon
# free, a packed one goes on after dinner where places are open
DAY_VISIT_BUDGET: dict[str, int] = {"relaxed": 300, "balanced": 420, "packed": 540}
# when the day's last sight must end (minutes after midnight; dinner and the walk home come after)
SIGHTS_END: dict[str, int] = {"relaxed": 18 * 60, "balanced": 19 * 60, "packed": 21 * 60 + 30}
# a visit's length at each pace, against the balanced length
PACE_FACTOR: dict[str, float] = {"relaxed": 1.2, "balanced": 1.0, "packed": 0.85}

# (OSM tag, value) of kinds whose famous or large examples take longer, and that longer length:
# a major museum 2–3 h, a large temple, shrine or park 1–1.5 h (issue 31 §2)
_MAJOR_MINUTES = {
    ("tourism", "museum"): 150, ("tourism", "gallery"): 120, ("historic", "castle"): 150,
    ("historic", "palace"): 150, ("amenity", "place_of_worship"): 75, ("historic", "monastery"): 90,
    ("leisure", "park"): 90, ("leisure", "garden"): 75, ("tourism", "attraction"): 90,
    ("historic", "archaeological_site"): 120, ("amenity", "marketplace"): 60,
}
# the usual length of kinds the tag table says too much or too little for
_USUAL_MINUTES = {("tourism", "viewpoint"): 25, ("amenity", "marketplace"): 45, ("leisure", "park"): 45,
                  ("leisure", "garden"): 45, ("tourism", "museum"): 90}
_LARGE_M2 = {("leisure", "park"): 50_000, ("leisure", "garden"): 20_000}
_LARGE_DEFAULT_M2 = 5_000
_FAMOUS_TRANSLATIONS = 5  # named in this many languages: known well beyond its street
_DURATION = re.compile(r"^\s*(?:(\d{1,2}):(\d{2})|(\d{1,3})\s*(?:min|minutes)?)\s*$")


def osm_duration_hint(tags: dict[str, str]) -> int | None:
    """Minutes of a mapped ``duration`` tag ("1:30", "90", "90 min"), or None when absent or unread."""
    m = _DURATION.match(tags.get("duration", ""))
    if not m:
        return None
    minutes = int(m[1]) * 60 + int(m[2]) if m[1] else int(m[3])
    return minutes if MIN_VISIT_MINUTES <= minutes <= MAX_VISIT_MINUTES else None


def visit_minutes(place: Place) -> int:
    """How long a visit to an OpenStreetMap sight takes, by its kind and its size: a mapped
    ``duration`` first; else the kind's usual length, longer for a famous (Wikidata, heritage, a
    name in many languages) or large one."""
    hint = osm_duration_hint(place.tags)
    if hint is not None:
        return hint
    kind = (place.key, place.category)
    usual = _USUAL_MINUTES.get(kind, place.minutes)
    major = _MAJOR_MINUTES.get(kind)
    if major is not None and _is_major(place, kind):
        usual = max(usual, major)
    return max(MIN_VISIT_MINUTES, usual)


def _is_major(place: Place, kind: tuple[str, str]) -> bool:
    fame = place.fame
    size = fame.size_m2
    if size is not None and size >= _LARGE_M2.get(kind, _LARGE_DEFAULT_M2):
        return True
    return bool(fame.wikidata or fame.wikipedia or fame.heritage) or fame.translations >= _FAMOUS_TRANSLATIONS


def paced_minutes(minutes: int, pace: str) -> int:
    """A visit's planned length at ``pace``, in 5-minute steps; a shorter pace never cuts a visit
    under the shortest one planned (nor lengthens one already shorter)."""
    scaled = int(round(minutes * PACE_FACTOR.get(pace, 1.0) / 5)) * 5
    return max(min(minutes, MIN_VISIT_MINUTES), scaled)
