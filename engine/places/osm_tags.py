"""What an OpenStreetMap element is to a traveller, read from its tags alone.

Each element of a city's Overpass answer becomes a sight, a place to eat or a place to stay — or
nothing: private, disused, demolished and closed places are dropped, and so is anything with no
name (a traveller cannot look for it). The mapping onto the planner's venue types and themes is
the one table here; ``overpass.py`` asks Overpass for exactly the tags this table reads.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from engine.models.place import Kind

# (tag key, value) → (venue type, themes, indoor, minutes of a visit)
SIGHT_TAGS: dict[tuple[str, str], tuple[str, tuple[str, ...], bool | None, int]] = {
    ("tourism", "museum"): ("museum", ("art", "history", "culture"), True, 120),
    ("tourism", "gallery"): ("museum", ("art", "culture"), True, 90),
    ("tourism", "zoo"): ("park", ("family", "outdoor"), False, 180),
    ("tourism", "aquarium"): ("museum", ("family", "science"), True, 150),
    ("tourism", "theme_park"): ("park", ("family",), False, 300),
    ("tourism", "viewpoint"): ("landmark", ("views", "photography"), False, 45),
    ("tourism", "attraction"): ("landmark", ("culture", "architecture"), None, 75),
    ("historic", "castle"): ("landmark", ("history", "architecture"), None, 120),
    ("historic", "fort"): ("landmark", ("history",), None, 90),
    ("historic", "palace"): ("landmark", ("history", "architecture"), True, 120),
    ("historic", "monument"): ("landmark", ("history",), False, 30),
    ("historic", "memorial"): ("landmark", ("history",), False, 30),
    ("historic", "ruins"): ("landmark", ("history",), False, 60),
    ("historic", "archaeological_site"): ("landmark", ("history",), False, 90),
    ("historic", "monastery"): ("temple", ("history", "religion", "architecture"), True, 90),
    # indoor or not from its religion and building (``_worship_indoor``): a shrine is open air
    ("amenity", "place_of_worship"): ("temple", ("religion", "architecture"), None, 45),
    ("amenity", "marketplace"): ("market", ("shopping", "food"), None, 60),
    ("leisure", "park"): ("park", ("outdoor",), False, 60),
    ("leisure", "garden"): ("park", ("outdoor",), False, 60),
    ("leisure", "nature_reserve"): ("park", ("outdoor",), False, 120),
    ("place", "square"): ("landmark", ("architecture", "photography"), False, 30),
}
FOOD_TAGS = {("amenity", "restaurant"): "restaurant", ("amenity", "cafe"): "cafe",
             ("amenity", "food_court"): "food_court"}
BED_TAGS = {("tourism", "hotel"): "hotel", ("tourism", "guest_house"): "guest_house",
            ("tourism", "hostel"): "hostel", ("tourism", "apartment"): "apartment"}

# Road trips (issue 20 §1–2) read their own table: what a driver stops for along a corridor —
# parks and monuments, waterfalls, peaks, arches and beaches, museums, historic sites — and where a
# driver sleeps (motels and camp sites too). City packs never read it (``road=False``).
ROAD_SIGHT_TAGS: dict[tuple[str, str], tuple[str, tuple[str, ...], bool | None, int]] = {
    ("boundary", "national_park"): ("park", ("nature", "outdoor"), False, 180),
    ("boundary", "protected_area"): ("park", ("nature", "outdoor"), False, 120),
    ("leisure", "nature_reserve"): ("park", ("nature", "outdoor"), False, 90),
    ("natural", "waterfall"): ("landmark", ("nature", "views"), False, 45),
    ("natural", "arch"): ("landmark", ("nature", "views"), False, 60),
    ("natural", "peak"): ("landmark", ("nature", "views"), False, 45),
    ("natural", "beach"): ("park", ("beach", "outdoor"), False, 60),
    **{kv: v for kv, v in SIGHT_TAGS.items() if kv[0] in ("tourism", "historic")},
    ("amenity", "place_of_worship"): SIGHT_TAGS[("amenity", "place_of_worship")],
}
ROAD_BED_TAGS = {**{kv: v for kv, v in BED_TAGS.items() if kv != ("tourism", "apartment")},
                 ("tourism", "motel"): "motel", ("tourism", "camp_site"): "camp_site"}
# A protected area is a sight when it is a park or monument people visit: IUCN class 2 (national
# park), 3 (natural monument) or 5 (protected landscape), or a designation/title that says so.
ROAD_PROTECT_CLASSES = {"2", "3", "5"}
ROAD_PARK_WORDS = ("national park", "state park", "national monument", "national_park", "state_park",
                   "national_monument", "state historic park", "state_historic_park", "state beach",
                   "state natural reserve", "national seashore", "national recreation area")

# Places with no gate: without an opening_hours tag they are open whenever one can stand there.
DROPPED_ACCESS = {"no", "private"}
LIFECYCLE_PREFIXES = ("disused:", "abandoned:", "demolished:", "razed:", "removed:", "was:")
KEPT_TAGS = ("name", "name:en", "opening_hours", "wikidata", "wikipedia", "website", "fee", "charge",
             "stars", "cuisine", "wheelchair", "indoor", "building", "check_in", "check_out", "access",
             "addr:street", "addr:housenumber", "heritage", "artwork_type", "religion", "place")
ROAD_KEPT_TAGS = (*KEPT_TAGS, "tourism", "historic", "natural", "protect_class", "designation",
                  "protection_title", "ele", "description")
KID_UNFRIENDLY_CUISINE = {"wine_bar", "bar", "pub"}

# What a place to eat is for (issue 31 §3): a café, a coffee stand, a bakery, a pastry or a sweets
# shop is for breakfast or a snack, never a planned lunch or dinner; a diner or a breakfast place
# serves mornings (its own hours when OSM has them, morning hours assumed when not); any other
# table serves lunch and dinner. OSM's ``cuisine`` values (``;``-separated, ``_`` for spaces) and the
# words of a table's cuisine label both read through these sets.
SNACK_CUISINES = frozenset({"coffee_shop", "coffee", "cafe", "café", "bakery", "pastry", "cake", "confectionery",
                            "dessert", "ice_cream", "frozen_yogurt", "donut", "doughnut", "tea", "bubble_tea",
                            "japanese_sweets", "sweets", "chocolate", "waffle", "juice", "custard_tart"})
BREAKFAST_CUISINES = frozenset({"breakfast", "diner", "brunch", "pancake", "pancakes", "bagel"})
# the words of those cuisines that say "snack" alone ("coffee shop", "ice cream", "japanese sweets")
SNACK_LABEL_WORDS = frozenset({"coffee", "cafe", "café", "bakery", "pastry", "cake", "confectionery", "dessert",
                               "ice", "yogurt", "donut", "doughnut", "tea", "sweets", "chocolate", "waffle",
                               "juice", "custard"})
SNACK_WORD = "café"  # added to a snack place's cuisine label when its cuisine does not say so
BREAKFAST_WORD = "breakfast"
MealUse = Literal["snack", "breakfast", "meal"]
THEME_WORDS_IN_TAGS = {"art": ("art",), "science": ("science", "technology"), "history": ("history",)}


@dataclass(frozen=True)
class Reading:
    """What one element is: its kind, the tag that says so and the planner's words for it."""

    kind: Kind
    key: str
    value: str
    venue_type: str = "other"
    themes: tuple[str, ...] = ()
    indoor: bool | None = None
    minutes: int = 60


