"""Fixture tool adapters (seed §4.1) and the executor policy around them (seed §4.2)."""

from __future__ import annotations

import asyncio
import re
import time as clock
from collections import Counter
from datetime import date, time
from zoneinfo import ZoneInfo

import pytest

from engine.errors import InputError, ToolError, ToolUnavailable
from engine.models import DateWindow, Geo, Tier, TransitMode
from engine.tools import ToolOverrides
from engine.tools.executor import ExecutorPolicy, ToolExecutor
from engine.tools.requests import (AttractionsRequest, DiningRequest, FlightRequest, FXRequest,
                                   LodgingRequest, TransitRequest, VenueRequest, WeatherRequest)

from .conftest import new_toolbox

HEX64 = re.compile(r"^[0-9a-f]{64}$")
PARIS = ZoneInfo("Europe/Paris")
NEW_YORK = ZoneInfo("America/New_York")
JUNE = DateWindow(start=date(2027, 6, 15), end=date(2027, 6, 19), tz="Europe/Paris")


@pytest.fixture(scope="module")
def tb():
    return new_toolbox()


def _jfk_cdg(tb, avoid_overnight: bool = False):
    return tb.flights.search(FlightRequest(origin="JFK", dest="CDG", date_window=JUNE,
                                           avoid_overnight=avoid_overnight))


def assert_provenance(result, tool: str) -> None:
    p = result.provenance
    assert p.tool == tool
    assert HEX64.match(p.response_digest), p.response_digest
    assert p.call_ts.tzinfo is not None
    assert p.source == "tool"


# -- flights ------------------------------------------------------------------------------------
def test_flights_cap_six_per_direction_and_two_per_fare_tier(tb) -> None:
    flights = _jfk_cdg(tb)
    for direction in ("outbound", "return"):
        legs = [f for f in flights if f.direction == direction]
        assert 1 <= len(legs) <= 6
        tiers = Counter(f.fare_tier for f in legs)
        assert max(tiers.values()) <= 2
        assert set(tiers) == {"budget", "mid", "premium"}
    outbound = [f for f in flights if f.direction == "outbound"]
    assert len(outbound) == 6
    # Within a tier the cheapest come first: the two budget fares are N0701 ($391.25) and AF23.
    assert [(f.flight_number, f.price_usd_cents) for f in outbound if f.fare_tier == "budget"] == [
        ("N0701", 39125), ("AF23", 50250)]
    for f in flights:
        assert_provenance(f, "flights")


def test_outbound_lands_on_the_start_date_and_return_leaves_on_the_end_date(tb) -> None:
    flights = _jfk_cdg(tb)
    for f in flights:
        if f.direction == "outbound":
            assert (f.origin, f.dest) == ("JFK", "CDG")
            assert f.arrival.astimezone(PARIS).date() == date(2027, 6, 15)
        else:
            assert (f.origin, f.dest) == ("CDG", "JFK")
            assert f.departure.astimezone(PARIS).date() == date(2027, 6, 19)
        assert f.departure.utcoffset().total_seconds() == 0  # stored in UTC
        assert (f.arrival - f.departure).total_seconds() == f.duration_seconds


def test_jfk_cdg_red_eye_is_overnight_and_the_morning_flight_is_not(tb) -> None:
    by_id = {f.flight_id: f for f in _jfk_cdg(tb)}
    red_eye = by_id["n0701-budget-20270614"]  # JFK 20:35 → CDG 09:50 next morning
    assert red_eye.departure.astimezone(NEW_YORK).strftime("%m-%d %H:%M") == "06-14 20:35"
    assert red_eye.arrival.astimezone(PARIS).strftime("%m-%d %H:%M") == "06-15 09:50"
    assert red_eye.overnight is True
    day = by_id["af9-mid-20270615"]  # JFK 07:05 → CDG 20:15 same day
    assert day.arrival.astimezone(PARIS).strftime("%H:%M") == "20:15"
    assert day.overnight is False


