"""parse_city_prompt: free-text city-trip requests -> structured values or a one-field error."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import InputError
from engine.intake import MAX_PROMPT_CHARS, CityPromptResult, parse_city_prompt
from engine.intake.vocabulary import THEMES

CITIES = {
    "Paris": ["paris", "paris, france"],
    "New York": ["new york", "nyc", "new york city", "manhattan"],
    "Rome": ["rome", "roma"],
    "Tokyo": ["tokyo"],
}
AIRPORTS = {
    "JFK": "New York", "LHR": "London Heathrow", "LGW": "London Gatwick",
    "ORD": "Chicago O'Hare", "LAX": "Los Angeles", "BOS": "Boston Logan", "SFO": "San Francisco",
    "CDG": "Paris", "FCO": "Rome",
}
TODAY = date(2027, 1, 10)


def parse(text: str, today: date = TODAY) -> CityPromptResult:
    return parse_city_prompt(text, cities=CITIES, airports=AIRPORTS, today=today)


def d(iso: str) -> date:
    return date.fromisoformat(iso)


# --------------------------------------------------------------------------- the brief's examples
def test_days_iso_start_origin_code_budget_code_themes_kids() -> None:
    r = parse("5 days in Paris from 2027-06-15, flying from JFK, budget 4000 USD, art and food, "
              "with kids")
    assert r == CityPromptResult(
        city="Paris", start=d("2027-06-15"), end=d("2027-06-19"), origin_airport="JFK",
        budget_amount=Decimal("4000"), budget_currency="USD", themes=["art", "food"],
        kid_friendly=True, avoid_overnight=False, travellers=3)  # the writer and (at least) two children


def test_month_day_range_with_year_and_dollar_thousands() -> None:
    r = parse("Rome, June 3-7 2027, from ORD, $3,500, history and food")
    assert (r.city, r.start, r.end) == ("Rome", d("2027-06-03"), d("2027-06-07"))
    assert (r.origin_airport, r.budget_amount, r.budget_currency) == ("ORD", Decimal(3500), "USD")
    assert r.themes == ["history", "food"]
    assert not r.kid_friendly and not r.avoid_overnight


def test_a_week_starting_out_of_yen_symbol() -> None:
    r = parse("a week in Tokyo starting 2027-04-01 out of LAX, budget ¥600000")
    assert (r.city, r.start, r.end) == ("Tokyo", d("2027-04-01"), d("2027-04-07"))
    assert (r.origin_airport, r.budget_amount, r.budget_currency) == ("LAX", Decimal(600000), "JPY")
    assert r.themes == []


def test_nights_with_explicit_day_month_range_and_no_red_eyes() -> None:
    r = parse("4 nights in New York from 15 June 2027 to 19 June 2027, budget 2500 EUR, "
              "no red-eyes")
    assert (r.city, r.start, r.end) == ("New York", d("2027-06-15"), d("2027-06-19"))
    assert r.origin_airport is None
    assert (r.budget_amount, r.budget_currency) == (Decimal(2500), "EUR")
    assert r.avoid_overnight and r.themes == [] and not r.kid_friendly


# --------------------------------------------------------------------------- more variants
# (text, city, start, end, origin, amount, currency)
VARIANTS = [
    ("NYC Jun 15 - Jun 19, from Boston, budget of 3.5k",
     "New York", "2027-06-15", "2027-06-19", "BOS", "3500", "USD"),
    ("long weekend in roma from 15th of June, departing LHR, £2000",
     "Rome", "2027-06-15", "2027-06-18", "LHR", "2000", "GBP"),
    ("Manhattan 2027-09-01 to 2027-09-06, USD 5,250.50",
     "New York", "2027-09-01", "2027-09-06", None, "5250.50", "USD"),
    ("6-day trip to Tokyo, 3-8 October 2027, 600k JPY",
     "Tokyo", "2027-10-03", "2027-10-08", None, "600000", "JPY"),
    ("paris, france | 2027/05/10 | 5 nights | €2500",
     "Paris", "2027-05-10", "2027-05-15", None, "2500", "EUR"),
    ("Rome for five days starting March 3rd, budget 3000",
     "Rome", "2027-03-03", "2027-03-07", None, "3000", "USD"),
    ("Tokyo Dec 29 - Jan 2, ¥450,000",
     "Tokyo", "2027-12-29", "2028-01-02", None, "450000", "JPY"),
    ("Rome from Dec 30 to Jan 3 2028, 3000 EUR",
     "Rome", "2027-12-30", "2028-01-03", None, "3000", "EUR"),
    ("4000 dollars, 4 days in New York from 2027-08-01, flying out of Chicago O'Hare",
     "New York", "2027-08-01", "2027-08-04", "ORD", "4000", "USD"),
    ("NYC from 2027-05-01, a week, flights from london heathrow, budget: 4500 bucks",
     "New York", "2027-05-01", "2027-05-07", "LHR", "4500", "USD"),
    ("Rome, June 3\u20137, $3500, departing from jfk",
     "Rome", "2027-06-03", "2027-06-07", "JFK", "3500", "USD"),
    ("Paris, 2027-06-15 \u2013 2027-06-20, EUR 3000",
     "Paris", "2027-06-15", "2027-06-20", None, "3000", "EUR"),
    ("a week in Tokyo from 1 April 2027, 5000 EUR",
     "Tokyo", "2027-04-01", "2027-04-07", None, "5000", "EUR"),
    ("Paris June 15, 2027 through June 18, 2027. Budget is around 2,000 euros",
     "Paris", "2027-06-15", "2027-06-18", None, "2000", "EUR"),
    # An origin airport named after a destination alias is the origin, not a second city.
    ("5 days in Paris from 2027-06-15 flying from NYC, $3000",
     "Paris", "2027-06-15", "2027-06-19", "JFK", "3000", "USD"),
    ("Trip to Rome from Paris: July 1-5, 2027, 2800 EUR",
     "Rome", "2027-07-01", "2027-07-05", "CDG", "2800", "EUR"),
    # Among several amounts the one after "budget" is the budget.
    ("Paris 2027-06-15 for 5 days, hotels under $200 a night, budget $4,000",
     "Paris", "2027-06-15", "2027-06-19", None, "4000", "USD"),
    # Full-width digits and currency signs, markup and control characters are plain text.
    ("<b>Paris</b>\x00\x1b ５ days from ２０２７-０６-１５, ＄３０００"
     "<script>x()</script>",
     "Paris", "2027-06-15", "2027-06-19", None, "3000", "USD"),
    ("Paris\n\tfrom 2027-06-15\r\nfor 6 days\u200b budget 1e3 USD 1200",
     "Paris", "2027-06-15", "2027-06-20", None, "1200", "USD"),
    ("Jun 15 to Jun 18 in ROMA, out of San Francisco, 3000 usd",
     "Rome", "2027-06-15", "2027-06-18", "SFO", "3000", "USD"),
    ("6 days in Tokyo from Sept 9 2027, home airport is LAX, 9000 USD",
     "Tokyo", "2027-09-09", "2027-09-14", "LAX", "9000", "USD"),
]


@pytest.mark.parametrize(("text", "city", "start", "end", "origin", "amount", "currency"),
                         VARIANTS)
def test_variants(text: str, city: str, start: str, end: str, origin: str | None, amount: str,
                  currency: str) -> None:
    r = parse(text)
    assert (r.city, r.start, r.end) == (city, d(start), d(end))
    assert r.origin_airport == origin
    assert (r.budget_amount, r.budget_currency) == (Decimal(amount), currency)


def test_amount_keeps_a_plain_integer_form() -> None:
    assert str(parse("Paris 2027-06-15, 5 days, budget of 3.5k").budget_amount) == "3500"


def test_missing_year_means_next_occurrence_on_or_after_today() -> None:
    same_day = parse("Paris June 15 for 5 days, $4000", today=date(2027, 6, 15))
    assert same_day.start == d("2027-06-15")
    r = parse("Paris June 15 for 5 days, $4000", today=date(2027, 7, 1))
    assert (r.start, r.end) == (d("2028-06-15"), d("2028-06-19"))


def test_explicit_dates_win_over_a_loose_length_word() -> None:
    r = parse("a week in Paris, 2027-06-01 to 2027-06-05, $3000")
    assert (r.start, r.end) == (d("2027-06-01"), d("2027-06-05"))


@pytest.mark.parametrize(("text", "themes"), [
    ("museums, galleries and cuisine", ["art", "food"]),
    ("parks, hiking, churches and temples", ["outdoor", "religion"]),
    ("restaurants, eating out, nature", ["food", "outdoor"]),
    ("science, architecture, shopping and nightlife", ["science", "architecture", "shopping",
                                                       "nightlife"]),
    ("views, music, fashion, photography, culture, history", ["views", "music", "fashion",
                                                               "photography", "culture",
                                                               "history"]),
    ("no museums please, food and views", ["food", "views"]),
    ("family fun and skyline", ["family", "views"]),
    ("", []),
])
def test_themes_map_onto_the_vocabulary_in_order(text: str, themes: list[str]) -> None:
    r = parse(f"5 days in Paris from 2027-06-15, $3000, {text}")
    assert r.themes == themes
    assert set(r.themes) <= set(THEMES)


@pytest.mark.parametrize(("text", "kids"), [
    ("with kids", True), ("with the children", True), ("our toddler comes along", True),
    ("family trip", True), ("kid-friendly please", True), ("with my 5-year-old", True),
    ("no kids", False), ("adults only", False), ("just the two of us", False),
])
def test_kid_friendly(text: str, kids: bool) -> None:
    assert parse(f"5 days in Paris from 2027-06-15, $3000, {text}").kid_friendly is kids


@pytest.mark.parametrize(("text", "avoid"), [
    ("no red-eyes", True), ("no red eye", True), ("avoid overnight flights", True),
    ("no overnight", True), ("overnight flights are fine", False), ("", False),
])
def test_avoid_overnight(text: str, avoid: bool) -> None:
    assert parse(f"5 days in Paris from 2027-06-15, $3000, {text}").avoid_overnight is avoid


def test_missing_origin_is_none_not_an_error() -> None:
    assert parse("5 days in Rome from 2027-06-15, $3000").origin_airport is None


def test_prompt_of_exactly_the_maximum_length_is_accepted() -> None:
    text = "5 days in Paris from 2027-06-15, $3000 "
    assert parse(text.ljust(MAX_PROMPT_CHARS, ".")).city == "Paris"


# --------------------------------------------------------------------------- errors
VALID = "5 days in Paris from 2027-06-15, $3000"


@pytest.mark.parametrize(("text", "field", "hint"), [
    ("5 days from 2027-06-15, $3000", "city", "any city can be planned"),
    ("5 days in Berlin from 2027-06-15, $3000", "city", "'Berlin'"),
    ("Paris and Rome, 5 days from 2027-06-15, $3000", "city", "several cities"),
    ("Paris, $3000", "date_window", "2-7 days"),
    ("Paris in June, $3000", "date_window", "found the month (June) but no trip length"),
    ("5 days in Paris, I may bring my camera, $3000", "date_window", "no travel dates"),  # "may", no month
    ("Paris from 2027-06-15, $3000", "date_window", "no end date"),
    ("Paris 2027-06-15 to 2027-06-12, $3000", "date_window", "before start"),
    ("Paris, 2 weeks from 2027-06-15, $3000", "date_window",
     "the trip is 14 days; a city trip lasts 2-7 days"),
    ("Paris, 8 days from 2027-06-15, $3000", "date_window", "2-7 days"),
    ("Paris, 2027-06-15 to 2027-06-25, $3000", "date_window", "11 days"),
    ("Paris, 2027-02-30, 5 days, $3000", "date_window", "not a valid calendar date"),
    ("Paris, June 31, 5 days, $3000", "date_window", "not a valid calendar date"),
    ("Paris, 9999-12-30, 5 days, $3000", "date_window", "too far"),
    ("5 days in Paris from 2027-06-15, budget 0", "budget", "greater than zero"),
    ("5 days in Paris from 2027-06-15, budget -500 EUR", "budget", "greater than zero"),
    ("5 days in Paris from 2027-06-15, -$500", "budget", "greater than zero"),
    (VALID + ", from XYZ", "origin_airport", "'XYZ'"),
    (VALID + ", flying from Berlin", "origin_airport", "'Berlin'"),
    (VALID + ", flying from London", "origin_airport", "LGW, LHR"),
    ("Paris " * 400, "prompt", "2000"),
    (" \n\t ", "prompt", "empty"),
])
def test_errors_name_the_field(text: str, field: str, hint: str) -> None:
    with pytest.raises(InputError) as caught:
        parse(text)
    assert caught.value.field == field
    assert hint in caught.value.message
    assert "\n" not in str(caught.value)


def test_an_earlier_field_is_reported_first() -> None:
    with pytest.raises(InputError) as caught:
        parse("5 days in Atlantis, from XYZ")
    assert caught.value.field == "city"


# --------------------------------------------------------------------------- properties
ALIASES = [(canonical, alias) for canonical, aliases in CITIES.items()
           for alias in (canonical, *aliases)]
MONEY_FORMATS = {
    "USD": ["${n:,}", "${n}", "{n} USD", "USD {n}", "budget {n}", "budget of ${n:,}",
            "{n} dollars"],
    "EUR": ["\u20ac{n}", "\u20ac{n:,}", "{n} EUR", "EUR {n}", "{n:,} euros", "budget {n} eur"],
    "JPY": ["\u00a5{n}", "\u00a5{n:,}", "{n} JPY", "{n:,} yen", "JPY {n}"],
}
DATE_FORMATS = ["{:%Y-%m-%d}", "{:%B} {.day} {:%Y}", "{.day} {:%B %Y}", "{:%b} {.day}, {:%Y}"]
TEMPLATES = [
    "{days} days in {alias} from {start}, {money}",
    "{alias}, {start} to {end}, {money}",
    "{nights} nights in {alias} starting {start}; {money}",
    "Trip to {alias}: {start} - {end}. {money}, museums",
    "{money} for {days} days in {alias}, from {start}, flying from JFK",
]


def _date_text(fmt: str, day: date) -> str:
    return fmt.format(day, day, day)


@st.composite
def trip_requests(draw: st.DrawFn) -> tuple[str, str, date, date, int, str]:
    canonical, alias = draw(st.sampled_from(ALIASES))
    alias = draw(st.sampled_from([alias, alias.title(), alias.upper()]))
    start = draw(st.dates(date(2027, 1, 1), date(2027, 12, 31)))
    days = draw(st.integers(4, 7))
    end = start + timedelta(days=days - 1)
    amount = draw(st.integers(500, 20000))
    currency = draw(st.sampled_from(sorted(MONEY_FORMATS)))
    money = draw(st.sampled_from(MONEY_FORMATS[currency])).format(n=amount)
    fmt = draw(st.sampled_from(DATE_FORMATS))
    text = draw(st.sampled_from(TEMPLATES)).format(
        days=days, nights=days - 1, alias=alias, money=money,
        start=_date_text(fmt, start), end=_date_text(fmt, end))
    return text, canonical, start, end, amount, currency


@settings(max_examples=400, deadline=None)
@given(trip_requests())
def test_generated_requests_are_recovered_exactly(
        request: tuple[str, str, date, date, int, str]) -> None:
    text, city, start, end, amount, currency = request
    r = parse(text, today=date(2026, 12, 1))
    assert (r.city, r.start, r.end) == (city, start, end), text
    assert (r.budget_amount, r.budget_currency) == (Decimal(amount), currency), text


# Fragments that steer arbitrary text into the parser's deeper branches.
TOKENS = ["Paris", "nyc", "Berlin", "from", "flying from", "out of", "JFK", "XYZ", "London",
          "2027-06-15", "2027-02-30", "9999-12-31", "0000-01-01", "June", "Feb 29", "31", "3-7",
          "to", "\u2013", "-", "5 days", "0 nights", "999 weeks", "a week", "long weekend", "$",
          "\u20ac", "\u00a5", "k", "3.5k", "1,000", "-500", "budget", "of", "USD", "yen", "no",
          "kids", "red-eyes", "museums", "<b>", "\x00", "\u200b", "\uff12", ",", "."]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=300),
                 st.lists(st.sampled_from(TOKENS), max_size=25).map(" ".join)))
def test_arbitrary_text_raises_nothing_but_input_error(text: str) -> None:
    try:
        result = parse(text)
    except InputError as err:
        assert err.field in {"prompt", "city", "date_window", "budget", "origin_airport", "travellers"}
        assert "\n" not in str(err)
    else:
        assert result.city in CITIES
        assert 4 <= (result.end - result.start).days + 1 <= 7
        assert result.budget_amount > 0


# --------------------------------------------------------------------------- pace and short stays (issue 31 §2)
@pytest.mark.parametrize(("words", "pace"), [
    ("", "balanced"),
    (", a relaxed trip", "relaxed"),
    (", nothing too rushed, not too packed", "relaxed"),
    (", we want to see as much as possible", "packed"),
    (", a packed itinerary", "packed"),
    (", with a packed lunch each day", "balanced"),
])
def test_the_pace_is_read_from_the_prompt(words: str, pace: str) -> None:
    assert parse(f"5 days in Paris from 2027-06-15, $3000{words}").pace == pace


@pytest.mark.parametrize(("text", "days"), [
    ("a weekend in Paris from 2027-06-11, $1500", 3),
    ("a long weekend in Paris from 2027-06-11, $1500", 4),
    ("Paris, 2 days from 2027-06-15, $900", 2),
    ("Paris, 1 night from 2027-06-15, $900", 2),
])
def test_short_city_stays_are_read(text: str, days: int) -> None:
    got = parse(text)
    assert (got.end - got.start).days + 1 == days


# --------------------------------------------------------------------------- what the text leaves out (issue 32 §6)
def test_a_trip_without_a_budget_plans_with_the_default_and_says_so() -> None:
    from engine.intake.vocabulary import DEFAULT_BUDGET_USD

    r = parse("5 days in Paris from 2027-06-15, flying from JFK")
    assert (r.budget_amount, r.budget_currency) == (Decimal(DEFAULT_BUDGET_USD), "USD") == (Decimal(3000), "USD")
    assert r.assumed == ("no budget given: planned with the default budget of $3,000; "
                         "add e.g. 'budget 2500 USD' to change it",)
    assert parse(VALID).assumed == ()  # a budget given: nothing assumed


@pytest.mark.parametrize(("text", "today", "start", "end", "which"), [
    # The coming May's first full week, Monday to Sunday.
    ("a week in Paris in May", date(2026, 12, 8), "2027-05-03", "2027-05-09", "the first full week of May"),
    ("A week in Paris in May, flying from JFK, $2000", TODAY, "2027-05-03", "2027-05-09", "the first full week of May"),
    # May's first Monday is past: the next May.
    ("a week in Paris in may", date(2027, 5, 4), "2028-05-01", "2028-05-07", "the first full week of May"),
    ("a week in Paris in May", date(2027, 5, 3), "2027-05-03", "2027-05-09", "the first full week of May"),  # today is fine
    ("5 days in Rome during September 2028, $2000", TODAY, "2028-09-04", "2028-09-08", "the first full week of September"),
    ("a weekend in Rome in June, $900", TODAY, "2027-06-04", "2027-06-06", "the first weekend of June"),
    ("a long weekend in Tokyo next March", TODAY, "2027-03-05", "2027-03-08", "the first weekend of March"),
])
def test_a_month_without_a_day_plans_its_first_full_week_and_says_so(text, today, start, end, which) -> None:
    r = parse(text, today=today)
    assert (r.start, r.end) == (d(start), d(end))
    assert r.start.weekday() == (4 if "weekend" in which else 0)
    said = r.assumed[0]
    assert said.startswith(f"no day given in {which.split()[-1]}: planned ") and which in said
    assert f"{r.end.day} {which.split()[-1]} {r.end.year}" in said and "write a start date" in said


def test_a_written_day_beats_the_month() -> None:
    r = parse("5 days in Paris in June from 2027-06-15, $3000")
    assert (r.start, r.end, r.assumed) == (d("2027-06-15"), d("2027-06-19"), ())
