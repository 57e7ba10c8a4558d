"""One place a traveller may be sent to, whatever source told of it (issue 30 §1).

A ``Place`` is what every source says of a point of interest, in one shape: OpenStreetMap city
packs and corridor chunks, a saved place matched in OpenStreetMap (``engine/places/osm_reader.py``
reads all three from an element's tags), the shipped fixtures and a booked hotel. It keeps facts
as the source states them: its hours are the source's rule or ``None`` (unknown — never a guess),
its price is a figure or ``None``, ``indoor`` and ``kid_friendly`` are ``None`` when nobody says.
What the planner then assumes (a cautious window, an estimated ticket) is decided where it plans.

Fame signals are carried for ranking (``engine/places/ranking.py``: ``fame_score``): a Wikidata or
Wikipedia entry, a heritage listing, how many languages name it (``name:xx`` tags),
``tourism=attraction``, the feature's size when the source gives one (an Overpass way's or
relation's ``bounds``), and — online — how many Wikipedias and sister sites link its Wikidata entry.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from .common import DataSource

Kind = Literal["sight", "food", "bed"]

# What the planners assume of a place whose hours nobody published (``Place.hours`` None): a city
# plan's rule by kind, and the road trip's window for a sight (minutes of the day, the same hours).
ASSUMED_HOURS = {"sight": "Mo-Su 10:00-17:00", "food": "Mo-Su 12:00-14:30,19:00-22:00"}
ASSUMED_SIGHT_WINDOW = (10 * 60, 17 * 60)


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Fame(_Frozen):
    """What says a place is known beyond its street."""

    wikidata: str | None = None
    wikipedia: str | None = None
    heritage: str | None = None  # the listing's level or body, as tagged
    translations: int = Field(default=0, ge=0)  # languages its name is given in (``name:xx``)
    attraction: bool = False  # ``tourism=attraction``
    size_m2: float | None = Field(default=None, ge=0)  # the feature's area, when the source gives it
    # how many sites link its Wikidata entry (Wikipedias in every language, Wikivoyage, Commons…),
    # asked online once per pack (``engine/places/wikidata.py``); None: not asked or not answered
    sitelinks: int | None = Field(default=None, ge=0)

    @classmethod
    def of_tags(cls, tags: dict[str, str], size_m2: float | None = None) -> "Fame":
        """Read from OpenStreetMap tags (strings, so nothing to validate: a corridor reads thousands,
        most of them with no signal at all — those share one value); ``size_m2`` from the element's
        ``bounds`` when Overpass gave them."""
        wikidata = tags.get("wikidata") or None
        wikipedia = tags.get("wikipedia") or None
        heritage = tags.get("heritage") or None
        translations, attraction = translations_of(tags), tags.get("tourism") == "attraction"
        if not (wikidata or wikipedia or heritage or translations or attraction or size_m2):
            return _UNKNOWN
        return cls.model_construct(wikidata=wikidata, wikipedia=wikipedia, heritage=heritage,
                                   translations=translations, attraction=attraction, size_m2=size_m2,
                                   sitelinks=None)


_UNKNOWN = Fame()


class Place(_Frozen):
    """A point of interest: identity, what it is, where, and what its source says of it."""

    ref: str = Field(min_length=1, max_length=64)  # the planner's id: ``osm_n123``, a fixture's id, …
    osm_type: Literal["node", "way", "relation"] | None = None  # its OpenStreetMap element, when it has one
    osm_id: int | None = Field(default=None, gt=0)
    kind: Kind
    key: str = ""  # the source's tag that says what it is ("tourism") …
    category: str = ""  # … and its value ("museum", "waterfall", "hotel")
    name: str = Field(min_length=1, max_length=255)
    names: dict[str, str] = Field(default_factory=dict)  # language → name, as the source gives them
    lat: float = Field(ge=-90, le=90)
    lon: float = Field(ge=-180, le=180)
    hours: str | None = None  # the source's opening-hours rule; None: not stated
    price: float | None = None  # admission, a meal or a night in USD; None: not stated
    price_estimated: bool = False
    indoor: bool | None = None
    kid_friendly: bool | None = None
    venue_type: str = "other"
    themes: tuple[str, ...] = ()
    minutes: int = Field(default=60, ge=0)  # a visit's usual length
    fame: Fame = Fame()
    data_source: DataSource  # "osm", "fixture", "user" (a saved place, a booked hotel), …
    source_url: str = ""
    tags: dict[str, str] = Field(default_factory=dict)  # the source's own tags that planning reads
    rank: float = 0.0  # what its source's ranking made of it (city pack, corridor); 0 when unranked


def names_of(tags: dict[str, str]) -> dict[str, str]:
    """The ``name:xx`` tags as {language: name} (``name:en``, ``name:zh-Hant``; not ``name:left``)."""
    return {key[5:]: value for key, value in tags.items() if key.startswith("name:") and value and _language(key[5:])}


def translations_of(tags: dict[str, str]) -> int:
    """How many languages the tags name the place in (``len(names_of(tags))``, quicker)."""
    return sum(1 for key, value in tags.items() if key.startswith("name:") and value and _language(key[5:]))


def _language(code: str) -> bool:
    base = code.split("-")[0]
    return 2 <= len(base) <= 3 and base.isalpha() and base.islower()


TRAVELLER_LANGUAGE = "en"  # the language names are shown in when nobody chose one (no app setting yet)


def traveller_name(name: str, names: dict[str, str] | None,
                   language: str = TRAVELLER_LANGUAGE) -> tuple[str, str | None]:
    """The name a traveller reads and the local one beside it (issue 31 §3): ``name:<language>``
    (``en`` for ``en-GB`` too) when the source gives it and it differs from the local ``name``, else —
    for a name not in the Latin script — its Latin transliteration (``name:ja-Latn``) when given.
    Returns (shown name, local name or None when the shown name is the local one)."""
    names = names or {}
    wanted = names.get(language) or names.get(language.split("-")[0]) or ""
    if not wanted and not _latin(name):
        wanted = next((v for k, v in names.items() if k.endswith("-Latn")), "")
    wanted = wanted.strip()
    if not wanted or wanted.casefold() == name.strip().casefold():
        return name, None
    return wanted, name


def _latin(text: str) -> bool:
    """Whether every letter of the text is in the Latin script (accents allowed)."""
    return all(ord(c) < 0x250 or 0x1E00 <= ord(c) <= 0x1EFF for c in text if c.isalpha())
