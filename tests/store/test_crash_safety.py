"""Crash safety: SIGKILL a process in the middle of saving versions, many times; the database
always opens, passes its integrity check and holds whole versions only (old or new, never half)."""

from __future__ import annotations

import json
import multiprocessing
import random
import time

import pytest

from engine.store import Store

from . import crash_worker

KILLS = 15


@pytest.fixture(scope="module")
def forkserver():
    """Children fork from a server that imported the store once: ~10 ms per child, not ~1 s."""
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["tests.store.crash_worker"])
    return ctx


def _wait_for(counter, at_least: int, timeout_s: float = 20.0) -> None:
    deadline = time.monotonic() + timeout_s
    while counter.value < at_least:
        if time.monotonic() > deadline:
            raise AssertionError("the worker did not save in time")
        time.sleep(0.0005)


def test_sigkill_while_saving_leaves_old_or_new_versions_only(db_url, accounts_for, itinerary, tmp_path, forkserver):
    store, ctx = accounts_for(db_url)
    with store.org(ctx) as repo:
        trip = repo.trips.create("Crash test")
    store.close()
    doc = itinerary.model_dump(mode="json")
    doc_path = tmp_path / "itinerary.json"
    doc_path.write_text(json.dumps(doc), encoding="utf-8")
    rng = random.Random(4)
    durable = 0
    for _ in range(KILLS):
        saved = forkserver.Value("i", 0)
        child = forkserver.Process(target=crash_worker.save_forever,
                                   args=(db_url, ctx.org_id, ctx.user_id, trip.trip_id, str(doc_path), saved))
        child.start()
        _wait_for(saved, rng.randint(1, 3))
        time.sleep(rng.uniform(0, 0.004))  # land somewhere inside a save
        child.kill()  # SIGKILL: no cleanup, no rollback by the process
        child.join(10)
        assert child.exitcode == -9
        durable += saved.value
        with Store.open(db_url) as reopened:
            assert reopened.integrity() == "ok"
            with reopened.org(ctx) as repo:
                versions = repo.versions.list(trip.trip_id)
                numbers = [v.number for v in versions]
                assert numbers == list(range(1, len(numbers) + 1))
                assert repo.trips.get(trip.trip_id).version_count == len(numbers)
                assert durable <= len(numbers) <= durable + 1  # committed saves survive; at most one more
                durable = len(numbers)
                assert repo.versions.get(trip.trip_id).itinerary == doc  # the newest is whole
    assert durable >= KILLS
