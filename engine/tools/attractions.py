"""Venues and restaurants of a city, fixture or OpenStreetMap pack (seed §4.1 Events/Attractions: ≤20
matches): the planner's ``Attraction`` built from a ``CityPlace`` (its Place and the facts it is
planned with) by one function for both sources."""

from __future__ import annotations

from typing import Protocol

from engine.catalog.catalog import Catalog
from engine.catalog.city_places import CityPlace
from engine.models import Attraction, VenueType

from .cache_variant import rates_variant
from .provenance import stamp, usd_cents
from .requests import AttractionsRequest, DiningRequest, VenueRequest


class AttractionsTool(Protocol):
    def search(self, request: AttractionsRequest) -> list[Attraction]: ...

    def by_id(self, request: VenueRequest) -> Attraction | None: ...


class DiningTool(Protocol):
    def search(self, request: DiningRequest) -> list[Attraction]: ...


def to_attraction(p: CityPlace, tz: str, rate: float, country: str | None = None) -> Attraction:
    """A sight (``place.kind`` "sight") or a place to eat as the planner's ``Attraction``. A place
    to eat shares the venue contract so hours are verified the same way; meals are paid from the
    daily spend, so its price here is informational."""
    price = usd_cents(p.price, rate)
    food = p.place.kind == "food"
    tool = "dining" if food else "attractions"
    return Attraction(id=p.id, name=p.name, venue_type=VenueType.other if food else VenueType(p.place.venue_type),
                      indoor=True if food else p.place.indoor, kid_friendly=p.kid_friendly,
                      themes=(["food", p.cuisine.lower()[:32]] if p.cuisine else ["food"]) if food else list(p.themes),
                      opening_hours=p.opening_hours, country=country, location=p.geo, est_price_usd_cents=price,
                      duration_minutes=p.minutes, tz=tz, hours_known=p.hours_known,
                      price_estimated=p.price_estimated, address=p.address, names=p.place.names,
                      provenance=stamp(tool, {"id": p.id, "price": price, "opening_hours": p.opening_hours,
                                              "verified_on": p.verified_on.isoformat() if p.verified_on else None},
                                       ref_id=p.id, source_url=p.source_url, data_source=p.data_source))


class FixtureAttractions:
    """Theme matches first (fixture order = prominence); topped up so every day can be filled."""

    name = "attractions"

    def __init__(self, catalog: Catalog, rates_to_usd: dict[str, float]) -> None:
        self._catalog = catalog
        self._rates = rates_to_usd
        self.cache_variant = rates_variant(rates_to_usd)  # prices are converted with these rates

    def search(self, request: AttractionsRequest) -> list[Attraction]:
        city = self._catalog.city(request.city)
        venues = list(city.sights)
        if request.kid_friendly:
            venues = [v for v in venues if v.kid_friendly]
        wanted = set(request.themes)
        # Known hours first (a place nobody published hours for is planned only when needed) —
        # except the city's best-known sights, always offered and first (issue 31 §1) —, then
        # theme matches, then the catalog's order (fixture prominence, a pack's rank).
        famous = set(getattr(city.raw, "famous", ()))
        ranked = sorted(enumerate(venues), key=lambda iv: (not (iv[1].hours_known or iv[1].id in famous),
                                                           iv[1].id not in famous,
                                                           -len(wanted & set(iv[1].themes)), iv[0]))
        rate = self._rates.get(city.currency, 1.0)
        return [to_attraction(v, city.tz, rate, city.raw.country) for _, v in ranked[:request.count]]

    def by_id(self, request: VenueRequest) -> Attraction | None:
        city = self._catalog.city(request.city)
        venue = city.venue(request.venue_id)
        rate = self._rates.get(city.currency, 1.0)
        return to_attraction(venue, city.tz, rate, city.raw.country) if venue else None


class FixtureDining:
    name = "dining"

    def __init__(self, catalog: Catalog, rates_to_usd: dict[str, float]) -> None:
        self._catalog = catalog
        self._rates = rates_to_usd
        self.cache_variant = rates_variant(rates_to_usd)  # prices are converted with these rates

    def search(self, request: DiningRequest) -> list[Attraction]:
        city = self._catalog.city(request.city)
        rate = self._rates.get(city.currency, 1.0)
        rows = sorted(city.eateries, key=lambda r: not r.hours_known)  # known hours first, stable
        return [to_attraction(r, city.tz, rate, city.raw.country) for r in rows
                if r.kid_friendly or not request.kid_friendly]

    def by_id(self, city_name: str, restaurant_id: str) -> Attraction | None:
        city = self._catalog.city(city_name)
        found = city.restaurant(restaurant_id)
        rate = self._rates.get(city.currency, 1.0)
        return to_attraction(found, city.tz, rate, city.raw.country) if found else None  # PH by country
