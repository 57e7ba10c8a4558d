"""Destination notes: planner statistics for the notes tables on SQLite.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-24

Additive: no table or column changes. Without statistics SQLite answers "these 32 chunk ids of
this org" through the tenancy filter's ``(org_id, destination)`` index — reading every chunk of
the destination (~20 ms at 10,000 chunks) — instead of 32 primary-key look-ups (~0.1 ms). Rows
in ``sqlite_stat1`` saying an org and a destination hold many chunks make it pick the key. They
are written only where the database has no statistics of its own for these indexes (a later
``ANALYZE`` replaces them with measured ones, which point the same way). PostgreSQL keeps its
own statistics (autovacuum), so there is nothing to do there.
"""
from __future__ import annotations

from alembic import op
from sqlalchemy import text

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

# (table, index, "rows  rows-per-key of each indexed column prefix")
STATISTICS = [
    ("knowledge_chunk", "sqlite_autoindex_knowledge_chunk_1", "10000 1"),
    ("knowledge_chunk", "ix_knowledge_chunk_org_id", "10000 10000"),
    ("knowledge_chunk", "ix_knowledge_chunk_org_dest", "10000 10000 2000"),
    ("knowledge_chunk", "ix_knowledge_chunk_item_id", "10000 20"),
    ("knowledge_item", "sqlite_autoindex_knowledge_item_1", "500 1"),
    ("knowledge_item", "sqlite_autoindex_knowledge_item_2", "500 500 1"),
    ("knowledge_item", "ix_knowledge_item_org_id", "500 500"),
    ("knowledge_item", "ix_knowledge_item_org_dest", "500 500 100"),
]


def upgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name != "sqlite":
        return
    conn.execute(text("ANALYZE sqlite_schema"))  # creates sqlite_stat1 when missing, analyses nothing big
    known = {row[0] for row in conn.execute(text(
        "SELECT idx FROM sqlite_stat1 WHERE tbl IN ('knowledge_chunk', 'knowledge_item')"))}
    for table, index, stat in STATISTICS:
        if index not in known:
            conn.execute(text("INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (:t, :i, :s)"),
                         {"t": table, "i": index, "s": stat})
    conn.execute(text("ANALYZE sqlite_schema"))  # this connection reads the new rows now


def downgrade() -> None:
    raise NotImplementedError("migrations are additive only: restore a backup instead")
