"""Group planning (seed 001): idea priority, reactions on versions, the planning chat.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24

Additive only: one nullable column on ``idea`` and two new tables. ``reaction`` keeps pointing at
ideas; a reaction on a version is a ``version_reaction`` row. ``feedback.rating`` stays NOT NULL
(0 = text without a rating), so no table is rebuilt.
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def _id(name: str) -> sa.Column:
    return sa.Column(name, sa.String(36), nullable=False)


def _owned(table: str, pk: str) -> list:
    return [_id("org_id"), _id("trip_id"), _id("user_id"),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
            sa.ForeignKeyConstraint(["org_id"], ["org.org_id"], name=f"fk_{table}_org_id_org"),
            sa.ForeignKeyConstraint(["org_id", "trip_id"], ["trip.org_id", "trip.trip_id"],
                                    name=f"fk_{table}_org_id_trip_id_trip", ondelete="CASCADE"),
            sa.ForeignKeyConstraint(["org_id", "user_id"], ["user.org_id", "user.user_id"],
                                    name=f"fk_{table}_org_id_user_id_user"),
            sa.PrimaryKeyConstraint(pk, name=f"pk_{table}")]


def upgrade() -> None:
    with op.batch_alter_table("idea") as batch:
        batch.add_column(sa.Column("priority", sa.Integer(), nullable=True))
    op.create_table("version_reaction", _id("reaction_id"), sa.Column("version_number", sa.Integer(), nullable=False),
                    sa.Column("emoji", sa.String(32), nullable=False), *_owned("version_reaction", "reaction_id"),
                    sa.UniqueConstraint("org_id", "trip_id", "version_number", "user_id", "emoji",
                                        name="uq_version_reaction_org_id_trip_id_version_number_user_id_emoji"))
    op.create_index("ix_version_reaction_org_id", "version_reaction", ["org_id"])
    op.create_table("chat_message", _id("message_id"), sa.Column("author", sa.String(200), nullable=False),
                    sa.Column("body", sa.Text(), nullable=False), sa.Column("kind", sa.String(16), nullable=False),
                    sa.Column("source", sa.String(16), nullable=False),
                    sa.Column("sent_at", sa.DateTime(timezone=True), nullable=False),
                    sa.Column("fingerprint", sa.String(64), nullable=False), *_owned("chat_message", "message_id"),
                    sa.UniqueConstraint("org_id", "trip_id", "fingerprint",
                                        name="uq_chat_message_org_id_trip_id_fingerprint"))
    op.create_index("ix_chat_message_org_id", "chat_message", ["org_id"])
    op.create_index("ix_chat_message_trip_sent", "chat_message", ["trip_id", "sent_at"])


def downgrade() -> None:
    raise NotImplementedError("migrations are additive; restore a backup to go back")
