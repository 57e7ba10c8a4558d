"""The store and org a command-line run uses (``plan --save``, ``eval``, ``notes``, ``replan-now``);
the app signs in through app/workspace.py."""

from __future__ import annotations

import contextlib
import sys

from engine.errors import InputError


@contextlib.contextmanager
def signed_in():
    """(store, ctx) of the signed-in org for a command-line run (``plan --save``, ``eval``): the
    personal user on a local file, else a login the app remembered; a restored database and runs
    a killed process left are said on stderr."""
    import structlog

    from engine.store import Accounts, Store
    store = Store.open()
    if store.recovery:  # a damaged database was replaced by its newest good backup
        print(f"tripwright: {store.recovery}", file=sys.stderr)
    structlog.get_logger("tripwright.cli").info("store_opened", backend=store.url.get_backend_name())
    try:
        accounts = Accounts(store)
        ctx = accounts.first_run()
        if ctx is None:
            login = accounts.resume()
            if login is None:
                raise InputError("login", "this database needs a sign-in: open the app once and choose "
                                          "'remember me', then run the command again")
            ctx = login.ctx
        _fail_orphans(store, ctx)
        yield store, ctx
    finally:
        store.close()


def _fail_orphans(store, ctx) -> None:
    """Runs a killed ``plan --save`` left ``running`` (no live process holds their lease) become
    errors and free their requests, as the app does at start-up."""
    with store.org(ctx, write=True) as repo:
        failed = repo.runs.fail_orphans()
    if failed:
        print(f"tripwright: {failed} interrupted run(s) left by a stopped Tripwright marked failed", file=sys.stderr)
