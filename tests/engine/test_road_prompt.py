"""parse_road_prompt / looks_like_road_trip: free-text road-trip requests -> values or one error."""

from __future__ import annotations

import re
from datetime import date
from typing import Literal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from engine.errors import InputError
from engine.intake import (MAX_PROMPT_CHARS, RoadPromptResult, looks_like_road_trip,
                           parse_road_prompt)
from engine.intake.vocabulary import THEMES
from engine.models.road_trip import RoadTripIntent, RoadTripPreferences

ROUTES = {
    "Route 66": ["route 66", "us 66", "u.s. route 66", "mother road", "historic route 66"],
    "Pacific Coast Highway": ["pch", "highway 1", "pacific coast highway", "ca-1", "sr 1"],
    "Romantic Road": ["romantic road", "romantische strasse", "romantische straße"],
}
TODAY = date(2027, 1, 10)


def parse(text: str, today: date = TODAY) -> RoadPromptResult:
    return parse_road_prompt(text, routes=ROUTES, today=today)


def d(iso: str) -> date:
    return date.fromisoformat(iso)


def result(origin: str, terminus: str, days: int, start: str, *,
           trip_type: Literal["one_way", "round_trip"] = "one_way",
           route: str | None = None, stops: list[str] | None = None,
           themes: list[str] | None = None, kids: bool = False,
           miles: float | None = None, travellers: int | None = None) -> RoadPromptResult:
    return RoadPromptResult(origin=origin, terminus=terminus, days=days, start_date=d(start),
                            trip_type=trip_type, route=route, stops=stops or [],
                            themes=themes or [], kid_friendly=kids, max_daily_miles=miles,
                            travellers=travellers)


# --------------------------------------------------------------------------- the brief's examples
def test_nickname_origin_named_route_iso_start() -> None:
    assert parse("LA to Chicago via Route 66, 7 days from 2027-05-03") == result(
        "Los Angeles", "Chicago", 7, "2027-05-03", route="Route 66")


def test_drive_the_route_from_to_in_days_starting_month_day_year() -> None:
    r = parse("Drive the Pacific Coast Highway from San Francisco to Los Angeles in 4 days "
              "starting June 3 2027")
    assert r == result("San Francisco", "Los Angeles", 4, "2027-06-03",
                       route="Pacific Coast Highway")


def test_route_first_then_places_and_stops() -> None:
    r = parse("Route 66 road trip Chicago to Santa Monica, 14 days, leaving 2027-05-01, "
              "stopping in Tulsa and Amarillo")
    assert r == result("Chicago", "Santa Monica", 14, "2027-05-01", route="Route 66",
                       stops=["Tulsa", "Amarillo"])


def test_round_trip_without_turnaround_ends_at_the_origin() -> None:
    r = parse("Round trip from Chicago on Route 66, 10 days from 2027-06-01")
    assert r == result("Chicago", "Chicago", 10, "2027-06-01", trip_type="round_trip",
                       route="Route 66")


@pytest.mark.parametrize("text, origin, terminus", [
    ("Romantic Road, 3 days from 2027-05-03", "Würzburg, Bavaria", "Füssen, Bavaria"),
    ("7 days from 2027-05-03 via Route 66", "Chicago, IL", "Santa Monica, CA"),
    ("Route 66 to Chicago, 8 days from 2027-05-03", "Santa Monica, CA", "Chicago"),
])
def test_a_named_route_without_ends_runs_between_its_own(text, origin, terminus) -> None:
    r = parse(text)
    assert (r.origin, r.terminus, r.trip_type) == (origin, terminus, "one_way")


def test_round_trip_with_a_named_turnaround() -> None:
    r = parse("Round trip from Chicago to Oklahoma City and back on Route 66, "
              "10 days from 2027-06-01")
    assert r == result("Chicago", "Oklahoma City", 10, "2027-06-01", trip_type="round_trip",
                       route="Route 66")
    r = parse("Chicago to Oklahoma City and back, 6 days from 2027-06-01")
    assert (r.origin, r.terminus, r.trip_type) == ("Chicago", "Oklahoma City", "round_trip")


def test_accented_towns_on_the_romantic_road() -> None:
    assert parse("Würzburg to Füssen on the Romantic Road, 3 days from 2027-09-10") == result(
        "Würzburg", "Füssen", 3, "2027-09-10", route="Romantic Road")


