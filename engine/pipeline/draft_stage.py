"""The drafting node of a model-assisted run (``plan --llm``, ``revise``): after the planner's tool
answers are in (checkpoint ``tools``), the drafter proposes choices; a rejected answer rolls back to
that checkpoint and is re-asked once (seed 002 §5.5). No drafter, or an unavailable model → None:
the rule-based branches follow. Every model call is on an event with its tokens and cost
(``model_usage``): the draft's calls on the ``draft`` node's completion, a revision's
``summarize`` and ``revise`` calls each on an event of their own."""

from __future__ import annotations

import time

from engine.canonical import digest
from engine.models import EventStatus, ModelUsage


def usage_of(calls) -> ModelUsage | None:
    """The calls' figures together (cost None when one of them is not priced)."""
    calls = list(calls)
    if not calls:
        return None
    costs = [c.cost_usd for c in calls]
    return ModelUsage(model=calls[-1].model, prompt_tokens=sum(c.prompt_tokens for c in calls),
                      completion_tokens=sum(c.completion_tokens for c in calls),
                      cost_usd=None if None in costs else round(sum(costs), 6))


def usage_note(usage: ModelUsage) -> str:
    cost = f"${usage.cost_usd:.4f}" if usage.cost_usd is not None else "cost unknown (model not priced)"
    return f"{usage.prompt_tokens}+{usage.completion_tokens} tokens, {cost}"


async def draft_stage(run, inputs):
    drafter = run.drafter
    if drafter is None or not inputs.attractions or not inputs.lodgings:
        return None
    run.checkpoints.save("tools", digest(["tools", run.intent]), {"intent": run.intent.model_dump(mode="json")})
    run.emitter.emit("draft", EventStatus.started, note=f"asking {drafter.client.config.model}")
    started = time.perf_counter()

    def rejected(errors: list[str]) -> None:
        last = run.checkpoints.last()
        run.emitter.emit("draft", EventStatus.running, fraction=0.5,
                         note=f"answer rejected ({len(errors)} error(s): {errors[0]}); rolled back to "
                              f"checkpoint '{last.node if last else 'tools'}', re-asking once with the schema")

    def answered(call) -> None:  # summarize / revise: one event per call
        if call.node != "draft":
            usage = usage_of([call])
            run.emitter.emit(call.node, EventStatus.completed, duration_ms=call.duration_ms, fraction=0.5,
                             note=f"{call.model}: {usage_note(usage)}", usage=usage)

    client = drafter.client
    first_call = len(client.meter.calls)
    client.on_call = answered
    try:
        # A cancel meanwhile cancels the model's HTTP request itself, not only the next node.
        choices = await run.cancel.interruptible(drafter(inputs, on_reject=rejected))
    finally:
        client.on_call = None
    run.cancel.raise_if_cancelled()
    meter = client.meter
    ms = int((time.perf_counter() - started) * 1000)
    if choices is None:
        run.emitter.emit("draft", EventStatus.completed, duration_ms=ms,
                         note=f"model unavailable ({drafter.warning}); rule-based plan")
        return None
    drafted = usage_of(c for c in meter.calls[first_call:] if c.node == "draft")
    cost = f"${meter.cost_usd:.4f}" if meter.priced else "cost unknown (model not priced)"
    run.emitter.emit("draft", EventStatus.completed, duration_ms=ms, usage=drafted,
                     note=f"{len(choices.days)} day(s) proposed; {meter.prompt_tokens}+{meter.completion_tokens} "
                          f"tokens, {cost}")
    return choices