def read_tags(tags: dict[str, str], *, road: bool = False) -> Reading | None:
    """The element's reading, or None when a traveller should never be sent there. ``road``:
    the road-trip table (sights along a corridor and beds for a driver; no food)."""
    if not tags.get("name") or dropped(tags):
        return None
    if road:
        return _road_reading(tags)
    for key, value in BED_TAGS:
        if tags.get(key) == value:
            return Reading("bed", key, value, venue_type="other", indoor=True)
    for pair in FOOD_TAGS:
        if tags.get(pair[0]) == pair[1]:
            return Reading("food", pair[0], pair[1], venue_type="other", themes=("food",), indoor=True, minutes=75)
    return _sight(tags)


def _sight(tags: dict[str, str]) -> Reading | None:
    """The most specific reading: ``tourism=attraction`` only when nothing else says what it is
    (a castle tagged as an attraction is still a castle)."""
    found = [(key, value) for key, value in SIGHT_TAGS if tags.get(key) == value]
    specific = [kv for kv in found if kv != ("tourism", "attraction")] or found
    if not specific:
        return None
    key, value = specific[0]
    if key == "amenity" and value == "place_of_worship" and not _visitable_worship(tags):
        return None
    venue_type, themes, indoor, minutes = SIGHT_TAGS[(key, value)]
    if (key, value) == ("amenity", "place_of_worship"):
        indoor = _worship_indoor(tags)
    return Reading("sight", key, value, venue_type, _themes(themes, tags), _indoor(indoor, tags), minutes)


