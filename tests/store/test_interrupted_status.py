"""The stored status the app shows after a restart: a run left ``running`` by a dead process is
failed as interrupted, and its last progress time is the last event it recorded (both backends)."""

from __future__ import annotations

from engine.store import PlanRecorder

from .conftest import paris_intent, planned


def test_an_orphaned_run_is_interrupted_at_its_last_recorded_event(db_url, accounts_for):
    store, ctx = accounts_for(db_url)
    recorder = PlanRecorder(store, ctx)
    ticket = recorder.begin(paris_intent())
    events = [e.model_copy(update={"run_id": ticket.run_id}) for e in planned().events[:4]]
    recorder.record_events(ticket, events)
    ticket._lease.release()  # the process died (tests/store/test_run_leases.py kills one for real)
    with store.org(ctx, write=True) as repo:
        assert repo.runs.fail_orphans() == 1
    with store.org(ctx) as repo:
        run = repo.runs.status(ticket.run_id)
        assert run.interrupted and run.latest_node == events[-1].node
        assert repo.runs.last_event_at(ticket.run_id) == max(e.ts for e in events)


def test_a_finished_or_failed_run_is_not_interrupted(db_url, accounts_for):
    store, ctx = accounts_for(db_url)
    recorder = PlanRecorder(store, ctx)
    ticket = recorder.begin(paris_intent())
    recorder.abandon(ticket, error="Unable to meet budget constraint")
    with store.org(ctx) as repo:
        run = repo.runs.status(ticket.run_id)
        assert run.status in ("error", "cancelled") and not run.interrupted
        assert repo.runs.last_event_at(ticket.run_id) is None
