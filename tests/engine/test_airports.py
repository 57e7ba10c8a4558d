"""Airports with scheduled service (OurAirports via airports-py): the airports a city pack uses."""

from __future__ import annotations

import pytest

from engine.catalog.schema import RawAirport
from engine.catalog.airports import (AirportInfo, airport_info, airports_for_trip, distance_km,
                                    nearest_airports, scheduled_airports, to_raw_airport)

LISBON = (38.7223, -9.1393)
KYOTO = (35.0116, 135.7681)
CHICAGO = (41.8781, -87.6298)
MID_PACIFIC = (30.0, -140.0)  # ~1,700 km from Hawaii and from California


def test_only_scheduled_large_and_medium_airports_with_an_iata_code_are_kept() -> None:
    airports = scheduled_airports()
    assert 2000 < len(airports) < 6000
    assert all(len(a.iata) == 3 and a.iata.isupper() and len(a.country) == 2 for a in airports)
    assert len({a.iata for a in airports}) == len(airports)
    assert scheduled_airports() is airports  # read once per process


def test_lisbon_flies_into_lis() -> None:
    found = nearest_airports(*LISBON)
    assert found[0].iata == "LIS"
    assert found[0].large and found[0].country == "PT" and found[0].tz == "Europe/Lisbon"


def test_kyoto_has_no_airport_of_its_own_and_uses_osakas_with_the_long_haul_one() -> None:
    """Itami and Kobe are the nearest but fly domestic routes only: Kansai, the region's long-haul
    airport, takes the last place (issue 31 §4)."""
    found = nearest_airports(*KYOTO)
    assert [(a.iata, a.service) for a in found] == [("ITM", "short_haul"), ("KIX", "long_haul")]
    for airport in nearest_airports(*KYOTO, limit=3):
        assert distance_km(*KYOTO, airport.lat, airport.lon) <= 150


def test_chicago_has_two_airports_nearest_first() -> None:
    found = nearest_airports(*CHICAGO)
    assert [a.iata for a in found] == ["MDW", "ORD"]
    distances = [distance_km(*CHICAGO, a.lat, a.lon) for a in found]
    assert distances == sorted(distances)


def test_the_limit_is_respected() -> None:
    assert len(nearest_airports(*CHICAGO, limit=1)) == 1


def test_the_open_ocean_has_no_airport() -> None:
    assert nearest_airports(*MID_PACIFIC) == []


def test_a_remote_place_falls_back_to_the_nearest_scheduled_airport_within_400_km() -> None:
    # Marfa, Texas: no large airport within 150 km, no medium one within 120 km.
    marfa = (30.3094, -104.0206)
    found = nearest_airports(*marfa)
    assert len(found) == 1
    assert 120 < distance_km(*marfa, found[0].lat, found[0].lon) <= 400


@pytest.mark.parametrize("code", ["jfk", "JFK", " Jfk "])
def test_airport_info_is_case_insensitive(code: str) -> None:
    info = airport_info(code)
    assert isinstance(info, AirportInfo)
    assert (info.iata, info.country, info.tz, info.large) == ("JFK", "US", "America/New_York", True)
    assert abs(info.lat - 40.64) < 0.05 and abs(info.lon + 73.78) < 0.05


def test_unknown_or_unscheduled_codes_are_none() -> None:
    assert airport_info("ZZZ") is None


def test_to_raw_airport_names_the_city() -> None:
    lis = to_raw_airport(airport_info("LIS"))
    assert isinstance(lis, RawAirport)
    assert (lis.iata, lis.city, lis.tz) == ("LIS", "Lisbon", "Europe/Lisbon")
    assert lis.geo.lat == pytest.approx(airport_info("LIS").lat)
    assert to_raw_airport(airport_info("MDW")).city == "Chicago"  # named in "Chicago Midway ..."
    assert to_raw_airport(airport_info("KIX")).city == "Osaka"  # "Kansai": the largest city near it


def test_service_says_what_a_traveller_can_fly_there() -> None:
    assert [airport_info(code).service for code in ("JFK", "LGA", "KIX", "ITM")] == [
        "long_haul", "short_haul", "long_haul", "short_haul"]
    regional = [a for a in scheduled_airports() if not a.large]
    assert regional and {a.service for a in regional} == {"regional"}
    assert all(a.large for a in scheduled_airports() if a.service == "long_haul")


def test_a_city_whose_nearest_airports_fly_long_haul_keeps_them() -> None:
    assert [a.iata for a in nearest_airports(*CHICAGO)] == ["MDW", "ORD"]
    assert [a.iata for a in nearest_airports(*CHICAGO, limit=1)] == ["ORD"]  # the one place: long haul
    assert [a.iata for a in nearest_airports(*LISBON)] == ["LIS"]


def test_no_long_haul_airport_near_leaves_the_nearest_ones() -> None:
    florence = (43.7696, 11.2558)  # Florence and Pisa fly within Europe; Rome and Milan are > 200 km
    assert [(a.iata, a.service) for a in nearest_airports(*florence)] == [("FLR", "short_haul"),
                                                                          ("PSA", "short_haul")]


def test_a_long_haul_trip_lands_where_long_haul_flights_do() -> None:
    assert airports_for_trip("SFO", ["ITM", "KIX"]) == ["KIX"]  # 8,800 km: Kansai
    assert airports_for_trip("HND", ["ITM", "KIX"]) == ["ITM", "KIX"]  # 400 km: either
    assert airports_for_trip("JFK", ["FLR", "PSA"]) == ["FLR", "PSA"]  # no long-haul airport: as they are
    assert airports_for_trip("JFK", ["ITM", "ZZZ"]) == ["ITM", "ZZZ"]  # an airport the data lacks: unjudged