# A place of worship is a hall (a church, a mosque: indoor) or a compound of halls, gates and
# gardens walked in the open (a Shinto shrine, a Buddhist or Hindu temple: outdoor) — unknown when
# no tag says which.
HALL_BUILDINGS = frozenset({"cathedral", "church", "basilica", "chapel", "mosque", "synagogue"})
COMPOUND_RELIGIONS = frozenset({"shinto", "buddhist", "hindu", "taoist"})


def _worship_indoor(tags: dict[str, str]) -> bool | None:
    if tags.get("building") in HALL_BUILDINGS or tags.get("religion") in ("christian", "muslim", "jewish"):
        return True
    if tags.get("religion") in COMPOUND_RELIGIONS or tags.get("building") == "shrine":
        return False
    return None


def _road_reading(tags: dict[str, str]) -> Reading | None:
    for (key, value), kind in ROAD_BED_TAGS.items():
        if tags.get(key) == value:
            return Reading("bed", key, value, venue_type=kind, indoor=value != "camp_site")
    found = [(k, v) for k, v in ROAD_SIGHT_TAGS if tags.get(k) == v]
    specific = [kv for kv in found if kv != ("tourism", "attraction")]
    for key, value in [*specific, *(kv for kv in found if kv not in specific)]:  # an attraction last
        if _road_worthy(key, value, tags):
            venue_type, themes, indoor, minutes = ROAD_SIGHT_TAGS[(key, value)]
            if (key, value) == ("amenity", "place_of_worship"):
                indoor = _worship_indoor(tags)
            return Reading("sight", key, value, venue_type, _themes(themes, tags), _indoor(indoor, tags), minutes)
    return None


def _road_worthy(key: str, value: str, tags: dict[str, str]) -> bool:
    """What is worth a stop on a drive: a protected area only when it is a park or monument, a
    peak, a memorial or a place of worship only when it is known (Wikidata, a tourism tag)."""
    known = bool(tags.get("wikidata") or tags.get("wikipedia"))
    if (key, value) == ("boundary", "protected_area"):
        said = " ".join(tags.get(k, "") for k in ("designation", "protection_title")).lower()
        return tags.get("protect_class", "") in ROAD_PROTECT_CLASSES or any(w in said for w in ROAD_PARK_WORDS)
    if (key, value) == ("leisure", "nature_reserve"):
        return known or bool(tags.get("tourism"))
    if (key, value) == ("natural", "peak"):
        return known or bool(tags.get("tourism"))
    if (key, value) in (("historic", "memorial"), ("amenity", "place_of_worship")):
        return known or bool(tags.get("tourism") or tags.get("heritage"))
    return True


def dropped(tags: dict[str, str]) -> bool:
    """Private, closed for good or only in the past: never planned."""
    if tags.get("access") in DROPPED_ACCESS:
        return True
    if any(k.startswith(LIFECYCLE_PREFIXES) for k in tags):
        return True
    return tags.get("opening_hours", "").strip().lower() == "closed"


def _visitable_worship(tags: dict[str, str]) -> bool:
    """A parish church is no sight; a cathedral, a listed or famous one is."""
    return bool(tags.get("wikidata") or tags.get("wikipedia") or tags.get("tourism") or tags.get("heritage")
                or tags.get("building") in ("cathedral", "basilica", "mosque", "temple", "shrine"))


