"""Compressed documents, one copy of a plan, and which version each version was made from.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24

Why: a version stored 115 KB (its itinerary and its PlanV1 as JSON text) and a saved run 286 KB
more (the checkpoints held the same plan three times). New rows write the itinerary, the plan
and the checkpoints as zlib-compressed canonical JSON in the new ``*_z`` columns, and a
checkpoint equal to the plan of the run's version refers to it instead of repeating it (hence the
index on ``itinerary_version.run_id``). ``based_on`` records the version a new one was made from,
so a reopened trip's undo history is the one the user had, not the versions in number order; the
lineage index holds what that history needs of each version.

Additive: every new column is nullable and nothing is rewritten. Rows written before keep their
JSON columns and a NULL ``based_on`` (read as "made from the version before it"); readers prefer
a compressed column when it is set. ``itinerary_version`` rows are immutable (0002's triggers
refuse UPDATE), which is one more reason not to convert old rows. ``ADD COLUMN`` and
``CREATE INDEX`` keep SQLite's table and its triggers in place (batch mode copies nothing here).
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("itinerary_version") as batch:
        batch.add_column(sa.Column("itinerary_z", sa.LargeBinary(), nullable=True))
        batch.add_column(sa.Column("plan_z", sa.LargeBinary(), nullable=True))
        batch.add_column(sa.Column("based_on", sa.Integer(), nullable=True))
    op.create_index("ix_itinerary_version_run_id", "itinerary_version", ["run_id"])
    # Covering: reopening a trip reads every version's place in the history from the index
    # alone (0.4 ms for 1,000 versions on SQLite instead of 10 ms reading the rows).
    op.create_index("ix_itinerary_version_lineage", "itinerary_version", ["trip_id", "number", "based_on", "note"])
    with op.batch_alter_table("agent_run") as batch:
        batch.add_column(sa.Column("checkpoints_z", sa.LargeBinary(), nullable=True))


def downgrade() -> None:
    raise NotImplementedError("migrations are additive only: restore a backup instead")
