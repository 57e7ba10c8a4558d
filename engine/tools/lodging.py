"""Places to stay of a city, fixture or OpenStreetMap pack: ≤4 options matching the requested tiers,
each the planner's ``Lodging`` built from a ``CityPlace`` by one function for both sources."""

from __future__ import annotations

from typing import Protocol

from engine.catalog.catalog import Catalog, parse_window
from engine.catalog.city_places import CityPlace
from engine.geo import haversine_m
from engine.models import Lodging

from .cache_variant import rates_variant
from .provenance import stamp, usd_cents
from .requests import LodgingRequest

MAX_OPTIONS = 4


class LodgingTool(Protocol):
    def search(self, request: LodgingRequest) -> list[Lodging]: ...


class FixtureLodging:
    name = "lodging"

    def __init__(self, catalog: Catalog, rates_to_usd: dict[str, float]) -> None:
        self._catalog = catalog
        self._rates = rates_to_usd
        self.cache_variant = rates_variant(rates_to_usd)  # prices are converted with these rates

    def search(self, request: LodgingRequest) -> list[Lodging]:
        city = self._catalog.city(request.city)
        rate = self._rates.get(city.currency, 1.0)
        hotels = [h for h in city.beds if h.tier in request.tier_prefs]
        if request.kid_friendly:
            hotels = [h for h in hotels if h.kid_friendly]
        # Per tier, central hotels first: walking distance to sights matters more than a few dollars.
        hotels.sort(key=lambda h: (request.tier_prefs.index(h.tier),
                                   round(haversine_m(h.geo, city.center) / 1000), h.price))
        per_tier = max(1, MAX_OPTIONS // max(1, len(request.tier_prefs)))
        picked = []
        for tier in request.tier_prefs:
            picked += [h for h in hotels if h.tier == tier][:per_tier]
        return [to_lodging(h, rate) for h in picked[:MAX_OPTIONS]]

    def by_id(self, city_name: str, hotel_id: str) -> Lodging | None:
        city = self._catalog.city(city_name)
        hotel = city.hotel(hotel_id)
        return to_lodging(hotel, self._rates.get(city.currency, 1.0)) if hotel else None


def to_lodging(h: CityPlace, rate: float) -> Lodging:
    """A place to stay as the planner's ``Lodging``."""
    price = usd_cents(h.price, rate)
    return Lodging(lodging_id=h.id, name=h.name, geo=h.geo, checkin_window=parse_window(h.checkin),
                   checkout_window=parse_window(h.checkout), price_per_night_usd_cents=price,
                   tier=h.tier, kid_friendly=bool(h.kid_friendly), price_estimated=h.price_estimated, address=h.address,
                   names=h.place.names,
                   provenance=stamp("lodging", {"id": h.id, "price": price}, ref_id=h.id,
                                    source_url=h.source_url, data_source=h.data_source))
