"""Destination notes: knowledge items, their chunks (text + optional vector) and a full-text index.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24

Additive: two new tables, their indexes, and a full-text index kept in step by triggers — an
FTS5 virtual table on SQLite (porter stemming, diacritics folded), a tsvector table with a GIN
index on PostgreSQL ('english' configuration). Each full-text row carries a scope (org +
destination, as ``schema_notes.fulltext_scope`` builds it) so a search keeps only its own rows.
Chunks are never updated, only inserted or removed with their item, so insert/delete triggers are all the index needs.
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
# schema_notes.fulltext_scope in SQL (SQLite and PostgreSQL alike)
SCOPE_SQL = ("lower('o' || replace(new.org_id, '-', '') || 'x' || "
             "replace(replace(new.destination, '-', ''), '_', ''))")


def _id(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.String(36), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "knowledge_item", _id("item_id"), _id("org_id"), sa.Column("destination", sa.String(120), nullable=False),
        sa.Column("title", sa.Text(), nullable=False), sa.Column("source_kind", sa.String(16), nullable=False),
        sa.Column("source_name", sa.Text(), nullable=False), sa.Column("content", sa.Text(), nullable=False),
        sa.Column("chunk_count", sa.Integer(), nullable=False), sa.Column("metadata", JSON, nullable=False), _id("created_by"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["org_id"], ["org.org_id"], name="fk_knowledge_item_org_id_org"),
        sa.ForeignKeyConstraint(["org_id", "created_by"], ["user.org_id", "user.user_id"],
                                name="fk_knowledge_item_org_id_created_by_user"),
        sa.PrimaryKeyConstraint("item_id", name="pk_knowledge_item"),
        sa.UniqueConstraint("org_id", "item_id", name="uq_knowledge_item_org_id_item_id"))
    op.create_index("ix_knowledge_item_org_id", "knowledge_item", ["org_id"])
    op.create_index("ix_knowledge_item_org_dest", "knowledge_item", ["org_id", "destination"])
    op.create_table(
        "knowledge_chunk", _id("chunk_id"), _id("org_id"), _id("item_id"),
        sa.Column("destination", sa.String(120), nullable=False), sa.Column("ordinal", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False), sa.Column("token_count", sa.Integer(), nullable=False),
        sa.Column("embedding", sa.LargeBinary(), nullable=True),
        sa.Column("embedding_model", sa.String(120), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["org_id"], ["org.org_id"], name="fk_knowledge_chunk_org_id_org"),
        sa.ForeignKeyConstraint(["org_id", "item_id"], ["knowledge_item.org_id", "knowledge_item.item_id"],
                                name="fk_knowledge_chunk_org_id_item_id_knowledge_item", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("chunk_id", name="pk_knowledge_chunk"))
    op.create_index("ix_knowledge_chunk_org_id", "knowledge_chunk", ["org_id"])
    op.create_index("ix_knowledge_chunk_item_id", "knowledge_chunk", ["item_id"])
    op.create_index("ix_knowledge_chunk_org_dest", "knowledge_chunk", ["org_id", "destination"])
    if op.get_bind().dialect.name == "sqlite":
        _sqlite_fts()
    else:
        _postgres_fts()


def _sqlite_fts() -> None:
    op.execute("CREATE VIRTUAL TABLE knowledge_fts USING fts5(chunk_id UNINDEXED, scope UNINDEXED, text, "
               "tokenize = 'porter unicode61 remove_diacritics 2')")
    op.execute("CREATE TRIGGER knowledge_fts_add AFTER INSERT ON knowledge_chunk BEGIN "
               f"INSERT INTO knowledge_fts (chunk_id, scope, text) VALUES (new.chunk_id, {SCOPE_SQL}, new.text); END")
    op.execute("CREATE TRIGGER knowledge_fts_remove AFTER DELETE ON knowledge_chunk BEGIN "
               "DELETE FROM knowledge_fts WHERE chunk_id = old.chunk_id; END")


def _postgres_fts() -> None:
    op.execute("CREATE TABLE knowledge_tsv (chunk_id VARCHAR(36) PRIMARY KEY "
               "REFERENCES knowledge_chunk (chunk_id) ON DELETE CASCADE, scope TEXT NOT NULL, tsv tsvector NOT NULL)")
    op.execute("CREATE INDEX ix_knowledge_tsv_tsv ON knowledge_tsv USING gin (tsv)")
    op.execute("CREATE INDEX ix_knowledge_tsv_scope ON knowledge_tsv (scope)")
    scope = SCOPE_SQL.replace("new.", "NEW.")
    op.execute("CREATE OR REPLACE FUNCTION knowledge_tsv_add() RETURNS trigger AS $$ BEGIN "
               f"INSERT INTO knowledge_tsv (chunk_id, scope, tsv) VALUES (NEW.chunk_id, {scope}, "
               "to_tsvector('english', NEW.text)); RETURN NEW; END $$ LANGUAGE plpgsql")
    op.execute("CREATE TRIGGER knowledge_tsv_add AFTER INSERT ON knowledge_chunk "
               "FOR EACH ROW EXECUTE FUNCTION knowledge_tsv_add()")


def downgrade() -> None:
    raise NotImplementedError("migrations are additive only: restore a backup instead")
