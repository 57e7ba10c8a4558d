"""A cheap guess whether a prompt asks for a road trip or a city trip (never raises)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from engine.errors import InputError

from .prompt_text import DATE_PATTERNS, MAX_PROMPT_CHARS, Scan, clean_prompt
from .road_places import PlaceFinder
from .road_route_names import route_hits
from .road_words import (IGNORECASE, LENGTH, ORIGIN_CUE, TERMINUS_CUE)

_STRONG_ROAD = re.compile(
    r"\broad[\s-]?trips?\b|\bdriv(?:e|es|ing|en)\b|\bmiles?\s*(?:a|per|each|every|/)\s*day\b"
    r"|\bmi\s*/\s*day\b|\bkm\s*(?:a|per|/)\s*day\b|\broute\s*[0-9]+\b|\bhighway\s*[0-9]+\b"
    r"|\bhwy\b|\binterstate\b|\bi-[0-9]+\b|\bus[\s-]?[0-9]+\b|\bpch\b|\bpacific\s+coast\s+highway"
    r"|\bmother\s+road\b|\bromantic\s+road\b|\bromantische\s+stra(?:ss|ß)e\b|\bparkway\b"
    r"|\bbyway\b|\bvia\s+(?:the\s+)?(?:route|highway|hwy|interstate|us\b|i-)"
    r"|\b(?:rv|campervan|motorhome)\b|\brental\s+car\b", IGNORECASE)
_MEDIUM_ROAD = re.compile(
    r"\bround[\s-]?trips?\b|\broundtrips?\b|\bloop\s+(?:trip\s+)?from\b|\band\s+back\b"
    r"|\bone[\s-]?way\b|\bstopping\s+(?:in|at|over)\b"
    r"|\bovernight\s+stops?\b|\bto\s+\S.*\bvia\s+\S|\bturn(?:ing)?\s+around\b"
    r"|\breturn(?:ing)?\s+(?:home|to)\b", IGNORECASE)
_CITY_SIGNS = re.compile(
    r"\b(?:fly|flying|flights?|flew|airport|airfare|red[\s-]?eyes?|budget|hotels?)\b"
    r"|[$€£¥]|\b(?:usd|eur|gbp|jpy|dollars?|euros?|yen)\b", IGNORECASE)


def looks_like_road_trip(text: str, *, routes: Mapping[str, Sequence[str]] | None = None) -> bool:
    """Cheap guess whether a prompt asks for a road trip (True) or a city trip (False).

    Driving words, named routes and "miles a day" always mean a road trip; softer hints ("and
    back", "one way", "X to Y via Z", "X to Y") count only when no flight or budget words point
    to a city trip. Never raises.
    """
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_PROMPT_CHARS:
        return False
    try:
        clean = clean_prompt(text)
    except InputError:
        return False
    if _STRONG_ROAD.search(clean) or (routes and route_hits(clean, routes)):
        return True
    if _CITY_SIGNS.search(clean):
        return False
    if _MEDIUM_ROAD.search(clean):
        return True
    scan = Scan(clean)
    for p in DATE_PATTERNS:
        scan.take(p)
    scan.take(LENGTH)
    places = PlaceFinder(scan, lower_prompt=False)
    return places.pair() is not None or (places.after(ORIGIN_CUE) is not None
                                          and places.after(TERMINUS_CUE) is not None)
