"""Core schema: orgs, users, trips, versions, runs, events, cache, idempotency, tokens, audit.

Revision ID: 0001
Revises:
Create Date: 2026-11-23

Hand-tidied from autogenerate; types are spelled out here (not imported from the app) so the
migration keeps meaning the same thing when the models change later.
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _id(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.String(36), nullable=nullable)


def _ts(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def _json(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.JSON().with_variant(postgresql.JSONB(), "postgresql"), nullable=nullable)


def _int(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.Integer(), nullable=nullable)


def _str(name: str, length: int, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.String(length), nullable=nullable)


def _text(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.Text(), nullable=nullable)


def _org(table: str) -> list:
    """The org_id column every org-scoped table carries, its FK and its index."""
    return [_id("org_id"), sa.ForeignKeyConstraint(["org_id"], ["org.org_id"], name=f"fk_{table}_org_id_org")]


def _fk(table: str, col: str, parent: str, pcol: str, ondelete: str | None = None) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(["org_id", col], [f"{parent}.org_id", f"{parent}.{pcol}"],
                                   name=f"fk_{table}_org_id_{col}_{parent}", ondelete=ondelete)


def _table(name: str, *items) -> None:
    op.create_table(name, *items, *_org(name))
    op.create_index(f"ix_{name}_org_id", name, ["org_id"])


def upgrade() -> None:
    op.create_table("org", _id("org_id"), _text("name"), sa.Column("personal", sa.Boolean(), nullable=False),
                    _ts("created_at"), sa.PrimaryKeyConstraint("org_id", name="pk_org"))
    _table("audit_log", sa.Column("entry_id", sa.Integer(), autoincrement=True, nullable=False),
           _id("user_id", True), _ts("ts"), _str("action", 64), _str("target_type", 32),
           _str("target_id", 128), _json("detail"), sa.PrimaryKeyConstraint("entry_id", name="pk_audit_log"))
    op.create_index("ix_audit_log_org_ts", "audit_log", ["org_id", "ts"])
    op.create_table("idempotency", _str("key", 128), _id("user_id"), _str("status", 16),
                    _id("run_id", True), _int("version_number", True), _str("response_hash", 64, True),
                    _ts("ttl_until"), _ts("created_at"), *_org("idempotency"),
                    sa.PrimaryKeyConstraint("key", "org_id", name="pk_idempotency"))
    op.create_index("ix_idempotency_ttl_until", "idempotency", ["ttl_until"])
    op.create_table("tool_cache", _str("cache_key", 128), _str("tool", 32), _json("payload"),
                    _ts("created_at"), _ts("expires_at"), *_org("tool_cache"),
                    sa.PrimaryKeyConstraint("cache_key", "org_id", name="pk_tool_cache"))
    op.create_index("ix_tool_cache_expires_at", "tool_cache", ["expires_at"])
    _table("user", _id("user_id"), _text("email"), _text("display_name"), _text("password_hash", True),
           _int("failed_logins"), _ts("locked_until", True), _ts("created_at"),
           sa.PrimaryKeyConstraint("user_id", name="pk_user"),
           sa.UniqueConstraint("org_id", "email", name="uq_user_org_id_email"),
           sa.UniqueConstraint("org_id", "user_id", name="uq_user_org_id_user_id"))
    _table("remember_token", _id("token_id"), _id("user_id"), _id("chain_id"), _str("token_hash", 64),
           _ts("expires_at"), _ts("used_at", True), sa.Column("revoked", sa.Boolean(), nullable=False),
           _ts("created_at"), _fk("remember_token", "user_id", "user", "user_id", "CASCADE"),
           sa.PrimaryKeyConstraint("token_id", name="pk_remember_token"),
           sa.UniqueConstraint("token_hash", name="uq_remember_token_token_hash"))
    op.create_index("ix_remember_token_chain_id", "remember_token", ["chain_id"])
    _table("trip", _id("trip_id"), _text("name"), _str("mode", 16), _id("created_by"), _ts("created_at"),
           _ts("updated_at"), _ts("deleted_at", True), _int("version_count"),
           _fk("trip", "created_by", "user", "user_id"), sa.PrimaryKeyConstraint("trip_id", name="pk_trip"),
           sa.UniqueConstraint("org_id", "trip_id", name="uq_trip_org_id_trip_id"))
    op.create_index("ix_trip_org_updated", "trip", ["org_id", "deleted_at", "updated_at"])
    _table("agent_run", _id("run_id"), _id("trip_id", True), _id("user_id"), _str("trace_id", 64),
           _str("status", 16), _int("progress_pct"), _str("latest_node", 64), _json("intent"),
           _json("checkpoints"), _json("tool_log", True), _int("cost_micro_usd"), _text("error_message"),
           _ts("created_at"), _ts("updated_at"), _ts("completed_at", True),
           _fk("agent_run", "trip_id", "trip", "trip_id", "CASCADE"), _fk("agent_run", "user_id", "user", "user_id"),
           sa.PrimaryKeyConstraint("run_id", name="pk_agent_run"),
           sa.UniqueConstraint("org_id", "run_id", name="uq_agent_run_org_id_run_id"))
    op.create_index("ix_agent_run_org_user_created", "agent_run", ["org_id", "user_id", "created_at"])
    _table("itinerary_version", _id("version_id"), _id("trip_id"), _int("number"), _str("status", 16),
           _json("intent"), _json("itinerary"), _json("repairs"), _json("llm_meta"), _id("run_id", True),
           _int("total_usd_cents", True), _int("day_count"), _int("blocking_count"), _int("advisory_count"),
           _id("created_by"), _ts("created_at"),
           _fk("itinerary_version", "created_by", "user", "user_id"),
           _fk("itinerary_version", "trip_id", "trip", "trip_id", "CASCADE"),
           sa.PrimaryKeyConstraint("version_id", name="pk_itinerary_version"),
           sa.UniqueConstraint("trip_id", "number", name="uq_itinerary_version_trip_id_number"))
    _table("trip_member", _id("trip_id"), _id("user_id"), _str("role", 16), _ts("added_at"),
           _fk("trip_member", "trip_id", "trip", "trip_id", "CASCADE"),
           _fk("trip_member", "user_id", "user", "user_id", "CASCADE"),
           sa.PrimaryKeyConstraint("trip_id", "user_id", name="pk_trip_member"))
    _table("run_event", sa.Column("event_id", sa.Integer(), autoincrement=True, nullable=False),
           _id("run_id"), _int("seq"), _ts("ts"), _str("node", 64), _str("status", 16), _json("payload"),
           _fk("run_event", "run_id", "agent_run", "run_id", "CASCADE"),
           sa.PrimaryKeyConstraint("event_id", name="pk_run_event"))
    op.create_index("ix_run_event_run_ts", "run_event", ["run_id", "ts"])


def downgrade() -> None:
    raise NotImplementedError("migrations are additive only: restore a backup instead")
