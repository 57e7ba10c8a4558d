"""The one OpenStreetMap reader: an element's tags → a :class:`~engine.models.place.Place` (issue 30 §1).

City packs (``pack_build``), corridor chunks (``corridor``) and saved-place look-ups
(``saved_lookup``) all read elements here — :func:`read_row` (or :func:`row_or_why`) for what they
store, :func:`read_element` for the whole place — and the planners read their stored rows back
here: all three store a :class:`PlaceRow` (one row class; ``PlaceRow.place()`` →
:func:`stored_place`), so each question has one answer:

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

import json
from typing import Any, Literal, cast

from pydantic_core import SchemaValidator, core_schema

from engine.models.place import Fame, Place, names_of, translations_of

from .osm_tags import Reading, kept_tags, kid_friendly, read_tags
from .overpass import Element, element_url

OsmType = Literal["node", "way", "relation"]
# Historic structures out of doors, planned as always open when they publish no hours …
OUTDOOR_HISTORIC = {"bridge", "monument", "memorial", "ruins", "battlefield", "milestone",
                    "wayside_cross", "wayside_shrine"}
# … and outdoor places that have a gate and a ticket office: their hours are unknown until tagged.
GATED = {("tourism", "zoo"), ("tourism", "theme_park"), ("historic", "archaeological_site")}


class PlaceRow:
    """What a city pack, a corridor chunk or the saved-places cache keeps of an OpenStreetMap element
    — one row class for the three: its identity, what it is, where, the tags planning reads, its rank,
    and what only the element's whole tag set says (fame signals, its names in every language).
    :meth:`place` is the :class:`Place` it keeps (:func:`stored_place`, the one way back).

    Built for many rows and few reads (a corridor holds thousands, a trip looks at a few): slotted,
    the tags and names stay a chunk file's JSON text until something reads them, and rows are not
    changed once made (:meth:`replace` gives another). Stored two ways: a pack's or the saved-places
    cache's JSON object (:meth:`to_json` / :meth:`of_json`, the fields by name, ``fame`` whole) and a
    chunk's list (:meth:`chunk_row` / ``PlaceRow(*row, road=True)``, ``fame`` as its count of
    languages only). Rows written before fame or names were kept (``fame``/``names`` absent or None,
    a chunk row of 10 or 11 items) read their fame and names from the kept tags."""

    __slots__ = ("osm_type", "osm_id", "kind", "key", "category", "name", "lat", "lon", "_tags", "rank", "_fame",
                 "_names", "road")

    def __init__(self, osm_type: str, osm_id: int, kind: str, key: str, category: str, name: str, lat: float,
                 lon: float, tags: dict[str, str] | str, rank: float = 0.0, fame: Fame | int | str | None = None,
                 names: dict[str, str] | str | None = None, *, road: bool = False) -> None:
        # kind: sight | food | bed; key/category: the tag that says what it is ("natural"="waterfall");
        # rank: what its source's ranking made of it (``ranking.city_rank`` / ``road_rank``);
        # fame: what the element said (a Fame, or its JSON text until read), only how many languages
        # name it (a chunk's int), or None (an older row: read from the kept tags); road: read by the
        # road-trip table
        self.osm_type = osm_type  # one assignment a line: the quickest way to fill a slotted row
        self.osm_id = osm_id
        self.kind = kind
        self.key = key
        self.category = category
        self.name = name
        self.lat = lat
        self.lon = lon
        self._tags = tags
        self.rank = rank
        self._fame = fame
        self._names = names
        self.road = road

    @property
    def tags(self) -> dict[str, str]:
        tags = self._tags
        if isinstance(tags, str):
            tags = self._tags = json.loads(tags)
        return tags

    @property
    def names(self) -> dict[str, str] | None:
        """Every language the element names it in; None in a row written before they were kept."""
        names = self._names
        if isinstance(names, str):
            names = self._names = json.loads(names)
        return names

    @property
    def fame(self) -> Fame:
        """What says the place is known: the element's signals, or (an older or a chunk's row) the
        kept tags' with the languages the element named it in."""
        fame = self._fame
        if isinstance(fame, str):  # a pack's indexed copy keeps it as JSON text until read (pack_rows.py)
            fame = self._fame = Fame.model_validate_json(fame)
        if isinstance(fame, Fame):
            return fame
        kept = Fame.of_tags(self.tags)
        if fame is None:
            return kept
        return kept.model_copy(update={"translations": max(fame, kept.translations)})

    @property
    def translations(self) -> int:
        """How many languages the element names it in (a chunk row keeps this of its fame)."""
        fame = self._fame
        return fame if isinstance(fame, int) else 0 if fame is None else self.fame.translations

    @property
    def ref(self) -> str:
        """The planner's id of the place: ``osm_n123`` / ``osm_w456`` / ``osm_r789``."""
        return osm_ref(self.osm_type, self.osm_id)

    @property
    def source_url(self) -> str:
        return element_url(self.osm_type, self.osm_id)

    def place(self) -> Place:
        """The :class:`Place` this row keeps, read again from its tags."""
        return stored_place(cast(OsmType, self.osm_type), self.osm_id, self.kind, self.key, self.category, self.name,
                            self.lat, self.lon, self.tags, road=self.road, rank=self.rank, names=self.names,
                            fame=self.fame)

    def replace(self, **changes: Any) -> "PlaceRow":
        """Another row, the same but for ``changes`` (``rank=``, ``fame=``, …)."""
        fields = {name: getattr(self, name) for name in ("osm_type", "osm_id", "kind", "key", "category", "name",
                                                          "lat", "lon", "rank", "road")}
        fields |= {"tags": self._tags, "fame": self._fame, "names": self._names} | changes
        return PlaceRow(**fields)

    # -- stored as a pack's (or the saved-places cache's) JSON object --------------------------------
    def to_json(self) -> dict[str, Any]:
        """The row as its JSON object (``fame`` dumped; None in a row that never had it)."""
        fields = self._fields()
        if fields["fame"] is not None:
            fields["fame"] = fields["fame"].model_dump()
        return fields

    def _fields(self) -> dict[str, Any]:
        return {"osm_type": self.osm_type, "osm_id": self.osm_id, "kind": self.kind, "key": self.key,
                "category": self.category, "name": self.name, "lat": self.lat, "lon": self.lon, "tags": self.tags,
                "rank": self.rank, "fame": None if self._fame is None else self.fame, "names": self.names}

    @classmethod
    def of_json(cls, data: Any) -> "PlaceRow":
        """A row from its JSON object, checked against :data:`_STORED` (a damaged one raises
        pydantic's ``ValidationError``, a ``ValueError``)."""
        return _VALIDATOR.validate_python(data)

    @classmethod
    def _of_checked(cls, data: dict[str, Any]) -> "PlaceRow":
        return cls(**data)  # the schema's fields are the constructor's

    @classmethod
    def __get_pydantic_core_schema__(cls, _source: Any, _handler: Any) -> core_schema.CoreSchema:
        """Inside a pydantic model (``CityPack.places``): checked by pydantic-core against
        :data:`_STORED`, written as :meth:`to_json` gives it."""
        return _SCHEMA

    # -- stored as a corridor chunk's list -----------------------------------------------------------
    def chunk_row(self) -> list:
        """[type, id, kind, key, category, name, lat, lon, tags as JSON text, rank, translations, names as
        JSON text or None]: ``PlaceRow(*row, road=True)`` reads it back."""
        names = self._names
        return [self.osm_type, self.osm_id, self.kind, self.key, self.category, self.name, self.lat, self.lon,
                _text(self._tags), self.rank, self.translations, None if names is None else _text(names)]

    def _key(self) -> tuple:
        return (self.osm_type, self.osm_id, self.kind, self.key, self.category, self.name, self.lat, self.lon,
                self.tags, self.rank, self.fame, self.names, self.road)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PlaceRow) and self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # compared by value, like the pydantic rows it replaced

    def __repr__(self) -> str:
        return f"PlaceRow({self.ref}, {self.kind}, {self.category}, {self.name!r})"


