"""PlanRecorder: a real planning run recorded live (events, status, version with its plan), the
same request reused within the TTL, failed and cancelled runs freeing their claim, orphans."""

from __future__ import annotations

import asyncio
import threading
from datetime import date, timedelta

import pytest

from engine.cancel import CancelToken
from engine.errors import InputError, PlanCancelled, StoreError, VersionCapError
from engine.models import EventStatus, IntentV1, RoadTripIntent
from engine.pipeline import PlanningSession
from engine.store import PlanRecorder, RunTicket
from engine.store.recorder import plan_idempotency_key
from engine.store.records import trip_name_for
from engine.store.runs import Runs

from .conftest import PARIS, paris_intent, run_together

_SESSION: list[PlanningSession] = []
LLM = {"model": "gpt-4o-mini", "prompt_tokens": 812}


def session() -> PlanningSession:
    if not _SESSION:
        _SESSION.append(PlanningSession(today=date(2026, 11, 23)))
    return _SESSION[0]


def plan(recorder: PlanRecorder, ticket: RunTicket, intent=None, cancel: CancelToken | None = None):
    return asyncio.run(session().plan(intent or paris_intent(), cancel=cancel,
                                      on_event=lambda e: recorder.event(ticket, e)))


def _all_runs(repo):
    from sqlalchemy import select

    from engine.store.schema import AgentRun
    return repo.session.scalars(select(AgentRun.run_id)).all()


def test_a_live_run_is_recorded_replayable_and_saved_with_its_plan(store, org_a):
    recorder = PlanRecorder(store, org_a, flush_every=5)
    ticket = recorder.begin(paris_intent())
    assert ticket.owned and ticket.created_trip
    with store.org(org_a) as repo:  # the trip exists while it is being planned
        assert repo.runs.status(ticket.run_id).status == "running"
        assert [(t.trip_id, t.version_count) for t in repo.trips.list()] == [(ticket.trip_id, 0)]
    result = plan(recorder, ticket)
    summary = recorder.finish(ticket, result, note="Planned")
    assert summary is not None and summary.number == 1 and summary.run_id == ticket.run_id
    assert summary.trip_id == ticket.trip_id and ticket.version == summary
    assert ticket.recorded == len(result.events) and ticket.writes == len(result.events) // 5 + 1
    with store.org(org_a) as repo:
        trip = repo.trips.get(summary.trip_id)
        version = repo.versions.get(summary.trip_id, 1)
        status = repo.runs.status(ticket.run_id)
        replayed = repo.runs.replay(ticket.run_id)
        detail = repo.runs.detail(ticket.run_id)
    assert (trip.name, trip.mode, trip.version_count) == ("Paris, 5 days", "city", 1)
    assert version.plan_v1() == result.plan and version.itinerary_v1() == result.itinerary
    assert version.intent_v1() == paris_intent() and version.note == "Planned" and not version.llm_revision
    assert version.repairs == [r.model_dump(mode="json") for r in result.itinerary.repairs]
    assert replayed == result.events
    assert (status.status, status.progress_pct, status.trip_id) == ("completed", 100, summary.trip_id)
    assert status.trace_id == result.trace_id and status.latest_node == "responder"
    assert [c.node for c in detail.checkpoints] == [c.node for c in result.checkpoints.all()]


def test_the_same_request_within_the_ttl_reuses_the_version(store, org_a):
    recorder = PlanRecorder(store, org_a)
    first = recorder.begin(paris_intent(), request_key="today=2026-11-23")
    saved = recorder.finish(first, plan(recorder, first))
    again = recorder.begin(paris_intent(), request_key="today=2026-11-23")
    assert not again.owned and again.duplicate is not None and again.duplicate.number == saved.number
    assert again.trip_id == saved.trip_id and again.run_id == first.run_id
    same_trip = recorder.begin(paris_intent(), trip_id=saved.trip_id, request_key="today=2026-11-23")
    assert same_trip.owned  # "add a version to this trip" is another request than "a new trip"
    second = recorder.finish(same_trip, plan(recorder, same_trip))
    repeat = recorder.begin(paris_intent(), trip_id=saved.trip_id, request_key="today=2026-11-23")
    assert repeat.duplicate is not None and repeat.duplicate.number == second.number == 2
    other_day = recorder.begin(paris_intent(), trip_id=saved.trip_id, request_key="today=2026-11-24")
    assert other_day.owned
    with store.org(org_a) as repo:
        assert len(_all_runs(repo)) == 3 and len(repo.trips.list()) == 1
    with pytest.raises(InputError):
        recorder.finish(repeat, plan(recorder, other_day))  # a duplicate has no run to finish


