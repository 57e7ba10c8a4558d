"""Model steps that run before the pipeline has a run (``plan --llm``'s intent extraction, the chat
brief): each is recorded as the events of its node — started, then completed with its tokens and
cost (``model_usage``), or completed with a note naming why it fell back — kept in the session's
``early_events`` so the next run's stream (``--events``, the progress panel) starts with them."""

from __future__ import annotations

import time

from engine.errors import ModelOutputError, ModelUnavailable
from engine.models import EventStatus
from engine.pipeline.draft_stage import usage_note, usage_of
from engine.pipeline.events import EarlyEvent


class EarlyNode:
    """One model node's events: ``async with EarlyNode(events, client, "extract") as node``; a
    rejected first answer is a ``running`` note; the node's calls are summed on its completion."""

    def __init__(self, events: list[EarlyEvent], client, node: str) -> None:
        self.events, self.client, self.node = events, client, node
        self.fallback: str | None = None  # set by the caller: what happens when the model fails
        self.why_not: str | None = None  # set by a caller whose step failed without raising (the brief)

    def rejected(self, errors: list[str]) -> None:
        self.events.append(EarlyEvent(self.node, EventStatus.running, note=(
            f"answer rejected ({len(errors)} error(s): {errors[0]}); re-asking once with the schema")))

    async def __aenter__(self) -> "EarlyNode":
        self._first = len(self.client.meter.calls)
        self._started = time.perf_counter()
        self.events.append(EarlyEvent(self.node, EventStatus.started, note=f"asking {self.client.config.model}"))
        return self

    async def __aexit__(self, kind, exc, _tb) -> bool:
        ms = int((time.perf_counter() - self._started) * 1000)
        usage = usage_of(self.client.meter.calls[self._first:])
        if isinstance(exc, ModelOutputError):
            self.events.append(EarlyEvent(self.node, EventStatus.error, duration_ms=ms, usage=usage,
                                          note=f"{exc.reason}: {exc}", reason=exc.reason))
        elif isinstance(exc, ModelUnavailable):
            self.failed(f"model unavailable ({exc.reason})", ms, usage)
        elif exc is None and self.why_not:
            self.failed(self.why_not, ms, usage)
        elif exc is None:
            note = f"{usage.model}: {usage_note(usage)}" if usage else "nothing to ask"
            self.events.append(EarlyEvent(self.node, EventStatus.completed, duration_ms=ms, usage=usage, note=note))
        return False

    def failed(self, why: str, ms: int | None = None, usage=None) -> None:
        """The node's completion when the model could not help: the note names why and what follows."""
        if ms is None:
            ms = int((time.perf_counter() - self._started) * 1000)
            usage = usage_of(self.client.meter.calls[self._first:])
        note = f"{why}; {self.fallback}" if self.fallback else why
        self.events.append(EarlyEvent(self.node, EventStatus.completed, duration_ms=ms, usage=usage, note=note))


async def brief_with_events(events: list[EarlyEvent], client, messages, *, window):
    """The chat brief as a ``summarize_chat`` node: a failure is a note (and a log line) and
    generation goes on without the brief."""
    from . import chat_brief
    if not messages:  # no chat, no call, no node
        return await chat_brief.summarize_planning_chat(client, messages, window=window)
    node = EarlyNode(events, client, "summarize_chat")
    node.fallback = "generating without the brief"
    async with node:
        brief, meta = await chat_brief.summarize_planning_chat(client, messages, window=window)
        if brief is None:
            node.why_not = ("no message in the brief's window" if not meta["chatBriefMessageCount"]
                            else "the chat brief failed (logged)")
    return brief, meta
