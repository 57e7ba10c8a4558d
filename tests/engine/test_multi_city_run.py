"""A multi-city trip planned end to end on the real fixtures and the shipped eval packs (issue 33):
each stay planned by the city run around the legs, the days around a leg partial, one itinerary
with its legs, one cost breakdown, a decision and a citation per leg, events per stage."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

import pytest

from engine.evaluation.packs import load_eval_pack
from engine.models import EventStatus, ItineraryV1, MultiCityIntent, StreamEvent
from engine.pipeline import PlanningSession
from engine.verify import blocking
from engine.verify.chain import verify_chain

from .conftest import TODAY

PARIS_ROME = {"mode": "multi_city", "start_date": "2027-06-15", "origin_airport": "JFK",
              "budget_usd_cents": 600000, "stays": [{"city": "Paris", "nights": 3}, {"city": "Rome", "nights": 2}],
              "prefs": {"themes": ["art"]}}


def plan(data: dict, *packs: str, seen: list | None = None):
    session = PlanningSession(today=TODAY)
    for slug in packs:
        session.use_city_pack(load_eval_pack(slug))
    return asyncio.run(session.plan(MultiCityIntent.model_validate(data),
                                    on_event=seen.append if seen is not None else None))


@pytest.fixture(scope="module")
def paris_rome():
    seen: list[StreamEvent] = []
    result = plan(PARIS_ROME, seen=seen)
    return result, seen


def _roles(day) -> list[str]:
    return [a.role for a in day.activities if a.kind.value != "transit" or a.role == "leg"]


def test_two_cities_plan_as_one_itinerary_with_a_partial_day_around_the_leg(paris_rome) -> None:
    result, _ = paris_rome
    assert result.status == "completed", result.failure
    it = result.itinerary
    assert [d.stay for d in it.days] == [0, 0, 0, 1, 1, 1]
    assert [str(d.date) for d in it.days][0] == "2027-06-15" and len(it.days) == 6
    leg_day = it.days[3]
    roles = [a.role for a in leg_day.activities]
    i = roles.index("leg")
    assert "checkout" in roles[:i] and "checkin" in roles[i:], roles
    assert roles[i - 1] == "transfer" and roles[i + 1] == "transfer"
    leg = leg_day.activities[i]
    assert leg.ref == "leg_0" and leg.kind.value == "transit"
    assert leg.start == it.legs[0].departure and leg.end == it.legs[0].arrival
    assert leg.start.utcoffset() is not None and leg.start_tz == "Europe/Paris" and leg.end_tz == "Europe/Rome"
    # the first stay arrives by the outbound flight, the last leaves by the flight home
    assert it.days[0].activities[0].role == "arrival" and it.days[0].activities[0].kind.value == "flight"
    assert it.days[-1].activities[-1].role == "departure" and it.days[-1].activities[-1].ref.startswith("az")
    # no stand-in "flight" of the planner is left, not even in an id
    text = it.model_dump_json()
    assert "booked-lg" not in text and "LG1" not in text
    ids = [a.id for d in it.days for a in d.activities]
    assert len(ids) == len(set(ids))
    assert all(a.id.startswith(f"d{n}-") for n, d in enumerate(it.days) for a in d.activities)


def test_one_cost_breakdown_decision_and_citation_per_leg(paris_rome) -> None:
    it = paris_rome[0].itinerary
    cost = it.cost_breakdown
    assert cost.total_usd_cents == (cost.flights_usd_cents + cost.lodging_usd_cents + cost.attractions_usd_cents
                                    + cost.transit_usd_cents + cost.daily_spend_usd_cents + cost.meals_usd_cents)
    assert cost.total_usd_cents <= it.intent.budget_usd_cents
    lodging = sum(a.cost_usd_cents for d in it.days for a in d.activities if a.role == "checkin")
    assert cost.lodging_usd_cents == lodging  # both hotels
    leg = it.legs[0]
    assert cost.flights_usd_cents >= leg.fare_usd_cents and leg.mode == "flight"  # 1,100 km: flown
    assert "flights" in cost.estimated_parts  # the leg's fare is an estimate
    said = [d for d in it.decisions if d.node == "legs"]
    assert len(said) == 1 and "Paris → Rome by flight" in said[0].rationale
    cited = [c for c in it.citations if c.provenance.ref_id == "leg_0"]
    assert len(cited) == 1 and "estimated from distance" in cited[0].claim
    assert cited[0].provenance.data_source == "estimated"
    # a stay entered by a leg is not said to be flown into
    rome = [d for d in it.decisions if d.rationale.startswith("Rome:")]
    assert rome and not any("flying into" in d.rationale for d in rome)


def test_the_itinerary_round_trips_and_its_chain_verifies(paris_rome) -> None:
    it = paris_rome[0].itinerary
    again = ItineraryV1.model_validate_json(it.model_dump_json())
    assert again == it and again.intent.mode == "multi_city" and again.legs == it.legs
    assert not blocking(verify_chain(it))


def test_events_stream_per_stage_and_per_stay(paris_rome) -> None:
    _, seen = paris_rome
    nodes = [e.node for e in seen]
    assert nodes[0] == "intent_extractor" and seen[-1].node == "responder" and seen[-1].status is EventStatus.done
    assert "legs" in nodes
    assert sum(1 for e in seen if e.node == "synthesizer" and e.status is EventStatus.completed) == 2  # each stay
    assert any(e.node == "verifier" and (e.decision_note or "").startswith("chain:") for e in seen)
    progress = [e.progress_pct for e in seen]
    assert progress == sorted(progress) and progress[-1] == 100


def test_a_city_from_its_pack_and_a_train_by_request() -> None:
    data = {**PARIS_ROME, "stays": [{"city": "Paris", "nights": 2}, {"city": "Barcelona", "nights": 2}],
            "legs": [{"mode": "train"}]}
    result = plan(data, "barcelona_es")
    assert result.status == "completed", result.failure
    it = result.itinerary
    leg = it.legs[0]
    assert (leg.mode, leg.source) == ("train", "estimated") and leg.why.startswith("train as asked; times estimated")
    day = it.days[2]
    names = [a.name for a in day.activities]
    assert "Transfer to the station" in names and "Transfer from the station" in names
    assert any(a.ref.startswith("osm_") for d in it.days[2:] for a in d.activities)  # Barcelona from its pack
    assert "© OpenStreetMap contributors (ODbL)" in " ".join(it.attributions)
    assert "transit" in it.cost_breakdown.estimated_parts


def test_three_cities_and_home_from_the_first() -> None:
    data = {**PARIS_ROME, "budget_usd_cents": 900000,
            "stays": [{"city": "Paris", "nights": 2}, {"city": "Barcelona", "nights": 2}, {"city": "Rome", "nights": 2}],
            "return_from": "first"}
    result = plan(data, "barcelona_es")
    assert result.status == "completed", result.failure
    it = result.itinerary
    assert [(leg.from_city, leg.to_city) for leg in it.legs] == [("Paris", "Barcelona"), ("Barcelona", "Rome"),
                                                                ("Rome", "Paris")]
    last = it.days[-1]
    assert last.stay == 0 and [a.role for a in last.activities if a.role in ("leg", "departure")] == ["leg", "departure"]
    home = last.activities[-1]
    assert home.kind.value == "flight" and home.start >= it.legs[-1].arrival
    assert any(d.node == "legs" and d.rationale.startswith("Home from Paris") for d in it.decisions)
    assert [d.stay for d in it.days] == [0, 0, 1, 1, 2, 2, 0]


def test_a_booked_train_is_a_fact() -> None:
    booked = {"mode": "train", "operator": "SNCF", "number": "TGV 9713", "from_name": "Paris Gare de Lyon",
              "to_name": "Barcelona Sants", "departure": "2027-06-17T10:07:00+02:00",
              "arrival": "2027-06-17T16:40:00+02:00", "confirmation": "QX7K2P", "price_usd_cents": 12900}
    data = {**PARIS_ROME, "stays": [{"city": "Paris", "nights": 2}, {"city": "Barcelona", "nights": 2}],
            "legs": [{"booked": booked}]}
    result = plan(data, "barcelona_es")
    assert result.status == "completed", result.failure
    it = result.itinerary
    leg = it.legs[0]
    assert leg.source == "booked" and leg.fare_usd_cents == 12900 and leg.confirmation == "QX7K2P"
    assert leg.departure == datetime.fromisoformat(booked["departure"])
    act = next(a for d in it.days for a in d.activities if a.role == "leg")
    assert "booked ticket" in act.notes and act.cost_usd_cents == 12900
    assert next(c for c in it.citations if c.provenance.ref_id == "leg_0").provenance.source == "user"


def test_a_re_plan_of_one_changed_stay_reuses_the_others() -> None:
    session = PlanningSession(today=TODAY)
    first = asyncio.run(session.plan(MultiCityIntent.model_validate(PARIS_ROME)))
    changed = {**PARIS_ROME, "stays": [PARIS_ROME["stays"][0], {**PARIS_ROME["stays"][1], "tier": "budget"}]}
    again = asyncio.run(session.plan(MultiCityIntent.model_validate(changed)))
    assert first.status == again.status == "completed"
    assert again.reuse >= 0.6, again.reuse  # Paris's nodes and tool answers come from the memo
    assert again.itinerary.days[:3] == first.itinerary.days[:3]
    assert "(budget)" in next(a.name for a in again.itinerary.days[3].activities if a.role == "checkin")


def test_map_edits_work_inside_a_stay() -> None:
    from engine.edits import MoveToDay, Remove
    from engine.errors import InputError
    session = PlanningSession(today=TODAY)
    intent = MultiCityIntent.model_validate(PARIS_ROME)
    first = asyncio.run(session.plan(intent)).itinerary
    rome = next(a for a in first.days[4].activities if a.role == "activity")  # a whole day in Rome
    paris = next(a for a in first.days[1].activities if a.role == "activity")
    edited = asyncio.run(session.plan(intent, edits=[Remove(rome.id)]))
    assert edited.status == "completed", edited.failure
    assert rome.ref not in {a.ref for d in edited.itinerary.days for a in d.activities}
    assert edited.itinerary.days[:3] == first.days[:3]  # Paris as it was
    with pytest.raises(InputError, match="same city"):
        asyncio.run(session.plan(intent, edits=[MoveToDay(paris.id, day_index=4, window=paris.window)]))


def test_a_locked_slot_is_kept_in_its_stay(paris_rome) -> None:
    it = paris_rome[0].itinerary
    sight = next(a for a in it.days[4].activities if a.role == "activity")  # Rome, the trip's day 5
    slot = {"day_offset": 4, "activity_id": sight.ref,
            "window": {"start": sight.window.start.isoformat(), "end": sight.window.end.isoformat()}}
    data = {**PARIS_ROME, "prefs": {**PARIS_ROME["prefs"], "locked_slots": [slot]}}
    locked = plan(data)
    assert locked.status == "completed", locked.failure
    kept = [a for a in locked.itinerary.days[4].activities if a.ref == sight.ref]
    assert len(kept) == 1 and kept[0].locked and kept[0].window == sight.window
    assert not [v for v in verify_chain(locked.itinerary) if v.details.get("reason", "").startswith("locked")]


def test_a_saved_place_is_planned_in_the_stay_it_is_near() -> None:
    must = {"name": "Basilica di San Clemente", "geo": {"lat": 41.8893, "lon": 12.4976}, "source": "kml"}
    result = plan({**PARIS_ROME, "prefs": {**PARIS_ROME["prefs"], "must_see": [must]}})
    assert result.status == "completed", result.failure
    it = result.itinerary
    where = [d.stay for d in it.days for a in d.activities if a.name == "Basilica di San Clemente"]
    assert where == [1]  # Rome's, never Paris's


def test_a_drive_leaves_from_the_hotel() -> None:
    data = {**PARIS_ROME, "stays": [{"city": "Paris", "nights": 2}, {"city": "Barcelona", "nights": 2}],
            "legs": [{"mode": "drive"}]}
    result = plan(data, "barcelona_es")
    assert result.status == "completed", result.failure
    day = result.itinerary.days[2]
    roles = [a.role for a in day.activities]
    i = roles.index("leg")
    assert roles[i - 1] != "transfer" and roles[i + 1] != "transfer"  # no station at either end
    assert day.activities[i].name.startswith("Drive ") and result.itinerary.legs[0].why.startswith("drive as asked")


def test_a_train_too_long_for_one_day_is_flown_and_the_repair_says_why() -> None:
    data = {**PARIS_ROME, "stays": [{"city": "Lisbon", "nights": 2}, {"city": "Rome", "nights": 2}],
            "legs": [{"mode": "train"}], "origin_airport": "JFK"}
    result = plan(data, "lisbon_pt")
    assert result.status == "completed", result.failure and result.failure.message
    leg = result.itinerary.legs[0]
    assert leg.mode == "flight" and leg.arrival.date() == leg.departure.date()
    moves = [(m.move_type.value, m.new_value) for d in result.itinerary.repairs for m in d.moves]
    assert ("swap_leg_mode", "flight") in moves, moves
    day = next(d for d in result.itinerary.days if any(a.role == "leg" for a in d.activities))
    out = next(a for a in day.activities if a.role == "checkout")
    assert out.end is not None and out.end <= leg.departure  # the check-out before the flight


def test_a_booked_night_train_is_said_to_be_beyond_a_day() -> None:
    rome = "+02:00"
    ticket = {"mode": "train", "operator": "Trenitalia", "number": "ICN 1959", "from_name": "Milano Centrale",
              "to_name": "Roma Termini", "departure": f"2027-06-17T21:00:00{rome}",
              "arrival": f"2027-06-18T07:00:00{rome}"}
    data = {**PARIS_ROME, "stays": [{"city": "Paris", "nights": 2}, {"city": "Rome", "nights": 2}],
            "legs": [{"mode": "train", "booked": ticket}], "origin_airport": "JFK"}
    result = plan(data)
    assert result.status == "error"
    assert result.failure.message.startswith("The train from Paris to Rome takes about 10 h")
    assert "cannot arrive the day it leaves" in result.failure.message


def test_a_train_across_the_sea_is_refused_in_words() -> None:
    from engine.errors import InputError
    data = {**PARIS_ROME, "stays": [{"city": "Paris", "nights": 2}, {"city": "Tokyo", "nights": 2}],
            "legs": [{"mode": "train"}], "origin_airport": "JFK"}
    with pytest.raises(InputError, match=r"no train runs from Paris to Tokyo"):
        plan(data)


def test_a_cancel_during_a_stay_stops_the_whole_trip() -> None:
    from engine.errors import PlanCancelled

    def stop_in_rome(event: StreamEvent) -> None:
        if event.node == "planner" and event.progress_pct > 50:
            raise PlanCancelled()
    session = PlanningSession(today=TODAY)
    result = asyncio.run(session.plan(MultiCityIntent.model_validate(PARIS_ROME), on_event=stop_in_rome))
    assert result.status == "cancelled" and result.itinerary is None
    assert result.events[-1].node == "responder" and result.events[-1].status is EventStatus.cancelled


def test_a_booked_flight_home_from_the_first_city_is_the_one_taken() -> None:
    home = {"carrier": "Air France", "flight_number": "AF 22", "origin": "CDG", "dest": "JFK",
            "departure": "2027-06-20T16:30:00+02:00", "arrival": "2027-06-20T18:55:00-04:00",
            "confirmation": "ZX81QP", "price_usd_cents": 61000}
    data = {**PARIS_ROME, "return_from": "first", "budget_usd_cents": 900000, "bookings": {"flights": [home]}}
    result = plan(data)
    assert result.status == "completed", result.failure
    it = result.itinerary
    flight = it.days[-1].activities[-1]
    assert flight.name == "AF 22 CDG→JFK" and flight.cost_usd_cents == 61000 and "booked (priced)" in flight.notes
    assert it.legs[-1].arrival <= flight.start - timedelta(hours=3)  # the leg back moved early enough
    assert any(d.rationale.endswith("AF 22, as booked.") for d in it.decisions if d.node == "legs")


def test_a_stay_flies_into_the_airport_asked() -> None:
    data = {**PARIS_ROME, "origin_airport": "LAX", "start_date": "2027-04-12",
            "stays": [{"city": "Tokyo", "nights": 3, "airports": ["NRT"]}, {"city": "Kyoto", "nights": 2}]}
    result = plan(data, "kyoto_jp")
    assert result.status == "completed", result.failure
    landing = result.itinerary.days[0].activities[0]
    assert landing.role == "arrival" and landing.name.endswith("→NRT")  # unasked, the plan lands at HND


def test_a_booked_flight_out_lands_where_the_first_stay_is_planned() -> None:
    out = {"carrier": "Air France", "flight_number": "AF 9", "origin": "JFK", "dest": "ORY",
           "departure": "2027-06-14T19:00:00-04:00", "arrival": "2027-06-15T08:15:00+02:00", "price_usd_cents": 52000}
    data = {**PARIS_ROME, "bookings": {"flights": [out]}}
    result = plan(data)
    assert result.status == "completed", result.failure
    landing = result.itinerary.days[0].activities[0]
    assert landing.name == "AF 9 JFK→ORY" and landing.cost_usd_cents == 52000  # not the usual CDG
