"""Where the CLI's runs go: the signed-in org's store (``org_scope``; the sign-in itself is
engine/frontend.py's ``signed_in``), a plan recorded as a trip's next version (``plan_and_save``)
or run without saving (``plan_unsaved``, citing the org's notes), the run on its own event loop
(``plan_with_drafter``), and the diagnostics ``tripwright diagnostics`` reads. Shared by plan,
plan --llm, revise and the trip input commands; it imports no other command."""

from __future__ import annotations

import asyncio
import os
import sys
from contextlib import ExitStack, contextmanager

import structlog

from engine.errors import InputError, TripwrightError
from engine.frontend import planned_intent, settled_result, signed_in

log = structlog.get_logger("tripwright.cli")


@contextmanager
def org_scope():
    """One transaction in the signed-in org."""
    with signed_in() as (store, ctx), store.org(ctx) as repo:
        yield repo


def plan_and_save(session, intent, *, trip_id: str | None, name: str | None, drafter=None, meta_of=None,
                  request_key: str = ""):
    """Plan ``intent`` recording the run live, and store the plan as the next version of
    ``trip_id`` (or of a new trip named ``name``). The same request (trip, intent, planning date)
    saved within the idempotency TTL is reused, not planned and saved again. Returns a PlanResult."""
    from engine.store import PlanRecorder
    from engine.tools.durable_cache import StoreToolCache
    with signed_in() as (store, ctx):
        from engine.notes.library import NotesLibrary
        from engine.notes.lookup import StoreNotesLookup  # the org's notes go into the itinerary
        session.notes = StoreNotesLookup(store, ctx)  # (a city trip's places, a road trip's stops)
        session.toolbox.executor.durable = StoreToolCache(store, ctx)  # real answers outlive the process
        session.org_id, session.user_id = ctx.org_id, ctx.user_id
        recorder = PlanRecorder(store, ctx)
        # the notes the plan may cite are part of the request: a new note is a new version
        notes = NotesLibrary(store, ctx).digest()
        ticket = recorder.begin(intent, trip_id=trip_id, trip_name=name,
                                request_key=f"today={session.today};notes={notes}{request_key}")
        if ticket.duplicate is not None:
            minutes = int(recorder.ttl.total_seconds() // 60)
            print(f"reused version {ticket.duplicate.number} of trip {ticket.trip_id}: the same request was saved "
                  f"in the last {minutes} minutes, nothing new saved", file=sys.stderr)
            return _stored_result(store, ctx, ticket)
        if ticket.duplicate_pending:
            raise InputError("trip", f"the same plan is being saved right now (run {ticket.run_id}); "
                                     "run the command again when it has finished")
        result = _plan_recorded(session, intent, recorder, ticket, drafter)
        meta = meta_of(result) if meta_of is not None and result.status == "completed" else None
        # a city the fixtures lack was asked for with placeholders: the version keeps what the run settled
        version = recorder.finish(ticket, result, intent=planned_intent(intent, result), llm_meta=meta)
        if version is not None:
            print(f"saved as version {version.number} of trip {version.trip_id}", file=sys.stderr)
        return result


def plan_unsaved(session, intent, drafter=None):
    """``plan`` without ``--save``: the itinerary cites the signed-in org's notes as with it. No
    database is created for a plan that saves nothing (no database: no notes, and nothing said);
    one that cannot be opened, or needs a sign-in nobody remembered, plans without them, saying so
    on stderr."""
    from engine.errors import StoreError
    if not os.environ.get("TRIPWRIGHT_DATABASE_URL"):  # the local file: looked at without SQLAlchemy
        from engine.store.sqlite_file import default_path, has_own_notes
        path = default_path()
        if not path.exists() or not has_own_notes(path):
            return plan_with_drafter(session, intent, drafter)  # the built-in notes need no database
    from engine.notes.lookup import StoreNotesLookup
    with ExitStack() as stack:
        try:
            store, ctx = stack.enter_context(signed_in())
        except (StoreError, InputError) as exc:
            if isinstance(exc, InputError) and exc.field != "login":
                raise
            print(f"tripwright: planned without your notes: {exc}", file=sys.stderr)
            return plan_with_drafter(session, intent, drafter)
        session.notes = StoreNotesLookup(store, ctx)
        return plan_with_drafter(session, intent, drafter)


def _plan_recorded(session, intent, recorder, ticket, drafter=None):
    """Run the pipeline with every event going to the recorder; a raise closes the run first."""
    try:
        # The run's id is the store's: its events, logs and itinerary name the stored run.
        return plan_with_drafter(session, intent, drafter, on_event=lambda e: recorder.event(ticket, e),
                                 run_id=ticket.run_id)
    except BaseException as exc:
        try:
            recorder.abandon(ticket, None, error="" if isinstance(exc, KeyboardInterrupt) else str(exc) or repr(exc))
        except TripwrightError as failed:  # the database is gone too: report the plan's error
            log.warning("run_not_closed", run_id=ticket.run_id, error=str(failed))
        raise


def _stored_result(store, ctx, ticket):
    """The saved version as a PlanResult, so ``--out``/``--gpx``/``--events`` work as for a new plan."""
    version = ticket.duplicate
    with store.org(ctx) as repo:
        try:
            events = repo.runs.replay(ticket.run_id)
        except InputError:  # the run was pruned; the version stays
            events = []
    itinerary = version.itinerary_v1()
    return settled_result(run_id=ticket.run_id or "", trace_id=itinerary.trace_id, status="completed",
                          itinerary=itinerary, plan=version.plan_v1(), events=events, reuse=1.0)


async def closing(client, coro):
    """Run ``coro`` and close the client on the same loop (each ``asyncio.run`` has its own)."""
    try:
        return await coro
    finally:
        await client.close()


def plan_with_drafter(session, intent, drafter, *, on_event=None, run_id: str | None = None):
    """The run on its own event loop; a drafter's model client is closed on that loop."""
    async def run():
        return await session.plan(intent, drafter=drafter, on_event=on_event, run_id=run_id)
    if drafter is None:
        return asyncio.run(run())
    return asyncio.run(closing(drafter.client, run()))


def save_diagnostics(session) -> None:
    """For ``tripwright diagnostics``: a failure to write it never fails the plan."""
    from engine import diagnostics
    try:
        diagnostics.save(diagnostics.collect(session.toolbox.executor, prometheus=False))
    except OSError as exc:
        log.debug("diagnostics_not_saved", error=str(exc))  # the plan's own message is what matters