def _themes(base: tuple[str, ...], tags: dict[str, str]) -> tuple[str, ...]:
    extra = [t for t, words in THEME_WORDS_IN_TAGS.items()
             if any(w in (tags.get("museum", "") + " " + tags.get("subject", "")).lower() for w in words)]
    if tags.get("tourism") in ("zoo", "aquarium", "theme_park") or tags.get("kids") == "yes":
        extra.append("family")
    return tuple(dict.fromkeys([*base, *extra]))


# A district or a square mapped as a sight (``place=quarter`` + ``tourism=attraction``: Kyoto's Gion)
# is walked in the open, with no gate.
OUTDOOR_PLACES = frozenset({"square", "quarter", "neighbourhood"})


def _indoor(default: bool | None, tags: dict[str, str]) -> bool | None:
    said = tags.get("indoor")
    if said in ("yes", "room", "area"):
        return True
    if said == "no" or tags.get("place") in OUTDOOR_PLACES:
        return False
    return default


def kept_tags(tags: dict[str, str], *, road: bool = False) -> dict[str, str]:
    """The tags the pack keeps of an element: what planning, ranking and the traveller read."""
    return {k: str(tags[k])[:255] for k in (ROAD_KEPT_TAGS if road else KEPT_TAGS) if k in tags}


def stars_of(tags: dict[str, str]) -> int | None:
    text = tags.get("stars", "").strip().upper().rstrip("S")
    try:
        stars = int(float(text))
    except ValueError:
        return None
    return stars if 1 <= stars <= 5 else None


def kid_friendly(reading: Reading, tags: dict[str, str]) -> bool | None:
    """Only what the tags say or what the kind of place makes plain; None is 'not known'."""
    if tags.get("kids") == "yes" or "family" in reading.themes:
        return True
    if reading.kind == "food":
        return not any(c in KID_UNFRIENDLY_CUISINE for c in tags.get("cuisine", "").split(";"))
    if reading.venue_type in ("park", "landmark"):
        return True
    return None


def cuisines_of(tags: dict[str, str]) -> list[str]:
    """OSM's ``cuisine`` values, lower case, in the mapper's order."""
    return [c.strip().lower() for c in tags.get("cuisine", "").split(";") if c.strip()]


def meal_use(category: str, tags: dict[str, str]) -> MealUse:
    """What an OSM place to eat is for: ``snack`` (a café — ``amenity=cafe`` whatever it serves —
    or a place whose every cuisine is coffee, pastry, sweets...), ``breakfast`` (a diner, a
    breakfast or brunch place) or ``meal`` (lunch and dinner)."""
    cuisines = cuisines_of(tags)
    if any(c in BREAKFAST_CUISINES for c in cuisines):
        return "breakfast"
    if category == "cafe" or (cuisines and all(c in SNACK_CUISINES for c in cuisines)):
        return "snack"
    return "meal"


def meal_use_of_label(label: str) -> MealUse:
    """The same reading from a table's cuisine label ("coffee shop", "italian café", "american
    breakfast"): the words of the label against the cuisine sets."""
    words = set(re.findall(r"[^\W\d]+", label.lower()))
    if words & BREAKFAST_CUISINES:
        return "breakfast"
    if words & SNACK_LABEL_WORDS:
        return "snack"
    return "meal"


# Words in a museum's name that make it a national museum ("Museu Nacional", "国立").
NATIONAL_WORDS = ("national", "nacional", "nazionale", "nationale", "国立")


def admission_kind(category: str, tags: dict[str, str]) -> str:
    """The kind a sight's admission is published by: a place of worship as ``temple`` (Buddhist,
    Hindu, Taoist), ``shrine`` (Shinto), ``cathedral`` (a cathedral or a basilica), ``monastery``
    or ``church``; a museum named national as ``national_museum``; else its OSM category."""
    if category == "place_of_worship":
        building, religion = tags.get("building"), tags.get("religion")
        if religion == "shinto" or building == "shrine":
            return "shrine"
        if religion in ("buddhist", "hindu", "taoist") or building == "temple":
            return "temple"
        return "cathedral" if building in ("cathedral", "basilica") else "church"
    if category == "museum":
        names = " ".join(v for k, v in tags.items() if k == "name" or k.startswith("name:")).lower()
        return "national_museum" if any(w in names for w in NATIONAL_WORDS) else "museum"
    return category