"""Repository API: trips, versions (numbered, immutable, diffed), runs, replay, cache, idempotency.

Everything goes through ``Store.org(ctx)`` and comes back as pydantic records.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from pydantic import BaseModel
from sqlalchemy import select

from engine.errors import InputError, StoreError
from engine.models import ItineraryV1
from engine.store import RunStatus, Store, TripSummary, Version, VersionSummary
from engine.store.cache import idempotency_key
from engine.store.schema import ItineraryVersion

from .conftest import paris_intent, planned


def _new_trip(store, ctx, name="Paris in June", mode="city") -> TripSummary:
    with store.org(ctx) as repo:
        return repo.trips.create(name, mode)


def _cheaper(itinerary: ItineraryV1) -> ItineraryV1:
    """A second version: the last day dropped, one activity renamed, 100 USD cheaper."""
    days = list(itinerary.days[:-1])
    first = days[1]
    acts = [first.activities[0].model_copy(update={"name": "Picnic in the park"}), *first.activities[1:]]
    days[1] = first.model_copy(update={"activities": acts})
    cost = itinerary.cost_breakdown.model_copy(update={"total_usd_cents": itinerary.cost_breakdown.total_usd_cents - 10000})
    return itinerary.model_copy(update={"days": days, "cost_breakdown": cost})


def test_trip_lifecycle_create_list_rename_delete_restore(store, org_a):
    trip = _new_trip(store, org_a)
    road = _new_trip(store, org_a, "Route 66", "road_trip")
    assert trip.mode == "city" and road.mode == "road_trip" and trip.version_count == 0
    with store.org(org_a) as repo:
        assert {t.name for t in repo.trips.list()} == {"Paris in June", "Route 66"}
        renamed = repo.trips.rename(trip.trip_id, "  Paris, again  ")
        assert renamed.name == "Paris, again"
        repo.trips.delete(road.trip_id)
    with store.org(org_a) as repo:
        assert [t.name for t in repo.trips.list()] == ["Paris, again"]
        assert {t.trip_id for t in repo.trips.list(include_deleted=True)} == {trip.trip_id, road.trip_id}
        assert repo.trips.open(road.trip_id).trip.deleted  # soft: still readable
        with pytest.raises(InputError):
            repo.trips.rename(road.trip_id, "x")
        repo.trips.restore(road.trip_id)
    with store.org(org_a) as repo:
        assert len(repo.trips.list()) == 2
        # Undoing a delete gives the trip back as it was: its Updated time is its last change.
        assert next(t for t in repo.trips.list() if t.trip_id == road.trip_id).updated_at == road.updated_at


@pytest.mark.parametrize("name", ["", "   ", "x" * 201])
def test_bad_trip_names_and_modes_are_input_errors(store, org_a, name):
    with store.org(org_a) as repo, pytest.raises(InputError) as err:
        repo.trips.create(name)
    assert err.value.field == "name"
    with store.org(org_a) as repo, pytest.raises(InputError):
        repo.trips.create("ok", "boat")  # type: ignore[arg-type]


def test_versions_are_numbered_per_trip_and_hold_every_document(store, org_a, itinerary):
    trip, other = _new_trip(store, org_a), _new_trip(store, org_a, "Other")
    with store.org(org_a) as repo:
        v1 = repo.versions.save(trip.trip_id, itinerary, llm_meta={"model": "none", "tokens": 0})
        v2 = repo.versions.save(trip.trip_id, _cheaper(itinerary))
        o1 = repo.versions.save(other.trip_id, itinerary)
    assert (v1.number, v2.number, o1.number) == (1, 2, 1)
    assert isinstance(v1, VersionSummary) and not isinstance(v1, Version)
    with store.org(org_a) as repo:
        got = repo.versions.get(trip.trip_id, 1)
        latest = repo.versions.get(trip.trip_id)
        listed = repo.versions.list(trip.trip_id)
    assert got.itinerary_v1() == itinerary
    assert got.intent_v1() == paris_intent()
    assert got.llm_meta == {"model": "none", "tokens": 0}
    assert got.repairs == [r.model_dump(mode="json") for r in itinerary.repairs]
    assert got.total_usd_cents == itinerary.cost_breakdown.total_usd_cents and got.day_count == 5
    assert got.run_id == itinerary.run_id and got.created_by == org_a.user_id
    assert latest.number == 2 and latest.day_count == 4
    assert [v.number for v in listed] == [1, 2]


def test_open_trip_shows_versions_latest_and_members(store, org_a, itinerary):
    trip = _new_trip(store, org_a)
    with store.org(org_a) as repo:
        empty = repo.trips.open(trip.trip_id)
        for _ in range(3):
            repo.versions.save(trip.trip_id, itinerary)
        detail = repo.trips.open(trip.trip_id)
    assert empty.latest is None and empty.versions == []
    assert [v.number for v in detail.versions] == [1, 2, 3]
    assert detail.latest is not None and detail.latest.number == 3
    assert detail.trip.version_count == 3 and detail.members == [org_a.user_id]
    for record in (detail, detail.latest, detail.trip):
        assert isinstance(record, BaseModel)  # never an ORM row


def test_versions_are_immutable(store, org_a, itinerary):
    trip = _new_trip(store, org_a)
    with store.org(org_a) as repo:
        repo.versions.save(trip.trip_id, itinerary)
    with pytest.raises(StoreError, match="immutable"), store.org(org_a) as repo:
        row = repo.session.scalars(select(ItineraryVersion)).one()
        row.itinerary = {"tampered": True}
    with store.org(org_a) as repo:
        assert repo.versions.get(trip.trip_id, 1).itinerary_v1() == itinerary


def test_save_version_of_unknown_or_deleted_trip_or_without_intent(store, org_a, itinerary):
    trip = _new_trip(store, org_a)
    with store.org(org_a) as repo:
        repo.trips.delete(trip.trip_id)
    for trip_id in (trip.trip_id, "no-such-trip"):
        with pytest.raises(InputError) as err, store.org(org_a) as repo:
            repo.versions.save(trip_id, itinerary)
        assert err.value.field == "trip"
    alive = _new_trip(store, org_a)
    with pytest.raises(InputError) as err, store.org(org_a) as repo:
        repo.versions.save(alive.trip_id, {"days": []})
    assert err.value.field == "intent"
    with store.org(org_a) as repo:
        assert repo.trips.get(alive.trip_id).version_count == 0  # the failed save rolled back


def test_diff_reports_days_cost_and_violations(store, org_a, itinerary):
    trip = _new_trip(store, org_a)
    with store.org(org_a) as repo:
        repo.versions.save(trip.trip_id, itinerary)
        repo.versions.save(trip.trip_id, _cheaper(itinerary))
        repo.versions.save(trip.trip_id, itinerary)
        forward = repo.versions.diff(trip.trip_id, 1, 2)
        same = repo.versions.diff(trip.trip_id, 1, 3)
    assert forward.days_removed == [str(itinerary.days[-1].date)] and forward.days_added == []
    assert [c.date for c in forward.days_changed] == [str(itinerary.days[1].date)]
    assert "+" in forward.days_changed[0].detail and "Picnic in the park" in forward.days_changed[0].detail
    assert forward.cost_delta_usd_cents == -10000
    assert same.unchanged


def test_diff_counts_violations_added_and_removed(store, org_a, itinerary):
    from engine.models import Violation, ViolationKind
    trip = _new_trip(store, org_a)
    worse = itinerary.model_copy(update={"violations": [Violation(
        kind=ViolationKind.slippage_risk, node_ref="trip", details={"reason": "thin"}, blocking=False)]})
    with store.org(org_a) as repo:
        repo.versions.save(trip.trip_id, itinerary)
        v2 = repo.versions.save(trip.trip_id, worse)
        d = repo.versions.diff(trip.trip_id, 1, 2)
        back = repo.versions.diff(trip.trip_id, 2, 1)
    assert v2.advisory_count == 1 and v2.blocking_count == 0
    assert d.violations_added == ["slippage_risk@trip"] and back.violations_removed == ["slippage_risk@trip"]


def test_record_a_real_plan_result_and_replay_after_a_timestamp(store, org_a):
    result = planned()
    trip = _new_trip(store, org_a)
    with store.org(org_a) as repo:
        status = repo.runs.record_result(result, intent=paris_intent(), trip_id=trip.trip_id,
                                         tool_log=[{"tool": "flights", "ms": 3}], cost_micro_usd=1234)
        repo.versions.save(trip.trip_id, result.itinerary, run_id=result.run_id)
    assert status.status == "completed" and status.progress_pct == 100 and status.cost_micro_usd == 1234
    with store.org(org_a) as repo:
        everything = repo.runs.replay(result.run_id)
        cut = result.events[5].ts
        later = repo.runs.replay(result.run_id, after=cut)
        detail = repo.runs.detail(result.run_id)
        latest = repo.runs.latest(trip.trip_id)
    assert everything == result.events
    assert later == [e for e in result.events if e.ts > cut] and later
    assert [c.node for c in detail.checkpoints] == [c.node for c in result.checkpoints.all()]
    assert detail.checkpoints[-1].snapshot == result.checkpoints.all()[-1].snapshot.model_dump(mode="json")
    assert detail.tool_log == [{"tool": "flights", "ms": 3}] and latest.run_id == result.run_id


def test_run_progress_then_status_after_restart(store, db_url, org_a):
    result = planned()
    with store.org(org_a) as repo:
        repo.runs.start(intent=paris_intent(), trace_id=result.trace_id, run_id=result.run_id)
        repo.runs.record_events(result.run_id, result.events[:6])
    store.close()
    with Store.open(db_url) as reopened, reopened.org(org_a) as repo:
        status = repo.runs.status(result.run_id)
        assert isinstance(status, RunStatus)
        assert status.status == "running" and status.latest_node == result.events[5].node
        assert status.progress_pct == max(e.progress_pct for e in result.events[:6])
        assert [r.run_id for r in repo.runs.running()] == [result.run_id]
        assert repo.runs.fail_orphans() == 1
    with Store.open(db_url) as reopened, reopened.org(org_a) as repo:
        after = repo.runs.status(result.run_id)
        assert after.status == "error" and "interrupted" in after.error_message and after.completed_at


def test_finish_rejects_a_non_final_status(store, org_a):
    with store.org(org_a) as repo:
        repo.runs.start(intent={}, trace_id="t", run_id="run-1")
        with pytest.raises(InputError):
            repo.runs.finish("run-1", "running")  # type: ignore[arg-type]
        with pytest.raises(InputError):
            repo.runs.status("run-unknown")


def test_tool_cache_round_trip_and_expiry(store, org_a):
    with store.org(org_a) as repo:
        repo.tool_cache.put("k1", "flights", {"options": [1, 2]}, timedelta(hours=1))
        repo.tool_cache.put("k2", "fx", {"rate": 1.1}, timedelta(seconds=-1))
    with store.org(org_a) as repo:
        assert repo.tool_cache.get("k1") == {"options": [1, 2]}
        assert repo.tool_cache.get("k2") is None and repo.tool_cache.get("nope") is None
        repo.tool_cache.put("k1", "flights", {"options": [3]}, timedelta(hours=1))
        assert repo.tool_cache.get("k1") == {"options": [3]}


def test_idempotent_plan_submission_returns_the_stored_run(store, org_a):
    key = idempotency_key("trip-1", "digest-abc")
    with store.org(org_a) as repo:
        assert repo.idempotency.claim(key) is None  # first submission: do the work
        hit = repo.idempotency.claim(key)
        assert hit is not None and hit.status == "pending"
        repo.idempotency.complete(key, run_id="run-9", version_number=2)
    with store.org(org_a) as repo:
        again = repo.idempotency.claim(key)
        assert again is not None and (again.status, again.run_id, again.version_number) == ("completed", "run-9", 2)
        assert repo.idempotency.lookup(key) == again
        assert repo.idempotency.claim(idempotency_key("trip-1", "other")) is None
        expired = idempotency_key("trip-2", "d")
        repo.idempotency.claim(expired, ttl=timedelta(seconds=-1))
        assert repo.idempotency.claim(expired) is None  # an expired claim is taken over