def test_same_origin_and_terminus_one_way_is_parsed_and_left_to_the_model() -> None:
    r = parse("Springfield to Springfield, one week from May 3 2027")
    assert r == result("Springfield", "Springfield", 7, "2027-05-03")
    with pytest.raises(ValidationError, match="one-way trip must end somewhere other"):
        RoadTripIntent(origin=r.origin, terminus=r.terminus, days=r.days,
                       start_date=r.start_date, trip_type=r.trip_type)


def test_from_to_bare_iso_date_and_daily_limit() -> None:
    r = parse("from Denver to Chicago, 5 days, 2027-07-01, max 350 miles a day")
    assert r == result("Denver", "Chicago", 5, "2027-07-01", miles=350.0)


def test_kids_and_themes() -> None:
    r = parse("Kingman, AZ to Flagstaff, AZ, 2 days from 3 May 2027, with kids, museums, "
              "diners and scenic views")
    assert r == result("Kingman, AZ", "Flagstaff, AZ", 2, "2027-05-03", themes=["art", "views"],
                       kids=True, travellers=3)  # the writer and (at least) two children


def test_a_parsed_result_makes_a_valid_intent() -> None:
    r = parse("Route 66 road trip Chicago to Santa Monica, 14 days, leaving 2027-05-01, "
              "stopping in Tulsa and Amarillo, max 300 miles a day, history, with kids")
    intent = RoadTripIntent(
        origin=r.origin, terminus=r.terminus, days=r.days, start_date=r.start_date,
        trip_type=r.trip_type, route=r.route, stops=r.stops,
        max_daily_miles=r.max_daily_miles or 400.0,
        prefs=RoadTripPreferences(themes=r.themes, kid_friendly=r.kid_friendly))
    assert (intent.origin, intent.terminus, intent.stops) == ("Chicago", "Santa Monica",
                                                              ["Tulsa", "Amarillo"])
    assert intent.max_daily_miles == 300.0
    assert intent.prefs == RoadTripPreferences(themes=["history"], kid_friendly=True)