def test_avoid_overnight_removes_every_overnight_option(tb) -> None:
    every = _jfk_cdg(tb)
    daytime = _jfk_cdg(tb, avoid_overnight=True)
    assert any(f.overnight for f in every)
    assert daytime and not any(f.overnight for f in daytime)
    assert {f.flight_id for f in daytime if f.direction == "outbound"} == {
        "af9-budget-20270615", "af9-mid-20270615"}
    overnight_ids = {f.flight_id for f in every if f.overnight}
    assert not overnight_ids & {f.flight_id for f in daytime}


def test_an_unscheduled_route_has_only_labelled_estimates(tb) -> None:
    from engine.tools.flights import FixtureFlights
    request = FlightRequest(origin="SYD", dest="CDG", date_window=JUNE)
    assert FixtureFlights(tb.catalog).search(request) == []  # no schedule fixture flies it
    estimated = tb.flights.search(request)
    assert estimated and {f.provenance.data_source for f in estimated} == {"estimated"}
    assert {f.carrier for f in estimated} == {"Estimated"}


# -- lodging ------------------------------------------------------------------------------------
@pytest.mark.parametrize("tiers, expected", [
    ([Tier.luxury], {"luxury": 3}),
    ([Tier.mid], {"mid": 4}),
    ([Tier.budget, Tier.mid], {"budget": 2, "mid": 2}),
    ([Tier.luxury, Tier.mid, Tier.budget], {"luxury": 1, "mid": 1, "budget": 1}),
])
def test_lodging_returns_at_most_four_of_the_requested_tiers(tb, tiers, expected) -> None:
    hotels = tb.lodging.search(LodgingRequest(city="Paris", checkin=date(2027, 6, 15),
                                              checkout=date(2027, 6, 19), tier_prefs=tiers))
    assert len(hotels) <= 4
    assert Counter(h.tier.value for h in hotels) == expected
    for h in hotels:
        assert_provenance(h, "lodging")
        assert h.price_per_night_usd_cents > 0


def test_lodging_prices_convert_at_the_fx_rate_and_kid_filter_applies(tb) -> None:
    lux = tb.lodging.search(LodgingRequest(city="Paris", checkin=date(2027, 6, 15), checkout=date(2027, 6, 19),
                                           tier_prefs=[Tier.luxury]))
    meurice = next(h for h in lux if h.lodging_id == "le_meurice")
    assert meurice.price_per_night_usd_cents == 150930  # €1,300 × 1.161 (EUR/USD as of 2026-11-22)
    budget = tb.lodging.search(LodgingRequest(city="Paris", checkin=date(2027, 6, 15),
                                              checkout=date(2027, 6, 19), tier_prefs=[Tier.budget],
                                              kid_friendly=True))
    assert {h.lodging_id for h in budget} == {"generator_paris", "ibis_tour_eiffel_cambronne"}
    assert all(h.kid_friendly for h in budget)


# -- attractions & dining -----------------------------------------------------------------------
def test_attractions_at_most_twenty_theme_matches_first(tb) -> None:
    art = tb.attractions.search(AttractionsRequest(city="Paris", themes=["art"]))
    assert len(art) == 20
    n_art = sum("art" in a.themes for a in art)
    assert n_art >= 10
    assert all("art" in a.themes for a in art[:n_art])  # every match ranks before any non-match
    assert art[0].id == "louvre"
    for a in art:
        assert_provenance(a, "attractions")
        assert a.tz == "Europe/Paris"


def test_kid_filter_excludes_venues_that_are_not_kid_friendly(tb, catalog) -> None:
    not_for_kids = {v.id for v in catalog.city("Paris").raw.venues if v.kid_friendly is False}
    assert {"catacombs", "pantheon", "pere_lachaise"} <= not_for_kids
    grown_up = tb.attractions.search(AttractionsRequest(city="Paris", themes=["history"]))
    assert not_for_kids & {a.id for a in grown_up}
    kids = tb.attractions.search(AttractionsRequest(city="Paris", themes=["history"], kid_friendly=True))
    assert 0 < len(kids) <= 20
    assert not not_for_kids & {a.id for a in kids}
    assert all(a.kid_friendly is True for a in kids)


