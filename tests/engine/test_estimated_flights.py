"""Estimated flights (city packs): FixtureFlights' semantics over a stated distance/fare model."""

from __future__ import annotations

from collections import Counter
from datetime import date, timedelta
from zoneinfo import ZoneInfo

import pytest

from engine.catalog import default_catalog
from engine.errors import InputError
from engine.models import DateWindow
from engine.catalog.airports import airport_info
from engine.tools import estimated_flights
from engine.tools.estimated_flights import (EstimatedFlights, FlightsWithEstimates, budget_fare_usd,
                                            flight_minutes)
from engine.tools.flights import FixtureFlights
from engine.tools.requests import FlightRequest

LISBON = ZoneInfo("Europe/Lisbon")
NEW_YORK = ZoneInfo("America/New_York")
MAY = DateWindow(start=date(2027, 5, 10), end=date(2027, 5, 16), tz="Europe/Lisbon")


def _request(origin: str = "JFK", dest: str = "LIS", window: DateWindow = MAY, avoid_overnight: bool = False):
    return FlightRequest(origin=origin, dest=dest, date_window=window, avoid_overnight=avoid_overnight)


def _window(start: date, days: int = 6) -> DateWindow:
    return DateWindow(start=start, end=start + timedelta(days=days), tz="UTC")


@pytest.fixture(scope="module")
def estimated() -> EstimatedFlights:
    return EstimatedFlights(airport_info)


def _cheapest(options, direction: str = "outbound") -> int:
    return min(o.price_usd_cents for o in options if o.direction == direction and o.fare_tier == "budget")


def test_outbound_lands_on_the_start_date_and_return_leaves_on_the_end_date(estimated) -> None:
    options = estimated.search(_request())
    outbound = [o for o in options if o.direction == "outbound"]
    back = [o for o in options if o.direction == "return"]
    assert outbound and back
    assert all((o.origin, o.dest) == ("JFK", "LIS") for o in outbound)
    assert all((o.origin, o.dest) == ("LIS", "JFK") for o in back)
    assert {o.arrival.astimezone(LISBON).date() for o in outbound} == {MAY.start}
    assert {o.departure.astimezone(LISBON).date() for o in back} == {MAY.end}
    for legs in (outbound, back):
        tiers = Counter(o.fare_tier for o in legs)
        assert set(tiers) == {"budget", "mid", "premium"} and max(tiers.values()) <= 2


def test_a_long_eastbound_flight_leaves_the_day_before_to_land_on_the_start_date(estimated) -> None:
    outbound = [o for o in estimated.search(_request(dest="HND")) if o.direction == "outbound"]
    assert outbound
    assert {o.departure.astimezone(NEW_YORK).date() for o in outbound} == {MAY.start - timedelta(days=1)}
    assert {o.arrival.astimezone(ZoneInfo("Asia/Tokyo")).date() for o in outbound} == {MAY.start}


def test_avoid_overnight_removes_the_red_eyes_but_leaves_options(estimated) -> None:
    everything = estimated.search(_request())
    assert any(o.overnight for o in everything)  # the 21:30 long-haul departure
    daytime = estimated.search(_request(avoid_overnight=True))
    assert {o.direction for o in daytime} == {"outbound", "return"}
    assert not any(o.overnight for o in daytime)


def test_short_haul_has_daytime_departures_only(estimated) -> None:
    options = estimated.search(_request(origin="LIS", dest="MAD"))
    assert options and not any(o.flight_number.endswith(", 21:30") for o in options)


def test_duration_model() -> None:
    assert flight_minutes(0) == 45  # never less than 45 minutes
    assert flight_minutes(5420) == 445  # 5,420 km / 800 km/h = 406.5 min + 40, to 5 min
    assert all(flight_minutes(km) % 5 == 0 for km in range(0, 16000, 137))


def test_prices_rise_with_distance(estimated) -> None:
    fares = [budget_fare_usd(km) for km in range(0, 16000, 250)]
    assert fares == sorted(fares) and len(set(fares)) == len(fares)
    boston, lisbon, tokyo = (_cheapest(estimated.search(_request(dest=d))) for d in ("BOS", "LIS", "HND"))
    assert boston < lisbon < tokyo


def test_prices_follow_the_season_factor_and_the_fare_tier(estimated) -> None:
    february = _cheapest(estimated.search(_request(window=_window(date(2027, 2, 10)))))
    july = _cheapest(estimated.search(_request(window=_window(date(2027, 7, 10)))))
    assert july > february  # month factors 1.33 against 0.82
    flat = EstimatedFlights(airport_info, month_factors={str(m): 1.0 for m in range(1, 13)})
    double = EstimatedFlights(airport_info, month_factors={str(m): 2.0 for m in range(1, 13)})
    assert _cheapest(double.search(_request())) == pytest.approx(2 * _cheapest(flat.search(_request())), abs=100)
    assert flat.cache_variant != double.cache_variant
    by_tier = {o.fare_tier: o.price_usd_cents for o in flat.search(_request())
               if o.direction == "outbound" and o.flight_number == "Estimated flight JFK → LIS, 07:10"}
    assert by_tier["budget"] < by_tier["mid"] < by_tier["premium"]
    assert by_tier["mid"] == pytest.approx(1.5 * by_tier["budget"], abs=100)


