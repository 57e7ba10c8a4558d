"""The relational schema (SQLAlchemy 2 typed ORM). Nothing here leaves ``engine/store/``.

Every table that belongs to an org inherits :class:`OrgScoped`; ``tenancy.py`` filters every ORM
query by that class and stamps ``org_id`` on new rows. Child tables reference their parents by
``(org_id, parent_id)`` composite keys (seed §9.2), so the database itself refuses a row that
points into another org.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (Boolean, ForeignKey, Index, Integer, String,
                        Text, UniqueConstraint)
from sqlalchemy.orm import Mapped, mapped_column

from .columns import ID_LENGTH, JSONDoc, PackedJSON, UTCDateTime, new_id
from .schema_base import Base, OrgScoped, _created, _parent

TRIP_MODES = ("city", "road_trip", "multi_city")
RUN_STATUSES = ("running", "completed", "error", "cancelled")
IDEMPOTENCY_STATUSES = ("pending", "completed", "error")
MEMBER_ROLES = ("owner", "editor", "viewer")


def _id(**kw: Any) -> Any:
    return mapped_column(String(ID_LENGTH), **kw)


class Org(Base):
    __tablename__ = "org"
    org_id: Mapped[str] = _id(primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(Text)
    personal: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = _created()


class User(OrgScoped, Base):
    __tablename__ = "user"
    __table_args__ = (UniqueConstraint("org_id", "email"), UniqueConstraint("org_id", "user_id"))
    user_id: Mapped[str] = _id(primary_key=True, default=new_id)
    email: Mapped[str] = mapped_column(Text)
    display_name: Mapped[str] = mapped_column(Text, default="")
    password_hash: Mapped[str | None] = mapped_column(Text)  # Argon2id; None = personal, no password
    failed_logins: Mapped[int] = mapped_column(Integer, default=0)
    locked_until: Mapped[datetime | None] = mapped_column(UTCDateTime())
    created_at: Mapped[datetime] = _created()


class Trip(OrgScoped, Base):
    __tablename__ = "trip"
    __table_args__ = (UniqueConstraint("org_id", "trip_id"),
                      _parent(["org_id", "created_by"], "user", ["org_id", "user_id"]),
                      Index("ix_trip_org_updated", "org_id", "deleted_at", "updated_at"))
    trip_id: Mapped[str] = _id(primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(Text)
    mode: Mapped[str] = mapped_column(String(16), default="city")
    created_by: Mapped[str] = _id()
    created_at: Mapped[datetime] = _created()
    updated_at: Mapped[datetime] = _created()
    deleted_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    version_count: Mapped[int] = mapped_column(Integer, default=0)  # bumped first: serialises saves


class TripMember(OrgScoped, Base):
    __tablename__ = "trip_member"
    __table_args__ = (_parent(["org_id", "trip_id"], "trip", ["org_id", "trip_id"], "CASCADE"),
                      _parent(["org_id", "user_id"], "user", ["org_id", "user_id"], "CASCADE"))
    trip_id: Mapped[str] = _id(primary_key=True)
    user_id: Mapped[str] = _id(primary_key=True)
    role: Mapped[str] = mapped_column(String(16), default="owner")
    added_at: Mapped[datetime] = _created()


class ItineraryVersion(OrgScoped, Base):
    """Immutable: ``tenancy`` rejects any update or delete of a flushed row (purge aside).

    Since revision 0004 the itinerary and the plan are written compressed (``itinerary_z``,
    ``plan_z``; ``itinerary`` then holds ``{}``, ``plan`` NULL); rows written before keep their
    JSON columns, and readers take the compressed one when it is there."""

    __tablename__ = "itinerary_version"
    __table_args__ = (UniqueConstraint("trip_id", "number"),
                      _parent(["org_id", "trip_id"], "trip", ["org_id", "trip_id"], "CASCADE"),
                      _parent(["org_id", "created_by"], "user", ["org_id", "user_id"]),
                      Index("ix_itinerary_version_run_id", "run_id"),
                      Index("ix_itinerary_version_lineage", "trip_id", "number", "based_on", "note"))
    version_id: Mapped[str] = _id(primary_key=True, default=new_id)
    trip_id: Mapped[str] = _id()
    number: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default="ok")
    intent: Mapped[dict[str, Any]] = mapped_column(JSONDoc)
    itinerary: Mapped[dict[str, Any]] = mapped_column(JSONDoc)
    repairs: Mapped[list[Any]] = mapped_column(JSONDoc, default=list)
    llm_meta: Mapped[dict[str, Any]] = mapped_column(JSONDoc, default=dict)  # non-empty: an LLM revision
    plan: Mapped[dict[str, Any] | None] = mapped_column(JSONDoc)  # PlanV1 (city trips): the next edit starts here
    note: Mapped[str | None] = mapped_column(Text)  # what made this version ("Planned", "Locked Louvre")
    run_id: Mapped[str | None] = _id()  # soft reference: runs are pruned after 30 days, versions stay
    total_usd_cents: Mapped[int | None] = mapped_column(Integer)
    day_count: Mapped[int] = mapped_column(Integer, default=0)
    blocking_count: Mapped[int] = mapped_column(Integer, default=0)
    advisory_count: Mapped[int] = mapped_column(Integer, default=0)
    created_by: Mapped[str] = _id()
    created_at: Mapped[datetime] = _created()
    itinerary_z: Mapped[dict[str, Any] | None] = mapped_column(PackedJSON)
    plan_z: Mapped[dict[str, Any] | None] = mapped_column(PackedJSON)
    based_on: Mapped[int | None] = mapped_column(Integer)  # the version this one was made from; NULL before 0004


class AgentRun(OrgScoped, Base):
    __tablename__ = "agent_run"
    __table_args__ = (UniqueConstraint("org_id", "run_id"),
                      _parent(["org_id", "trip_id"], "trip", ["org_id", "trip_id"], "CASCADE"),
                      _parent(["org_id", "user_id"], "user", ["org_id", "user_id"]),
                      Index("ix_agent_run_org_user_created", "org_id", "user_id", "created_at"))
    run_id: Mapped[str] = _id(primary_key=True, default=new_id)
    trip_id: Mapped[str | None] = _id()
    user_id: Mapped[str] = _id()
    trace_id: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), default="running")
    progress_pct: Mapped[int] = mapped_column(Integer, default=0)
    latest_node: Mapped[str] = mapped_column(String(64), default="")
    intent: Mapped[dict[str, Any]] = mapped_column(JSONDoc)
    checkpoints: Mapped[list[Any]] = mapped_column(JSONDoc, default=list)  # the last 3 (before 0004)
    tool_log: Mapped[list[Any] | None] = mapped_column(JSONDoc)  # pruned after 24 h
    cost_micro_usd: Mapped[int] = mapped_column(Integer, default=0)
    error_message: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = _created()
    updated_at: Mapped[datetime] = _created()
    completed_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    checkpoints_z: Mapped[dict[str, Any] | None] = mapped_column(PackedJSON)  # since 0004: see checkpoints.py


class RunEvent(OrgScoped, Base):
    __tablename__ = "run_event"
    __table_args__ = (_parent(["org_id", "run_id"], "agent_run", ["org_id", "run_id"], "CASCADE"),
                      Index("ix_run_event_run_ts", "run_id", "ts"))
    event_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    run_id: Mapped[str] = _id()
    seq: Mapped[int] = mapped_column(Integer)
    ts: Mapped[datetime] = mapped_column(UTCDateTime())
    node: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16))
    payload: Mapped[dict[str, Any]] = mapped_column(JSONDoc)  # the StreamEvent as JSON


class ToolCacheEntry(OrgScoped, Base):
    """Org-scoped: even a cached flight search tells who is going where."""

    __tablename__ = "tool_cache"
    cache_key: Mapped[str] = mapped_column(String(128), primary_key=True)
    org_id: Mapped[str] = mapped_column(String(ID_LENGTH), ForeignKey("org.org_id"), primary_key=True)
    tool: Mapped[str] = mapped_column(String(32))
    payload: Mapped[dict[str, Any]] = mapped_column(JSONDoc)
    created_at: Mapped[datetime] = _created()
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)


class Idempotency(OrgScoped, Base):
    __tablename__ = "idempotency"
    key: Mapped[str] = mapped_column(String(128), primary_key=True)
    org_id: Mapped[str] = mapped_column(String(ID_LENGTH), ForeignKey("org.org_id"), primary_key=True)
    user_id: Mapped[str] = _id()
    status: Mapped[str] = mapped_column(String(16), default="pending")
    run_id: Mapped[str | None] = _id()
    version_number: Mapped[int | None] = mapped_column(Integer)
    response_hash: Mapped[str | None] = mapped_column(String(64))
    ttl_until: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)
    created_at: Mapped[datetime] = _created()


class RememberToken(OrgScoped, Base):
    """Only the SHA-256 of a token is stored; the token itself lives in the OS keyring."""

    __tablename__ = "remember_token"
    __table_args__ = (_parent(["org_id", "user_id"], "user", ["org_id", "user_id"], "CASCADE"),)
    token_id: Mapped[str] = _id(primary_key=True, default=new_id)
    user_id: Mapped[str] = _id()
    chain_id: Mapped[str] = _id(index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime())
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime())  # set when rotated
    revoked: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = _created()


class AuditEntry(OrgScoped, Base):
    """Append-only (a trigger refuses UPDATE and DELETE); ``detail`` never holds a secret."""

    __tablename__ = "audit_log"
    __table_args__ = (Index("ix_audit_log_org_ts", "org_id", "ts"),)
    entry_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[str | None] = _id()
    ts: Mapped[datetime] = _created()
    action: Mapped[str] = mapped_column(String(64))
    target_type: Mapped[str] = mapped_column(String(32), default="")
    target_id: Mapped[str] = mapped_column(String(128), default="")
    detail: Mapped[dict[str, Any]] = mapped_column(JSONDoc, default=dict)


from . import schema_social  # noqa: E402,F401  (registers the LLM-issue tables on Base.metadata)
from . import schema_notes  # noqa: E402,F401  (registers the destination-notes tables)
