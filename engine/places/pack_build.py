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
from .osm_reader import PlaceRow, row_or_why
from .overpass import Answer, Element
from .pack import CityPack, PackAirport
from .ranking import city_rank, fame_of

TWIN_METRES = 150


def build_pack(spec: CitySpec, answer: Answer, *, box: BBox, tz: str, currency: str,
               airports: list[PackAirport], fetched_at: datetime, source_url: str) -> CityPack:
    centre = Geo(lat=spec.lat, lon=spec.lon)
    places, dropped = read_places(answer.elements, box)
    places = [p.replace(rank=round(city_rank(p, centre), 3)) for p in dedupe(places, dropped)]
    places.sort(key=lambda p: (p.kind, -p.rank, p.osm_id))
    return CityPack(slug=spec.slug, name=spec.name, label=spec.label, country=spec.country,
                    admin1=spec.admin1, tz=tz, currency=currency, center_lat=spec.lat, center_lon=spec.lon,
                    bbox=(box.south, box.west, box.north, box.east), population=spec.population,
                    airports=airports, places=places, fetched_at=fetched_at,
                    osm_base=answer.osm3s.timestamp_osm_base, source_url=source_url, dropped=dict(dropped))


def with_sitelinks(pack: CityPack, counts: dict[str, int], status: str) -> CityPack:
    """The pack with Wikidata's sitelink counts in its places' fame, ranked again (``wikidata.py``);
    ``status`` is kept so the pack is never asked again ("answered", or why not)."""
    centre = Geo(lat=pack.center_lat, lon=pack.center_lon)
    places = []
    for p in pack.places:
        fame = fame_of(p)
        qid = _first_qid(fame.wikidata)
        if qid in counts:
            p = p.replace(fame=fame.model_copy(update={"sitelinks": counts[qid]}))
            p = p.replace(rank=round(city_rank(p, centre), 3))
        places.append(p)
    places.sort(key=lambda p: (p.kind, -p.rank, p.osm_id))
    return pack.model_copy(update={"places": places, "sitelinks": status})


def _first_qid(value: str | None) -> str | None:
    from .wikidata import item_ids
    found = item_ids([value], 1)
    return found[0] if found else None


def read_places(elements: list[Element], box: BBox) -> tuple[list[PlaceRow], Counter]:
    """Every element a traveller may be sent to, once per OSM identity; the rest counted by why."""
    out: dict[tuple[str, int], PlaceRow] = {}
    dropped: Counter = Counter()
    for element in elements:
        row = row_or_why(element)
        if isinstance(row, str):
            dropped[row] += 1
        elif not box.contains(*(element.point() or (row.lat, row.lon))):  # its own point, not the rounded one
            dropped["outside_the_city"] += 1
        elif (element.type, element.id) not in out:
            out[(element.type, element.id)] = row
    return list(out.values()), dropped


def dedupe(places: list[PlaceRow], dropped: Counter) -> list[PlaceRow]:
    """One place per (kind, name) cluster within ``TWIN_METRES``: the one with more tags wins."""
    by_name: dict[tuple[str, str], list[PlaceRow]] = {}
    for p in places:
        by_name.setdefault((p.kind, name_key(p.name)), []).append(p)
    kept = []
    for group in by_name.values():
        group.sort(key=lambda p: (-len(p.tags), p.osm_type != "node", p.osm_id))
        chosen: list[PlaceRow] = []
        for p in group:
            if any(haversine_m(_geo(p), _geo(c)) <= TWIN_METRES for c in chosen):
                dropped["duplicate"] += 1
                continue
            chosen.append(p)
        kept += chosen
    return kept


def _geo(p: PlaceRow) -> Geo:
    return Geo(lat=p.lat, lon=p.lon)