def test_a_request_in_flight_is_a_pending_duplicate(store, org_a):
    recorder = PlanRecorder(store, org_a)
    first = recorder.begin(paris_intent())
    pending = recorder.begin(paris_intent())
    assert pending.duplicate_pending and pending.run_id == first.run_id and not pending.owned
    assert pending.trip_id == first.trip_id is not None
    recorder.finish(first, plan(recorder, first))
    assert recorder.begin(paris_intent()).duplicate is not None


def test_a_cancelled_run_leaves_no_version_and_a_retry_plans_again(store, org_a):
    recorder = PlanRecorder(store, org_a, flush_every=1)
    cancel = CancelToken()
    cancel.cancel()
    ticket = recorder.begin(paris_intent())
    result = plan(recorder, ticket, cancel=cancel)
    assert result.status == "cancelled" and recorder.finish(ticket, result) is None
    with store.org(org_a) as repo:
        status = repo.runs.status(ticket.run_id)
        assert status.status == "cancelled" and status.trip_id is None  # kept, detached
        assert repo.trips.list(include_deleted=True) == []  # the new trip went again
        assert repo.runs.replay(ticket.run_id) == result.events
        assert [e.action for e in repo.audit_log()][:2] == ["trip_discarded", "trip_created"]
    retry = recorder.begin(paris_intent())
    assert retry.owned and retry.run_id != ticket.run_id
    assert recorder.finish(retry, plan(recorder, retry)).number == 1
    with store.org(org_a) as repo:
        assert len(repo.trips.list()) == 1


def test_abandoning_keeps_an_existing_trip_and_its_versions(store, org_a, itinerary):
    recorder = PlanRecorder(store, org_a)
    with store.org(org_a) as repo:
        trip = repo.trips.create("Kept").trip_id
        repo.versions.save(trip, itinerary)
    ticket = recorder.begin(paris_intent(), trip_id=trip)
    superseded = plan(recorder, ticket)  # completed, but a newer run replaced it
    recorder.abandon(ticket, superseded)
    with store.org(org_a) as repo:
        status = repo.runs.status(ticket.run_id)
        assert (status.status, status.trip_id) == ("cancelled", trip) and "superseded" in status.error_message
        assert repo.trips.get(trip).version_count == 1
    assert recorder.begin(paris_intent(), trip_id=trip).owned


def test_an_infeasible_plan_records_the_failure_and_frees_the_claim(store, org_a):
    recorder = PlanRecorder(store, org_a)
    poor = IntentV1.model_validate(PARIS | {"budget_usd_cents": 100000})
    ticket = recorder.begin(poor)
    result = plan(recorder, ticket, intent=poor)
    assert result.status == "error" and recorder.finish(ticket, result) is None
    with store.org(org_a) as repo:
        status = repo.runs.status(ticket.run_id)
    assert status.status == "error" and status.error_message == result.failure.message
    assert recorder.begin(poor).owned


def test_a_run_begun_and_never_finished_is_failed_as_an_orphan(store, db_url, org_a):
    recorder = PlanRecorder(store, org_a, flush_every=2)
    ticket = recorder.begin(paris_intent())
    result = plan(recorder, ticket)  # no finish: alive while its lease is held
    with store.org(org_a) as repo:
        assert len(repo.runs.replay(ticket.run_id)) == len(result.events) // 2 * 2
        assert [r.run_id for r in repo.runs.running()] == [ticket.run_id]
        assert repo.runs.fail_orphans() == 0  # a live run is left alone
    assert recorder.begin(paris_intent()).duplicate_pending
    ticket._lease.release()  # what the OS does when the process dies (test_run_leases kills one for real)
    with store.org(org_a) as repo:
        assert repo.runs.fail_orphans() == 1
    with store.org(org_a) as repo:
        status = repo.runs.status(ticket.run_id)
        assert status.status == "error" and "interrupted" in status.error_message
    assert recorder.begin(paris_intent()).owned  # the orphan's claim was freed with it


