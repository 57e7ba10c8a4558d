"""Multi-city prompts (issue 33 §4): stays, nights, a mode per leg, open jaw — and one-city prompts unchanged."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import InputError
from engine.intake import parse_city_prompt, parse_multi_city_prompt
from engine.intake.multi_city_prompt import MultiCityPromptResult

from .test_city_prompt import AIRPORTS, CITIES, TODAY


def read(text: str) -> MultiCityPromptResult | None:
    return parse_multi_city_prompt(text, cities=CITIES, airports=AIRPORTS, today=TODAY)


def stays(r: MultiCityPromptResult | None) -> list[tuple[str, int]]:
    assert r is not None
    return [(s.city, s.nights) for s in r.stays]


# --------------------------------------------------------------------------- the prompts
def test_city_days_then_city_days_flying_from_jfk() -> None:
    r = read("Lisbon 3 days then Porto 2 days from 2027-05-10, flying from JFK")
    assert stays(r) == [("Lisbon", 3), ("Porto", 2)]
    assert r is not None
    assert (r.start, r.end, r.origin_airport, r.modes, r.return_from) == (
        date(2027, 5, 10), date(2027, 5, 15), "JFK", ("best",), "last")
    assert any("3 nights" in line for line in r.assumed)  # "3 days in Lisbon" read as 3 nights, said so


def test_days_in_city_then_days_in_city_keeps_porto() -> None:
    r = read("3 days in Lisbon then 2 days in Porto from 2027-05-10, flying from JFK, budget 2500 EUR")
    assert stays(r) == [("Lisbon", 3), ("Porto", 2)]
    assert r is not None and (r.budget_amount, r.budget_currency) == (Decimal(2500), "EUR")


def test_nights_in_a_then_m_in_b_by_train() -> None:
    r = read("3 nights in Lisbon, 2 in Porto by train from May 10, budget $3000, art and food")
    assert stays(r) == [("Lisbon", 3), ("Porto", 2)]
    assert r is not None and r.modes == ("train",) and r.themes == ["art", "food"]
    assert r.start == date(2027, 5, 10)


def test_a_and_b_share_the_trip_length() -> None:
    r = read("Lisbon and Porto for a week from 2027-05-10")
    assert stays(r) == [("Lisbon", 3), ("Porto", 3)]  # a week = 7 days = 6 nights, shared
    assert r is not None and any("nights shared" in line for line in r.assumed)


def test_three_cities_listed_by_train() -> None:
    r = read("a week in Rome, Florence and Venice by train from 2027-06-01")
    assert stays(r) == [("Rome", 2), ("Florence", 2), ("Venice", 2)]
    assert r is not None and r.modes == ("train", "train")


def test_via_puts_the_city_between() -> None:
    r = read("Rome to Venice via Florence, 9 nights from 2027-06-01, by train")
    assert stays(r) == [("Rome", 3), ("Florence", 3), ("Venice", 3)]
    assert r is not None and r.modes == ("train", "train")


def test_a_mode_per_leg() -> None:
    r = read("Lisbon 3 nights, then by train to Porto for 2 nights, then fly to Madrid 2 nights, from 2027-05-10, "
             "from JFK")
    assert stays(r) == [("Lisbon", 3), ("Porto", 2), ("Madrid", 2)]
    assert r is not None and r.modes == ("train", "flight") and r.origin_airport == "JFK"


@pytest.mark.parametrize("words,mode", [("by bus", "bus"), ("drive", "drive"), ("by ferry", "ferry"),
                                        ("fly", "flight"), ("take the train", "train")])
def test_each_mode_word(words: str, mode: str) -> None:
    r = read(f"3 nights in Lisbon then {words} to Porto for 2 nights from 2027-05-10")
    assert r is not None and r.modes == (mode,)


def test_fly_into_paris_home_from_london_is_open_jaw() -> None:
    r = read("fly into Paris, home from London, 6 nights from 2027-09-03, out of BOS")
    assert stays(r) == [("Paris", 3), ("London", 3)]
    assert r is not None and r.return_from == "last" and r.origin_airport == "BOS"


def test_back_from_the_first_adds_a_leg_home() -> None:
    r = read("3 nights in Paris then train to London for 3 nights, back from the first, from 2027-09-03 "
             "flying from JFK")
    assert r is not None and r.return_from == "first" and r.modes == ("train", "best")
    assert stays(r) == [("Paris", 3), ("London", 3)] and r.origin_airport == "JFK"


def test_back_to_the_first_city_by_train() -> None:
    r = read("3 nights in Tokyo then fly to Sapporo for 2 nights, then 3 in Kyoto by shinkansen, then back to Tokyo "
             "by train, from 2027-04-01")
    assert stays(r) == [("Tokyo", 3), ("Sapporo", 2), ("Kyoto", 3)]
    assert r is not None and r.return_from == "first" and r.modes == ("flight", "train", "train")


def test_known_aliases_and_places_named_elsewhere() -> None:
    assert stays(read("roma 3 nights then Paris, France 2 nights from 2027-06-01")) == [("Rome", 3), ("Paris", 2)]
    assert stays(read("Paris, Texas 3 nights then Dallas 2 nights from 2027-06-01")) == [
        ("Paris, Texas", 3), ("Dallas", 2)]


def test_days_against_a_dated_window_count_the_flight_home_day() -> None:
    r = read("Lisbon 3 days then Porto 2 days, May 10-14 2027")
    assert stays(r) == [("Lisbon", 3), ("Porto", 1)] and r is not None and r.end == date(2027, 5, 14)


# --------------------------------------------------------------------------- refusals, in the traveller's words
@pytest.mark.parametrize("text,field,words", [
    ("3 nights in Lisbon then Porto from 2027-05-10", "stays", "how many nights in Porto"),
    ("3 nights in Lisbon then 2 in Porto", "date_window", "no travel dates"),
    ("3 nights in Lisbon then 20 nights in Porto from 2027-05-10", "stays", "1-14 nights"),
    ("3 nights in Lisbon then 2 in Porto, 2027-05-10 to 2027-05-20", "stays", "add up to 5 nights"),
    ("3 nights in Lisbon then 2 in Porto from 2027-05-10 flying from Narnia", "origin_airport", "not a known airport"),
])
def test_a_multi_city_prompt_names_its_bad_field(text: str, field: str, words: str) -> None:
    with pytest.raises(InputError) as exc:
        read(text)
    assert exc.value.field == field and words in exc.value.message


# --------------------------------------------------------------------------- one city reads as before
@pytest.mark.parametrize("text", [
    "5 days in Paris from 2027-06-15, flying from JFK, budget 4000 USD, art and food, with kids",
    "3 days in Rome from 2027-06-15, Paris-style cafes",
    "5 days in Paris with a day trip to Versailles from 2027-06-15",
    "a week in Paris from 2027-06-15 flying from JFK to see the Louvre and Versailles",
    "Rome, June 3-7 2027, from ORD, $3,500, history and food",
    "5 days in Paris from 2027-06-15, then fly home",
])
def test_one_city_prompts_are_not_multi_city(text: str) -> None:
    assert read(text) is None
    parse_city_prompt(text, cities=CITIES, airports=AIRPORTS, today=TODAY)  # and still read as one city


def test_no_destination_says_any_city_is_planned() -> None:
    with pytest.raises(InputError) as exc:
        parse_city_prompt("5 days from 2027-06-15, budget $3000", cities=CITIES, airports=AIRPORTS, today=TODAY)
    assert "supported" not in exc.value.message and "any city can be planned" in exc.value.message


def test_names_before_a_stay_with_its_length_are_no_stays() -> None:
    assert read("Shakespeare and Company in Paris for 3 days from 2027-06-15") is None
    assert read("4 days in Barcelona, Venezuela from 2027-05-10, flying from JFK") is None


# --------------------------------------------------------------------------- through the front door
@pytest.fixture(scope="module")
def session():
    from engine.catalog import default_catalog
    from engine.pipeline import PlanningSession
    return PlanningSession(default_catalog(), today=TODAY)


def test_the_front_door_hands_on_a_multi_city_intent(session) -> None:
    from engine.frontend import check_not_past, intent_from_prompt
    from engine.models import MultiCityIntent
    said: list[str] = []
    intent = intent_from_prompt("3 nights in Paris then 2 in Rome by train from 2027-06-01, flying from JFK, "
                                "budget $4000, for 2 people, art", session, None, say=said.append)
    assert isinstance(intent, MultiCityIntent)
    assert [(s.city, s.nights) for s in intent.stays] == [("Paris", 3), ("Rome", 2)]
    assert [leg.mode for leg in intent.leg_requests()] == ["train"]
    assert (intent.start_date, intent.days, intent.origin_airport, intent.budget_usd_cents, intent.travellers) == (
        date(2027, 6, 1), 6, "JFK", 400_000, 2)
    assert intent.prefs.themes == ["art"] and said == []
    check_not_past(intent, TODAY)
    with pytest.raises(InputError, match="before today"):
        check_not_past(intent, date(2027, 6, 2))


def test_the_front_door_keeps_road_trips_and_one_city_trips(session) -> None:
    from engine.frontend import read_prompt
    road = read_prompt("drive from Los Angeles to San Francisco via Big Sur, 5 days from 2027-06-01",
                       session.catalog, today=TODAY)
    assert road.road is not None and road.multi is None
    city = read_prompt("5 days in Paris from 2027-06-15, flying from JFK, budget 4000 USD", session.catalog, today=TODAY)
    assert city.city is not None and city.multi is None
    multi = read_prompt("3 nights in Lisbon then drive to Porto for 2 nights from 2027-05-10, flying from JFK",
                        session.catalog, today=TODAY)
    assert multi.multi is not None and multi.multi.modes == ("drive",)
    said = read_prompt("Road trip from Denver to Moab, 3 nights in Denver then 2 nights in Moab, from 2027-06-01",
                       session.catalog, today=TODAY)
    assert said.road is not None and said.multi is None
    by_train = read_prompt("Rome to Venice via Florence by train, 7 nights from 2027-06-01, from BOS",
                           session.catalog, today=TODAY)
    assert by_train.multi is not None and by_train.road is None
    assert [s.city for s in by_train.multi.stays] == ["Rome", "Florence", "Venice"]
    assert "train" in by_train.multi.modes


def test_the_front_door_refuses_a_bad_stay_in_words(session) -> None:
    from engine.frontend import intent_from_prompt
    with pytest.raises(InputError) as exc:
        intent_from_prompt("3 nights in Lisbon then 14 in Porto then 14 in Faro from 2027-05-10, from JFK",
                           session, None)
    assert exc.value.field == "stays" and "at most 30 days" in exc.value.message


@pytest.mark.parametrize("text", ["Rome\u2013Florence\u2013Venice by train, 9 nights from 2027-06-01",
                                  "Rome - Florence - Venice by train, 9 nights from 2027-06-01"])
def test_cities_joined_by_dashes(text: str) -> None:
    r = read(text)
    assert stays(r) == [("Rome", 3), ("Florence", 3), ("Venice", 3)] and r is not None and r.modes == ("train", "train")


def test_fly_into_and_home_from_keep_their_nights() -> None:
    r = read("fly into Paris, 3 nights, then Eurostar to London 4 nights, fly home from London, from 2027-09-03")
    assert stays(r) == [("Paris", 3), ("London", 4)] and r is not None and r.modes == ("train",)
    assert r.return_from == "last"
    r = read("3 nights in Paris, 3 in London, home from Paris, from 2027-09-03")
    assert stays(r) == [("Paris", 3), ("London", 3)] and r is not None and r.return_from == "first"


def test_a_fixture_city_with_its_own_country_is_the_fixture_city(session) -> None:
    from engine.frontend import read_prompt
    rome = read_prompt("Rome, Italy 3 nights then Florence 2 nights from 2027-06-01", session.catalog, today=TODAY)
    texas = read_prompt("Paris, Texas 3 nights then Dallas 2 nights from 2027-06-01", session.catalog, today=TODAY)
    assert rome.multi is not None and [s.city for s in rome.multi.stays] == ["Rome", "Florence"]
    assert texas.multi is not None and [s.city for s in texas.multi.stays] == ["Paris, Texas", "Dallas"]


def test_a_hotel_tier_per_city(session) -> None:
    from engine.frontend import intent_from_prompt
    r = read("Lisbon 3 nights luxury then Porto 2 nights hostel from 2027-05-10, budget $3000")
    assert r is not None and [(s.city, s.tier) for s in r.stays] == [("Lisbon", "luxury"), ("Porto", "budget")]
    intent = intent_from_prompt("3 nights in Lisbon, then a mid-range hotel in Porto for 2 nights, from 2027-05-10, "
                                "from JFK, budget $3000", session, None)
    assert [s.tier and s.tier.value for s in intent.stays] == [None, "mid"]


# --------------------------------------------------------------------------- any text
WORDS = ["Lisbon", "Porto", "Paris", "roma", "Faro", "London", "then", "and", ",", "via", "\u2192", "3", "two", "14",
         "20", "nights", "days", "a week", "in", "at", "for", "by train", "fly", "by bus", "drive", "fly into",
         "home from", "back from the first", "from 2027-05-10", "May 10-14", "budget $3000", "from JFK", "luxury",
         "hostel", "mid-range", "with kids", "art", "Paris, Texas", "to", "-", "\u2013", "from Narnia"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(WORDS), max_size=24).map(" ".join))
def test_any_mix_reads_as_a_trip_or_none_or_one_field_error(text: str) -> None:
    try:
        r = read(text)
    except InputError as exc:
        assert exc.field in {"stays", "date_window", "origin_airport", "budget", "prompt", "travellers"}
        assert "\n" not in exc.message
        return
    if r is None:
        return
    assert len(r.stays) >= 2 and all(1 <= s.nights <= 14 and s.city for s in r.stays)
    assert r.nights + 1 <= 30
    assert len(r.modes) == len(r.stays) - 1 + (r.return_from == "first")
    assert all(m in {"best", "train", "flight", "bus", "drive", "ferry"} for m in r.modes)
    assert all(a.city != b.city for a, b in zip(r.stays, r.stays[1:]))


def test_an_intent_file_may_hold_a_multi_city_trip(tmp_path) -> None:
    from engine.frontend import read_intent_file
    from engine.models import MultiCityIntent
    path = tmp_path / "trip.json"
    path.write_text('{"mode": "multi_city", "start_date": "2027-05-10", "origin_airport": "JFK", '
                    '"budget_usd_cents": 300000, "stays": [{"city": "Lisbon", "nights": 3}, {"city": "Porto", "nights": 0}]}')
    with pytest.raises(InputError) as exc:
        read_intent_file(str(path))
    assert exc.value.field.startswith("stays") and "greater than or equal to 1" in exc.value.message
    path.write_text(path.read_text().replace('"nights": 0', '"nights": 2'))
    assert isinstance(read_intent_file(str(path)), MultiCityIntent)
