"""Destination notes (seed §9.1 ``knowledge_item`` and ``embedding``; issue 13).

An item is one imported document (PII already stripped); its chunks carry the text retrieval
returns and, when an embeddings endpoint was configured at import, the chunk's vector as float32
bytes with the model that made it. Chunks hold ``org_id`` and ``destination`` themselves so a
search filters on one table (tenancy scopes it like every org table).

The seed keys notes by a ``destination`` table; Tripwright keys them by a destination slug (a
fixture city, a named route or any place name), which needs no extra table. The full-text
indexes (FTS5 on SQLite, a tsvector table on PostgreSQL) are created by migration 0005 only,
outside these models, and kept in step by triggers; each full-text row carries a ``scope`` token
(org + destination, :func:`fulltext_scope`) so a search keeps only its own destination's rows.

On PostgreSQL with pgvector, migration 0009 adds ``knowledge_chunk.embedding_vector``; only
those databases have it, so ``schema_vectors.ChunkVector`` maps it apart from ``Base`` (the models
stay the schema every database has), in a module of its own: pgvector's types load numpy, which
opening the store (``trips list``) does not need.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Index, Integer, LargeBinary, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .columns import ID_LENGTH, JSONDoc, UTCDateTime, new_id
from .schema_base import Base, OrgScoped, _created, _parent

DESTINATION_LENGTH = 120
VECTOR_COLUMN = "embedding_vector"  # migration 0009's, on PostgreSQL with pgvector only
FULLTEXT_TABLES = ("knowledge_fts", "knowledge_tsv")  # migration 0005's, not modelled (FTS5 shadows too)


def _id(**kw: Any) -> Any:
    return mapped_column(String(ID_LENGTH), **kw)


class KnowledgeItem(OrgScoped, Base):
    __tablename__ = "knowledge_item"
    __table_args__ = (UniqueConstraint("org_id", "item_id"),
                      _parent(["org_id", "created_by"], "user", ["org_id", "user_id"]),
                      Index("ix_knowledge_item_org_dest", "org_id", "destination"))
    item_id: Mapped[str] = _id(primary_key=True, default=new_id)
    destination: Mapped[str] = mapped_column(String(DESTINATION_LENGTH))
    title: Mapped[str] = mapped_column(Text)
    source_kind: Mapped[str] = mapped_column(String(16))  # file | pasted | tripwright
    source_name: Mapped[str] = mapped_column(Text, default="")
    content: Mapped[str] = mapped_column(Text)  # the whole text, PII removed
    chunk_count: Mapped[int] = mapped_column(Integer, default=0)
    meta: Mapped[dict[str, Any]] = mapped_column("metadata", JSONDoc, default=dict)
    created_by: Mapped[str] = _id()
    created_at: Mapped[datetime] = _created()
    deleted_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class KnowledgeChunk(OrgScoped, Base):
    __tablename__ = "knowledge_chunk"
    __table_args__ = (_parent(["org_id", "item_id"], "knowledge_item", ["org_id", "item_id"], "CASCADE"),
                      Index("ix_knowledge_chunk_org_dest", "org_id", "destination"))
    chunk_id: Mapped[str] = _id(primary_key=True, default=new_id)
    item_id: Mapped[str] = _id(index=True)
    destination: Mapped[str] = mapped_column(String(DESTINATION_LENGTH))
    ordinal: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    token_count: Mapped[int] = mapped_column(Integer)
    embedding: Mapped[bytes | None] = mapped_column(LargeBinary)  # float32, unit length
    embedding_model: Mapped[str | None] = mapped_column(String(120))
    created_at: Mapped[datetime] = _created()


def fulltext_scope(org_id: str, destination: str) -> str:
    """The one-word scope of a chunk in the full-text index; the migration's triggers build the
    same word from the new row (hyphens and underscores are separators for the tokenizers)."""
    return ("o" + org_id.replace("-", "") + "x" + destination.replace("-", "").replace("_", "")).lower()