# --------------------------------------------------------------------------- more variants
# (text, origin, terminus, days, start, trip_type, route, stops)
VARIANTS = [
    ("SF to Vegas, 3 days from 2027-04-02",
     "San Francisco", "Las Vegas", 3, "2027-04-02", "one_way", None, []),
    ("NYC to Philly, a weekend drive of 2 days starting 2027-04-10",
     "New York", "Philadelphia", 2, "2027-04-10", "one_way", None, []),
    ("L.A. to NOLA, 10-day road trip from 2027-03-01",
     "Los Angeles", "New Orleans", 10, "2027-03-01", "one_way", None, []),
    ("Chicago to LA via Tulsa, two weeks from May 3",
     "Chicago", "Los Angeles", 14, "2027-05-03", "one_way", None, ["Tulsa"]),
    ("Denver via Omaha and Des Moines to Chicago, 5 nights from 2027-06-01",
     "Denver", "Chicago", 6, "2027-06-01", "one_way", None, ["Omaha", "Des Moines"]),
    ("Heading to Denver from Chicago, 10-day trip, 2027-06-01",
     "Chicago", "Denver", 10, "2027-06-01", "one_way", None, []),
    ("la to chicago via route 66, a week from june 3",
     "Los Angeles", "chicago", 7, "2027-06-03", "one_way", "Route 66", []),
    ("Landsberg am Lech to Rothenburg ob der Tauber, 2 days from 2027-09-10",
     "Landsberg am Lech", "Rothenburg ob der Tauber", 2, "2027-09-10", "one_way", None, []),
    ("Sault Ste. Marie to St. Louis, a fortnight from 2027-06-01",
     "Sault Ste. Marie", "St. Louis", 14, "2027-06-01", "one_way", None, []),
    ("Round trip from Denver, turning around in Moab, 6 days from 2027-04-02",
     "Denver", "Moab", 6, "2027-04-02", "round_trip", None, []),
    ("from Chicago, 5 days, returning to Chicago, June 1",
     "Chicago", "Chicago", 5, "2027-06-01", "round_trip", None, []),
    ("Loop from Flagstaff through Sedona and Page, 4 days from 2027-10-01",
     "Flagstaff", "Flagstaff", 4, "2027-10-01", "round_trip", None, ["Sedona", "Page"]),
    ("Take the mother road from Chicago to Santa Monica, June 3-16 2027",
     "Chicago", "Santa Monica", 14, "2027-06-03", "one_way", "Route 66", []),
    ("Drive PCH San Francisco → San Diego 2027-07-01 to 2027-07-05",
     "San Francisco", "San Diego", 5, "2027-07-01", "one_way", "Pacific Coast Highway", []),
    ("On the Romantische Straße from Würzburg to Füssen, 4 days from 10 September 2027, "
     "stops in Dinkelsbühl, Nördlingen and Augsburg",
     "Würzburg", "Füssen", 4, "2027-09-10", "one_way", "Romantic Road",
     ["Dinkelsbühl", "Nördlingen", "Augsburg"]),
    ("Starting in Santa Fe, ending in Gallup, 3 days, Aug 5 2027, via Albuquerque",
     "Santa Fe", "Gallup", 3, "2027-08-05", "one_way", None, ["Albuquerque"]),
    ("Drive to Chicago from St. Louis in twenty-one days starting 2027-05-01 along historic "
     "route 66", "St. Louis", "Chicago", 21, "2027-05-01", "one_way", "Route 66", []),
    ("One-way drive Kansas City, Missouri to Tulsa, OK, 2 days from 2027-03-03",
     "Kansas City, Missouri", "Tulsa, OK", 2, "2027-03-03", "one_way", None, []),
    ("Coeur d'Alene to Winston-Salem, 3 weeks from March 1st 2027, passing through O'Fallon",
     "Coeur d'Alene", "Winston-Salem", 21, "2027-03-01", "one_way", None, ["O'Fallon"]),
    ("Frankfurt am Main to Garmisch-Partenkirchen, 1 day from 2027-08-08",
     "Frankfurt am Main", "Garmisch-Partenkirchen", 1, "2027-08-08", "one_way", None, []),
    ("Road trip from the Grand Canyon to Palm Springs, 3 days from 2027-02-14",
     "Grand Canyon", "Palm Springs", 3, "2027-02-14", "one_way", None, []),
    ("Monterey to Big Sur on Highway 1, 2 days from Feb 20",
     "Monterey", "Big Sur", 2, "2027-02-20", "one_way", "Pacific Coast Highway", []),
    ("Miles City to Park City, 30 days from 2027-05-01",
     "Miles City", "Park City", 30, "2027-05-01", "one_way", None, []),
    ("Chicago – Joplin, 2 days from 2027-05-01, via US-66",
     "Chicago", "Joplin", 2, "2027-05-01", "one_way", "Route 66", []),
    ("Road trip: Aix-en-Provence to Saint-Étienne, three days, 2027-05-01",
     "Aix-en-Provence", "Saint-Étienne", 3, "2027-05-01", "one_way", None, []),
    ("Out of Barstow, round-trip, 2 days from 2027-11-11, see Needles",
     "Barstow", "Barstow", 2, "2027-11-11", "round_trip", None, ["Needles"]),
    ("Road trip Chicago → Memphis → New Orleans, 5 days from 2027-04-01",
     "Chicago", "New Orleans", 5, "2027-04-01", "one_way", None, ["Memphis"]),
    ("I want to drive from Austin to Nashville in 5 days starting July 4 2027",
     "Austin", "Nashville", 5, "2027-07-04", "one_way", None, []),
    ("Austin, Texas to Santa Fe, New Mexico, 4 days from 2027-04-01",
     "Austin, Texas", "Santa Fe, New Mexico", 4, "2027-04-01", "one_way", None, []),
    ("Washington, D.C. to Boston, 4 days from 2027-05-01",
     "Washington, D.C.", "Boston", 4, "2027-05-01", "one_way", None, []),
]


@pytest.mark.parametrize(("text", "origin", "terminus", "days", "start", "trip_type", "route",
                          "stops"), VARIANTS)
def test_variants(text: str, origin: str, terminus: str, days: int, start: str, trip_type: str,
                  route: str | None, stops: list[str]) -> None:
    r = parse(text)
    assert (r.origin, r.terminus, r.days, r.start_date) == (origin, terminus, days, d(start))
    assert (r.trip_type, r.route, r.stops) == (trip_type, route, stops)


