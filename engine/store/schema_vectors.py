"""``knowledge_chunk`` seen through its pgvector column (``schema_notes``: migration 0009 adds it on
PostgreSQL with pgvector only). Apart from ``Base`` — never created, never compared with the
database — and apart from ``schema_notes``: pgvector's SQLAlchemy types import numpy, and only
the notes' vector search needs them."""

from __future__ import annotations

from typing import Any

from pgvector.sqlalchemy import VECTOR
from sqlalchemy import MetaData, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from .columns import ID_LENGTH
from .schema import OrgScoped
from .schema_notes import DESTINATION_LENGTH, VECTOR_COLUMN, _id


class _OptionalColumns(DeclarativeBase):
    metadata = MetaData()  # not Base's: never created, never compared with the database


class ChunkVector(OrgScoped, _OptionalColumns):
    """``knowledge_chunk`` seen through its pgvector column (where migration 0009 added it)."""

    __tablename__ = "knowledge_chunk"
    org_id: Mapped[str] = mapped_column(String(ID_LENGTH))  # OrgScoped's, without the foreign key
    chunk_id: Mapped[str] = _id(primary_key=True)
    item_id: Mapped[str] = _id()
    destination: Mapped[str] = mapped_column(String(DESTINATION_LENGTH))
    embedding_model: Mapped[str | None] = mapped_column(String(120))
    vector: Mapped[Any] = mapped_column(VECTOR_COLUMN, VECTOR())
