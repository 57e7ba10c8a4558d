"""Orphaned runs: a killed ``plan --save`` (a real process, SIGKILLed) no longer blocks the same
request, and a live one is never failed by another process starting up."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.store import Accounts, PlanRecorder, SecretStore, Store

from . import crash_worker
from .conftest import paris_intent

EXE = Path(sys.executable).with_name("tripwright")
INTENT = Path(__file__).resolve().parents[2] / "docs" / "examples" / "paris.json"
TODAY = "2026-11-23"


@pytest.fixture(scope="module")
def forkserver():
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["tests.store.crash_worker"])
    return ctx


def _start_hanging_run(forkserver, url: str, ctx):
    started = forkserver.Value("i", 0)
    child = forkserver.Process(target=crash_worker.begin_and_hang,
                               args=(url, ctx.org_id, ctx.user_id, str(INTENT), TODAY, started))
    child.start()
    deadline = time.monotonic() + 30
    while started.value == 0:
        assert child.is_alive() and time.monotonic() < deadline, "the worker did not begin its run"
        time.sleep(0.01)
    assert started.value == 1
    return child


def _kill(child) -> None:
    child.kill()
    child.join(10)
    assert child.exitcode == -9


def test_a_killed_runs_lease_goes_with_its_process(db_url, accounts_for, forkserver):
    store, ctx = accounts_for(db_url)
    child = _start_hanging_run(forkserver, db_url, ctx)
    try:
        with store.org(ctx) as repo:
            (running,) = repo.runs.running()
            assert store.run_leases.is_held(running.run_id)
            assert repo.runs.fail_orphans() == 0  # alive: left alone
        assert PlanRecorder(store, ctx).begin(paris_intent(),
                                              request_key=crash_worker.cli_request_key(store, ctx, TODAY)).duplicate_pending
    finally:
        _kill(child)
    # SQLite: the flock goes with the process at once. PostgreSQL: the server drops the advisory
    # lock when its backend sees the dead client's connection close, a few milliseconds later.
    deadline = time.monotonic() + 10
    while store.run_leases.is_held(running.run_id) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not store.run_leases.is_held(running.run_id)
    ticket = PlanRecorder(store, ctx).begin(paris_intent(), request_key=crash_worker.cli_request_key(store, ctx, TODAY))
    assert ticket.owned  # the orphan's claim was taken over at once, not after the 10-minute TTL
    with store.org(ctx) as repo:
        status = repo.runs.status(running.run_id)
        assert status.status == "error" and "interrupted" in status.error_message
        assert [r.run_id for r in repo.runs.running()] == [ticket.run_id]


def test_the_cli_fails_a_killed_plan_save_and_saves_the_same_request(tmp_path, forkserver, memory_keyring):
    db = tmp_path / "tripwright.db"
    url = f"sqlite:///{db}"
    env = os.environ | {"TRIPWRIGHT_DATABASE_URL": url, "TRIPWRIGHT_HOME": str(tmp_path)}
    save = [str(EXE), "plan", "--intent", str(INTENT), "--save", "--today", TODAY]
    with Store.open(url) as store:
        ctx = Accounts(store, SecretStore()).first_run()  # the personal user the CLI signs in as
    child = _start_hanging_run(forkserver, url, ctx)
    try:
        busy = subprocess.run(save, capture_output=True, text=True, env=env, timeout=120)
        assert busy.returncode == 2 and "being saved right now" in busy.stderr
        assert "interrupted" not in busy.stderr  # the live run was not failed
    finally:
        _kill(child)
    done = subprocess.run(save, capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "saved as version 1" in done.stderr
    with Store.open(url) as store, store.org(ctx) as repo:
        assert repo.runs.running() == []
        assert [t.version_count for t in repo.trips.list()] == [1]
