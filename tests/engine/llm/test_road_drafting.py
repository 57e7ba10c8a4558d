"""Road trips drafted by the model: it names overnight towns and stops among the corridor's own
candidates (enums); the planner decides the days and the seed 000 invariants decide the plan.
A real local OpenAI-compatible server, the real ``openai`` client, the real pipeline."""

from __future__ import annotations

import json
import os
import random
from datetime import date

import pytest

from engine.catalog import default_catalog
from engine.geocode import GazetteerIndex
from engine.llm.road_drafting import RoadDrafter
from engine.models import RoadTripIntent
from engine.pipeline import PlanningSession
from engine.roadtrip.invariants import verify_road_plan
from engine.verify import blocking

from .model_runs import cancel_mid_call, plan_drafted
from .scripted_server import Reply, ScriptedServer, from_schema, request_schema
from ..conftest import TODAY

ROUTE66 = dict(origin="Los Angeles", terminus="Chicago", days=7, start_date=date(2027, 5, 3), route="Route 66")
DIRECT = dict(origin="Denver", terminus="Kansas City", days=3, start_date=date(2027, 5, 3))


@pytest.fixture(scope="module")
def session() -> PlanningSession:
    home = os.environ["TRIPWRIGHT_HOME"]
    return PlanningSession(default_catalog(), today=TODAY, geocoder=GazetteerIndex.open(home))


def facts_of(request: dict) -> dict:
    return json.loads(request["messages"][1]["content"].split("\n", 1)[1])


def evenly(request: dict) -> Reply:
    """A sensible proposal: the town nearest each day's even share of the way, and two sights."""
    facts = facts_of(request)
    towns, days = facts["towns"], facts["days"]
    end = max(t["mile"] for t in towns) + 1
    picks = []
    for k in range(1, days):
        best = min(towns, key=lambda t: abs(t["mile"] - end * k / days))
        if best["id"] not in picks:
            picks.append(best["id"])
    return Reply(content=json.dumps({"overnights": picks, "stops": [s["id"] for s in facts["stops"][:2]]}))


def backwards(request: dict) -> Reply:
    proposal = json.loads(evenly(request).content)
    return Reply(content=json.dumps({"overnights": proposal["overnights"][::-1], "stops": []}))


def plan(session: PlanningSession, server: ScriptedServer, intent: RoadTripIntent):
    return plan_drafted(session, server, intent, RoadDrafter, timeout_s=10)


def notes(result, node: str) -> list[str]:
    return [e.decision_note or "" for e in result.events if e.node == node]


def test_the_model_chooses_the_nights_and_the_invariants_hold(session) -> None:
    intent = RoadTripIntent(**ROUTE66)
    with ScriptedServer(default=evenly) as server:
        result, drafter = plan(session, server, intent)
        asked = server.chat_requests()
        proposal = json.loads(evenly(asked[0]).content)
    assert result.status == "completed" and len(asked) == 1, notes(result, "planner")
    road = result.extra["road_plan"]
    assert not blocking(verify_road_plan(road))
    names = {t["id"]: t["name"].split(",")[0] for t in facts_of(asked[0])["towns"]}
    anchors = [d.anchor.name for d in road.days]
    assert [names[i] for i in proposal["overnights"]] == [a for a in anchors if a in {names[i] for i in proposal["overnights"]}]
    assert all(names[i] in anchors for i in proposal["overnights"])  # the proposed nights were kept
    schema = request_schema(asked[0])
    town_ids = schema["properties"]["overnights"]["items"]["enum"]
    assert set(town_ids) == {t["id"] for t in facts_of(asked[0])["towns"]}  # ids are enums of the corridor's towns
    assert "Los Angeles" not in [names[i] for i in town_ids]  # nothing near home (INV-DIR-03)
    assert drafter.meta["model"] == "gpt-4o-mini" and result.cost_usd == pytest.approx(0.00036)
    assert any("night(s) and" in n for n in notes(result, "draft"))