def _field(schema: core_schema.CoreSchema, default: Any = ..., factory: Any = None) -> core_schema.TypedDictField:
    if factory is not None:
        return core_schema.typed_dict_field(core_schema.with_default_schema(schema, default_factory=factory),
                                            required=False)
    if default is not ...:
        return core_schema.typed_dict_field(core_schema.with_default_schema(schema, default=default), required=False)
    return core_schema.typed_dict_field(schema)


_STRINGS = core_schema.dict_schema(core_schema.str_schema(), core_schema.str_schema())
# The row's JSON object, checked in pydantic-core (a pack holds thousands): what the pydantic row
# class of packs and the saved-places cache declared, so every file it wrote reads.
_STORED = core_schema.typed_dict_schema({
    "osm_type": _field(core_schema.literal_schema(["node", "way", "relation"])),
    "osm_id": _field(core_schema.int_schema(gt=0)),
    "kind": _field(core_schema.literal_schema(["sight", "food", "bed"])),
    "key": _field(core_schema.str_schema()),
    "category": _field(core_schema.str_schema()),
    "name": _field(core_schema.str_schema(min_length=1, max_length=255)),
    "lat": _field(core_schema.float_schema(ge=-90, le=90)),
    "lon": _field(core_schema.float_schema(ge=-180, le=180)),
    "tags": _field(_STRINGS, factory=dict),
    "rank": _field(core_schema.float_schema(), 0.0),
    "fame": _field(core_schema.nullable_schema(Fame.__pydantic_core_schema__), None),
    "names": _field(core_schema.nullable_schema(_STRINGS), None),
}, extra_behavior="forbid")
_SCHEMA = core_schema.json_or_python_schema(
    json_schema=core_schema.no_info_after_validator_function(PlaceRow._of_checked, _STORED),
    python_schema=core_schema.union_schema([
        core_schema.is_instance_schema(PlaceRow),
        core_schema.no_info_after_validator_function(PlaceRow._of_checked, _STORED)]),
    serialization=core_schema.plain_serializer_function_ser_schema(PlaceRow._fields, return_schema=_STORED))
