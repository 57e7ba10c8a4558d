"""Ideas, notes, feedback and reactions (for the LLM issue); audit log and versions guarded.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23

The guards are triggers, so even SQL typed by hand cannot rewrite history or a saved version.
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def _id(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.String(36), nullable=nullable)


def _common(table: str, pk: str) -> list:
    return [_id("org_id"), _id("user_id"), sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
            sa.ForeignKeyConstraint(["org_id"], ["org.org_id"], name=f"fk_{table}_org_id_org"),
            sa.ForeignKeyConstraint(["org_id", "user_id"], ["user.org_id", "user.user_id"],
                                    name=f"fk_{table}_org_id_user_id_user"),
            sa.PrimaryKeyConstraint(pk, name=f"pk_{table}")]


def _trip_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(["org_id", "trip_id"], ["trip.org_id", "trip.trip_id"],
                                   name=f"fk_{table}_org_id_trip_id_trip", ondelete="CASCADE")


def _create(table: str, pk: str, *items) -> None:
    op.create_table(table, _id(pk), *items, *_common(table, pk))
    op.create_index(f"ix_{table}_org_id", table, ["org_id"])


def upgrade() -> None:
    _create("idea", "idea_id", _id("trip_id"), sa.Column("source", sa.String(16), nullable=False),
            sa.Column("title", sa.Text(), nullable=False), sa.Column("body", sa.Text(), nullable=False),
            _trip_fk("idea"), sa.UniqueConstraint("org_id", "idea_id", name="uq_idea_org_id_idea_id"))
    _create("note", "note_id", _id("trip_id"), sa.Column("version_number", sa.Integer(), nullable=True),
            sa.Column("body", sa.Text(), nullable=False), _trip_fk("note"))
    _create("feedback", "feedback_id", _id("trip_id"), sa.Column("version_number", sa.Integer(), nullable=True),
            sa.Column("rating", sa.Integer(), nullable=False), sa.Column("comment", sa.Text(), nullable=False),
            _trip_fk("feedback"))
    _create("reaction", "reaction_id", _id("idea_id"), sa.Column("kind", sa.String(32), nullable=False),
            sa.ForeignKeyConstraint(["org_id", "idea_id"], ["idea.org_id", "idea.idea_id"],
                                    name="fk_reaction_org_id_idea_id_idea", ondelete="CASCADE"),
            sa.UniqueConstraint("idea_id", "user_id", "kind", name="uq_reaction_idea_id_user_id_kind"))
    _guard_history()


# table -> the changes refused: history is append-only, saved versions are immutable
GUARDED = {"audit_log": ("UPDATE", "DELETE"), "itinerary_version": ("UPDATE",)}


def _guard_history() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("CREATE FUNCTION tripwright_refuse_change() RETURNS trigger LANGUAGE plpgsql AS "
                   "$$ BEGIN RAISE EXCEPTION '% rows cannot be changed', TG_TABLE_NAME; END $$")
        for table, verbs in GUARDED.items():
            op.execute(f"CREATE TRIGGER {table}_guard BEFORE {' OR '.join(verbs)} ON {table} "
                       "FOR EACH ROW EXECUTE FUNCTION tripwright_refuse_change()")
        return
    for table, verbs in GUARDED.items():
        for verb in verbs:
            op.execute(f"CREATE TRIGGER {table}_no_{verb.lower()} BEFORE {verb} ON {table} "
                       f"BEGIN SELECT RAISE(ABORT, '{table} rows cannot be changed'); END")


def downgrade() -> None:
    raise NotImplementedError("migrations are additive only: restore a backup instead")