def test_louvre_hours_closures_and_blackouts_come_from_the_fixture(tb) -> None:
    louvre = tb.attractions.by_id(VenueRequest(city="Paris", venue_id="louvre"))
    assert louvre.opening_hours == "Mo,Th,Sa,Su 09:00-18:00; We,Fr 09:00-21:00; Tu off; Jan 01,May 01,Dec 25 off"
    assert louvre.windows_on(date(2027, 6, 15)) == ()  # a Tuesday: closed (SPEC_DECISIONS §2.2)
    assert [w.label() for w in louvre.windows_on(date(2027, 6, 14))] == ["09:00-18:00"]  # a Monday
    assert louvre.windows_on(date(2027, 12, 25)) == ()  # a Saturday, but Christmas
    assert louvre.est_price_usd_cents == 3715  # €32 (the non-EU price, issue 9) × 1.161
    assert tb.attractions.by_id(VenueRequest(city="Paris", venue_id="no_such_place")) is None


def test_dining_filters_for_kids(tb, catalog) -> None:
    every = tb.dining.search(DiningRequest(city="Paris"))
    kids = tb.dining.search(DiningRequest(city="Paris", kid_friendly=True))
    assert len(every) == len(catalog.city("Paris").raw.restaurants)
    assert 0 < len(kids) < len(every) and all(r.kid_friendly for r in kids)
    assert all("food" in r.themes for r in every)


def test_a_fixture_citys_rows_are_read_into_the_same_places_the_packs_give(tb, catalog) -> None:
    """Issue 30 §1: the fixture files' rows become a Place plus the facts planned with; the
    tools' answers carry those facts (hours known or not, the price converted, the visit length)."""
    paris = catalog.city("Paris")
    rows = {v.id: v for v in paris.raw.venues}
    assert [s.id for s in paris.sights] == list(rows)
    for sight in paris.sights:
        row = rows[sight.id]
        assert sight.place.kind == "sight" and sight.place.data_source == "fixture"
        assert sight.place.hours == (row.opening_hours if row.hours_known else None)
        assert (sight.opening_hours, sight.price, sight.minutes) == (row.opening_hours, row.price, row.duration_minutes)
    louvre = tb.attractions.by_id(VenueRequest(city="Paris", venue_id="louvre"))
    assert louvre.duration_minutes == paris.venue("louvre").minutes and louvre.provenance.tool == "attractions"
    eats = {r.id: r for r in paris.raw.restaurants}
    assert {e.id for e in paris.eateries} == set(eats) and all(e.place.kind == "food" for e in paris.eateries)
    meal = tb.dining.search(DiningRequest(city="Paris"))[0]
    assert meal.provenance.tool == "dining" and meal.themes[0] == "food" and meal.duration_minutes == 75
    beds = {h.id: h for h in paris.raw.hotels}
    assert all(b.tier == beds[b.id].tier and b.price == beds[b.id].price_per_night for b in paris.beds)


# -- transit ------------------------------------------------------------------------------------
ORIGIN = Geo(lat=48.85, lon=2.35)


def _leg(tb, to: Geo, day: date = date(2027, 6, 16), city: str = "Paris"):
    return tb.transit.leg(TransitRequest(city=city, from_geo=ORIGIN if city == "Paris" else Geo(lat=41.9, lon=12.5),
                                         to_geo=to, day=day))


def test_short_hops_are_walked_at_5_kmh(tb) -> None:
    leg = _leg(tb, Geo(lat=48.859, lon=2.35))  # 0.009° of latitude north ≈ 1,000.75 m
    assert leg.mode is TransitMode.walk
    assert leg.distance_m == 1000
    # 1.00 km × 1.2 street factor at 5 km/h = 14.4 min → 14 min; walking is free, runs all night.
    assert leg.duration_seconds == 14 * 60
    assert leg.cost_usd_cents == 0 and leg.last_departure is None
    assert _leg(tb, Geo(lat=48.8607, lon=2.35)).mode is TransitMode.walk  # 1,189.8 m


