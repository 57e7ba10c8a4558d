"""Child process for the crash-safety test: saves versions in a loop until it is SIGKILLed."""

from __future__ import annotations

import json
from typing import Any

from engine.store import OrgContext, Store


def save_forever(url: str, org_id: str, user_id: str, trip_id: str, doc_path: str, saved: Any) -> None:
    """``saved`` (a shared counter) is bumped only after a commit returned: the parent knows
    every number up to it is durable, and at most one more can be in flight."""
    with open(doc_path, encoding="utf-8") as fh:
        doc = json.load(fh)
    ctx = OrgContext(org_id, user_id)
    store = Store.open(url)
    while True:
        with store.org(ctx) as repo:
            repo.versions.save(trip_id, doc, note="crash_worker")  # not an LLM revision: never capped
        with saved.get_lock():
            saved.value += 1


def cli_request_key(store, ctx, today: str) -> str:
    """The request key ``plan --save`` gives a run (engine/cli/run_store.plan_and_save): the
    planning date and a digest of the notes the plan may cite."""
    from engine.notes.library import NotesLibrary
    return f"today={today};notes={NotesLibrary(store, ctx).digest()}"


def begin_and_hang(url: str, org_id: str, user_id: str, intent_path: str, today: str, started: Any) -> None:
    """Begin a ``plan --save`` run exactly as the CLI would (same idempotency key), then wait to
    be killed: the run stays ``running`` and its request claimed, with this process's lease."""
    import time

    from engine.models import IntentV1
    from engine.store import PlanRecorder

    with open(intent_path, encoding="utf-8") as fh:
        intent = IntentV1.model_validate(json.load(fh))
    store = Store.open(url)
    ctx = OrgContext(org_id, user_id)
    ticket = PlanRecorder(store, ctx).begin(intent, request_key=cli_request_key(store, ctx, today))
    with started.get_lock():
        started.value = 1 if ticket.owned else -1
    while True:
        time.sleep(1)
