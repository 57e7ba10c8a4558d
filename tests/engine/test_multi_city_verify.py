"""The chain verifiers of a multi-city trip (issue 33 §3) on a planned Paris → Barcelona trip by
train, each broken in one way; and ``tripwright verify`` on a saved multi-city itinerary."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from engine.models import LockedSlot, TimeWindow
from engine.verify import blocking, verify_chain
from engine.verify.chain_integrity import verify_saved_chain

from .test_cli import TODAY, tw
from .test_multi_city_run import PARIS_ROME, plan

TRAIN = {**PARIS_ROME, "stays": [{"city": "Paris", "nights": 2}, {"city": "Barcelona", "nights": 2}],
         "legs": [{"mode": "train"}]}


@pytest.fixture(scope="module")
def trip():
    result = plan(TRAIN, "barcelona_es")
    assert result.status == "completed", result.failure
    return result.itinerary


def _reasons(it) -> set[str]:
    return {v.details.get("reason", v.kind.value) for v in blocking(verify_chain(it))}


def _with_day(it, d: int, acts):
    days = list(it.days)
    days[d] = days[d].model_copy(update={"activities": acts})
    return it.model_copy(update={"days": days})


def _leg_index(day) -> int:
    return next(i for i, a in enumerate(day.activities) if a.role == "leg")


def test_the_planned_chain_holds(trip) -> None:
    assert _reasons(trip) == set()


def test_a_check_out_after_leaving_for_the_station(trip) -> None:
    day = trip.days[2]
    acts = list(day.activities)
    i = next(i for i, a in enumerate(acts) if a.role == "checkout")
    late = acts[_leg_index(day) - 1].start + timedelta(minutes=5)
    acts[i] = acts[i].model_copy(update={"end": late})
    assert _reasons(_with_day(trip, 2, acts)) == {"checkout_after_leaving"}


def test_no_buffer_at_the_station(trip) -> None:
    day = trip.days[2]
    acts = list(day.activities)
    i = _leg_index(day) - 1
    acts[i] = acts[i].model_copy(update={"end": trip.legs[0].departure - timedelta(minutes=5)})
    assert _reasons(_with_day(trip, 2, acts)) == {"leg_buffer"}


def test_a_check_in_before_the_traveller_arrives(trip) -> None:
    day = trip.days[2]
    acts = list(day.activities)
    i = next(i for i, a in enumerate(acts) if a.role == "checkin")
    acts[i] = acts[i].model_copy(update={"start": trip.legs[0].arrival - timedelta(minutes=30)})
    assert _reasons(_with_day(trip, 2, acts)) == {"checkin_before_arrival"}


def test_a_hotel_reached_after_midnight(trip) -> None:
    day = trip.days[2]
    acts = list(day.activities)
    i = _leg_index(day) + 1
    acts[i] = acts[i].model_copy(update={"end": acts[i].start + timedelta(hours=14)})
    assert "after_checkin_end" in _reasons(_with_day(trip, 2, acts))


def test_a_place_in_the_city_the_traveller_has_left(trip) -> None:
    paris_sight = next(a for a in trip.days[1].activities if a.role == "activity")
    day = trip.days[3]  # a whole day in Barcelona
    acts = list(day.activities)
    i = next(i for i, a in enumerate(acts) if a.role == "activity")
    acts[i] = acts[i].model_copy(update={"geo": paris_sight.geo})
    found = blocking(verify_chain(_with_day(trip, 3, acts)))
    assert [v.details["reason"] for v in found] == ["not_in_city"] and "Barcelona" in found[0].details["message"]


def test_the_last_train_arrives_before_23(trip) -> None:
    leg = trip.legs[0]
    late = leg.model_copy(update={"arrival": leg.arrival.replace(hour=23, minute=40)})
    assert _reasons(trip.model_copy(update={"legs": [late]})) == {"last_train"}


def test_the_budget_of_everything(trip) -> None:
    short = trip.intent.model_copy(update={"budget_usd_cents": trip.cost_breakdown.total_usd_cents - 1})
    found = blocking(verify_chain(trip.model_copy(update={"intent": short})))
    assert [v.kind.value for v in found] == ["budget_exceeded"]


def test_locked_slots_per_stay(trip) -> None:
    sight = next(a for a in trip.days[3].activities if a.role == "activity")
    kept = LockedSlot(day_offset=3, window=TimeWindow(start=sight.window.start, end=sight.window.end),
                      activity_id=sight.ref)
    moved = kept.model_copy(update={"day_offset": 1})
    for slots, want in (([kept], set()), ([moved], {"locked_slot_missing"})):
        intent = trip.intent.model_copy(update={"prefs": trip.intent.prefs.model_copy(update={"locked_slots": slots})})
        assert _reasons(trip.model_copy(update={"intent": intent})) == want


def test_a_saved_trip_re_checked_by_tripwright_verify(tmp_path, trip) -> None:
    assert not blocking(verify_saved_chain(trip))
    good = tmp_path / "trip.json"
    good.write_text(trip.model_dump_json())
    done = tw("verify", str(good))
    assert done.returncode == 0, done.stdout + done.stderr
    unread = verify_saved_chain(trip, lambda city, act: None if city == "Barcelona" else True)
    assert [(v.node_ref, v.blocking) for v in unread] == [("stay_1", False)]  # unchecked, not found wrong
    data = json.loads(good.read_text())
    data["legs"][0]["fare_usd_cents"] += 100  # the leg row and the costs no longer agree
    data["days"][1]["stay"] = 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    done = tw("verify", str(bad))
    assert done.returncode != 0
    assert "leg 1's row says" in done.stdout and "day 2 is said to be in stay 1" in done.stdout


def test_a_multi_city_intent_file_plans_on_the_command_line(tmp_path) -> None:
    path, out = tmp_path / "intent.json", tmp_path / "out.json"
    path.write_text(json.dumps(PARIS_ROME))
    done = tw("plan", "--intent", str(path), "--out", str(out), "--today", TODAY)
    assert done.returncode == 0, done.stderr
    assert "Paris (3n) → Rome (2n)" in done.stdout and "leg 1: Paris → Rome by flight" in done.stdout
    assert json.loads(out.read_text())["legs"][0]["from_city"] == "Paris"


def test_a_place_no_city_has_is_a_mismatch(tmp_path, trip) -> None:
    data = json.loads(trip.model_dump_json())
    sight = next(a for a in data["days"][3]["activities"] if a["role"] == "activity")  # Barcelona, from its pack
    sight["ref"] = "osm_n1"
    path = tmp_path / "made_up.json"
    path.write_text(json.dumps(data))
    from engine.models import ItineraryV1
    from engine.verify_saved import verify_saved
    from engine.catalog import default_catalog
    from engine.evaluation.packs import load_eval_pack
    from engine.places.catalog_link import catalog_with
    catalog, _ = catalog_with(default_catalog(), load_eval_pack("barcelona_es"), today=trip.planning_date)
    verdict = verify_saved(ItineraryV1.model_validate(data), catalog)
    assert [v.node_ref for v in verdict.blocking] == [sight["id"]]
    assert "is not a place Barcelona's data has" in verdict.blocking[0].details["message"]
    assert not verify_saved(trip, catalog).blocking


def test_offline_one_line_names_every_stay_that_needs_a_fetch(tmp_path) -> None:
    import os
    import subprocess
    from .test_cli import EXE
    path = tmp_path / "intent.json"
    path.write_text(json.dumps({**PARIS_ROME, "stays": [{"city": "Tokyo", "nights": 2}, {"city": "Kyoto", "nights": 2},
                                                        {"city": "Lisbon", "nights": 2}]}))
    env = {**os.environ, "TRIPWRIGHT_HOME": str(tmp_path / "home"), "TRIPWRIGHT_OFFLINE": "1"}
    done = subprocess.run([str(EXE), "plan", "--intent", str(path), "--today", TODAY], capture_output=True,
                          text=True, env=env, timeout=120)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "Kyoto, JP and Lisbon, PT need one online fetch" in done.stderr and "Tokyo" not in done.stderr


@pytest.mark.parametrize("option, path", [("--places", "paris-places.kml")])
def test_files_not_merged_into_a_multi_city_trip_are_one_line(tmp_path, option, path) -> None:
    from pathlib import Path
    intent = tmp_path / "intent.json"
    intent.write_text(json.dumps(PARIS_ROME))
    examples = Path(__file__).resolve().parents[2] / "docs" / "examples"
    done = tw("plan", "--intent", str(intent), option, str(examples / path), "--today", TODAY)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [f"tripwright: {option}: a multi-city trip takes its saved places "
                                                "in its intent file (prefs.must_see); a places file is not merged "
                                                "into it yet"]  # booking files are: test_multi_city_bookings_cli.py


@pytest.mark.parametrize("changes, said", [
    ({"origin_airport": "CDG"}, "origin_airport: CDG is Paris's own airport; choose the airport you fly from"),
    ({"stays": [{"city": "Paris", "nights": 3}, {"city": "paris", "nights": 2}]},
     "stays[1].city: Paris twice in a row; make it one stay of 5 nights"),
])
def test_stays_the_planner_cannot_join_are_one_line(tmp_path, changes, said) -> None:
    path = tmp_path / "intent.json"
    path.write_text(json.dumps({**PARIS_ROME, **changes}))
    done = tw("plan", "--intent", str(path), "--today", TODAY)
    assert done.returncode == 2 and done.stderr.strip().splitlines() == [f"tripwright: {said}"]
