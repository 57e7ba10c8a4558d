"""Meals priced at their restaurant, the party size and rooms (SPEC_DECISIONS §2.9)."""

from __future__ import annotations

import json
from datetime import date

import pytest

from engine.costs import ALLOWANCE_SHARE, plan_cost, rooms_for, venue_cost
from engine.edits import Replace
from engine.errors import InputError
from engine.intake import parse_city_prompt, parse_road_prompt
from engine.models import ChoiceKind, IntentV1, RoadTripIntent, ViolationKind
from engine.planning.branches import enumerate_branches
from engine.planning.builder import PlanBuilder
from engine.verify.budget import verify_budget

from .conftest import TODAY, cached_inputs, paris_demo
from .test_cli import INTENT, TODAY as CLI_TODAY, tw

RICH = 5_000_000  # no meal cap bites: every party gets the same restaurants


def _plans_by_party(*sizes: int, budget: int = RICH, rooms: int | None = None):
    out = {}
    for n in sizes:
        intent = paris_demo(budget_usd_cents=budget, travellers=n, rooms=rooms)
        inputs = cached_inputs(intent)
        branch = next(b for b in enumerate_branches(inputs) if b.label == "CDG/mid")
        out[n] = (PlanBuilder(inputs).build(branch), inputs)
    return out


def _meal_refs(plan) -> list[str]:
    return [s.selected.option_ref for _, _, s in plan.slots() if s.role == "meal"]


def test_per_person_costs_scale_with_travellers_and_lodging_with_rooms() -> None:
    plans = _plans_by_party(1, 2, 3)
    one = plan_cost(plans[1][0], plans[1][1].facts)
    assert one.meals > 0 and one.attractions > 0 and one.transit > 0
    for n in (2, 3):
        plan, inputs = plans[n]
        assert _meal_refs(plan) == _meal_refs(plans[1][0])  # same day, more mouths
        cost = plan_cost(plan, inputs.facts)
        assert (cost.flights, cost.meals, cost.attractions, cost.transit, cost.daily_spend) == (
            n * one.flights, n * one.meals, n * one.attractions, n * one.transit, n * one.daily_spend)
        assert cost.lodging == rooms_for(n) * one.lodging
    assert plan_cost(plans[2][0], plans[2][1].facts).lodging == one.lodging  # two share a room
    assert plan_cost(plans[3][0], plans[3][1].facts).lodging == 2 * one.lodging
    plan, inputs = _plans_by_party(2, rooms=2)[2]
    assert plan_cost(plan, inputs.facts).lodging == 2 * one.lodging


def test_each_meal_is_priced_at_its_restaurant_and_the_allowance_is_smaller() -> None:
    plan, inputs = _plans_by_party(1)[1]
    facts = inputs.facts
    meals = [s.selected for _, _, s in plan.slots() if s.role == "meal"]
    assert meals and all(c.kind is ChoiceKind.meal for c in meals)
    assert [c.features.cost_usd_cents for c in meals] == [facts.venue(c.option_ref).est_price_usd_cents
                                                          for c in meals]
    assert plan.assumptions.daily_spend_est_cents == round(facts.daily_spend_cents * ALLOWANCE_SHARE)
    assert plan_cost(plan, facts).meals == sum(c.features.cost_usd_cents for c in meals)


def test_a_290_dollar_dinner_is_paid_for_and_can_break_the_budget() -> None:
    plan, inputs = _plans_by_party(2, budget=600_000)[2]
    facts = inputs.facts
    jules = facts.venue("le_jules_verne")
    assert jules.est_price_usd_cents > 25_000  # €250 a head
    dinner = next(s for _, _, s in plan.slots() if s.role == "meal" and s.window.start.hour >= 17
                  and s.selected.option_ref != "le_jules_verne")
    before = plan_cost(plan, facts)
    pricey = Replace(dinner.selected.choice_id, venue_id="le_jules_verne")(plan, facts)
    after = plan_cost(pricey, facts)
    assert after.meals - before.meals == venue_cost(jules, 2) - dinner.selected.features.cost_usd_cents
    intent = paris_demo(budget_usd_cents=before.total + 10_000, travellers=2)
    assert not [v for v in verify_budget(plan, intent, facts) if v.blocking]
    [over] = verify_budget(pricey, intent, facts)
    assert over.kind is ViolationKind.budget_exceeded and over.details["total_usd_cents"] == after.total


def test_a_tight_budget_keeps_meals_under_what_it_can_carry() -> None:
    """The nearest table wins on a rich trip, dear or not; a tight one takes the nearest table
    under its per-person cap whenever one fits the hours, and only then the least dear of the rest."""
    rich_plan, rich_inputs = _plans_by_party(1)[1]
    prices = {r.id: r.est_price_usd_cents for r in rich_inputs.restaurants}
    assert max(prices[r] for r in _meal_refs(rich_plan)) > 4_000  # a table the tight trip cannot carry
    intent = paris_demo(budget_usd_cents=220_000)
    inputs = cached_inputs(intent)
    builder = PlanBuilder(inputs)
    for branch in enumerate_branches(inputs):
        cap = builder.meal_cap(branch, builder.assumptions())
        refs = _meal_refs(builder.build(branch))
        assert "le_jules_verne" not in refs and "le_train_bleu" not in refs
        affordable = {r for r, price in prices.items() if price <= cap}
        # Restaurants are not repeated within a trip: the affordable ones go first.
        assert affordable <= set(refs) or all(prices[r] <= cap for r in refs), (branch.label, cap, refs)
    assert builder.meal_cap(branch, builder.assumptions()) < 4_000
    rich = PlanBuilder(rich_inputs)
    assert rich.meal_cap(enumerate_branches(rich_inputs)[0], rich.assumptions()) > max(prices.values())