def test_longer_hops_take_the_metro_at_30_kmh(tb) -> None:
    edge = _leg(tb, Geo(lat=48.8608, lon=2.35))  # 1,201 m: just over the walking limit
    assert edge.mode is TransitMode.metro
    leg = _leg(tb, Geo(lat=48.88, lon=2.35))  # 3,335.8 m
    assert leg.mode is TransitMode.metro
    assert leg.distance_m == 3335
    # 3.34 km × 1.25 at 30 km/h = 8.3 min → 8, plus 8 min to reach the platform.
    assert leg.duration_seconds == 16 * 60
    assert leg.cost_usd_cents == 290  # €2.50 ticket × 1.161
    assert leg.last_departure == time(0, 40)  # Paris weekday: last metro 00:40
    weekend = _leg(tb, Geo(lat=48.88, lon=2.35), day=date(2027, 6, 18))  # a Friday
    assert weekend.last_departure == time(1, 40)
    assert_provenance(leg, "transit")


def test_rome_metro_stops_at_half_past_eleven_on_weekdays(tb) -> None:
    leg = _leg(tb, Geo(lat=41.94, lon=12.5), city="Rome")
    assert leg.mode is TransitMode.metro
    assert leg.last_departure == time(23, 30)


def test_airport_legs(tb) -> None:
    leg = tb.transit.airport_leg("Paris", "CDG", ORIGIN, date(2027, 6, 15))
    assert leg.mode is TransitMode.metro
    assert 20_000 < leg.distance_m < 30_000
    assert 50 * 60 <= leg.duration_seconds <= 75 * 60
    assert leg.cost_usd_cents == 1509  # €13 RER B × 1.161


# -- FX -----------------------------------------------------------------------------------------
def test_fx_interpolates_linearly_between_weekly_rows_as_of_the_day_before(tb) -> None:
    # Rows: 2025-01-06 → 1.031, 2025-01-13 → 1.025. Asked on the 10th → published on the 9th:
    # 1.031 + (1.025 - 1.031) × 3/7 = 1.028429.
    rate = tb.fx.rate(FXRequest(from_currency="EUR", as_of=date(2025, 1, 10)))
    assert rate.as_of == date(2025, 1, 9)
    assert rate.rate == pytest.approx(1.028429, abs=1e-6)
    on_row = tb.fx.rate(FXRequest(from_currency="eur", as_of=date(2025, 1, 14)))
    assert (on_row.as_of, on_row.rate) == (date(2025, 1, 13), 1.025)
    assert_provenance(rate, "fx")
    assert rate.provenance.ref_id == "EURUSD"


def test_fx_outside_the_table_holds_the_nearest_row_and_usd_is_one(tb) -> None:
    assert tb.fx.rate(FXRequest(from_currency="EUR", as_of=date(2024, 6, 1))).rate == 1.031
    assert tb.fx.rate(FXRequest(from_currency="EUR", as_of=date(2027, 6, 1))).rate == 1.161
    assert tb.fx.rate(FXRequest(from_currency="USD", as_of=date(2027, 6, 1))).rate == 1.0
    with pytest.raises(InputError, match="no exchange rate for CHF"):
        tb.fx.rate(FXRequest(from_currency="CHF", as_of=date(2027, 6, 1)))


def test_the_toolbox_uses_t_minus_one_rates() -> None:
    tb = new_toolbox()
    assert tb.fx_as_of == date(2026, 11, 22)
    assert tb.rates_to_usd == {"EUR": 1.161, "JPY": 0.006477, "USD": 1.0}


def test_an_fx_override_pins_the_rate_everywhere() -> None:
    tb = new_toolbox(ToolOverrides(fx={"eur": 1.20}))
    assert tb.fx.rate(FXRequest(from_currency="EUR", as_of=date(2025, 1, 10))).rate == 1.20
    assert tb.rates_to_usd["EUR"] == 1.20
    lux = tb.lodging.search(LodgingRequest(city="Paris", checkin=date(2027, 6, 15), checkout=date(2027, 6, 19),
                                           tier_prefs=[Tier.luxury]))
    assert next(h for h in lux if h.lodging_id == "le_meurice").price_per_night_usd_cents == 156000