@pytest.mark.parametrize(("phrase", "days"), [
    ("7 days", 7), ("a week", 7), ("one week", 7), ("two weeks", 14), ("2 weeks", 14),
    ("10-day", 10), ("ten-day", 10), ("5 nights", 6), ("a fortnight", 14), ("1 day", 1),
    ("twenty days", 20), ("thirty days", 30), ("a long weekend", 4), ("twenty-nine days", 29),
])
def test_trip_length_phrases(phrase: str, days: int) -> None:
    assert parse(f"Denver to Chicago, {phrase} from 2027-07-01").days == days


@pytest.mark.parametrize(("when", "start"), [
    ("2027-05-03", "2027-05-03"), ("2027/05/03", "2027-05-03"), ("May 3 2027", "2027-05-03"),
    ("May 3, 2027", "2027-05-03"), ("3 May 2027", "2027-05-03"), ("3rd of May", "2027-05-03"),
    ("Jan 5", "2028-01-05"), ("January 10", "2027-01-10"), ("Sept 9", "2027-09-09"),
])
def test_start_dates_like_the_city_parser(when: str, start: str) -> None:
    # Without a year: the next occurrence on or after today (2027-01-10).
    assert parse(f"Denver to Chicago, 5 days from {when}").start_date == d(start)


def test_missing_year_rolls_over_from_today() -> None:
    assert parse("Denver to Chicago, 5 days from June 15",
                 today=date(2027, 7, 1)).start_date == d("2028-06-15")


def test_an_explicit_end_date_fixes_the_length() -> None:
    r = parse("Denver to Chicago, a week, 2027-06-01 to 2027-06-05")
    assert (r.start_date, r.days) == (d("2027-06-01"), 5)


@pytest.mark.parametrize(("phrase", "miles"), [
    ("max 350 miles a day", 350.0), ("350 miles per day", 350.0),
    ("no more than 300 mi/day", 300.0),
    ("up to 1,000 miles daily", 1000.0), ("at most 250.5 miles each day", 250.5),
    ("500 km a day", 310.7), ("daily driving limit of 200 miles", 200.0), ("", None),
])
def test_daily_driving_limit(phrase: str, miles: float | None) -> None:
    r = parse(f"Denver to Chicago, 5 days from 2027-07-01, {phrase}")
    assert r.max_daily_miles == miles
    assert r.days == 5  # "a day" is not read as a trip length


@pytest.mark.parametrize(("text", "themes", "kids"), [
    ("history and food, with kids", ["history", "food"], True),
    ("scenic views and national parks, no museums", ["views", "outdoor"], False),
    ("family trip, diners", ["family"], True),
    ("adults only", [], False),
    # Route and place names are no preferences: "historic Route 66", "Palm Springs", "Park City".
    ("", [], False),
])
def test_preferences(text: str, themes: list[str], kids: bool) -> None:
    r = parse(f"Palm Springs to Park City along historic Route 66, 5 days from 2027-07-01, {text}")
    assert (r.themes, r.kid_friendly) == (themes, kids)
    assert set(r.themes) <= set(THEMES)


def test_stops_are_deduplicated_in_order() -> None:
    r = parse("Chicago to Santa Monica via Tulsa, Amarillo and Kingman, AZ, 14 days from "
              "2027-05-01, stopping in Tulsa")
    assert r.stops == ["Tulsa", "Amarillo", "Kingman, AZ"]


def test_markup_and_control_characters_are_plain_text() -> None:
    r = parse("<b>LA to Chicago</b>\x00\x1b via\u200bRoute 66,\n７ days "
              "from ２０２７-０５-０３ "
              "<script>alert(1)</script>")
    assert (r.origin, r.terminus, r.days, r.start_date) == ("Los Angeles", "Chicago", 7,
                                                            d("2027-05-03"))
    with pytest.raises(InputError) as caught:  # a name is never read out of markup
        parse("<b>Denver</b> to <i>Chicago</i>, 5 days from 2027-06-01")
    assert caught.value.field == "origin"


def test_prompt_of_exactly_the_maximum_length_is_accepted() -> None:
    text = "Denver to Chicago, 5 days from 2027-07-01 "
    assert parse(text.ljust(MAX_PROMPT_CHARS, ".")).origin == "Denver"


