"""The one rule for a shared place name (issue 31 §4): the offline gazetteer and the rule itself."""

from __future__ import annotations

import pytest

from engine.errors import AmbiguousCityError
from engine.geocode import default_gazetteer
from engine.geocode.dominance import DOMINATES_AT, dominant, other_places_note
from engine.geocode.models import GeoCandidate
from engine.places.city_spec import resolve_city


def _place(name: str, country: str, population: int, fid: str, admin1_name: str | None = None) -> GeoCandidate:
    spot = int(fid.split(":")[1])  # each place somewhere else: one place twice would count once
    return GeoCandidate(name=name, country=country, population=population, lat=float(spot), lon=float(spot),
                        confidence=0.5, source="gazetteer", feature_id=fid, admin1_name=admin1_name)


def test_ten_times_the_weight_dominates_and_less_is_a_tie() -> None:
    big, small = _place("A", "ES", 1_000_000, "g:1"), _place("A", "VE", 100_000, "g:2")
    assert dominant([small, big]) is big  # population alone, ten times
    assert dominant([big, _place("A", "VE", 100_001, "g:3")]) is None
    names = {"g:1": 20, "g:2": 4}  # known by 20 names against 4: fame weighs in
    close = _place("A", "VE", 400_000, "g:2")
    assert dominant([big, close]) is None
    assert dominant([big, close], lambda _: names) is big  # 20 M against 1.6 M
    assert DOMINATES_AT == 10.0
    twice = big.model_copy(update={"feature_id": "osm:node:9", "population": 1_000_000})
    assert dominant([big, twice, small]) is big  # the same place from two sources is one place


def test_the_note_names_the_places_in_plain_words() -> None:
    chosen = _place("Barcelona", "ES", 1_600_000, "g:1")
    other = _place("Barcelona", "VE", 800_000, "g:2")
    assert other_places_note(chosen, [other]) == "Barcelona, Spain — say 'Barcelona, Venezuela' for the other"
    oregon = _place("Portland", "US", 650_000, "g:3", "Oregon")
    maine = _place("Portland", "US", 66_000, "g:4", "Maine")
    assert other_places_note(oregon, [maine]) == "Portland, Oregon — say 'Portland, Maine' for the other"


@pytest.fixture(scope="module")
def gazetteer():
    return default_gazetteer()


def test_barcelona_is_spains_and_san_francisco_californias(gazetteer) -> None:
    barcelona = resolve_city("Barcelona", gazetteer)
    assert (barcelona.country, barcelona.note) == ("ES", "Barcelona, Spain — say 'Barcelona, Venezuela' for the other")
    assert resolve_city("Barcelona, Venezuela", gazetteer).country == "VE"
    francisco = resolve_city("San Francisco", gazetteer)
    assert francisco.admin1 == "CA" and francisco.note.startswith("San Francisco, United States — say 'San Francisco, ")


def test_near_ties_are_asked_and_unshared_names_say_nothing(gazetteer) -> None:
    for name in ("Córdoba", "Valencia", "Springfield"):
        with pytest.raises(AmbiguousCityError):
            resolve_city(name, gazetteer)
    assert resolve_city("Lisbon", gazetteer).note == ""
