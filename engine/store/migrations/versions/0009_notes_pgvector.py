"""Destination notes: a pgvector column for the chunks' vectors on PostgreSQL.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-24

Additive, and only where it can be: on PostgreSQL offering the ``vector`` extension it creates
the extension and adds ``knowledge_chunk.embedding_vector`` (``vector`` without a dimension, so
any embedding model fits, kept in the row: ``STORAGE MAIN``), filled from the chunks' float32
vectors already stored. Retrieval
then ranks by cosine distance in the database. SQLite, and PostgreSQL without the extension (or
a role not allowed to create it), keep the float32 bytes and the numpy search: nothing changes.
"""
from __future__ import annotations

import numpy as np
from alembic import op
from pgvector import Vector
from sqlalchemy import text

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

COLUMN = "embedding_vector"  # engine/store/schema_notes.py VECTOR_COLUMN
BATCH = 500


def upgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name != "postgresql":
        return
    if conn.execute(text("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")).first() is None:
        return
    try:
        with conn.begin_nested():  # a role that may not create extensions: stay on the numpy path
            conn.execute(text("CREATE EXTENSION IF NOT EXISTS vector"))
            conn.execute(text(f"ALTER TABLE knowledge_chunk ADD COLUMN IF NOT EXISTS {COLUMN} vector"))
            # kept in the row, not in TOAST: the search reads every vector of a destination, and
            # 10,000 × 1,536 took ~110 ms through TOAST against ~30 ms in the row (the text and
            # the float32 bytes, extended, are moved out first)
            conn.execute(text(f"ALTER TABLE knowledge_chunk ALTER COLUMN {COLUMN} SET STORAGE MAIN"))
    except Exception:  # noqa: BLE001 (the driver's error types; the savepoint undid them all)
        return
    _fill(conn)


def _fill(conn) -> None:  # noqa: ANN001
    """The vectors imported before this revision, in batches (a chunk id is unique across orgs)."""
    ids = conn.execute(text("SELECT chunk_id FROM knowledge_chunk WHERE embedding IS NOT NULL "
                            f"AND {COLUMN} IS NULL ORDER BY chunk_id")).scalars().all()
    for start in range(0, len(ids), BATCH):
        rows = conn.execute(text("SELECT chunk_id, embedding FROM knowledge_chunk WHERE chunk_id = ANY(:ids)"),
                            {"ids": ids[start:start + BATCH]}).all()
        conn.execute(text(f"UPDATE knowledge_chunk SET {COLUMN} = CAST(:v AS vector) WHERE chunk_id = :c"),
                     [{"c": cid, "v": Vector(np.frombuffer(blob, dtype=np.float32)).to_text()} for cid, blob in rows])


def downgrade() -> None:
    raise NotImplementedError("migrations are additive only: restore a backup instead")
