"""The in-process stream guarantees (seed §8.2 via SPEC_DECISIONS §1)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from engine.models import EventStatus, StreamEvent
from engine.pipeline import ThrottledStream, replay_after

T0 = datetime(2027, 1, 1, tzinfo=timezone.utc)


def event(seq: int, status: EventStatus = EventStatus.running) -> StreamEvent:
    return StreamEvent(trace_id="t", run_id="r", seq=seq, node="planner", status=status,
                       ts=T0 + timedelta(milliseconds=seq), args_digest="0" * 64)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_burst_of_twenty_then_ten_per_second() -> None:
    clock = Clock()
    stream = ThrottledStream(clock=clock)
    for i in range(60):
        stream.push(event(i))
    assert len(stream.pop_ready()) == 20
    assert stream.pop_ready() == []
    clock.now = 1.0
    assert [e.seq for e in stream.pop_ready()] == list(range(20, 30))
    clock.now = 10.0
    assert len(stream.pop_ready()) == 20  # the bucket refills to the burst, not beyond


def test_overflow_drops_oldest_non_critical_first() -> None:
    stream = ThrottledStream(capacity=200, clock=Clock())
    stream.push(event(0, EventStatus.started))
    for i in range(1, 251):
        stream.push(event(i))
    assert len(stream) == 200 and stream.dropped == 51
    kept = stream.pop_ready()
    assert kept[0].seq == 0  # the critical "started" survived
    assert kept[1].seq == 52


def test_replay_after_timestamp() -> None:
    events = [event(i) for i in range(10)]
    assert [e.seq for e in replay_after(events, events[6].ts)] == [7, 8, 9]
    assert replay_after(events, None) == events


def test_an_infeasible_run_says_why_in_its_error_event() -> None:
    """Additive ``reason`` on error events (seed 002 §5.5 names ``invalid_model_output``; an
    infeasible plan says ``infeasible_plan``); every other event has none."""
    import asyncio
    from engine.catalog import default_catalog
    from engine.models import IntentV1
    from engine.pipeline import PlanningSession
    from .conftest import PARIS_DEMO, TODAY
    intent = IntentV1.model_validate({**PARIS_DEMO, "budget_usd_cents": 10_000})
    result = asyncio.run(PlanningSession(default_catalog(), today=TODAY).plan(intent))
    assert result.status == "error"
    [error] = [e for e in result.events if e.status is EventStatus.error]
    assert error.reason == "infeasible_plan" and error.decision_note.startswith("Unable to meet budget")
    assert all(e.reason is None for e in result.events if e is not error)
    assert StreamEvent.model_validate_json(error.model_dump_json()).reason == "infeasible_plan"


def test_a_heartbeat_repeats_the_run_s_progress_and_node() -> None:
    """Issue 34 §5: a heartbeat carried progress 0, so on a busy machine (a node over a second) the
    stream's progress went back mid-run; it now repeats the highest progress so far."""
    from engine.pipeline.events import EventEmitter

    emitter = EventEmitter("t" * 32, "run-beats", heartbeat_s=None)  # beats by hand, no thread
    emitter.enter(10, 40)  # a stage that owns 10-50 % of the bar
    emitter.emit("planner", EventStatus.started)
    emitter.emit("planner", EventStatus.running, fraction=0.75)
    beat = emitter.beat()
    assert beat is not None and (beat.node, beat.status, beat.progress_pct) == ("planner", EventStatus.heartbeat, 40)
    emitter.enter(70, 20)
    emitter.emit("verifier", EventStatus.started)
    assert emitter.beat().progress_pct == 70
    emitter.close()
