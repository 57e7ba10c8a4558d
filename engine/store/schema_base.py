"""What every table module of the schema shares: the declarative ``Base`` (its metadata and naming
conventions), the :class:`OrgScoped` mixin and the column helpers. Its own module so that
``schema``, ``schema_social`` and ``schema_notes`` all build on it without importing each other.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, ForeignKeyConstraint, MetaData, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from .columns import ID_LENGTH, JSONDoc, UTCDateTime, utcnow

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_N_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def _created() -> Any:
    return mapped_column(UTCDateTime(), default=utcnow, nullable=False)


class Base(DeclarativeBase):
    """Declarative base; naming conventions keep constraint names stable across engines."""

    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map = {datetime: UTCDateTime(), dict[str, Any]: JSONDoc, list[Any]: JSONDoc}


class OrgScoped:
    """Mixin: the row belongs to one org. ``tenancy`` adds ``WHERE org_id = :org`` to every ORM
    query touching a subclass and stamps/rejects ``org_id`` on flush."""

    org_id: Mapped[str] = mapped_column(String(ID_LENGTH), ForeignKey("org.org_id"), index=True)


def _parent(cols: list[str], table: str, ref: list[str], ondelete: str | None = None) -> ForeignKeyConstraint:
    return ForeignKeyConstraint(cols, [f"{table}.{c}" for c in ref], ondelete=ondelete)
