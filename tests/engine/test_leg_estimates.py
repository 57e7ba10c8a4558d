"""Legs estimated offline (issue 33 §2–3): the main stations and each country's rail speed bring the
estimate close to the published times (``fixtures/legs/README.md`` names them), no train or road
crosses a sea, the mode a traveller would take wins and the decision says why, an asked mode is
honoured, and one that cannot make the leg is one line naming the leg."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from engine.errors import InputError
from engine.legs import LegQuery, Station, choose, plan_leg, station_from_map
from engine.legs.rail import rail_ride
from engine.legs.water import land_of, sea_between
from engine.models import Geo

# City centres (the stay's point), from each city's Wikipedia coordinates
CITIES = {
    "Lisbon": (Geo(lat=38.7223, lon=-9.1393), "Europe/Lisbon"),
    "Porto": (Geo(lat=41.1579, lon=-8.6291), "Europe/Lisbon"),
    "Tokyo": (Geo(lat=35.6812, lon=139.7671), "Asia/Tokyo"),
    "Kyoto": (Geo(lat=35.0116, lon=135.7681), "Asia/Tokyo"),
    "Rome": (Geo(lat=41.8931, lon=12.4828), "Europe/Rome"),
    "Florence": (Geo(lat=43.7696, lon=11.2558), "Europe/Rome"),
    "Barcelona": (Geo(lat=41.3874, lon=2.1686), "Europe/Madrid"),
    "Palma": (Geo(lat=39.5696, lon=2.6502), "Europe/Madrid"),
    "London": (Geo(lat=51.5072, lon=-0.1276), "Europe/London"),
    "Paris": (Geo(lat=48.8566, lon=2.3522), "Europe/Paris"),
    "Dublin": (Geo(lat=53.3498, lon=-6.2603), "Europe/Dublin"),
    "Reykjavik": (Geo(lat=64.1466, lon=-21.9426), "Atlantic/Reykjavik"),
    "Akureyri": (Geo(lat=65.6885, lon=-18.1262), "Atlantic/Reykjavik"),
    "Naples": (Geo(lat=40.8518, lon=14.2681), "Europe/Rome"),
    "Capri": (Geo(lat=40.5507, lon=14.2429), "Europe/Rome"),
    "Amalfi": (Geo(lat=40.6340, lon=14.6027), "Europe/Rome"),
    "Bruges": (Geo(lat=51.2093, lon=3.2247), "Europe/Brussels"),
    "Amsterdam": (Geo(lat=52.3676, lon=4.9041), "Europe/Amsterdam"),
}


def query(a: str, b: str, **kw) -> LegQuery:
    (ga, tza), (gb, tzb) = CITIES[a], CITIES[b]
    return LegQuery(index=kw.pop("index", 0), from_city=a, to_city=b, from_geo=ga, to_geo=gb, to_tz=tzb,
                    earliest=datetime(2027, 5, 13, 10, 10, tzinfo=ZoneInfo(tza)), **kw)


def hours(leg) -> float:
    return (leg.arrival - leg.departure).total_seconds() / 3600


@pytest.mark.parametrize("a, b, published_h, start, end", [
    ("Lisbon", "Porto", 2 + 48 / 60, "Lisboa Santa Apolónia", "Porto Campanhã"),
    ("Tokyo", "Kyoto", 2.25, "Tokyo", "Kyoto"),
    ("Rome", "Florence", 1 + 35 / 60, "Roma Termini", "Firenze Santa Maria Novella"),
])
def test_the_classic_pairs_go_by_train_between_their_main_stations_in_the_published_time(a, b, published_h,
                                                                                          start, end) -> None:
    leg = plan_leg(query(a, b))
    assert (leg.mode, leg.source, leg.from_name, leg.to_name) == ("train", "estimated", start, end)
    assert abs(hours(leg) - published_h) <= 0.1
    assert "as published" in leg.why and "times estimated" in leg.why


def test_a_pair_without_a_published_time_rides_at_its_countrys_speed() -> None:
    florence_venice = rail_ride("Florence", CITIES["Florence"][0], "Venice", Geo(lat=45.4408, lon=12.3155))
    # Frecciarossa Firenze S.M.N.–Venezia S. Lucia runs about 2 h 05 (Trenitalia); the estimate is within 45 min
    assert abs(florence_venice.minutes - 125) <= 45
    assert "IT high-speed average" in florence_venice.basis
    assert florence_venice.to_station.name == "Venezia Santa Lucia"


def test_a_city_the_table_lacks_leaves_from_its_own_station_or_the_one_the_caller_knows() -> None:
    leg = plan_leg(query("Bruges", "Amsterdam"))
    assert leg.mode == "train" and leg.from_name == "Bruges station" and leg.to_name == "Amsterdam Centraal"
    osm = Station("Brugge", Geo(lat=51.1972, lon=3.2167), known=True)  # the station in the city's OSM pack
    assert plan_leg(query("Bruges", "Amsterdam", from_station=osm)).from_name == "Brugge"


def test_the_main_station_is_found_among_a_city_packs_stations() -> None:
    # named railway=station nodes as a city pack's map layer holds them (names and places from OSM)
    ghent = Geo(lat=51.0543, lon=3.7174)
    stations = [("Gent-Dampoort", Geo(lat=51.0562, lon=3.7404)), ("Gent-Sint-Pieters", Geo(lat=51.0357, lon=3.7104)),
                ("Korenmarkt", Geo(lat=51.0546, lon=3.7215))]
    assert station_from_map("Ghent", ghent, stations) is None  # no name says which is the main one
    hamburg = Geo(lat=53.5511, lon=9.9937)
    stations = [("Jungfernstieg", Geo(lat=53.5526, lon=9.9930)), ("Hamburg Hbf", Geo(lat=53.5530, lon=10.0069)),
                ("Hamburg-Altona", Geo(lat=53.5519, lon=9.9350))]
    found = station_from_map("Hamburg", hamburg, stations)
    assert found is not None and found.name == "Hamburg Hbf" and found.country == "DE"


def test_a_station_named_like_the_city_but_far_from_it_is_not_taken() -> None:
    # "Porto" asked with Tokyo's coordinates: Porto Campanhã is not Tokyo's station
    q = LegQuery(index=0, from_city="Lisbon", to_city="Porto", from_geo=CITIES["Lisbon"][0],
                 to_geo=CITIES["Tokyo"][0], to_tz="Asia/Tokyo", earliest=datetime(2027, 5, 13, 10, tzinfo=ZoneInfo("UTC")))
    assert plan_leg(q).mode == "flight"


def test_no_train_or_road_crosses_the_sea_to_mallorca() -> None:
    assert land_of(CITIES["Palma"][0]).name == "Mallorca" and sea_between(CITIES["Barcelona"][0], CITIES["Palma"][0])
    assert not sea_between(CITIES["London"][0], CITIES["Paris"][0])  # the Channel Tunnel
    assert sea_between(CITIES["London"][0], CITIES["Dublin"][0])
    leg = plan_leg(query("Barcelona", "Palma"))
    assert leg.mode == "flight" and "by ferry" in leg.why and "Mallorca is across the sea" in leg.why
    for mode in ("train", "bus", "drive"):
        with pytest.raises(InputError) as err:
            plan_leg(query("Barcelona", "Palma", asked=mode, index=2))
        assert err.value.field == "legs[2].mode" and "Mallorca is across the sea; fly or take the ferry" in str(err.value)
    assert plan_leg(query("Barcelona", "Palma", asked="ferry")).mode == "ferry"


def test_a_short_strait_sails_and_an_island_without_an_airport_is_not_flown_to() -> None:
    leg = plan_leg(query("Naples", "Capri"))
    assert leg.mode == "ferry" and leg.from_name == "Naples port"
    with pytest.raises(InputError, match="no flight goes from Naples to Capri"):
        plan_leg(query("Naples", "Capri", asked="flight"))


def test_impossible_modes_are_one_line_each_and_a_coastal_ferry_is_the_travellers_call() -> None:
    with pytest.raises(InputError, match="Iceland has no railway"):
        plan_leg(query("Reykjavik", "Akureyri", asked="train"))
    with pytest.raises(InputError, match="no ferry goes from Dublin to Reykjavik: 1495 km of open sea; fly"):
        plan_leg(query("Dublin", "Reykjavik", asked="ferry"))
    # along one coast (Naples → Amalfi) a ferry may be asked, never picked for the traveller
    assert plan_leg(query("Naples", "Amalfi", asked="ferry")).mode == "ferry"
    assert plan_leg(query("Naples", "Amalfi")).mode != "ferry"


def test_the_traveller_takes_the_high_speed_train_over_a_flight_with_its_airports() -> None:
    pick, why = choose(query("Tokyo", "Kyoto"))
    assert pick.mode == "train" and pick.ride_h > 2
    # the flight is quicker in the air, slower door to door: the decision says both
    assert "door to door by train beats" in why and "in the air" in why and "of airports and transfers" in why


def test_a_train_much_slower_than_flying_loses_and_a_little_slower_wins(monkeypatch) -> None:
    # Berlin–Munich: ~4 h on the ICE plus the stations, ~38 min more than a flight with its airports
    q = LegQuery(index=0, from_city="Berlin", to_city="Munich", from_geo=Geo(lat=52.52, lon=13.405),
                 to_geo=Geo(lat=48.1351, lon=11.582), to_tz="Europe/Berlin",
                 earliest=datetime(2027, 5, 13, 9, tzinfo=ZoneInfo("Europe/Berlin")))
    pick, why = choose(q)
    assert pick.mode == "flight" and "by flight" in why and "door to door by train" in why
    monkeypatch.setattr("engine.legs.estimate.TRAIN_PREFERENCE_H", 1.0)  # a traveller who minds airports more
    pick, why = choose(q)
    assert pick.mode == "train" and "more, but no check-in or security, centre to centre" in why


def test_an_asked_mode_is_honoured_with_its_own_ends() -> None:
    leg = plan_leg(query("Lisbon", "Porto", asked="bus"))
    assert leg.mode == "bus" and leg.why.startswith("bus as asked") and leg.from_name == "Lisbon bus station"
    assert plan_leg(query("Lisbon", "Porto", asked="flight")).to_name == "Porto airport"
    assert plan_leg(query("Lisbon", "Porto", asked="flight", to_airport="OPO")).to_name == "OPO"


def test_a_flight_between_named_airports_is_timed_and_priced_as_the_planners_estimated_flights() -> None:
    from engine.tools.estimated_flights import budget_fare_usd, flight_minutes
    leg = plan_leg(query("Lisbon", "Porto", asked="flight", from_airport="LIS", to_airport="OPO", travellers=2))
    assert (leg.from_name, leg.to_name) == ("LIS", "OPO")
    assert abs(leg.from_geo.lat - 38.77) < 0.01 and abs(leg.to_geo.lat - 41.24) < 0.01  # the airports themselves
    assert (leg.arrival - leg.departure).total_seconds() == flight_minutes(leg.distance_km) * 60
    assert abs(leg.fare_usd_cents - round(budget_fare_usd(leg.distance_km) * 100) * 2) <= 2  # km shown to 0.1
    # door to door: both airport transfers, 1 h 30 before the flight and 15 min out of it
    pick, why = choose(query("Lisbon", "Porto", from_airport="LIS", to_airport="OPO"))
    assert pick.mode == "train" and "by flight" in why