@pytest.mark.parametrize(("text", "size"), [
    ("5 days in Paris from 2027-06-15, flying from JFK, budget 4000 USD, for 2 people", 2),
    ("Paris for 5 days from 2027-06-15 from JFK, $6000, family of 4", 4),
    ("Paris 2027-06-15 for 5 days, JFK, budget 5000 USD, 2 adults and 3 kids", 5),
    ("Paris 2027-06-15 for 5 days, JFK, budget 5000 USD, with 2 kids", 3),
    ("Paris 2027-06-15 for 5 days, JFK, budget 5000 USD, me and my wife with 2 children", 4),
    ("Paris 2027-06-15 for 5 days, JFK, budget 5000 USD, three of us", 3),
    ("Paris 2027-06-15 for 5 days, JFK, budget 5000 USD, art", None),
])
def test_city_prompt_reads_the_party_size(catalog, text: str, size: int | None) -> None:
    parsed = parse_city_prompt(text, cities=catalog.city_aliases(), airports=catalog.airport_names(),
                               today=TODAY)
    assert parsed.travellers == size
    assert (parsed.end - parsed.start).days == 4  # "for 2 people" is not a trip length
    assert parsed.budget_amount > 100  # nor a budget


def test_road_prompt_reads_the_party_size() -> None:
    parsed = parse_road_prompt("LA to Chicago via Route 66, 7 days from 2027-05-03, family of 4",
                               routes={"Route 66": ["route 66"]}, today=TODAY)
    assert (parsed.travellers, parsed.days, parsed.kid_friendly) == (4, 7, True)  # a family travels with kids
    kids = parse_road_prompt("LA to Chicago via Route 66, 7 days from 2027-05-03, 2 adults with 2 kids",
                             routes={"Route 66": ["route 66"]}, today=TODAY)
    assert (kids.travellers, kids.kid_friendly) == (4, True)
    adults = parse_road_prompt("LA to Chicago via Route 66, 7 days from 2027-05-03, for 3 people",
                               routes={"Route 66": ["route 66"]}, today=TODAY)
    assert (adults.travellers, adults.kid_friendly) == (3, False)
    with pytest.raises(InputError) as err:
        parse_road_prompt("LA to Chicago via Route 66, 7 days from 2027-05-03, 13 people",
                          routes={"Route 66": ["route 66"]}, today=TODAY)
    assert err.value.field == "travellers"


def test_intents_validate_travellers_and_rooms() -> None:
    base = paris_demo().model_dump(mode="json")
    assert IntentV1.model_validate(base).travellers == 1
    for bad in ({"travellers": 0}, {"travellers": 13}, {"travellers": 2, "rooms": 3}):
        with pytest.raises(ValueError):
            IntentV1.model_validate(base | bad)
    road = {"origin": "Los Angeles", "terminus": "Chicago", "days": 7, "start_date": "2027-05-03"}
    assert RoadTripIntent.model_validate(road | {"travellers": 4}).travellers == 4
    assert rooms_for(1) == 1 and rooms_for(4) == 2 and rooms_for(5) == 3 and rooms_for(4, 4) == 4


def test_cli_prompt_and_intent_json_carry_travellers(tmp_path) -> None:
    out = tmp_path / "it.json"
    done = tw("plan", "--prompt", "5 days in Paris from 2027-06-15, flying from JFK, budget 6000 USD, "
                                  "for 2 people", "--out", str(out), "--today", CLI_TODAY)
    assert done.returncode == 0, done.stderr
    itinerary = json.loads(out.read_text())
    assert itinerary["intent"]["travellers"] == 2
    flights = [a for d in itinerary["days"] for a in d["activities"] if a["kind"] == "flight"]
    assert sum(a["cost_usd_cents"] for a in flights) == itinerary["cost_breakdown"]["flights_usd_cents"]

    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(INTENT | {"travellers": 0}))
    refused = tw("plan", "--intent", str(bad), "--out", str(tmp_path / "no.json"), "--today", CLI_TODAY)
    assert refused.returncode == 2 and "travellers" in refused.stderr and "Traceback" not in refused.stderr
    assert not (tmp_path / "no.json").exists()


def test_road_trip_meals_scale_with_the_party_lodging_with_rooms_and_fuel_not_at_all(tmp_path) -> None:
    import os
    from engine.geocode import GazetteerIndex
    from engine.roadtrip.itinerary import road_itinerary
    from engine.roadtrip.planner import plan_road_trip
    gazetteer = GazetteerIndex.open(os.environ.get("TRIPWRIGHT_HOME") or str(tmp_path))
    costs = {}
    for n in (1, 3):
        intent = RoadTripIntent(origin="Los Angeles", terminus="Chicago", days=7, start_date=date(2027, 5, 3),
                                route="Route 66", travellers=n)
        costs[n] = road_itinerary(plan_road_trip(intent, gazetteer), intent, [], trace_id="t", run_id="r").cost_breakdown
    assert costs[3].transit_usd_cents == costs[1].transit_usd_cents  # one car
    assert costs[3].daily_spend_usd_cents == 3 * costs[1].daily_spend_usd_cents
    assert costs[3].lodging_usd_cents == 2 * costs[1].lodging_usd_cents  # two rooms
