"""The set of tools planning runs use, typed to their protocols, and the executor every call goes
through. A toolbox (with its executor, breakers, caches and network state) lives as long as its
planning session, so breakers and caches carry across runs."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta

import structlog

from engine.catalog.catalog import Catalog
from engine.errors import ToolError
from engine.models import FXRate
from engine.net.network import NetworkState

from .attractions import AttractionsTool, DiningTool, FixtureAttractions, FixtureDining
from .executor import ToolExecutor, mark_cached
from .flights import FixtureFlights, FlightsTool
from .fx import FixtureFX, FXTool
from .lodging import FixtureLodging, LodgingTool
from .open_meteo import OpenMeteoWeather
from .provenance import stamp
from .openweathermap import OpenWeatherMapWeather
from .requests import FXRequest
from .transit import FixtureTransit, TransitTool
from .weather import FixtureWeather, WeatherLadder

log = structlog.get_logger("tripwright.tools")


@dataclass(frozen=True)
class ToolOverrides:
    """Pinned facts for chaos toggles and eval scenarios (e.g. an 80% rain Saturday)."""

    weather: dict[date, dict] = field(default_factory=dict)
    fx: dict[str, float] = field(default_factory=dict)


@dataclass
class Toolbox:
    catalog: Catalog
    flights: FlightsTool
    lodging: LodgingTool
    attractions: AttractionsTool
    dining: DiningTool
    transit: TransitTool
    fx: FXTool
    weather: WeatherLadder
    executor: ToolExecutor
    network: NetworkState
    rates_to_usd: dict[str, float]
    fx_as_of: date
    fx_omitted: frozenset[str] = frozenset()  # currencies whose rate failed at build: 1.0 (seed §12.1)
    # Each currency's answer as of ``today``, asked once (issue 30 §2): when the tools are built or
    # at its first use, then handed on — to a city pack's prices, to the tools rebuilt over a larger
    # catalog (``build_toolbox(fx_answers=…)``) and to the synthesizer's FX claim.
    fx_answers: dict[str, FXRate] = field(default_factory=dict)
    today: date | None = None

    def rate_now(self, request: FXRequest) -> FXRate:
        """An FX rate through the executor, from synchronous code (display conversions); the
        ladder's last rung (1.0, provenance ``omitted``) when the tool fails."""
        return fx_or_one(self.executor, self.fx, request)

    def rate_of(self, currency: str) -> FXRate:
        """``currency``'s rate to USD as of the tools' day, asked once: the answer kept since, its
        provenance saying it is reused (``cache_hit``)."""
        cur = currency.upper()
        answer = self.fx_answers.get(cur)
        if answer is None:
            answer = self.fx_answers[cur] = fx_or_one(self.executor, self.fx,
                                                      FXRequest(from_currency=cur, as_of=self.today or date.today()))
        return mark_cached(answer)

    def known_rates(self, currencies: Iterable[str]) -> dict[str, float]:
        """The rates to USD of those of ``currencies`` the FX tool knows (an omitted one left out:
        what is priced in it is estimated instead), USD always."""
        answers = {cur: self.rate_of(cur) for cur in currencies}
        return {"USD": 1.0} | {cur: a.rate for cur, a in answers.items() if a.provenance.data_source != "omitted"}


def build_toolbox(catalog: Catalog, *, today: date, overrides: ToolOverrides | None = None,
                  executor: ToolExecutor | None = None, network: NetworkState | None = None,
                  fx_answers: dict[str, FXRate] | None = None) -> Toolbox:
    """The tools over ``catalog``; ``fx_answers``: the rates the tools they replace already asked
    (the same day and overrides), so none is asked twice."""
    overrides = overrides or ToolOverrides()
    executor = executor or ToolExecutor()
    network = network or NetworkState()
    fx = FixtureFX(catalog.raw.fx, overrides.fx)
    currencies = {c.currency for c in catalog.raw.cities.values()}
    # Fixture FX is synchronous and instant: the executor calls it inline (no event loop needed).
    known = dict(fx_answers or {})
    for cur in sorted(currencies | {"EUR"}):  # EUR: the day the rates are as of
        if cur not in known:
            known[cur] = fx_or_one(executor, fx, FXRequest(from_currency=cur, as_of=today))
    answers = {cur: known[cur] for cur in currencies}
    rates = {cur: answer.rate for cur, answer in answers.items()}
    omitted = frozenset(cur for cur, a in answers.items() if a.provenance.data_source == "omitted")
    weather = WeatherLadder(FixtureWeather(catalog, overrides.weather), OpenMeteoWeather(network), executor, today,
                            keyed=OpenWeatherMapWeather(network))
    return Toolbox(
        catalog=catalog, flights=_flights(catalog), lodging=FixtureLodging(catalog, rates),
        attractions=FixtureAttractions(catalog, rates), dining=FixtureDining(catalog, rates),
        transit=FixtureTransit(catalog, rates), fx=fx, weather=weather, executor=executor, network=network,
        rates_to_usd=rates, fx_as_of=known["EUR"].as_of, fx_omitted=omitted, fx_answers=known, today=today)


def _flights(catalog: Catalog) -> FlightsTool:
    """The schedule fixtures where they fly the pair, labelled estimates anywhere else."""
    from .estimated_flights import EstimatedFlights, FlightsWithEstimates
    return FlightsWithEstimates(FixtureFlights(catalog), EstimatedFlights(catalog.known_airport), catalog)


def fx_now(executor: ToolExecutor, fx: FXTool, request: FXRequest):
    """A synchronous FX lookup through the executor's policy (cache, stats, breaker)."""
    return executor.call_sync("fx", fx.rate, request)


def fx_or_one(executor: ToolExecutor, fx: FXTool, request: FXRequest) -> FXRate:
    """The FX ladder (seed §12.1): the fixture rate, else 1.0 with an ``omitted`` provenance — the
    synthesizer states no FX claim then, and the cost breakdown's disclaimer says prices are unconverted."""
    try:
        return fx_now(executor, fx, request)
    except ToolError as exc:
        log.info("fx_omitted", currency=request.from_currency, reason=exc.kind)
        as_of = request.as_of - timedelta(days=1)
        payload = {"from": request.from_currency, "as_of": as_of.isoformat(), "rate": 1.0, "omitted": exc.kind}
        return FXRate(from_currency=request.from_currency.upper(), rate=1.0, as_of=as_of,
                      provenance=stamp("fx", payload, data_source="omitted"))