def test_a_backwards_proposal_is_re_asked_with_the_direction_rule(session) -> None:
    intent = RoadTripIntent(**ROUTE66)
    with ScriptedServer([backwards, evenly]) as server:
        result, drafter = plan(session, server, intent)
        first, second = server.chat_requests()
    assert "INV-DIR-04" in second["messages"][-1]["content"] and "driving order" in second["messages"][-1]["content"]
    assert drafter.client.meter.invalid_output_total == 0  # a rule broken is not an invalid output
    assert result.status == "completed" and not blocking(verify_road_plan(result.extra["road_plan"]))
    assert any("rolled back to checkpoint 'corridor'" in n for n in notes(result, "draft"))


def test_backwards_twice_is_put_in_driving_order_with_a_note(session) -> None:
    intent = RoadTripIntent(**ROUTE66)
    with ScriptedServer(default=backwards) as server:
        result, _ = plan(session, server, intent)
        assert len(server.chat_requests()) == 2
    assert result.status == "completed" and not blocking(verify_road_plan(result.extra["road_plan"]))
    assert any(n.startswith("the proposed nights were put in driving order") for n in notes(result, "planner"))


def test_garbage_twice_stops_the_road_trip_with_invalid_model_output(session) -> None:
    intent = RoadTripIntent(**DIRECT)
    with ScriptedServer([Reply(content="Kingman!"), Reply(content='{"overnights": ["atlantis"], "stops": []}')]) as server:
        result, _ = plan(session, server, intent)
    assert result.status == "error" and result.itinerary is None
    assert result.failure.reason == "invalid_model_output"
    [error] = [e for e in result.events if e.status.value == "error"]
    assert error.reason == "invalid_model_output"


@pytest.mark.parametrize("seed", range(10))
def test_random_schema_valid_road_proposals_end_verified_or_explained(session, seed) -> None:
    """However odd (repeats, backwards, too many nights, hops over the cap), a proposal built at
    random from the request's own schema ends in a plan keeping every invariant, or a clear halt."""
    intent = RoadTripIntent(**(ROUTE66 if seed % 2 else DIRECT))
    with ScriptedServer(default=from_schema(random.Random(seed))) as server:
        result, drafter = plan(session, server, intent)
        assert 1 <= len(server.chat_requests()) <= 2
    assert drafter.client.meter.invalid_output_total == 0
    if result.status == "completed":
        road = result.extra["road_plan"]
        assert not blocking(verify_road_plan(road)) and len(road.days) == intent.days
        assert road.days[-1].anchor.name == road.terminus.name
        progress = [d.anchor_progress for d in road.days]
        assert progress == sorted(progress)  # whatever the model said, the nights move forward
    else:
        assert result.status == "error" and result.failure.message.startswith("Unable to")
        assert result.events[-2].reason == "infeasible_plan"


def test_a_drafted_road_trip_is_scored_on_the_seed_000_families(session) -> None:
    """``tripwright eval --llm`` scores road trips too: commonsense = direction, pacing, geocoding;
    hard = the corridor and the daily cap the user set."""
    from engine.evaluation.travelplanner import family_checks, figures
    intent = RoadTripIntent(**ROUTE66)
    with ScriptedServer(default=evenly) as server:
        result, _ = plan(session, server, intent)
    checks = family_checks(result, intent)
    assert checks == {"road_direction": True, "road_pacing": True, "road_geocoding": True,
                      "road_corridor": True, "road_daily_cap": True}
    values = figures([checks, None])  # one delivered road trip, one scenario without a plan
    assert values["delivery_rate"] == 0.5 and values["final_pass_rate"] == 0.5
    assert values["commonsense_micro"] == 3 / 8 and values["hard_micro"] == 2 / 4
    assert values["commonsense_macro"] == 0.5 and values["hard_macro"] == 0.5


def test_cancel_stops_a_road_trip_while_the_model_is_thinking(session) -> None:
    run = cancel_mid_call(session, RoadTripIntent(**DIRECT), RoadDrafter)
    assert run.result.status == "cancelled" and run.result.events[-1].status.value == "cancelled"
    assert run.stop_ms <= 200, f"{run.stop_ms:.0f} ms"
