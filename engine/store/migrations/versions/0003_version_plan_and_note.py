"""Each version keeps the PlanV1 it was synthesised from, and what made it (the undo label).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24

Why: a reopened city trip is edited again from its stored plan (the app's edits start from a
PlanV1, which the itinerary alone cannot give back exactly). Both columns are nullable, so
versions saved before this revision simply have no plan and no note. Adding a nullable column is
a plain ``ALTER TABLE ... ADD COLUMN`` on SQLite too (batch mode does not copy the table), so the
triggers guarding ``itinerary_version`` stay in place.
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("itinerary_version") as batch:
        batch.add_column(sa.Column("plan", sa.JSON().with_variant(postgresql.JSONB(), "postgresql"), nullable=True))
        batch.add_column(sa.Column("note", sa.Text(), nullable=True))


def downgrade() -> None:
    raise NotImplementedError("migrations are additive only: restore a backup instead")
