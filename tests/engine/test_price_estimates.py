"""Country price levels (World Bank PA.NUS.PPPC.RF, 2023) and the estimates scaled by them."""

from __future__ import annotations

import json

import pytest

from engine.catalog import fixtures_dir
from engine.costs import ALLOWANCE_SHARE
from engine.models import Tier, VenueType
from engine.places import estimates
from engine.places.estimates import (admission, daily_allowance, daily_spend, hotel_night, meal, tier_of_stars,
                                     transit_fares)
from engine.places.price_levels import price_level, price_levels

MUST_COVER = ("GB IE FR BE NL LU DE AT CH PT ES IT MT GR CY AD DK NO SE FI IS EE LV LT US CA MX BR AR CL "
              "PE CO JP KR CN HK SG TH VN ID MY PH IN AU NZ ZA MA EG TR IL AE").split()


def test_the_levels_file_states_its_source_and_loads() -> None:
    doc = json.loads((fixtures_dir() / "places" / "price_levels.json").read_text(encoding="utf-8"))
    assert doc["indicator"] == "PA.NUS.PPPC.RF" and doc["year"] == 2023
    assert doc["source_url"].startswith("https://data.worldbank.org/")
    levels = price_levels()
    assert len(levels) >= 60 and levels["US"] == 1.0
    assert [c for c in MUST_COVER if c not in levels] == []
    # rounded to 0.05, all positive
    assert all(v > 0 and abs(v * 20 - round(v * 20)) < 1e-9 for v in levels.values())


def test_portugal_is_cheaper_than_switzerland() -> None:
    pt, pt_source = price_level("PT")
    ch, _ = price_level("ch")
    assert pt < 1.0 < ch
    assert "PT" in pt_source and "2023" in pt_source


def test_an_unknown_country_gets_the_documented_default_and_says_so() -> None:
    level, note = price_level("TW")  # no World Bank figure for Taiwan
    assert level == 0.4
    assert "median" in note and "no figure for TW" in note
    assert price_level(None)[0] == level and price_level("")[0] == level


def test_estimates_scale_with_the_level() -> None:
    low, high = price_level("PT")[0], price_level("CH")[0]
    pairs = [(hotel_night(Tier.mid, None, low), hotel_night(Tier.mid, None, high)),
             (admission("museum", low), admission("museum", high)),
             (meal("dinner", low), meal("dinner", high)),
             (daily_allowance(low), daily_allowance(high)),
             (transit_fares(low)["metro"], transit_fares(high)["metro"])]
    assert all(0 < cheap < dear for cheap, dear in pairs)
    assert hotel_night(Tier.mid, None, 1.0) == estimates.HOTEL_BY_TIER_USD[Tier.mid]
    assert meal("lunch", 0.55) == round(20 * 0.55, 2)


def test_hotels_by_stars_and_tier() -> None:
    by_tier = [hotel_night(tier, None, 1.0) for tier in (Tier.budget, Tier.mid, Tier.luxury)]
    assert by_tier == sorted(by_tier) and len(set(by_tier)) == 3
    by_stars = [hotel_night(Tier.mid, s, 1.0) for s in range(1, 6)]
    assert by_stars == sorted(by_stars) and len(set(by_stars)) == 5
    assert [tier_of_stars(s) for s in (None, 1, 2, 3, 4, 5)] == [
        Tier.mid, Tier.budget, Tier.budget, Tier.mid, Tier.luxury, Tier.luxury]


def test_admissions_paid_and_free() -> None:
    for paid in ("museum", "gallery", "zoo", "aquarium", "castle", VenueType.museum):
        assert admission(paid, 1.0) > 0
    for free in ("park", "viewpoint", "square", "church", "place_of_worship", "market", "landmark",
                 VenueType.temple, VenueType.park, "something new"):
        assert admission(free, 1.0) == 0.0


def test_meals_cafes_and_the_allowance() -> None:
    assert meal("lunch", 1.0) < meal("dinner", 1.0)
    assert meal("lunch", 1.0, cafe=True) < meal("lunch", 1.0)
    with pytest.raises(ValueError):
        meal("breakfast", 1.0)  # type: ignore[arg-type]
    assert estimates.ALLOWANCE_SHARE_OF_DAILY_SPEND == ALLOWANCE_SHARE
    assert daily_allowance(1.0) == pytest.approx(daily_spend(1.0) * ALLOWANCE_SHARE, abs=0.01)


def test_transit_fares_name_every_fare() -> None:
    fares = transit_fares(0.75)
    assert set(fares) == {"metro", "bus", "taxi_base", "taxi_per_km", "airport_transfer"}
    assert all(v > 0 and round(v, 2) == v for v in fares.values())


def test_a_level_must_be_positive() -> None:
    with pytest.raises(ValueError):
        daily_allowance(0)


def test_every_function_is_deterministic() -> None:
    level = price_level("JP")[0]
    calls = [lambda: hotel_night(Tier.luxury, 4, level), lambda: admission("zoo", level),
             lambda: meal("dinner", level, cafe=True), lambda: daily_allowance(level),
             lambda: transit_fares(level), lambda: price_level("JP"), lambda: tier_of_stars(3)]
    assert [c() for c in calls] == [c() for c in calls]
