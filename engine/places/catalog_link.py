"""A cached or fetched city pack joined to the catalog the planner reads (the place seam).

The planner, the verifiers, ``tripwright verify`` and the exports all read cities through a
``Catalog``; a pack becomes one more city of it (``pack_city.PackCity``) with its airports, so
nothing downstream knows whether a venue came from the fixtures or from OpenStreetMap — except
through each row's provenance.
"""

from __future__ import annotations

from datetime import date

from engine.catalog.catalog import Catalog
from engine.errors import InputError

from .pack import CityPack
from .pack_city import pack_airports, pack_city

PACK_RATE_CURRENCIES = ("EUR", "GBP", "JPY")  # OSM ``charge`` tags in these are converted


def city_name_for(pack: CityPack, base: Catalog) -> str:
    """The pack's city name, unless a fixture city already answers to it ("Paris, TX, US")."""
    return pack.label if base.has_city(pack.name) else pack.name


def catalog_with(base: Catalog, pack: CityPack, *, today: date | None = None) -> tuple[Catalog, str]:
    """``base`` plus the pack's city (and airports); the city's name in it."""
    name = city_name_for(pack, base)
    if base.has_city(name) and base.city(name).slug == pack.slug:
        joined = base.city(name).raw
        if getattr(joined, "fetched_on", None) == pack.fetched_at.date() and getattr(joined, "osm_base", None) == pack.osm_base:
            return base, name  # the same pack: nothing to do
        name = joined.city  # a refreshed pack replaces the one joined before, under the same name
    city = pack_city(pack, name=name, rates_to_usd=_rates(base, today or date.today()))
    return base.extended([city], pack_airports(pack)), name


def _rates(base: Catalog, today: date) -> dict[str, float]:
    from engine.tools.fx import FixtureFX
    from engine.tools.requests import FXRequest
    fx = FixtureFX(base.raw.fx)
    rates = {"USD": 1.0}
    for cur in PACK_RATE_CURRENCIES:
        try:
            rates[cur] = fx.rate(FXRequest(from_currency=cur, as_of=today)).rate
        except InputError:  # a currency the fixtures lack: its charges are estimated instead
            continue
    return rates
