"""Venues and restaurants over the city fixtures (seed §4.1 Events/Attractions: ≤20 matches)."""

from __future__ import annotations

from typing import Protocol

from engine.catalog.catalog import Catalog
from engine.catalog.schema import RawRestaurant, RawVenue
from engine.models import Attraction

from .cache_variant import rates_variant
from .provenance import stamp, usd_cents
from .requests import AttractionsRequest, DiningRequest, VenueRequest

MAX_ATTRACTIONS = 20


class AttractionsTool(Protocol):
    def search(self, request: AttractionsRequest) -> list[Attraction]: ...

    def by_id(self, request: VenueRequest) -> Attraction | None: ...


class DiningTool(Protocol):
    def search(self, request: DiningRequest) -> list[Attraction]: ...


def venue_to_attraction(v: RawVenue, tz: str, rate: float, country: str | None = None) -> Attraction:
    price = usd_cents(v.price, rate)
    return Attraction(id=v.id, name=v.name, venue_type=v.venue_type, indoor=v.indoor,
                      kid_friendly=v.kid_friendly, themes=list(v.themes),
                      opening_hours=v.opening_hours, country=country,
                      location=v.geo, est_price_usd_cents=price, duration_minutes=v.duration_minutes,
                      tz=tz, hours_known=v.hours_known, price_estimated=v.price_estimated, address=v.address, names=v.names,
                      provenance=stamp("attractions", {"id": v.id, "price": price,
                                                       "opening_hours": v.opening_hours,
                                                       "verified_on": v.verified_on.isoformat()},
                                       ref_id=v.id, source_url=v.source_url, data_source=v.data_source))


class FixtureAttractions:
    """Theme matches first (fixture order = prominence); topped up so every day can be filled."""

    name = "attractions"

    def __init__(self, catalog: Catalog, rates_to_usd: dict[str, float]) -> None:
        self._catalog = catalog
        self._rates = rates_to_usd
        self.cache_variant = rates_variant(rates_to_usd)  # prices are converted with these rates

    def search(self, request: AttractionsRequest) -> list[Attraction]:
        city = self._catalog.city(request.city)
        venues = list(city.raw.venues)
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
        return [venue_to_attraction(v, city.tz, rate, city.raw.country) for _, v in ranked[:MAX_ATTRACTIONS]]

    def by_id(self, request: VenueRequest) -> Attraction | None:
        city = self._catalog.city(request.city)
        venue = city.venue(request.venue_id)
        rate = self._rates.get(city.currency, 1.0)
        return venue_to_attraction(venue, city.tz, rate, city.raw.country) if venue else None


def restaurant_to_attraction(r: RawRestaurant, tz: str, rate: float, country: str | None = None) -> Attraction:
    """Restaurants share the venue contract so hours are verified the same way; meals are paid
    from the daily spend, so the price here is informational."""
    price = usd_cents(r.price_per_person, rate)
    return Attraction(id=r.id, name=r.name, venue_type="other", indoor=True, kid_friendly=r.kid_friendly,
                      themes=["food", r.cuisine.lower()[:32]] if r.cuisine else ["food"],
                      opening_hours=r.opening_hours, country=country, location=r.geo,
                      est_price_usd_cents=price, duration_minutes=75, tz=tz, hours_known=r.hours_known,
                      price_estimated=r.price_estimated, address=r.address, names=r.names,
                      provenance=stamp("dining", {"id": r.id, "price": price, "opening_hours": r.opening_hours,
                                                  "verified_on": r.verified_on.isoformat()},
                                       ref_id=r.id, source_url=r.source_url, data_source=r.data_source))


class FixtureDining:
    name = "dining"

    def __init__(self, catalog: Catalog, rates_to_usd: dict[str, float]) -> None:
        self._catalog = catalog
        self._rates = rates_to_usd
        self.cache_variant = rates_variant(rates_to_usd)  # prices are converted with these rates

    def search(self, request: DiningRequest) -> list[Attraction]:
        city = self._catalog.city(request.city)
        rate = self._rates.get(city.currency, 1.0)
        rows = sorted(city.raw.restaurants, key=lambda r: not r.hours_known)  # known hours first, stable
        return [restaurant_to_attraction(r, city.tz, rate, city.raw.country) for r in rows
                if r.kid_friendly or not request.kid_friendly]

    def by_id(self, city_name: str, restaurant_id: str) -> Attraction | None:
        city = self._catalog.city(city_name)
        found = city.restaurant(restaurant_id)
        rate = self._rates.get(city.currency, 1.0)
        return restaurant_to_attraction(found, city.tz, rate, city.raw.country) if found else None  # PH by country
