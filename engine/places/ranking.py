"""How places are ranked: what a city pack's places and a corridor's places are worth to a traveller
before the trip's own wishes (themes, the day's route) are weighed. The one home of the weights.

A city pack ranks each place once when it is built (``pack_build``); a corridor chunk ranks each of
its places when it is read (``corridor``); the road planner then adds the trip's themes and the
distance off the road (``roadtrip/osm_stops.py``).
"""

from __future__ import annotations

from engine.geo import haversine_m
from engine.models import Geo

from .osm_tags import stars_of
from .pack import PackPlace

# What a Wikidata entry, a Wikipedia article and a website add to a place's rank, in a city pack
# (:func:`city_rank`) and along a corridor (:func:`road_rank`) alike.
FAME_WEIGHT = {"wikidata": 3.0, "wikipedia": 1.5, "website": 0.3}
# A city pack's places by their kind, and what a kilometre from the centre costs each kind.
CATEGORY_WEIGHT = {
    "museum": 1.0, "gallery": 0.7, "castle": 1.2, "palace": 1.2, "fort": 0.8, "aquarium": 0.9, "zoo": 0.9,
    "theme_park": 0.6, "viewpoint": 0.6, "attraction": 0.6, "monastery": 0.9, "place_of_worship": 0.5,
    "archaeological_site": 0.7, "ruins": 0.5, "marketplace": 0.5, "garden": 0.5, "park": 0.3,
    "nature_reserve": 0.3, "square": 0.3, "monument": 0.2, "memorial": 0.0,
    "restaurant": 0.3, "cafe": 0.1, "food_court": 0.4,
    "hotel": 0.4, "guest_house": 0.2, "hostel": 0.2, "apartment": 0.0,
}
KM_PENALTY = {"sight": 0.12, "food": 0.2, "bed": 0.25}

# What a place is worth to a traveller on a drive, by its kind: a national park over a memorial.
ROAD_WEIGHT = {"national_park": 4.0, "protected_area": 2.5, "nature_reserve": 1.5, "waterfall": 2.0, "arch": 2.0,
               "peak": 1.0, "beach": 1.0, "viewpoint": 1.2, "museum": 1.2, "gallery": 0.6, "zoo": 1.0,
               "aquarium": 1.5, "attraction": 0.8, "theme_park": 0.5, "castle": 1.5, "palace": 1.2, "fort": 1.0,
               "monument": 0.5, "memorial": 0.2, "ruins": 0.6, "archaeological_site": 1.0, "monastery": 0.8,
               "place_of_worship": 0.6}
# Places to sleep along a corridor: ranked 0 (a bed is chosen by the night, not by fame).
BED_KINDS = ("hotel", "motel", "guest_house", "hostel", "camp_site")


def city_rank(p: PackPlace, centre: Geo) -> float:
    """A city pack place's rank: its kind, fame links, known hours, then less the farther from the centre."""
    t = p.tags
    value = CATEGORY_WEIGHT.get(p.category, 0.0)
    value += (FAME_WEIGHT["wikidata"] * bool(t.get("wikidata")) + FAME_WEIGHT["wikipedia"] * bool(t.get("wikipedia"))
              + FAME_WEIGHT["website"] * bool(t.get("website")))
    value += 1.5 * bool(t.get("opening_hours"))
    if p.kind == "sight":
        value += 1.0 * (p.category in ("museum", "gallery", "zoo", "aquarium", "attraction", "viewpoint"))
    elif p.kind == "food":
        value += 0.5 * bool(t.get("cuisine"))
    else:
        value += 1.0 * (stars_of(t) is not None)
    return value - KM_PENALTY[p.kind] * haversine_m(Geo(lat=p.lat, lon=p.lon), centre) / 1000


def road_rank(category: str, tags: dict) -> float:
    """The kind of place, a Wikidata/Wikipedia entry, a ``tourism`` tag, known hours, a website
    (the trip adds its themes and the distance from the road: ``roadtrip/osm_stops.py``)."""
    if category in BED_KINDS:
        return 0.0
    value = (ROAD_WEIGHT.get(category, 0.3) + FAME_WEIGHT["wikidata"] * bool(tags.get("wikidata"))
             + FAME_WEIGHT["wikipedia"] * bool(tags.get("wikipedia")))
    value += (0.5 * bool(tags.get("tourism")) + 0.5 * bool(tags.get("opening_hours"))
              + FAME_WEIGHT["website"] * bool(tags.get("website")))
    return round(value, 2)
