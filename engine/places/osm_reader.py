"""The one OpenStreetMap reader: an element's tags → a :class:`~engine.models.place.Place` (issue 30 §1).

City packs (``pack_build``), corridor chunks (``corridor``) and saved-place look-ups
(``saved_lookup``) all read elements here — :func:`read_row` (or :func:`row_or_why`) for what they
store, :func:`read_element` for the whole place — and the planners read their stored rows back
here (``PackPlace.place()``, ``RoadPlace.place()``: :func:`stored_place`), so each question has
one answer:

- **kind** — ``osm_tags.read_tags``: a sight, a place to eat, a bed, or nothing (private, closed,
  nameless); ``road=True`` reads the road-trip table.
- **what planning keeps** — ``osm_tags.kept_tags``; the derived facts (venue type, themes, indoor,
  a visit's minutes, kid-friendliness) are read from the kept tags, so a place read from an element
  and the same place read back from a pack or a chunk are one place.
- **hours** — the element's ``opening_hours`` as it states them, or ``None``. What an untagged
  place is planned as is :func:`open_when_untagged`: always open when it is an outdoor place with no
  gate, else unknown — one rule for city packs and corridors (until issue 30 they differed).
- **fame** — ``Fame.of_tags`` of the element's whole tag set (Wikidata, Wikipedia, heritage, how
  many ``name:xx``, ``tourism=attraction``) and the size of its ``bounds``, kept in packs and chunks;
  ``ranking.fame_score`` is what a city pack's rank makes of them.
- **price** — OSM states one only as ``fee=no`` (free) here; ``charge`` needs the day's FX rate and
  every other price is an estimate by country, both made where the city is planned (``pack_city``).
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from engine.models.place import Fame, Place, names_of, translations_of

from .osm_tags import Reading, kept_tags, kid_friendly, read_tags
from .overpass import Element, element_url

OsmType = Literal["node", "way", "relation"]
# Historic structures out of doors, planned as always open when they publish no hours …
OUTDOOR_HISTORIC = {"bridge", "monument", "memorial", "ruins", "battlefield", "milestone",
                    "wayside_cross", "wayside_shrine"}
# … and outdoor places that have a gate and a ticket office: their hours are unknown until tagged.
GATED = {("tourism", "zoo"), ("tourism", "theme_park"), ("historic", "archaeological_site")}


class OsmRow(NamedTuple):
    """What a pack, a chunk or the saved-places cache keeps of an element (``PackPlace.of`` takes
    it as it takes a :class:`Place`, ``RoadPlace.of`` takes it): its identity, what it is, where,
    the kept tags, and the element's own tags for the fame signals only they give."""

    osm_type: OsmType
    osm_id: int
    kind: str
    key: str
    category: str
    name: str
    lat: float
    lon: float
    tags: dict[str, str]
    source: dict[str, str]  # the element's tags, as they came
    rank: float = 0.0
    size_m2: float | None = None  # the area of the element's ``bounds`` (a way's, a relation's)

    @property
    def fame(self) -> Fame:
        return Fame.of_tags(self.source, self.size_m2)

    @property
    def translations(self) -> int:
        return translations_of(self.source)

    @property
    def names(self) -> dict[str, str]:
        """Every language the element names the place in (the kept tags hold ``name:en`` only)."""
        return names_of(self.source)


def read_row(element: Element, *, road: bool = False) -> OsmRow | None:
    """The row of an element a traveller may be sent to, or None (not for travellers, or no
    position). The cheap half of :func:`read_element`: what is stored, nothing derived."""
    row = row_or_why(element, road=road)
    return None if isinstance(row, str) else row


def row_or_why(element: Element, *, road: bool = False) -> OsmRow | str:
    """:func:`read_row`, or why there is none: ``not_for_travellers`` or ``no_position``."""
    reading = read_tags(element.tags, road=road)
    if reading is None:
        return "not_for_travellers"
    point = element.point()
    if point is None:
        return "no_position"
    return OsmRow(element.type, element.id, reading.kind, reading.key, reading.value,
                  element.tags["name"].strip()[:255], round(point[0], 6), round(point[1], 6),
                  kept_tags(element.tags, road=road), element.tags, size_m2=element.size_m2())


def read_element(element: Element, *, road: bool = False) -> Place | None:
    """The place an element is to a traveller, or None (not for travellers, or no position): its
    row's place, with every name the element gives (the kept tags hold one translation)."""
    row = read_row(element, road=road)
    if row is None:
        return None
    return stored_place(*row[:9], road=road, names=row.names, fame=row.fame)


def stored_place(osm_type: OsmType, osm_id: int, kind: str, key: str, category: str, name: str, lat: float,
                 lon: float, tags: dict[str, str], *, road: bool = False, rank: float = 0.0,
                 names: dict[str, str] | None = None, fame: Fame | None = None) -> Place:
    """The place of a stored row (a pack's, a chunk's, a saved look-up's): its facts read again
    from the tags kept, with the tag that says what it is; ``names``/``fame`` when the row (or the
    element) knows more than its kept tags."""
    reading = reread(tags, name, key, category, road=road)
    hours = tags.get("opening_hours", "").strip() or None
    return Place(ref=osm_ref(osm_type, osm_id), osm_type=osm_type, osm_id=osm_id, kind=kind, key=key,
                 category=category, name=name, names=names_of(tags) if names is None else names, lat=lat,
                 lon=lon, hours=hours, price=0.0 if tags.get("fee") == "no" else None,
                 indoor=reading.indoor if reading else None, kid_friendly=_kids(kind, category, reading, tags),
                 venue_type=reading.venue_type if reading else "other", themes=reading.themes if reading else (),
                 minutes=reading.minutes if reading else 60, fame=Fame.of_tags(tags) if fame is None else fame,
                 data_source="osm", source_url=element_url(osm_type, osm_id), tags=tags, rank=rank)


def reread(tags: dict[str, str], name: str, key: str, category: str, *, road: bool = False) -> Reading | None:
    """What a stored place is to the planner, read again from its kept tags."""
    return read_tags({**tags, "name": name, key: category}, road=road)


def open_when_untagged(reading: Reading | None, tags: dict[str, str]) -> bool:
    """Whether a place with no ``opening_hours`` is planned as always open; otherwise its hours are
    unknown. One rule for city and road trips alike: an **outdoor place with no gate** — a viewpoint,
    a monument or memorial, a square, ruins, a park, a garden, a nature reserve, a national park, any
    ``natural=*`` feature (a waterfall, a peak, a beach) and outdoor historic structures
    (:data:`OUTDOOR_HISTORIC`). A place that has a gate is never assumed open: one that charges
    admission (``fee=yes``, a ``charge``), and the fenced, ticketed kinds (:data:`GATED`: a zoo, a
    theme park, an archaeological site)."""
    if reading is None or tags.get("fee") == "yes" or tags.get("charge"):
        return False
    if (reading.key, reading.value) in GATED:
        return False
    return reading.indoor is False or "natural" in tags or tags.get("historic") in OUTDOOR_HISTORIC


def osm_ref(osm_type: str, osm_id: int) -> str:
    """The planner's id of an OSM element: ``osm_n123`` / ``osm_w456`` / ``osm_r789``."""
    return f"osm_{osm_type[0]}{osm_id}"


def _kids(kind: str, category: str, reading: Reading | None, tags: dict[str, str]) -> bool | None:
    if kind == "bed":
        return category != "hostel"
    return kid_friendly(reading, tags) if reading else None
