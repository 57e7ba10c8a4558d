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


def catalog_with(base: Catalog, pack: CityPack, *, today: date | None = None,
                 rates_to_usd: dict[str, float] | None = None) -> tuple[Catalog, str]:
    """``base`` plus the pack's city (and airports); the city's name in it. ``rates_to_usd``: the
    run's rates for :data:`PACK_RATE_CURRENCIES` (``Toolbox.known_rates``), handed on so the
    pack's ``charge`` tags are converted at the rates the rest of the plan uses; without them
    (no tools yet) they are read from the fixtures here."""
    name = city_name_for(pack, base)
    if base.has_city(name) and base.city(name).slug == pack.slug:
        joined = base.city(name).raw
        if getattr(joined, "fetched_on", None) == pack.fetched_at.date() and getattr(joined, "osm_base", None) == pack.osm_base:
            return base, name  # the same pack: nothing to do
        name = joined.city  # a refreshed pack replaces the one joined before, under the same name
    rates = rates_to_usd if rates_to_usd is not None else _rates(base, today or date.today())
    city = pack_city(pack, name=name, rates_to_usd=rates)
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
