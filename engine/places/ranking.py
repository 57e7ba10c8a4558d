"""How places are ranked: what a city pack's places and a corridor's places are worth to a traveller
before the trip's own wishes (themes, the day's route) are weighed. The one home of the weights.

A city's sights are ranked first by how well known they are (issue 31 §1): :func:`fame_score` reads
the signals open data carries (``Fame``: a Wikidata entry and how many sites link it, a Wikipedia
article, a heritage listing, how many languages name it, the mapped feature's size,
``tourism=attraction``) and outweighs the kind of place, so the world's best-known basilica ranks
above a small museum however the museum is tagged.

A city pack ranks each place once when it is built (``pack_build``); a corridor chunk ranks each of
its places when it is read (``corridor``); the road planner then adds the trip's themes and the
distance off the road (``roadtrip/osm_stops.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

import math

from engine.geo import haversine_m
from engine.models import Geo
from engine.models.place import Fame, Place

from .osm_tags import stars_of
from .osm_reader import PlaceRow

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

# What each fame signal adds to a sight (:func:`fame_score`). Heritage by OSM's ``heritage`` level:
# 1 is a World Heritage listing (UNESCO), 2 a national one; any other level or body counts less.
FAME_SIGNAL = {"wikidata": 2.0, "wikipedia": 1.0, "attraction": 1.0}
HERITAGE_WEIGHT = {"1": 4.0, "2": 2.0}
OTHER_HERITAGE = 1.0
TRANSLATIONS_CAP = 5.0  # log2(1 + languages): 1 language 1, 7 languages 3, 31 and more 5
SIZE_FLOOR_M2 = 1_000.0  # below a large house's footprint, size says nothing
SIZE_CAP = 2.0  # log10(area / 1,000 m²): a hectare 1, ten hectares and more 2
# Online, in place of the Wikidata/Wikipedia points: 1.5 × log2(1 + sitelinks) − 2 — 3 links 1,
# 15 links 4, 127 links 8.5, 400 links and more 10.5.
SITELINKS_FACTOR = 1.5
SITELINKS_OFFSET = 2.0
SITELINKS_CAP = 10.5
FAMOUS_COUNT = 10  # a city's best-known sights: a 4–5 day trip includes most of them (``planning/famous.py``)
FAMOUS_FLOOR = 2.0

# What a place is worth to a traveller on a drive, by its kind: a national park over a memorial.
ROAD_WEIGHT = {"national_park": 4.0, "protected_area": 2.5, "nature_reserve": 1.5, "waterfall": 2.0, "arch": 2.0,
               "peak": 1.0, "beach": 1.0, "viewpoint": 1.2, "museum": 1.2, "gallery": 0.6, "zoo": 1.0,
               "aquarium": 1.5, "attraction": 0.8, "theme_park": 0.5, "castle": 1.5, "palace": 1.2, "fort": 1.0,
               "monument": 0.5, "memorial": 0.2, "ruins": 0.6, "archaeological_site": 1.0, "monastery": 0.8,
               "place_of_worship": 0.6}
# Places to sleep along a corridor: ranked 0 (a bed is chosen by the night, not by fame).
BED_KINDS = ("hotel", "motel", "guest_house", "hostel", "camp_site")


def fame_score(fame: Fame) -> float:
    """How well known a place is, from what open data says of it (0: nothing says it is known).

    Online, the number of sites linking its Wikidata entry is the strongest signal (a world-famous
    basilica has well over a hundred, a district museum a handful) and replaces the points for
    having a Wikidata entry or a Wikipedia article; offline those stand in, with a heritage listing
    and the number of languages naming it, which count either way."""
    value = FAME_SIGNAL["attraction"] * fame.attraction
    if fame.sitelinks is not None:  # how many sites link the entry: it says more than that there is one
        value += min(SITELINKS_CAP, max(0.0, SITELINKS_FACTOR * math.log2(1 + fame.sitelinks) - SITELINKS_OFFSET))
    else:
        value += FAME_SIGNAL["wikidata"] * bool(fame.wikidata) + FAME_SIGNAL["wikipedia"] * bool(fame.wikipedia)
    if fame.heritage:
        value += HERITAGE_WEIGHT.get(fame.heritage.strip(), OTHER_HERITAGE)
    if fame.translations:
        value += min(TRANSLATIONS_CAP, math.log2(1 + fame.translations))
    if fame.size_m2 and fame.size_m2 > SIZE_FLOOR_M2:
        value += min(SIZE_CAP, math.log10(fame.size_m2 / SIZE_FLOOR_M2))
    return round(value, 3)


def best_known(sights: Sequence[Place | PlaceRow], limit: int = FAMOUS_COUNT) -> list[str]:
    """The refs of the best-known sights, best first: at most ``limit``, each with more fame than
    :data:`FAMOUS_FLOOR` (a name in one other language, or an attraction tag alone, is not fame)."""
    scored = sorted(((fame_score(fame_of(p)), p) for p in sights), key=lambda sp: (-sp[0], -sp[1].rank, sp[1].osm_id or 0))
    return [p.ref for score, p in scored if score >= FAMOUS_FLOOR][:limit]


def fame_of(p: Place | PlaceRow) -> Fame:
    """A pack row's fame signals (a pack read before they were kept: what its kept tags say)."""
    return p.fame


def city_rank(p: PlaceRow, centre: Geo) -> float:
    """A city pack place's rank: for a sight, how well known it is (:func:`fame_score`) and its
    kind; for a meal or a bed its kind and links; known hours; then less the farther from the centre."""
    t = p.tags
    value = CATEGORY_WEIGHT.get(p.category, 0.0)
    value += 1.5 * bool(t.get("opening_hours"))
    if p.kind == "sight":
        value += fame_score(fame_of(p)) + FAME_WEIGHT["website"] * bool(t.get("website"))
        value += 1.0 * (p.category in ("museum", "gallery", "zoo", "aquarium", "attraction", "viewpoint"))
    else:
        value += (FAME_WEIGHT["wikidata"] * bool(t.get("wikidata")) + FAME_WEIGHT["wikipedia"] * bool(t.get("wikipedia"))
                  + FAME_WEIGHT["website"] * bool(t.get("website")))
        value += 0.5 * bool(t.get("cuisine")) if p.kind == "food" else 1.0 * (stars_of(t) is not None)
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
