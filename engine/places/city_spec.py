"""Which city a name means, before anything is fetched: the offline gazetteer's candidates.

A fixture city (Paris, Rome, New York, Tokyo) answers for its own names. Any other name is looked
up in the gazetteer; a place that dominates its namesakes (ten times their population × names:
"Barcelona" is Spain's, not Venezuela's) is taken and the spec's ``note`` says how to ask for the
other; when two places could be meant ("Córdoba": Argentina or Spain; "Springfield") the caller
gets every candidate to choose from, as road trips do, and a name that says its country
("Córdoba, Spain", "Paris, TX") settles it.
"""

from __future__ import annotations

import dataclasses
import math
import re
import unicodedata
from dataclasses import dataclass

from engine.errors import AmbiguousCityError, InputError
from engine.geocode.dominance import dominant, other_places_note

AMBIGUOUS_RATIO = 0.3  # a runner-up this close to the best match (by confidence) …
AMBIGUOUS_POPULATION = 50_000  # … and this large is a real alternative
MIN_CONFIDENCE = 0.3


@dataclass(frozen=True)
class CitySpec:
    """One place to build a pack for: its name, where it is and how big (the box follows)."""

    name: str
    country: str
    admin1: str | None
    label: str  # "Lisbon, PT", "Springfield, MO, US"
    lat: float
    lon: float
    population: int | None
    feature_id: str
    # A name shared with smaller places, said to the traveller: "Barcelona, Spain — say
    # 'Barcelona, Venezuela' for the other" (engine/geocode/dominance.py); "" when unshared.
    note: str = ""

    @property
    def slug(self) -> str:
        return city_slug(self.name, self.country, self.admin1 if self.country in REGIONAL else None)

    def radius_km(self) -> float:
        """Half the side of the pack's box: a walkable centre for a town, more for a metropolis.
        Past a million people a city's sights spread over its metropolitan area, which grows
        faster than its centre — Cairo's pyramids at Giza stand 14 km from its centre —, so the
        box reaches further there
        (:data:`METRO_KM` per tenfold population beyond :data:`METRO_FROM`, at most :data:`MAX_RADIUS_KM`)."""
        pop = max(self.population or 50_000, 50_000)
        radius = 3.0 + 3.5 * math.log10(pop / 50_000)  # Lisbon 6.5 km: Belém
        radius += METRO_KM * max(0.0, math.log10(pop / METRO_FROM))  # Cairo 13.5 km: Giza
        return max(3.0, min(MAX_RADIUS_KM, radius))


METRO_FROM = 1_000_000  # people: a city whose sights reach past its centre
METRO_KM = 2.5
MAX_RADIUS_KM = 16.0


REGIONAL = {"US", "CA", "AU", "BR", "MX", "IN"}  # countries where a name repeats across regions


def city_slug(name: str, country: str, admin1: str | None = None) -> str:
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    parts = [re.sub(r"[^a-z0-9]+", "_", folded).strip("_") or "city"]
    if admin1 and re.fullmatch(r"[A-Za-z0-9]{1,3}", admin1):
        parts.append(admin1.lower())
    parts.append(country.lower())
    return "_".join(parts)[:64]


def spec_of(candidate) -> CitySpec:
    return CitySpec(name=candidate.name, country=candidate.country, admin1=candidate.admin1,
                    label=candidate.label, lat=candidate.lat, lon=candidate.lon,
                    population=candidate.population, feature_id=candidate.feature_id)


def resolve_city(query: str, gazetteer, *, choose: int | None = None) -> CitySpec:
    """The one place ``query`` means; ``AmbiguousCity`` when several could be meant (``choose``
    picks the n-th candidate, as the app's picker does); ``InputError`` when none is known."""
    text = " ".join(query.split())
    if not text:
        raise InputError("city", "no city given")
    found = [c for c in gazetteer.lookup(text, limit=6) if c.source == "gazetteer"]
    if not found:
        raise InputError("city", f"no place called {text!r} in the offline gazetteer; "
                                 "check the spelling or add the country ('Córdoba, Spain')")
    specs = [spec_of(c) for c in found]
    if choose is not None:
        if not 0 <= choose < len(specs):
            raise InputError("city", f"choice {choose + 1} is not one of the {len(specs)} places")
        return specs[choose]
    rivals = _rivals(found)
    if not rivals:
        return specs[0]
    shared = [found[0], *rivals]
    chosen = dominant(shared, getattr(gazetteer, "name_counts", None))
    if chosen is None:  # a near tie: the traveller says which
        raise AmbiguousCityError(text, [specs[0], *(spec_of(c) for c in rivals)])
    note = other_places_note(chosen, [c for c in shared if c is not chosen])
    return dataclasses.replace(spec_of(chosen), note=note)


def _rivals(found) -> list:
    best = found[0]
    if best.confidence < MIN_CONFIDENCE and len(found) > 1:
        return found[1:4]
    return [c for c in found[1:4] if c.confidence >= AMBIGUOUS_RATIO * best.confidence
            and (c.population or 0) >= AMBIGUOUS_POPULATION]


def spec_of_pack(pack) -> CitySpec:
    """The place a cached pack was built for (a refresh asks for the same box)."""
    return CitySpec(name=pack.name, country=pack.country, admin1=pack.admin1, label=pack.label,
                    lat=pack.center_lat, lon=pack.center_lon, population=pack.population,
                    feature_id=f"pack:{pack.slug}")