def test_every_option_is_labelled_estimated_with_a_unique_id(estimated) -> None:
    options = estimated.search(_request())
    assert len({o.flight_id for o in options}) == len(options)
    for o in options:
        assert o.provenance.data_source == "estimated" and o.provenance.source_url is None
        assert o.provenance.tool == "flights" and o.provenance.ref_id == o.flight_id
        assert o.carrier == "Estimated"
        clock = o.departure.astimezone(ZoneInfo(airport_info(o.origin).tz)).strftime("%H:%M")
        assert o.flight_number == f"Estimated flight {o.origin} → {o.dest}, {clock}"  # the name says what it is
        assert o.flight_id == o.flight_id.lower() and o.flight_id.startswith("est-")
    assert "est-jfk-lis-0710-budget-20270510" in {o.flight_id for o in options}


def test_answers_are_deterministic(estimated) -> None:
    def key(options):
        return [(o.flight_id, o.price_usd_cents, o.departure, o.arrival) for o in options]

    assert key(estimated.search(_request())) == key(estimated.search(_request()))


def test_an_unknown_code_is_an_input_error(estimated) -> None:
    with pytest.raises(InputError) as origin:
        estimated.search(_request(origin="ZZZ"))
    assert origin.value.field == "origin_airport"
    with pytest.raises(InputError) as dest:
        estimated.search(_request(dest="ZZZ"))
    assert dest.value.field == "airports"


def test_fixture_airport_records_work_as_the_lookup() -> None:
    catalog = default_catalog()
    from_fixture = EstimatedFlights(catalog.raw.airports.get).search(_request(dest="CDG"))
    assert from_fixture and all(o.provenance.data_source == "estimated" for o in from_fixture)


def test_flights_with_estimates_keeps_the_schedule_and_estimates_the_rest() -> None:
    catalog = default_catalog()
    fixture = FixtureFlights(catalog)
    both = FlightsWithEstimates(fixture, EstimatedFlights(airport_info), catalog)
    assert both.name == "flights"
    paris = both.search(_request(dest="CDG"))
    assert [o.flight_id for o in paris] == [o.flight_id for o in fixture.search(_request(dest="CDG"))]
    assert {o.provenance.data_source for o in paris} == {"fixture"}
    lisbon = both.search(_request(dest="LIS"))
    assert {o.direction for o in lisbon} == {"outbound", "return"}
    assert {o.provenance.data_source for o in lisbon} == {"estimated"}


def test_the_cache_variant_changes_with_the_estimate_model(monkeypatch) -> None:
    catalog = default_catalog()
    fixture = FixtureFlights(catalog)
    one = FlightsWithEstimates(fixture, EstimatedFlights(airport_info), catalog)
    again = FlightsWithEstimates(fixture, EstimatedFlights(airport_info), catalog)
    assert one.cache_variant == again.cache_variant
    seasons = FlightsWithEstimates(fixture, EstimatedFlights(airport_info, {str(m): 1.0 for m in range(1, 13)}),
                                   catalog)
    monkeypatch.setitem(estimated_flights.MODEL, "version", estimated_flights.MODEL_VERSION + 1)
    next_model = FlightsWithEstimates(fixture, EstimatedFlights(airport_info), catalog)
    assert len({one.cache_variant, seasons.cache_variant, next_model.cache_variant}) == 3


def test_a_long_haul_trip_to_a_domestic_airport_connects_at_the_long_haul_one(estimated) -> None:
    """Osaka Itami flies domestic routes only: from San Francisco it is reached through Kansai,
    which takes longer and costs more than landing at Kansai itself."""
    itami = [o for o in estimated.search(_request(origin="SFO", dest="ITM")) if o.direction == "outbound"]
    kansai = [o for o in estimated.search(_request(origin="SFO", dest="KIX")) if o.direction == "outbound"]
    assert itami and kansai
    assert all(" via KIX, " in o.flight_number and o.flight_id.startswith("est-sfo-kix-itm-") for o in itami)
    assert all(" via " not in o.flight_number for o in kansai)
    assert min(o.duration_seconds for o in itami) >= min(o.duration_seconds for o in kansai) + 90 * 60
    assert _cheapest(itami) > _cheapest(kansai)
    back = [o for o in estimated.search(_request(origin="SFO", dest="ITM")) if o.direction == "return"]
    assert back and all(o.flight_number.startswith("Estimated flight ITM → SFO via KIX, ") for o in back)


def test_short_trips_and_long_haul_airports_fly_nonstop(estimated) -> None:
    domestic = estimated.search(_request(origin="HND", dest="ITM", window=_window(date(2027, 5, 10))))
    assert domestic and all(" via " not in o.flight_number for o in domestic)  # 400 km: no connection
    lisbon = estimated.search(_request())
    assert all(" via " not in o.flight_number for o in lisbon)  # JFK and LIS both fly long haul
