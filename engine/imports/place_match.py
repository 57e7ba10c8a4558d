"""Which of the traveller's saved places are places the catalog already knows.

A saved place is a catalog venue when the two lie within ``metres`` (150 by default) and their
names agree once case, accents and punctuation are folded away ("Sacré-Cœur" = "sacre coeur"):
equal, one inside the other ("Louvre" in "Musée du Louvre"), the same distinctive words once
articles and kind words are set aside ("Louvre Museum" and "Musée du Louvre" both say "louvre"),
or a token-set similarity of at least 0.8 (difflib) for spellings that differ ("Pere Lachaise" /
"Père-Lachaise Cemetery") — unless both names say what kind of place they are and the kinds differ
("Jardin du Luxembourg" is not "Musée du Luxembourg"). A venue named in several languages (OSM's
``name:xx``, kept as ``names``) agrees when any of its names does: a saved "Golden Pavilion" or
"Kinkaku-ji" is the venue named "金閣寺" with ``name:en`` "Kinkaku-ji" (issue 31 §3). Of several that
agree, the nearest wins.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache
from typing import Any

from engine.geo import distance_m

from .model import SavedPlace

MATCH_METRES = 150.0
MIN_SIMILARITY = 0.8
_M_PER_DEG_LAT = 111_320.0

# Words that say what kind of place it is or join words, in the languages of the fixture cities:
# set aside when comparing names, so "Louvre Museum" meets "Musée du Louvre".
_ARTICLES = frozenset("""a an the of and at in on by to le la les de du des et au aux en sur el los las
    del y il lo gli della delle dei di da e der die das und von vom zum zur im am""".split())
_KIND_WORDS = {
    "museum": "museum museums musee museo museu gallery galerie galleria",
    "church": "church eglise iglesia chiesa kirche basilica basilique cathedral cathedrale catedral duomo chapel",
    "palace": "palace palais palazzo palacio schloss chateau castle castello",
    "garden": "garden gardens jardin jardins giardino park parc parque",
    "square": "square piazza plaza platz",
    "tower": "tower tour torre",
    "food": "cafe caffe restaurant ristorante bar bistro brasserie",
    "hotel": "hotel",
    "market": "market marche mercado mercato",
    "cemetery": "cemetery cimetiere cimitero",
    "monument": "monument memorial",
}
_KINDS = {word: kind for kind, words in _KIND_WORDS.items() for word in words.split()}
_LIGATURES = str.maketrans({"œ": "oe", "æ": "ae", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i"})


@dataclass(frozen=True)
class _Name:
    words: tuple[str, ...]
    core: frozenset[str]
    kinds: frozenset[str]

    @property
    def text(self) -> str:
        return " ".join(self.words)


@lru_cache(maxsize=4096)
def folded(name: str) -> _Name:
    """The name's words, lower case without accents, and its distinctive ones."""
    text = unicodedata.normalize("NFKD", name.casefold().translate(_LIGATURES))
    text = "".join(c for c in text if not unicodedata.combining(c))
    words = tuple(w for w in re.findall(r"[^\W_]+", text) if len(w) > 1 or w.isdigit())
    core = frozenset(w for w in words if w not in _ARTICLES and w not in _KINDS)
    return _Name(words, core, frozenset(_KINDS[w] for w in words if w in _KINDS))


def names_match(a: str, b: str) -> bool:
    """Whether two names name one place (see the module docstring)."""
    x, y = folded(a), folded(b)
    if not x.words or not y.words:
        return False
    if x.text == y.text:
        return True
    if x.kinds and y.kinds and not x.kinds & y.kinds:
        return False  # "Jardin du Luxembourg" is not "Musée du Luxembourg"
    if x.core and y.core and (x.core <= y.core or y.core <= x.core):
        return True
    short, long_ = sorted((x, y), key=lambda n: len(n.text))
    if short.core and f" {short.text} " in f" {long_.text} ":
        return True
    return token_set_similarity(x, y) >= MIN_SIMILARITY


def token_set_similarity(x: _Name, y: _Name) -> float:
    """The token-set ratio (as fuzzywuzzy defines it) of the names' distinctive words."""
    a, b = (x.core or frozenset(x.words)), (y.core or frozenset(y.words))
    common = " ".join(sorted(a & b))
    left = f"{common} {' '.join(sorted(a - b))}".strip()
    right = f"{common} {' '.join(sorted(b - a))}".strip()
    pairs = ((left, right),) + (((common, left), (common, right)) if common else ())
    return max(SequenceMatcher(None, p, q, autojunk=False).ratio() for p, q in pairs)


def match_saved_places(places: Sequence[SavedPlace], venues: Iterable[Any], *,
                       metres: float = MATCH_METRES) -> list[tuple[SavedPlace, str | None]]:
    """Each saved place with the id of the catalog venue it is, or None (a new place).

    A venue is anything with ``id`` (or ``ref``), ``name`` and a point as ``geo.lat/lon``,
    ``location.lat/lon`` or ``lat/lon`` (and, when it has them, ``names``: {language: name});
    venues without one of those are passed over.
    """
    known = [v for v in (_venue(item) for item in venues) if v is not None]
    return [(place, _best(place, known, metres)) for place in places]


def _venue(item: Any) -> tuple[str, tuple[str, ...], float, float] | None:
    ident = getattr(item, "id", None) or getattr(item, "ref", None)
    name = getattr(item, "name", None)
    point = getattr(item, "geo", None) or getattr(item, "location", None) or item
    lat, lon = getattr(point, "lat", None), getattr(point, "lon", None)
    if not isinstance(ident, str) or not isinstance(name, str) or not _finite(lat, lon):
        return None
    others = getattr(item, "names", None)
    others = [n for n in others.values() if isinstance(n, str) and n != name] if isinstance(others, dict) else []
    return ident, (name, *dict.fromkeys(others)), float(lat), float(lon)


def _finite(*values: Any) -> bool:
    return all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in values)


def _best(place: SavedPlace, venues: list[tuple[str, tuple[str, ...], float, float]], metres: float) -> str | None:
    reach_lat = metres / _M_PER_DEG_LAT
    reach_lon = reach_lat / max(math.cos(math.radians(place.lat)), 1e-6)
    best: tuple[float, str] | None = None
    for ident, names, lat, lon in venues:
        if abs(lat - place.lat) > reach_lat or abs(_lon_gap(lon, place.lon)) > reach_lon:
            continue
        apart = distance_m(place.lat, place.lon, lat, lon)
        if apart <= metres and (best is None or apart < best[0]) and any(names_match(place.name, n) for n in names):
            best = (apart, ident)
    return best[1] if best else None


def _lon_gap(a: float, b: float) -> float:
    return (a - b + 180.0) % 360.0 - 180.0


