"""Audit log (who, when, what — never a secret; append-only; org-scoped) and retention with
backdated rows (seed §9.4)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import select

from engine.errors import StoreError
from engine.store import prune
from engine.store.schema import (AgentRun, AuditEntry, Idempotency, ItineraryVersion, RememberToken, RunEvent,
                                 ToolCacheEntry, Trip)

from .conftest import PASSWORD, paris_intent, planned


def test_trip_and_version_actions_are_audited_with_who_when_what(store, org_a, org_b, itinerary):
    started = datetime.now(timezone.utc)
    with store.org(org_a) as repo:
        trip = repo.trips.create("Audit me")
        repo.trips.rename(trip.trip_id, "Audited")
        repo.versions.save(trip.trip_id, itinerary)
        repo.audit("exported", target_type="trip", target_id=trip.trip_id, format="gpx", path="/tmp/x.gpx")
        repo.audit("settings_changed", setting="home_airport", value="JFK")
        repo.audit("key_changed", provider="openweathermap")
        repo.trips.delete(trip.trip_id)
    with store.org(org_a) as repo:
        log = list(reversed(repo.audit_log()))
    assert [e.action for e in log] == ["trip_created", "trip_renamed", "version_saved", "exported",
                                       "settings_changed", "key_changed", "trip_deleted"]
    assert all(e.user_id == org_a.user_id and e.org_id == org_a.org_id and e.ts >= started for e in log)
    assert log[1].detail == {"old_name": "Audit me", "new_name": "Audited"} and log[2].detail == {"number": 1}
    with store.org(org_b) as repo:
        assert repo.audit_log() == []


@pytest.mark.parametrize("key", ["password", "api_key", "remember_token", "secret", "password_hash"])
def test_audit_detail_refuses_secret_fields(store, org_a, key):
    with pytest.raises(ValueError, match="secrets"), store.org(org_a) as repo:
        repo.audit("key_changed", **{key: "hunter2"})
    with store.org(org_a) as repo:
        assert repo.audit_log() == []  # nothing half-written


def test_audit_entries_cannot_be_edited_or_deleted_through_the_orm(store, org_a):
    with store.org(org_a) as repo:
        repo.audit("settings_changed", setting="theme")
    for change in (lambda s, e: s.delete(e), lambda s, e: setattr(e, "action", "rewritten")):
        with pytest.raises(StoreError), store.org(org_a) as repo:
            entry = repo.session.scalars(select(AuditEntry)).one()
            change(repo.session, entry)
            repo.session.flush()
    with store.org(org_a) as repo:
        assert [e.action for e in repo.audit_log()] == ["settings_changed"]


def _backdate(store, ctx, model, pk, **values):
    with store.org(ctx) as repo:
        row = repo.session.get(model, pk)
        for name, value in values.items():
            setattr(row, name, value)


def test_retention_prunes_backdated_rows_and_keeps_the_rest(store, accounts, org_a, org_b, itinerary):
    now = datetime.now(timezone.utc)
    result = planned()
    with store.org(org_a) as repo:
        for run_id in ("fresh", "two-days", "old"):
            repo.runs.start(intent=paris_intent(), trace_id="t", run_id=run_id)
            repo.runs.finish(run_id, "completed", tool_log=[{"tool": "flights"}])
        repo.runs.record_events("old", result.events[:3])
        gone, kept = repo.trips.create("deleted long ago"), repo.trips.create("deleted lately")
        repo.versions.save(gone.trip_id, itinerary)
        repo.trips.delete(gone.trip_id)
        repo.trips.delete(kept.trip_id)
        repo.tool_cache.put("live", "fx", {"r": 1}, timedelta(hours=1))
        repo.tool_cache.put("stale", "fx", {"r": 1}, timedelta(hours=-1))
        repo.idempotency.claim("expired-key", ttl=timedelta(hours=-25))
        repo.idempotency.claim("recent-key", ttl=timedelta(hours=-1))
        audit_count = len(repo.audit_log())
    _backdate(store, org_a, AgentRun, "two-days", created_at=now - timedelta(days=2))
    _backdate(store, org_a, AgentRun, "old", created_at=now - timedelta(days=31))
    _backdate(store, org_a, Trip, gone.trip_id, deleted_at=now - timedelta(days=91))
    _backdate(store, org_a, Trip, kept.trip_id, deleted_at=now - timedelta(days=10))
    accounts.login("alice@a.example", PASSWORD, remember=True)
    with store.system() as s:
        for token in s.scalars(select(RememberToken)):
            token.expires_at = now - timedelta(seconds=1)

    report = prune(store, now)

    assert (report.tool_logs, report.runs, report.idempotency, report.tool_cache, report.remember_tokens,
            report.trips) == (1, 1, 1, 1, 1, 1)
    with store.org(org_a) as repo:
        assert repo.runs.detail("fresh").tool_log == [{"tool": "flights"}]
        assert repo.runs.detail("two-days").tool_log is None  # the row stays, the heavy log goes
        assert [r.run_id for r in repo.runs.running()] == [] and repo.session.get(AgentRun, "old") is None
        assert repo.session.scalars(select(RunEvent)).all() == []  # cascaded with the old run
        assert {t.name for t in repo.trips.list(include_deleted=True)} == {"deleted lately"}
        assert repo.session.scalars(select(ItineraryVersion)).all() == []  # purged with its trip
        assert repo.tool_cache.get("live") == {"r": 1}
        assert repo.session.get(ToolCacheEntry, {"cache_key": "stale", "org_id": org_a.org_id}) is None
        assert repo.idempotency.lookup("recent-key") is None  # expired, but kept for 24 h
        assert repo.session.get(Idempotency, {"key": "recent-key", "org_id": org_a.org_id}) is not None
        assert repo.session.get(Idempotency, {"key": "expired-key", "org_id": org_a.org_id}) is None
        assert len(repo.audit_log()) >= audit_count  # the audit log is never pruned
    assert prune(store, now) == type(report)(0, 0, 0, 0, 0, 0)


def test_a_run_that_made_a_saved_version_outlives_retention_with_its_events(store, org_a, itinerary):
    """Seed §9.4 / SPEC_DECISIONS §2.10: reopening an old version still shows the run behind it."""
    now = datetime.now(timezone.utc)
    result = planned()
    with store.org(org_a) as repo:
        trip = repo.trips.create("kept history")
        for run_id in ("made-v1", "made-nothing"):
            repo.runs.start(intent=paris_intent(), trace_id="t", run_id=run_id)
            repo.runs.record_events(run_id, result.events[:3])
            repo.runs.finish(run_id, "completed", tool_log=[{"tool": "flights"}])
        repo.versions.save(trip.trip_id, itinerary, run_id="made-v1")
    for run_id in ("made-v1", "made-nothing"):
        _backdate(store, org_a, AgentRun, run_id, created_at=now - timedelta(days=45))

    report = prune(store, now)

    assert report.runs == 1
    with store.org(org_a) as repo:
        assert repo.session.get(AgentRun, "made-nothing") is None
        kept = repo.runs.detail("made-v1")
        assert kept.tool_log is None  # the heavy log still goes after 24 h
        events = repo.session.scalars(select(RunEvent).where(RunEvent.run_id == "made-v1")).all()
        assert len(events) == 3
    # Once its trip is purged, the version goes and the run with it.
    with store.org(org_a) as repo:
        repo.trips.delete(trip.trip_id)
    _backdate(store, org_a, Trip, trip.trip_id, deleted_at=now - timedelta(days=91))
    assert prune(store, now).runs == 1
    with store.org(org_a) as repo:
        assert repo.session.get(AgentRun, "made-v1") is None