# -- weather ------------------------------------------------------------------------------------
def test_weather_is_typical_climatology_unless_overridden() -> None:
    rainy = date(2027, 6, 17)
    tb = new_toolbox(ToolOverrides(weather={rainy: {"precip_prob": 0.8}}))
    normal = tb.weather.fixture.day(WeatherRequest(lat=48.8566, lon=2.3522, date=date(2027, 6, 16)))
    assert (normal.precip_prob, normal.wind_kmh, normal.typical) == (0.27, 14.0, True)
    wet = tb.weather.fixture.day(WeatherRequest(lat=48.8566, lon=2.3522, date=rainy))
    assert (wet.precip_prob, wet.wind_kmh, wet.temp_c_high, wet.typical) == (0.8, 14.0, 23.3, False)
    assert_provenance(wet, "weather")
    assert wet.provenance.response_digest != normal.provenance.response_digest
    tokyo = tb.weather.fixture.day(WeatherRequest(lat=35.68, lon=139.76, date=date(2027, 6, 16)))
    assert tokyo.provenance.ref_id == "climatology:tokyo"
    # Our climatology rows, not an answer from a weather service: no service URL claimed.
    assert normal.provenance.source_url is None and normal.provenance.data_source == "fixture"


# -- executor -----------------------------------------------------------------------------------
class Counting:
    def __init__(self, fn):
        self.fn = fn
        self.calls = 0

    def __call__(self, request):
        self.calls += 1
        return self.fn(request)


async def test_second_identical_call_is_a_cache_hit(tb) -> None:
    ex = ToolExecutor()
    search = Counting(tb.flights.search)
    req = FlightRequest(origin="JFK", dest="CDG", date_window=JUNE)
    first, hit1 = await ex.call("flights", search, req)
    second, hit2 = await ex.call("flights", search, req)
    assert (hit1, hit2) == (False, True)
    assert search.calls == 1
    assert [o.model_copy(update={"provenance": o.provenance.model_copy(update={"cache_hit": False})})
            for o in second] == first
    assert all(o.provenance.cache_hit for o in second) and not any(o.provenance.cache_hit for o in first)
    other, hit3 = await ex.call("flights", search, req.model_copy(update={"avoid_overnight": True}))
    assert hit3 is False and search.calls == 2 and other != first
    assert ex.stats["flights"].calls == 3 and ex.stats["flights"].cache_hits == 1
    assert ex.cache_hit_rate("flights") == pytest.approx(1 / 3)


async def test_circuit_breaker_opens_after_five_failures_with_retry_after() -> None:
    ex = ToolExecutor()

    def broken(request):
        raise OSError("connection refused")

    tool = Counting(broken)
    for i in range(5):
        with pytest.raises(ToolError, match="connection refused"):
            await ex.call("weather", tool, {"n": i})
    with pytest.raises(ToolError) as info:
        await ex.call("weather", tool, {"n": 99})
    assert tool.calls == 5  # the open breaker answered without calling the tool
    assert info.value.tool == "weather"
    m = re.search(r"circuit open; retry after (\d+)s", info.value.reason)
    assert m and 29 <= int(m.group(1)) <= 31
    assert ex.stats["weather"].error_reasons == {"unavailable": 5, "circuit_open": 1}
    assert ex.breaker_state("weather") == "open"
    # Other tools are unaffected.
    assert (await ex.call("fx", lambda r: 1.5, {"x": 1})) == (1.5, False)


async def test_breaker_half_open_probe_closes_it_on_success() -> None:
    now = [1000.0]
    ex = ToolExecutor(clock=lambda: now[0])
    state = {"fail": True}

    def tool(request):
        if state["fail"]:
            raise OSError("down")
        return "up"

    for i in range(5):
        with pytest.raises(ToolError):
            await ex.call("geocode", tool, i)
    with pytest.raises(ToolError, match="circuit open"):
        await ex.call("geocode", tool, 5)
    now[0] += 30  # the probe interval, on the injected clock
    state["fail"] = False
    assert await ex.call("geocode", tool, 6) == ("up", False)
    assert await ex.call("geocode", tool, 7) == ("up", False)  # closed again