def test_abandon_closes_a_run_that_raised(store, org_a):
    recorder = PlanRecorder(store, org_a)
    ticket = recorder.begin(paris_intent())
    recorder.event(ticket, asyncio.run(session().plan(paris_intent())).events[0])
    recorder.abandon(ticket, None, error="boom\nsecond line")
    with store.org(org_a) as repo:
        status = repo.runs.status(ticket.run_id)
        assert status.status == "error" and status.error_message == "boom second line"
        assert len(repo.runs.replay(ticket.run_id)) == 1
    with pytest.raises(InputError, match="already finished"):
        recorder.abandon(ticket, None)


def test_batches_written_by_the_caller(store, org_a, monkeypatch):
    """The app batches events on the GUI thread and writes each batch from a worker."""
    recorder = PlanRecorder(store, org_a)
    ticket = recorder.begin(paris_intent())
    result = asyncio.run(session().plan(paris_intent()))
    recorder.record_events(ticket, result.events[:6])
    with store.org(org_a) as repo:
        assert repo.runs.replay(ticket.run_id) == result.events[:6]
    monkeypatch.setattr(Runs, "record_events", _refuse)
    with pytest.raises(StoreError):
        recorder.record_events(ticket, result.events[6:10])  # kept for finish
    monkeypatch.undo()
    recorder.record_events(ticket, result.events[10:12])
    recorder.finish(ticket, result)
    with store.org(org_a) as repo:
        assert repo.runs.replay(ticket.run_id) == result.events
    assert ticket.recorded == len(result.events)


def _refuse(self, run_id, events, **kw):
    raise StoreError("the database is locked by another program")


def test_an_llm_revision_past_the_cap_fails_its_run_and_saves_nothing(store, org_a, itinerary, monkeypatch):
    monkeypatch.setenv("TRIPWRIGHT_MAX_VERSIONS", "1")
    recorder = PlanRecorder(store, org_a)
    with store.org(org_a) as repo:
        trip = repo.trips.create("Capped").trip_id
        repo.versions.save(trip, itinerary, llm_meta=LLM)
    with pytest.raises(VersionCapError):
        recorder.begin(paris_intent(), trip_id=trip, llm_revision=True)  # refused before planning
    ticket = recorder.begin(paris_intent(), trip_id=trip)
    with pytest.raises(VersionCapError):
        recorder.finish(ticket, plan(recorder, ticket), llm_meta=LLM)
    with store.org(org_a) as repo:
        status = repo.runs.status(ticket.run_id)
        assert status.status == "error" and "TRIPWRIGHT_MAX_VERSIONS" in status.error_message
        assert [v.number for v in repo.versions.list(trip)] == [1]
    retry = recorder.begin(paris_intent(), trip_id=trip)
    assert recorder.finish(retry, plan(recorder, retry)).number == 2  # a deterministic re-plan is fine


def test_begin_refuses_an_unknown_trip_before_claiming(store, org_a, org_b):
    with store.org(org_b) as repo:
        theirs = repo.trips.create("Theirs").trip_id
    recorder = PlanRecorder(store, org_a)
    for trip_id in ("no-such-trip", theirs):
        with pytest.raises(InputError) as err:
            recorder.begin(paris_intent(), trip_id=trip_id)
        assert err.value.field == "trip"
    with store.org(org_a) as repo:
        assert repo.idempotency.lookup(plan_idempotency_key("no-such-trip", paris_intent())) is None


def test_a_refused_flush_keeps_its_events_for_the_next_write(store, org_a, monkeypatch):
    recorder = PlanRecorder(store, org_a, flush_every=3)
    ticket = recorder.begin(paris_intent())
    real = Runs.record_events
    calls = {"n": 0}

    def flaky(self, run_id, events, **kw):
        calls["n"] += 1
        if calls["n"] == 1:
            raise StoreError("the database is locked by another program")
        return real(self, run_id, events, **kw)

    monkeypatch.setattr(Runs, "record_events", flaky)
    result = plan(recorder, ticket)  # the first flush fails: the plan carries on
    recorder.finish(ticket, result)
    with store.org(org_a) as repo:
        assert repo.runs.replay(ticket.run_id) == result.events


