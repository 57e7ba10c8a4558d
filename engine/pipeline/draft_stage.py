"""The drafting node of a model-assisted run (``plan --llm``): after the planner's tool answers
are in (checkpoint ``tools``), the drafter proposes choices; a rejected answer rolls back to that
checkpoint and is re-asked once (seed 002 §5.5). No drafter, or an unavailable model → None: the
rule-based branches follow."""

from __future__ import annotations

import time

from engine.canonical import digest
from engine.models import EventStatus


async def draft_stage(run, inputs):
    drafter = run.drafter
    if drafter is None or not inputs.attractions or not inputs.lodgings:
        return None
    run.checkpoints.save("tools", digest(["tools", run.intent]), {"intent": run.intent.model_dump(mode="json")})
    run.emitter.emit("draft", EventStatus.started, progress=28, note=f"asking {drafter.client.config.model}")
    started = time.perf_counter()

    def rejected(errors: list[str]) -> None:
        last = run.checkpoints.last()
        run.emitter.emit("draft", EventStatus.running, progress=30,
                         note=f"answer rejected ({len(errors)} error(s): {errors[0]}); rolled back to "
                              f"checkpoint '{last.node if last else 'tools'}', re-asking once with the schema")

    # A cancel meanwhile cancels the model's HTTP request itself, not only the next node.
    choices = await run.cancel.interruptible(drafter(inputs, on_reject=rejected))
    meter = drafter.client.meter
    ms = int((time.perf_counter() - started) * 1000)
    if choices is None:
        run.emitter.emit("draft", EventStatus.completed, duration_ms=ms, progress=32,
                         note=f"model unavailable ({drafter.warning}); rule-based plan")
        return None
    cost = f"${meter.cost_usd:.4f}" if meter.priced else "cost unknown (model not priced)"
    run.emitter.emit("draft", EventStatus.completed, duration_ms=ms, progress=32,
                     note=f"{len(choices.days)} day(s) proposed; {meter.prompt_tokens}+{meter.completion_tokens} "
                          f"tokens, {cost}")
    return choices