_VALIDATOR = SchemaValidator(_SCHEMA)


def _text(value: dict | str) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def read_row(element: Element, *, road: bool = False) -> PlaceRow | None:
    """The row of an element a traveller may be sent to, or None (not for travellers, or no
    position). The cheap half of :func:`read_element`: what is stored, nothing derived."""
    row = row_or_why(element, road=road)
    return None if isinstance(row, str) else row


def row_or_why(element: Element, *, road: bool = False) -> PlaceRow | str:
    """:func:`read_row`, or why there is none: ``not_for_travellers`` or ``no_position``. A road
    trip's row keeps of the element's fame only how many languages name it (all a chunk file
    holds), so a row fresh from the element and the same row read back from its chunk are one."""
    reading = read_tags(element.tags, road=road)
    if reading is None:
        return "not_for_travellers"
    point = element.point()
    if point is None:
        return "no_position"
    tags = element.tags
    return PlaceRow(element.type, element.id, reading.kind, reading.key, reading.value, tags["name"].strip()[:255],
                    round(point[0], 6), round(point[1], 6), kept_tags(tags, road=road),
                    fame=translations_of(tags) if road else Fame.of_tags(tags, element.size_m2()), names=names_of(tags), road=road)


def read_element(element: Element, *, road: bool = False) -> Place | None:
    """The place an element is to a traveller, or None (not for travellers, or no position): its
    row's place, with every name the element gives (the kept tags hold one translation)."""
    row = read_row(element, road=road)
    if row is None:
        return None
    return (row.replace(fame=Fame.of_tags(element.tags)) if road else row).place()


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
    """What a stored place is to the planner, read again from its kept tags. A place of worship
    was kept because it is visited (a ``tourism`` tag, which the pack does not keep, may have
    said so): it is read as one again, not lost to the gate that kept parish churches out."""
    reading = read_tags({**tags, "name": name, key: category}, road=road)
    if reading is None and (key, category) == ("amenity", "place_of_worship"):
        reading = read_tags({**tags, "name": name, key: category, "tourism": "attraction"}, road=road)
    return reading


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
