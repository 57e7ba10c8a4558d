"""The planner node of a model-assisted road trip (``plan --llm``): the corridor and its candidate
towns and sights first, then the model's proposal (node ``draft``, re-asked once from the
``corridor`` checkpoint when rejected — seed 002 §5.5, seed 000 §6), then the deterministic planner
around the proposed nights. A proposal the planner still cannot take → its own nights, with a
note; an unavailable model → the rule-based plan, as for city trips."""

from __future__ import annotations

import time

import structlog

from engine.errors import InputError
from engine.models import EventStatus
from engine.roadtrip.planner import RoadTripPlanner

from .draft_stage import usage_of


async def drafted_road_plan(run, planner: RoadTripPlanner, key: str):
    """``planner``: the run's, on the trip's resolved corridor (a fork plans without the proposal)."""
    emitter, cancel, drafter, checkpoints = run.emitter, run.cancel, run.drafter, run.checkpoints
    cancel.raise_if_cancelled()
    started = time.perf_counter()
    intent = planner.asked
    with structlog.contextvars.bound_contextvars(node="planner"):
        emitter.emit("planner", EventStatus.started, args_digest=key)
        candidates = planner.prepare()
        checkpoints.save("corridor", key, {"intent": intent.model_dump(mode="json")})
    with structlog.contextvars.bound_contextvars(node="draft"):
        draft = await _draft(emitter, cancel, drafter, candidates, checkpoints)
    with structlog.contextvars.bound_contextvars(node="planner"):
        plan = _plan(emitter, planner, draft)
        emitter.emit("planner", EventStatus.completed, args_digest=key, cache_hit=False,
                     duration_ms=int((time.perf_counter() - started) * 1000),
                     note=f"{len(plan.days)} overnight stops along {plan.corridor.name}")
    return plan


async def _draft(emitter, cancel, drafter, candidates, checkpoints):
    emitter.emit("draft", EventStatus.started, fraction=0.1,
                 note=f"asking {drafter.client.config.model} for nights among {len(candidates.towns)} towns")
    started = time.perf_counter()

    def rejected(errors: list[str]) -> None:
        last = checkpoints.last()
        emitter.emit("draft", EventStatus.running, fraction=0.4,
                     note=f"answer rejected ({len(errors)} problem(s): {errors[0]}); rolled back to checkpoint "
                          f"'{last.node if last else 'corridor'}', re-asking once")

    first_call = len(drafter.client.meter.calls)
    # A cancel meanwhile cancels the model's HTTP request itself.
    draft = await cancel.interruptible(drafter(candidates, on_reject=rejected))
    ms = int((time.perf_counter() - started) * 1000)
    if draft is None:
        emitter.emit("draft", EventStatus.completed, duration_ms=ms, fraction=0.8,
                     note=f"model unavailable ({drafter.warning}); rule-based plan")
        return None
    meter = drafter.client.meter
    cost = f"${meter.cost_usd:.4f}" if meter.priced else "cost unknown (model not priced)"
    usage = usage_of(c for c in meter.calls[first_call:] if c.node == "draft")  # the progress panel's Model cell
    emitter.emit("draft", EventStatus.completed, duration_ms=ms, fraction=0.8, usage=usage,
                 note=f"{len(draft.overnights)} night(s) and {len(draft.stops)} stop(s) proposed; "
                      f"{meter.prompt_tokens}+{meter.completion_tokens} tokens, {cost}")
    return draft


def _plan(emitter, planner, draft):
    if draft is None:
        return planner.plan()
    for note in draft.notes:  # what the planner could not take from the proposal
        emitter.emit("planner", EventStatus.running, fraction=0.9, note=note)
    try:
        return planner.plan(draft)
    except InputError as exc:
        emitter.emit("planner", EventStatus.running, fraction=0.9,
                     note=f"the proposed nights cannot be planned ({exc}); the planner's own nights instead")
        draft.notes.append(f"proposal not used: {exc}")
        return planner.fork(osm=planner.osm).plan()
