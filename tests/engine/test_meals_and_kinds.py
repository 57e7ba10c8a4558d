"""Things for what they are (issue 31 §3, issue 32 §3): cafés, coffee stands, bakeries and pastry
shops are never a planned lunch or dinner; a diner with no published hours is never a dinner;
cuisines vary across a trip; open-air shrines are outdoor.

The plans are made by the real planner from the Kyoto and Barcelona data sets (tests/data/osm/,
real places) served by the Overpass stand-in on 127.0.0.1 — bench/plan_quality.py's path."""

from __future__ import annotations

from collections import Counter
from datetime import date

import pytest

from bench import plan_quality as bench
from engine.evaluation import quality as q
from engine.planning import day_builder
from engine.places.osm_tags import meal_use, meal_use_of_label, read_tags
from engine.places.pack_city import BREAKFAST_HOURS, _restaurant
from engine.models.place import Place


def _food(name: str, category: str, hours: str | None = None, **tags: str) -> Place:
    return Place(ref="osm_node_1", kind="food", key="amenity", category=category, name=name, lat=35.0, lon=135.7,
                 hours=hours, tags={"name": name, **tags}, data_source="osm")


@pytest.mark.parametrize("category, tags, use", [
    ("cafe", {"cuisine": "coffee_shop"}, "snack"),
    ("cafe", {"cuisine": "italian"}, "snack"),           # a café whatever it serves
    ("cafe", {}, "snack"),
    ("restaurant", {"cuisine": "bakery;cake"}, "snack"),  # every cuisine a snack: a bakery
    ("restaurant", {"cuisine": "american;diner"}, "breakfast"),
    ("restaurant", {"cuisine": "breakfast"}, "breakfast"),
    ("restaurant", {"cuisine": "ramen"}, "meal"),
    ("restaurant", {}, "meal"),
    ("food_court", {}, "meal"),
])
def test_what_a_place_to_eat_is_for_is_read_from_its_tags(category, tags, use):
    assert meal_use(category, tags) == use


def test_a_cafe_s_label_says_cafe_and_a_diner_without_hours_opens_mornings_only():
    cafe = _restaurant(_food("Cafè Petit", "cafe", cuisine="italian"), "ES", 0.6, date(2026, 11, 26))
    assert cafe.cuisine == "italian café" and meal_use_of_label(cafe.cuisine) == "snack"
    assert cafe.meals == ("lunch",) and cafe.price == pytest.approx(20 * 0.6 * 0.6, abs=0.01)
    diner = _restaurant(_food("Lou's", "restaurant", cuisine="american;diner"), "US", 1.0, date(2026, 11, 26))
    assert diner.cuisine == "american breakfast" and not diner.hours_known
    assert diner.opening_hours == BREAKFAST_HOURS and "breakfast" in (diner.note or "")
    with_hours = _restaurant(_food("Lou's", "restaurant", "Mo-Su 06:00-15:00", cuisine="diner"),
                             "US", 1.0, date(2026, 11, 26))
    assert with_hours.opening_hours == "Mo-Su 06:00-15:00" and with_hours.hours_known  # its own hours win
    ramen = _restaurant(_food("一蘭", "restaurant", cuisine="ramen"), "JP", 0.65, date(2026, 11, 26))
    assert ramen.cuisine == "ramen" and ramen.meals == ("lunch", "dinner")


@pytest.mark.parametrize("tags, indoor", [
    ({"religion": "shinto"}, False),                        # a shrine's grounds are walked in the open
    ({"religion": "buddhist"}, False),                      # a temple compound
    ({"building": "shrine"}, False),
    ({"religion": "christian", "building": "cathedral"}, True),
    ({"building": "mosque"}, True),
    ({"indoor": "yes", "religion": "shinto"}, True),        # an explicit indoor tag wins
    ({}, None),                                             # nothing says: unknown
])
def test_a_place_of_worship_is_indoor_only_when_its_tags_say_a_hall(tags, indoor):
    reading = read_tags({"name": "X", "amenity": "place_of_worship", "wikidata": "Q1", **tags})
    assert reading is not None and reading.indoor is indoor
    road = read_tags({"name": "X", "amenity": "place_of_worship", "wikidata": "Q1", **tags}, road=True)
    assert road is not None and road.indoor is indoor


# --- through the real planner ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def plans(tmp_path_factory):
    out = {}
    for kind, row in bench.rows(["kyoto", "barcelona", "mexico_city"]):
        home = tmp_path_factory.mktemp(row["slug"])
        with bench.served(bench.load_elements(row), str(home)):
            out[row["slug"]] = (row, bench.plan(kind, row))
    return out


def test_no_lunch_or_dinner_is_planned_at_a_cafe_a_coffee_stand_or_a_pastry_shop(plans):
    for slug, (row, itinerary) in plans.items():
        data = q.PlaceData(bench.load_elements(row))
        meals = q.main_meals(itinerary.days, data)
        assert meals, slug
        elsewhere = [f"{m.date} {m.at} {m.name} ({m.amenity})" for m in meals if not m.at_restaurant]
        assert not elsewhere, f"{slug}: {elsewhere}"


