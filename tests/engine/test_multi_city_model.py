"""The multi-city contract (issue 33 §1) and the distance estimate of a leg (§2)."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from pydantic import TypeAdapter, ValidationError

from engine.legs import LegQuery, plan_leg
from engine.models import AnyIntent, BookedLeg, Geo, MultiCityIntent

LISBON = Geo(lat=38.7223, lon=-9.1393)  # Praça do Comércio area (Wikipedia, Lisbon)
PORTO = Geo(lat=41.1579, lon=-8.6291)  # Avenida dos Aliados area (Wikipedia, Porto)
TOKYO = Geo(lat=35.6812, lon=139.7671)  # Tokyo Station


def _intent(**kw):
    base = dict(mode="multi_city", start_date="2027-05-10", origin_airport="JFK", budget_usd_cents=600_000,
                stays=[{"city": "Lisbon", "nights": 3}, {"city": "Porto", "nights": 2}])
    base.update(kw)
    return TypeAdapter(AnyIntent).validate_python(base)


def test_stays_make_the_days_and_each_stay_starts_where_the_last_ends():
    intent = _intent()
    assert isinstance(intent, MultiCityIntent)
    assert (intent.nights, intent.days, intent.end_date) == (5, 6, date(2027, 5, 15))
    assert intent.stay_first_day(1) == date(2027, 5, 13)
    assert [leg.mode for leg in intent.leg_requests()] == ["best"]
    assert len(_intent(return_from="first").leg_requests()) == 2


@pytest.mark.parametrize("change, words", [
    ({"legs": [{"mode": "train"}, {"mode": "bus"}]}, "2 stays need 1 leg"),
    ({"stays": [{"city": "Lisbon", "nights": 15}, {"city": "Porto", "nights": 1}]}, "less than or equal to 14"),
    ({"stays": [{"city": "A", "nights": 14}, {"city": "B", "nights": 14}, {"city": "C", "nights": 2}]},
     "at most 30 days"),
    ({"stays": [{"city": "Lisbon", "nights": 2}]}, "at least 2"),
    ({"stays": [{"city": "Lisbon", "nights": 3, "hotel": {"name": "Hotel Avenida", "checkin": "2027-05-11",
                                                          "checkout": "2027-05-13"}},
                {"city": "Porto", "nights": 2}]}, "booked 2027-05-11"),
])
def test_a_chain_that_cannot_be_is_refused(change, words):
    with pytest.raises(ValidationError) as err:
        _intent(**change)
    assert words in str(err.value)


def _query(to=PORTO, **kw):
    return LegQuery(index=0, from_city="Lisbon", to_city="Porto", from_geo=LISBON, to_geo=to,
                    to_tz="Europe/Lisbon", earliest=datetime(2027, 5, 13, 10, 10, tzinfo=ZoneInfo("Europe/Lisbon")),
                    **kw)


def test_a_short_hop_goes_by_train_and_says_why_and_that_it_is_estimated():
    leg = plan_leg(_query())
    assert (leg.mode, leg.source) == ("train", "estimated")
    assert "by train beats" in leg.why and "by flight" in leg.why
    assert leg.departure == datetime(2027, 5, 13, 10, 30, tzinfo=ZoneInfo("Europe/Lisbon"))
    assert 2.5 <= (leg.arrival - leg.departure).total_seconds() / 3600 <= 3.5


def test_an_ocean_away_only_flies_and_a_booked_ticket_is_a_fact():
    assert plan_leg(_query(to=TOKYO)).mode == "flight"
    lisbon = ZoneInfo("Europe/Lisbon")
    ticket = BookedLeg(mode="train", operator="CP", number="AP 133", from_name="Lisboa Santa Apolónia",
                       to_name="Porto Campanhã", departure=datetime(2027, 5, 13, 11, 39, tzinfo=lisbon),
                       arrival=datetime(2027, 5, 13, 14, 35, tzinfo=lisbon), confirmation="X7Q2", price_usd_cents=3300)
    leg = plan_leg(_query(booked=ticket))
    assert (leg.source, leg.number, leg.fare_usd_cents, leg.arrival) == ("booked", "AP 133", 3300, ticket.arrival)