def test_recording_from_a_worker_thread_while_another_thread_reads(store, org_a):
    """The app's shape: the plan runs in a worker thread, the GUI thread polls the run."""
    recorder = PlanRecorder(store, org_a, flush_every=1)
    ticket = recorder.begin(paris_intent())
    errors: list[BaseException] = []
    done = threading.Event()
    out = {}

    def worker() -> None:
        try:
            out["summary"] = recorder.finish(ticket, plan(recorder, ticket))
        except BaseException as exc:  # noqa: BLE001 (asserted below)
            errors.append(exc)
        finally:
            done.set()

    thread = threading.Thread(target=worker)
    thread.start()
    seen = set()
    while not done.is_set():
        with store.org(org_a) as repo:
            seen.add(repo.runs.status(ticket.run_id).progress_pct)
            repo.trips.list()
    thread.join(60)
    assert errors == [] and out["summary"].number == 1 and seen <= set(range(101))


def test_identical_requests_at_once_start_exactly_one_run(store, org_a):
    recorder = PlanRecorder(store, org_a)
    tickets: list[RunTicket] = []
    assert run_together(lambda: tickets.append(recorder.begin(paris_intent())), 6) == []
    owned = [t for t in tickets if t.owned]
    assert len(owned) == 1 and all(t.duplicate_pending and t.run_id == owned[0].run_id
                                   for t in tickets if not t.owned)


def test_an_expired_claim_is_planned_again(store, org_a):
    recorder = PlanRecorder(store, org_a, ttl=timedelta(seconds=-1))
    first = recorder.begin(paris_intent())
    recorder.finish(first, plan(recorder, first))
    assert recorder.begin(paris_intent()).owned


def test_trip_names_from_the_intent():
    road = RoadTripIntent(origin="Los Angeles", terminus="Chicago", days=7, start_date=date(2027, 5, 3),
                          route="Route 66")
    assert trip_name_for(paris_intent()) == "Paris, 5 days"
    assert trip_name_for(road) == "Los Angeles → Chicago via Route 66, 7 days"
    assert trip_name_for(road.model_copy(update={"route": None})) == "Los Angeles → Chicago, 7 days"
    same = plan_idempotency_key(None, paris_intent())
    assert same == plan_idempotency_key(None, IntentV1.model_validate(PARIS))
    assert same != plan_idempotency_key("trip-1", paris_intent()) != plan_idempotency_key(None, paris_intent(), "x")


def test_begin_takes_intent_json_and_refuses_a_bad_name_before_planning(store, org_a):
    recorder = PlanRecorder(store, org_a)
    ticket = recorder.begin(PARIS, trip_name="  Paris with the kids ")
    with store.org(org_a) as repo:
        assert ticket.intent == paris_intent() and repo.trips.get(ticket.trip_id).name == "Paris with the kids"
    assert ticket.key == plan_idempotency_key(None, paris_intent())
    for bad in ("", "line\nbreak", "x" * 201):
        with pytest.raises(InputError) as err:
            recorder.begin(paris_intent(), trip_name=bad, request_key="other")
        assert err.value.field == "name"
    with store.org(org_a) as repo:
        assert len(repo.trips.list()) == 1 and len(_all_runs(repo)) == 1  # nothing was written
    with pytest.raises(ValueError):
        recorder.begin({"city": "Paris"})


@pytest.mark.parametrize("at", ["intent_extractor", "planner"])  # the run's first event; one mid-run
def test_a_run_cancelled_from_its_event_callback_stops_and_saves_nothing(store, org_a, at):
    recorder = PlanRecorder(store, org_a, flush_every=1)
    ticket = recorder.begin(paris_intent())
    seen = []

    def on_event(event):
        recorder.event(ticket, event)
        seen.append((event.node, event.status))
        if event.node == at and event.status is EventStatus.started:
            raise PlanCancelled("the traveller pressed Cancel")

    result = asyncio.run(PlanningSession(today=date(2026, 11, 23)).plan(paris_intent(), on_event=on_event))
    assert result.status == "cancelled" and result.itinerary is None and result.plan is None
    assert seen[-1] == ("responder", EventStatus.cancelled) and (at, EventStatus.started) in seen
    assert not {"selector", "verifier", "synthesizer"} & {node for node, _ in seen}  # later stages never ran
    assert recorder.finish(ticket, result) is None
    with store.org(org_a) as repo:
        assert repo.runs.status(ticket.run_id).status == "cancelled"
        assert repo.trips.list(include_deleted=True) == []  # the trip made for it is gone, no version
        assert repo.runs.replay(ticket.run_id) == result.events