# --------------------------------------------------------------------------- errors
@pytest.mark.parametrize(("text", "field", "hint"), [
    ("", "prompt", "empty"),
    (" \n\t\u200b ", "prompt", "empty"),
    ("Denver to Chicago " * 120, "prompt", "2000"),
    ("7 days from 2027-05-03 on Route 67", "origin", "say where you start"),
    ("to Chicago, 7 days from 2027-05-03", "origin", "'Los Angeles to Chicago'"),
    ("from Denver, 7 days from 2027-05-03", "terminus", "say where you end"),
    ("Denver to Chicago from 2027-05-03", "days", "1-30 days"),
    ("Denver to Chicago, 0 days from 2027-05-03", "days", "is 0 days; a road trip lasts 1-30"),
    ("Denver to Chicago, 31 days from 2027-05-03", "days", "31 days"),
    ("Denver to Chicago, five weeks from 2027-05-03", "days", "35 days"),
    ("Denver to Chicago, 2027-05-09 to 2027-05-03", "days", "before start"),
    ("Denver to Chicago, 5 days", "start_date", "no start date"),
    ("Denver to Chicago, 5 days", "start_date", "no start date"),
    ("Denver to Chicago, 5 days from 2027-02-30", "start_date", "not a valid calendar date"),
    ("Denver to Chicago, 5 days from June 31", "start_date", "not a valid calendar date"),
    ("LA to Chicago via the Lincoln Highway, 7 days from 2027-05-03", "route",
     "unknown route 'Lincoln Highway'; known routes: Pacific Coast Highway, Romantic Road, "
     "Route 66"),
    ("Denver to Chicago via I-80, 3 days from 2027-06-01", "route", "'I-80'"),
    ("Denver to Chicago via US 34, 3 days from 2027-06-01", "route", "'US 34'"),
    ("Drive the Blue Ridge Parkway from Front Royal to Cherokee, 4 days from 2027-10-01",
     "route", "'Blue Ridge Parkway'"),
    ("LA to Chicago on Route 66 and the PCH, 7 days from 2027-05-03", "route",
     "several routes (Route 66, Pacific Coast Highway)"),
    ("Denver to Chicago, 5 days from 2027-07-01, max 0 miles a day", "max_daily_miles",
     "more than 0"),
    ("Denver to Chicago, 5 days from 2027-07-01, 5000 miles a day", "max_daily_miles",
     "at most 1000"),
])
def test_errors_name_the_field(text: str, field: str, hint: str) -> None:
    with pytest.raises(InputError) as caught:
        parse(text)
    assert caught.value.field == field
    assert hint in caught.value.message
    assert "\n" not in str(caught.value)


def test_via_a_town_is_a_stop_not_a_route() -> None:
    r = parse("Oklahoma City to Amarillo via Tulsa, 2 days from 2027-05-01")
    assert (r.route, r.stops) == (None, ["Tulsa"])


def test_an_unknown_route_lists_none_when_no_routes_are_configured() -> None:
    with pytest.raises(InputError, match=r"known routes: \(none configured\)") as caught:
        parse_road_prompt("LA to Chicago via Route 66, 7 days from 2027-05-03", routes={},
                          today=TODAY)
    assert caught.value.field == "route"


def test_an_earlier_field_is_reported_first() -> None:
    with pytest.raises(InputError) as caught:
        parse("via the Lincoln Highway, 99 days")
    assert caught.value.field == "origin"


# --------------------------------------------------------------------------- classifier
ROAD_PROMPTS = [
    "LA to Chicago via Route 66, 7 days from 2027-05-03",
    "Drive the Pacific Coast Highway from San Francisco to Los Angeles in 4 days",
    "Route 66 road trip Chicago to Santa Monica, 14 days",
    "Round trip from Chicago on Route 66, 10 days from 2027-06-01",
    "Würzburg to Füssen on the Romantic Road, 3 days from 2027-09-10",
    "Springfield to Springfield, one week from May 3 2027",
    "from Denver to Chicago, 5 days, 2027-07-01, max 350 miles a day",
    "Denver to Chicago via Omaha, 5 days",
    "Chicago to Oklahoma City and back, 6 days from 2027-06-01",
    "driving from Boston to Portland, 3 days",
    "Heading to Denver from Chicago, 10 days, 2027-06-01",
]
CITY_PROMPTS = [
    "5 days in Paris from 2027-06-15, flying from JFK, budget 4000 USD, art and food, with kids",
    "Rome, June 3-7 2027, from ORD, $3,500, history and food",
    "a week in Tokyo starting 2027-04-01 out of LAX, budget ¥600000",
    "4 nights in New York from 15 June 2027 to 19 June 2027, budget 2500 EUR, no red-eyes",
    "NYC Jun 15 - Jun 19, from Boston, budget of 3.5k",
    "long weekend in roma from 15th of June, departing LHR, £2000",
    "Trip to Rome from Paris: July 1-5, 2027, 2800 EUR",
    "Jun 15 to Jun 18 in ROMA, out of San Francisco, 3000 usd",
    "Rome from Dec 30 to Jan 3 2028, 3000 EUR",
    "5 days in Paris",
    "Tokyo Dec 29 - Jan 2, ¥450,000",
]


