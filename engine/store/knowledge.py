"""Destination notes in the store: items, chunks, full-text candidates and vectors (org-scoped).

Every statement is an ORM statement on ``KnowledgeItem``/``KnowledgeChunk``, so ``tenancy``
adds the org filter; the full-text tables (created by migration 0005, no ``org_id`` of their own)
only ever appear joined to the scoped chunk table. Search terms reach the full-text engines as
bound parameters built from ``[^\\W_]+`` words only, so no query syntax can be injected.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from pgvector.sqlalchemy import VECTOR
from sqlalchemy import Column, Float, MetaData, String, Table, Text, and_, case, cast, func, literal, literal_column, select, update
from sqlalchemy.dialects.postgresql import TSVECTOR

from ..errors import InputError
from . import audit
from .columns import utcnow
from .records import NoteChunk, NoteItem, NoteVectors
from .schema_notes import VECTOR_COLUMN, KnowledgeChunk, KnowledgeItem, fulltext_scope
from .schema_vectors import ChunkVector
from .tenancy import OrgContext, OrgSession

_FTS_META = MetaData()
SQLITE_FTS = Table("knowledge_fts", _FTS_META, Column("chunk_id", String), Column("scope", Text),
                   Column("text", Text), Column("rank", Float))
POSTGRES_TSV = Table("knowledge_tsv", _FTS_META, Column("chunk_id", String), Column("scope", Text),
                     Column("tsv", TSVECTOR))
_SCHEMA_COLUMNS = Table("columns", MetaData(schema="information_schema"), Column("table_schema", String),
                        Column("table_name", String), Column("column_name", String))
_CHUNK_COLUMNS = (KnowledgeChunk.chunk_id, KnowledgeChunk.item_id, KnowledgeChunk.destination, KnowledgeChunk.ordinal,
                  KnowledgeChunk.text, KnowledgeChunk.token_count, KnowledgeItem.title, KnowledgeItem.source_kind,
                  KnowledgeItem.source_name)
OVERFETCH = 4  # full-text hits read per result wanted (some may belong to deleted items)


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
            metadata: dict[str, Any], in_database: bool = True) -> NoteItem:
        """One item and its chunks (text, token count, float32 vector or None), in the caller's
        transaction: a failure anywhere leaves nothing behind. ``in_database`` False: the blobs are
        several rows per chunk (the local model's windows), kept out of pgvector's column."""
        now = utcnow()
        item = KnowledgeItem(destination=destination, title=title, source_kind=source_kind,
                             source_name=source_name, content=content, meta=metadata, chunk_count=len(chunks),
                             created_by=self._ctx.user_id, created_at=now)
        self._s.add(item)
        self._s.flush()
        for ordinal, (text, tokens, vector) in enumerate(chunks):
            self._s.add(KnowledgeChunk(item_id=item.item_id, destination=destination, ordinal=ordinal,
                                       text=text, token_count=tokens, embedding=vector,
                                       embedding_model=embedding_model if vector is not None else None,
                                       created_at=now))
        self._s.flush()
        if in_database and self.in_database_vectors() and embedding_model:
            self._store_vectors(item.item_id, [c[2] for c in chunks])
        self._audit("note_imported", item.item_id, destination=destination, chunks=len(chunks),
                    source_kind=source_kind)
        return item_record(item, len(chunks))

    def delete(self, item_id: str) -> NoteItem:
        """Soft delete (the UI offers undo); searches skip deleted items at once."""
        item = self._row(item_id)
        item.deleted_at = utcnow()
        self._audit("note_deleted", item_id, destination=item.destination)
        self._s.flush()
        return item_record(item, item.chunk_count)

    def restore(self, item_id: str) -> NoteItem:
        item = self._row(item_id, include_deleted=True)
        item.deleted_at = None
        self._audit("note_restored", item_id, destination=item.destination)
        self._s.flush()
        return item_record(item, item.chunk_count)

    # -- reading ---------------------------------------------------------------------------------
    def items(self, destination: str | None = None, *, include_deleted: bool = False) -> list[NoteItem]:
        stmt = (select(KnowledgeItem).order_by(KnowledgeItem.destination, KnowledgeItem.created_at, KnowledgeItem.item_id))
        if destination is not None:
            stmt = stmt.where(KnowledgeItem.destination == destination)
        if not include_deleted:
            stmt = stmt.where(KnowledgeItem.deleted_at.is_(None))
        return [item_record(item, item.chunk_count) for item in self._s.scalars(stmt)]

    def get(self, item_id: str, *, include_deleted: bool = False) -> NoteItem:
        item = self._row(item_id, include_deleted=include_deleted)
        return item_record(item, item.chunk_count)

    def has_source(self, source_kind: str, source_name: str) -> bool:
        """Whether an item from this source exists, deleted ones included (Tripwright's own notes
        are seeded once: a user who deleted them does not get them back)."""
        stmt = select(KnowledgeItem.item_id).where(KnowledgeItem.source_kind == source_kind,
                                                   KnowledgeItem.source_name == source_name).limit(1)
        return self._s.scalar(stmt) is not None

    def chunks(self, chunk_ids: Sequence[str]) -> list[NoteChunk]:
        """The chunks asked for (active items only), in the order asked. Columns, not objects:
        passages are read on every question."""
        if not chunk_ids:
            return []
        stmt = self._active(select(*_CHUNK_COLUMNS)).where(KnowledgeChunk.chunk_id.in_(list(chunk_ids)))
        found = {row.chunk_id: NoteChunk.model_construct(**row._mapping) for row in self._s.execute(stmt)}
        return [found[i] for i in chunk_ids if i in found]

    def destination_chunks(self, destination: str) -> list[NoteChunk]:
        """Every active chunk of ``destination`` (the plan-time lookup searches them in memory)."""
        stmt = self._active(select(*_CHUNK_COLUMNS)).where(KnowledgeChunk.destination == destination)
        return [NoteChunk.model_construct(**row._mapping)
                for row in self._s.execute(stmt.order_by(KnowledgeChunk.item_id, KnowledgeChunk.ordinal))]

    def generation(self, destination: str) -> tuple[int, str]:
        """(searchable chunks, digest of the active items): changes whenever the searchable chunks
        of ``destination`` change (a cache key). Reads the small item rows only."""
        rows = self._s.execute(select(KnowledgeItem.item_id, KnowledgeItem.chunk_count).where(
            KnowledgeItem.destination == destination, KnowledgeItem.deleted_at.is_(None))
            .order_by(KnowledgeItem.item_id)).all()
        ids = hashlib.sha256(",".join(r[0] for r in rows).encode()).hexdigest()[:16]
        return sum(r[1] for r in rows), ids

    def vectors(self, destination: str, model: str) -> NoteVectors:
        stmt = self._active(select(KnowledgeChunk.chunk_id, KnowledgeChunk.embedding)).where(
            KnowledgeChunk.destination == destination, KnowledgeChunk.embedding_model == model,
            KnowledgeChunk.embedding.is_not(None)).order_by(KnowledgeChunk.chunk_id)
        rows = self._s.execute(stmt).all()
        return NoteVectors(chunk_ids=[r[0] for r in rows], blobs=[r[1] for r in rows])

    def unembedded(self, destination: str, model: str, limit: int) -> list[tuple[str, str]]:
        """Up to ``limit`` active chunks of ``destination`` with no vector of ``model`` (none yet,
        or another model's): (chunk id, text), to be embedded again."""
        stmt = self._active(select(KnowledgeChunk.chunk_id, KnowledgeChunk.text)).where(
            KnowledgeChunk.destination == destination,
            (KnowledgeChunk.embedding_model.is_(None)) | (KnowledgeChunk.embedding_model != model)
        ).order_by(KnowledgeChunk.chunk_id).limit(limit)
        return [(r[0], r[1]) for r in self._s.execute(stmt)]

    def set_vectors(self, model: str, vectors: Mapping[str, bytes], in_database: bool = True) -> None:
        """Replace the vectors of these chunks with ``model``'s (a model change re-embeds)."""
        for chunk_id, blob in vectors.items():
            self._s.execute(update(KnowledgeChunk).where(KnowledgeChunk.chunk_id == chunk_id)
                            .values(embedding=blob, embedding_model=model)
                            .execution_options(synchronize_session=False))
        if in_database and self.in_database_vectors():
            for chunk_id, blob in vectors.items():
                self._s.execute(update(ChunkVector).where(ChunkVector.chunk_id == chunk_id)
                                .values(vector=np.frombuffer(blob, dtype=np.float32))
                                .execution_options(synchronize_session=False))

    # -- pgvector (PostgreSQL with migration 0009's column) -----------------------------------------
    def in_database_vectors(self) -> bool:
        """Whether this database has the pgvector column: vectors are then written there too
        and searched in the database. Checked once per session."""
        if self._dialect != "postgresql":
            return False
        if VECTOR_COLUMN not in self._s.info:
            found = self._s.scalar(select(_SCHEMA_COLUMNS.c.column_name).where(
                _SCHEMA_COLUMNS.c.table_schema == func.current_schema(),
                _SCHEMA_COLUMNS.c.table_name == "knowledge_chunk", _SCHEMA_COLUMNS.c.column_name == VECTOR_COLUMN))
            self._s.info[VECTOR_COLUMN] = found is not None
        return self._s.info[VECTOR_COLUMN]

    def _store_vectors(self, item_id: str, vectors: Sequence[bytes | None]) -> None:
        ids = self._s.scalars(select(KnowledgeChunk.chunk_id).where(KnowledgeChunk.item_id == item_id)
                              .order_by(KnowledgeChunk.ordinal)).all()
        for chunk_id, blob in zip(ids, vectors, strict=True):
            if blob is not None:
                self._s.execute(update(ChunkVector).where(ChunkVector.chunk_id == chunk_id)
                                .values(vector=np.frombuffer(blob, dtype=np.float32))
                                .execution_options(synchronize_session=False))

    def nearest(self, destination: str, model: str, query: np.ndarray, limit: int) -> dict[str, float]:
        """The ``limit`` active chunks of ``destination`` closest to ``query`` by cosine, ranked
        by pgvector (``<=>``) in the database: chunk id -> cosine similarity. Vectors of another
        model or size are left out (pgvector refuses to compare vectors of different sizes)."""
        # the size check sits in the ORDER BY, not the WHERE: the planner guesses a function's
        # equality keeps 0.5% of the rows and then joined the items by re-reading every chunk
        # per item (5.7 s instead of 0.14 s at 10,000 chunks once ANALYZE had run)
        same_size = func.vector_dims(ChunkVector.vector) == int(query.shape[0])
        distance = case((same_size, ChunkVector.vector.cosine_distance(cast(literal(query, VECTOR()), VECTOR()))))
        stmt = (select(ChunkVector.chunk_id, distance)
                .join(KnowledgeItem, KnowledgeItem.item_id == ChunkVector.item_id)
                .where(KnowledgeItem.deleted_at.is_(None), ChunkVector.destination == destination,
                       ChunkVector.embedding_model == model, ChunkVector.vector.is_not(None))
                .order_by(distance.asc().nulls_last(), ChunkVector.chunk_id).limit(limit))
        return {cid: 1.0 - float(d) for cid, d in self._s.execute(stmt) if d is not None}

    # -- full text ---------------------------------------------------------------------------------
    def lexical(self, destination: str, terms: Sequence[str], limit: int, *,
                frequencies: Mapping[str, int] | None = None) -> list[str]:
        """Chunk ids matching ``terms``, best first (BM25 on SQLite, ts_rank_cd on PostgreSQL).

        Chunks holding every term come first (they are the ones the calibrated confidence rates
        1.0); the rest are filled from chunks holding any term, leaving out terms most chunks hold
        (ranking every chunk by a near-stopword is what makes full-text search slow). The index is
        read within this org's destination only (its scope); hits then pass through the
        org-scoped chunk table, which drops deleted items. ``frequencies``: the terms' document
        frequencies when the caller has them (saves one count per term)."""
        found = self._alive(destination, self._fulltext_hits(destination, terms, limit * OVERFETCH, every=True))
        if len(found) < limit and len(terms) > 1:
            some = self._distinctive(destination, terms, frequencies)
            more = self._alive(destination, self._fulltext_hits(destination, some, limit * OVERFETCH))
            found += [h for h in more if h not in found]
        return found[:limit]

    def _distinctive(self, destination: str, terms: Sequence[str], known: Mapping[str, int] | None) -> list[str]:
        total = self.generation(destination)[0]
        df = {t: known[t] if known and t in known else self.document_frequency(destination, t) for t in terms}
        kept = [t for t in terms if 0 < df[t] <= total / 2]
        return kept or [min(terms, key=lambda t: df[t] or total + 1)]

    def _alive(self, destination: str, hits: list[str]) -> list[str]:
        if not hits:
            return []
        stmt = self._active(select(KnowledgeChunk.chunk_id)).where(
            KnowledgeChunk.chunk_id.in_(hits), KnowledgeChunk.destination == destination)
        alive = set(self._s.scalars(stmt))
        return [h for h in hits if h in alive]

    def document_frequency(self, destination: str, term: str) -> int:
        """How many searchable chunks of ``destination`` contain ``term`` (stemmed like the index).

        The full-text index keeps a deleted item's chunks (undo puts the item back), so they are
        counted and taken off again: only when the destination has deleted items, and then by
        checking the term's hits against those few chunk ids rather than joining every hit."""
        table, where = self._fulltext_filter(destination, [term])
        count = int(self._s.scalar(select(func.count()).select_from(table).where(where)) or 0)
        if count and self._has_deleted(destination):
            deleted = (select(KnowledgeChunk.chunk_id)
                       .join(KnowledgeItem, KnowledgeItem.item_id == KnowledgeChunk.item_id)
                       .where(KnowledgeChunk.destination == destination, KnowledgeItem.deleted_at.is_not(None)))
            count -= int(self._s.scalar(select(func.count()).select_from(table).where(
                where, table.c.chunk_id.in_(deleted.scalar_subquery()))) or 0)
        return count

    def _has_deleted(self, destination: str) -> bool:
        stmt = select(KnowledgeItem.item_id).where(KnowledgeItem.destination == destination,
                                                   KnowledgeItem.deleted_at.is_not(None)).limit(1)
        return self._s.scalar(stmt) is not None

    def _fulltext_hits(self, destination: str, terms: Sequence[str], limit: int, *, every: bool = False) -> list[str]:
        table, where = self._fulltext_filter(destination, terms, every=every)
        if self._dialect == "sqlite":
            order = func.bm25(literal_column("knowledge_fts"), 0.0, 0.0, 1.0).asc()
        else:
            order = func.ts_rank_cd(table.c.tsv, _tsquery(terms, every)).desc()
        return list(self._s.scalars(select(table.c.chunk_id).where(where).order_by(order, table.c.chunk_id)
                                    .limit(limit)))

    def _fulltext_filter(self, destination: str, terms: Sequence[str], *, every: bool = False) -> tuple[Table, Any]:
        clean = [t for t in terms if t.isalnum()]
        if not clean:
            raise InputError("question", "no searchable words")
        scope = fulltext_scope(self._ctx.org_id, destination)
        if self._dialect == "sqlite":
            joined = (" AND " if every else " OR ").join(f'"{t}"' for t in clean)
            # scope is UNINDEXED: checked on the term's hits only (a desktop's chunks are mostly one
            # org's, so an indexed scope word would mean reading every chunk's entry on each search)
            return SQLITE_FTS, and_(literal_column("knowledge_fts").op("MATCH")(f"text : ({joined})"),
                                    SQLITE_FTS.c.scope == scope)
        return POSTGRES_TSV, and_(POSTGRES_TSV.c.scope == scope, POSTGRES_TSV.c.tsv.op("@@")(_tsquery(clean, every)))

    # -- internals ---------------------------------------------------------------------------------
    @staticmethod
    def _active(stmt: Any) -> Any:
        return stmt.join(KnowledgeItem, KnowledgeItem.item_id == KnowledgeChunk.item_id).where(
            KnowledgeItem.deleted_at.is_(None))

    def _row(self, item_id: str, *, include_deleted: bool = False) -> KnowledgeItem:
        item = self._s.get(KnowledgeItem, item_id) if isinstance(item_id, str) else None
        if item is None or (item.deleted_at is not None and not include_deleted):
            raise InputError("id", f"no note {item_id!r} in this org")
        return item

    def _audit(self, action: str, item_id: str, **detail: object) -> None:
        audit.record(self._s, org_id=self._ctx.org_id, user_id=self._ctx.user_id, action=action,
                     target_type="knowledge_item", target_id=item_id, **detail)


def _tsquery(terms: Sequence[str], every: bool = False) -> Any:
    return func.to_tsquery("english", (" & " if every else " | ").join(t for t in terms if t.isalnum()))
