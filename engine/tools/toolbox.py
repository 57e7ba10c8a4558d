"""The set of tools one planning run uses, built over the fixture catalog."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from engine.catalog.catalog import Catalog

from .attractions import FixtureAttractions, FixtureDining
from .executor import ToolExecutor
from .flights import FixtureFlights
from .fx import FixtureFX
from .lodging import FixtureLodging
from .requests import FXRequest
from .transit import FixtureTransit
from .weather import FixtureWeather


@dataclass(frozen=True)
class ToolOverrides:
    """Pinned facts for chaos toggles and eval scenarios (e.g. an 80% rain Saturday)."""

    weather: dict[date, dict] = field(default_factory=dict)
    fx: dict[str, float] = field(default_factory=dict)


@dataclass
class Toolbox:
    catalog: Catalog
    flights: FixtureFlights
    lodging: FixtureLodging
    attractions: FixtureAttractions
    dining: FixtureDining
    transit: FixtureTransit
    fx: FixtureFX
    weather: FixtureWeather
    executor: ToolExecutor
    rates_to_usd: dict[str, float]
    fx_as_of: date
    degraded: list[str] = field(default_factory=list)


def build_toolbox(catalog: Catalog, *, today: date, overrides: ToolOverrides | None = None,
                  executor: ToolExecutor | None = None) -> Toolbox:
    overrides = overrides or ToolOverrides()
    fx = FixtureFX(catalog.raw.fx, overrides.fx)
    currencies = {c.currency for c in catalog.raw.cities.values()}
    rates = {cur: fx.rate(FXRequest(from_currency=cur, as_of=today)).rate for cur in currencies}
    return Toolbox(
        catalog=catalog, flights=FixtureFlights(catalog), lodging=FixtureLodging(catalog, rates),
        attractions=FixtureAttractions(catalog, rates), dining=FixtureDining(catalog, rates),
        transit=FixtureTransit(catalog, rates), fx=fx,
        weather=FixtureWeather(catalog, overrides.weather), executor=executor or ToolExecutor(),
        rates_to_usd=rates, fx_as_of=fx.rate(FXRequest(from_currency="EUR", as_of=today)).as_of)