@pytest.mark.parametrize("text", ROAD_PROMPTS)
def test_road_prompts_are_recognised(text: str) -> None:
    assert looks_like_road_trip(text)


@pytest.mark.parametrize("text", CITY_PROMPTS)
def test_city_prompts_are_not_road_trips(text: str) -> None:
    assert not looks_like_road_trip(text)


def test_a_configured_route_alias_alone_is_a_road_trip() -> None:
    assert not looks_like_road_trip("Great Ocean Road, 3 days")
    assert looks_like_road_trip("Great Ocean Road, 3 days",
                                routes={"Great Ocean Road": ["b100"]})


@pytest.mark.parametrize("text", ["", "   ", "x" * (MAX_PROMPT_CHARS + 1), "\x00\x1b"])
def test_classifier_never_raises(text: str) -> None:
    assert looks_like_road_trip(text) is False


# --------------------------------------------------------------------------- properties
TOWNS = [
    "Los Angeles", "Chicago", "Santa Monica", "Oklahoma City", "St. Louis", "Kingman, AZ",
    "Flagstaff", "Albuquerque", "Amarillo", "Tulsa", "Joplin", "Barstow", "Needles", "Gallup",
    "Santa Fe", "Tucumcari", "San Luis Obispo", "Big Sur", "Monterey", "Carmel-by-the-Sea",
    "Salt Lake City", "New Orleans", "Miles City", "Palm Springs", "Park City", "Santa Rosa, NM",
    "Paris, Texas", "Springfield, IL", "Sedona", "Lake Havasu City", "Coeur d'Alene",
    "O'Fallon", "Winston-Salem", "Sault Ste. Marie", "Würzburg", "Füssen",
    "Rothenburg ob der Tauber", "Dinkelsbühl", "Nördlingen", "Donauwörth", "Landsberg am Lech",
    "Schwangau", "Bad Mergentheim", "Frankfurt am Main", "Garmisch-Partenkirchen",
    "Saint-Étienne", "Aix-en-Provence", "Besançon", "Ålesund", "Kraków", "Zürich",
    "Füssen, Germany",
]
ALIASES = [(canonical, alias) for canonical, aliases in ROUTES.items()
           for alias in (canonical, *aliases)]
DATE_FORMATS = ["{:%Y-%m-%d}", "{:%B} {.day} {:%Y}", "{.day} {:%B %Y}", "{:%b} {.day}, {:%Y}"]
ONE_WAY = [
    "{o} to {t}{via}, {length} from {date}",
    "Drive from {o} to {t}{on}, {length}, starting {date}",
    "{route}road trip {o} to {t}, leaving {date}, {length}",
    "{length} from {date}: {o} to {t}{via}",
    "From {o} to {t} in {length} starting {date}{on}",
]
ROUND_TRIP_HOME = [  # terminus is the origin
    "Round trip from {o}{on}, {length} from {date}",
    "Loop from {o}, {length} starting {date}{via}",
]
ROUND_TRIP_TURNAROUND = [
    "{o} to {t} and back{via}, {length} from {date}",
    "Round-trip from {o} to {t}, {length}, leaving {date}{on}",
]


def _length_text(draw: st.DrawFn, days: int) -> str:
    options = [f"{days} days", f"{days}-day", f"{days} day" if days == 1 else f"{days} days"]
    if days >= 2:
        options.append(f"{days - 1} nights")
    if days % 7 == 0:
        options.append({7: "a week", 14: "two weeks", 21: "three weeks", 28: "4 weeks"}[days])
    return draw(st.sampled_from(options))


