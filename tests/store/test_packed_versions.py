"""Revision 0004 on real databases: versions and checkpoints stored compressed, one copy of a
plan per saved run, the version each version was made from, and the undo line rebuilt from it."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest
from sqlalchemy import text

from engine.errors import InputError
from engine.store import PlanRecorder
from engine.store.checkpoints import VERSION_PLAN, checkpoint_docs
from engine.store.columns import unpack_json
from engine.store.lineage import undo_line
from engine.store.records import VersionSummary

from .conftest import paris_intent, planned

PER_VERSION_LIMIT = 25_000  # issue 9: ≤ 25 KB per version on average


def _raw(store, sql: str, **params):
    """One row as the database holds it (plain SQL: bytes, not what the column types decode)."""
    with store._engine.connect() as conn:
        return conn.execute(text(sql), params).one()


def _json(value):
    return json.loads(value) if isinstance(value, str) else value  # SQLite: text; PostgreSQL: decoded


def _checkpoints_blob(store, run_id: str) -> bytes:
    return bytes(_raw(store, "SELECT checkpoints_z FROM agent_run WHERE run_id = :r", r=run_id)[0])


def test_a_version_is_stored_compressed_and_read_back_exactly(store, org_a):
    result = planned()
    with store.org(org_a) as repo:
        trip = repo.trips.create("Paris")
        repo.versions.save(trip.trip_id, result.itinerary, plan=result.plan, note="Planned")
    raw = _raw(store, "SELECT itinerary, plan, itinerary_z, plan_z FROM itinerary_version WHERE trip_id = :t",
               t=trip.trip_id)
    assert _json(raw.itinerary) == {} and _json(raw.plan) is None  # the JSON columns serve old rows only
    stored = len(raw.itinerary_z) + len(raw.plan_z)
    assert stored < PER_VERSION_LIMIT, stored  # the target: at most 25 KB a version
    assert unpack_json(bytes(raw.itinerary_z)) == result.itinerary.model_dump(mode="json")
    assert unpack_json(bytes(raw.plan_z)) == result.plan.model_dump(mode="json")
    with store.org(org_a) as repo:
        version = repo.versions.get(trip.trip_id, 1)
        latest = repo.trips.open(trip.trip_id).latest
    assert version.itinerary_v1() == result.itinerary and version.plan_v1() == result.plan
    assert latest == version and version.note == "Planned" and version.based_on is None


def _recorded(store, ctx):
    """A run begun for the Paris intent (its result is the process's one real plan)."""
    recorder = PlanRecorder(store, ctx)
    return recorder, recorder.begin(paris_intent())


def test_a_saved_run_keeps_one_copy_of_its_plan(store, org_a):
    result = planned()
    recorder, ticket = _recorded(store, org_a)
    recorder.finish(ticket, result, note="Planned")
    blob = _checkpoints_blob(store, ticket.run_id)
    packed = unpack_json(blob)
    plan_doc = result.plan.model_dump(mode="json")
    assert plan_doc not in packed["snapshots"]  # the version has it; the run names it
    assert [c["snapshot"] for c in packed["checkpoints"]].count(VERSION_PLAN) >= 1
    assert len(blob) < 2_000, len(blob)
    with store.org(org_a) as repo:
        detail = repo.runs.detail(ticket.run_id)
    assert [c.model_dump() for c in detail.checkpoints] == checkpoint_docs(result.checkpoints)


def test_a_run_without_a_version_stores_each_snapshot_once(store, org_a):
    result = planned()
    recorder, ticket = _recorded(store, org_a)
    recorder.abandon(ticket, result)  # superseded: closed without a version
    blob = _checkpoints_blob(store, ticket.run_id)
    packed = unpack_json(blob)
    docs = checkpoint_docs(result.checkpoints)
    distinct = []
    for d in docs:
        if d["snapshot"] not in distinct:
            distinct.append(d["snapshot"])
    assert packed["snapshots"] == distinct and len(distinct) < len(docs)
    with store.org(org_a) as repo:
        assert [c.model_dump() for c in repo.runs.detail(ticket.run_id).checkpoints] == docs


def test_based_on_defaults_to_the_latest_and_is_checked(store, org_a, itinerary):
    with store.org(org_a) as repo:
        trip_id = repo.trips.create("T").trip_id
        first = repo.versions.save(trip_id, itinerary)
        second = repo.versions.save(trip_id, itinerary, note="Moved a stop")
        third = repo.versions.save(trip_id, itinerary, note="Added a stop", based_on=1)
    assert (first.based_on, second.based_on, third.based_on) == (None, 1, 1)
    assert third.note == "Added a stop"
    for bad in (4, 9, 0, -1, True, "2", 1.0):
        with pytest.raises(InputError) as err, store.org(org_a) as repo:
            repo.versions.save(trip_id, itinerary, based_on=bad)
        assert err.value.field == "based_on"
    with store.org(org_a) as repo:
        listed = repo.versions.list(trip_id)
        assert [(v.number, v.parent, v.note) for v in listed] == [(1, None, ""), (2, 1, "Moved a stop"),
                                                                  (3, 1, "Added a stop")]
        assert repo.trips.get(trip_id).version_count == 3  # the refused saves left nothing behind
        links = repo.versions.links(trip_id)
    assert [(v.number, v.parent, v.note) for v in links] == [(v.number, v.parent, v.note) for v in listed]
    assert undo_line(links) == undo_line(listed) == ([1, 3], 1)


def test_versions_stay_immutable_with_the_new_columns(store, org_a, itinerary):
    with store.org(org_a) as repo:
        trip_id = repo.trips.create("T").trip_id
        repo.versions.save(trip_id, itinerary)
    for sql in ("UPDATE itinerary_version SET based_on = 7", "UPDATE itinerary_version SET itinerary_z = NULL"):
        with pytest.raises(Exception, match="cannot be changed"), store._engine.begin() as conn:
            conn.execute(text(sql))


# -- the undo line, from the links alone ---------------------------------------------------------
def _v(number: int, based_on: int | None = None) -> VersionSummary:
    return VersionSummary(trip_id="t", number=number, status="ok", total_usd_cents=None, day_count=1,
                          blocking_count=0, advisory_count=0, run_id=None, created_by="u",
                          created_at=datetime(2026, 11, 24, tzinfo=timezone.utc), based_on=based_on)


def test_the_undo_line_is_the_history_the_user_had():
    # v1 planned; v2 a drag; undo; v3 a new stop made from v1 (the drag was undone)
    versions = [_v(1), _v(2, 1), _v(3, 1)]
    assert undo_line(versions) == ([1, 3], 1)  # reopened at the latest: undo goes to v1, not v2
    assert undo_line(versions, 1) == ([1, 3], 0)  # reopened on v1: redo reaches v3
    assert undo_line(versions, 2) == ([1, 2], 1)  # shown v2 (another window left it there)
    assert undo_line(versions, 99) == ([1, 3], 1)  # an unknown number: the latest
    assert undo_line([]) == ([], -1)
    # Deeper: v4 from v3, undo twice to v1, v5 from v1; the newest branch wins redo.
    more = versions + [_v(4, 3), _v(5, 1)]
    assert undo_line(more, 1) == ([1, 5], 0)
    assert undo_line(more, 4) == ([1, 3, 4], 2)


def test_versions_saved_before_0004_read_as_a_straight_line():
    legacy = [_v(1), _v(2), _v(3)]  # based_on NULL: each made from the one before, as they were shown
    assert [v.parent for v in legacy] == [None, 1, 2]
    assert undo_line(legacy) == ([1, 2, 3], 2)
    mixed = legacy + [_v(4, 2)]  # a new version after an undo on an upgraded database
    assert undo_line(mixed) == ([1, 2, 4], 2)
    assert undo_line(mixed, 2) == ([1, 2, 4], 1)


def test_links_and_the_version_plan_stay_inside_the_org(store, org_a, org_b):
    result = planned()
    recorder, ticket = _recorded(store, org_a)
    recorder.finish(ticket, result)
    with store.org(org_b) as repo:
        assert repo.versions.links(ticket.trip_id) == []
        assert repo.runs._version_plan(ticket.run_id) is None  # noqa: SLF001 (the reference's lookup)
    with store.org(org_a) as repo:
        assert [v.number for v in repo.versions.links(ticket.trip_id)] == [1]
        assert repo.runs._version_plan(ticket.run_id) == result.plan.model_dump(mode="json")  # noqa: SLF001