async def test_slow_async_tool_times_out_after_one_retry() -> None:
    ex = ToolExecutor(ExecutorPolicy(hard_timeout_s=0.05, retry_wait_s=(0.01, 0.02)))
    attempts = []

    async def slow(request):
        attempts.append(clock.perf_counter())
        await asyncio.sleep(1.0)
        return "late"

    started = clock.perf_counter()
    with pytest.raises(ToolError, match=r"timed out after 0\.05s"):
        await ex.call("weather", slow, {"lat": 1})
    assert len(attempts) == 2  # the first try and one retry
    assert clock.perf_counter() - started < 0.8
    assert ex.stats["weather"].errors == 1


async def test_flaky_async_tool_succeeds_on_the_retry() -> None:
    ex = ToolExecutor(ExecutorPolicy(retry_wait_s=(0.01, 0.02)))
    attempts = []

    async def flaky(request):
        attempts.append(request)
        if len(attempts) == 1:
            raise ToolUnavailable("weather", "HTTP 503")
        return {"precip": 0.1}

    result, hit = await ex.call("weather", flaky, {"lat": 1})
    assert result == {"precip": 0.1} and hit is False
    assert len(attempts) == 2
    assert ex.stats["weather"].errors == 0
    assert (await ex.call("weather", flaky, {"lat": 1})) == ({"precip": 0.1}, True)
    assert len(attempts) == 2


async def test_async_tool_os_errors_are_retried_and_count_towards_the_breaker() -> None:
    ex = ToolExecutor(ExecutorPolicy(retry_wait_s=(0.001, 0.002)))
    attempts = []

    async def refused(request):
        attempts.append(request)
        raise ConnectionRefusedError("connection refused")

    for i in range(5):
        with pytest.raises(ToolError, match="connection refused"):
            await ex.call("weather", refused, i)
    assert len(attempts) == 10  # each call: one try + one retry
    with pytest.raises(ToolError, match="circuit open"):
        await ex.call("weather", refused, 5)
    assert len(attempts) == 10


async def test_input_errors_are_not_tool_failures(tb) -> None:
    ex = ToolExecutor()
    for _ in range(6):
        with pytest.raises(InputError):
            await ex.call("fx", tb.fx.rate, FXRequest(from_currency="CHF", as_of=date(2027, 1, 1)))
    # Six bad inputs did not open the breaker.
    assert (await ex.call("fx", tb.fx.rate, FXRequest(from_currency="EUR", as_of=date(2025, 1, 14))))[0].rate == 1.025


# -- provenance on every result -----------------------------------------------------------------
def test_every_gathered_result_carries_provenance(paris_inputs) -> None:
    results = (paris_inputs.flights + paris_inputs.lodgings + paris_inputs.attractions
               + paris_inputs.restaurants + list(paris_inputs.weather.values()))
    assert len(results) > 40
    for r in results:
        assert HEX64.match(r.provenance.response_digest)
        assert r.provenance.tool in {"flights", "lodging", "attractions", "dining", "weather"}
    assert paris_inputs.calls == 13  # 2 flight searches, 4 lodging, attractions, dining, 5 weather days


def test_westbound_morning_flight_is_not_a_red_eye(tb) -> None:
    """CDG 08:20 → JFK 10:40 is airborne at 03:00 New York time but is a daytime flight."""
    from datetime import datetime, timezone
    from engine.tools.flights import is_overnight
    dep = datetime(2027, 6, 19, 6, 20, tzinfo=timezone.utc)  # 08:20 Paris
    arr = datetime(2027, 6, 19, 14, 40, tzinfo=timezone.utc)  # 10:40 New York
    assert not is_overnight(dep, arr, ("Europe/Paris", "America/New_York"))
    red_eye_dep = datetime(2027, 6, 14, 23, 30, tzinfo=timezone.utc)  # JFK 19:30
    red_eye_arr = datetime(2027, 6, 15, 6, 50, tzinfo=timezone.utc)  # CDG 08:50 next day
    assert is_overnight(red_eye_dep, red_eye_arr, ("America/New_York", "Europe/Paris"))
    tokyo_night = datetime(2027, 6, 19, 13, 0, tzinfo=timezone.utc)  # HND 22:00, lands LAX 16:00 same date
    assert is_overnight(tokyo_night, tokyo_night.replace(hour=23), ("Asia/Tokyo", "America/Los_Angeles"))