@st.composite
def road_requests(draw: st.DrawFn) -> tuple[str, str, str, int, date, str, str | None]:
    origin = draw(st.sampled_from(TOWNS))
    terminus = draw(st.sampled_from(TOWNS))
    days = draw(st.integers(1, 30))
    start = draw(st.dates(date(2027, 1, 1), date(2027, 12, 31)))
    when = draw(st.sampled_from(DATE_FORMATS)).format(start, start, start)
    route = None
    via = on = route_first = ""
    if draw(st.booleans()):
        route, alias = draw(st.sampled_from(ALIASES))
        alias = draw(st.sampled_from([alias, alias.title(), alias.upper()]))
        via, on, route_first = f" via {alias}", f" on the {alias}", f"{alias} "
    kind = draw(st.sampled_from(["one_way", "round_home", "round_turnaround"]))
    templates = {"one_way": ONE_WAY, "round_home": ROUND_TRIP_HOME,
                 "round_turnaround": ROUND_TRIP_TURNAROUND}[kind]
    text = draw(st.sampled_from(templates)).format(
        o=origin, t=terminus, via=via, on=on, route=route_first, date=when,
        length=_length_text(draw, days))
    if kind == "round_home":
        terminus = origin
    trip_type = "one_way" if kind == "one_way" else "round_trip"
    return text, origin, terminus, days, start, trip_type, route


@settings(max_examples=500, deadline=None)
@given(road_requests())
def test_generated_requests_are_recovered_exactly(
        request: tuple[str, str, str, int, date, str, str | None]) -> None:
    text, origin, terminus, days, start, trip_type, route = request
    r = parse(text, today=date(2026, 12, 1))
    assert (r.origin, r.terminus, r.days, r.start_date) == (origin, terminus, days, start), text
    assert (r.trip_type, r.route, r.stops) == (trip_type, route, []), text
    assert looks_like_road_trip(text), text


# Fragments that steer arbitrary text into the parser's deeper branches.
TOKENS = ["LA", "Chicago", "Santa Monica", "Kingman, AZ", "Würzburg", "to", "from", "via",
          "Route 66", "route", "I-80", "US", "highway", "the", "and back", "round trip",
          "one-way", "loop", "returning to", "turning around in", "stopping in", "through",
          "and", ",", "2027-06-15", "2027-02-30", "9999-12-31", "June", "3-7", "Feb 29", "31",
          "7 days", "0 nights", "999 weeks", "a week", "twenty-one days", "fortnight",
          "max 350 miles a day", "0 km a day", "miles", "kids", "museums", "no", "<b>",
          "</b>", "\x00", "\u200b", "\uff12", "→", "-", ".", "St.", "ob der", "am"]


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=300),
                 st.lists(st.sampled_from(TOKENS), max_size=25).map(" ".join)))
def test_arbitrary_text_raises_nothing_but_input_error(text: str) -> None:
    looks_like_road_trip(text)  # never raises
    try:
        r = parse(text)
    except InputError as err:
        assert err.field in {"prompt", "origin", "terminus", "days", "start_date", "route",
                             "max_daily_miles", "travellers"}
        assert "\n" not in str(err)
    else:
        assert 1 <= r.days <= 30
        assert r.route is None or r.route in ROUTES
        assert r.trip_type in ("one_way", "round_trip")
        for name in (r.origin, r.terminus, *r.stops):
            assert name and name == name.strip()
            assert not re.search(r"[<>{}\x00-\x1f\x7f]", name), name
        assert r.max_daily_miles is None or 0 < r.max_daily_miles <= 1000


# --------------------------------------------------------------------------- a month without a day (issue 32 §6)
@pytest.mark.parametrize(("text", "start", "days", "span"), [
    ("LA to Chicago via Route 66, 7 days in May", "2027-05-03", 7, "Mon 3 \u2013 Sun 9 May 2027"),
    ("Los Angeles to Chicago, two weeks in June 2028", "2028-06-05", 14, "Mon 5 \u2013 Sun 18 June 2028"),
    ("San Francisco to Los Angeles, a long weekend in October", "2027-10-01", 4,
     "Fri 1 \u2013 Mon 4 October 2027"),
])
def test_a_month_without_a_day_starts_its_first_full_week_and_says_so(text, start, days, span) -> None:
    r = parse(text)
    assert (r.start_date, r.days) == (date.fromisoformat(start), days)
    assert len(r.assumed) == 1 and span in r.assumed[0] and r.assumed[0].startswith("no day given in ")
    assert parse("LA to Chicago via Route 66, 7 days from 2027-05-03").assumed == ()
