"""Alembic environment, run only programmatically by ``engine.store.migrate`` (no alembic.ini).

The caller hands over an open connection in ``config.attributes["connection"]``; batch mode is on
so that any later ALTER works on SQLite without hand-written table copies.
"""

from __future__ import annotations

from alembic import context

from engine.store.schema import Base


def run() -> None:
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True,
                      compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


if getattr(context, "config", None) is not None:  # a plain import (tools, tests) does nothing
    run()
