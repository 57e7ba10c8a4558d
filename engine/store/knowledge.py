"""Destination notes in the store: items, chunks, full-text candidates and vectors (org-scoped).

Every statement is an ORM statement on ``KnowledgeItem``/``KnowledgeChunk``, so ``tenancy``
adds the org filter; the full-text tables (created by migration 0005, no ``org_id`` of their own)
only ever appear joined to the scoped chunk table. Search terms reach the full-text engines as
bound parameters built from ``[^\\W_]+`` words only, so no query syntax can be injected.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Column, Float, MetaData, String, Table, Text, func, literal_column, select
from sqlalchemy.dialects.postgresql import TSVECTOR

from ..errors import InputError
from . import audit
from .columns import utcnow
from .records import NoteChunk, NoteItem, NoteVectors
from .schema_notes import KnowledgeChunk, KnowledgeItem
from .tenancy import OrgContext, OrgSession

_FTS_META = MetaData()
SQLITE_FTS = Table("knowledge_fts", _FTS_META, Column("chunk_id", String), Column("text", Text),
                   Column("rank", Float))
POSTGRES_TSV = Table("knowledge_tsv", _FTS_META, Column("chunk_id", String), Column("tsv", TSVECTOR))


def item_record(item: KnowledgeItem, chunk_count: int) -> NoteItem:
    return NoteItem(item_id=item.item_id, destination=item.destination, title=item.title,
                    source_kind=item.source_kind, source_name=item.source_name, created_by=item.created_by,
                    created_at=item.created_at, deleted=item.deleted_at is not None, chunk_count=chunk_count,
                    metadata=dict(item.meta or {}))


class Knowledge:
    def __init__(self, session: OrgSession, ctx: OrgContext) -> None:
        self._s = session
        self._ctx = ctx

    @property
    def _dialect(self) -> str:
        return self._s.get_bind().dialect.name

    # -- writing ---------------------------------------------------------------------------------
    def add(self, *, destination: str, title: str, source_kind: str, source_name: str, content: str,
            chunks: Sequence[tuple[str, int, bytes | None]], embedding_model: str | None,
            metadata: dict[str, Any]) -> NoteItem:
        """One item and its chunks (text, token count, float32 vector or None), in the caller's
        transaction: a failure anywhere leaves nothing behind."""
        now = utcnow()
        item = KnowledgeItem(destination=destination, title=title, source_kind=source_kind,
                             source_name=source_name, content=content, meta=metadata,
                             created_by=self._ctx.user_id, created_at=now)
        self._s.add(item)
        self._s.flush()
        for ordinal, (text, tokens, vector) in enumerate(chunks):
            self._s.add(KnowledgeChunk(item_id=item.item_id, destination=destination, ordinal=ordinal,
                                       text=text, token_count=tokens, embedding=vector,
                                       embedding_model=embedding_model if vector is not None else None,
                                       created_at=now))
        self._s.flush()
        self._audit("note_imported", item.item_id, destination=destination, chunks=len(chunks),
                    source_kind=source_kind)
        return item_record(item, len(chunks))

    def delete(self, item_id: str) -> NoteItem:
        """Soft delete (the UI offers undo); searches skip deleted items at once."""
        item = self._row(item_id)
        item.deleted_at = utcnow()
        self._audit("note_deleted", item_id, destination=item.destination)
        self._s.flush()
        return item_record(item, self._chunk_count(item_id))

    def restore(self, item_id: str) -> NoteItem:
        item = self._row(item_id, include_deleted=True)
        item.deleted_at = None
        self._audit("note_restored", item_id, destination=item.destination)
        self._s.flush()
        return item_record(item, self._chunk_count(item_id))

    # -- reading ---------------------------------------------------------------------------------
    def items(self, destination: str | None = None, *, include_deleted: bool = False) -> list[NoteItem]:
        counts = (select(KnowledgeChunk.item_id, func.count().label("n"))
                  .group_by(KnowledgeChunk.item_id).subquery())
        stmt = (select(KnowledgeItem, counts.c.n).outerjoin(counts, counts.c.item_id == KnowledgeItem.item_id)
                .order_by(KnowledgeItem.destination, KnowledgeItem.created_at, KnowledgeItem.item_id))
        if destination is not None:
            stmt = stmt.where(KnowledgeItem.destination == destination)
        if not include_deleted:
            stmt = stmt.where(KnowledgeItem.deleted_at.is_(None))
        return [item_record(item, n or 0) for item, n in self._s.execute(stmt)]

    def get(self, item_id: str, *, include_deleted: bool = False) -> NoteItem:
        return item_record(self._row(item_id, include_deleted=include_deleted), self._chunk_count(item_id))

    def has_source(self, source_kind: str, source_name: str) -> bool:
        """Whether an item from this source exists, deleted ones included (Tripwright's own notes
        are seeded once: a user who deleted them does not get them back)."""
        stmt = select(KnowledgeItem.item_id).where(KnowledgeItem.source_kind == source_kind,
                                                   KnowledgeItem.source_name == source_name).limit(1)
        return self._s.scalar(stmt) is not None

    def chunks(self, chunk_ids: Sequence[str]) -> list[NoteChunk]:
        """The chunks asked for (active items only), in the order asked."""
        if not chunk_ids:
            return []
        stmt = self._active(select(KnowledgeChunk, KnowledgeItem.title, KnowledgeItem.source_kind,
                                   KnowledgeItem.source_name)).where(KnowledgeChunk.chunk_id.in_(list(chunk_ids)))
        found = {c.chunk_id: _chunk_record(c, title, kind, name) for c, title, kind, name in self._s.execute(stmt)}
        return [found[i] for i in chunk_ids if i in found]

    def destination_chunks(self, destination: str) -> list[NoteChunk]:
        """Every active chunk of ``destination`` (the plan-time lookup searches them in memory)."""
        stmt = self._active(select(KnowledgeChunk, KnowledgeItem.title, KnowledgeItem.source_kind,
                                   KnowledgeItem.source_name)).where(KnowledgeChunk.destination == destination)
        return [_chunk_record(c, title, kind, name) for c, title, kind, name in
                self._s.execute(stmt.order_by(KnowledgeChunk.item_id, KnowledgeChunk.ordinal))]

    def generation(self, destination: str) -> tuple[int, datetime | None]:
        """Changes whenever the searchable chunks of ``destination`` change (cache key)."""
        stmt = self._active(select(func.count(), func.max(KnowledgeChunk.created_at))).where(
            KnowledgeChunk.destination == destination)
        count, newest = self._s.execute(stmt).one()
        return int(count), newest

    def vectors(self, destination: str, model: str) -> NoteVectors:
        stmt = self._active(select(KnowledgeChunk.chunk_id, KnowledgeChunk.embedding)).where(
            KnowledgeChunk.destination == destination, KnowledgeChunk.embedding_model == model,
            KnowledgeChunk.embedding.is_not(None)).order_by(KnowledgeChunk.chunk_id)
        rows = self._s.execute(stmt).all()
        return NoteVectors(chunk_ids=[r[0] for r in rows], blobs=[r[1] for r in rows])

    # -- full text ---------------------------------------------------------------------------------
    def lexical(self, destination: str, terms: Sequence[str], limit: int) -> list[str]:
        """Chunk ids matching any of ``terms``, best first (BM25 on SQLite, ts_rank_cd on PostgreSQL)."""
        if not terms:
            return []
        score, match, fts_id = self._fulltext(terms)
        order = score.asc() if self._dialect == "sqlite" else score.desc()
        stmt = self._active(select(KnowledgeChunk.chunk_id).join_from(
            KnowledgeChunk, _fts_table(self._dialect), fts_id == KnowledgeChunk.chunk_id)).where(
            match, KnowledgeChunk.destination == destination).order_by(order, KnowledgeChunk.chunk_id).limit(limit)
        return list(self._s.scalars(stmt))

    def document_frequency(self, destination: str, term: str) -> int:
        """How many active chunks of ``destination`` contain ``term`` (stemmed like the index)."""
        _score, match, fts_id = self._fulltext([term])
        stmt = self._active(select(func.count()).select_from(KnowledgeChunk).join(
            _fts_table(self._dialect), fts_id == KnowledgeChunk.chunk_id)).where(
            match, KnowledgeChunk.destination == destination)
        return int(self._s.scalar(stmt) or 0)

    def _fulltext(self, terms: Sequence[str]) -> tuple[Any, Any, Any]:
        clean = [t for t in terms if t.isalnum()]
        if not clean:
            raise InputError("question", "no searchable words")
        if self._dialect == "sqlite":
            query = " OR ".join(f'"{t}"' for t in clean)
            table = literal_column("knowledge_fts")
            return func.bm25(table), table.op("MATCH")(query), SQLITE_FTS.c.chunk_id
        tsquery = func.to_tsquery("english", " | ".join(clean))
        return (func.ts_rank_cd(POSTGRES_TSV.c.tsv, tsquery), POSTGRES_TSV.c.tsv.op("@@")(tsquery),
                POSTGRES_TSV.c.chunk_id)

    # -- internals ---------------------------------------------------------------------------------
    @staticmethod
    def _active(stmt: Any) -> Any:
        return stmt.join(KnowledgeItem, KnowledgeItem.item_id == KnowledgeChunk.item_id).where(
            KnowledgeItem.deleted_at.is_(None))

    def _chunk_count(self, item_id: str) -> int:
        return int(self._s.scalar(select(func.count()).select_from(KnowledgeChunk)
                                  .where(KnowledgeChunk.item_id == item_id)) or 0)

    def _row(self, item_id: str, *, include_deleted: bool = False) -> KnowledgeItem:
        item = self._s.get(KnowledgeItem, item_id) if isinstance(item_id, str) else None
        if item is None or (item.deleted_at is not None and not include_deleted):
            raise InputError("id", f"no note {item_id!r} in this org")
        return item

    def _audit(self, action: str, item_id: str, **detail: object) -> None:
        audit.record(self._s, org_id=self._ctx.org_id, user_id=self._ctx.user_id, action=action,
                     target_type="knowledge_item", target_id=item_id, **detail)


def _fts_table(dialect: str) -> Table:
    return SQLITE_FTS if dialect == "sqlite" else POSTGRES_TSV


def _chunk_record(c: KnowledgeChunk, title: str, kind: str, name: str) -> NoteChunk:
    return NoteChunk(chunk_id=c.chunk_id, item_id=c.item_id, destination=c.destination, ordinal=c.ordinal,
                     text=c.text, token_count=c.token_count, title=title, source_kind=kind, source_name=name)
