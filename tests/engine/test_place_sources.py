"""Every source of a place gives one ``Place`` (issue 30 §1): the fixtures' venues, restaurants and
hotels, an OpenStreetMap city pack's rows, a corridor's rows, a booked hotel (city and road), a
named route's curated points of interest; the road trip's gazetteer town is a ``Town``."""

from __future__ import annotations

from datetime import date

from engine.evaluation.packs import load_eval_pack
from engine.models import Geo
from engine.models.bookings import BookedHotel
from engine.models.place import Place
from engine.planning.booked import _lodging
from engine.places.osm_reader import PlaceRow
from engine.roadtrip.plan import Bed, Town
from engine.roadtrip.routes import load_routes


def test_fixture_venues_restaurants_and_hotels_are_places(paris_facts) -> None:
    venues = [v.place() for v in paris_facts.venues.values()]
    beds = [h.place() for h in paris_facts.lodgings.values()]
    assert venues and beds and all(isinstance(p, Place) for p in [*venues, *beds])
    assert {p.kind for p in venues} == {"sight", "food"}  # the dining tool's rows are food
    assert {p.data_source for p in venues} == {"fixture"}
    louvre = next(p for p in venues if "Louvre" in p.name)
    source = paris_facts.venues[louvre.ref]
    assert (louvre.lat, louvre.lon) == (source.location.lat, source.location.lon)
    assert louvre.hours == source.opening_hours and louvre.price == source.est_price_usd_cents / 100
    assert all(p.kind == "bed" and p.price and p.price > 0 for p in beds)


def test_an_unknown_rule_is_no_hours() -> None:
    pack = load_eval_pack("lisbon_pt")
    untagged = [p.place() for p in pack.places if "opening_hours" not in p.tags]
    assert untagged and all(p.hours is None for p in untagged)
    tagged = next(p for p in pack.places if "opening_hours" in p.tags)
    assert tagged.place().hours == tagged.tags["opening_hours"].strip()


def test_city_pack_rows_are_places_with_the_names_they_keep() -> None:
    pack = load_eval_pack("lisbon_pt")
    places = [p.place() for p in pack.places]
    assert {p.kind for p in places} == {"sight", "food", "bed"}
    assert all(p.data_source == "osm" and p.ref.startswith("osm_") and p.source_url.startswith("https://www.openstreetmap.org/")
               for p in places)
    translated = [p for p in places if "name:en" in p.tags]
    assert translated and all(p.names == {"en": p.tags["name:en"]} and p.fame.translations == 1 for p in translated)
    assert [p.rank for p in places] == [p.rank for p in pack.places]


def test_booked_hotels_are_places_of_the_traveller() -> None:
    hotel = BookedHotel(name="Hotel Lutetia", geo=Geo(lat=48.851, lon=2.327), checkin=date(2027, 5, 1),
                        checkout=date(2027, 5, 4), price_usd_cents=90000, paid=True)
    city = _lodging(hotel, 3).place()
    assert (city.kind, city.data_source, city.price) == ("bed", "user", 3000.0 / 10)
    unpriced = _lodging(hotel.model_copy(update={"price_usd_cents": None, "paid": False}), 3).place()
    assert unpriced.price is None  # not stated: no figure made up
    road = Bed(name="Moab Motel", lat=38.57, lon=-109.55, kind="booked", price_usd_cents=0, estimated=False,
               data_source="user", paid=True).place()
    assert (road.kind, road.data_source, road.category, road.price_estimated) == ("bed", "user", "booked", False)


def test_corridor_rows_and_route_points_of_interest_are_places() -> None:
    row = PlaceRow("way", 77, "sight", "natural", "waterfall", "McWay Falls", 36.158, -121.672,
                   '{"natural":"waterfall","wikidata":"Q6800914"}', 4.0, road=True)
    place = row.place()
    assert (place.ref, place.venue_type, place.indoor, place.rank, place.fame.wikidata) == (
        "osm_w77", "landmark", False, 4.0, "Q6800914")
    pois = [poi.place() for route in load_routes().values() for poi in route.pois]
    assert pois and all(p.data_source == "fixture" and p.kind in ("sight", "food") for p in pois)


def test_the_road_trips_town_is_a_town_not_a_place() -> None:
    town = Town(name="Kanab", lat=37.0475, lon=-112.5263, admin1="UT", country="US")
    assert town.label == "Kanab, UT" and not isinstance(town, Place)
