"""Which destination a note belongs to: a fixture city, a named route, or any place the offline
gazetteer knows. Each gets one stable slug ("paris", "new_york", "route66", "lyon")."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.errors import InputError, UnknownCityError

from .terms import fold

MAX_NAME = 100
CITY_COUNTRIES = {"paris": "FR", "rome": "IT", "new_york": "US", "tokyo": "JP"}


@dataclass(frozen=True)
class Destination:
    slug: str
    name: str
    kind: str  # city | route | place
    country: str | None = None


def slug_of(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", fold(text)).strip("-")


def resolve_destination(name: str) -> Destination:
    text = (name or "").strip()
    if not text or len(text) > MAX_NAME or any(ord(c) < 32 for c in text):
        raise InputError("destination", "name a city, a named route or a place (one line)")
    from engine.catalog import default_catalog
    try:
        city = default_catalog().city(text.replace("_", " ").replace("-", " "))
        return Destination(city.slug, city.name, "city", CITY_COUNTRIES.get(city.slug))
    except UnknownCityError:
        pass
    route = _route(text)
    if route is not None:
        return route
    return _place(text)


def _route(text: str) -> Destination | None:
    from engine.roadtrip.routes import load_routes, normalize_route_name

    wanted = {normalize_route_name(text), slug_of(text).replace("-", "_")}
    for route in load_routes().values():
        names = {route.slug, normalize_route_name(route.name), *(normalize_route_name(a) for a in route.aliases)}
        if wanted & names:
            return Destination(route.slug, route.name, "route")
    return None


def _place(text: str) -> Destination:
    from engine.geocode.gazetteer import GazetteerIndex

    found = GazetteerIndex.open().lookup(text, limit=1)
    if not found or found[0].confidence < 0.5:
        raise InputError("destination", f"unknown destination {text!r}: use a city (Paris, Rome, New York, "
                                        "Tokyo), a named route (e.g. route66) or a place name")
    place = found[0]
    return Destination(slug_of(place.name), place.name, "place", place.country)
