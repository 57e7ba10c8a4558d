"""Column types that behave the same on SQLite and PostgreSQL.

SQLite keeps no time zone and has no JSONB; these types hide that so the repositories and the
tests never branch on the dialect.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import JSON, DateTime, String
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.types import TypeDecorator

# JSON documents: JSONB on PostgreSQL (indexable, compact), JSON text on SQLite.
JSONDoc = JSON().with_variant(JSONB(), "postgresql")

ID_LENGTH = 36


def new_id() -> str:
    """Random ids as text: the same representation on both engines and in pydantic models."""
    return str(uuid.uuid4())


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes in, aware UTC datetimes out (SQLite would return naive ones)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the store; use an aware UTC datetime")
        value = value.astimezone(timezone.utc)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=timezone.utc)
        return value.astimezone(timezone.utc)


def id_column_type() -> String:
    return String(ID_LENGTH)
