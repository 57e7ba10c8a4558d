"""An Overpass answer → a ranked, de-duplicated city pack (no curator: the tags decide).

Ranking prefers what travellers come for and what the planner can promise: places with a
Wikidata/Wikipedia entry, a ``tourism`` tag and known opening hours, the kinds of sight that fill
a morning (museums, castles) over a memorial plaque, and nearness to the centre. Twins — the same
place mapped as a node and as a building way — are kept once, with the richer tags.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime

from engine.geo import BBox, haversine_m
from engine.models import Geo

from .city_spec import CitySpec
from .identity import name_key
from .osm_reader import FAME_WEIGHT, row_or_why
from .osm_tags import stars_of
from .overpass import Answer, Element
from .pack import CityPack, PackAirport, PackPlace

TWIN_METRES = 150
CATEGORY_WEIGHT = {
    "museum": 1.0, "gallery": 0.7, "castle": 1.2, "palace": 1.2, "fort": 0.8, "aquarium": 0.9, "zoo": 0.9,
    "theme_park": 0.6, "viewpoint": 0.6, "attraction": 0.6, "monastery": 0.9, "place_of_worship": 0.5,
    "archaeological_site": 0.7, "ruins": 0.5, "marketplace": 0.5, "garden": 0.5, "park": 0.3,
    "nature_reserve": 0.3, "square": 0.3, "monument": 0.2, "memorial": 0.0,
    "restaurant": 0.3, "cafe": 0.1, "food_court": 0.4,
    "hotel": 0.4, "guest_house": 0.2, "hostel": 0.2, "apartment": 0.0,
}
KM_PENALTY = {"sight": 0.12, "food": 0.2, "bed": 0.25}


def build_pack(spec: CitySpec, answer: Answer, *, box: BBox, tz: str, currency: str,
               airports: list[PackAirport], fetched_at: datetime, source_url: str) -> CityPack:
    centre = Geo(lat=spec.lat, lon=spec.lon)
    places, dropped = read_places(answer.elements, box)
    places = [p.model_copy(update={"rank": round(score(p, centre), 3)}) for p in dedupe(places, dropped)]
    places.sort(key=lambda p: (p.kind, -p.rank, p.osm_id))
    return CityPack(slug=spec.slug, name=spec.name, label=spec.label, country=spec.country,
                    admin1=spec.admin1, tz=tz, currency=currency, center_lat=spec.lat, center_lon=spec.lon,
                    bbox=(box.south, box.west, box.north, box.east), population=spec.population,
                    airports=airports, places=places, fetched_at=fetched_at,
                    osm_base=answer.osm3s.timestamp_osm_base, source_url=source_url, dropped=dict(dropped))


def read_places(elements: list[Element], box: BBox) -> tuple[list[PackPlace], Counter]:
    """Every element a traveller may be sent to, once per OSM identity; the rest counted by why."""
    out: dict[tuple[str, int], PackPlace] = {}
    dropped: Counter = Counter()
    for element in elements:
        row = row_or_why(element)
        if isinstance(row, str):
            dropped[row] += 1
        elif not box.contains(*element.point()):  # its own point, not the rounded one
            dropped["outside_the_city"] += 1
        elif (element.type, element.id) not in out:
            out[(element.type, element.id)] = PackPlace.of(row)
    return list(out.values()), dropped


def dedupe(places: list[PackPlace], dropped: Counter) -> list[PackPlace]:
    """One place per (kind, name) cluster within ``TWIN_METRES``: the one with more tags wins."""
    by_name: dict[tuple[str, str], list[PackPlace]] = {}
    for p in places:
        by_name.setdefault((p.kind, name_key(p.name)), []).append(p)
    kept = []
    for group in by_name.values():
        group.sort(key=lambda p: (-len(p.tags), p.osm_type != "node", p.osm_id))
        chosen: list[PackPlace] = []
        for p in group:
            if any(haversine_m(_geo(p), _geo(c)) <= TWIN_METRES for c in chosen):
                dropped["duplicate"] += 1
                continue
            chosen.append(p)
        kept += chosen
    return kept


def score(p: PackPlace, centre: Geo) -> float:
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
    return value - KM_PENALTY[p.kind] * haversine_m(_geo(p), centre) / 1000


def _geo(p: PackPlace) -> Geo:
    return Geo(lat=p.lat, lon=p.lon)