def _cuisines_eaten(row: dict, itinerary) -> Counter:
    by_name = {e["tags"]["name"]: e["tags"].get("cuisine", "") for e in bench.load_elements(row)
               if e["tags"].get("amenity") in ("restaurant", "cafe", "food_court")}
    return Counter(by_name[a.local_name or a.name] for d in itinerary.days for a in d.activities
                   if a.kind.value == "meal" and by_name.get(a.local_name or a.name))  # the local name: OSM's ``name``


def test_the_trip_s_meals_vary_their_cuisine(plans, tmp_path, monkeypatch):
    """The same Mexico City trip planned with the variety weight taken away eats fewer cuisines,
    and repeats one more often, than the real plan (Kyoto's tables vary by themselves since each
    full day keeps its lunch)."""
    row, itinerary = plans["mexico_city"]
    varied = _cuisines_eaten(row, itinerary)
    monkeypatch.setattr(day_builder, "REPEAT_CUISINE_MINUTES", 0)
    with bench.served(bench.load_elements(row), str(tmp_path)):
        nearest = _cuisines_eaten(row, bench.plan("city", row))
    assert sum(varied.values()) == sum(nearest.values())  # the same number of meals, …
    assert len(varied) > len(nearest), (varied, nearest)  # … more cuisines
    assert max(varied.values()) <= max(nearest.values())


def test_kyoto_s_shrines_and_temples_read_outdoor_and_barcelona_s_cathedral_indoor():
    """The real data sets through the real reader: every Shinto shrine of Kyoto is outdoor."""
    kyoto = dict(bench.rows(["kyoto"]))["city"]
    worship = [e["tags"] for e in bench.load_elements(kyoto) if e["tags"].get("amenity") == "place_of_worship"]
    shinto = [t for t in worship if t.get("religion") == "shinto"]
    assert shinto
    for tags in shinto:
        reading = read_tags(tags)
        assert reading is not None and reading.indoor is False, tags["name"]


# --- admissions by kind and country (issue 31 §3) ---------------------------------------------------

RATES = {"JPY": 0.0067, "EUR": 1.08, "GBP": 1.27}


def _sight(category: str, fee: str | None = None, **tags: str) -> Place:
    return Place(ref="osm_way_1", kind="sight", key="amenity", category=category, name=tags.pop("name", "X"),
                 lat=35.0, lon=135.7, price=0.0 if fee == "no" else None,
                 tags={**({"fee": fee} if fee else {}), **tags}, data_source="osm")


@pytest.mark.parametrize("place, country, usd", [
    (_sight("place_of_worship", "yes", religion="buddhist"), "JP", 500 * 0.0067),   # ¥500, not a museum's $14.30
    (_sight("place_of_worship", "yes", religion="christian", building="cathedral"), "ES", 11 * 1.08),
    (_sight("museum", name="Museu Nacional d'Art"), "ES", 12 * 1.08),                # paid by its kind
    (_sight("museum", name="Museu Nacional do Azulejo"), "PT", 8 * 1.08),
    (_sight("museum", name="京都国立博物館"), "JP", 1000 * 0.0067),
    (_sight("place_of_worship", "yes", religion="shinto"), "JP", 15 * 0.65),         # no level: a worship fee
    (_sight("place_of_worship", "yes", religion="buddhist"), "TH", 15 * 0.3),        # no level for Thailand
    (_sight("aquarium"), "JP", 40 * 0.65),                                            # no level for the kind
])
def test_an_admission_is_the_country_s_published_level_for_the_kind(place, country, usd):
    from engine.places.pack_city import _admission
    from engine.places.price_levels import price_level
    price, estimated = _admission(place, price_level(country)[0], RATES, country)
    assert price == pytest.approx(usd, abs=0.01) and estimated


def test_free_and_tagged_admissions_are_not_estimated():
    from engine.places.pack_city import _admission
    assert _admission(_sight("place_of_worship", religion="buddhist"), 0.65, RATES, "JP") == (0.0, True)  # no fee tag
    assert _admission(_sight("museum", "no"), 0.65, RATES, "JP") == (0.0, False)
    assert _admission(_sight("place_of_worship", "yes", religion="buddhist", charge="600 JPY"), 0.65, RATES,
                      "JP") == (round(600 * 0.0067, 2), False)


def test_kyoto_s_silver_pavilion_is_priced_at_the_temple_level_in_the_plan(plans):
    """銀閣寺 is tagged fee=yes with no amount, 金閣寺 ``charge=500 JPY``: through the real planner
    both cost ¥500 at the plan's own yen rate, the first said to be estimated."""
    row, itinerary = plans["kyoto"]
    visits = {a.local_name or a.name: a for d in itinerary.days for a in d.activities
              if (a.local_name or a.name) in ("銀閣寺", "金閣寺")}
    silver, gold = visits["銀閣寺"], visits["金閣寺"]
    assert 0 < silver.cost_usd_cents == gold.cost_usd_cents < 1000  # ¥500 is a few dollars, not $14.30
    assert "(estimated)" in silver.notes and "(estimated)" not in gold.notes
